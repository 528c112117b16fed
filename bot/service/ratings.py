"""Ratings: an OpenSkill rating per server and player, rebuilt from the finished games' results.

The model is OpenSkill's Plackett-Luce (the `openskill` package, its default parameters: a
newcomer has mu 25 and sigma 25/3), which rates a free-for-all of any number of players with
ties. Decisions where the issue is silent:

- **Which seats count** (`why_unrated`, `seat_is_rated`): a seat is rated when a person sat
  there at the end and played it themselves: not an automa (the engine's own seats) nor a
  computer player's seat, not a seat the computer player held when the game ended, and not
  one it played 3 or more turns of (a turn clock's expiry plays a turn; a few are forgiven).
- **Which games count** (`rated_seats`): a game is rated when it offered no hints (nor did
  any seat use one) and at least two of its seats are rated. Its rated people are ranked
  among themselves by final place: equal places are ties, left-out seats do not count.
- **Order**: a server's ratings are a pure function of its results, read in one fixed order
  (by the time each game ended, then by game id: `Store.rating_games`, the same on every
  backend). Nothing is stored: each process rebuilds them, then follows new games.
- **The number shown** (`Rating.shown`): the conservative estimate mu − 3·sigma (OpenSkill's
  "ordinal"), times 10, rounded. Conservative, so that a lucky newcomer with two wins does
  not top players who proved themselves over dozens of games: the figure rises both by
  winning and as the rating grows surer. Times 10 so that it is a whole number without
  losing a decimal's precision. A newcomer stands at 0; an established average player near
  200; one game moves it by a few tens, less as it settles.
- A player with no rated game has no rating shown ("unrated") and is ranked after the rated.
  The leaderboard's ratings are the server's whatever the statistics' filter (a rating
  over 3-player games only would be another rating).
- **The final message** tells each rated person's change from the ratings as they stood
  when the game ended (`RatingsKeeper.changes`, before the final commit is written). Two
  games of one server ending at the same moment in two processes may each tell a change
  without the other: the order of the rebuild then decides, and the leaderboard follows it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from bot.service.types import Line, number
from bot.store import AI_TURNS_NOT_COUNTED, GameResult, PlacedSeat, RatingGame, Store

#: The model, with OpenSkill's default parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: A newcomer's rating.
MU, SIGMA = MODEL.mu, MODEL.sigma
#: A seat of which the computer player played this many turns or more is not rated (nor
#: counted in the statistics: the store's rule).
AI_TURNS_UNRATED = AI_TURNS_NOT_COUNTED
#: Standard deviations taken off the mean for the number shown, and its scale.
CAUTION = 3.0
SCALE = 10
#: Servers whose ratings a process keeps in memory.
MAX_SERVERS = 1000
#: More new games than this are rated in a worker thread (a rebuild of 10,000 games takes
#: seconds of CPU: the event loop keeps answering meanwhile).
INLINE_GAMES = 100


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one server, and how many rated games it counts."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate: mu − 3·sigma (0 for a newcomer)."""
        return self.mu - CAUTION * self.sigma

    @property
    def shown(self) -> int:
        """The number players read: the ordinal times 10, rounded."""
        return round(self.ordinal * SCALE)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one game did to one person's rating."""

    user_id: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change of the number shown."""
        return self.after.shown - self.before.shown


#: A newcomer's rating (anyone without a rated game).
NEWCOMER = Rating()


def why_unrated(seat: PlacedSeat) -> str | None:
    """Why a seat is not rated, in words for its game's final message; None if it is rated."""
    if seat.user_id is None or seat.automa:
        return "the engine played it"
    if seat.ai_at_end:
        return "the computer player held the seat at the end"
    if seat.ai_turns >= AI_TURNS_UNRATED:
        return f"the computer player played {seat.ai_turns} of the seat's turns"
    return None


def seat_is_rated(seat: PlacedSeat) -> bool:
    """Whether a seat counts in the ratings: a person played it to the end themselves, the
    computer player having played fewer than 3 of its turns."""
    return why_unrated(seat) is None


def game_has_hints(game: RatingGame) -> bool:
    """Whether a game offered hints, or any of its seats used one."""
    return game.hints or any(s.hints_used for s in game.seats)


def rated_seats(game: RatingGame) -> tuple[PlacedSeat, ...]:
    """The seats a game rates, by seat number: none when it had hints or fewer than two
    rated seats."""
    if game_has_hints(game):
        return ()
    seats = tuple(s for s in game.seats if seat_is_rated(s))
    return seats if len(seats) >= 2 else ()


def rating_game(result: GameResult, game_id: int = 0, ended_at: int = 0) -> RatingGame:
    """A result as the ratings read it."""
    return RatingGame(
        game_id, ended_at, tuple(PlacedSeat.of(s) for s in result.seats), result.hints
    )


def rate(ratings: Mapping[int, Rating], game: RatingGame) -> tuple[RatingChange, ...]:
    """What `game` does to the ratings of its rated people (by seat number), from `ratings`
    (a newcomer's for anyone absent); () for a game that is not rated."""
    seats = rated_seats(game)
    if not seats:
        return ()
    users = [s.user_id for s in seats if s.user_id is not None]
    before = [ratings.get(u, NEWCOMER) for u in users]
    places = sorted({s.rank for s in seats})
    ranks = [float(places.index(s.rank) + 1) for s in seats]  # dense: among themselves
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    rated = MODEL.rate(teams, ranks=ranks)
    return tuple(
        RatingChange(user, old, Rating(team[0].mu, team[0].sigma, old.games + 1))
        for user, old, team in zip(users, before, rated, strict=True)
    )


