"""Fixtures of the service tests: a SQLite store per test, an injected clock, cheap images."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.service import GameService, RendererPool
from bot.store import SqliteStore
from tests.service.helpers import FakeClock

MakeService = Callable[[], Awaitable[GameService]]


def fake_png(state_json: object, view: str, company: str | None, theme: str) -> bytes:
    """A stand-in for the renderer: these tests check plumbing, not pictures."""
    return f"PNG {view} {company}".encode()


@pytest.fixture
def clock() -> FakeClock:
    """The clock every service and store of a test shares."""
    return FakeClock()


@pytest.fixture
async def make_service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[MakeService]:
    """Open independent service instances (each with its own store) on one database."""
    stores: list[SqliteStore] = []

    async def make() -> GameService:
        store = await SqliteStore.open(tmp_path / "service.sqlite3", clock=clock)
        stores.append(store)
        pool = RendererPool(kind="inline", render_fn=fake_png)
        return GameService(store, clock=clock, renderer_pool=pool)

    yield make
    for store in stores:
        with contextlib.suppress(Exception):
            await store.close()


@pytest.fixture
async def service(make_service: MakeService) -> GameService:
    """One service instance."""
    return await make_service()
