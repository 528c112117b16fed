"""Helpers for the service tests: a settable clock, a recording port, scripted players."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.service import (
    Actor,
    Announcement,
    GameService,
    ReminderNotice,
    RendererPool,
    ServiceConfig,
)
from bot.service.errors import NotYourTurn
from bot.service.loading import Loaded
from bot.service.types import PanelView, ScoreView
from bot.store import SqliteStore
from tests.clock import FakeClock as FakeClock  # re-exported: the tests import it here

GUILD = 1000
CHANNEL = 2000
OTHER_CHANNEL = 2001
USERS = (11, 12, 13, 14)
SPECTATOR = 99


@dataclass
class RecordingPort:
    """An AnnouncementPort that keeps what it was given."""

    posted: list[Announcement] = field(default_factory=list)
    stripped: list[int] = field(default_factory=list)
    reminders: list[ReminderNotice] = field(default_factory=list)
    fail: int = 0

    async def post(self, announcement: Announcement) -> int:
        if self.fail:
            self.fail -= 1
            raise ConnectionError("Discord is down")
        self.posted.append(announcement)
        return 900_000 + len(self.posted)

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        self.stripped.append(message_id)

    async def remind(self, notice: ReminderNotice) -> None:
        self.reminders.append(notice)


def cheap_png(state: object, view: str, company: str | None, theme: str) -> bytes:
    """No pictures: games that check what is said, not what is drawn."""
    return b"PNG"


@contextlib.asynccontextmanager
async def picture_free_service(
    db: Path, extra: Mapping[str, object] | None = None
) -> AsyncIterator[tuple[GameService, FakeClock]]:
    """A service on a fresh database at `db`, drawing no pictures, with its clock (and the
    config's `extra` settings, such as the AI's)."""
    clock = FakeClock()
    store = await SqliteStore.open(db, clock=clock)
    try:
        pool = RendererPool(kind="inline", render_fn=cheap_png)
        config = ServiceConfig(extra=dict(extra or {}))
        yield GameService(store, clock=clock, renderer_pool=pool, config=config), clock
    finally:
        await store.close()


def actor(user: int, *, channel: int = CHANNEL, manage: bool = False) -> Actor:
    """An actor in the test guild."""
    return Actor(user, GUILD, channel, manage)


async def started_game(
    service: GameService, players: int = 2, *, seed: int = 7, setup: str = "intro"
) -> int:
    """Create, fill and start a game in CHANNEL; return its id."""
    outcome = await service.lobby.create_game(
        actor(USERS[0]), players=players, seed=seed, setup=setup
    )
    for user in USERS[1:players]:
        await service.lobby.join(actor(user))
    await service.lobby.start(actor(USERS[0]))
    return outcome.game_id


async def random_step(service: GameService, rng: random.Random, players: int, game_id: int) -> bool:
    """One random legal answer by whoever must decide; False once the game is over."""
    if (await service.store.get_game(game_id)).status != "active":
        return False
    for user in USERS[:players]:
        try:
            panel = await service.views.panel(actor(user))
        except NotYourTurn:
            continue
        if panel.prompt == "The game is over.":
            return False
        if panel.options:
            notation = rng.choice(panel.options).notation
            await service.moves.play(actor(user), [notation], expected_version=panel.version)
            return True
    raise AssertionError("nobody has a decision, but the game is not over")


async def finished_score(service: GameService, game_id: int, players: int) -> ScoreView:
    """The final score of a finished game, checked: every seat ranked, breakdowns add up."""
    meta = await service.store.get_game(game_id)
    assert meta.status == "finished"
    score = await service.views.score(game_id, by_game_id=True)
    assert score.over and {row.user_id for row in score.rows} == set(USERS[:players])
    for row in score.rows:
        assert sum(vp for _, vp in row.breakdown) == row.vp
    return score


def score_groups(score: ScoreView) -> set[str]:
    """The breakdown groups that appear in any row of a score."""
    return {source for row in score.rows for source, _ in row.breakdown}


async def play_policy(
    service: GameService,
    game_id: int,
    seed: int,
    until: Callable[[Loaded], bool],
    *,
    limit: int = 3000,
) -> Loaded:
    """Play a seeded policy (a lone option as it is, else a seeded choice; the first user who
    must decide answers) until `until` holds for the game; return it then."""
    rng = random.Random(seed)
    for _ in range(limit):
        loaded = await service.desk.game_for_reminder(game_id)
        assert loaded is not None and loaded.game is not None
        if until(loaded):
            return loaded
        assert not loaded.game.is_over, "the game ended first"
        user = service.desk.users_deciding(loaded)[0]
        panel = await service.views.panel(actor(user))
        options = panel.options
        notation = options[0].notation if len(options) == 1 else rng.choice(options).notation
        await service.moves.play(actor(user), [notation], expected_version=panel.version)
    raise AssertionError("the policy did not get there")


async def deciding(service: GameService, players: int = 2) -> tuple[int, PanelView]:
    """The first player (of the first `players` users) with a decision, and their panel."""
    for user in USERS[:players]:
        panel = await service.views.panel(actor(user))
        if panel.options:
            return user, panel
    raise AssertionError("nobody decides")
