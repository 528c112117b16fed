"""A part of the service, the views: the panel, autocomplete, board images, company summaries,
log, score, "my games".

Owns: what anyone may look at and the pictures the outbox attaches, over the desk
(bot/service/core.py: finding and loading games), the pictures' people and themes
(bot/service/pictures.py) and the turn clock's deadlines (bot/service/timekeeping.py)."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from bot.rules.catalogue import CATALOGUE
from bot.rules.content import company_name
from bot.rules.events import Event
from bot.rules.wording import OTHER_ROW
from bot.service.catchup import SINCE_YOUR_TURN
from bot.service.core import Desk, state_from_json
from bot.service.errors import GameUnreadable, NotAPlayer, ServiceError
from bot.service.faults import DATABASE_DOWN, refuse_store_faults
from bot.service.final import result_events
from bot.service.images import Board, Legend, Preview, ScoreSheet, board_views, view_titles
from bot.service.loading import Loaded, load
from bot.service.messages import draft_lines
from bot.service.pictures import Pictures
from bot.service.records import DecisionRecord
from bot.service.text import company_text
from bot.service.timekeeping import Timekeeper
from bot.service.types import (
    SCORE_SHEET,
    Actor,
    GameSummary,
    Image,
    ImageRequest,
    Line,
    PanelView,
    ScoreRow,
    ScoreView,
    render_lines,
)
from bot.store import ACTIVE, TURN_PING, FinishedGame
from renderer.score_sheet import categories, vp_breakdown

#: The alt text of the legend picture.
SYMBOLS_ALT = (
    "The legend of the pictures: what every symbol, colour and short form on the map, the "
    "shared boards, the company boards and the scoreboard means."
)

log = logging.getLogger(__name__)


@refuse_store_faults
class GameViews:
    """What anyone may look at, and the images the outbox attaches."""

    def __init__(self, desk: Desk, pictures: Pictures, timekeeper: Timekeeper) -> None:
        """Views of the games at `desk`, drawn with `pictures`' people, themes and alt texts
        and `timekeeper`'s deadlines."""
        self.desk = desk
        self.store = desk.store
        self.clock = desk.clock
        self.config = desk.config
        self.renderer_pool = desk.renderer_pool
        self.catchup = desk.catchup
        self.pictures = pictures
        self.timekeeper = timekeeper
        #: Autocomplete's answers, by (game, version, user).
        self._complete: OrderedDict[tuple[int, int, int], list[tuple[str, str]]] = OrderedDict()

    async def panel(
        self, actor: Actor, *, expected_game: int | None = None, opening: bool = False
    ) -> PanelView:
        """The actor's current decision (their turn in progress included); a panel
        ``opening`` on a decision not begun yet says what changed since their last turn."""
        loaded = await self.desk.playing(actor, expected_game)
        self.desk.company(loaded, actor)
        panel = self.desk.panel(loaded, actor.user_id)
        return await self.catchup.opening(loaded, panel) if opening else panel

    async def decision_unseen(self, actor: Actor, game_id: int, version: int) -> None:
        """The reply that showed the actor their next decision (at `version`) did not reach
        them: they are pinged for it now, as at the end of quiet hours, if they still have
        it to make."""
        loaded = await self.desk.load(await self.store.get_game(game_id))
        if loaded.version != version or actor.user_id not in self.desk.waiting_users(loaded):
            return  # answered since, or the game moved on: that commit pinged whoever
        await self.store.set_reminder(game_id, actor.user_id, self.clock(), kind=TURN_PING)

    async def since_picture(self, actor: Actor, panel: PanelView) -> Image:
        """The map of an opening panel's game as committed, in the actor's theme, ringing
        the spaces changed since their last turn (`PanelView.since_changed`)."""
        loaded = await self.desk.playing(actor, panel.game_id)
        assert loaded.committed is not None
        return await self._picture(
            loaded,
            loaded.commit_version,
            loaded.committed,
            "map",
            None,
            changed=panel.since_changed,
            since=SINCE_YOUR_TURN,
            theme=await self.pictures.user_theme(actor.user_id, loaded),
        )

    async def autocomplete(self, actor: Actor, typed: str) -> list[tuple[str, str]]:
        """Up to 25 (label, notation) pairs of the actor's options matching `typed`."""
        meta = await self.store.active_game(actor.channel_id)
        if meta is None:
            return []
        key = (meta.id, meta.version, actor.user_id)
        choices = self._complete.get(key)
        if choices is None:
            try:
                loaded = await self.desk.load(meta)
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

    async def board_image(self, *args: Any, **kwargs: Any) -> bytes:
        """A PNG of the last committed state of the channel's game (`board_picture`'s
        arguments; the picture without its alt text)."""
        return (await self.board_picture(*args, **kwargs)).data

    async def board_picture(
        self,
        channel_or_game_id: int,
        view: str = "map",
        company: str | None = None,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
        viewer: int | None = None,
    ) -> Image:
        """The last committed state of the channel's game (or the game with that id) as a
        picture with its alt text; drawn in the ``viewer``'s theme when only they see it,
        else in the game's."""
        loaded = await self.desk.target(channel_or_game_id, by_game_id, guild_id)
        assert loaded.committed is not None
        theme = await self.pictures.user_theme(viewer, loaded) if viewer is not None else None
        positions = self.renderer_pool.positions
        game_id, version = loaded.meta.id, loaded.commit_version
        positions.asked(game_id, version, view, company)
        # The position's one picture: its announcement's, rings and all, where known.
        rings = positions.rings(game_id, version)
        return await self._picture(
            loaded, version, loaded.committed, view, company, changed=rings, theme=theme
        )

    async def _picture(
        self,
        loaded: Loaded,
        version: int,
        state: Any,
        view: str,
        company: str | None,
        *,
        last: Sequence[Line] = (),
        changed: Sequence[str] = (),
        since: str = "",
        theme: str | None = None,
    ) -> Image:
        """One view of a committed state in ``theme`` (default: the game's), with its alt
        text (``changed``: the spaces ringed, changed by the last turn or ``since``...)."""
        game_id = loaded.meta.id
        theme = theme or self.pictures.game_theme(loaded)
        name = f"barrage-{loaded.meta.number or game_id}-{version}-{view}.png"
        if view == SCORE_SHEET:
            data, alt = await self._score_sheet(game_id, version, theme)
            return Image(name, data, alt)
        company = self._check_view(state, view, company)
        players = await self.pictures.players(loaded, state)
        shown = tuple(changed) if view in ("map", "full") else ()
        due = await self._picture_deadlines(loaded, version)
        key = _board_key(game_id, version, view, company, players, shown, due)
        if since and shown:
            key = (*key, since)
        # The committed states handed here are never changed again: no copy for the worker.
        board = Board(state, players, shown, since if shown else "", due)
        data = await self.renderer_pool.render(key, board, view, company, theme)
        what = self._what(loaded, state, view, company)
        alt = await self.pictures.alt(
            loaded,
            state,
            what,
            players,
            last=last,
            changed=shown,
            since=since if shown else "",
            deadlines=due,
        )
        return Image(name, data, alt)

    async def _picture_deadlines(self, loaded: Loaded, version: int) -> tuple[tuple[str, int], ...]:
        """The deadlines a picture of ``version`` shows: the clock's, of the position now
        (none for an older one, whose deadlines have passed or moved)."""
        if loaded.game is None or version != loaded.commit_version:
            return ()
        return await self.timekeeper.deadlines(loaded)

    @staticmethod
    def _what(loaded: Loaded, state: Any, view: str, company: str | None) -> str:
        """What a picture shows, for its alt text: 'Game 3, the map'."""
        from bot.rules.content import company_name

        if view == "company":
            shown = company or state.current or next(iter(state.companies), None)
            title = f"{company_name(shown)}'s company board" if shown else "a company board"
        else:
            title = view_titles(state.options).get(view, view)
        return f"Barrage game {loaded.meta.number or loaded.meta.id}, {title}"

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
        return (await self.preview_picture(actor, view, company, expected_game=expected_game)).data

    async def preview_picture(
        self,
        actor: Actor,
        view: str = "map",
        company: str | None = None,
        *,
        expected_game: int | None = None,
    ) -> Image:
        """The actor's turn in progress as a picture for them alone, with its alt text, in
        their own theme (`preview_image`)."""
        loaded = await self.desk.playing(actor, expected_game)
        mine = loaded.company_of_user(actor.user_id)
        if mine is None:
            raise NotAPlayer("You are not playing in this game, so there is nothing to preview.")
        in_progress = bool(loaded.tail) and all(r.player == mine for r in loaded.tail)
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
        players = await self.pictures.players(loaded, state)
        theme = await self.pictures.user_theme(actor.user_id, loaded)
        key = (loaded.meta.id, loaded.version, view, company, "preview", players)
        # A copy: the loaded game goes on changing with the next answer while this renders.
        data = await self.renderer_pool.render(
            key, Preview(state.clone(), players), view, company, theme
        )
        what = "Preview of your turn in progress, only you see it: " + self._what(
            loaded, state, view, company
        )
        alt = await self.pictures.alt(loaded, state, what, players)
        return Image(f"preview-{view}.png", data, alt)

    async def symbols_image(self, expansions: tuple[str, ...] | None = None) -> bytes:
        """A PNG of the legend: what every symbol and short form of the pictures means (with
        every expansion's by default)."""
        return (await self.symbols_picture(expansions)).data

    async def symbols_picture(
        self, expansions: tuple[str, ...] | None = None, user_id: int | None = None
    ) -> Image:
        """The legend as a picture with its alt text (in the user's theme)."""
        names = tuple(CATALOGUE.expansions) if expansions is None else expansions
        theme = await self.pictures.user_theme(user_id)
        data = await self.renderer_pool.render(
            ("symbols", names), Legend(names), "symbols", None, theme
        )
        return Image("symbols.png", data, SYMBOLS_ALT)

    async def board_views(
        self, channel_or_game_id: int, *, by_game_id: bool = False, guild_id: int | None = None
    ) -> tuple[str, ...]:
        """The board views of the channel's game (or the game with that id)."""
        loaded = await self.desk.target(channel_or_game_id, by_game_id, guild_id)
        assert loaded.committed is not None
        return board_views(loaded.committed.options)

    async def _score_sheet(
        self, game_id: int, version: int, theme: str | None = None
    ) -> tuple[bytes, str]:
        """The score sheet of a game's committed state at `version` (its final one), and its
        alt text."""
        kept = await self.desk.kept_result(game_id, version)
        if kept is not None:
            return await self._archived_sheet(kept, theme)
        loaded = await self.desk.load(await self.store.get_game(game_id))
        if loaded.committed is None or loaded.commit_version != version:
            raise ServiceError(f"Game {game_id} has no committed state at version {version}.")
        history = await self.desk.history_of(loaded)
        players = await self.pictures.players(loaded, loaded.committed)
        sheet = ScoreSheet(loaded.committed, history.vp_events, players)
        data = await self.renderer_pool.render(
            (game_id, version, SCORE_SHEET, None, players),
            sheet,
            SCORE_SHEET,
            None,
            theme or self.pictures.game_theme(loaded),
        )
        what = f"Barrage game {loaded.meta.number or game_id}, the final score sheet"
        return data, await self.pictures.alt(loaded, loaded.committed, what, players)

    async def render_request(self, request: ImageRequest) -> bytes:
        """Render an image request of a committed version (for the OutboxSender)."""
        return (await self.request_picture(request)).data

    async def request_picture(self, request: ImageRequest, last: Sequence[Line] = ()) -> Image:
        """An image request of a committed version as a picture with its alt text (for the
        OutboxSender; ``last``: what the turn did, in the alt text)."""
        # Who sits where and the game's theme: the game as loaded, never healed or
        # otherwise changed on the sender's behalf (`_load` would commit a stalled step).
        loaded = self.desk.cache.get(request.game_id) or await load(
            self.store, await self.store.get_game(request.game_id)
        )
        if request.view == SCORE_SHEET:
            return await self._picture(loaded, request.version, None, SCORE_SHEET, None)
        cached = self.desk.cache.get(request.game_id)
        if cached is not None and cached.commit_version == request.version and cached.committed:
            state = cached.committed
        else:
            snap = await self.store.latest_snapshot(request.game_id, at_or_before=request.version)
            if snap is None:
                raise ServiceError(f"No saved state of game {request.game_id}")
            state = state_from_json(snap.state)
        positions = self.renderer_pool.positions
        if request.view == "map":
            positions.ring(request.game_id, request.version, request.changed)
        png = await self._picture(
            loaded,
            request.version,
            state,
            request.view,
            request.company,
            last=last,
            changed=request.changed,
        )
        if self.pictures.game_theme(loaded) == self.renderer_pool.theme:
            try:
                await self._warm_wanted(loaded, request, state)
            except DATABASE_DOWN:
                raise
            except Exception:  # rendering ahead is best effort: the picture is drawn
                log.exception("could not render ahead the views of game %d", request.game_id)
        return png

    async def _warm_wanted(self, loaded: Loaded, request: ImageRequest, state: Any) -> None:
        """Render in the background, after the announced picture, the views of this game that
        people asked for lately (`Positions.wanted`): they are usually cached by the time
        they are asked for again, and views nobody looks at are not drawn."""
        players = await self.pictures.players(loaded, state)
        known = board_views(state.options)
        rings = self.renderer_pool.positions.rings(request.game_id, request.version)
        due = await self._picture_deadlines(loaded, request.version)
        for view, asked in self.renderer_pool.positions.wanted(request.game_id, request.version):
            if view not in known:
                continue
            try:
                company = self._check_view(state, view, asked)
            except ServiceError:
                continue  # a company board this state has not (yet): drawn when asked for
            shown = rings if view in ("map", "full") else ()
            # Keyed as `_picture` keys them.
            key = _board_key(request.game_id, request.version, view, company, players, shown, due)
            self.renderer_pool.warm(key, Board(state, players, shown, "", due), view, company)

    async def company_summary(
        self,
        channel_or_game_id: int,
        company: str | None = None,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> str:
        """A text summary of one company (default: all companies) at the committed state."""
        loaded = await self.desk.target(channel_or_game_id, by_game_id, guild_id)
        state = loaded.committed
        assert state is not None
        company = company_in(state, company)
        if not state.companies:
            # A text without people's names: each seat as its number (a computer's marked).
            return render_lines(draft_lines(state, loaded.user_at_seat, named=False))
        ids = [company] if company else list(state.companies)
        return "\n".join(company_text(state, c) for c in ids)

    async def archived_score_sheet(self, game: FinishedGame) -> bytes:
        """The final score sheet of an archived game, from its results and final snapshot."""
        return (await self._archived_sheet(game))[0]

    async def archived_score_picture(self, game: FinishedGame) -> Image:
        """An archived game's final score sheet with its alt text."""
        data, alt = await self._archived_sheet(game)
        return Image(f"game-{game.number}-score.png", data, alt)

    async def _archived_sheet(
        self, game: FinishedGame, theme: str | None = None
    ) -> tuple[bytes, str]:
        snap = await self.store.latest_snapshot(game.game_id, at_or_before=game.version)
        if snap is None or snap.version != game.version:
            raise ServiceError(f"Game #{game.number} has no saved final state to draw.")
        from bot.rules import load_state
        from renderer.describe import alt_text
        from renderer.people import Player

        state = load_state(snap.state)
        seats = {s.company: s for s in game.result.seats}
        known = await self.pictures.names(
            game.guild_id, [s.user_id for s in seats.values() if s.user_id]
        )
        players = tuple(
            Player(cid, *_names_of(known.get(s.user_id or 0), s.seat)) for cid, s in seats.items()
        )
        sheet = ScoreSheet(state, result_events(game), players)
        key = (game.game_id, game.version, SCORE_SHEET, None, players)
        data = await self.renderer_pool.render(key, sheet, SCORE_SHEET, None, theme)
        what = f"Barrage game {game.number}, the final score sheet"
        return data, alt_text(state, what, players=players)

    async def log_lines(
        self,
        channel_or_game_id: int,
        n: int = 20,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> list[str]:
        """The last `n` lines of the game's log as text (committed turns only)."""
        loaded = await self.desk.target(channel_or_game_id, by_game_id, guild_id)
        lines = (await self.desk.history_of(loaded)).lines
        return lines[-n:] if n > 0 else []

    async def game_and_round(
        self, channel_or_game_id: int, *, by_game_id: bool = False, guild_id: int | None = None
    ) -> tuple[int, int]:
        """The id of the channel's game (or the game with that id) and the round of its
        committed state, as a board view needs them: without replaying the game's log."""
        loaded = await self.desk.target(channel_or_game_id, by_game_id, guild_id)
        assert loaded.committed is not None
        return loaded.meta.id, int(loaded.committed.round)

    async def score(
        self, channel_or_game_id: int, *, by_game_id: bool = False, guild_id: int | None = None
    ) -> ScoreView:
        """VP now, by source, and the final ranking once the game is over."""
        loaded = await self.desk.target(channel_or_game_id, by_game_id, guild_id)
        state = loaded.committed
        assert state is not None
        kept = await self.desk.kept_result(loaded.meta.id, loaded.commit_version)
        if kept is not None:
            events: tuple[Event, ...] = tuple(
                Event("vp", seat.company, vp, key)
                for seat in kept.result.seats
                for key, vp in seat.vp_by_source.items()
                if key != "start"
            )
        else:
            events = (await self.desk.history_of(loaded)).vp_events
        # The score sheet's rows and numbers: Start, each category, Other for the rest.
        sheet = vp_breakdown(state, events) if state.companies else {}
        rows_of, prefixes = categories(state.options.expansions)
        order = ["Start", *dict.fromkeys([*rows_of.values(), *prefixes.values()]), OTHER_ROW]
        ranks = {e["company"]: e["place"] for e in state.result.get("ranking", [])}
        hints: dict[int | None, int] = {}  # by seat (the draft names seats, not companies)
        for _, record in loaded.chain:
            if isinstance(record, DecisionRecord) and record.hint:
                seat = loaded.seat_of_player(record.player)
                hints[seat] = hints.get(seat, 0) + 1
        rows = []
        for cid, company in state.companies.items():
            found = sheet.get(cid, {})
            breakdown = tuple(
                (row, found[row]) for row in order if found.get(row) or row == "Start"
            )
            rows.append(
                ScoreRow(
                    cid,
                    loaded.user_of_player(cid),
                    company.vp,
                    breakdown,
                    ranks.get(cid),
                    kind=loaded.label_of(cid),
                    hints=hints.get(company.seat, 0),
                )
            )
        rows.sort(key=lambda r: (r.rank or 99, -r.vp))
        draft = () if state.companies else tuple(draft_lines(state, loaded.user_at_seat))
        return ScoreView(
            loaded.meta.id, loaded.commit_version, state.finished, state.round, tuple(rows), draft
        )

    async def my_games(self, guild_id: int, user_id: int) -> list[GameSummary]:
        """The user's active games in this server, whose turn it is in each and when its time
        runs out (soonest first)."""
        out = []
        for meta in await self.store.list_games(guild_id=guild_id, user_id=user_id, status=ACTIVE):
            try:
                loaded = await self.desk.load(meta)
            except GameUnreadable as exc:
                players = meta.player_ids
                out.append(
                    GameSummary(
                        meta.id, meta.guild_id, meta.channel_id, meta.status, "broken",
                        players, (), False, None, meta.number, str(exc),
                    )
                )  # fmt: skip
                continue
            waiting = self.desk.waiting_users(loaded) if loaded.started else ()
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
                    deadline=await self.timekeeper.soonest_deadline(loaded),
                )
            )
        # The soonest deadline first; games without a clock after them, as they came.
        return sorted(out, key=lambda g: (g.deadline is None, g.deadline or 0))


def _names_of(known: tuple[str, str] | None, seat: int) -> tuple[str, str]:
    """(display name, fallback) of a seat's player from what the adapter knows."""
    from bot.service.pictures import seat_fallback

    display, username = known or ("", "")
    return display, username or seat_fallback(seat)


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


def _board_key(
    game_id: int,
    version: int,
    view: str,
    company: str | None,
    players: tuple[Any, ...],
    shown: tuple[str, ...],
    due: tuple[tuple[str, int], ...],
) -> tuple[Any, ...]:
    """A board picture's cache key: one picture per position, its rings and, in a clocked
    game, its deadlines (a view of the same position with another deadline is another
    picture; a game without a clock keys as before)."""
    key: tuple[Any, ...] = (game_id, version, view, company, players, shown)
    return (*key, ("by", due)) if due else key
