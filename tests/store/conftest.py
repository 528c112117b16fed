"""Fixtures of the store's contract suite: every test runs once per store backend."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from store_helpers import Backend, FakeClock

from bot.store import SqliteStore, Store


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


# A PostgreSQL backend adds itself here (skipped when no test server is configured).
BACKENDS = {"sqlite": _sqlite_backend}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """One database per test, of each backend in turn."""
    return BACKENDS[request.param](tmp_path)


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
