"""The renderer port: PNGs of committed states, rendered in a worker and cached.

A committed state is never changed after the commit (the service keeps a deep copy), so a
thread worker is handed the state object itself; a process worker gets it as JSON. A turn in
progress or a later command can never change what is being drawn. bench/service_render.py
measures a thread pool against a process pool; see `RendererPool` for the choice.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import ctypes.util
import functools
import logging
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

log = logging.getLogger(__name__)

#: A worker's render function: (state or its JSON, view, company, theme) -> PNG.
RenderFn = Callable[[Any, str, "str | None", str], bytes]


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """What the end-of-game score sheet is drawn from: the final state and its VP events."""

    state: Any
    events: tuple[Any, ...]
    players: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Preview:
    """A player's turn in progress, drawn for them alone and marked as a preview."""

    state: Any
    #: Who plays each company (renderer.people.Player), drawn on the scoreboard.
    players: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Board:
    """A view of a committed state with who plays each company (renderer.people.Player) and
    the spaces the last turn changed (ringed on the map, named under the header)."""

    state: Any
    players: tuple[Any, ...] = ()
    changed: tuple[str, ...] = ()
    #: Since when `changed` counts ("your last turn"); "" for the last turn.
    since: str = ""
    #: By when each player asked to act must act: (company, UTC epoch ms), soonest first
    #: (a clocked game's current position; drawn as a time, never a countdown).
    deadlines: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Legend:
    """The legend of the pictures' symbols for a game with these expansions."""

    expansions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """What a server's leaderboard picture is drawn from (renderer.records tables)."""

    title: str
    subtitle: str
    tables: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class GameCharts:
    """What a finished game's charts are drawn from (renderer.records seats)."""

    title: str
    subtitle: str
    seats: tuple[Any, ...]


def render_json(state: Any, view: str, company: str | None, theme: str) -> bytes:
    """Render one view of a state (a GameState, or its JSON from a process pool), the score
    sheet of a `ScoreSheet`, a player's `Preview`, a `Legend`, or a `Leaderboard` or
    `GameCharts` picture."""
    from bot.rules import GameState, load_state
    from renderer.render import render, render_legend, render_score_sheet

    if isinstance(state, Legend):
        return render_legend(state.expansions, theme=theme)
    if isinstance(state, Leaderboard | GameCharts):
        from renderer.records import draw_game_charts, draw_leaderboard, encode_palette

        if isinstance(state, Leaderboard):
            image = draw_leaderboard(state.title, state.subtitle, state.tables, theme=theme)
        else:
            image = draw_game_charts(state.title, state.subtitle, state.seats, theme=theme)
        return encode_palette(image)
    if isinstance(state, ScoreSheet):
        final = state.state
        if not isinstance(final, GameState):
            final = load_state(final)
        return render_score_sheet(final, state.events, theme=theme, players=state.players)
    preview = isinstance(state, Preview)
    players: tuple[Any, ...] = ()
    changed: tuple[str, ...] = ()
    since = state.since if isinstance(state, Board) else ""
    deadlines = state.deadlines if isinstance(state, Board) else ()
    if isinstance(state, Preview | Board):
        players = state.players
        changed = state.changed if isinstance(state, Board) else ()
        state = state.state
    if not isinstance(state, GameState):
        state = load_state(state)
    return render(
        state,
        view=view,
        company=company,
        theme=theme,
        preview=preview,
        players=players,
        changed=changed,
        changed_since=since,
        deadlines=deadlines,
    )


def board_views(options: Any) -> tuple[str, ...]:
    """The board views of a game with these options (the base game's, its expansions')."""
    from renderer import views

    return views(options)


def view_titles(options: Any) -> dict[str, str]:
    """What each board view of a game with these options shows, in a few words."""
    from renderer import view_titles as titles

    return titles(options)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None elsewhere (musl, macOS)."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


#: glibc's mallopt parameters (malloc.h).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: Freed memory up to this much is kept between trims, and an image up to this size comes
#: from the heap: with glibc's defaults a render's large images were each mapped afresh and
#: handed back on free, so their pages faulted in again on every render (a seventh of a
#: render's CPU, bench/discord_load.py --profile). The trims (`trim_due`) hand it back.
KEPT_BYTES = 256 * 1024 * 1024


@functools.cache
def keep_freed_memory() -> bool:
    """Let glibc keep freed memory for the next render instead of handing it back on each
    free (once per process; False where there is no glibc)."""
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt if name else None
    except (OSError, AttributeError):
        return False
    if mallopt is None:
        return False
    # The mmap threshold first: setting it stops glibc raising it as images are freed.
    return bool(mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024)) and bool(
        mallopt(M_TRIM_THRESHOLD, KEPT_BYTES)
    )


