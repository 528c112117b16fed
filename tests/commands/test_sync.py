"""Commands are registered only when they changed, unless configured otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.commands import sync
from bot.commands.group import barrage


class RecordingTree(app_commands.CommandTree[Any]):
    """A tree whose sync is recorded instead of sent."""

    def __init__(self) -> None:
        super().__init__(discord.Client(intents=discord.Intents.none()))
        self.synced: list[object] = []
        self.add_command(barrage)

    async def sync(self, *, guild: Any = None) -> list[Any]:  # type: ignore[override]
        self.synced.append(guild.id if guild else None)
        return []


async def test_on_change_syncs_once_then_only_after_a_change(tmp_path: Path) -> None:
    """A second start with the same commands does not register them again."""
    state = sync.SyncState(tmp_path / "sync.json")
    tree = RecordingTree()
    assert await sync.sync_commands(tree, policy="on-change", guild_id=None, state=state)
    assert not await sync.sync_commands(tree, policy="on-change", guild_id=None, state=state)
    # Another target (a test guild) is registered separately.
    assert await sync.sync_commands(tree, policy="on-change", guild_id=42, state=state)
    assert tree.synced == [None, 42]
    state.record("global", "something else")
    assert await sync.sync_commands(tree, policy="on-change", guild_id=None, state=state)


async def test_always_and_never(tmp_path: Path) -> None:
    """'always' syncs every time, 'never' not at all."""
    state = sync.SyncState(tmp_path / "sync.json")
    tree = RecordingTree()
    for _ in range(2):
        assert await sync.sync_commands(tree, policy="always", guild_id=None, state=state)
    assert not await sync.sync_commands(tree, policy="never", guild_id=None, state=state)
    assert tree.synced == [None, None]


def test_a_corrupt_state_file_means_sync(tmp_path: Path) -> None:
    """An unreadable file is treated as 'never synced'."""
    path = tmp_path / "sync.json"
    path.write_text("{not json")
    assert sync.SyncState(path).last("global") is None
