"""GameService: the application layer — lobby, seats, turns, moderation, views, settings,
records, export and import — as one facade over a store, composed of parts.

Owns: nothing but the wiring. Each part is a class of its own that inherits from nothing
and sees only what it is given (its file's docstring says what it owns):

- `desk` — bot/service/core.py: loading and locating games, permissions, the panel, landing
  a commit (`Desk.land`: drafted and planned as a value by bot/service/commit.py, appended
  by the store in one transaction, then published); the other parts work at it;
- `timekeeper` — bot/service/timekeeping.py: the turn clock read and charged, over the
  store, the clock and the config; the desk asks it at each commit (`ports.CommitClock`);
- `computer_tasks` — bot/service/thinking.py: the tasks thinking about each game's AI
  steps; the desk tells it after each landing (`ports.ComputersDue`);
- `lobby` (lobby.py), `moves` (play.py), `moderation` (moderation.py), `views` (views.py,
  drawing with `pictures`, pictures.py), `computers` (thinking.py: the AI seats and hints),
  `timekeeping` (timekeeping.py: time away, expiries, pending AI steps);
- `user_settings` (settings.py), `records` (stats.py), `moving` (moving.py);
- the outbox and the reminders see the service only through their ports
  (bot/service/ports.py: `OutboxGames`, `ReminderGames`, `ExpiryGames`); a commit tells the
  outbox through the service's publisher, a `Doorbell` both are built with.

Everything is given at construction, the adapter's `people_namer` too; nothing is assigned
to a part afterwards. The adapters, tools and benches call a part by its name
(`service.lobby.join(...)`, `service.views.panel(...)`, `service.records.history(...)`):
one name per responsibility reads better than a facade that repeats every signature. Each
part guards its own commands against a database fault (`refuse_store_faults`).

See bot/service/records.py for every record kind, bot/service/loading.py for how a game is
loaded, and bot/service/turns.py for the turn loop's rules. Results are plain data
(`Outcome`, `Announcement`: an `OutcomeKind`, `Line`s naming people by `UserRef`, the user
ids to ping); the service writes no Discord markup.
"""

from __future__ import annotations

from bot.service.core import Desk
from bot.service.images import RendererPool
from bot.service.lobby import Lobby, expansions_text
from bot.service.moderation import Moderation
from bot.service.moving import MAX_IMPORT_BYTES, Moving
from bot.service.pictures import PeopleNamer, Pictures
from bot.service.play import Moves
from bot.service.ports import Doorbell
from bot.service.settings import UNCHANGED, Settings, time_zone_names
from bot.service.stats import Records
from bot.service.thinking import Computers, ComputerTasks, thinker_for
from bot.service.timekeeping import Timekeeper, Timekeeping
from bot.service.types import ServiceConfig
from bot.service.views import GameViews
from bot.store import Clock, Store

__all__ = ["MAX_IMPORT_BYTES", "UNCHANGED", "GameService", "expansions_text", "time_zone_names"]


class GameService:
    """One channel's game from creation to final score; plain ids in, plain data out.

    Any number of instances (in one or several processes) may share a store: the store's
    (game, version) uniqueness decides races; the in-memory cache is keyed by version and
    checked against the store at every command.
    """

    #: Whether a new game's options are allowed (no service needed: the console asks).
    check_new_game = staticmethod(Lobby.check_new_game)

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        renderer_pool: RendererPool | None = None,
        config: ServiceConfig | None = None,
        publisher: Doorbell | None = None,
        people_namer: PeopleNamer | None = None,
    ) -> None:
        """The service of `store`'s games at `clock`'s time; `publisher` is told after each
        commit that announces (a new `Doorbell` by default); `people_namer`: how the
        adapter's people are called in the pictures (None: "Player N")."""
        self.store = store
        self.clock = clock
        self.config = config or ServiceConfig()
        self.renderer_pool = renderer_pool or RendererPool(
            cache_size=self.config.image_cache_size, theme=self.config.theme
        )
        self.publisher = publisher or Doorbell()
        self.timekeeper = Timekeeper(store, clock, self.config)
        self.thinker = thinker_for(self.config)
        # The AI's steps land at the desk, which tells these tasks after each landing: the
        # tasks call the computers part (made below, with the desk) through this service.
        self.computer_tasks = ComputerTasks(
            self._computer_steps, manual=bool(self.config.extra.get("ai_manual"))
        )
        self.desk = Desk(
            store,
            clock=clock,
            config=self.config,
            renderer_pool=self.renderer_pool,
            publisher=self.publisher,
            timekeeper=self.timekeeper,
            computers=self.computer_tasks,
        )
        self.ratings = self.desk.ratings
        self.catchup = self.desk.catchup
        self.pictures = Pictures(store, self.config, people_namer)
        self.lobby = Lobby(self.desk)
        self.moves = Moves(self.desk)
        self.moderation = Moderation(self.desk)
        self.views = GameViews(self.desk, self.pictures, self.timekeeper)
        self.computers = Computers(self.desk, self.thinker, self.computer_tasks)
        self.timekeeping = Timekeeping(
            self.desk, self.timekeeper, self.computers, self.computer_tasks
        )
        #: A user's own settings (bot/service/settings.py).
        self.user_settings = Settings(store)
        #: The records of finished games (bot/service/stats.py).
        self.records = Records(
            store,
            ratings=self.ratings,
            renderer_pool=self.renderer_pool,
            config=self.config,
            games=self.desk,
        )
        #: Export and import (bot/service/moving.py).
        self.moving = Moving(store, self.desk)

    async def _computer_steps(self, game_id: int) -> int:
        """Land a game's AI steps (`Computers.play_computers`); how many landed."""
        return await self.computers.play_computers(game_id)
