"""GameService: the application layer — lobby, seats, turns, views, export and import."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.service.types import (
    Actor,
    GameSummary,
    Outcome,
    PanelView,
    ScoreView,
    ServiceConfig,
)
from bot.store import Clock, Store, UserSettings

log = logging.getLogger(__name__)

#: "Leave this setting unchanged" in update_settings.
UNCHANGED: Any = object()


class GameService:
    """One channel's game from creation to final score; plain ids in, plain data out."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        renderer_pool: Any = None,
        config: ServiceConfig | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.config = config or ServiceConfig()
        self.renderer_pool = renderer_pool

    # -- lifecycle ---------------------------------------------------------------------

    async def create_game(
        self,
        actor: Actor,
        *,
        players: int,
        setup: str = "intro",
        expansions: Sequence[str] = (),
        seed: int | None = None,
        map: str = "base",
        reminder_hours: int | None = None,
    ) -> Outcome:
        """Open a lobby in the actor's channel for up to `players`; the creator joins."""
        raise NotImplementedError

    async def join(self, actor: Actor) -> Outcome:
        """Join the lobby in the actor's channel."""
        raise NotImplementedError

    async def leave(self, actor: Actor) -> Outcome:
        """Leave the lobby (the creator leaving with nobody else closes it)."""
        raise NotImplementedError

    async def start(self, actor: Actor) -> Outcome:
        """Start the lobby's game (creator or manager): seats in join order, then setup."""
        raise NotImplementedError

    async def abandon(self, actor: Actor) -> Outcome:
        """Abandon the channel's game (creator or manager); it keeps its log."""
        raise NotImplementedError

    async def replace_seat(self, actor: Actor, seat_or_user: int, new_user_id: int) -> Outcome:
        """Give a seat (seat index 0..3, or the user id sitting there) to another user."""
        raise NotImplementedError

    async def skip_seat(self, actor: Actor, seat_or_user: int) -> Outcome:
        """Mark a vanished seat as skipped: from now on it passes every turn automatically."""
        raise NotImplementedError

    async def rewind(self, actor: Actor, to_version: int) -> Outcome:
        """Rewind to the start of an earlier committed turn (manager only; announced)."""
        raise NotImplementedError

    # -- play --------------------------------------------------------------------------

    async def play(
        self,
        actor: Actor,
        notations: Sequence[str],
        *,
        expected_version: int | None = None,
    ) -> Outcome:
        """Answer the actor's decision with one or more notations, all or nothing."""
        raise NotImplementedError

    async def confirm(self, actor: Actor, *, expected_version: int | None = None) -> Outcome:
        """Confirm the actor's turn (the same as playing "confirm")."""
        raise NotImplementedError

    async def restart_turn(self, actor: Actor, *, expected_version: int | None = None) -> Outcome:
        """Throw away the actor's turn in progress: back to where it began."""
        raise NotImplementedError

    async def undo(self, actor: Actor) -> Outcome:
        """Undo the actor's last committed turn, if nobody acted since and nothing was revealed."""
        raise NotImplementedError

    # -- views -------------------------------------------------------------------------

    async def panel(self, actor: Actor) -> PanelView:
        """The actor's current decision (their turn in progress included)."""
        raise NotImplementedError

    async def autocomplete(self, actor: Actor, typed: str) -> list[tuple[str, str]]:
        """Up to 25 (label, notation) pairs of the actor's options matching `typed`."""
        raise NotImplementedError

    async def board_image(
        self,
        channel_or_game_id: int,
        view: str = "map",
        company: str | None = None,
        *,
        by_game_id: bool = False,
    ) -> bytes:
        """A PNG of the last committed state of the channel's game (or the game with that id)."""
        raise NotImplementedError

    async def company_summary(
        self, channel_or_game_id: int, company: str | None = None, *, by_game_id: bool = False
    ) -> str:
        """A text summary of one company (default: all companies) at the committed state."""
        raise NotImplementedError

    async def log_lines(
        self, channel_or_game_id: int, n: int = 20, *, by_game_id: bool = False
    ) -> list[str]:
        """The last `n` lines of the game's log as text (committed turns only)."""
        raise NotImplementedError

    async def score(self, channel_or_game_id: int, *, by_game_id: bool = False) -> ScoreView:
        """VP now, by source, and the final ranking once the game is over."""
        raise NotImplementedError

    async def my_games(self, guild_id: int, user_id: int) -> list[GameSummary]:
        """The user's active games in this server and whose turn it is in each."""
        raise NotImplementedError

    # -- settings ----------------------------------------------------------------------

    async def settings(self, user_id: int) -> UserSettings:
        """A user's settings."""
        raise NotImplementedError

    async def update_settings(
        self,
        user_id: int,
        *,
        time_zone: str | None = UNCHANGED,
        quiet_hours: tuple[int, int] | None = UNCHANGED,
        dm_opt_in: bool = UNCHANGED,
        skip_confirm: bool = UNCHANGED,
        reminder_hours: int | None = UNCHANGED,
    ) -> UserSettings:
        """Change some settings; quiet hours are (start, end) minutes after local midnight."""
        raise NotImplementedError

    # -- moving games ------------------------------------------------------------------

    async def export_game(self, actor: Actor, game_id: int | None = None) -> dict[str, Any]:
        """The channel's game (or the game with this id) as a JSON-able document."""
        raise NotImplementedError

    async def import_game(self, actor: Actor, doc: Mapping[str, Any]) -> Outcome:
        """Import an exported game into the actor's channel (manager), after replaying it."""
        raise NotImplementedError
