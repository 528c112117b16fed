"""Two parts of the service, the turn clock: what each commit charges, the deadlines, time
away and what happens when a player's time runs out.

Owns: `Timekeeper` reads and charges the clock over the store, a clock and the config (the
commit asks it through `ports.CommitClock`; the reminders and the pictures read it);
`Timekeeping` holds the clock's commands and background work (time away, expiries, the AI
steps left pending) over the desk (bot/service/core.py), the timekeeper and the AI seats.

The clock lives in the log: in a clocked game every decision carries its time (`at`) and every
commit the clock after it (`clock`: when, each person's bank and time away used), computed
here from the commit before it (bot/service/clock.py has the arithmetic). Whoever was on the
clock since the last commit — each person who had a decision then, whether they answered
since (a choice asked of several at once: up to their answer) or not (up to now) — is
charged; their bank settles. So a replay or an export holds the clock exactly, and a
restart loses nothing.

The deadlines are written to the store after each commit (bot/store/clocks.py) only to wake
a process up: `ClockRunner` claims a due one (exactly one process gets it), and `expire`
reads the game again, computes the deadline again (time away set since, or an outage, may
have moved it) and, when it has passed, lands the game's policy as an input against the
version it read — so a move and an expiry at once: exactly one lands.

Not charged: the player's quiet hours, their time away (`/barrage away`, up to the game's
limit) and the bot's outages: spans during which no bot process wrote its heartbeat
(`ClockRunner` beats every minute; a silence longer than `OUTAGE_GAP_MS` is an outage).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import Sequence

from bot.rules import Game, open_game
from bot.rules.content import company_name
from bot.service import quiet
from bot.service.clock import (
    AWAY_DAYS_MAX,
    DAY_MS,
    HOLD_AFTER,
    HOLD_LEVEL,
    Terms,
    Turn,
    away_used,
    player_turn,
    settle,
    terms_of,
)
from bot.service.commit import Landing, reminder_ms, replace_loaded
from bot.service.computer import ComputerSeat
from bot.service.core import Desk
from bot.service.errors import GameMovedOn, GameUnreadable, ServiceError
from bot.service.faults import DATABASE_DOWN, every, refuse_store_faults
from bot.service.loading import Loaded, copy_game
from bot.service.ports import ExpiryGames
from bot.service.records import ClockRecord, CommitRecord, ExpiryRecord, LogRecord, RevertRecord
from bot.service.thinking import Computers, ComputerTasks
from bot.service.turns import TIMED_OUT, Step, apply_answer, at_handover, skip_answer
from bot.service.types import Actor, Line, Outcome, OutcomeKind, ServiceConfig, TimeRef, UserRef
from bot.store import (
    ACTIVE,
    AI_STEP,
    EXPIRY,
    Clock,
    Deadline,
    GameNotFoundError,
    Store,
    UserSettings,
)

log = logging.getLogger(__name__)

#: A silence of every bot process longer than this is an outage (the heartbeat is a minute;
#: the config's `outage_gap_ms` overrides it: a test that moves its clock by days at once).
OUTAGE_GAP_MS = 3 * 60_000
#: An AI step not landed this long after its commit may be claimed by any process.
AI_GRACE_MS = 2 * 60_000
#: How long a claimed AI step is left to its claimant (the search takes seconds).
AI_LEASE_MS = 10 * 60_000


@refuse_store_faults
class Timekeeper:
    """The turn clock read and charged: what a commit asks of it (`ports.CommitClock`), the
    reminders' clocks and the pictures' deadlines. Over the store, a clock and the config."""

    def __init__(self, store: Store, clock: Clock, config: ServiceConfig) -> None:
        """The clock of `store`'s games, at `clock`'s time."""
        self.store = store
        self.clock = clock
        self.config = config

    async def at_commit(self, loaded: Loaded, *, taken_back: bool) -> ClockRecord | None:
        """The clock after a commit of `loaded`'s step (None in a game without a clock):
        whoever was on the clock since the last commit is charged; `taken_back`: the commit
        goes back (an undo, a rewind)."""
        terms = terms_of(loaded.options)
        if terms is None:
            return None
        now = self.clock()
        people = len(loaded.seats)
        last = _last_clock(loaded)
        if last is None or len(last.bank) != people:
            return ClockRecord(now, (terms.cap,) * people, (0,) * people)
        bank, away = list(last.bank), list(last.away)
        for seat, end in self._on_the_clock(loaded, now).items():
            user = loaded.seats[seat]
            turn, spans, left = await self._turn_of(loaded, terms, last, seat, user)
            used = turn.used(end)
            # An undo or a rewind ends nobody's turn: it charges time over the allowance, but
            # returns no quarter (or taking turns back would fill banks).
            if not taken_back or used > terms.allowance:
                bank[seat] = settle(terms, bank[seat], used)
            away[seat] += away_used(turn, spans, left, end)
        return ClockRecord(now, tuple(bank), tuple(away))

    async def landed(self, after: Loaded) -> None:
        """After a commit or an announcement: the game's deadlines in the store (its running
        clocks', and a pending AI step's)."""
        await self._ai_pending(after)
        terms = terms_of(after.options)
        if terms is None:
            return
        over = after.game is None or after.game.is_over or after.abandoned
        due: list[tuple[int, int]] = []
        if not over:
            turns = await self.running_clocks(after)
            due = [
                (user, turn.deadline())
                for user, turn in turns.items()
                if not self.expired_this_turn(after, user)
            ]
        await self.store.set_deadlines(after.meta.id, EXPIRY, due, version=after.commit_version)

    async def lines(self, after: Loaded) -> list[Line]:
        """The turn message's lines about time: deadlines and time away."""
        terms = terms_of(after.options)
        if terms is None:
            return []
        lines = []
        now = self.clock()
        for user, turn in (await self.running_clocks(after)).items():
            company = company_name(after.company_of_user(user))
            if self.expired_this_turn(after, user):
                continue
            lines.append(
                Line.of(
                    "⏱️ ", UserRef(user), f" ({company}) has until ", TimeRef(turn.deadline()), "."
                )
            )
        for user in after.seats:
            back = await self._away_until(user, now)
            if back is not None:
                lines.append(Line.of(UserRef(user), " is away until ", TimeRef(back, "D"), "."))
        return lines

    async def first_reminder_due(
        self, loaded: Loaded, user: int, settings: UserSettings, now: int
    ) -> int:
        """When a player's first reminder of a turn is due: by the allowance in a clocked
        game, else after the player's (or the game's, or the server's) hours."""
        turn = (await self.running_clocks(loaded)).get(user)
        if turn is None:
            wait = reminder_ms(loaded.options, settings, self.config.reminder_hours)
            return quiet.not_quiet(settings, now + wait)
        later = [point for point in turn.reminders() if point > now]
        return later[0] if later else turn.deadline()

    async def soonest_deadline(self, loaded: Loaded) -> int | None:
        """When the game's first running clock runs out (None without one)."""
        turns = await self.running_clocks(loaded)
        return min((t.deadline() for t in turns.values()), default=None)

    async def deadlines(self, loaded: Loaded) -> tuple[tuple[str, int], ...]:
        """By when each player asked to act now must act, (company, UTC epoch ms) soonest
        first, as the pictures show it (none without a clock)."""
        due = []
        for user, turn in (await self.running_clocks(loaded)).items():
            company = loaded.company_of_user(user)
            if company is not None and not self.expired_this_turn(loaded, user):
                due.append((company, turn.deadline()))
        return tuple(sorted(due, key=lambda each: (each[1], each[0])))

    async def _ai_pending(self, after: Loaded) -> None:
        """After a commit: when an AI seat must decide, a deadline that any process may claim
        if the step has not landed within `AI_GRACE_MS` (this process thinks about it now:
        `ComputersDue`). A row left after the step landed is dropped when claimed."""
        if after.game is None or after.game.is_over or not after.ai_deciding():
            return
        due = [(0, self.clock() + AI_GRACE_MS)]
        await self.store.set_deadlines(after.meta.id, AI_STEP, due, version=after.commit_version)

    async def running_clocks(self, loaded: Loaded) -> dict[int, Turn]:
        """Each person with a decision now, and their running clock (a clocked game)."""
        terms = terms_of(loaded.options)
        last = _last_clock(loaded)
        if terms is None or last is None or loaded.game is None:
            return {}
        out = {}
        for user in loaded.users_deciding():
            seat = loaded.seats.index(user)
            if seat < len(last.bank):
                out[user] = (await self._turn_of(loaded, terms, last, seat, user))[0]
        return out

    async def clock_reminder_due(self, loaded: Loaded, user: int, after: int) -> int | None:
        """The next reminder of a player's clock after `after`: the next of its three, then
        (a `wait` game past the deadline) every repeat time; None without a clock."""
        turn = (await self.running_clocks(loaded)).get(user)
        if turn is None:
            return None
        later = [point for point in turn.reminders() if point > after]
        if later:
            return later[0]
        settings = await self.store.get_user_settings(user)
        return quiet.not_quiet(
            settings,
            max(
                turn.deadline(),
                after + reminder_ms(loaded.options, settings, self.config.repeat_hours),
            ),
        )

    async def _turn_of(
        self, loaded: Loaded, terms: Terms, last: ClockRecord, seat: int, user: int
    ) -> tuple[Turn, list[tuple[int, int]], int]:
        """A person's clock since the last commit; their time away and what of the game's
        away limit is left."""
        since = last.at
        spans = await self.store.away_spans(user, since=since)
        left = max(0, terms.away_limit - last.away[seat])
        turn = player_turn(
            terms,
            since,
            last.bank[seat],
            await self.store.get_user_settings(user),
            away=spans,
            away_left=left,
            outages=await self.store.outages(since=since),
        )
        return turn, spans, left

    def _on_the_clock(self, loaded: Loaded, now: int) -> dict[int, int]:
        """The people's seats on the clock since the last commit, and when each one's clock
        stopped: at their last answer since if they no longer decide, else now."""
        deciding = {loaded.seats.index(u) for u in loaded.users_deciding()}
        answered: dict[int, int] = {}
        for _, record in reversed(loaded.chain):
            if isinstance(record, CommitRecord):
                break
            user = record.user
            if user is not None and user in loaded.seats:
                seat = loaded.seats.index(user)
                answered.setdefault(seat, now if record.at is None else record.at)
        out = {seat: now for seat in deciding}
        for seat, at in answered.items():
            out.setdefault(seat, at)
        return out

    def expired_this_turn(self, loaded: Loaded, user: int) -> bool:
        """Whether the person's time ran out already since the last commit (`wait`)."""
        if user not in loaded.seats:
            return False
        return loaded.last_expiry.get(loaded.seats.index(user), 0) > loaded.commit_version

    async def _away_until(self, user: int, now: int) -> int | None:
        """When the user's time away ends, if they are away now."""
        for start, until in await self.store.away_spans(user, since=now):
            if start <= now < until:
                return until
        return None

    async def away_until(self, user: int) -> int | None:
        """When the user's time away ends, if they are away now (the reminders ask)."""
        return await self._away_until(user, self.clock())


