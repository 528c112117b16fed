"""GameService: the application layer — lobby, seats, turns, moderation, views, settings,
export and import — as one object over a store.

Each responsibility has its own module, a command group built on `ServiceCore`:

- bot/service/core.py — loading and locating games, permissions, landing a commit (`_land`:
  planned as a value by bot/service/commit.py, appended by the store in one transaction,
  then published), the panel;
- bot/service/lobby.py — create, join, leave, start;
- bot/service/play.py — play, confirm, restart a turn, undo;
- bot/service/moderation.py — abandon, replace or skip a seat, rewind;
- bot/service/views.py — panel, autocomplete, images, summaries, log, score, my games;
- bot/service/settings.py — a user's settings: a composed part (`user_settings`) over the
  store alone;
- bot/service/moving.py — export and import;
- bot/service/thinking.py — the AI seats' steps (in worker processes) and hints;
- bot/service/timekeeping.py — the turn clock: charging, deadlines, expiries, time away;
- bot/service/stats.py — the records: statistics, history, archived games, replays, and the
  start-up backfill of results (bot/service/final.py: a finished game's results).

See bot/service/loading.py for every record kind and how a game is loaded, and
bot/service/turns.py for the turn loop's rules. Results are plain data (`Outcome`,
`Announcement`: an `OutcomeKind`, `Line`s naming people by `UserRef`, the user ids to
ping); the service writes no Discord markup.
"""

from __future__ import annotations

import functools

from bot.service.faults import refuse_store_faults
from bot.service.lobby import LobbyCommands, expansions_text
from bot.service.moderation import ModerationCommands
from bot.service.moving import MAX_IMPORT_BYTES, MovingGames
from bot.service.play import TurnCommands
from bot.service.settings import UNCHANGED, Settings, time_zone_names
from bot.service.stats import StatsCommands
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
    MovingGames,
    StatsCommands,
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