@dataclass(frozen=True, slots=True)
class ServerRatings:
    """A server's ratings as they stand: each rated player's, and the games they count."""

    guild_id: int
    players: Mapping[int, Rating]
    games: int

    def of(self, user_id: int) -> Rating:
        """A player's rating (a newcomer's if they have none)."""
        return self.players.get(user_id, NEWCOMER)


@dataclass(slots=True)
class RatingBook:
    """One server's ratings after the games applied to it, in the ratings' order."""

    players: dict[int, Rating] = field(default_factory=dict)
    #: Games applied (rated or not), and the key of the last one.
    count: int = 0
    last: tuple[int, int] | None = None

    def apply(self, games: Iterable[RatingGame]) -> None:
        """Apply games that come after every game applied so far (ValueError for one that
        does not: applied twice, or out of the ratings' order)."""
        for game in games:
            if self.last is not None and game.key <= self.last:
                raise ValueError(f"game {game.game_id} does not come after game {self.last[1]}")
            for change in rate(self.players, game):
                self.players[change.user_id] = change.after
            self.count += 1
            self.last = game.key


def rebuild(games: Iterable[RatingGame]) -> RatingBook:
    """A server's ratings from its finished games, in the ratings' order."""
    book = RatingBook()
    book.apply(games)
    return book


class RatingsKeeper:
    """The ratings of each server, rebuilt from the store once per process and then brought
    up to date with the games that finished since (rebuilt again if a game appeared earlier
    in the order: a late backfill). The store is the truth; this is a cache of a function
    of it, checked against the store at every read."""

    def __init__(self, store: Store) -> None:
        """Keep the ratings of `store`'s servers."""
        self.store = store
        self._books: OrderedDict[int, RatingBook] = OrderedDict()
        # One per server ever asked about (kept when its book is dropped: a waiter holds it).
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: Full rebuilds done (for tests and the bench).
        self.rebuilds = 0
        self.inline_games = INLINE_GAMES

    async def server(self, guild_id: int) -> ServerRatings:
        """A server's ratings over every finished game it has now."""
        async with self._locks[guild_id]:
            book = self._books.get(guild_id)
            found = await self.store.rating_games(
                guild_id, after=book.last if book is not None else None
            )
            if book is None or book.count + len(found.games) != found.total:
                if book is not None:
                    found = await self.store.rating_games(guild_id)
                book = RatingBook()
                self.rebuilds += 1
            if len(found.games) > self.inline_games:
                # Under the server's lock: nobody else touches this book meanwhile.
                await asyncio.to_thread(book.apply, found.games)
            else:
                book.apply(found.games)
            self._books[guild_id] = book
            self._books.move_to_end(guild_id)
            while len(self._books) > MAX_SERVERS:
                self._books.popitem(last=False)
            return ServerRatings(guild_id, dict(book.players), book.count)

    async def changes(self, guild_id: int, result: GameResult) -> tuple[RatingChange, ...]:
        """What a game that is finishing now does to its people's ratings in its server."""
        current = await self.server(guild_id)
        return rate(current.players, rating_game(result))


def signed(delta: int) -> str:
    """'+18', '−7' (a minus sign), '±0'."""
    if delta > 0:
        return f"+{delta}"
    return f"−{-delta}" if delta < 0 else "±0"


def rating_notes(
    result: GameResult, changes: Iterable[RatingChange]
) -> tuple[dict[str, str], list[Line]]:
    """What the final message tells of ratings: a note ending each person's line of the
    ranking, by company (the new rating and its change, or why the seat is not rated), and
    the lines after the ranking (why the game is not rated, if it is not)."""
    game = rating_game(result)
    if game_has_hints(game):
        return {}, [Line.of("This game is not rated: it offered hints.")]
    by_user = {c.user_id: c for c in changes}
    if not by_user:
        why = "a rated game needs two or more people who played their own seats"
        return {}, [Line.of(f"This game is not rated: {why}.")]
    notes = {}
    for seat in result.seats:
        change = by_user.get(seat.user_id) if seat.user_id is not None else None
        reason = why_unrated(PlacedSeat.of(seat))
        if change is not None:
            notes[seat.company] = f" · rating {number(change.after.shown)} ({signed(change.delta)})"
        elif not seat.automa and reason is not None:
            notes[seat.company] = f" · not rated: {reason}"
    return notes, []


def rank_key(rating: Rating | None) -> tuple[int, int]:
    """How the leaderboard orders ratings: the rated by the number shown, then the unrated."""
    if rating is None or not rating.games:
        return (1, 0)
    return (0, -rating.shown)


__all__ = [
    "AI_TURNS_UNRATED",
    "MODEL",
    "NEWCOMER",
    "Rating",
    "RatingBook",
    "RatingChange",
    "RatingsKeeper",
    "ServerRatings",
    "game_has_hints",
    "rank_key",
    "rate",
    "rated_seats",
    "rating_game",
    "rating_notes",
    "rebuild",
    "seat_is_rated",
    "signed",
    "why_unrated",
]