@refuse_store_faults
class Timekeeping:
    """The clock's commands and background work: the clock's lines, time away, expiries and
    the AI steps left pending."""

    def __init__(
        self, desk: Desk, timekeeper: Timekeeper, computers: Computers, tasks: ComputerTasks
    ) -> None:
        """The clock's work at `desk`, reading `timekeeper`; an expiry the AI answers asks
        `computers`, a claimed AI step is handed to `tasks`."""
        self.desk = desk
        self.timekeeper = timekeeper
        self.computers = computers
        self.tasks = tasks

    async def clock_lines(self, channel_id: int) -> list[Line]:
        """The channel's game's clock: each person's bank, and the deadline of whoever is on
        the clock now."""
        loaded = await self.desk.target(channel_id, False)
        terms = terms_of(loaded.options)
        last = _last_clock(loaded)
        if terms is None or last is None:
            return [Line.of("This game has no turn clock.")]
        running = await self.timekeeper.running_clocks(loaded)
        lines = []
        for seat, user in enumerate(loaded.seats):
            company = company_name(loaded.company_of_seat(seat))
            bank = _hours(last.bank[seat])
            turn = running.get(user)
            until = () if turn is None else ("; has until ", TimeRef(turn.deadline()))
            lines.append(Line.of(UserRef(user), f" ({company}): a bank of {bank}", *until, "."))
        return lines

    async def claim_ai_steps(self) -> int:
        """Claim the AI steps left pending (a process stopped, or one that took over shards)
        and think about them; how many were claimed. A claim lasts while the step is thought
        about; its landing writes the game's next one."""
        claimed = await self.desk.store.claim_deadlines(AI_STEP, lease_ms=AI_LEASE_MS)
        for deadline in claimed:
            try:
                loaded = await self.desk.load(await self.desk.store.get_game(deadline.game_id))
            except (GameNotFoundError, GameUnreadable):
                await self.desk.store.deadline_done(deadline)
                continue
            if loaded.game is None or loaded.game.is_over or not loaded.ai_deciding():
                await self.desk.store.deadline_done(deadline)
            else:
                self.tasks.schedule(deadline.game_id)
        return len(claimed)

    async def run_computers(self, stop: asyncio.Event, *, interval_s: float = 60.0) -> None:
        """Resume pending AI steps: every active game once at the start (steps left by an
        older release), then the claimed AI deadlines every `interval_s` (one indexed query,
        not a scan of the games), until `stop` is set."""
        first = True

        async def resume() -> None:
            nonlocal first
            if first:  # until that pass once succeeds
                await self.computers.resume_computers(every_game=True)
                first = False
            await self.claim_ai_steps()

        await every(interval_s, stop, resume, "looking for pending AI steps", log)

    async def set_away(self, actor: Actor, days: int) -> Outcome:
        """`away days:` — stop the actor's clock and reminders in all their games for `days`
        days (0: back now)."""
        if not isinstance(days, int) or not 0 <= days <= AWAY_DAYS_MAX:
            raise ServiceError(f"Choose 0 to {AWAY_DAYS_MAX} days away (0 ends your time away).")
        now = self.desk.clock()
        until = now + days * DAY_MS if days else None
        await self.desk.store.set_away(actor.user_id, until)
        await self._reclock_user(actor.user_id)
        if until is None:
            line = Line.of("Welcome back: your clock and reminders run again in all your games.")
        else:
            line = Line.of(
                "You are away until ",
                TimeRef(until, "D"),
                ": your clock and reminders stop in all your games (each game stops a clock "
                "for at most its limit of days away; then it runs again).",
            )
        return Outcome(OutcomeKind.AWAY, 0, 0, (line,))

    async def _reclock_user(self, user: int) -> None:
        """Write again the deadlines of the user's active games (time away moves them)."""
        for meta in await self.desk.store.list_games(user_id=user, status=ACTIVE, limit=100):
            if terms_of(meta.options) is None:
                continue
            with contextlib.suppress(GameUnreadable, GameNotFoundError):
                await self.timekeeper.landed(await self.desk.load(meta))

    async def expire(self, deadline: Deadline) -> int | None:
        """Act on a claimed deadline: when the player's time has run out, land the game's
        policy; otherwise when to look again. None: nothing more to do for it."""
        try:
            meta = await self.desk.store.get_game(deadline.game_id)
            loaded = await self.desk.load(meta)
        except (GameNotFoundError, GameUnreadable):
            return None
        terms = terms_of(loaded.options)
        user = deadline.user_id
        if (
            terms is None
            or meta.status != ACTIVE
            or loaded.game is None
            or loaded.game.is_over
            or user not in self.desk.waiting_users(loaded)
            or self.timekeeper.expired_this_turn(loaded, user)
        ):
            return None
        turn = (await self.timekeeper.running_clocks(loaded)).get(user)
        if turn is None:
            return None
        due = turn.deadline()
        if due > self.desk.clock():
            return due
        with contextlib.suppress(GameMovedOn):  # a move landed first: it wrote the deadlines
            await self._time_ran_out(loaded, terms, user)
        return None

    async def _time_ran_out(self, loaded: Loaded, terms: Terms, user: int) -> Outcome:
        """Land the game's policy for the person at `user`'s seat."""
        assert loaded.game is not None and loaded.committed is not None
        seat = loaded.seats.index(user)
        player = loaded.company_of_seat(seat)
        assert player is not None
        company = company_name(player)
        number = loaded.meta.number
        records: list[LogRecord] = []
        if terms.policy == "wait":
            header = Line.of(
                "⌛ Time is up for ",
                UserRef(user),
                f" ({company}) in game #{number}; a moderator may replace them (`replace`).",
            )
            landing = Landing(
                user=None,
                records=(ExpiryRecord(seat, terms.policy),),
                header=(header,),
                announce=True,
                told=self.desk.waiting_users(loaded),
            )
            async with self.desk.locks[loaded.meta.channel_id]:
                return await self.desk.land(loaded, copy_game(loaded.game), (), landing)
        base, tail = loaded, loaded.tail_steps
        trial = copy_game(loaded.game)
        if any(loaded.seat_of_player(step.player) == seat for step in loaded.tail_steps):
            # The half-played turn is dropped: the policy answers the turn from its start.
            records.append(RevertRecord(loaded.commit_version))
            trial = open_game(copy.deepcopy(loaded.committed))
            tail = []
        if terms.policy == "ai":
            hold = loaded.expiries.get(seat, 0) + 1 >= HOLD_AFTER
            if hold:
                # The announcement reads the seat as the AI's from this record on.
                base = replace_loaded(loaded, loaded.seats)
                base.pilots[seat] = (HOLD_LEVEL, loaded.version + 1)
            auto = ComputerSeat("ai", HOLD_LEVEL).auto
            steps = await self.computers.ai_steps(loaded, trial, player, HOLD_LEVEL, auto, tail)
            then = (
                f"the AI ({HOLD_LEVEL}) keeps the seat until they take it back with `play`"
                if hold
                else f"the AI ({HOLD_LEVEL}) played this turn for them"
            )
        else:
            hold = False
            steps = _skipped_turn(trial, player, tail)
            then = "their turn passed"
        header = Line.of("⌛ Time is up for ", UserRef(user), f" ({company}): {then}.")
        if not steps:
            raise ServiceError(f"nothing to answer for {company}")
        landing = Landing(
            user=None,
            records=(ExpiryRecord(seat, terms.policy, hold), *records),
            header=(header,),
            announce=True,
            # Whoever else decides now was pinged for it already (a choice asked of
            # several at once); a decision the expiry hands on is pinged as usual.
            told=tuple(u for u in self.desk.waiting_users(loaded) if u != user),
        )
        async with self.desk.locks[loaded.meta.channel_id]:
            return await self.desk.land(base, trial, steps, landing)


