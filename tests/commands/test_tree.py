"""The /barrage tree stays inside Discord's limits (walked recursively, every level)."""

from __future__ import annotations

import json
import re
from typing import Any

import discord
from discord import app_commands

from bot.commands.group import barrage

NAME = re.compile(r"^[-_'\w]{1,32}$")
EXPECTED = {
    "new", "join", "leave", "start", "play", "do", "board", "company", "log", "score",
    "restart", "undo", "games", "settings", "replace", "skip", "rewind", "abandon",
    "export", "import", "help", "stats", "history", "away", "hint",
}  # fmt: skip


def payload() -> dict[str, Any]:
    """The JSON a sync sends for /barrage."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(barrage)
    return barrage.to_dict(tree)


def _text_size(node: dict[str, Any]) -> int:
    """Name, description and choice text of a node and everything below it."""
    size = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices") or []:
        size += len(choice["name"]) + len(str(choice["value"]))
    return size + sum(_text_size(o) for o in node.get("options") or [])


def _walk(node: dict[str, Any], path: str, problems: list[str]) -> None:
    """Check one level and recurse."""
    name, description = node.get("name", ""), node.get("description", "")
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{path}: bad name {name!r}")
    if not 1 <= len(description) <= 100:
        problems.append(f"{path}: description of {len(description)} characters")
    options = node.get("options") or []
    if len(options) > 25:
        problems.append(f"{path}: {len(options)} options (max 25)")
    if len({o["name"] for o in options}) != len(options):
        problems.append(f"{path}: duplicate option names")
    required_seen_optional = False
    for option in options:
        if option["type"] not in (1, 2):
            if option.get("required") and required_seen_optional:
                problems.append(f"{path}: required option {option['name']} after an optional one")
            required_seen_optional |= not option.get("required", False)
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{path} {option['name']}: {len(choices)} choices")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= 100 or len(str(choice["value"])) > 100:
                problems.append(f"{path} {option['name']}: choice {choice['name']!r} too long")
        if option.get("autocomplete") and choices:
            problems.append(f"{path} {option['name']}: autocomplete with choices")
        _walk(option, f"{path} {option['name']}", problems)


def test_every_level_is_within_discords_limits() -> None:
    """Names, descriptions, counts, choices at every level; 8000 characters per command."""
    data = payload()
    problems: list[str] = []
    _walk(data, "/barrage", problems)
    assert problems == []
    assert _text_size(data) <= 8000
    assert len(json.dumps(data)) < 16_000


def test_the_group_has_every_subcommand_and_is_guild_only() -> None:
    """All 24 subcommands, one level deep, only in servers."""
    data = payload()
    assert {o["name"] for o in data["options"]} == EXPECTED
    assert all(o["type"] == 1 for o in data["options"])
    assert data.get("contexts") == [0] or data.get("dm_permission") is False


def test_typed_arguments_autocomplete() -> None:
    """do, settings time_zone, rewind version, help topic, board view (the game's own
    views: an expansion adds its board) and new expansions (the combinations the options typed
    so far may play) suggest values as one types."""
    options = {o["name"]: o for o in payload()["options"]}
    auto = {
        (sub, p["name"])
        for sub, o in options.items()
        for p in o.get("options") or []
        if p.get("autocomplete")
    }
    assert auto == {
        ("do", "moves"),
        ("settings", "time_zone"),
        ("rewind", "version"),
        ("help", "topic"),
        ("board", "view"),
        ("new", "expansions"),
    }
