"""GameService: the application layer — lobby, seats, turns, moderation, views, settings,
records, export and import — as one facade over a store.

The service is moving from mix-ins to composed parts. Composed so far, each a class of its
own that inherits from nothing and sees only what it is given:

- `user_settings` — bot/service/settings.py: a user's settings, over the store alone;
- `moving` — bot/service/moving.py: export and import, over the store and the core's
  `GameDesk` (finding, loading and landing a game);
- `records` — bot/service/stats.py: statistics, history, archived games, replays and the
  start-up backfill of results, over the store, the ratings, the renderer pool and the
  games' loader;
- the outbox and the reminders see the service only through their ports
  (bot/service/ports.py: `OutboxGames`, `ReminderGames`); a commit tells the outbox
  through the service's publisher, a `Doorbell` both are built with.

The adapters call a part by its name (`service.records.history(...)`,
`service.user_settings.update(...)`): one name per responsibility reads better than a
facade that repeats every signature, and each part guards its own commands against a
database fault (`refuse_store_faults`).

Still command groups built on `ServiceCore` (mix-ins), because the core's commit calls
hooks they override (the AI's `_computers_due`, `_hinted_now`; the clock's
`_clock_at_commit`, `_clock_lines`, `_first_reminder_due`, `_clock_landed`):

- bot/service/core.py — loading and locating games, permissions, landing a commit (`_land`:
  drafted and planned as a value by bot/service/commit.py, appended by the store in one
  transaction, then published), the panel;
- bot/service/lobby.py — create, join, leave, start;
- bot/service/play.py — play, confirm, restart a turn, undo;
- bot/service/moderation.py — abandon, replace or skip a seat, rewind;
- bot/service/views.py — panel, autocomplete, images, summaries, log, score, my games;
- bot/service/thinking.py — the AI seats' steps (in worker processes) and hints;
- bot/service/timekeeping.py — the turn clock: charging, deadlines, expiries, time away.

See bot/service/records.py for every record kind, bot/service/loading.py for how a game is
loaded, and bot/service/turns.py for the turn loop's rules. Results are plain data
(`Outcome`, `Announcement`: an `OutcomeKind`, `Line`s naming people by `UserRef`, the user
ids to ping); the service writes no Discord markup.
"""

from __future__ import annotations

import functools

from bot.service.faults import refuse_store_faults
from bot.service.lobby import LobbyCommands, expansions_text
from bot.service.moderation import ModerationCommands
from bot.service.moving import MAX_IMPORT_BYTES, Moving
from bot.service.play import TurnCommands
from bot.service.settings import UNCHANGED, Settings, time_zone_names
from bot.service.stats import Records
from bot.service.thinking import ThinkingCommands
from bot.service.timekeeping import ClockCommands
from bot.service.views import GameViews

__all__ = ["MAX_IMPORT_BYTES", "UNCHANGED", "GameService", "expansions_text", "time_zone_names"]


@refuse_store_faults
class GameService(
    LobbyCommands,
    TurnCommands,
    ModerationCommands,
    GameViews,
    ClockCommands,
    ThinkingCommands,
):
    """One channel's game from creation to final score; plain ids in, plain data out.

    Any number of instances (in one or several processes) may share a store: the store's
    (game, version) uniqueness decides races; the in-memory cache is keyed by version and
    checked against the store at every command.
    """

    @functools.cached_property
    def user_settings(self) -> Settings:
        """A user's own settings: a part of its own over the store (bot/service/settings.py)."""
        return Settings(self.store)

    @functools.cached_property
    def records(self) -> Records:
        """The records of finished games: a part of its own (bot/service/stats.py)."""
        return Records(
            self.store,
            ratings=self.ratings,
            renderer_pool=self.renderer_pool,
            config=self.config,
            games=self,
        )

    @functools.cached_property
    def moving(self) -> Moving:
        """Export and import: a part of its own (bot/service/moving.py)."""
        return Moving(self.store, self)
