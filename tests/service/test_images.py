"""RendererPool: cached pictures, and warm-ups that never hold up a requested render."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import GameService, ImageRequest, RendererPool
from bot.store import SqliteStore
from tests.service.helpers import FakeClock, started_game


class Recorder:
    """A stand-in render function that records its calls and can be held at a gate."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, state: object, view: str, company: str | None, theme: str) -> bytes:
        self.calls.append(view)
        self.gate.wait(timeout=10)
        return f"PNG {view} {company}".encode() * 10


async def settle(pool: RendererPool, warmed: int) -> None:
    """Until the pool has warmed `warmed` pictures (bounded by loop turns, not wall time)."""
    for _ in range(10_000):
        if pool.warmed >= warmed:
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"warmed {pool.warmed}, expected {warmed}")


@pytest.fixture
async def pool_and_recorder() -> AsyncIterator[tuple[RendererPool, Recorder]]:
    recorder = Recorder()
    pool = RendererPool(kind="thread", workers=2, render_fn=recorder)
    yield pool, recorder
    recorder.gate.set()
    pool.close()


async def test_a_warmed_picture_is_served_from_the_cache(
    pool_and_recorder: tuple[RendererPool, Recorder],
) -> None:
    pool, recorder = pool_and_recorder
    pool.warm((1, 5, "shared", None), object(), "shared")
    await settle(pool, 1)
    assert await pool.render((1, 5, "shared", None), object(), "shared", None) == (
        b"PNG shared None" * 10
    )
    assert recorder.calls == ["shared"]


async def test_warming_waits_while_a_requested_render_runs(
    pool_and_recorder: tuple[RendererPool, Recorder],
) -> None:
    pool, recorder = pool_and_recorder
    recorder.gate.clear()
    request = asyncio.create_task(pool.render((1, 5, "map", None), object(), "map", None))
    for _ in range(5):
        await asyncio.sleep(0)
    pool.warm((1, 5, "full", None), object(), "full")
    for _ in range(50):
        await asyncio.sleep(0)
    assert recorder.calls == ["map"]  # the warm-up has not started beside the request
    recorder.gate.set()
    await request
    await settle(pool, 1)
    assert recorder.calls == ["map", "full"]


async def test_the_newest_wish_is_rendered_first_and_old_ones_are_dropped(
    pool_and_recorder: tuple[RendererPool, Recorder],
) -> None:
    pool, recorder = pool_and_recorder
    pool.warm_limit = 2
    recorder.gate.clear()
    request = asyncio.create_task(pool.render((0, 1, "map", None), object(), "map", None))
    for _ in range(5):
        await asyncio.sleep(0)
    for view in ("a", "b", "c"):
        pool.warm((1, 5, view, None), object(), view)
    recorder.gate.set()
    await request
    await settle(pool, 2)
    assert recorder.calls == ["map", "c", "b"]


async def test_the_cache_is_bounded_by_bytes() -> None:
    recorder = Recorder()
    pool = RendererPool(kind="inline", render_fn=recorder, cache_bytes=300)
    for version in range(3):
        await pool.render((1, version, "map", None), object(), "map", None)
    await pool.render((1, 0, "map", None), object(), "map", None)  # evicted: 150 bytes each
    assert pool.renders == 4
    await pool.render((1, 2, "map", None), object(), "map", None)
    assert pool.renders == 4


async def test_an_inline_pool_does_not_warm() -> None:
    recorder = Recorder()
    pool = RendererPool(kind="inline", render_fn=recorder)
    pool.warm((1, 5, "shared", None), object(), "shared")
    await asyncio.sleep(0)
    assert recorder.calls == [] and pool.warmed == 0


async def test_an_announced_state_has_its_other_views_warmed(tmp_path: Path) -> None:
    recorder = Recorder()
    store = await SqliteStore.open(tmp_path / "images.sqlite3", clock=FakeClock())
    pool = RendererPool(kind="thread", workers=2, render_fn=recorder)
    service = GameService(store, clock=FakeClock(), renderer_pool=pool)
    try:
        game_id = await started_game(service)
        version = (await store.get_game(game_id)).version
        await service.render_request(ImageRequest(game_id, version, "map"))
        await settle(pool, 2)
        assert sorted(recorder.calls) == ["full", "map", "shared"]
        assert await service.board_image(game_id, "full", by_game_id=True) == (
            b"PNG full None" * 10
        )
        assert len(recorder.calls) == 3
    finally:
        pool.close()
        await store.close()
