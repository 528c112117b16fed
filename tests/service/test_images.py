"""RendererPool: cached pictures, one per position, and warm-ups of the views asked for lately
that never hold up a requested render."""

from __future__ import annotations

import asyncio
import math
import random
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import GameService, ImageRequest, RendererPool, images
from bot.store import SqliteStore
from tests.service.helpers import FakeClock, random_step, started_game


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


async def _next_version(service: GameService, game_id: int, version: int) -> int:
    """Play random answers until the game's committed version passes `version`."""
    rng = random.Random(3)
    for _ in range(200):
        if (now := (await service.views.score(game_id, by_game_id=True)).version) > version:
            return now
        assert await random_step(service, rng, 2, game_id)
    raise AssertionError("no turn was committed")


async def _started(service: GameService) -> tuple[int, int]:
    """A started game's id and committed version."""
    game_id = await started_game(service)
    return game_id, (await service.views.score(game_id, by_game_id=True)).version


@pytest.fixture
async def service_and_recorder(
    tmp_path: Path,
) -> AsyncIterator[tuple[GameService, RendererPool, Recorder]]:
    recorder = Recorder()
    store = await SqliteStore.open(tmp_path / "images.sqlite3", clock=FakeClock())
    pool = RendererPool(kind="thread", workers=2, render_fn=recorder)
    yield GameService(store, clock=FakeClock(), renderer_pool=pool), pool, recorder
    pool.close()
    await store.close()


async def test_only_the_views_asked_for_lately_are_rendered_ahead(
    service_and_recorder: tuple[GameService, RendererPool, Recorder],
) -> None:
    service, pool, recorder = service_and_recorder
    game_id, version = await _started(service)
    await service.views.render_request(ImageRequest(game_id, version, "map"))
    for _ in range(50):
        await asyncio.sleep(0)
    assert recorder.calls == ["map"] and pool.warmed == 0  # nobody has looked at any view
    assert (
        await service.views.board_image(game_id, "full", by_game_id=True) == b"PNG full None" * 10
    )
    assert recorder.calls == ["map", "full"]

    later = await _next_version(service, game_id, version)
    await service.views.render_request(ImageRequest(game_id, later, "map"))
    await settle(pool, 1)
    assert recorder.calls == ["map", "full", "map", "full"]  # the full board, not the shared
    await service.views.board_image(game_id, "full", by_game_id=True)
    assert pool.renders == 4 and pool.warm_hits == 1

    # Asked for more than `within` versions ago: no longer rendered ahead.
    pool.positions.within = 0
    newest = await _next_version(service, game_id, later)
    await service.views.render_request(ImageRequest(game_id, newest, "map"))
    for _ in range(50):
        await asyncio.sleep(0)
    assert recorder.calls[4:] == ["map"] and pool.warmed == 1


async def test_a_board_view_is_the_announced_picture_rings_and_all(
    service_and_recorder: tuple[GameService, RendererPool, Recorder],
) -> None:
    service, pool, recorder = service_and_recorder
    game_id, version = await _started(service)
    rings = ("A3", "B1")
    announced = await service.views.request_picture(
        ImageRequest(game_id, version, "map", changed=rings)
    )
    board = await service.views.board_picture(game_id, "map", by_game_id=True)
    assert recorder.calls == ["map"]  # one picture of the position
    assert board.data == announced.data and board.description == announced.description
    # The full board of that position rings the same spaces (it shares the map's part).
    asked: list[object] = []
    recorder_call = recorder.__call__
    pool.render_fn = lambda state, *rest: asked.append(state) or recorder_call(state, *rest)
    await service.views.board_picture(game_id, "full", by_game_id=True)
    assert [getattr(s, "changed", None) for s in asked] == [rings]


def test_freed_memory_is_trimmed_at_most_every_few_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trims: list[int] = []
    monkeypatch.setattr(images, "_trim", lambda: trims.append(1))
    monkeypatch.setattr(images, "_trimmed_at", -math.inf)
    now = [100.0]
    assert images.trim_due(lambda: now[0])
    now[0] += images.TRIM_EVERY_S / 2
    assert not images.trim_due(lambda: now[0])
    now[0] += images.TRIM_EVERY_S
    assert images.trim_due(lambda: now[0])
    assert len(trims) == 2


async def test_an_announcement_keeps_its_picture_when_rendering_ahead_fails(
    service_and_recorder: tuple[GameService, RendererPool, Recorder],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    service, _pool, _recorder = service_and_recorder
    game_id, version = await _started(service)

    async def broken(*args: object) -> None:
        raise RuntimeError("a bug in rendering ahead")

    monkeypatch.setattr(service.views, "_warm_wanted", broken)
    picture = await service.views.request_picture(ImageRequest(game_id, version, "map"))
    assert picture.data == b"PNG map None" * 10
    assert "could not render ahead" in caplog.text
