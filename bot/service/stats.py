"""A part of the service, the records: the results of finished games, statistics, history,
pictures, replays.

Owns: reading the results table and the stored snapshots of finished games, the records'
pictures, and the start-up backfill of results. It sees the store, the ratings keeper, the
renderer pool, the config and the games' loader (`GameLoader`: a finished game's commits);
the facade (bot/service/service.py) holds it as `GameService.records`.

A game's results are written in the transaction of its final commit (`final_result` in
bot/service/final.py, and the commit in the service's core); games that finished earlier get
theirs once, at start-up, from their logs (`Records.backfill_results`: each log
replayed once, one that no longer replays skipped and counted). Everything else here reads the results table and the stored
snapshots only: no request replays a log.

Decisions where the issue and the rules are silent:
- the player credited with a seat is whoever sat there when the game ended (a replaced
  player's games are their replacement's);
- companies tied for first place both win (the rules' shared victory);
- the leaderboard ranks players with at least `min_games` finished games by rating (their
  server-wide rating, bot/service/ratings.py, whatever the filter; the unrated last), then
  win rate, wins and mean VP; players with equal figures share a place;
- an automa seat is kept in its game's results, marked as such, and counts in no table;
- the expansions filter matches a game's exact set of expansions (as `/barrage new` offers).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.rules import GameState
from bot.rules.catalogue import CATALOGUE
from bot.rules.content import company_name, load_content
from bot.service.errors import NoGameHere, ServiceError
from bot.service.expansions import SETUP_WORDS, names_text
from bot.service.faults import refuse_store_faults
from bot.service.final import keep_result_from_log, source_groups
from bot.service.images import GameCharts, Leaderboard, RendererPool
from bot.service.loading import Loaded
from bot.service.ratings import NEWCOMER, Rating, RatingsKeeper, rank_key
from bot.service.records import INT64_MAX, MAX_PLAYERS, BrokenLog, Cause, CommitRecord
from bot.service.types import (
    BackfillReport,
    HistoryPage,
    PlayerStatsView,
    ServiceConfig,
    Standing,
    StatsView,
    percent,
    plural,
)
from bot.store import (
    ANY_GAME,
    FINISHED,
    FinishedGame,
    GameNotFoundError,
    SeatResult,
    StatsFilter,
    Store,
    Tally,
)
from bot.store import Game as StoredGame

log = logging.getLogger(__name__)

#: Games a player needs on the leaderboard unless the command says otherwise.
MIN_GAMES = 3
#: Finished games per page of the history.
HISTORY_PAGE = 5
#: The last history page one may ask for (the command's limit; a page button names no more).
MAX_HISTORY_PAGE = 100_000
#: The most frames a replay has, and its largest file (Discord's limit is higher: 10 MiB).
MAX_FRAMES = 150
MAX_REPLAY_BYTES = 8 * 1024 * 1024
#: A replay's frames: one per round (the default) or one per committed turn.
REPLAY_PACES = ("round", "turn")
#: Names shown for people the adapter could not name.
UNKNOWN_PLAYER = "Player"
AUTOMA = "Automa"


# -- the results of a game -------------------------------------------------------------------


# -- words -----------------------------------------------------------------------------------


def scope_text(filters: StatsFilter) -> str:
    """What a filter counts, in words: 'all finished games', '3-player games, full setup'."""
    if filters.any:
        return "all finished games"
    parts = []
    if filters.players is not None:
        parts.append(f"{filters.players}-player games")
    if filters.setup is not None:
        parts.append(SETUP_WORDS.get(filters.setup, filters.setup))
    if filters.expansions is not None:
        parts.append(names_text(filters.expansions) if filters.expansions else "no expansion")
    return ", ".join(parts)


def officer_name(officer: str) -> str:
    """What players read for an officer."""
    found = load_content().officers.get(officer)
    return found.name if found else officer


def game_title(game: FinishedGame, names: Mapping[int, str]) -> str:
    """'Game #12: Anna wins with 86 VP' (or who shared the win)."""
    winners = game.result.winners
    who = " and ".join(_player(s, names) for s in winners)
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"Game #{game.number}: {who} {verb} with {winners[0].vp} VP"


def game_subtitle(game: FinishedGame) -> str:
    """'4 players · full setup · <its expansions> · 3 May 2024'."""
    r = game.result
    day = datetime.fromtimestamp(game.ended_at / 1000, UTC).strftime("%-d %b %Y")
    parts = [f"{r.players} players", SETUP_WORDS.get(r.setup, r.setup)]
    if r.expansions:
        parts.append(names_text(r.expansions))
    return " · ".join([*parts, day])


def _player(seat: SeatResult, names: Mapping[int, str]) -> str:
    if seat.user_id is None:
        return AUTOMA
    return names.get(seat.user_id, UNKNOWN_PLAYER)


# -- standings -------------------------------------------------------------------------------


def standing(
    tally: Tally, name: str = "", place: int | None = None, rating: Rating | None = None
) -> Standing:
    """A tally as a line of a table (with a player's `rating`, told even when unrated)."""
    return Standing(
        tally.key,
        name,
        tally.games,
        tally.wins,
        tally.win_rate,
        tally.mean_vp,
        tally.best,
        place,
        dict(tally.ranks),
        rating.shown if rating is not None and rating.games else None,
        rating.games if rating is not None else None,
    )


def leaderboard(
    tallies: Sequence[Tally], min_games: int, ratings: Mapping[int, Rating] | None = None
) -> tuple[list[Standing], list[Standing]]:
    """Players with enough games, placed (by rating as shown, the unrated last; then win
    rate, wins and mean VP; equal figures share a place), and the others, most games first."""
    known = ratings or {}

    def rating(tally: Tally) -> Rating:
        return known.get(int(tally.key), NEWCOMER)

    def figures(tally: Tally) -> tuple[Any, ...]:
        return (rank_key(rating(tally)), -tally.win_rate, -tally.wins, -tally.mean_vp)

    ranked = sorted(
        (t for t in tallies if t.games >= min_games), key=lambda t: (*figures(t), t.key)
    )
    placed: list[Standing] = []
    for i, tally in enumerate(ranked):
        same = i > 0 and figures(tally) == figures(ranked[i - 1])
        place = placed[-1].place if same else i + 1
        placed.append(standing(tally, place=place, rating=rating(tally)))
    others = sorted(
        (t for t in tallies if t.games < min_games), key=lambda t: (-t.games, -t.wins, t.key)
    )
    return placed, [standing(t, rating=rating(t)) for t in others]


def _table(tallies: Sequence[Tally], name: Callable[[str], str]) -> tuple[Standing, ...]:
    """Companies or officers, best first (win rate, then mean VP, then games)."""
    ordered = sorted(tallies, key=lambda t: (-t.win_rate, -t.mean_vp, -t.games, str(t.key)))
    return tuple(standing(t, name(str(t.key))) for t in ordered)


# -- the service's commands ------------------------------------------------------------------


class GameLoader(Protocol):
    """How the records read a game's log (the service's cached loader)."""

    async def load(self, meta: StoredGame) -> Loaded:
        """The game at the store's version."""
        ...


@refuse_store_faults
class Records:
    """Statistics, history, archived games' pictures and replays, and the results backfill."""

    def __init__(
        self,
        store: Store,
        *,
        ratings: RatingsKeeper,
        renderer_pool: RendererPool,
        config: ServiceConfig,
        games: GameLoader,
    ) -> None:
        """The records of `store`'s games."""
        self.store = store
        self.ratings = ratings
        self.renderer_pool = renderer_pool
        self.config = config
        self.games = games

    async def server_stats(
        self, guild_id: int, filters: StatsFilter = ANY_GAME, *, min_games: int = MIN_GAMES
    ) -> StatsView:
        """The server's statistics over its finished games that match `filters`."""
        _check_filters(filters)
        if min_games < 1:
            raise ServiceError("The minimum number of games must be at least 1.")
        stats = await self.store.stats(guild_id, filters)
        ratings = await self.ratings.server(guild_id)
        ranked, unranked = leaderboard(stats.players, min_games, ratings.players)
        return StatsView(
            guild_id,
            filters,
            scope_text(filters),
            stats.counts,
            stats.matched,
            min_games,
            tuple(ranked),
            tuple(unranked),
            _table(stats.companies, company_name),
            _table(stats.officers, officer_name),
        )

    async def player_stats(
        self, guild_id: int, user_id: int, filters: StatsFilter = ANY_GAME, *, recent: int = 5
    ) -> PlayerStatsView:
        """One player's record in this server, with their newest finished games."""
        _check_filters(filters)
        stats = await self.store.stats(guild_id, filters, user_id=user_id)
        page = await self.store.finished_games(guild_id, filters, user_id=user_id, limit=recent)
        rating = (await self.ratings.server(guild_id)).of(user_id)
        record = standing(stats.players[0], rating=rating) if stats.players else None
        return PlayerStatsView(
            guild_id,
            user_id,
            filters,
            scope_text(filters),
            record,
            _table(stats.companies, company_name),
            _table(stats.officers, officer_name),
            page.games,
        )

    async def history(
        self,
        guild_id: int,
        page: int = 1,
        filters: StatsFilter = ANY_GAME,
        *,
        user_id: int | None = None,
        per_page: int = HISTORY_PAGE,
    ) -> HistoryPage:
        """A page of the server's finished games, newest first (a page past the last shows the
        last; one past `MAX_HISTORY_PAGE`, or a player id no Discord user has, is refused)."""
        _check_filters(filters)
        if page > MAX_HISTORY_PAGE:
            raise ServiceError(
                f"There is no such page: the history's pages go up to {MAX_HISTORY_PAGE:,}."
            )
        if user_id is not None and not 0 < user_id <= INT64_MAX:
            raise ServiceError("There is no such player.")
        page = max(page, 1)
        found = await self.store.finished_games(
            guild_id, filters, user_id=user_id, offset=(page - 1) * per_page, limit=per_page
        )
        pages = max(1, -(-found.total // per_page))
        if page > pages and found.total:
            return await self.history(guild_id, pages, filters, user_id=user_id, per_page=per_page)
        scope = scope_text(filters) if user_id is None else f"{scope_text(filters)} of one player"
        return HistoryPage(guild_id, page, pages, found.total, found.games, scope)

    async def archived_game(self, guild_id: int, number: int) -> FinishedGame:
        """This server's finished game with this number; NoGameHere if there is none."""
        missing = NoGameHere(
            f"There is no game #{number} in this server; `history` lists the finished ones."
        )
        if not 0 < number <= INT64_MAX:  # no game has it (nor could the database hold it)
            raise missing
        try:
            meta = await self.store.game_by_number(guild_id, number)
        except GameNotFoundError:
            raise missing from None
        found = await self.store.game_result(meta.id)
        if found is None:
            if meta.status == FINISHED:
                raise NoGameHere(
                    f"Game #{number} has no results yet: at start-up the bot reads them from "
                    "the logs of games that finished before it kept them, so try again in a "
                    "few minutes (a game whose log no longer replays gets none)."
                )
            raise NoGameHere(f"Game #{number} is {_stage(meta)}; only finished games are archived.")
        return found

    async def archived_here(self, guild_id: int, channel_id: int) -> FinishedGame:
        """The game that finished last in this channel; NoGameHere if none did."""
        games = await self.store.list_games(channel_id=channel_id, status=FINISHED, limit=1)
        if not games or games[0].guild_id != guild_id:
            raise NoGameHere(
                "No game has finished in this channel; name one by its number "
                "(`history` lists this server's finished games)."
            )
        return await self.archived_game(guild_id, games[0].number)

    async def leaderboard_image(self, view: StatsView, names: Mapping[int, str]) -> bytes:
        """The leaderboard as a picture: ranked players, companies and officers."""
        from renderer.records import Table, TableRow

        columns = ("Games", "Wins", "Win %", "Mean VP")
        players = tuple(
            TableRow(s.place, names.get(int(s.key), UNKNOWN_PLAYER), (s.rating_text, *_cells(s)))
            for s in view.players[:10]
        )
        tables = [
            Table(
                "Players",
                ("Player", "Rating", *columns),
                players,
                f"Nobody has finished {view.min_games} games yet.",
            ),
            Table(
                "Companies",
                ("Company", *columns),
                tuple(TableRow(None, s.name, _cells(s), str(s.key)) for s in view.companies),
            ),
            Table(
                "Officers",
                ("Officer", *columns),
                tuple(TableRow(None, s.name, _cells(s)) for s in view.officers),
            ),
        ]
        subtitle = (
            f"{plural(view.matched, 'finished game')} ({view.scope}) · ranked by rating, "
            f"from {plural(view.min_games, 'game')}"
        )
        picture = Leaderboard("Leaderboard", subtitle, tuple(tables))
        key = ("leaderboard", view.guild_id, picture)
        return await self.renderer_pool.render(key, picture, "leaderboard", None)

    async def game_charts(self, game: FinishedGame, names: Mapping[int, str]) -> bytes:
        """A finished game's charts: VP by source per player (by the score sheet's rows: an
        expansion's sources that share a row share a bar), energy per round."""
        from renderer.records import SeatChart

        seats = tuple(
            SeatChart(
                s.company,
                _player(s, names),
                s.vp,
                s.rank,
                {"start": s.vp_by_source.get("start", 0), **source_groups(s.vp_by_source)},
                s.energy_by_round,
            )
            for s in game.result.seats
        )
        picture = GameCharts(game_title(game, names), game_subtitle(game), seats)
        key = (game.game_id, game.version, "charts", tuple(sorted(names.items())))
        return await self.renderer_pool.render(key, picture, "charts", None)

    async def replay(
        self, game: FinishedGame, *, pace: str = "round", max_bytes: int = MAX_REPLAY_BYTES
    ) -> bytes:
        """An archived game's replay: an animated GIF of the map, one frame per round (the
        start of each, then the end) or per committed turn, at most MAX_FRAMES frames and
        `max_bytes` (itself at most MAX_REPLAY_BYTES). Drawn at low priority, cached."""
        if pace not in REPLAY_PACES:
            raise ServiceError(f"A replay goes by {' or '.join(REPLAY_PACES)}, not {pace!r}.")
        budget = min(max_bytes, MAX_REPLAY_BYTES)
        key = ("replay", game.game_id, game.version, pace, budget)
        frames = await self._replay_frames(game, pace)
        theme = self.config.theme

        def job(pause: Callable[[], None]) -> bytes:
            from renderer.replay import ReplayTooLarge, replay_gif

            try:
                return replay_gif(
                    frames,
                    theme=theme,
                    delay_ms=1500 if pace == "round" else 600,
                    max_bytes=budget,
                    pause=pause,
                )
            except ReplayTooLarge:
                raise ServiceError(
                    f"Game #{game.number}'s replay does not fit in {budget // 1048576} MB."
                ) from None

        return await self.renderer_pool.render_slow(key, job)

    async def _replay_frames(self, game: FinishedGame, pace: str) -> list[Any]:
        """The frames of a replay: committed states read from the stored snapshots."""
        from renderer.replay import ReplayFrame

        meta = await self.store.get_game(game.game_id)
        loaded = await self.games.load(meta)
        commits = [(v, rec) for v, rec in loaded.commits if v <= game.version]
        if not commits:
            raise ServiceError(f"Game #{game.number} has no saved states to replay.")
        states: dict[int, GameState] = {}

        async def state_at(index: int) -> GameState:
            version = commits[index][0]
            if version not in states:
                snap = await self.store.latest_snapshot(game.game_id, at_or_before=version)
                if snap is None or snap.version != version:
                    raise ServiceError(f"Game #{game.number} misses a saved state to replay.")
                from bot.rules import load_state

                states[version] = load_state(snap.state)
            return states[version]

        if pace == "turn":
            picked = _spread(list(range(len(commits))), MAX_FRAMES)
        else:
            picked = [0]
            last = len(commits) - 1
            for round_no in range(2, game.result.rounds + 1):
                # Rounds only grow along the commits: the first commit of each round.
                lo, hi = picked[-1], last
                while lo < hi:
                    mid = (lo + hi) // 2
                    if (await state_at(mid)).round >= round_no:
                        hi = mid
                    else:
                        lo = mid + 1
                if lo not in picked:
                    picked.append(lo)
            if last not in picked:
                picked.append(last)
        frames = []
        for index in picked:
            state = await state_at(index)
            frames.append(ReplayFrame(state, _caption(state, commits[index][1], pace)))
        return frames

    # -- the backfill --------------------------------------------------------------------

    async def backfill_results(
        self, *, batch: int = 50, stop: asyncio.Event | None = None
    ) -> BackfillReport:
        """Give results to every finished game that has none (finished before results were
        kept, or imported), replaying each log once, in a worker thread; a game whose log no
        longer replays is skipped and counted. Safe with several processes at once; returns
        early once `stop` is set."""
        written = skipped = already = 0
        after = 0
        while ids := await self.store.games_without_results(after_id=after, limit=batch):
            for game_id in ids:
                if stop is not None and stop.is_set():
                    return BackfillReport(written, skipped, already)
                after = game_id
                try:
                    kept = await keep_result_from_log(self.store, game_id)
                except (BrokenLog, ServiceError, GameNotFoundError) as exc:
                    log.warning("finished game %d has no results: %s", game_id, exc)
                    skipped += 1
                    continue
                if kept:
                    written += 1
                else:
                    already += 1
        if written or skipped:
            log.info(
                "results of finished games: %d written, %d skipped (their logs no longer replay)",
                written,
                skipped,
            )
        return BackfillReport(written, skipped, already)


def _check_filters(filters: StatsFilter) -> None:
    """Refuse filters no game can match, saying what is allowed."""
    if filters.players is not None and not 2 <= filters.players <= MAX_PLAYERS:
        raise ServiceError(f"A game has 2 to {MAX_PLAYERS} players, not {filters.players}.")
    unknown = sorted(set(filters.expansions or ()) - set(CATALOGUE.expansions))
    if unknown:
        raise ServiceError(
            f"No expansion is called {', '.join(unknown)}; "
            f"the expansions are {', '.join(sorted(CATALOGUE.expansions))}."
        )
    if filters.setup is not None and filters.setup not in SETUP_WORDS:
        raise ServiceError(f"The setup is {' or '.join(SETUP_WORDS)}, not {filters.setup!r}.")


def _cells(s: Standing) -> tuple[str, ...]:
    return (str(s.games), str(s.wins), percent(s.win_rate), f"{s.mean_vp:.1f}")


def _stage(meta: StoredGame) -> str:
    return "abandoned" if meta.status == "abandoned" else "not over yet"


def _spread(items: list[int], most: int) -> list[int]:
    """At most `most` of `items`, evenly spread, the first and the last always kept."""
    if len(items) <= most:
        return items
    step = (len(items) - 1) / (most - 1)
    return sorted({items[round(i * step)] for i in range(most)})


def _caption(state: GameState, commit: CommitRecord, pace: str) -> str:
    """What a replay frame shows: 'Round 3 begins', 'Round 2 · after Italy's turn', 'Final'."""
    if state.finished:
        ranking = state.result.get("ranking", [])
        winners = [company_name(e["company"]) for e in ranking if e["place"] == 1]
        best = ranking[0]["vp"] if ranking else 0
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"Final score: {' and '.join(winners)} {verb} with {best} VP"
    if pace == "round" or commit.reason == Cause.START:
        return f"Round {state.round} begins" if state.companies else "The draft"
    if commit.own_turn and commit.player:
        return f"Round {state.round} · after {company_name(commit.player)}'s turn"
    return f"Round {state.round}"
