"""SQLite schema migrations: every old version upgrades, old releases' files still open."""

from __future__ import annotations

import asyncio
import json
import runpy
import shutil
import sqlite3
from pathlib import Path

import aiosqlite
import pytest
from store_helpers import FakeClock, decision, new_game

from bot.store import (
    FINISHED,
    REMINDER_KINDS,
    MigrationError,
    SchemaTooNewError,
    SqliteStore,
    UserSettings,
)
from bot.store.migrate import (
    Migration,
    latest_version,
    migrate,
    schema_version,
    split_statements,
    sqlite_migrations,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "store"
FIXTURE_RESULT = runpy.run_path(str(FIXTURES / "make_fixture.py"))["FIXTURE_RESULT"]
LATEST = latest_version()


def _user_version(path: Path) -> int:
    """The schema version recorded in a database file."""
    con = sqlite3.connect(path)
    try:
        return con.execute("PRAGMA user_version").fetchone()[0]
    finally:
        con.close()


async def _make_db(path: Path, version: int) -> None:
    """A database at an older schema version, built with the migrations up to it."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, path=str(path), target=version) == version


def test_migrations_are_numbered_from_one_without_gaps() -> None:
    assert [m.version for m in sqlite_migrations()] == list(range(1, LATEST + 1))


@pytest.mark.parametrize("start", range(LATEST))
async def test_every_earlier_version_upgrades_to_the_latest(
    tmp_path: Path, clock: FakeClock, start: int
) -> None:
    path = tmp_path / "old.sqlite3"
    await _make_db(path, start)
    async with await SqliteStore.open(path, clock=clock) as store:
        game = await new_game(store)
        assert await store.append(game.id, 0, [decision(1)], snapshot={}) == 1
    assert _user_version(path) == LATEST


@pytest.mark.parametrize("version", range(1, LATEST + 1))
def test_a_fixture_exists_for_every_released_version(version: int) -> None:
    assert (FIXTURES / f"v{version}.sqlite3").is_file(), "run tests/fixtures/store/make_fixture.py"
    assert (FIXTURES / f"v{version}.json").is_file()


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("v*.sqlite3")), ids=lambda p: p.stem)
async def test_database_of_an_earlier_release_opens_and_continues(
    tmp_path: Path, clock: FakeClock, fixture: Path
) -> None:
    path = tmp_path / fixture.name
    shutil.copyfile(fixture, path)  # never touch the committed file
    expected = json.loads(fixture.with_suffix(".json").read_text(encoding="utf-8"))
    async with await SqliteStore.open(path, clock=clock) as store:
        game = await store.active_game(2)
        assert game is not None
        doc = await store.export_game(game.id)
        assert doc["seed"] == expected["seed"]
        assert doc["seats"] == expected["seats"]
        assert doc["log"] == expected["log"]
        listed = await store.list_games(guild_id=1)
        assert [g.status for g in listed] == ["active", FINISHED]
        # Schema 4 keeps results; games finished before it get theirs from the backfill.
        kept = await store.game_result(listed[1].id)
        if int(fixture.stem[1:]) >= 4:
            assert kept is not None and kept.result == FIXTURE_RESULT
        else:
            assert kept is None and await store.games_without_results() == [listed[1].id]
        assert (await store.latest_snapshot(game.id)).state == {"round": 1, "turn": 2}
        assert [i.payload for i in await store.pending_outbox(game.id)] == [{"text": "pending"}]
        [reminder] = await store.reminders(game.id)
        assert reminder.kind in REMINDER_KINDS  # schema 1 had no kinds: all were reminders
        bob = await store.get_user_settings(expected["seats"][1]["user_id"])
        assert bob.time_zone == "America/Denver" and bob.dm_opt_in
        # ... and the game goes on.
        version = len(expected["log"])
        assert await store.append(game.id, version, [decision(9)]) == version + 1
        await store.put_user_settings(UserSettings(1))
    assert _user_version(path) == LATEST


async def test_a_newer_database_is_refused_with_an_explanation(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "future.sqlite3"
    await _make_db(path, LATEST)
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {LATEST + 1}")
    con.commit()
    con.close()
    with pytest.raises(SchemaTooNewError, match="newer barrage-bot"):
        await SqliteStore.open(path, clock=clock)
    assert _user_version(path) == LATEST + 1


async def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    steps = [
        Migration(1, "good", "CREATE TABLE a (x INTEGER);"),
        Migration(2, "bad", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);"),
    ]
    async with aiosqlite.connect(path, isolation_level=None) as db:
        with pytest.raises(MigrationError, match="0002_bad"):
            await migrate(db, path=str(path), migrations=steps)
        assert await schema_version(db) == 1
        tables = await db.execute_fetchall("SELECT name FROM sqlite_master WHERE type='table'")
        assert [t[0] for t in tables] == ["a"]


async def test_two_openers_migrate_once(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "new.sqlite3"
    a, b = await asyncio.gather(
        SqliteStore.open(path, clock=clock), SqliteStore.open(path, clock=clock)
    )
    await a.close()
    await b.close()
    assert _user_version(path) == LATEST


def test_split_statements_keeps_semicolons_in_strings_and_drops_comments() -> None:
    sql = (
        "-- a comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
        "\nSELECT 1;\n-- end\n"
    )
    assert split_statements(sql) == [
        "-- a comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT 'a;b');",
        "SELECT 1;",
    ]
