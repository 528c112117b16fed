"""Whole games through the service with a recording announcer, checking the turn loop.

After every step (an answer, a restart, an undo, a skipped seat) it checks that

(a) whenever a person must decide, the last announcement since the last commit names them,
    counts them among who must act next and pings them (no quiet hours here);
(b) every Confirm is followed by a commit (the step ended: snapshot and announcement);
(c) a reminder is scheduled for every person who must decide;
(d) automa answers are only ever appended together with a commit (the commit that precedes
    them, or the start), never left pending: an automa never waits and is never pinged;

With `absences` the game has a turn clock (12, 24 or 48 hours, each timeout policy by seed),
time passes between steps, and now and then the player to move is absent long enough for
their time to run out (the clock's runner acts on it, as the bot's does every minute) or
sets time away; the same checks hold after each expiry, and a game that never ends counts.

and counts **stalls** (a Confirm left uncommitted, or a game waiting only for people the
last announcement did not ping), **unpinged deciders** (a person who must decide and was
not pinged), **double pings** (a ping of someone with nothing to decide, twice in one
message, or again while the decision they were pinged for is still untouched) and **pings
of a player already playing** (the announcement of a player's own answer or undo pinging
them for the next decision, which their reply's panel already shows). Used by
tests/service/test_turn_loop.py (60 games) and bench/turn_loop.py (500 and more).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path

from bot.service import (
    Actor,
    GameService,
    NotYourTurn,
    OutboxSender,
    ServiceError,
)
from bot.service.clock import POLICIES
from bot.service.loading import load
from bot.service.timekeeping import ClockRunner
from bot.service.types import named_users
from tests.aiplayer import DECIDER
from tests.service.helpers import FakeClock, RecordingPort, picture_free_service

GUILD, CHANNEL = 7000, 7001
USERS = (101, 102, 103, 104)
#: The game mixes of the suite, ten games each: setup and expansions.
MIXES: dict[str, dict[str, object]] = {
    "intro": {"setup": "intro"},
    "full": {"setup": "full"},
    "full+leeghwater": {"setup": "full", "expansions": ("leeghwater",)},
    "colorado": {"setup": "intro", "expansions": ("colorado",)},
    "nile": {"setup": "intro", "expansions": ("nile",)},
    "full+leeghwater+colorado": {"setup": "full", "expansions": ("leeghwater", "colorado")},
    # With automa companies (as many as leave one seat for a person, at most the number given).
    "automa": {"setup": "intro", "automa": 2, "automa_level": "medium"},
    "automa full+leeghwater": {
        "setup": "full",
        "expansions": ("leeghwater",),
        "automa": 3,
        "automa_level": "expert",
    },
}
MAX_STEPS = 3000
#: With absences: the share of steps at which the player to move is absent a long time.
ABSENCE = 0.03
#: The AI's instant stand-in (an expiry in a `timeout:ai` game is played by the AI).
AI_STAND_IN = {"ai_decider": DECIDER, "ai_workers_kind": "inline", "ai_manual": True}


@dataclass
class Figures:
    """What the checked games went through, and every violation found."""

    games: int = 0
    steps: int = 0
    commits: int = 0
    announcements: int = 0
    confirms: int = 0
    forced_turns: int = 0
    skipped_answers: int = 0
    stalls: int = 0
    unpinged: int = 0
    double_pings: int = 0
    playing_pings: int = 0
    missing_reminders: int = 0
    #: Heads-up mentions ("you're next"): each a double ping if its player had one already
    #: and was not asked to act since, or is asked to act by the same message.
    heads_ups: int = 0
    automa_answers: int = 0
    #: Games that reached MAX_STEPS without their end.
    unended: int = 0
    #: Absences (the player to move did not act for a long time), expiries, time away set.
    absences: int = 0
    expiries: int = 0
    away: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        """Add another run's figures to these."""
        for f in fields(self):
            if f.type == "int":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        self.kinds.update(other.kinds)
        self.problems.extend(other.problems)

    @property
    def clean(self) -> bool:
        """No stall, unpinged decider, double ping or missing reminder."""
        return not (
            self.stalls
            or self.unpinged
            or self.double_pings
            or self.playing_pings
            or self.missing_reminders
            or self.unended
        )


