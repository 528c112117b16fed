"""The store's interface: value types and the `Store` protocol every backend implements."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from bot.store.errors import InvalidDataError
from bot.store.results import (
    ANY_GAME,
    FinishedGame,
    GameResult,
    RatingGames,
    ResultsPage,
    Stats,
    StatsFilter,
)

#: A clock returns the current time as integer UTC milliseconds since the epoch.
Clock = Callable[[], int]

#: Game statuses. Only an active game occupies its channel.
ACTIVE = "active"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = frozenset({ACTIVE, FINISHED, ABANDONED})

#: The record kinds the service writes; the store accepts any non-empty kind so that
#: system records and expansions need no store change.
RECORD_KINDS = frozenset({"decision", "restart", "revert", "confirm", "system"})

#: Discord ids and our own ids are stored as signed 64-bit integers (portable BIGINT).
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def system_clock() -> int:
    """The wall clock as UTC milliseconds; production only, tests inject their own clock."""
    return time.time_ns() // 1_000_000


def dump_json(value: Any, what: str) -> str:
    """Serialise a JSON-able value compactly, or raise InvalidDataError naming `what`."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidDataError(f"{what} is not JSON-able: {exc}") from None


def check_int64(value: object, what: str) -> int:
    """Return `value` if it is an int that fits a signed 64-bit column, else raise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidDataError(f"{what} must be an integer, not {type(value).__name__}")
    if not INT64_MIN <= value <= INT64_MAX:
        raise InvalidDataError(f"{what} does not fit in 64 bits: {value}")
    return value


@dataclass(frozen=True, slots=True)
class Seat:
    """One occupancy of a seat: a Discord user sitting at seat `seat` (0-based turn order)."""

    seat: int
    user_id: int
    joined_at: int
    replaced_at: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """A game as stored: identity, where it is played, how it was set up, and its version."""

    id: int
    guild_id: int
    channel_id: int
    status: str
    options: Mapping[str, Any]
    seed: int
    engine_version: str
    creator_id: int
    created_at: int
    updated_at: int
    ended_at: int | None
    version: int
    #: Every seat occupancy, current and replaced, ordered by seat then time.
    seat_history: tuple[Seat, ...] = ()
    #: The game's number within its server (1, 2, ...): what players see and type.
    number: int = 0

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The current occupant of each seat, in seat order."""
        return tuple(s for s in self.seat_history if s.replaced_at is None)

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The Discord user ids of the current players, in seat order."""
        return tuple(s.user_id for s in self.seats)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One record of a game's log; `seq` is the game's version right after it."""

    game_id: int
    seq: int
    kind: str
    record: Mapping[str, Any]
    created_at: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A saved engine state, taken at a committed-turn boundary."""

    game_id: int
    version: int
    state: Any
    created_at: int


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """An announcement waiting to be posted, as handed to the sender that claimed it."""

    id: int
    game_id: int
    version: int
    channel_id: int
    payload: Mapping[str, Any]
    created_at: int
    #: Attempts so far, counting the current claim.
    attempts: int
    #: Proof of a claim (None if unclaimed); mark_sent and retry_outbox need it.
    claim: str | None


@dataclass(frozen=True, slots=True)
class ClaimOwner:
    """The process that holds claims on scheduled work.

    `instance` names a deployment slot and stays the same across its restarts (the host and
    the gateway shards it serves); only one process of an instance runs at a time, so a new
    run may take back what an earlier run of its instance held. `run` is unique per start.
    """

    instance: str
    run: str

    def __post_init__(self) -> None:
        """Both parts are needed to tell a dead predecessor from a live peer."""
        if not self.instance or not self.run:
            raise InvalidDataError("a claim owner needs an instance and a run")


#: Reminder schedule kinds: a turn announced silently (its first ping is the turn's own,
#: held back by quiet hours), or one announced with its ping (every ping is a reminder).
TURN_PING = "turn"
REMINDER = "reminder"
REMINDER_KINDS = frozenset({TURN_PING, REMINDER})


@dataclass(frozen=True, slots=True)
class ReminderDue:
    """A reminder schedule a commit sets for one player (see Store.append)."""

    user_id: int
    due_at: int
    kind: str = REMINDER


@dataclass(frozen=True, slots=True)
class Reminder:
    """A player's reminder schedule in one game."""

    game_id: int
    user_id: int
    due_at: int
    sent_count: int
    last_sent_at: int | None
    #: The claim token when handed out by claim_reminders, else None.
    claim: str | None = None
    #: TURN_PING when the turn was announced silently (quiet hours), so that the first ping
    #: is the turn's own; else REMINDER. It stays for the schedule's life.
    kind: str = REMINDER


