"""Random whole games through the service, collecting every text a player can read.

Each step a random decider answers from their panel (its prompt, options, what the turn did);
now and then someone is refused (a move out of turn, a malformed or illegal one, an undo
nobody may take) and looks at the score, the company boards, the log and the position's
description (what a picture's alt text says). Every announcement, outcome, reminder and
refusal is kept, with where it was read.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.commands.layout import select_texts
from bot.service import Actor, GameService, OutboxSender, ServiceError
from bot.service.reminders import ReminderRunner
from bot.service.timekeeping import ClockRunner
from bot.service.types import Announcement, Outcome, PanelView, Spoken
from renderer.describe import describe
from tests.aiplayer import DECIDER
from tests.service.helpers import FakeClock, RecordingPort, picture_free_service
from tests.texts.checker import MAX_SELECT_TEXT, Finding, check_limit, check_text
from tests.texts.setups import Setup

GUILD, CHANNEL = 7100, 7101
USERS = (201, 202, 203, 204)
NAMES = {201: "Ann", 202: "Bob", 203: "Cy", 204: "Di"}
MAX_STEPS = 4000
#: AI seats play by the instant stand-in (tests/aiplayer.py), stepped by the reader.
AI_STAND_IN = {"ai_decider": DECIDER, "ai_workers_kind": "inline", "ai_manual": True}
HOUR_MS = 3_600_000


def name(user_id: int) -> str:
    """How a person is written (the Discord layer writes a mention, the console a name)."""
    return NAMES.get(user_id, f"Player {user_id}")


@dataclass
class Texts:
    """What players read, each with where it was read (surface, then context)."""

    items: list[tuple[str, str]] = field(default_factory=list)
    #: Findings about how texts fit Discord (an option too long for a select).
    limits: list[Finding] = field(default_factory=list)

    def add(self, where: str, text: str | None) -> None:
        """Keep one text (empty ones are nothing to read)."""
        if text:
            self.items.append((where, text))

    def spoken(self, where: str, said: Spoken) -> None:
        """An outcome, announcement or reminder as the console and Discord write it."""
        self.add(where, said.render(name))

    def panel(self, where: str, panel: PanelView) -> None:
        """A panel's prompt, what the turn did and every option's label and description."""
        self.add(f"{where} prompt", panel.prompt)
        for line in panel.done:
            self.add(f"{where} done", line)
        for since in panel.since:
            self.add(f"{where} since", since.render(name))
        for option in panel.options:
            self.add(f"{where} label", option.label)
            self.add(f"{where} description", option.description)
            self.add(f"{where} group", option.group)
            # As the panel's select shows it (a button takes a label up to 80, else a select).
            for text in select_texts(option.label, option.description or option.group):
                self.limits += check_limit(len(text), MAX_SELECT_TEXT, "option", where, text)


def actor(user: int, *, manage: bool = False) -> Actor:
    """A user in the checked channel."""
    return Actor(user, GUILD, CHANNEL, manage)


class Reader:
    """Plays one seeded random game through the service and reads everything on the way."""

    def __init__(
        self, service: GameService, port: RecordingPort, clock: FakeClock, texts: Texts
    ) -> None:
        self.service, self.port, self.clock, self.texts = service, port, clock, texts
        self.sender = OutboxSender(service.store, port, clock, service=service)
        self.reminders = ReminderRunner(service, port, clock)
        self.turn_clock = ClockRunner(service, clock, instance="texts")
        self.seen_posts = 0
        self.seen_reminders = 0
        self.game_id = 0

    def outcome(self, where: str, outcome: Outcome) -> None:
        """An outcome's text and the panel it leaves."""
        self.texts.spoken(f"outcome {where}", outcome)
        if outcome.decision is not None:
            self.texts.panel("panel", outcome.decision)

    async def refused(self, where: str, call: Callable[[], object]) -> None:
        """A command expected to be refused: its message is what the player reads."""
        try:
            result = await call()  # type: ignore[misc]
        except ServiceError as exc:
            self.texts.add(f"refusal {where}", exc.render(name))
        else:
            if isinstance(result, Outcome):
                self.outcome(where, result)

    async def deliver(self) -> None:
        """Post the outbox and read the new announcements and reminders."""
        await self.sender.run_once()
        for announcement in self.port.posted[self.seen_posts :]:
            self.announcement(announcement)
        self.seen_posts = len(self.port.posted)

    def announcement(self, announcement: Announcement) -> None:
        """An announcement's text and its pictures' descriptions, when they have any."""
        self.texts.spoken(f"announcement {announcement.reason}", announcement)
        for image in announcement.images:
            self.texts.add("alt text", getattr(image, "description", None))

    async def remind(self) -> None:
        """Let a day pass and read the reminders it brings."""
        self.clock.advance(30 * HOUR_MS)
        for reminder, notice in await self.reminders.due_reminders():
            if notice is not None:
                await self.port.remind(notice)
            del reminder
        for notice in self.port.reminders[self.seen_reminders :]:
            self.texts.spoken(f"reminder {notice.reason}", notice)
        self.seen_reminders = len(self.port.reminders)
        await self.turn_clock.run_once()  # a clocked game's time may run out

    async def look(self, users: list[int]) -> None:
        """What anyone may look at: score, company boards, log, the position's description."""
        service, texts = self.service, self.texts
        score = await service.views.score(CHANNEL)
        texts.add("score", score.text(name))
        texts.add("company", await service.views.company_summary(CHANNEL))
        loaded = await service.desk.game_for_reminder(self.game_id)
        if loaded is not None and loaded.committed is not None:
            state = loaded.committed
            for company in state.companies:
                texts.add("company one", await service.views.company_summary(CHANNEL, company))
            if state.companies:
                texts.add("alt text description", describe(state))
        for line in await service.views.log_lines(CHANNEL, 30):
            texts.add("log", line)
        for user in users:
            try:
                texts.panel("panel other", await service.views.panel(actor(user)))
            except ServiceError as exc:
                texts.add("refusal panel", exc.render(name))

    async def refusals(
        self, rng: random.Random, user: int, others: list[int], panel: PanelView
    ) -> None:
        """The refusals a player meets: out of turn, malformed, illegal, undo, an unknown
        company, a stale version."""
        service = self.service
        if others:
            other = rng.choice(others)
            option = rng.choice(panel.options).notation
            await self.refused("out of turn", lambda: service.moves.play(actor(other), [option]))
            await self.refused("undo", lambda: service.moves.undo(actor(other)))
        await self.refused("malformed", lambda: service.moves.play(actor(user), ["foo bar"]))
        await self.refused("illegal", lambda: service.moves.play(actor(user), ["take 9999"]))
        await self.refused(
            "unknown company", lambda: service.views.company_summary(CHANNEL, "atlantis")
        )
        await self.refused(
            "stale",
            lambda: service.moves.play(
                actor(user), [panel.options[0].notation], expected_version=1
            ),
        )
        await self.refused(
            "stranger", lambda: service.moves.play(actor(999), [panel.options[0].notation])
        )

    async def play(self, setup: Setup, seed: int) -> None:
        """Create, start and play one game to its end with random answers, reading it."""
        service, rng = self.service, random.Random(seed)
        people = setup.players - setup.computers
        users = list(USERS[:people])
        created = await service.lobby.create_game(actor(users[0]), seed=seed, **setup.options())
        self.game_id = created.game_id
        self.outcome("create", created)
        await self.refused("start alone", lambda: service.lobby.start(actor(USERS[3])))
        for user in users[1:]:
            self.outcome("join", await service.lobby.join(actor(user)))
        # The last person asks for a heads-up ("you're next"), so its lines are read too.
        await service.user_settings.update(users[-1], heads_up=True)
        self.outcome("start", await service.lobby.start(actor(users[0])))
        await self.deliver()
        look_every = 45 + seed % 10
        looked = -1
        for step in range(MAX_STEPS):
            loaded = await service.desk.game_for_reminder(self.game_id)
            assert loaded is not None and loaded.game is not None
            if loaded.game.is_over:
                break
            deciders = list(service.desk.users_deciding(loaded))
            if not deciders and loaded.ai_deciding():
                # An AI player's step, landed as the bot's worker lands it (the stand-in AI).
                assert await service.computers.play_computers(self.game_id, steps=1) == 1, (
                    setup.name
                )
                await self.deliver()
                continue
            assert deciders, f"{setup.name} seed {seed}: nobody decides"
            user = rng.choice(deciders)
            # Opened as a player opens it: with what changed since their last turn.
            panel = await service.views.panel(actor(user), opening=True)
            self.texts.panel("panel", panel)
            if step % look_every == 0 and step != looked:
                looked = step
                await self.look(users)
                await self.refusals(rng, user, [u for u in users if u != user], panel)
                await self.remind()
                await self.deliver()  # an undo by the other player is announced
                continue
            if panel.can_restart and rng.random() < 0.03:
                self.outcome(
                    "restart",
                    await service.moves.restart_turn(actor(user), expected_version=panel.version),
                )
                continue
            if panel.can_undo and rng.random() < 0.1:
                self.outcome("undo", await service.moves.undo(actor(user)))
                await self.deliver()
                continue
            notation = rng.choice(panel.options).notation
            outcome = await service.moves.play(
                actor(user), [notation], expected_version=panel.version
            )
            self.outcome("play", outcome)
            if outcome.announced:
                await self.deliver()
        else:
            raise AssertionError(f"{setup.name} seed {seed}: the game did not end")
        await self.deliver()
        await self.look(users)


async def read_game(setup: Setup, seed: int, db: Path, texts: Texts) -> None:
    """Play and read one game on a fresh database at `db`."""
    async with picture_free_service(db, extra=AI_STAND_IN) as (service, clock):
        try:
            await Reader(service, RecordingPort(), clock, texts).play(setup, seed)
        finally:
            service.thinker.close()


async def service_findings(setup: Setup, seed: int, db: Path) -> list[Finding]:
    """Every finding in one game read through the service."""
    texts = Texts()
    await read_game(setup, seed, db, texts)
    found = list(dict.fromkeys(texts.limits))
    for where, text in dict.fromkeys(texts.items):
        found += check_text(text, f"{setup.name} seed {seed} {where}")
    return found
