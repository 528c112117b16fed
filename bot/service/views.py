"""Views: the panel, autocomplete, board images, company summaries, log, score, "my games"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.catalogue import CATALOGUE
from bot.rules.content import company_name
from bot.rules.events import Event
from bot.rules.wording import OTHER_ROW
from bot.service.core import ServiceCore, state_from_json
from bot.service.errors import GameUnreadable, NotAPlayer, ServiceError
from bot.service.final import result_events
from bot.service.images import Legend, Preview, ScoreSheet, board_views
from bot.service.loading import Loaded
from bot.service.messages import draft_lines
from bot.service.text import company_text
from bot.service.types import (
    SCORE_SHEET,
    Actor,
    GameSummary,
    ImageRequest,
    PanelView,
    ScoreRow,
    ScoreView,
    render_lines,
)
from bot.store import ACTIVE, FinishedGame
from renderer.score_sheet import categories, vp_breakdown

#: The board views rendered ahead after an announcement (`render_request`).
WARM_VIEWS = ("map", "shared", "full")


class GameViews(ServiceCore):
    """What anyone may look at, and the images the outbox attaches."""

    async def panel(self, actor: Actor, *, expected_game: int | None = None) -> PanelView:
        """The actor's current decision (their turn in progress included)."""
        loaded = await self._playing(actor, expected_game)
        self._company(loaded, actor)
        return self._panel(loaded, actor.user_id)

    async def autocomplete(self, actor: Actor, typed: str) -> list[tuple[str, str]]:
        """Up to 25 (label, notation) pairs of the actor's options matching `typed`."""
        meta = await self.store.active_game(actor.channel_id)
        if meta is None:
            return []
        key = (meta.id, meta.version, actor.user_id)
        choices = self._complete.get(key)
        if choices is None:
            try:
                loaded = await self._load(meta)
            except GameUnreadable:
                return []
            company = loaded.company_of_user(actor.user_id)
            decision = (
                loaded.game.decision(company)
                if loaded.game is not None and company and not loaded.game.is_over
                else None
            )
            choices = [] if decision is None else [(o.label, o.notation) for o in decision.options]
            self._complete[key] = choices
            while len(self._complete) > self.config.autocomplete_cache_size:
                self._complete.popitem(last=False)
        words = typed.casefold().split()
        hits = [
            c for c in choices if all(w in c[0].casefold() or w in c[1].casefold() for w in words)
        ]
        return hits[:25]

    async def board_image(
        self,
        channel_or_game_id: int,
        view: str = "map",
        company: str | None = None,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> bytes:
        """A PNG of the last committed state of the channel's game (or the game with that id)."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        assert loaded.committed is not None
        return await self._render(
            loaded.meta.id, loaded.commit_version, loaded.committed, view, company
        )

    async def _render(
        self, game_id: int, version: int, state: Any, view: str, company: str | None
    ) -> bytes:
        if view == SCORE_SHEET:
            return await self._score_sheet(game_id, version)
        company = self._check_view(state, view, company)
        key = (game_id, version, view, company)
        # The committed states handed here are never changed again: no copy for the worker.
        return await self.renderer_pool.render(key, state, view, company)

    @staticmethod
    def _check_view(state: Any, view: str, company: str | None) -> str | None:
        """Refuse a view this game has not, or a company it has not, saying which there are;
        the company's id (named in any case, by id or name)."""
        known = board_views(state.options)
        if view not in known:
            choices = ", ".join((*known, SCORE_SHEET))
            raise ServiceError(f"This game has no view '{view}'; choose one of {choices}.")
        return company_in(state, company)

    async def preview_image(
        self,
        actor: Actor,
        view: str = "map",
        company: str | None = None,
        *,
        expected_game: int | None = None,
    ) -> bytes:
        """A PNG of the actor's turn in progress, for them alone, marked as a preview.

        It shows what the turn has done so far and nothing only Confirm reveals (the refilled
        contract offer); it is cached apart from the committed views.
        """
        loaded = await self._playing(actor, expected_game)
        mine = loaded.company_of_user(actor.user_id)
        if mine is None:
            raise NotAPlayer("You are not playing in this game, so there is nothing to preview.")
        in_progress = bool(loaded.tail) and all(r.get("player") == mine for r in loaded.tail)
        if not in_progress or loaded.game is None:
            raise ServiceError(
                "You have no turn in progress to preview: the board already shows everything "
                "(`/barrage board`)."
            )
        if view == SCORE_SHEET:
            raise ServiceError(
                "A preview shows a board view (map, shared, company...), not the score."
            )
        state = loaded.game.state
        company = self._check_view(state, view, company)
        key = (loaded.meta.id, loaded.version, view, company, "preview")
        # A copy: the loaded game goes on changing with the next answer while this renders.
        return await self.renderer_pool.render(key, Preview(state.clone()), view, company)

    async def symbols_image(self, expansions: tuple[str, ...] | None = None) -> bytes:
        """A PNG of the legend: what every symbol and short form of the pictures means (with
        every expansion's by default)."""
        names = tuple(CATALOGUE.expansions) if expansions is None else expansions
        return await self.renderer_pool.render(("symbols", names), Legend(names), "symbols", None)

    async def board_views(
        self, channel_or_game_id: int, *, by_game_id: bool = False, guild_id: int | None = None
    ) -> tuple[str, ...]:
        """The board views of the channel's game (or the game with that id)."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        assert loaded.committed is not None
        return board_views(loaded.committed.options)

    async def _score_sheet(self, game_id: int, version: int) -> bytes:
        """The score sheet of a game's committed state at `version` (its final one)."""
        kept = await self._kept_result(game_id, version)
        if kept is not None:
            return await self.archived_score_sheet(kept)
        loaded = await self._load(await self.store.get_game(game_id))
        if loaded.committed is None or loaded.commit_version != version:
            raise ServiceError(f"Game {game_id} has no committed state at version {version}.")
        history = await self._history_of(loaded)
        sheet = ScoreSheet(loaded.committed, history.vp_events)
        return await self.renderer_pool.render(
            (game_id, version, SCORE_SHEET, None), sheet, SCORE_SHEET, None
        )

    async def render_request(self, request: ImageRequest) -> bytes:
        """Render an image request of a committed version (for the OutboxSender)."""
        if request.view == SCORE_SHEET:
            return await self._score_sheet(request.game_id, request.version)
        cached = self._cache.get(request.game_id)
        if cached is not None and cached.commit_version == request.version and cached.committed:
            state = cached.committed
        else:
            snap = await self.store.latest_snapshot(request.game_id, at_or_before=request.version)
            if snap is None:
                raise ServiceError(f"No saved state of game {request.game_id}")
            state = state_from_json(snap.state)
        png = await self._render(
            request.game_id, request.version, state, request.view, request.company
        )
        if request.view == SCORE_SHEET:
            return png
        # Players and spectators look at the board after an announcement: its other views
        # are rendered in the background, after this one, so they are usually cached by then.
        for view in WARM_VIEWS:
            if view != request.view and view in board_views(state.options):
                self.renderer_pool.warm((request.game_id, request.version, view, None), state, view)
        return png

    async def company_summary(
        self,
        channel_or_game_id: int,
        company: str | None = None,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> str:
        """A text summary of one company (default: all companies) at the committed state."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        state = loaded.committed
        assert state is not None
        company = company_in(state, company)
        if not state.companies:
            # A text without people's names: each seat as its number (a computer's marked).
            return render_lines(draft_lines(state, _user_of_seat(loaded), named=False))
        ids = [company] if company else list(state.companies)
        return "\n".join(company_text(state, c) for c in ids)

    async def archived_score_sheet(self, game: FinishedGame) -> bytes:
        """The final score sheet of an archived game, from its results and final snapshot."""
        snap = await self.store.latest_snapshot(game.game_id, at_or_before=game.version)
        if snap is None or snap.version != game.version:
            raise ServiceError(f"Game #{game.number} has no saved final state to draw.")
        from bot.rules import load_state

        sheet = ScoreSheet(load_state(snap.state), result_events(game))
        key = (game.game_id, game.version, SCORE_SHEET, None)
        return await self.renderer_pool.render(key, sheet, SCORE_SHEET, None)

    async def log_lines(
        self,
        channel_or_game_id: int,
        n: int = 20,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> list[str]:
        """The last `n` lines of the game's log as text (committed turns only)."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        lines = (await self._history_of(loaded)).lines
        return lines[-n:] if n > 0 else []

    async def score(
        self, channel_or_game_id: int, *, by_game_id: bool = False, guild_id: int | None = None
    ) -> ScoreView:
        """VP now, by source, and the final ranking once the game is over."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        state = loaded.committed
        assert state is not None
        kept = await self._kept_result(loaded.meta.id, loaded.commit_version)
        if kept is not None:
            events: tuple[Event, ...] = tuple(
                Event("vp", seat.company, vp, key)
                for seat in kept.result.seats
                for key, vp in seat.vp_by_source.items()
                if key != "start"
            )
        else:
            events = (await self._history_of(loaded)).vp_events
        # The score sheet's rows and numbers: Start, each category, Other for the rest.
        sheet = vp_breakdown(state, events) if state.companies else {}
        rows_of, prefixes = categories(state.options.expansions)
        order = ["Start", *dict.fromkeys([*rows_of.values(), *prefixes.values()]), OTHER_ROW]
        ranks = {e["company"]: e["place"] for e in state.result.get("ranking", [])}
        rows = []
        for cid, company in state.companies.items():
            found = sheet.get(cid, {})
            breakdown = tuple(
                (row, found[row]) for row in order if found.get(row) or row == "Start"
            )
            rows.append(
                ScoreRow(cid, loaded.user_of_player(cid), company.vp, breakdown, ranks.get(cid))
            )
        rows.sort(key=lambda r: (r.rank or 99, -r.vp))
        draft = () if state.companies else tuple(draft_lines(state, _user_of_seat(loaded)))
        return ScoreView(
            loaded.meta.id, loaded.commit_version, state.finished, state.round, tuple(rows), draft
        )

    async def my_games(self, guild_id: int, user_id: int) -> list[GameSummary]:
        """The user's active games in this server and whose turn it is in each."""
        out = []
        for meta in await self.store.list_games(guild_id=guild_id, user_id=user_id, status=ACTIVE):
            try:
                loaded = await self._load(meta)
            except GameUnreadable as exc:
                players = meta.player_ids
                out.append(
                    GameSummary(
                        meta.id, meta.guild_id, meta.channel_id, meta.status, "broken",
                        players, (), False, None, meta.number, str(exc),
                    )
                )  # fmt: skip
                continue
            waiting = self._waiting_users(loaded) if loaded.started else ()
            stage = "playing" if loaded.started else "lobby"
            players = tuple(loaded.seats) if loaded.started else tuple(loaded.lobby)
            out.append(
                GameSummary(
                    meta.id,
                    meta.guild_id,
                    meta.channel_id,
                    meta.status,
                    stage,
                    players,
                    waiting,
                    user_id in waiting,
                    loaded.committed.round if loaded.committed is not None else None,
                    meta.number,
                )
            )
        return out


def company_in(state: Any, company: str | None) -> str | None:
    """The id of the game's company named `company` (its id or its name, in any case: "italy",
    "Italy", "USA"), None for None; ServiceError naming the game's companies otherwise."""
    if company is None:
        return None
    wanted = company.strip().casefold()
    for cid in state.companies:
        if wanted in (cid.casefold(), company_name(cid).casefold()):
            return str(cid)
    names = ", ".join(company_name(c) for c in state.companies)
    raise ServiceError(f"There is no company '{company}' in this game ({names}).")


def _user_of_seat(loaded: Loaded) -> Callable[[int], int | None]:
    """The user at a seat, None for a computer's seat (after the people's)."""
    return lambda seat: loaded.seats[seat] if seat < len(loaded.seats) else None
