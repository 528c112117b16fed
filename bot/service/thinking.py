"""A part of the service, the AI seats' turns and the hints: searched in worker processes,
landed like any input.

Owns: the AI's workers (`Thinker`), the tasks thinking about each game (`ComputerTasks`) and
the AI seats' commands and steps (`Computers`, over the desk of bot/service/core.py).

After every landing (`Desk.land`) the desk tells `ComputerTasks` (its `ports.ComputersDue`)
who must decide. When it is a seat the AI plays, that game is scheduled: `Computers` reads
the game, asks a worker (`Thinker`) for the AI's answer to each of its decisions in turn,
applies them to a copy until the AI's step is over (bot/service/turns.py: a turn up to its
Confirm, a choice), and lands them at the desk against the version it read — as a player's command would. If anyone
landed meanwhile (a person's undo, another process computing the same turn after a shard
takeover), the store's (game, version) uniqueness refuses the append and the game is read
again: an AI step lands exactly once. Nothing of a pending AI step lives only in memory: a
bot started again (or a process taking over shards) finds it by `resume_computers`, which
looks at every active game, and computes it again (the AI is deterministic: the same answer).

The search never runs on the event loop: `Thinker` holds a pool of worker processes (spawn
start method: Python threads share one interpreter lock), so other channels are answered
while the AI thinks. Its queue serves the AI seats first and hints after them. Workers import
the rules and the AI only (bot/service/computer.py), about 35 MB each before the search's own.

An AI seat answering one of several choices asked at once (income) decides on the committed
state, so it never sees a choice a person made before it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from bot.rules import Game, RuleError
from bot.rules.content import company_name
from bot.service.commit import Landing
from bot.service.computer import DEFAULT_DECIDER, HINT_LEVEL, Thought, ai_decide, worker_ready
from bot.service.core import Desk
from bot.service.errors import GameMovedOn, GameUnreadable, ServiceError
from bot.service.faults import refuse_store_faults
from bot.service.loading import Loaded, copy_game
from bot.service.records import HintRecord
from bot.service.turns import Step, apply_answer, at_handover
from bot.service.types import Actor, Line, Outcome, OutcomeKind, ServiceConfig
from bot.store import ACTIVE, GameNotFoundError, StaleVersionError

log = logging.getLogger(__name__)

#: Queue priorities: the AI seats' own work first, hints behind it.
SEAT, HINT = 0, 1
#: An AI step's decisions at most (a safety net: a turn has a handful).
MAX_STEP_DECISIONS = 200
#: Hints kept in memory (one per decision).
HINT_CACHE = 512


@dataclass(order=True)
class _Job:
    priority: int
    order: int
    args: tuple[Any, ...] = field(compare=False)
    future: asyncio.Future[Thought] = field(compare=False)


class Thinker:
    """The AI's worker processes (or threads, for tests) and the queue in front of them.

    `kind`: "process" (the default: a spawn-started process pool), "thread" or "inline" (on
    the event loop; tests only). `decider` names the function the workers call
    ("module:function", by default `bot.ai.decide`): a test may name a cheaper one.
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        kind: str = "process",
        decider: str = DEFAULT_DECIDER,
        start_method: str = "spawn",
    ) -> None:
        self.workers = max(1, workers)
        self.kind = kind
        self.decider = decider
        self.start_method = start_method
        self._executor: concurrent.futures.Executor | None = None
        self._queue: asyncio.PriorityQueue[_Job] | None = None
        self._dispatchers: list[asyncio.Task[None]] = []
        self._order = itertools.count()
        #: Every answer's cost: (priority, worker CPU s, worker peak RSS MB, pid).
        self.costs: list[tuple[int, float, float, int]] = []
        if kind not in ("process", "thread", "inline"):
            raise ValueError(f"unknown thinker kind {kind!r} (process, thread or inline)")

    def _start(self) -> asyncio.PriorityQueue[_Job]:
        if self._queue is None:
            if self.kind == "process":
                context = multiprocessing.get_context(self.start_method)
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=context
                )
            elif self.kind == "thread":
                self._executor = concurrent.futures.ThreadPoolExecutor(self.workers, "ai")
            self._queue = asyncio.PriorityQueue()
            self._dispatchers = [
                asyncio.get_running_loop().create_task(self._dispatch(), name=f"ai worker {i}")
                for i in range(self.workers)
            ]
        return self._queue

    async def warm_up(self) -> list[int]:
        """Start every worker now (their imports), not at the first AI turn; their pids."""
        self._start()
        if self._executor is None:
            return [os.getpid()]
        loop = asyncio.get_running_loop()
        return list(
            await asyncio.gather(
                *(loop.run_in_executor(self._executor, worker_ready) for _ in range(self.workers))
            )
        )

    async def think(
        self, state_json: dict[str, Any], player: str, level: str, ai_seed: int, priority: int
    ) -> Thought:
        """The AI's answer for `player` in this state, after the queue's earlier work."""
        queue = self._start()
        future: asyncio.Future[Thought] = asyncio.get_running_loop().create_future()
        args = (state_json, player, level, ai_seed, self.decider)
        await queue.put(_Job(priority, next(self._order), args, future))
        thought = await future
        self.costs.append((priority, thought.cpu_s, thought.rss_mb, thought.pid))
        return thought

    async def _dispatch(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            job = await self._queue.get()
            if job.future.cancelled():
                continue
            try:
                if self._executor is None:
                    result = ai_decide(*job.args)
                else:
                    result = await loop.run_in_executor(
                        self._executor, partial(ai_decide, *job.args)
                    )
            except concurrent.futures.BrokenExecutor as exc:
                # A worker died (killed, out of memory): start new ones for the next answers.
                log.error("an AI worker died (%s); starting the workers again", exc)
                self._restart_workers()
                if not job.future.done():
                    job.future.set_exception(exc)
                continue
            except Exception as exc:  # the worker failed: the caller decides what to do
                if not job.future.done():
                    job.future.set_exception(exc)
                continue
            if not job.future.done():
                job.future.set_result(result)

    def _restart_workers(self) -> None:
        """A new pool in place of a broken one."""
        if self.kind != "process" or self._executor is None:
            return
        self._executor.shutdown(wait=False, cancel_futures=True)
        context = multiprocessing.get_context(self.start_method)
        self._executor = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=context)

    def worker_rss_mb(self) -> dict[int, float]:
        """Each worker process's resident memory now, in MB (Linux; {} elsewhere)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        out = {}
        for pid in processes:
            with (
                contextlib.suppress(OSError, ValueError),
                open(f"/proc/{pid}/status", encoding="ascii") as status,
            ):
                for line in status:
                    if line.startswith("VmRSS:"):
                        out[pid] = int(line.split()[1]) / 1024
        return out

    def close(self) -> None:
        """Stop the dispatchers and the workers."""
        for task in self._dispatchers:
            task.cancel()
        self._dispatchers = []
        self._queue = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def thinker_for(config: ServiceConfig) -> Thinker:
    """The AI's workers as the service's config asks (`ai_workers`, `ai_workers_kind`,
    `ai_decider`); nothing starts until the first answer."""
    extra = config.extra
    return Thinker(
        int(extra.get("ai_workers", 1)),
        kind=str(extra.get("ai_workers_kind", "process")),
        decider=str(extra.get("ai_decider", DEFAULT_DECIDER)),
    )


class ComputerTasks:
    """The tasks thinking about each game's AI steps: what a commit tells (`ports.ComputersDue`).

    One task a game; a game due again while its task runs is looked at again when it ends.
    All of it may be lost (a restart finds the pending steps again): a speed-up only.
    """

    def __init__(self, steps: Callable[[int], Awaitable[int]], *, manual: bool = False) -> None:
        """Tasks that land a game's AI steps with `steps` (how many landed); `manual`: a test
        or the console steps the AI itself, nothing is scheduled by a commit."""
        self._steps = steps
        self._manual = manual
        #: The task thinking about each game's AI steps.
        self._tasks: dict[int, asyncio.Task[None]] = {}
        #: Games scheduled again while their task ran.
        self._again: set[int] = set()
        #: Set at shutdown: nothing more is scheduled.
        self._stopped = False

    def due(self, loaded: Loaded) -> None:
        """After a landing: think about the game's AI steps if an AI seat must decide."""
        if loaded.game is None or loaded.game.is_over or not loaded.ai_deciding():
            return
        if self._manual:
            return  # a test steps the AI itself (play_computers)
        self.schedule(loaded.meta.id)

    def schedule(self, game_id: int) -> None:
        """Think about the game's AI steps in a task of its own (soon, if one runs)."""
        if self._stopped:
            return
        if game_id in self._tasks:
            self._again.add(game_id)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._tasks[game_id] = loop.create_task(
            self._think_for(game_id), name=f"AI of game {game_id}"
        )

    async def _think_for(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                if await self._steps(game_id) == 0 and game_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %d: the AI's step failed; it is tried again later", game_id)
        finally:
            self._tasks.pop(game_id, None)

    async def stop(self) -> None:
        """At shutdown: cancel every task; nothing more is scheduled."""
        self._stopped = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until no AI step is being thought about or landed."""
        while True:
            tasks = [t for t in self._tasks.values() if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)


@refuse_store_faults
class Computers:
    """The AI seats' steps (landed at the desk, as a player's command) and the players' hints."""

    def __init__(self, desk: Desk, thinker: Thinker, tasks: ComputerTasks) -> None:
        """The AI at `desk`, thinking with `thinker`; a game found pending goes to `tasks`."""
        self.desk = desk
        self.store = desk.store
        self.thinker = thinker
        self.tasks = tasks
        #: Hints thought about, by (game, turn chain's last seq, player): the thoughts only;
        #: that a hint was shown is a log record (`hint`), kept over a restart.
        self._hints: OrderedDict[tuple[int, int, str], Thought] = OrderedDict()

    async def stop_computers(self) -> None:
        """At shutdown: stop thinking (a step not landed yet is thought about again at the
        next start) and stop the workers."""
        await self.tasks.stop()
        self.thinker.close()

    async def computers_idle(self) -> None:
        """Wait until no AI step is being thought about or landed (tests, the console)."""
        await self.tasks.idle()

    async def resume_computers(self, *, every_game: bool = True) -> int:
        """Schedule every active game whose AI seat must decide now (after a start or a
        shard takeover: a step that was thought about when a process stopped); how many.

        Without `every_game`, only games with AI players of their own (a game where the AI
        took over a person's seat is found by the full pass)."""
        found = 0
        for meta in await self.store.list_games(status=ACTIVE, limit=100_000):
            if not meta.options.get("ai") and not (every_game and "ai_seed" in meta.options):
                continue  # no AI can sit in a game created before there was one
            try:
                loaded = await self.desk.load(meta)
            except (GameUnreadable, GameNotFoundError):
                continue
            if loaded.started and loaded.ai_deciding():
                found += 1
                self.tasks.schedule(meta.id)
        return found

    async def play_computers(self, game_id: int, *, steps: int = 1_000_000) -> int:
        """Think about and land the AI's steps of a game while an AI seat must decide (at
        most `steps` of them); how many landed."""
        landed = 0
        while landed < steps:
            try:
                outcome = await self._computer_step(game_id)
            except GameMovedOn:
                continue  # someone landed first: read the game again
            if outcome is None:
                return landed
            landed += 1
        return landed

    async def _computer_step(self, game_id: int) -> Outcome | None:
        """One AI step of a game, thought about and landed; None when no AI must decide."""
        try:
            meta = await self.store.get_game(game_id)
        except GameNotFoundError:
            return None
        if meta.status != ACTIVE:
            return None
        loaded = await self.desk.load(meta)
        if not loaded.started or loaded.game is None or loaded.game.is_over:
            return None
        deciding = loaded.ai_deciding()
        if not deciding:
            return None
        player = deciding[0]
        computer = loaded.computer_of(player)
        assert computer is not None
        trial = copy_game(loaded.game)
        steps = await self.ai_steps(loaded, trial, player, computer.level, computer.auto)
        if not steps:
            return None
        async with self.desk.locks[loaded.meta.channel_id]:
            return await self.desk.land(loaded, trial, steps, Landing(user=None, computer=True))

    async def ai_steps(
        self,
        loaded: Loaded,
        trial: Game,
        player: str,
        level: str,
        auto: str,
        tail: Sequence[Step] | None = None,
    ) -> list[Step]:
        """The AI's answers (at `level`, marked `auto`) for `player` from `trial` on, applied
        to it, until the player's step is over (after the step so far, `tail`: the game's
        by default); [] when the engine refused one."""
        game_id = loaded.meta.id
        before = loaded.tail_steps if tail is None else tail
        steps: list[Step] = []
        for _ in range(MAX_STEP_DECISIONS):
            decision = None if trial.is_over else trial.decision(player)
            if decision is None:
                break
            basis = (
                loaded.committed
                if decision.simultaneous and loaded.committed is not None and not steps
                else trial.state
            )
            notation = await self._ai_answer(loaded, basis.to_json(), player, level, SEAT)
            if decision.find(notation) is None:
                log.error(
                    "game %d: the AI answered %r, not an option of %s's %s; its first option "
                    "is played instead",
                    game_id,
                    notation,
                    player,
                    decision.kind,
                )
                notation = decision.options[0].notation
            try:
                steps.append(apply_answer(trial, notation, player, on_behalf=auto))
            except RuleError:
                log.exception("game %d: the engine refused the AI's listed option", game_id)
                return []
            if at_handover(trial, [*before, *steps]):
                break
        return steps

    async def _ai_answer(
        self, loaded: Loaded, state_json: dict[str, Any], player: str, level: str, priority: int
    ) -> str:
        thought = await self.thinker.think(state_json, player, level, loaded.ai_seed, priority)
        return thought.notation

    # -- hints -------------------------------------------------------------------------

    async def hint(self, actor: Actor) -> Outcome:
        """The move the strong AI would make now for the actor's decision, with its reason
        (privately; a game option). One hint per decision: asked again, the same one."""
        loaded = await self.desk.playing(actor)
        company = self.desk.company(loaded, actor)
        if not loaded.options.get("hints"):
            raise ServiceError(
                "This game was created without hints; hints are a game option chosen when it "
                "is created."
            )
        assert loaded.game is not None
        seat = loaded.seats.index(actor.user_id)
        if seat in loaded.pilots:
            raise ServiceError("The AI plays your seat now; `play` takes it back first.")
        decision = loaded.game.decision(company)
        if decision is None:
            raise ServiceError(
                Line.of(
                    "It is not your decision now: waiting for ",
                    *self.desk.waiting_line(loaded),
                    ".",
                )
            )
        key = (loaded.meta.id, loaded.chain_tip, company)
        cache = self._hints
        thought = cache.get(key)
        if thought is None:
            basis = (
                loaded.committed
                if decision.simultaneous and loaded.committed is not None and not loaded.tail
                else loaded.game.state
            )
            thought = await self.thinker.think(
                basis.to_json(), company, HINT_LEVEL, loaded.ai_seed, HINT
            )
            cache[key] = thought
            while len(cache) > HINT_CACHE:
                cache.popitem(last=False)
        if not hinted_now(loaded, company):
            loaded = await self._note_hint(actor, loaded.meta.id, seat, loaded.chain_tip)
        option = decision.find(thought.notation)
        label = option.label if option is not None else thought.notation
        lines = [Line.of(f"💡 Hint for {company_name(company)}: {label}")]
        lines.append(Line.of(hint_reason(thought, decision.find)))
        return Outcome(
            OutcomeKind.NOTED,
            loaded.meta.id,
            loaded.version,
            tuple(lines),
            decision=self.desk.panel(loaded, actor.user_id),
        )

    async def _note_hint(self, actor: Actor, game_id: int, seat: int, tip: int) -> Loaded:
        """Log that the seat's player is shown a hint for the decision pending after the
        chain's record `tip` (so an answer after a restart still counts it); GameMovedOn if
        the game moved past that decision while the hint was thought about."""
        async with self.desk.locks[actor.channel_id]:
            fresh = await self.desk.load(await self.store.get_game(game_id))
            if fresh.chain_tip != tip:
                raise GameMovedOn(
                    "The game moved on while the hint was thought about; here is your current "
                    "decision.",
                    self.desk.panel(fresh, actor.user_id),
                )
            if (seat, tip) in fresh.hints:
                return fresh
            record = HintRecord(seat, tip)
            try:
                version = await self.store.append(game_id, fresh.version, [record.to_json()])
            except StaleVersionError:
                moved = await self.desk.reload(game_id)
                raise GameMovedOn(
                    "Another command landed first; the game moved on. Here is your current "
                    "decision.",
                    self.desk.panel(moved, actor.user_id),
                ) from None
            after = replace(
                fresh,
                version=version,
                meta=replace(fresh.meta, version=version),
                hints=fresh.hints | {(seat, tip)},
            )
            self.desk.remember(after)
            return after


def hinted_now(loaded: Loaded, company: str) -> bool:
    """Whether the player was shown a hint for the decision pending now (a log record,
    so it holds after a restart)."""
    seat = loaded.seat_of_player(company)
    return seat is not None and (seat, loaded.chain_tip) in loaded.hints


def hint_reason(thought: Thought, find: Callable[[str], Any]) -> str:
    """The hint's reason in words, with its expected VP margin over the next-best move."""
    reason = thought.reason.strip().rstrip(".")
    text = f"Why: {reason[:1].upper()}{reason[1:]}." if reason else ""
    if thought.runner_up is not None and thought.margin_over_runner_up is not None:
        other = find(thought.runner_up)
        name = other.label if other is not None else thought.runner_up
        text += (
            f" Expected {thought.margin_over_runner_up:+.1f} VP over the next-best move ({name})."
        )
    else:
        text += " It is the only sensible move here."
    return text.strip()
