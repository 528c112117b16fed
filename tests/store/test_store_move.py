"""Moving up: `barrage-bot migrate-db` copies a SQLite store into an empty PostgreSQL database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest
from store_helpers import ALICE, BOB, CAROL, FakeClock, decision, new_game
from test_store_results import TWO

from bot.__main__ import main
from bot.store import EXPIRY, ClaimOwner, SqliteStore, StaleVersionError, UserSettings
from bot.store.move import MoveRefused, move_to_postgres
from bot.store.postgres import PostgresStore


async def _filled_sqlite(path: Path, clock: FakeClock) -> dict[str, int]:
    """A store with a row in every table: two games (one finished), a replaced seat, log
    records with snapshots, sent and pending announcements, reminders, user settings, and the
    clock's deadlines, time away, heartbeats and outages."""
    store = await SqliteStore.open(path, clock=clock)
    try:
        first = await new_game(store)
        second = await new_game(store, channel_id=5)
        for version in range(6):
            clock.advance(1000)
            await store.append(
                first.id,
                version,
                [decision(version, text="ünïcødé ✓ ' \" ;")],
                snapshot={"turn": version, "board": ["x"] * 20},
                outbox=[{"n": version}] if version % 2 else (),
            )
        await store.append(second.id, 0, [decision(0)], snapshot={"turn": 0})
        [item] = await store.claim_outbox(owner=ClaimOwner("host", "run"))
        await store.mark_sent(item.id, item.claim, 4242)
        await store.replace_seat(second.id, 1, CAROL)
        await store.set_status(second.id, "finished")
        await store.set_reminder(first.id, ALICE, clock() + 60_000)
        await store.set_reminder(first.id, BOB, clock() + 90_000, sent_count=2)
        # A finished game with its results (the statistics' tables).
        third = await new_game(store, channel_id=9, seats=[ALICE, BOB])
        await store.append(third.id, 0, [decision(1)], snapshot={"v": 1})
        await store.append(third.id, 1, [decision(2)], snapshot={"v": 2}, result=TWO)
        await store.put_user_settings(
            UserSettings(
                ALICE, time_zone="Europe/Berlin", quiet_start=1320, quiet_end=420, dm_opt_in=True
            )
        )
        # The turn clock's tables: a deadline, time away, heartbeats and an outage between.
        await store.set_deadlines(first.id, EXPIRY, [(ALICE, clock() + 3_600_000)], version=6)
        await store.set_away(BOB, clock() + 86_400_000)
        await store.beat("host-a", gap_ms=60_000)
        clock.advance(600_000)
        assert await store.beat("host-b", gap_ms=60_000) is not None  # ten minutes unanswered
        return {"first": first.id, "second": second.id}
    finally:
        await store.close()


async def test_every_table_moves_with_equal_counts_and_hashes(
    tmp_path: Path, postgres_url: str
) -> None:
    clock = FakeClock()
    path = tmp_path / "barrage.sqlite3"
    ids = await _filled_sqlite(path, clock)
    copied = await move_to_postgres(path, postgres_url)

    with sqlite3.connect(path) as con:
        expected = {
            name: con.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
            for (name,) in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    assert {t.name: t.rows for t in copied} == expected
    assert {"games", "seats", "log", "snapshots", "outbox", "reminders", "user_settings"} <= set(
        expected
    )
    assert all(rows > 0 for rows in expected.values()), expected
    # Parents before children.
    order = [t.name for t in copied]
    assert order.index("games") < order.index("log") < order.index("snapshots")

    # The PostgreSQL store reads back what the SQLite one wrote, through the store API.
    sqlite_store = await SqliteStore.open(path, clock=clock)
    pg_store = await PostgresStore.open(postgres_url, clock=clock)
    try:
        for game_id in ids.values():
            assert await pg_store.get_game(game_id) == await sqlite_store.get_game(game_id)
            assert await pg_store.read_log(game_id) == await sqlite_store.read_log(game_id)
            assert await pg_store.latest_snapshot(game_id) == await sqlite_store.latest_snapshot(
                game_id
            )
            assert await pg_store.pending_outbox(game_id) == await sqlite_store.pending_outbox(
                game_id
            )
            assert await pg_store.reminders(game_id) == await sqlite_store.reminders(game_id)
        assert await pg_store.get_user_settings(ALICE) == await sqlite_store.get_user_settings(
            ALICE
        )
        # The version arbiter and the id sequences carry on where the file stopped.
        with pytest.raises(StaleVersionError):
            await pg_store.append(ids["first"], 5, [decision(9)])
        assert await pg_store.append(ids["first"], 6, [decision(6)]) == 7
        third = await new_game(pg_store, channel_id=77)
        assert third.id > max(ids.values())
    finally:
        await sqlite_store.close()
        await pg_store.close()


async def test_a_table_added_later_moves_too(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "barrage.sqlite3"
    await _filled_sqlite(path, FakeClock())
    # As a later migration would add it to both backends.
    with sqlite3.connect(path) as con:
        con.execute(
            "CREATE TABLE tallies (game_id INTEGER PRIMARY KEY, wins INTEGER, flag BOOLEAN)"
        )
        con.executemany("INSERT INTO tallies VALUES (?, ?, ?)", [(1, 3, 1), (2, 0, 0)])
    await (await PostgresStore.open(postgres_url)).close()
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute(
            "CREATE TABLE tallies (game_id BIGINT PRIMARY KEY, wins BIGINT, flag BOOLEAN)"
        )
        copied = await move_to_postgres(path, postgres_url)
        assert [t.rows for t in copied if t.name == "tallies"] == [2]
        rows = await connection.fetch("SELECT * FROM tallies ORDER BY game_id")
        assert [tuple(r) for r in rows] == [(1, 3, True), (2, 0, False)]
    finally:
        await connection.close()


async def test_a_database_with_rows_is_never_overwritten(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "barrage.sqlite3"
    await _filled_sqlite(path, FakeClock())
    await move_to_postgres(path, postgres_url)
    pg_store = await PostgresStore.open(postgres_url)
    try:
        before = await pg_store.read_log(1)
        await pg_store.append(1, len(before), [decision(99)])
        with pytest.raises(MoveRefused, match="is not empty"):
            await move_to_postgres(path, postgres_url)
        assert len(await pg_store.read_log(1)) == len(before) + 1
    finally:
        await pg_store.close()


async def test_a_missing_file_is_refused_and_not_created(tmp_path: Path, postgres_url: str) -> None:
    with pytest.raises(MoveRefused, match="no such SQLite file"):
        await move_to_postgres(tmp_path / "nothing.sqlite3", postgres_url)
    assert not (tmp_path / "nothing.sqlite3").exists()


def test_the_command_moves_then_refuses_a_second_time(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "barrage.sqlite3"
    from pgtestserver import run_in_thread

    run_in_thread(lambda: _filled_sqlite(path, FakeClock()))
    assert main(["migrate-db", "--from", str(path), "--to", postgres_url]) == 0
    out = capsys.readouterr().out
    assert "games" in out and "snapshots" in out and "sha256" in out
    assert main(["migrate-db", "--from", str(path), "--to", postgres_url]) == 1
    assert "is not empty" in capsys.readouterr().err


def test_the_command_wants_a_postgresql_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate-db", "--from", str(tmp_path / "x"), "--to", str(tmp_path / "y")]) == 2
    assert "postgresql://" in capsys.readouterr().err
