"""The renderer port: PNGs of committed states, rendered in a worker and cached.

The worker gets the state as JSON (an immutable copy taken on the event loop), so a turn
in progress or a later command can never change what is being drawn. bench/service_render.py
measures a thread pool against a process pool; see `RendererPool` for the choice.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import ctypes.util
import functools
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any

log = logging.getLogger(__name__)


def render_json(state_json: Mapping[str, Any], view: str, company: str | None, theme: str) -> bytes:
    """Render one view of a state given as JSON (runs in the worker)."""
    from bot.rules import GameState
    from renderer.render import render

    state = GameState.from_json(dict(state_json))
    return render(state, view=view, company=company, theme=theme)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None elsewhere (musl, macOS)."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


def render_and_trim(
    state_json: Mapping[str, Any], view: str, company: str | None, theme: str
) -> bytes:
    """Render, then hand the freed working memory back to the system.

    A render allocates tens of MB of temporary images; glibc keeps freed memory in the
    rendering thread's arena, so without the trim the bot's resident memory grows towards
    the sum of every arena's high-water mark (bench/discord_load.py: see RendererPool).
    """
    try:
        return render_json(state_json, view, company, theme)
    finally:
        trim = _malloc_trim()
        if trim is not None:
            trim(0)


class RendererPool:
    """Renders in a worker pool and keeps the newest PNGs in a bounded LRU cache.

    kind "thread" (the default), "process", or "inline" (render on the calling thread; for
    tests and the console). bench/service_render.py, 24 map views requested at once with 2
    workers: thread 36 ms alone, 27.6/s, event-loop lag max 5 ms; process 64 ms alone
    (pickling the state, a cold worker), 27.3/s, lag max 4.5 ms; inline blocks the loop for
    the whole burst (863 ms). Threads are as fast, answer a lone request sooner and share
    the cache's process, so they are the default.
    """

    def __init__(
        self,
        *,
        kind: str = "thread",
        workers: int = 2,
        cache_size: int = 64,
        theme: str = "light",
        render_fn: Callable[[Mapping[str, Any], str, str | None, str], bytes] = render_and_trim,
    ) -> None:
        self.kind = kind
        #: The function the worker runs (tests pass a cheap stand-in).
        self.render_fn = render_fn
        self.theme = theme
        self.cache_size = cache_size
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._inflight: dict[Hashable, asyncio.Future[bytes]] = {}
        self.renders = 0
        self._executor: concurrent.futures.Executor | None
        if kind == "thread":
            self._executor = concurrent.futures.ThreadPoolExecutor(workers, "render")
        elif kind == "process":
            self._executor = concurrent.futures.ProcessPoolExecutor(workers)
        elif kind == "inline":
            self._executor = None
        else:
            raise ValueError(f"unknown renderer pool kind {kind!r} (thread, process or inline)")

    async def render(
        self, key: Hashable, state_json: Mapping[str, Any], view: str, company: str | None
    ) -> bytes:
        """The PNG for `key` (game, version, view, company), rendered once."""
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        pending = self._inflight.get(key)
        if pending is not None:  # the same picture asked for twice at once: render once
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self._inflight[key] = future
        try:
            if self._executor is None:
                data = self.render_fn(state_json, view, company, self.theme)
            else:
                data = await loop.run_in_executor(
                    self._executor, self.render_fn, state_json, view, company, self.theme
                )
            self.renders += 1
            self._cache[key] = data
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
            future.set_result(data)
            return data
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._inflight[key]

    def close(self) -> None:
        """Stop the workers."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
