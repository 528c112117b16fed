"""Small parsers of typed arguments, and the endpoint overrides."""

from __future__ import annotations

import discord
import pytest
import yarl

from bot.commands.endpoints import apply_endpoint_overrides
from bot.commands.group import parse_quiet_hours, split_moves


def test_moves_split_on_semicolons() -> None:
    """Spaces and empty parts are dropped."""
    assert split_moves(" bank 2 ;confirm;; ") == ["bank 2", "confirm"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("22-7", (1320, 420)), ("22:30-07:05", (1350, 425)), ("off", None), (" 0 - 23:59", (0, 1439))],
)
def test_quiet_hours(text: str, expected: tuple[int, int] | None) -> None:
    """Hours or hours:minutes, or off."""
    assert parse_quiet_hours(text) == expected


@pytest.mark.parametrize("text", ["22", "25-7", "22:60-1", "evening"])
def test_bad_quiet_hours(text: str) -> None:
    """A specific complaint for anything else."""
    with pytest.raises(ValueError, match="quiet hours"):
        parse_quiet_hours(text)


def test_endpoint_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both variables redirect discord.py; none leaves it alone."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    assert not apply_endpoint_overrides({})
    env = {
        "BARRAGE_DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/",
        "BARRAGE_DISCORD_GATEWAY": "ws://127.0.0.1:9/gateway/",
    }
    assert apply_endpoint_overrides(env)
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
    assert yarl.URL("ws://127.0.0.1:9/gateway/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