def _trim() -> None:
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


#: The least time between two trims: a trim costs a few per cent of a render, and the pages
#: it hands back fault in again on the next one (bench/discord_load.py --profile).
TRIM_EVERY_S = 2.0
_trimmed_at = -math.inf
_trim_lock = threading.Lock()


def trim_due(clock: Callable[[], float] = time.monotonic) -> bool:
    """Trim the freed memory of every thread's arena unless a trim ran within
    `TRIM_EVERY_S`; whether it trimmed."""
    global _trimmed_at
    now = clock()
    with _trim_lock:
        if now - _trimmed_at < TRIM_EVERY_S:
            return False
        _trimmed_at = now
    _trim()
    return True


def render_and_trim(state: Any, view: str, company: str | None, theme: str) -> bytes:
    """Render, then hand the freed working memory back to the system (at most every
    `TRIM_EVERY_S`; the pool trims once more when it falls idle).

    A render allocates tens of MB of temporary images; glibc keeps freed memory in the
    rendering thread's arena, so without the trim the bot's resident memory grows towards
    the sum of every arena's high-water mark (bench/discord_load.py: see RendererPool).
    malloc_trim hands back every arena's free pages, whichever thread calls it.
    """
    try:
        return render_json(state, view, company, theme)
    finally:
        trim_due()


def warm_renderer(theme: str) -> None:
    """Build the renderer's static images (backgrounds, the full board's palette) once."""
    from renderer.render import warm

    try:
        warm(theme)
    finally:
        _trim()


class Positions:
    """What the pictures of recent positions share beyond the state, so that one picture
    serves each (game, version, view): the spaces its announcement rings, and which views
    of each game people asked for lately (only those are rendered ahead).

    Both are bounded and in memory only: after a restart a board view is drawn without
    rings until the next announcement, and a view is rendered ahead again once asked for.
    """

    def __init__(self, *, keep: int = 512, within: int = 3) -> None:
        self.keep = keep
        #: A view asked for at most this many versions before an announced one is warmed.
        self.within = within
        self._rings: OrderedDict[tuple[int, int], tuple[str, ...]] = OrderedDict()
        self._asked: OrderedDict[int, dict[tuple[str, str | None], int]] = OrderedDict()

    def ring(self, game_id: int, version: int, changed: tuple[str, ...]) -> None:
        """Note the spaces the announcement of ``version`` rings."""
        self._rings[game_id, version] = changed
        self._rings.move_to_end((game_id, version))
        while len(self._rings) > self.keep:
            self._rings.popitem(last=False)

    def rings(self, game_id: int, version: int) -> tuple[str, ...]:
        """The spaces the announcement of ``version`` rings (none if unknown here)."""
        return self._rings.get((game_id, version), ())

    def asked(self, game_id: int, version: int, view: str, company: str | None = None) -> None:
        """Note that someone asked for a view of ``version``."""
        views = self._asked.setdefault(game_id, {})
        views[view, company] = max(version, views.get((view, company), version))
        self._asked.move_to_end(game_id)
        while len(self._asked) > self.keep:
            self._asked.popitem(last=False)

    def wanted(self, game_id: int, version: int) -> list[tuple[str, str | None]]:
        """The views (and companies) of a game asked for within `within` versions of
        ``version``, to be rendered ahead of the next request."""
        views = self._asked.get(game_id, {})
        return [view for view, asked in views.items() if asked >= version - self.within]


#: How many keys of pictures the cache dropped are remembered (to count those drawn again).
DROPPED_KEPT = 4096

#: A slow picture's drawing: called on the low-priority worker with a `pause` to call between
#: its steps (it returns when no requested picture is being drawn).
SlowJob = Callable[[Callable[[], None]], bytes]