#: Deadline kinds (bot/store/clocks.py): a player's time running out, and a computer seat's
#: pending step.
EXPIRY = "expiry"
AI_STEP = "ai"
DEADLINE_KINDS = frozenset({EXPIRY, AI_STEP})


@dataclass(frozen=True, slots=True)
class Deadline:
    """Something due in a game at `due_at` (UTC ms), written for its commit `version`."""

    game_id: int
    user_id: int
    kind: str
    due_at: int
    version: int
    #: The claim token when handed out by claim_deadlines, else None.
    claim: str | None = None


#: The picture themes a player may choose (renderer.theme.THEMES; the store stays renderer-free).
USER_THEMES = ("light", "dark", "colourblind")


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A player's own settings; None means "use the server's default"."""

    user_id: int
    #: IANA time zone name, e.g. "Europe/Berlin"; None means UTC.
    time_zone: str | None = None
    #: Quiet hours as minutes after local midnight; both set or both None.
    quiet_start: int | None = None
    quiet_end: int | None = None
    dm_opt_in: bool = False
    skip_confirm: bool = False
    reminder_hours: int | None = None
    updated_at: int | None = field(default=None, compare=False)
    #: The theme of the pictures only this player sees (None: the game's or the server's).
    theme: str | None = None
    #: Mention this player when the player before them begins a turn ("you're next").
    heads_up: bool = False

    def __post_init__(self) -> None:
        """Refuse settings the bot could not act on."""
        check_int64(self.user_id, "user_id")
        if (self.quiet_start is None) != (self.quiet_end is None):
            raise InvalidDataError("quiet_start and quiet_end must both be set or both be None")
        for name in ("quiet_start", "quiet_end"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int) and 0 <= value < 24 * 60):
                raise InvalidDataError(f"{name} must be minutes after midnight (0..1439)")
        if self.reminder_hours is not None and not (
            isinstance(self.reminder_hours, int) and self.reminder_hours > 0
        ):
            raise InvalidDataError("reminder_hours must be a positive integer or None")
        if self.theme is not None and self.theme not in USER_THEMES:
            raise InvalidDataError(f"theme must be one of {', '.join(USER_THEMES)} or None")


