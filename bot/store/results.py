"""The results of finished games and the statistics read from them: the store's value types.

A finished game's results are written by the store in the transaction of its final commit
(`Store.append(..., result=...)`), or later by `Store.record_result` for games that finished
before results were kept. Statistics are read from these rows only: no log is replayed to
answer them.

Rules the backends share (the contract suite checks them):
- a seat wins when its rank is 1 (companies tied for first place both win);
- a seat played by an automa (`SeatResult.automa`) is kept with its game but counts in no
  tally: not among the players, and not for its company or officer either, so that every
  tally describes how people played; so does a person's seat that the computer player held
  when the game ended or played `AI_TURNS_NOT_COUNTED` or more turns of (issue 24: it is not
  that person's win or loss);
- every query is about one server (guild): a game counts only in the server it was played in;
- ratings read a server's results in one fixed order, the same on every backend: by the time
  the game ended, then by game id (`Store.rating_games`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.store.errors import InvalidDataError

#: A seat of which the computer player played this many turns or more counts in no tally
#: (and is not rated): one or two turns played for a person (a clock's expiry) are forgiven.
AI_TURNS_NOT_COUNTED = 3

#: The setups a result may name (the engine's).
RESULT_SETUPS = frozenset({"intro", "full"})


def expansions_key(expansions: tuple[str, ...] | list[str]) -> str:
    """The stored form of a set of expansions: sorted names joined by commas ("" for none)."""
    return ",".join(sorted(set(expansions)))


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result: who played which company and officer, and how it went."""

    seat: int
    #: The Discord user at the seat when the game ended; None for an automa seat.
    user_id: int | None
    company: str
    officer: str
    vp: int
    #: 1 for the winner; tied companies share a rank.
    rank: int
    #: Final VP by source group ("start", "income", "contract", ...): they add up to `vp`.
    vp_by_source: Mapping[str, int] = field(default_factory=dict)
    #: Energy produced in each round, round 1 first.
    energy_by_round: tuple[int, ...] = ()
    #: True when the engine played this seat (an automa company).
    automa: bool = False
    #: Turns of this person's seat that the computer player played for them (a turn clock's
    #: expiry, a seat handed to it): the ratings leave out a seat it played 3 or more of.
    ai_turns: int = 0
    #: True when the computer player held this seat when the game ended.
    ai_at_end: bool = False
    #: Hints this seat asked for (a game with hints is not rated).
    hints_used: int = 0

    def __post_init__(self) -> None:
        """Refuse rows no table could hold or no statistic could read."""
        if self.ai_turns < 0 or self.hints_used < 0:
            raise InvalidDataError(f"seat {self.seat}: AI turns and hints are counts, 0 or more")
        if self.automa != (self.user_id is None):
            raise InvalidDataError(f"seat {self.seat}: an automa seat, and only one, has no user")
        if not self.company or not self.officer:
            raise InvalidDataError(f"seat {self.seat}: a result names its company and officer")
        if self.rank < 1:
            raise InvalidDataError(f"seat {self.seat}: rank must be 1 or more, not {self.rank}")
        if sum(self.vp_by_source.values()) != self.vp:
            raise InvalidDataError(
                f"seat {self.seat}: VP by source add up to {sum(self.vp_by_source.values())}, "
                f"not {self.vp}"
            )


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's results, as the service hands them to the store."""

    players: int
    setup: str
    map: str
    expansions: tuple[str, ...]
    #: Rounds played (5 in a complete game).
    rounds: int
    seats: tuple[SeatResult, ...]
    #: True when the game offered hints (its option): such a game is not rated.
    hints: bool = False

    def __post_init__(self) -> None:
        """One row per seat, seats numbered from 0."""
        if self.setup not in RESULT_SETUPS:
            raise InvalidDataError(f"unknown setup {self.setup!r} in a result")
        if [s.seat for s in self.seats] != list(range(len(self.seats))) or not self.seats:
            raise InvalidDataError("a result has one row per seat, numbered from 0")
        if self.players != len(self.seats):
            raise InvalidDataError(f"a {self.players}-player result has {len(self.seats)} seats")

    @property
    def winners(self) -> tuple[SeatResult, ...]:
        """The seats ranked first."""
        return tuple(s for s in self.seats if s.rank == 1)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game with its results, as the store reads them back."""

    game_id: int
    guild_id: int
    channel_id: int
    #: The game's number in its server.
    number: int
    #: The version of the final commit (its snapshot is the final state).
    version: int
    ended_at: int
    result: GameResult


@dataclass(frozen=True, slots=True)
class PlacedSeat:
    """A seat as the ratings read it: who sat there, their place, and who really played."""

    #: The Discord user at the seat when the game ended; None for an automa seat.
    user_id: int | None
    rank: int
    automa: bool = False
    ai_turns: int = 0
    ai_at_end: bool = False
    hints_used: int = 0

    @classmethod
    def of(cls, seat: SeatResult) -> PlacedSeat:
        """The rating's view of a seat's result."""
        return cls(
            seat.user_id, seat.rank, seat.automa, seat.ai_turns, seat.ai_at_end, seat.hints_used
        )


@dataclass(frozen=True, slots=True)
class RatingGame:
    """A finished game as the ratings read it: when it ended, and its seats by seat number."""

    game_id: int
    ended_at: int
    seats: tuple[PlacedSeat, ...]
    #: True when the game offered hints.
    hints: bool = False

    @property
    def key(self) -> tuple[int, int]:
        """Its place in the ratings' order: when it ended, then its id."""
        return (self.ended_at, self.game_id)


