"""Database faults: unusable files refused at open, disk faults refused and logged once."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path

import pytest
from store_helpers import FakeClock, new_game

from bot.store import DatabaseUnusable, SqliteStore, Store, StoreUnavailable
from bot.store.health import check_database, folder_problem

SEATS = [11, 12]


async def _make_database(path: Path, records: int = 300) -> None:
    """A closed database with one game and a log long enough to fill many pages."""
    store = await SqliteStore.open(path, clock=FakeClock())
    game = await store.create_game(
        guild_id=1, channel_id=2, creator_id=11, options={}, seed=1, engine_version="t", seats=SEATS
    )
    for version in range(records):
        await store.append(game.id, version, [{"kind": "system", "pad": "x" * 200, "v": version}])
    await store.close()


@pytest.fixture(scope="module")
def good_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A healthy database file (checkpointed: no -wal beside it) to copy and damage."""
    import asyncio

    path = tmp_path_factory.mktemp("good") / "games.sqlite3"
    asyncio.run(_make_database(path))
    assert not path.with_name(path.name + "-wal").exists()
    return path


def _page_of(path: Path, table: str) -> int:
    """The root page number of a table or index (1-based)."""
    con = sqlite3.connect(path)
    try:
        (page,) = con.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)
        ).fetchone()
    finally:
        con.close()
    return int(page)


def _leaves_of(path: Path, table: str) -> list[int]:
    """The leaf pages holding a table's rows, in order (SQLite's dbstat table)."""
    con = sqlite3.connect(path)
    try:
        rows = con.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno",
            (table,),
        ).fetchall()
    finally:
        con.close()
    assert len(rows) >= 3, f"{table} fills {len(rows)} leaf pages: too few to damage"
    return [int(page) for (page,) in rows]


def _damage(path: Path, page: int, offset: int, data: bytes) -> None:
    """Overwrite bytes inside one page, as a failing disk or a bad copy would."""
    size = int.from_bytes(path.read_bytes()[16:18], "big")
    with path.open("r+b") as fh:
        fh.seek((page - 1) * size + offset)
        fh.write(data)


