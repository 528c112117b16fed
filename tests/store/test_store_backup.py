"""Online backups: a consistent copy that opens, taken on a schedule, old ones pruned."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from store_helpers import FakeClock, decision, new_game

from bot.store import SqliteStore, Store, SupportsBackup
from bot.store.backup import backup_name, backup_time, list_backups, run_backups

HOUR = 3_600_000


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStore]:
    """Backups to files are SQLite's; a PostgreSQL database is backed up with pg_dump."""
    opened = await SqliteStore.open(tmp_path / "store.sqlite3", clock=clock)
    yield opened
    await opened.close()


async def test_backup_opens_and_holds_the_game(
    store: Store, clock: FakeClock, tmp_path: Path
) -> None:
    assert isinstance(store, SupportsBackup)
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], snapshot={"s": 1})
    dest = tmp_path / "copy" / "backup.sqlite3"
    dest.parent.mkdir()
    await store.backup(dest)
    await store.append(game.id, 1, [decision(2)])  # after the backup: not in it
    async with await SqliteStore.open(dest, clock=clock) as copy:
        assert (await copy.get_game(game.id)).version == 1
        assert [e.record for e in await copy.read_log(game.id)] == [decision(1)]
    assert sorted(p.name for p in dest.parent.iterdir()) == ["backup.sqlite3"]


def test_backup_names_sort_by_time_and_encode_it() -> None:
    names = [backup_name(t) for t in (1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000)]
    assert names == sorted(names)
    assert backup_time(Path(names[1])) == 1_700_000_000_001
    assert backup_time(Path("notes.txt")) is None


class FakeSleep:
    """Stands in for asyncio.sleep: advances the fake clock, stops after `limit` sleeps."""

    def __init__(self, clock: FakeClock, limit: int) -> None:
        """Remember the clock and how many sleeps to allow."""
        self.clock, self.limit, self.calls = clock, limit, []

    async def __call__(self, seconds: float) -> None:
        """Advance time instead of waiting."""
        self.calls.append(seconds)
        if len(self.calls) > self.limit:
            raise asyncio.CancelledError
        self.clock.advance(int(seconds * 1000))


async def test_scheduled_backups_follow_the_interval_and_prune(
    store: Store, clock: FakeClock, tmp_path: Path
) -> None:
    assert isinstance(store, SupportsBackup)
    await new_game(store)
    sleep = FakeSleep(clock, limit=5)
    with pytest.raises(asyncio.CancelledError):
        await run_backups(
            store, tmp_path / "b", interval_ms=6 * HOUR, keep=3, clock=clock, sleep=sleep
        )
    assert sleep.calls == [6 * 3600.0] * 6
    kept = list_backups(tmp_path / "b")
    assert [backup_time(p) for p in kept] == [clock.now - k * 6 * HOUR for k in (2, 1, 0)]


async def test_restart_does_not_back_up_again_too_soon(
    store: Store, clock: FakeClock, tmp_path: Path
) -> None:
    assert isinstance(store, SupportsBackup)
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / backup_name(clock.now - HOUR)).write_bytes(b"")
    sleep = FakeSleep(clock, limit=0)
    with pytest.raises(asyncio.CancelledError):
        await run_backups(store, folder, interval_ms=6 * HOUR, keep=3, clock=clock, sleep=sleep)
    assert sleep.calls == [5 * 3600.0]
    assert len(list_backups(folder)) == 1


async def test_a_failing_backup_is_retried_and_does_not_stop_the_loop(
    clock: FakeClock, tmp_path: Path
) -> None:
    class Broken:
        async def backup(self, dest: object) -> None:
            raise OSError("disk full")

    sleep = FakeSleep(clock, limit=2)
    with pytest.raises(asyncio.CancelledError):
        await run_backups(
            Broken(), tmp_path, interval_ms=24 * HOUR, keep=3, clock=clock, sleep=sleep
        )
    assert sleep.calls == [600.0] * 3
