"""When to register slash commands with Discord: only when they changed, or as configured."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)


def tree_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The JSON that a sync would send (global commands), in a stable order."""
    commands = [command.to_dict(tree) for command in tree.get_commands()]
    return sorted(commands, key=lambda c: (c.get("type", 1), c["name"]))


def tree_hash(tree: app_commands.CommandTree[Any]) -> str:
    """A hash of the command definitions: it changes exactly when a sync is needed."""
    text = json.dumps(tree_payload(tree), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class SyncState:
    """The hash of the last registration per target, kept in a small JSON file."""

    def __init__(self, path: Path) -> None:
        """Remember where the file lives (it need not exist yet)."""
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def last(self, target: str) -> str | None:
        """The hash registered last for a target ('global' or 'guild:ID'), if known."""
        return self._read().get(target)

    def record(self, target: str, digest: str) -> None:
        """Remember a successful registration (written atomically)."""
        data = self._read()
        data[target] = digest
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        tmp.replace(self.path)


async def sync_commands(
    tree: app_commands.CommandTree[Any],
    *,
    policy: str,
    guild_id: int | None,
    state: SyncState | None,
) -> bool:
    """Register the commands if the policy says so; return whether a sync happened.

    policy: "always", "never" or "on-change" (the hash differs from the last registration).
    With a test guild the global commands are copied there (instant) instead of registered
    globally (which Discord takes a while to spread).
    """
    if policy == "never":
        log.info("command sync is off (sync_commands = never)")
        return False
    target = f"guild:{guild_id}" if guild_id else "global"
    digest = tree_hash(tree)
    if policy == "on-change" and state is not None and state.last(target) == digest:
        log.info("slash commands unchanged since the last registration (%s): no sync", target)
        return False
    guild = discord.Object(id=guild_id) if guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    synced = await tree.sync(guild=guild)
    if state is not None:
        state.record(target, digest)
    log.info("registered %d slash command(s) (%s)", len(synced), target)
    return True