def _bad_file(kind: str, good: Path, path: Path) -> str:
    """Make the named kind of unusable database at `path`; return the expected kind."""
    if kind == "folder":
        path.mkdir()
        return "folder"
    if kind == "text":
        path.write_text("[discord]\ntoken = 'oops, this is the config file'\n" * 5)
        return "not-a-database"
    if kind == "binary":
        path.write_bytes(bytes(range(256))[::-1] * 40)
        return "not-a-database"
    shutil.copy(good, path)
    size = path.stat().st_size
    if kind == "truncated":
        with path.open("r+b") as fh:
            fh.truncate(size // 2)
    elif kind == "torn-page":  # not a whole number of pages
        with path.open("r+b") as fh:
            fh.truncate(size - 100)
    elif kind == "header":  # the first bytes survived, the page size did not
        _damage(path, 1, 16, b"\x00\x03")
    elif kind == "log-page":  # a b-tree page header of the log table overwritten
        _damage(path, _page_of(path, "log") + 3, 0, b"\x42" * 64)
    elif kind == "root-page":
        _damage(path, _page_of(path, "log"), 0, b"\x0d\xff\xff" + b"\x00" * 61)
    elif kind == "cells":  # cell pointers zeroed in pages whose headers look fine
        leaves = _leaves_of(path, "log")  # pages with cells (an empty table's root has none)
        middle = len(leaves) // 2
        for page in leaves[middle : middle + 3]:
            _damage(path, page, 12, b"\x00" * 1000)
    else:
        raise AssertionError(kind)
    return "damaged"


BAD_KINDS = [
    "folder",
    "text",
    "binary",
    "truncated",
    "torn-page",
    "header",
    "log-page",
    "root-page",
    "cells",
]


@pytest.mark.parametrize("kind", BAD_KINDS)
async def test_an_unusable_file_is_refused_at_open_and_left_as_it_was(
    good_database: Path, tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "games.sqlite3"
    expected = _bad_file(kind, good_database, path)
    before = None if path.is_dir() else path.read_bytes()
    with pytest.raises(DatabaseUnusable) as info:
        await SqliteStore.open(path, clock=FakeClock())
    assert info.value.kind == expected
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    # The file is evidence and the only copy of the games: never "repaired" or migrated.
    if before is not None:
        assert path.read_bytes() == before
    # --check-config finds the same problem without opening the store.
    with pytest.raises(DatabaseUnusable) as checked:
        check_database(str(path))
    assert checked.value.kind == expected


async def test_a_healthy_or_new_file_opens(good_database: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(good_database, copy)
    check_database(str(copy))
    async with await SqliteStore.open(copy, clock=FakeClock()) as store:
        assert (await store.get_game(1)).version == 300
    empty = tmp_path / "empty.sqlite3"
    empty.touch()  # SQLite treats an empty file as a new database
    async with await SqliteStore.open(empty, clock=FakeClock()) as store:
        assert await store.list_games() == []


def test_folder_problem_tries_a_real_file(tmp_path: Path) -> None:
    assert folder_problem(tmp_path / "not" / "yet") is None  # would be created in tmp_path
    assert list(tmp_path.iterdir()) == []  # and nothing was left behind
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert folder_problem(blocker / "backups") == f"{blocker} is not a folder"


async def _full_store(tmp_path: Path) -> tuple[SqliteStore, int]:
    """A store with one game, and SQLite told that the file may not grow any more."""
    store = await SqliteStore.open(tmp_path / "games.sqlite3", clock=FakeClock())
    game = await store.create_game(
        guild_id=1, channel_id=2, creator_id=11, options={}, seed=1, engine_version="t", seats=SEATS
    )
    await store._db.execute("PRAGMA max_page_count = 1")  # clamps to the pages it has now
    return store, game.id


BIG = {"kind": "system", "pad": "y" * 60_000}  # needs new pages: cannot fit in free space


async def test_a_full_disk_refuses_writes_logs_once_and_recovers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store, game_id = await _full_store(tmp_path)
    caplog.set_level(logging.DEBUG, logger="bot.store")
    for _ in range(5):
        with pytest.raises(StoreUnavailable) as info:
            await store.append(game_id, 0, [BIG])
        assert info.value.writing and info.value.reason == "the disk is full"
    assert await store.version(game_id) == 0  # nothing was changed; reads still work
    assert [s.user_id for s in (await store.get_game(game_id)).seats] == SEATS
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert "saving to database" in errors[0].getMessage()
    assert "the disk is full" in errors[0].getMessage()
    assert errors[0].exc_info is None  # one line, no traceback
    # Space comes back: the next write works, and that is said once.
    await store._db.execute("PRAGMA max_page_count = 1073741823")
    assert await store.append(game_id, 0, [BIG]) == 1
    assert await store.append(game_id, 1, [BIG]) == 2
    again = [r for r in caplog.records if "works again" in r.getMessage()]
    assert len(again) == 1 and again[0].levelno == logging.WARNING
    await store.close()


async def test_a_read_only_database_refuses_every_kind_of_write(tmp_path: Path) -> None:
    store, game_id = await _full_store(tmp_path)
    await store._db.execute("PRAGMA max_page_count = 1073741823")
    await store._db.execute("PRAGMA query_only = 1")  # SQLite's own read-only switch
    writes = [
        store.append(game_id, 0, [{"kind": "system"}]),
        store.set_status(game_id, "abandoned"),
        store.replace_seat(game_id, 0, 13),
        store.claim_outbox(),
        store.put_user_settings(await store.get_user_settings(11)),
        store.create_game(
            guild_id=1,
            channel_id=3,
            creator_id=11,
            options={},
            seed=1,
            engine_version="t",
            seats=[],
        ),
    ]
    for write in writes:
        with pytest.raises(StoreUnavailable, match="read-only"):
            await write
    assert await store.list_games() != []  # reading is fine
    await store._db.execute("PRAGMA query_only = 0")
    assert await store.append(game_id, 0, [{"kind": "system"}]) == 1
    await store.close()


async def test_a_bug_is_not_mistaken_for_a_disk_fault(tmp_path: Path) -> None:
    store, _ = await _full_store(tmp_path)

    async def bad_sql(db: object) -> None:
        await store._db.execute("SELECT * FROM no_such_table")

    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await store._tx(bad_sql)
    await store.close()


async def test_a_write_that_changes_nothing_does_not_say_the_disk_works_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store, game_id = await _full_store(tmp_path)
    caplog.set_level(logging.DEBUG, logger="bot.store")
    with pytest.raises(StoreUnavailable):
        await store.append(game_id, 0, [BIG])
    # Write transactions that have nothing to write commit on a full disk too: they prove
    # nothing about it (the outbox and reminder loops run them all the time).
    assert await store.claim_outbox() == [] and await store.claim_reminders() == []
    assert not [r for r in caplog.records if "works again" in r.getMessage()]
    with pytest.raises(StoreUnavailable):
        await store.append(game_id, 0, [BIG])
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]  # still the one outage
    # Space comes back: the first write that writes says so, once.
    await store._db.execute("PRAGMA max_page_count = 1073741823")
    assert await store.claim_outbox() == []
    assert not [r for r in caplog.records if "works again" in r.getMessage()]
    assert await store.append(game_id, 0, [BIG]) == 1
    again = [r for r in caplog.records if "works again" in r.getMessage()]
    assert len(again) == 1 and again[0].levelno == logging.WARNING
    await store.close()


async def test_on_either_store_an_outage_ends_with_a_write_that_wrote(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite and PostgreSQL alike: during an outage of saving, a write transaction with
    nothing to write does not end it; the first that writes does, saying so once."""
    game = await new_game(store)
    outage = store._write_outage  # type: ignore[attr-defined]
    caplog.set_level(logging.DEBUG, logger="bot.store")
    outage.failed("the disk is full", "writes are refused")
    assert await store.claim_outbox() == [] and await store.claim_reminders() == []
    assert outage.reason == "the disk is full"
    assert not [r for r in caplog.records if "works again" in r.getMessage()]
    assert await store.append(game.id, 0, [{"kind": "system"}]) == 1
    assert outage.reason is None
    assert len([r for r in caplog.records if "works again" in r.getMessage()]) == 1