def _lower_priority() -> None:
    """Run this worker thread at a lower scheduling priority (Linux: threads have their own)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError) as exc:  # not Linux, or not allowed: order still holds
        log.debug("cannot lower the slow renderer's priority: %s", exc)


class RendererPool:
    """Renders in a worker pool and keeps the newest PNGs in a bounded LRU cache.

    kind "thread" (the default), "process", or "inline" (render on the calling thread; for
    tests and the console). bench/service_render.py, 24 map views requested at once with 2
    workers: thread 36 ms alone, 27.6/s, event-loop lag max 5 ms; process 64 ms alone
    (pickling the state, a cold worker), 27.3/s, lag max 4.5 ms; inline blocks the loop for
    the whole burst (863 ms). Threads are as fast, answer a lone request sooner and share
    the cache's process, so they are the default.

    `warm` asks for a picture nobody is waiting for yet (the other views of a state just
    announced): it is rendered only while no requested render is running, one at a time,
    so a later request finds it cached without an announcement or a board view ever
    waiting behind it (bench/discord_load.py: most board views are then cache hits). With
    `warm_up`, the first render also builds the renderer's static images (backgrounds, the
    full board's palette) the same way, instead of inside someone's request.
    """

    def __init__(
        self,
        *,
        kind: str = "thread",
        workers: int = 2,
        cache_size: int = 64,
        cache_bytes: int = 32 * 1024 * 1024,
        theme: str = "light",
        render_fn: RenderFn = render_and_trim,
        warm_up: bool = True,
        warm_limit: int = 48,
        slow_cache_bytes: int = 24 * 1024 * 1024,
    ) -> None:
        self.kind = kind
        #: The function the worker runs (tests pass a cheap stand-in).
        self.render_fn = render_fn
        self.theme = theme
        self.cache_size = cache_size
        #: The cache's bound in PNG bytes (besides `cache_size` pictures).
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._cached_bytes = 0
        self._inflight: dict[Hashable, asyncio.Future[bytes]] = {}
        self.renders = 0
        #: Pictures rendered by `warm` (included in `renders`).
        self.warmed = 0
        self.warm_limit = warm_limit
        self._wishes: OrderedDict[Hashable, tuple[Any, str, str | None]] = OrderedDict()
        self._warmer: asyncio.Task[None] | None = None
        # Only the real renderer has static images to build.
        self._warm_up_due = warm_up and kind != "inline" and render_fn is render_and_trim
        if kind == "thread" and render_fn is render_and_trim:
            keep_freed_memory()
        self._requested = 0  # requested renders running or queued in the executor
        self._idle = asyncio.Event()
        self._idle.set()
        #: The same as `_idle`, readable from the slow worker's thread.
        self._idle_now = threading.Event()
        self._idle_now.set()
        #: Slow pictures (replays): drawn one at a time on a low-priority thread, cached apart.
        self.slow_cache_bytes = slow_cache_bytes
        self._slow_cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._slow_inflight: dict[Hashable, asyncio.Future[bytes]] = {}
        self._slow_executor: concurrent.futures.ThreadPoolExecutor | None = None
        self.slow_renders = 0
        self._trim_timer: asyncio.TimerHandle | None = None
        #: Requests answered from the cache, and those of them a warm-up had rendered.
        self.hits = 0
        self.warm_hits = 0
        self._warmed_keys: set[Hashable] = set()
        #: Pictures drawn again after the cache had dropped them (of the `DROPPED_KEPT`
        #: dropped last), and warmed pictures dropped before anyone asked for them.
        self.redrawn = 0
        self.warmed_unasked = 0
        self._dropped: OrderedDict[Hashable, None] = OrderedDict()
        #: The rings and the asked-for views of recent positions (the service's).
        self.positions = Positions()
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
        self,
        key: Hashable,
        state: Any,
        view: str,
        company: str | None,
        theme: str | None = None,
    ) -> bytes:
        """The PNG for `key` (game, version, view, company) of a committed state, rendered once
        in ``theme`` (default: the pool's).

        `state` is a GameState that nobody changes any more (or its JSON).
        """
        theme = theme or self.theme
        if theme != self.theme:
            key = (key, theme)  # the pool's own theme keeps the keys callers know
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.hits += 1
            if key in self._warmed_keys:
                self._warmed_keys.discard(key)
                self.warm_hits += 1
            return cached
        pending = self._inflight.get(key)
        if pending is not None:  # the same picture asked for twice at once: render once
            return await asyncio.shield(pending)
        if self._warm_up_due:
            self._start_warmer()
        self._requested += 1
        self._idle.clear()
        self._idle_now.clear()
        try:
            return await self._render(key, state, view, company, theme)
        finally:
            self._requested -= 1
            if not self._requested:
                self._idle.set()
                self._idle_now.set()

    async def render_slow(self, key: Hashable, job: SlowJob) -> bytes:
        """A slow picture (a replay) for `key`, drawn once and cached apart from the views.

        It is drawn on one low-priority thread, one at a time, and pauses between its steps
        while a requested picture is being drawn, so turn pictures never wait behind it.
        """
        cached = self._slow_cache.get(key)
        if cached is not None:
            self._slow_cache.move_to_end(key)
            return cached
        pending = self._slow_inflight.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self._slow_inflight[key] = future
        try:
            if self._executor is None:
                data = job(lambda: None)
            else:
                if self._slow_executor is None:
                    self._slow_executor = concurrent.futures.ThreadPoolExecutor(
                        1, "render-slow", initializer=_lower_priority
                    )
                data = await loop.run_in_executor(self._slow_executor, job, self._pause)
            self.slow_renders += 1
            self._keep_slow(key, data)
            future.set_result(data)
            return data
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()
            raise
        finally:
            del self._slow_inflight[key]

    def _pause(self) -> None:
        """Wait (on the slow worker) while requested pictures are drawn, a few seconds at most:
        a slow picture gives way, but is not starved by a steady stream of others."""
        self._idle_now.wait(timeout=5)

    def _keep_slow(self, key: Hashable, data: bytes) -> None:
        self._slow_cache[key] = data
        while (
            sum(len(v) for v in self._slow_cache.values()) > self.slow_cache_bytes
            and len(self._slow_cache) > 1
        ):
            self._slow_cache.popitem(last=False)

    def warm(self, key: Hashable, state: Any, view: str, company: str | None = None) -> None:
        """Render `key` in the background when the workers are otherwise idle (best effort)."""
        if self._executor is None or key in self._cache or key in self._inflight:
            return
        self._wishes[key] = (state, view, company)
        self._wishes.move_to_end(key)
        while len(self._wishes) > self.warm_limit:
            self._wishes.popitem(last=False)  # the oldest state is the least likely asked for
        self._start_warmer()

    def _start_warmer(self) -> None:
        if self._warmer is None or self._warmer.done():
            self._warmer = asyncio.get_running_loop().create_task(
                self._warm_loop(), name="render warm-up"
            )

    async def _warm_loop(self) -> None:
        """Render the wishes, one at a time, whenever no request is waiting."""
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        if self._warm_up_due:
            self._warm_up_due = False
            await self._idle.wait()
            try:
                await loop.run_in_executor(self._executor, warm_renderer, self.theme)
            except Exception:
                log.exception("building the renderer's static images failed")
        while self._wishes:
            await self._idle.wait()
            if not self._wishes:
                break
            # Newest first: the state announced last is the one people are about to look at.
            key, (state, view, company) = self._wishes.popitem()
            if key in self._cache or key in self._inflight:
                continue
            try:
                await self._render(key, state, view, company)
                self.warmed += 1
                self._warmed_keys.add(key)
            except Exception:
                log.exception("warming picture %s failed", key)

    async def _render(
        self, key: Hashable, state: Any, view: str, company: str | None, theme: str | None = None
    ) -> bytes:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self._inflight[key] = future
        try:
            if self._executor is None:
                data = self.render_fn(state, view, company, theme or self.theme)
            else:
                if self.kind == "process" and hasattr(state, "to_json"):
                    state = state.to_json()  # a plain copy pickles faster than the dataclasses
                elif (self.kind == "process" and isinstance(state, ScoreSheet)) or (
                    self.kind == "process" and isinstance(state, Preview | Board)
                ):
                    state = replace(state, state=state.state.to_json())
                data = await loop.run_in_executor(
                    self._executor, self.render_fn, state, view, company, theme or self.theme
                )
            self.renders += 1
            if key in self._dropped:
                del self._dropped[key]
                self.redrawn += 1
            if self.render_fn is render_and_trim and self._executor is not None:
                self._trim_when_idle(loop)
            self._remember(key, data)
            future.set_result(data)
            return data
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._inflight[key]

    def _trim_when_idle(self, loop: asyncio.AbstractEventLoop) -> None:
        """Trim once `TRIM_EVERY_S` after the last render if no render ran since: the
        renders' own trims are rate-limited, so the last of a burst may not have trimmed."""
        if self._trim_timer is not None:
            self._trim_timer.cancel()
        self._trim_timer = loop.call_later(TRIM_EVERY_S, self._trim_idle)

    def _trim_idle(self) -> None:
        self._trim_timer = None
        if self._executor is not None and self._idle.is_set() and not self._wishes:
            self._executor.submit(trim_due)

    def _remember(self, key: Hashable, data: bytes) -> None:
        if self.cache_size <= 0:
            return
        old = self._cache.pop(key, None)
        if old is not None:
            self._cached_bytes -= len(old)
        self._cache[key] = data
        self._cached_bytes += len(data)
        while len(self._cache) > self.cache_size or (
            self._cached_bytes > self.cache_bytes and len(self._cache) > 1
        ):
            dropped_key, dropped = self._cache.popitem(last=False)
            self._cached_bytes -= len(dropped)
            if dropped_key in self._warmed_keys:
                self._warmed_keys.discard(dropped_key)
                self.warmed_unasked += 1
            self._dropped[dropped_key] = None
            if len(self._dropped) > DROPPED_KEPT:
                self._dropped.popitem(last=False)

    def close(self) -> None:
        """Stop the workers and forget the wishes."""
        self._wishes.clear()
        if self._trim_timer is not None:
            self._trim_timer.cancel()
        if self._warmer is not None:
            self._warmer.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        if self._slow_executor is not None:
            self._slow_executor.shutdown(wait=False, cancel_futures=True)