@runtime_checkable
class Store(Protocol):
    """Persistence for games. Every method is one atomic operation; none exposes a
    connection or a transaction, so any backend (SQLite, PostgreSQL) fits."""

    async def close(self) -> None:
        """Finish pending work and release the database."""

    # -- games -------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        options: Mapping[str, Any],
        seed: int,
        engine_version: str,
        seats: Sequence[int],
    ) -> Game:
        """Create an active game with a new store-wide id; ChannelBusyError if the
        channel already has an active game."""
        ...

    async def get_game(self, game_id: int) -> Game:
        """The game with this id; GameNotFoundError if there is none."""
        ...

    async def active_game(self, channel_id: int) -> Game | None:
        """The channel's active game, if it has one."""
        ...

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        user_id: int | None = None,
        status: str | None = None,
        seed: int | None = None,
        limit: int = 100,
        channel_id: int | None = None,
    ) -> list[Game]:
        """Games matching every given filter (user: currently seated), newest first."""
        ...

    async def game_by_number(self, guild_id: int, number: int) -> Game:
        """The game with this number in this server; GameNotFoundError if there is none
        (also for numbers no game could have, such as ones beyond 64 bits)."""
        ...

    async def set_status(self, game_id: int, status: str) -> Game:
        """Change a game's status; leaving "active" also drops its reminders.
        ChannelBusyError when reactivating a game whose channel is taken."""
        ...

    async def replace_seat(self, game_id: int, seat: int, user_id: int) -> Game:
        """Give a seat to another user, keeping the previous occupant in the history."""
        ...

    async def set_seats(self, game_id: int, user_ids: Sequence[int]) -> Game:
        """Make the current seating exactly `user_ids` by seat index: a seat whose occupant
        differs is replaced (history kept), seats beyond the list are vacated."""
        ...

    # -- the log -----------------------------------------------------------------------

    async def append(
        self,
        game_id: int,
        expected_version: int,
        records: Sequence[Mapping[str, Any]],
        *,
        snapshot: Any = None,
        outbox: Sequence[Mapping[str, Any]] = (),
        result: GameResult | None = None,
        reminders: Sequence[ReminderDue] | None = None,
    ) -> int:
        """Append records to the log of a game read at `expected_version`, all or nothing,
        together with an optional snapshot (of the state after the records) and outbox
        payloads (announcements to the game's channel). Return the new version.
        StaleVersionError, writing nothing, if the game is no longer at that version.

        With `reminders` (a list, maybe empty), the same transaction replaces the game's
        reminder schedules with these (a commit's: one per player who must decide now).

        With `result` (the final commit), the same transaction finishes the game: its status
        becomes "finished" (ended now, reminders dropped) and its results are kept, with the
        new version as the final one."""
        ...

    async def version(self, game_id: int) -> int:
        """The game's version: the number of records in its log."""
        ...

    async def read_log(
        self, game_id: int, *, after: int = 0, upto: int | None = None
    ) -> list[LogEntry]:
        """Log records with after < seq <= upto, in order."""
        ...

    async def latest_snapshot(
        self, game_id: int, *, at_or_before: int | None = None
    ) -> Snapshot | None:
        """The newest snapshot at or before a version (default: the newest of all)."""
        ...

    # -- the outbox --------------------------------------------------------------------

    async def claim_outbox(
        self, *, owner: ClaimOwner | None = None, limit: int = 10, lease_ms: int = 60_000
    ) -> list[OutboxItem]:
        """Claim due, unsent announcements (oldest first, one per game at a time) for
        `lease_ms`, recording `owner`; a sender that crashes loses its claim when the lease
        ends (or at once when the next run of its instance calls recover_outbox_claims)."""
        ...

    async def renew_outbox_claims(self, owner: ClaimOwner, *, lease_ms: int) -> int:
        """Extend to now + `lease_ms` the lease of every unsent announcement `owner` holds
        (a live sender renews well within its lease, so a peer never takes its claims);
        return how many."""
        ...

    async def recover_outbox_claims(self, owner: ClaimOwner) -> int:
        """Give back, due at once, the claims held by earlier runs of `owner.instance`
        (they are dead: one run of an instance at a time); return how many."""
        ...

    async def mark_sent(self, item_id: int, claim: str, message_id: int) -> bool:
        """Record that a claimed announcement was posted as `message_id`; False if the
        claim was lost meanwhile (the item is then someone else's)."""
        ...

    async def retry_outbox(
        self, item_id: int, claim: str, error: str, *, give_up: bool = False
    ) -> int | None:
        """Give a claimed announcement back after a failed post, due again after a
        back-off; return that time, or None once it has used up its attempts (or at once
        with `give_up`, when no later try can succeed)."""
        ...

    async def release_outbox(self, item_id: int, claim: str) -> bool:
        """Give a claimed announcement back unattempted (the sender stopped before or while
        posting): due again at once, the attempt not counted. False if the claim was lost."""
        ...

    async def pending_outbox(self, game_id: int) -> list[OutboxItem]:
        """A game's announcements not yet sent nor given up on, oldest first."""
        ...

    async def last_message_id(self, game_id: int, *, before_item: int | None = None) -> int | None:
        """The message id of the game's newest sent announcement (older than `before_item`)."""
        ...

    # -- reminders ---------------------------------------------------------------------

    async def set_reminder(
        self,
        game_id: int,
        user_id: int,
        due_at: int,
        *,
        sent_count: int = 0,
        kind: str = REMINDER,
    ) -> None:
        """Create or replace a player's reminder schedule in a game (`kind`: TURN_PING or
        REMINDER)."""
        ...

    async def clear_reminders(self, game_id: int, user_id: int | None = None) -> None:
        """Drop a player's reminder in a game, or every reminder of the game."""
        ...

    async def reminders(self, game_id: int) -> list[Reminder]:
        """A game's reminder schedules, by user id."""
        ...

    async def claim_reminders(self, *, limit: int = 50, lease_ms: int = 60_000) -> list[Reminder]:
        """Claim due reminders of active games with one atomic update, so that of several
        bot processes exactly one sends each."""
        ...

    async def reminder_sent(self, reminder: Reminder, *, next_due_at: int | None) -> bool:
        """Record that a claimed reminder went out; schedule the next one at `next_due_at`,
        or drop it when None. False if the claim was lost."""
        ...

    # -- per-user settings -------------------------------------------------------------

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (all defaults if the user never set any)."""
        ...

    async def put_user_settings(self, settings: UserSettings) -> UserSettings:
        """Store a user's settings, replacing the previous ones."""
        ...

    # -- results and statistics (bot/store/results.py) ----------------------------------

    async def record_result(self, game_id: int, result: GameResult, *, version: int) -> bool:
        """Keep the results of a game that finished without them (kept before, or imported),
        `version` being its final commit; False, changing nothing, if it has results already.
        InvalidDataError if the game is not finished."""
        ...

    async def games_without_results(self, *, after_id: int = 0, limit: int = 100) -> list[int]:
        """Ids of finished games without results (every server), above `after_id`, in order."""
        ...

    async def game_result(self, game_id: int) -> FinishedGame | None:
        """A finished game's results, None if it has none."""
        ...

    async def finished_games(
        self,
        guild_id: int,
        filters: StatsFilter = ANY_GAME,
        *,
        user_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> ResultsPage:
        """A page of a server's games with results that match `filters` (and that `user_id`
        played, if given), the last ended first, and how many there are in all."""
        ...

    async def stats(
        self, guild_id: int, filters: StatsFilter = ANY_GAME, *, user_id: int | None = None
    ) -> Stats:
        """A server's tallies over its finished games matching `filters`; with `user_id`, only
        the games and seats of that player (their companies and officers)."""
        ...

    async def rating_games(
        self, guild_id: int, *, after: tuple[int, int] | None = None
    ) -> RatingGames:
        """A server's finished games with their seats' places, in the ratings' fixed order (by
        the time each ended, then by game id; the same on every backend), only those after the
        key `after` (a `RatingGame.key`) if given; and how many the server has in all."""
        ...

    # -- moving games ------------------------------------------------------------------

    async def export_game(self, game_id: int) -> dict[str, Any]:
        """The whole game as one JSON-able document (options, seed, seats, log, status)."""
        ...

    async def import_game(self, doc: Mapping[str, Any], *, guild_id: int, channel_id: int) -> Game:
        """Insert an exported game under a new id in the given channel. Checks the shape
        only: the service must replay the log through the engine before calling this."""
        ...

    # -- the turn clock (bot/store/clocks.py) --------------------------------------------

    async def set_deadlines(
        self, game_id: int, kind: str, due: Sequence[tuple[int, int]], *, version: int
    ) -> None:
        """Replace the game's deadlines of `kind` by (user id, due at) pairs."""
        ...

    async def deadlines(self, game_id: int) -> list[Deadline]:
        """The game's deadlines, soonest first."""
        ...

    async def claim_deadlines(
        self, kind: str, *, limit: int = 50, lease_ms: int = 120_000
    ) -> list[Deadline]:
        """Claim due deadlines of `kind` in active games atomically (one claimant each)."""
        ...

    async def deadline_done(self, deadline: Deadline, *, next_due_at: int | None = None) -> bool:
        """Drop a claimed deadline or move it; False when the claim was lost."""
        ...

    async def set_away(self, user_id: int, until_at: int | None) -> None:
        """End the user's time away now and start a new one until `until_at` (None: none)."""
        ...

    async def away_spans(self, user_id: int, *, since: int = 0) -> list[tuple[int, int]]:
        """The user's time away that ends after `since`, in order."""
        ...

    async def beat(self, instance: str, *, gap_ms: int) -> tuple[int, int] | None:
        """Write this process's heartbeat; record and return an outage after a silence."""
        ...

    async def outages(self, *, since: int = 0) -> list[tuple[int, int]]:
        """The outages (the bot could not answer) that end after `since`, in order."""
        ...


@runtime_checkable
class SupportsWakeups(Protocol):
    """A store shared by several processes that tells each of them when work is waiting.

    Topics: "outbox" (an announcement was committed or given back). A process still polls,
    but rarely: the wake-up is what makes delivery prompt across processes.
    """

    async def subscribe(self, topic: str, wake: Callable[[], None]) -> None:
        """Call `wake` (on the event loop) whenever any process commits work on `topic`."""
        ...


@runtime_checkable
class SupportsBackup(Protocol):
    """A store that can copy its live database to a file."""

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Write a consistent copy of the database to the file `dest`."""
        ...