def actor(user: int) -> Actor:
    """A player (or moderator) in the checked channel."""
    return Actor(user, GUILD, CHANNEL, True)


class Checker:
    """Plays one seeded random game and checks the loop after every step."""

    def __init__(
        self,
        service: GameService,
        port: RecordingPort,
        sender: OutboxSender,
        clock: FakeClock | None = None,
    ) -> None:
        self.service, self.port, self.sender = service, port, sender
        #: The clock that absences move (None: no turn clock, no absences).
        self.clock = clock
        self.runner = ClockRunner(service, clock, instance="turn loop") if clock else None
        self.figures = Figures(games=1)
        self.game_id = 0
        self.where = ""
        self.seated: list[int] = []
        #: Log records already checked.
        self.checked_records = 0
        #: Users pinged for the step they still face (their own step in progress included).
        self.told: set[int] = set()
        #: Users pinged who have not acted since (pinging them again would be a double ping).
        self.untouched: set[int] = set()
        #: Who must decide, as the last check saw it.
        self.deciders: list[int] = []
        #: Users with a reminder scheduled (reminders change only with an announcement).
        self.reminded: set[int] = set()
        #: The user whose own answer (or undo) was the last step: their reply is their panel.
        self.playing: int | None = None
        #: Users told they are next whose seat has not had a decision since.
        self.warned: set[int] = set()
        #: Log records read for `warned`.
        self.warned_read = 0

    def problem(self, what: str) -> None:
        """Record a violation (the first ones, with where they happened)."""
        if len(self.figures.problems) < 20:
            self.figures.problems.append(f"{self.where}: {what}")

    async def deliver(self) -> None:
        """Post what the outbox holds and check each new announcement's pings."""
        before = len(self.port.posted)
        await self.sender.run_once()
        if len(self.port.posted) > before:
            reminders = await self.service.store.reminders(self.game_id)
            self.reminded = {r.user_id for r in reminders}
        fresh = self.port.posted[before:]
        decided = (
            await self.service.store.read_log(self.game_id, after=self.warned_read) if fresh else []
        )
        loaded = await self.service.desk.game_for_reminder(self.game_id) if fresh else None
        for announcement in fresh:
            self.figures.announcements += 1
            # A seat's decision (its turn, even one confirmed for it) uses up its heads-up.
            for entry in decided:
                new = self.warned_read < entry.seq <= announcement.version
                if loaded and new and entry.kind == "decision":
                    self.warned.discard(loaded.user_of_player(entry.record.get("player")))
            self.warned_read = max(self.warned_read, announcement.version)
            warned = set(announcement.heads_up)
            self.figures.heads_ups += len(warned)
            doubled = len(warned & (self.warned | set(announcement.waiting_for)))
            if doubled:
                self.problem(f"heads-up again or with a ping to act: {sorted(warned)}")
            self.warned = (self.warned | warned) - set(announcement.waiting_for)
            mentions = [u for u in announcement.mentions if u not in warned]
            doubled += len(mentions) - len(set(mentions))
            waiting = set(announcement.waiting_for)
            if announcement.reason != "end":
                idle = set(mentions) - waiting
                again = set(mentions) & self.untouched
                doubled += len(idle) + len(again)
                if idle or again:
                    self.problem(f"pinged with nothing new to decide: {sorted(idle | again)}")
            elif sorted(mentions) != sorted(set(self.seated)):
                self.problem(f"the final message pings {mentions}, not every player once")
                doubled += 1
            if doubled:
                self.figures.double_pings += doubled
            if announcement.reason != "end" and self.playing in mentions:
                self.figures.playing_pings += 1
                self.problem(f"{self.playing} pinged for the decision their own reply shows")
            # Still told: who was pinged now, and who was before and still faces a decision.
            self.told = set(mentions) | (self.told & waiting)
            self.untouched = set(mentions) | (self.untouched & waiting)

    async def check(self) -> bool:
        """The checks after a step; False once the game is over."""
        loaded = await self.service.desk.game_for_reminder(self.game_id)
        assert loaded is not None
        new = await self.service.store.read_log(self.game_id, after=self.checked_records)
        self.checked_records += len(new)
        for index, entry in enumerate(new):
            if entry.kind == "decision" and entry.record.get("auto") == "automa":
                self.figures.automa_answers += 1
                if not any(later.kind == "commit" for later in new[index + 1 :]):
                    self.figures.stalls += 1
                    self.problem(f"the automa answer at version {entry.seq} was not committed")
            if entry.kind == "decision" and entry.record.get("notation") == "confirm":
                # Every Confirm (a player's, or one given on their behalf) is committed in
                # the same append.
                self.figures.confirms += 1
                if not any(later.kind == "commit" for later in new[index + 1 :]):
                    self.figures.stalls += 1
                    self.problem(f"the Confirm at version {entry.seq} was not committed")
        if loaded.game is not None and loaded.game.is_over:
            final = self.port.posted[-1]
            if final.reason != "end" or "The game is over." not in final.text:
                self.problem("no final message")
                self.figures.stalls += 1
            return False
        self.deciders = list(self.service.desk.users_deciding(loaded))
        deciders = set(self.deciders)
        if not deciders and loaded.ai_deciding():
            return True  # the AI plays a seat whose time ran out: its step is next
        if not deciders:
            self.problem("nobody must decide, but the game is not over")
            self.figures.stalls += 1
            return False
        last = self.port.posted[-1]
        if last.version < loaded.commit_version:
            self.problem(f"no announcement of the commit at version {loaded.commit_version}")
            self.figures.stalls += 1
            return True
        named = set(named_users(last.lines))
        unpinged = {
            u for u in deciders if u not in named or u not in last.waiting_for or u not in self.told
        }
        if unpinged:
            self.figures.unpinged += len(unpinged)
            self.problem(f"deciders {sorted(unpinged)} not named and pinged by {last.text!r}")
        if not deciders & self.told:
            self.figures.stalls += 1
            self.problem("the game waits only for people who were not pinged")
        missing = deciders - self.reminded
        if missing:
            self.figures.missing_reminders += len(missing)
            self.problem(f"no reminder for {sorted(missing)}")
        return True

    async def consistent(self) -> None:
        """The service's cached game reads as the store's log does."""
        cached = await self.service.desk.game_for_reminder(self.game_id)
        stored = await load(self.service.store, await self.service.store.get_game(self.game_id))
        assert cached is not None
        if (cached.version, cached.chain, cached.commit_version) != (
            stored.version,
            stored.chain,
            stored.commit_version,
        ):
            self.problem("the cached game differs from what its log loads")
            self.figures.stalls += 1

    async def play(self, mix: str, seed: int, players: int) -> Figures:
        """Create, start and play one game to its end with random answers, checked."""
        service, rng = self.service, random.Random(seed)
        options = dict(MIXES[mix])
        if self.clock is not None:
            options["clock"] = ("12h", "24h", "48h")[seed % 3]
            options["timeout"] = POLICIES[(seed // 3) % len(POLICIES)]
        if "automa" in options:
            options["automa"] = min(int(options["automa"]), players - 1)  # type: ignore[call-overload]
        people = players - int(options.get("automa", 0))  # type: ignore[call-overload]
        self.seated = list(USERS[:people])
        outcome = await service.lobby.create_game(
            actor(USERS[0]), players=players, seed=seed, **options
        )
        self.game_id = outcome.game_id
        for user in USERS[1:people]:
            await service.lobby.join(actor(user))
        if seed % 4 == 1 and people > 1:
            await service.user_settings.update(USERS[1], skip_confirm=True)
        if seed % 2 == 0:
            for user in self.seated:  # every person asks to be told they are next
                await service.user_settings.update(user, heads_up=True)
        await service.lobby.start(actor(USERS[0]))
        self.where = f"{mix} seed {seed} ({players} players) start"
        await self.deliver()
        await self.check()
        skip_at = 40 + seed % 50 if people >= 3 and seed % 5 == 2 else None
        for step in range(MAX_STEPS):
            self.where = f"{mix} seed {seed} ({players} players) step {step}"
            announced = await self.step(rng, skip=step == skip_at)
            self.figures.steps += 1
            if step == skip_at:
                await self.consistent()
            if announced:
                await self.deliver()
            if not await self.check():
                break
        else:
            self.problem("the game did not end")
            self.figures.unended += 1
        if await self.sender.run_once():
            self.problem("an announcement was written that no outcome reported")
        await self.consistent()
        log = await service.store.read_log(self.game_id)
        self.figures.commits += sum(1 for e in log if e.kind == "commit")
        for entry in log:
            if entry.kind == "expiry":
                self.figures.expiries += 1
                self.figures.kinds[f"expiry {entry.record['policy']}"] += 1
        for entry in log:
            auto = entry.record.get("auto")
            if auto == "forced turn":
                self.figures.forced_turns += 1
            elif auto == "skipped seat":
                self.figures.skipped_answers += 1
        return self.figures

    async def absent(self, rng: random.Random) -> bool:
        """The player to move is away a long time (or says so with time away): the clock's
        runner acts on whatever ran out, as the bot's does."""
        assert self.clock is not None and self.runner is not None
        self.figures.absences += 1
        self.playing = None  # nobody's own command: an expiry's pings are the bot's
        user = rng.choice(self.deciders)
        if rng.random() < 0.3:
            await self.service.timekeeping.set_away(actor(user), rng.randrange(0, 4))
            self.figures.away += 1
        for _ in range(rng.randrange(1, 4)):
            self.clock.advance(rng.randrange(12, 60) * 3_600_000)
            seen = (await self.service.store.get_game(self.game_id)).version
            await self.runner.run_once()
            # A player whose turn the expiry answered (the AI's, or passed) faces a new
            # decision when pinged next: not a double ping. After `wait` it is the same one.
            for entry in await self.service.store.read_log(self.game_id, after=seen):
                if entry.kind == "expiry" and entry.record["policy"] != "wait":
                    self.untouched.discard(self.seated[entry.record["seat"]])
            await self.deliver()
        return True

    async def step(self, rng: random.Random, *, skip: bool) -> bool:
        """One random step: mostly an answer, sometimes a restart, an undo or a skipped seat.

        Returns whether the step says it wrote an announcement (otherwise the outbox must be
        empty: check (a) finds any commit left unannounced).
        """
        service = self.service
        loaded = await service.desk.game_for_reminder(self.game_id)
        assert loaded is not None
        if not self.deciders and loaded.ai_deciding():
            self.playing = None  # the AI holds a seat whose time ran out
            return bool(await service.computers.play_computers(self.game_id, steps=1))
        if self.clock is not None and rng.random() < ABSENCE:
            return await self.absent(rng)
        if self.clock is not None:
            self.clock.advance(rng.randrange(60_000, 4 * 3_600_000))  # time passes
        if skip:
            # The last seat vanished: a moderator skips it (it stays seated and is pinged by
            # the final message like everyone).
            self.playing = None  # a moderator's command: nobody's panel goes on
            return (
                await service.moderation.skip_seat(actor(USERS[0]), len(self.seated) - 1)
            ).announced
        user = rng.choice(self.deciders)
        self.playing = user
        panel = await service.views.panel(actor(user))
        self.untouched.discard(user)
        self.figures.kinds[panel.kind] += 1
        if panel.can_restart and rng.random() < 0.03:
            outcome = await service.moves.restart_turn(actor(user), expected_version=panel.version)
            return outcome.announced
        if panel.can_undo and rng.random() < 0.2:
            try:
                return (await service.moves.undo(actor(user))).announced
            except ServiceError as exc:
                self.problem(f"undo offered but refused: {exc}")
        notation = rng.choice(panel.options).notation
        try:
            outcome = await service.moves.play(
                actor(user), [notation], expected_version=panel.version
            )
        except NotYourTurn:
            self.problem(f"{user} was offered a decision that was not theirs")
            return True
        return outcome.announced


async def play_checked(
    mix: str, seed: int, players: int, db: Path, *, absences: bool = False
) -> Figures:
    """One checked game on a fresh database at `db` (`absences`: clocked, with absences)."""
    extra = AI_STAND_IN if absences else None
    async with picture_free_service(db, extra=extra) as (service, clock):
        port = RecordingPort()
        sender = OutboxSender(service.store, port, clock, service=service)
        checker = Checker(service, port, sender, clock if absences else None)
        try:
            return await checker.play(mix, seed, players)
        finally:
            service.thinker.close()


def players_for(seed: int) -> int:
    """2, 3 or 4 players by seed."""
    return 2 + seed % 3
