"""Fixtures of the store's contract suite: every test runs once per store backend."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg
import pytest
from pgtestserver import run_in_thread
from store_helpers import Backend, FakeClock

from bot.store import SqliteStore, Store
from bot.store.postgres import PostgresStore


def _sqlite_backend(tmp_path: Path) -> Backend:
    """A SQLite file in the test's temporary directory."""
    path = tmp_path / "store.sqlite3"

    def integrity() -> str:
        con = sqlite3.connect(path)
        try:
            return ";".join(r[0] for r in con.execute("PRAGMA integrity_check"))
        finally:
            con.close()

    return Backend(
        "sqlite", str(path), lambda clock: SqliteStore.open(path, clock=clock), integrity
    )


def _postgres_backend(request: pytest.FixtureRequest) -> Backend:
    """A database of its own on the session's PostgreSQL server."""
    url: str = request.getfixturevalue("postgres_url")

    def integrity() -> str:
        return run_in_thread(lambda: _check_indexes(url))

    return Backend("postgresql", url, lambda clock: PostgresStore.open(url, clock=clock), integrity)


async def _check_indexes(url: str) -> str:
    """PostgreSQL's own check (amcheck) of every B-tree index of the database's tables."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
        # heapallindexed: every row of each table is found in each of its B-tree indexes.
        checked = await connection.fetch(
            "SELECT c.relname, bt_index_check(c.oid, true) FROM pg_index AS i"
            " JOIN pg_class AS c ON c.oid = i.indexrelid"
            " JOIN pg_namespace AS n ON n.oid = c.relnamespace"
            " JOIN pg_am AS a ON a.oid = c.relam"
            " WHERE n.nspname = current_schema() AND a.amname = 'btree'"
        )
        return "ok" if checked else "no indexes found"
    finally:
        await connection.close()


BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Backend]] = {
    "sqlite": lambda request, tmp_path: _sqlite_backend(tmp_path),
    "postgresql": lambda request, tmp_path: _postgres_backend(request),
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """One database per test, of each backend in turn."""
    return BACKENDS[request.param](request, tmp_path)


@pytest.fixture
def clock() -> FakeClock:
    """The clock every store instance of a test shares."""
    return FakeClock()


@pytest.fixture
async def store(backend: Backend, clock: FakeClock) -> AsyncIterator[Store]:
    """A store instance on the test's database."""
    s = await backend.open(clock)
    yield s
    await s.close()


@pytest.fixture
async def other_store(backend: Backend, clock: FakeClock) -> AsyncIterator[Store]:
    """A second, independent store instance on the same database."""
    s = await backend.open(clock)
    yield s
    await s.close()