@dataclass(frozen=True, slots=True)
class RatingGames:
    """A server's finished games in the ratings' order (those after a key, if one was given),
    and how many finished games with results the server has in all."""

    games: tuple[RatingGame, ...]
    total: int


@dataclass(frozen=True, slots=True)
class ResultsPage:
    """One page of a server's finished games, newest first, and how many there are."""

    games: tuple[FinishedGame, ...]
    total: int


@dataclass(frozen=True, slots=True)
class StatsFilter:
    """Which finished games a statistic counts; None counts any."""

    players: int | None = None
    setup: str | None = None
    #: Exactly these expansions (() is the base game alone).
    expansions: tuple[str, ...] | None = None

    @property
    def any(self) -> bool:
        """True when nothing is filtered."""
        return self.players is None and self.setup is None and self.expansions is None


#: Every finished game.
ANY_GAME = StatsFilter()


@dataclass(frozen=True, slots=True)
class Tally:
    """Games, wins and VP of one player, company or officer."""

    key: int | str
    games: int
    wins: int
    vp_total: int
    best: int
    #: How many times each rank was reached ({1: wins, 2: ..., ...}).
    ranks: Mapping[int, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        """Wins per game (0 to 1)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_vp(self) -> float:
        """Mean final VP."""
        return self.vp_total / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class GameCounts:
    """A server's games by stage (games that never started are not counted)."""

    #: Games that started: finished, still being played, or abandoned after the start.
    played: int = 0
    finished: int = 0
    active: int = 0
    abandoned: int = 0


@dataclass(frozen=True, slots=True)
class Stats:
    """A server's statistics over its finished games that match a filter."""

    counts: GameCounts
    #: Finished games that match the filter (and, for one player, that they played).
    matched: int
    #: Per player (key: user id), by key; automa seats are never counted.
    players: tuple[Tally, ...]
    #: Per company and per officer (key: their ids, in order), of the human seats.
    companies: tuple[Tally, ...]
    officers: tuple[Tally, ...]


__all__ = [
    "AI_TURNS_NOT_COUNTED",
    "ANY_GAME",
    "RESULT_SETUPS",
    "FinishedGame",
    "GameCounts",
    "GameResult",
    "PlacedSeat",
    "RatingGame",
    "RatingGames",
    "ResultsPage",
    "SeatResult",
    "Stats",
    "StatsFilter",
    "Tally",
    "expansions_key",
]