def _skipped_turn(trial: Game, player: str, tail: Sequence[Step]) -> list[Step]:
    """A passed turn for `player`: what a skipped seat answers, until the step is over."""
    steps: list[Step] = []
    for _ in range(200):
        decision = None if trial.is_over else trial.decision(player)
        if decision is None:
            break
        steps.append(apply_answer(trial, skip_answer(decision), player, on_behalf=TIMED_OUT))
        if at_handover(trial, [*tail, *steps]):
            break
    return steps


def _hours(ms: int) -> str:
    """'1 hour', '36 hours', '2.5 hours', '0 hours'."""
    hours = round(ms / 3_600_000, 1)
    return "1 hour" if hours == 1 else f"{hours:g} hours"


def _last_clock(loaded: Loaded) -> ClockRecord | None:
    """The clock of the game's last commit, if it has one."""
    for _, record in reversed(loaded.commits):
        clock = record.clock
        if clock is not None:
            return clock
    return None


class ClockRunner:
    """Claims due deadlines and acts on them; beats the heartbeat that measures outages."""

    def __init__(self, service: ExpiryGames, clock: Clock, *, instance: str) -> None:
        self.service = service
        self.store = service.store
        self.clock = clock
        self.instance = instance

    async def beat(self) -> None:
        """Write the heartbeat (an outage is recorded when every process was silent)."""
        gap = int(self.service.config.extra.get("outage_gap_ms", OUTAGE_GAP_MS))
        outage = await self.store.beat(self.instance, gap_ms=gap)
        if outage is not None:  # kept in the store; a debug line (a test's clock jumps)
            log.debug(
                "the bot could not answer for %d s; no clock counts it",
                (outage[1] - outage[0]) // 1000,
            )

    async def run_once(self) -> int:
        """Act on every due expiry; how many were claimed."""
        claimed = await self.store.claim_deadlines(EXPIRY)
        for deadline in claimed:
            try:
                again = await self.service.timekeeping.expire(deadline)
            except DATABASE_DOWN:
                raise
            except Exception:
                log.exception("the expiry in game %d failed; trying again later", deadline.game_id)
                continue
            await self.store.deadline_done(deadline, next_due_at=again)
        return len(claimed)

    async def run(self, stop: asyncio.Event, *, interval_s: float = 60.0) -> None:
        """Beat and act on expiries every `interval_s` until `stop` is set."""

        async def beat_and_expire() -> None:
            await self.beat()
            await self.run_once()

        await every(interval_s, stop, beat_and_expire, "the clock", log)
