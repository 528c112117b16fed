"""The store's operations in SQL, shared by every SQL backend (SQLite and PostgreSQL).

A backend supplies a transaction runner and a `Tx` (run one statement inside the current
transaction, with `?` placeholders) plus a few dialect hooks: which unique index an error
names, how to lock rows that a read-modify-write will change, and how to tell other
processes that work is waiting. Everything else — the arbiters of races, the claims, the
export format — is written once here, so the backends cannot drift apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

from bot.store.base import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    INT64_MAX,
    INT64_MIN,
    REMINDER,
    REMINDER_KINDS,
    STATUSES,
    ClaimOwner,
    Clock,
    Game,
    LogEntry,
    OutboxItem,
    Reminder,
    ReminderDue,
    Seat,
    Snapshot,
    UserSettings,
    check_int64,
    dump_json,
)
from bot.store.errors import (
    ChannelBusyError,
    GameNotFoundError,
    InvalidDataError,
    StaleVersionError,
)
from bot.store.export import EXPORT_FORMAT, EXPORT_FORMAT_VERSION, parse_export
from bot.store.results import (
    AI_TURNS_NOT_COUNTED,
    ANY_GAME,
    FinishedGame,
    GameCounts,
    GameResult,
    PlacedSeat,
    RatingGame,
    RatingGames,
    ResultsPage,
    SeatResult,
    Stats,
    StatsFilter,
    Tally,
    expansions_key,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The unique indexes whose violations mean something (named alike in every backend).
ONE_ACTIVE_PER_CHANNEL = "games_one_active_per_channel"
NUMBER_IN_GUILD = "games_number_in_guild"
LOG_SEQ = "log_pkey"
RESULTS_KEY = "results_pkey"

#: Wake-up topics: what a store tells other processes about (see SupportsWakeups).
OUTBOX_TOPIC = "outbox"

#: How often a new game retries its number when another process took it at the same moment.
_NUMBER_TRIES = 20

_GAME_COLUMNS = (
    "games.id, guild_id, channel_id, status, options, seed, engine_version, creator_id, "
    "created_at, updated_at, ended_at, "
    "(SELECT COALESCE(MAX(seq), 0) FROM log WHERE log.game_id = games.id), number"
)
#: A game's row with each of its seats' (one row with NULL seat columns for a game without
#: seats): a game and its seats in one statement.
_GAME_WITH_SEATS = (
    f"SELECT {_GAME_COLUMNS}, s.seat, s.user_id, s.joined_at, s.replaced_at"
    " FROM games LEFT JOIN seats AS s ON s.game_id = games.id"
)
_OUTBOX_COLUMNS = "id, game_id, version, channel_id, payload, created_at, attempts, claim_token"
_REMINDER_COLUMNS = "game_id, user_id, due_at, sent_count, last_sent_at, claim_token, kind"
#: What giving a claim back clears.
_NO_CLAIM = "claim_token = NULL, claimed_until = NULL, claim_instance = NULL, claim_run = NULL"

Row = Sequence[Any]


class Tx(Protocol):
    """Statements inside one open transaction, with `?` placeholders."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row the statement returns."""
        ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The statement's first row, if any."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; return how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per parameter row."""
        ...


@dataclass(frozen=True, slots=True)
class TxMode:
    """How a transaction runs."""

    #: Whether it may write (else it only reads).
    write: bool = True
    #: The body runs one statement, atomic by itself: a backend may run it without a
    #: transaction around it (fewer round trips to a server).
    alone: bool = False
    #: It only keeps the outbox's books (a claim, a lease, a sent mark, a retry), which a
    #: crash of the database server may lose, posting an announcement again but never losing
    #: one (the commit that writes an announcement is not bookkeeping): a backend may commit
    #: it without waiting for the disk.
    bookkeeping: bool = False


def fits_int64(value: object) -> bool:
    """Whether a value can be compared with a BIGINT column (larger ints overflow)."""
    return (
        isinstance(value, int) and not isinstance(value, bool) and INT64_MIN <= value <= INT64_MAX
    )


def new_claim() -> str:
    """A fresh claim token: proves that a later mark_sent comes from the claimant."""
    return secrets.token_hex(8)


def check_record(record: object, index: int) -> str:
    """Return a log record's kind, or raise InvalidDataError if the record is malformed."""
    if not isinstance(record, Mapping):
        raise InvalidDataError(f"record {index} must be a mapping, not {type(record).__name__}")
    kind = record.get("kind")
    if not isinstance(kind, str) or not kind:
        raise InvalidDataError(f"record {index} needs a non-empty string 'kind'")
    return kind


@contextlib.asynccontextmanager
async def savepoint(db: Tx) -> AsyncIterator[None]:
    """Undo only the statements inside the block when it fails; the transaction goes on.

    PostgreSQL aborts a whole transaction at its first error, so a statement whose failure
    is an answer (a unique index deciding a race) runs inside a savepoint.
    """
    await db.execute("SAVEPOINT attempt")
    try:
        yield
    except BaseException as failure:
        try:
            await db.execute("ROLLBACK TO SAVEPOINT attempt")
            await db.execute("RELEASE SAVEPOINT attempt")
        except Exception as exc:
            # The whole transaction is gone already (SQLite rolls back by itself on a full
            # disk; a lost connection takes it along): the first failure is the news.
            log.debug("savepoint rollback failed after %r: %s", failure, exc)
        raise
    await db.execute("RELEASE SAVEPOINT attempt")


class SqlStore(ABC):
    """A Store over SQL. Subclasses run transactions and fill in the dialect hooks.

    Every operation is one transaction through `_tx`, shielded so that a cancelled caller
    never leaves a transaction half-done: it commits or rolls back on its own.
    """

    #: Appended to a claim's row selection: PostgreSQL locks the rows it picks and skips
    #: those another process is claiming (SQLite's writers take turns and need nothing).
    def _skip_locked(self, alias: str) -> str:
        """The locking clause for a claim's subquery on table `alias`."""
        return ""

    #: Appended to a SELECT of one row that the transaction then updates.
    _FOR_UPDATE = ""

    def __init__(
        self,
        *,
        clock: Clock,
        outbox_backoff_ms: tuple[int, int] = (5_000, 3_600_000),
        outbox_max_attempts: int = 20,
    ) -> None:
        """Keep the clock and the outbox's retry policy."""
        self._clock = clock
        self._tasks: set[asyncio.Future[Any]] = set()
        self._backoff_base, self._backoff_cap = outbox_backoff_ms
        self._max_attempts = outbox_max_attempts

    async def __aenter__(self) -> Self:
        """Use the store as an async context manager that closes it."""
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Close the store."""
        await self.close()

    @abstractmethod
    async def close(self) -> None:
        """Let running transactions finish, then release the backend's connections."""

    # -- what a backend provides ------------------------------------------------------

    @abstractmethod
    async def _run_tx(self, body: Callable[[Tx], Awaitable[T]], mode: TxMode) -> T:
        """Run `body` in one transaction as `mode` says, and commit it."""

    @abstractmethod
    def _unique_index(self, exc: BaseException) -> str | None:
        """The unique index (one of the names above) that `exc` says was violated, or None
        when `exc` is not a unique violation."""

    async def _lock_game(self, db: Tx, game_id: int) -> None:
        """Keep other transactions from changing the game's row and seats until commit."""
        return None  # a default for backends that serialise writers anyway (SQLite)

    async def _notify(self, db: Tx, topic: str) -> None:
        """Tell other processes, when this transaction commits, that `topic` has work."""
        return None  # a default for backends with one process (SQLite)

    # -- transactions ------------------------------------------------------------------

    async def _tx(
        self,
        body: Callable[[Tx], Awaitable[T]],
        *,
        write: bool = True,
        alone: bool = False,
        bookkeeping: bool = False,
    ) -> T:
        """Run `body` in one transaction (see `_run_tx` for `alone` and `bookkeeping`); the
        transaction finishes even if we are cancelled."""
        task = asyncio.ensure_future(self._run_tx(body, TxMode(write, alone, bookkeeping)))
        self._tasks.add(task)
        task.add_done_callback(self._tx_done)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            # The cancellation reaches the caller once the transaction has ended, so that
            # whatever the caller does next sees its outcome (a pooled backend would
            # otherwise run the next operation beside it).
            await asyncio.wait({task})
            raise

    def _tx_done(self, task: asyncio.Future[Any]) -> None:
        """Forget a finished transaction; retrieve its error so that none goes unreported."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.debug("store transaction failed: %r", task.exception())

    async def _finish_transactions(self) -> None:
        """Wait for the transactions still running (before closing)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

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
        """Create an active game with a new store-wide id (see Store.create_game)."""
        if not isinstance(options, Mapping):
            raise InvalidDataError("options must be a mapping")
        if not isinstance(engine_version, str) or not engine_version:
            raise InvalidDataError("engine_version must be a non-empty string")
        row = {
            "guild_id": check_int64(guild_id, "guild_id"),
            "channel_id": check_int64(channel_id, "channel_id"),
            "status": ACTIVE,
            "options": dump_json(dict(options), "options"),
            "seed": check_int64(seed, "seed"),
            "engine_version": engine_version,
            "creator_id": check_int64(creator_id, "creator_id"),
            "created_at": None,
            "ended_at": None,
        }
        history = [
            {"seat": i, "user_id": check_int64(u, "seat user id"), "joined_at": None}
            for i, u in enumerate(seats)
        ]

        async def body(db: Tx) -> Game:
            now = self._clock()
            game_id = await self._insert_game(db, {**row, "created_at": now}, now)
            await self._insert_seats(db, game_id, history, now)
            return await self._load_game(db, game_id)

        return await self._tx(body)

    async def _insert_game(self, db: Tx, row: dict[str, Any], now: int) -> int:
        """Insert a games row and return its id; ChannelBusyError if the channel is taken.

        The game's number is the server's highest plus one. Where writers take turns
        (SQLite) it cannot collide; where they run side by side (PostgreSQL) two new games of
        one server may pick the same number, and the (guild_id, number) unique index lets
        exactly one keep it: the other reads the new highest number and tries again.
        """
        params = (
            row["guild_id"],
            row["channel_id"],
            row["status"],
            row["options"],
            row["seed"],
            row["engine_version"],
            row["creator_id"],
            row["created_at"],
            now,
            row["ended_at"],
            row["guild_id"],
        )
        for _ in range(_NUMBER_TRIES):
            try:
                async with savepoint(db):
                    inserted = await db.fetchone(
                        "INSERT INTO games (guild_id, channel_id, status, options, seed,"
                        " engine_version, creator_id, created_at, updated_at, ended_at, number)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        "  (SELECT COALESCE(MAX(number), 0) + 1 FROM games WHERE guild_id = ?))"
                        " RETURNING id",
                        params,
                    )
            except Exception as exc:
                index = self._unique_index(exc)
                if index == NUMBER_IN_GUILD:
                    continue
                if index != ONE_ACTIVE_PER_CHANNEL:
                    raise
                busy = await _active_id(db, row["channel_id"])
                raise ChannelBusyError(row["channel_id"], busy) from None
            assert inserted is not None
            return int(inserted[0])
        raise RuntimeError(f"no free game number in guild {row['guild_id']} after retries")

    async def _insert_seats(
        self, db: Tx, game_id: int, history: Sequence[Mapping[str, Any]], now: int
    ) -> None:
        """Insert seat rows; a None joined_at means now."""
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, joined_at, replaced_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    s["seat"],
                    s["user_id"],
                    now if s.get("joined_at") is None else s["joined_at"],
                    s.get("replaced_at"),
                )
                for s in history
            ],
        )

    async def get_game(self, game_id: int) -> Game:
        """The game with this id (see Store.get_game)."""
        if not fits_int64(game_id):
            raise GameNotFoundError(game_id)
        return await self._tx(lambda db: self._load_game(db, game_id), write=False, alone=True)

    async def game_by_number(self, guild_id: int, number: int) -> Game:
        """The game with this number in a server (see Store.game_by_number)."""

        async def body(db: Tx) -> Game:
            game = await _game_where(db, "guild_id = ? AND number = ?", (guild_id, number))
            if game is None:
                raise GameNotFoundError(number)
            return game

        if not (fits_int64(guild_id) and fits_int64(number)):
            raise GameNotFoundError(number)
        return await self._tx(body, write=False, alone=True)

    async def active_game(self, channel_id: int) -> Game | None:
        """The channel's active game, if any (one statement: asked on every autocomplete)."""

        async def body(db: Tx) -> Game | None:
            return await _game_where(db, "channel_id = ? AND status = 'active'", (channel_id,))

        return await self._tx(body, write=False, alone=True)

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
        """Games matching every given filter, newest first (see Store.list_games)."""
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if channel_id is not None:
            where.append("channel_id = ?")
            params.append(channel_id)
        if seed is not None:
            where.append("seed = ?")
            params.append(seed)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if user_id is not None:
            where.append(
                "id IN (SELECT game_id FROM seats WHERE user_id = ? AND replaced_at IS NULL)"
            )
            params.append(user_id)
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)

        async def body(db: Tx) -> list[Game]:
            rows = await db.fetch(sql, params)
            seats = await _load_seats(db, [r[0] for r in rows])
            return [_game_from_row(r, seats.get(r[0], ())) for r in rows]

        return await self._tx(body, write=False)

    async def set_status(self, game_id: int, status: str) -> Game:
        """Change a game's status (see Store.set_status)."""
        if status not in STATUSES:
            raise InvalidDataError(f"unknown status {status!r}; expected one of {sorted(STATUSES)}")

        async def body(db: Tx) -> Game:
            await self._lock_game(db, game_id)
            game = await self._load_game(db, game_id)
            now = self._clock()
            ended_at = None if status == ACTIVE else (game.ended_at or now)
            try:
                async with savepoint(db):
                    await db.execute(
                        "UPDATE games SET status = ?, updated_at = ?, ended_at = ? WHERE id = ?",
                        (status, now, ended_at, game_id),
                    )
            except Exception as exc:
                if self._unique_index(exc) != ONE_ACTIVE_PER_CHANNEL:
                    raise
                raise ChannelBusyError(
                    game.channel_id, await _active_id(db, game.channel_id)
                ) from None
            if status != ACTIVE:
                # Nobody is waited for in a game that is over.
                await db.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            return await self._load_game(db, game_id)

        return await self._tx(body)

    async def replace_seat(self, game_id: int, seat: int, user_id: int) -> Game:
        """Give a seat to another user, keeping the history (see Store.replace_seat)."""
        check_int64(user_id, "user_id")

        async def body(db: Tx) -> Game:
            await self._lock_game(db, game_id)
            game = await self._load_game(db, game_id)
            current = {s.seat: s.user_id for s in game.seats}
            if seat not in current:
                raise InvalidDataError(f"game {game_id} has no seat {seat}")
            if current[seat] == user_id:
                raise InvalidDataError(f"user {user_id} already sits at seat {seat}")
            now = self._clock()
            await _vacate(db, game_id, seat, now)
            await self._insert_seats(db, game_id, [{"seat": seat, "user_id": user_id}], now)
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return await self._load_game(db, game_id)

        return await self._tx(body)

    async def set_seats(self, game_id: int, user_ids: Sequence[int]) -> Game:
        """Make the current seating `user_ids` (see Store.set_seats)."""
        wanted = [check_int64(u, "seat user id") for u in user_ids]

        async def body(db: Tx) -> Game:
            await self._lock_game(db, game_id)
            game = await self._load_game(db, game_id)
            current = {s.seat: s.user_id for s in game.seats}
            now = self._clock()
            changed = False
            for seat in sorted(current):
                if seat >= len(wanted) or current[seat] != wanted[seat]:
                    await _vacate(db, game_id, seat, now)
                    changed = True
            new = [{"seat": i, "user_id": u} for i, u in enumerate(wanted) if current.get(i) != u]
            if new:
                await self._insert_seats(db, game_id, new, now)
                changed = True
            if not changed:
                return game
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return await self._load_game(db, game_id)

        return await self._tx(body)

    async def _load_game(self, db: Tx, game_id: int) -> Game:
        """Read one game with its seats; GameNotFoundError if absent."""
        game = await _game_where(db, "games.id = ?", (game_id,))
        if game is None:
            raise GameNotFoundError(game_id)
        return game

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
        """Append records, snapshot, outbox, results and reminders atomically (see
        Store.append)."""
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise InvalidDataError("expected_version must be an integer")
        if expected_version < 0:
            raise InvalidDataError(f"expected_version must be >= 0, not {expected_version}")
        if not records:
            raise InvalidDataError("append needs at least one record")
        rows = [
            (expected_version + i, check_record(r, i), dump_json(dict(r), f"record {i}"))
            for i, r in enumerate(records, start=1)
        ]
        new_version = expected_version + len(rows)
        state = None if snapshot is None else dump_json(snapshot, "snapshot")
        payloads = [dump_json(dict(p), "outbox payload") for p in outbox]
        result_rows = None if result is None else _result_rows(result)
        for due in reminders or ():
            check_int64(due.user_id, "user_id")
            check_int64(due.due_at, "due_at")
            if due.kind not in REMINDER_KINDS:
                raise InvalidDataError(f"reminder kind must be one of {sorted(REMINDER_KINDS)}")

        async def body(db: Tx) -> int:
            game = await db.fetchone(
                "SELECT channel_id, guild_id FROM games WHERE id = ?", (game_id,)
            )
            if game is None:
                raise GameNotFoundError(game_id)
            if expected_version > 0 and not await _has_seq(db, game_id, expected_version):
                # Not a race (versions only grow): the caller invented a version.
                raise InvalidDataError(
                    f"game {game_id} has no version {expected_version} to append after"
                )
            now = self._clock()
            try:
                async with savepoint(db):
                    await db.executemany(
                        "INSERT INTO log (game_id, seq, kind, body, created_at)"
                        " VALUES (?, ?, ?, ?, ?)",
                        [(game_id, seq, kind, body_, now) for seq, kind, body_ in rows],
                    )
            except Exception as exc:
                if self._unique_index(exc) != LOG_SEQ:
                    raise
                # The (game_id, seq) key decided: someone else appended at this version.
                current = await _max_seq(db, game_id)
                raise StaleVersionError(game_id, expected_version, current) from None
            if state is not None:
                await db.execute(
                    "INSERT INTO snapshots (game_id, version, state, created_at)"
                    " VALUES (?, ?, ?, ?)",
                    (game_id, new_version, state, now),
                )
            if payloads:
                await db.executemany(
                    "INSERT INTO outbox (game_id, version, channel_id, payload, created_at,"
                    " next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, new_version, game[0], p, now, now) for p in payloads],
                )
                await self._notify(db, OUTBOX_TOPIC)
            if reminders is not None:
                await db.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
                if reminders:
                    await db.executemany(
                        "INSERT INTO reminders (game_id, user_id, due_at, sent_count, kind)"
                        " VALUES (?, ?, ?, 0, ?)",
                        [(game_id, due.user_id, due.due_at, due.kind) for due in reminders],
                    )
            if result_rows is not None:
                await db.execute(
                    "UPDATE games SET status = 'finished', ended_at = ? WHERE id = ?",
                    (now, game_id),
                )
                await db.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
                await self._insert_result(db, game_id, game[1], result_rows, new_version, now)
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return new_version

        return await self._tx(body)

    async def version(self, game_id: int) -> int:
        """The game's version (see Store.version)."""

        async def body(db: Tx) -> int:
            return (await self._load_game(db, game_id)).version  # its log's highest seq

        return await self._tx(body, write=False, alone=True)

    async def read_log(
        self, game_id: int, *, after: int = 0, upto: int | None = None
    ) -> list[LogEntry]:
        """Log records with after < seq <= upto, in order (see Store.read_log)."""
        sql = "SELECT seq, kind, body, created_at FROM log WHERE game_id = ? AND seq > ?"
        params: list[Any] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        sql += " ORDER BY seq"

        async def body(db: Tx) -> list[LogEntry]:
            await self._load_game(db, game_id)
            rows = await db.fetch(sql, params)
            return [LogEntry(game_id, r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

        return await self._tx(body, write=False)

    async def latest_snapshot(
        self, game_id: int, *, at_or_before: int | None = None
    ) -> Snapshot | None:
        """The newest snapshot at or before a version (see Store.latest_snapshot)."""
        sql = "SELECT version, state, created_at FROM snapshots WHERE game_id = ?"
        params: list[Any] = [game_id]
        if at_or_before is not None:
            sql += " AND version <= ?"
            params.append(at_or_before)
        sql += " ORDER BY version DESC LIMIT 1"

        async def body(db: Tx) -> Snapshot | None:
            row = await db.fetchone(sql, params)
            return None if row is None else Snapshot(game_id, row[0], json.loads(row[1]), row[2])

        return await self._tx(body, write=False, alone=True)

    # -- the outbox --------------------------------------------------------------------

    async def claim_outbox(
        self, *, owner: ClaimOwner | None = None, limit: int = 10, lease_ms: int = 60_000
    ) -> list[OutboxItem]:
        """Claim due announcements with one UPDATE (see Store.claim_outbox)."""
        instance, run = (owner.instance, owner.run) if owner else (None, None)

        async def body(db: Tx) -> list[OutboxItem]:
            now = self._clock()
            # Only the oldest unfinished item of each game is eligible, so a game's
            # announcements are posted in the order its turns were committed. Those heads are
            # found once, in one pass over the unsent index grouped by game (materialized:
            # once, whatever the planner guesses), then each is looked up by its id. On a
            # table without statistics yet (a new or just moved database), PostgreSQL planned
            # the former "no older unsent item of the game" test as a scan of the whole
            # unsent index for every unsent item (2,000 waiting: 1.9 s a claim) and, given
            # the unsent test on `o` as `sent_at IS NULL`, looked the heads up through that
            # index too (45 ms); asked as COALESCE it cannot, and takes the primary key. The
            # test stays on `o` so that a row marked sent meanwhile is never claimed (it is
            # checked again on the row's newest version once locked).
            rows = await db.fetch(
                "WITH heads AS MATERIALIZED (SELECT MIN(id) AS id FROM outbox"
                "  WHERE sent_at IS NULL AND failed_at IS NULL GROUP BY game_id)"
                " UPDATE outbox SET claim_token = ?, claimed_until = ?, attempts = attempts + 1,"
                " claim_instance = ?, claim_run = ?"
                " WHERE id IN (SELECT o.id FROM heads JOIN outbox AS o ON o.id = heads.id"
                "  WHERE COALESCE(o.sent_at, o.failed_at) IS NULL AND o.next_attempt_at <= ?"
                "  AND (o.claimed_until IS NULL OR o.claimed_until <= ?)"
                f"  ORDER BY o.id LIMIT ?{self._skip_locked('o')})"
                f" RETURNING {_OUTBOX_COLUMNS}",
                (new_claim(), now + lease_ms, instance, run, now, now, limit),
            )
            return sorted((_outbox_from_row(r) for r in rows), key=lambda i: i.id)

        return await self._tx(body, alone=True, bookkeeping=True)

    async def renew_outbox_claims(self, owner: ClaimOwner, *, lease_ms: int) -> int:
        """Extend the owner's leases (see Store.renew_outbox_claims)."""

        async def body(db: Tx) -> int:
            return await db.execute(
                "UPDATE outbox SET claimed_until = ?"
                " WHERE claim_instance = ? AND claim_run = ? AND claim_token IS NOT NULL"
                " AND sent_at IS NULL",
                (self._clock() + lease_ms, owner.instance, owner.run),
            )

        return await self._tx(body, alone=True, bookkeeping=True)

    async def recover_outbox_claims(self, owner: ClaimOwner) -> int:
        """Free what earlier runs of the instance held (see Store.recover_outbox_claims)."""

        async def body(db: Tx) -> int:
            count = await db.execute(
                f"UPDATE outbox SET {_NO_CLAIM}"
                " WHERE claim_instance = ? AND claim_run <> ? AND claim_token IS NOT NULL"
                " AND sent_at IS NULL",
                (owner.instance, owner.run),
            )
            if count:
                await self._notify(db, OUTBOX_TOPIC)
            return count

        return await self._tx(body, bookkeeping=True)

    async def mark_sent(self, item_id: int, claim: str, message_id: int) -> bool:
        """Record a posted announcement (see Store.mark_sent)."""
        check_int64(message_id, "message_id")

        async def body(db: Tx) -> bool:
            changed = await db.execute(
                f"UPDATE outbox SET sent_at = ?, message_id = ?, {_NO_CLAIM}, last_error = NULL"
                " WHERE id = ? AND claim_token = ? AND sent_at IS NULL",
                (self._clock(), message_id, item_id, claim),
            )
            return changed == 1

        return await self._tx(body, alone=True, bookkeeping=True)

    def backoff_ms(self, attempts: int) -> int:
        """How long to wait before the next try after `attempts` failed ones."""
        return min(self._backoff_base * 2 ** max(attempts - 1, 0), self._backoff_cap)

    async def release_outbox(self, item_id: int, claim: str) -> bool:
        """Give an unsent claim back (see Store.release_outbox)."""

        async def body(db: Tx) -> bool:
            changed = await db.execute(
                f"UPDATE outbox SET {_NO_CLAIM},"
                " attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END"
                " WHERE id = ? AND claim_token = ? AND sent_at IS NULL",
                (item_id, claim),
            )
            if changed:
                await self._notify(db, OUTBOX_TOPIC)
            return changed == 1

        return await self._tx(body, bookkeeping=True)

    async def retry_outbox(
        self, item_id: int, claim: str, error: str, *, give_up: bool = False
    ) -> int | None:
        """Release a failed announcement for a later retry (see Store.retry_outbox)."""

        async def body(db: Tx) -> int | None:
            row = await db.fetchone(
                "SELECT attempts FROM outbox WHERE id = ? AND claim_token = ? AND sent_at IS NULL"
                + self._FOR_UPDATE,
                (item_id, claim),
            )
            if row is None:
                return None  # the claim was lost: whoever holds it now decides
            now = self._clock()
            attempts = int(row[0])
            if give_up or attempts >= self._max_attempts:
                await db.execute(
                    f"UPDATE outbox SET failed_at = ?, last_error = ?, {_NO_CLAIM} WHERE id = ?",
                    (now, error[:1000], item_id),
                )
                if not give_up:
                    log.warning("outbox item %d given up after %d attempts", item_id, attempts)
                return None
            due = now + self.backoff_ms(attempts)
            await db.execute(
                f"UPDATE outbox SET next_attempt_at = ?, last_error = ?, {_NO_CLAIM} WHERE id = ?",
                (due, error[:1000], item_id),
            )
            return due

        return await self._tx(body, bookkeeping=True)

    async def last_message_id(self, game_id: int, *, before_item: int | None = None) -> int | None:
        """The newest sent announcement's message id (see Store.last_message_id)."""
        limit = INT64_MAX if before_item is None else before_item

        async def body(db: Tx) -> int | None:
            row = await db.fetchone(
                "SELECT message_id FROM outbox WHERE game_id = ? AND id < ?"
                " AND sent_at IS NOT NULL ORDER BY id DESC LIMIT 1",
                (game_id, limit),
            )
            return None if row is None else int(row[0])

        return await self._tx(body, write=False, alone=True)

    async def pending_outbox(self, game_id: int) -> list[OutboxItem]:
        """A game's unsent announcements, oldest first (see Store.pending_outbox)."""

        async def body(db: Tx) -> list[OutboxItem]:
            rows = await db.fetch(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? AND sent_at IS NULL"
                " AND failed_at IS NULL ORDER BY id",
                (game_id,),
            )
            return [_outbox_from_row(r) for r in rows]

        return await self._tx(body, write=False, alone=True)

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
        """Create or replace a reminder schedule (see Store.set_reminder)."""
        check_int64(user_id, "user_id")
        check_int64(due_at, "due_at")
        if kind not in REMINDER_KINDS:
            raise InvalidDataError(f"reminder kind must be one of {sorted(REMINDER_KINDS)}")

        async def body(db: Tx) -> None:
            await self._load_game(db, game_id)
            # A new schedule also voids any claim on the old one.
            await db.execute(
                "INSERT INTO reminders (game_id, user_id, due_at, sent_count, kind)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET due_at = excluded.due_at,"
                " sent_count = excluded.sent_count, kind = excluded.kind,"
                " claim_token = NULL, claimed_until = NULL",
                (game_id, user_id, due_at, sent_count, kind),
            )

        await self._tx(body)

    async def clear_reminders(self, game_id: int, user_id: int | None = None) -> None:
        """Drop one player's or all of a game's reminders (see Store.clear_reminders)."""
        sql, params = "DELETE FROM reminders WHERE game_id = ?", [game_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)

        async def body(db: Tx) -> None:
            await db.execute(sql, params)

        await self._tx(body)

    async def reminders(self, game_id: int) -> list[Reminder]:
        """A game's reminder schedules (see Store.reminders)."""

        async def body(db: Tx) -> list[Reminder]:
            rows = await db.fetch(
                f"SELECT {_REMINDER_COLUMNS} FROM reminders WHERE game_id = ? ORDER BY user_id",
                (game_id,),
            )
            return [_reminder_from_row(r) for r in rows]

        return await self._tx(body, write=False, alone=True)

    async def claim_reminders(self, *, limit: int = 50, lease_ms: int = 60_000) -> list[Reminder]:
        """Claim due reminders with one atomic UPDATE (see Store.claim_reminders)."""

        async def body(db: Tx) -> list[Reminder]:
            now = self._clock()
            rows = await db.fetch(
                "UPDATE reminders SET claim_token = ?, claimed_until = ?"
                " WHERE (game_id, user_id) IN (SELECT r.game_id, r.user_id FROM reminders AS r"
                "  JOIN games AS g ON g.id = r.game_id"
                "  WHERE g.status = 'active' AND r.due_at <= ?"
                "  AND (r.claimed_until IS NULL OR r.claimed_until <= ?)"
                f"  ORDER BY r.due_at, r.game_id, r.user_id LIMIT ?{self._skip_locked('r')})"
                f" RETURNING {_REMINDER_COLUMNS}",
                (new_claim(), now + lease_ms, now, now, limit),
            )
            return sorted(
                (_reminder_from_row(r) for r in rows), key=lambda r: (r.due_at, r.game_id)
            )

        return await self._tx(body)

    async def reminder_sent(self, reminder: Reminder, *, next_due_at: int | None) -> bool:
        """Record a sent reminder and schedule or drop the next (see Store.reminder_sent)."""
        if reminder.claim is None:
            raise InvalidDataError("reminder_sent needs a reminder from claim_reminders")
        key = (reminder.game_id, reminder.user_id, reminder.claim)

        async def body(db: Tx) -> bool:
            if next_due_at is None:
                changed = await db.execute(
                    "DELETE FROM reminders WHERE game_id = ? AND user_id = ? AND claim_token = ?",
                    key,
                )
            else:
                changed = await db.execute(
                    "UPDATE reminders SET due_at = ?, sent_count = sent_count + 1,"
                    " last_sent_at = ?, claim_token = NULL, claimed_until = NULL"
                    " WHERE game_id = ? AND user_id = ? AND claim_token = ?",
                    (next_due_at, self._clock(), *key),
                )
            return changed == 1

        return await self._tx(body)

    # -- per-user settings -------------------------------------------------------------

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """A user's settings, defaults if none (see Store.get_user_settings)."""

        async def body(db: Tx) -> UserSettings:
            row = await db.fetchone(
                "SELECT time_zone, quiet_start, quiet_end, dm_opt_in, skip_confirm,"
                " reminder_hours, updated_at, theme, heads_up"
                " FROM user_settings WHERE user_id = ?",
                (user_id,),
            )
            if row is None:
                return UserSettings(user_id)
            tz, q_start, q_end, dm, skip, hours, updated, theme, heads_up = row
            return UserSettings(
                user_id,
                tz,
                q_start,
                q_end,
                bool(dm),
                bool(skip),
                hours,
                updated,
                theme,
                bool(heads_up),
            )

        return await self._tx(body, write=False, alone=True)

    async def put_user_settings(self, settings: UserSettings) -> UserSettings:
        """Store a user's settings (see Store.put_user_settings)."""

        async def body(db: Tx) -> UserSettings:
            now = self._clock()
            s = settings
            await db.execute(
                "INSERT INTO user_settings (user_id, time_zone, quiet_start, quiet_end,"
                " dm_opt_in, skip_confirm, reminder_hours, updated_at, theme, heads_up)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone,"
                " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
                " dm_opt_in = excluded.dm_opt_in, skip_confirm = excluded.skip_confirm,"
                " reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at,"
                " theme = excluded.theme, heads_up = excluded.heads_up",
                (
                    s.user_id,
                    s.time_zone,
                    s.quiet_start,
                    s.quiet_end,
                    bool(s.dm_opt_in),
                    bool(s.skip_confirm),
                    s.reminder_hours,
                    now,
                    s.theme,
                    int(bool(s.heads_up)),
                ),
            )
            return UserSettings(
                s.user_id,
                s.time_zone,
                s.quiet_start,
                s.quiet_end,
                s.dm_opt_in,
                s.skip_confirm,
                s.reminder_hours,
                now,
                s.theme,
                bool(s.heads_up),
            )

        return await self._tx(body)

    # -- results and statistics --------------------------------------------------------

    async def record_result(self, game_id: int, result: GameResult, *, version: int) -> bool:
        """Keep a finished game's results if it has none (see Store.record_result)."""
        rows = _result_rows(result)
        check_int64(version, "version")

        async def body(db: Tx) -> bool:
            game = await self._load_game(db, game_id)
            if game.status != FINISHED:
                raise InvalidDataError(f"game {game_id} is {game.status}, not finished")
            if not await _has_seq(db, game_id, version):
                raise InvalidDataError(f"game {game_id} has no version {version}")
            if await db.fetchone("SELECT 1 FROM results WHERE game_id = ?", (game_id,)):
                return False
            ended = game.ended_at if game.ended_at is not None else game.updated_at
            await self._insert_result(db, game_id, game.guild_id, rows, version, ended)
            return True

        return await self._tx(body)

    async def games_without_results(self, *, after_id: int = 0, limit: int = 100) -> list[int]:
        """Finished games without results, by id (see Store.games_without_results)."""

        async def body(db: Tx) -> list[int]:
            rows = await db.fetch(
                "SELECT g.id FROM games AS g WHERE g.status = 'finished' AND g.id > ?"
                " AND NOT EXISTS (SELECT 1 FROM results AS r WHERE r.game_id = g.id)"
                " ORDER BY g.id LIMIT ?",
                (after_id, limit),
            )
            return [int(r[0]) for r in rows]

        return await self._tx(body, write=False)

    async def game_result(self, game_id: int) -> FinishedGame | None:
        """A finished game's results (see Store.game_result)."""
        if not fits_int64(game_id):
            return None

        async def body(db: Tx) -> FinishedGame | None:
            found = await _read_results(db, "r.game_id = ?", [game_id], "", [])
            return found[0] if found else None

        return await self._tx(body, write=False)

    async def finished_games(
        self,
        guild_id: int,
        filters: StatsFilter = ANY_GAME,
        *,
        user_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> ResultsPage:
        """A page of a server's finished games, newest first (see Store.finished_games)."""
        clauses, params = _filter_clauses(guild_id, filters)
        where = " AND ".join(clauses)
        if user_id is not None:
            where += " AND r.game_id IN (SELECT game_id FROM result_seats WHERE user_id = ?)"
            params.append(user_id)

        async def body(db: Tx) -> ResultsPage:
            total = await _count(db, f"SELECT COUNT(*) FROM results AS r WHERE {where}", params)
            games = await _read_results(
                db,
                where,
                params,
                " ORDER BY r.ended_at DESC, r.game_id DESC LIMIT ? OFFSET ?",
                [max(limit, 0), max(offset, 0)],
            )
            return ResultsPage(tuple(games), int(total))

        if not (fits_int64(guild_id) and (user_id is None or fits_int64(user_id))):
            return ResultsPage((), 0)
        return await self._tx(body, write=False)

    async def stats(
        self, guild_id: int, filters: StatsFilter = ANY_GAME, *, user_id: int | None = None
    ) -> Stats:
        """A server's tallies over matching finished games (see Store.stats)."""
        where, params = _filter_clauses(guild_id, filters)
        games_where = " AND ".join(where)
        games_params = list(params)
        if user_id is not None:
            games_where += " AND r.game_id IN (SELECT game_id FROM result_seats WHERE user_id = ?)"
            games_params.append(user_id)
        # The seats' own copies of the game's columns: one covering index per tally.
        seat_clauses, seats_params = _filter_clauses(guild_id, filters, table="s")
        seats_where = " AND ".join(seat_clauses)
        if user_id is not None:
            seats_where += " AND s.user_id = ?"
            seats_params.append(user_id)
        # Automa seats, and seats the AI held at the end or played 3+ turns of, count in no
        # tally (bot/store/results.py).
        seats_where += (
            " AND s.user_id IS NOT NULL AND s.automa = FALSE AND s.ai_at_end = FALSE"
            " AND s.ai_turns < ?"
        )
        seats_params.append(AI_TURNS_NOT_COUNTED)

        async def tallies(db: Tx, column: str) -> tuple[Tally, ...]:
            rows = await db.fetch(
                f"SELECT s.{column}, s.rank, COUNT(*), SUM(s.vp), MAX(s.vp)"
                f" FROM result_seats AS s WHERE {seats_where} GROUP BY s.{column}, s.rank",
                seats_params,
            )
            return _fold_tallies(rows)

        async def body(db: Tx) -> Stats:
            counts = await _game_counts(db, guild_id)
            matched = await _count(
                db, f"SELECT COUNT(*) FROM results AS r WHERE {games_where}", games_params
            )
            return Stats(
                counts,
                int(matched),
                await tallies(db, "user_id"),
                await tallies(db, "company"),
                await tallies(db, "officer"),
            )

        if not (fits_int64(guild_id) and (user_id is None or fits_int64(user_id))):
            return Stats(GameCounts(), 0, (), (), ())
        return await self._tx(body, write=False)

    async def rating_games(
        self, guild_id: int, *, after: tuple[int, int] | None = None
    ) -> RatingGames:
        """A server's finished games in the ratings' order (see Store.rating_games)."""
        where = "r.guild_id = ?"
        params: list[Any] = [guild_id]
        if after is not None:
            ended, game_id = (check_int64(x, "rating key") for x in after)
            where += " AND (r.ended_at > ? OR (r.ended_at = ? AND r.game_id > ?))"
            params += [ended, ended, game_id]

        async def body(db: Tx) -> RatingGames:
            total = await _count(
                db, "SELECT COUNT(*) FROM results AS r WHERE r.guild_id = ?", [guild_id]
            )
            rows = await db.fetch(
                "SELECT r.game_id, r.ended_at, r.hints, s.user_id, s.rank, s.automa, s.ai_turns,"
                " s.ai_at_end, s.hints_used FROM results AS r"
                " JOIN result_seats AS s ON s.game_id = r.game_id"
                f" WHERE {where} ORDER BY r.ended_at, r.game_id, s.seat",
                params,
            )
            return RatingGames(_rating_games(rows), total)

        if not fits_int64(guild_id):
            return RatingGames((), 0)
        return await self._tx(body, write=False)

    async def _insert_result(
        self,
        db: Tx,
        game_id: int,
        guild_id: int,
        rows: tuple[tuple[Any, ...], list[tuple[Any, ...]]],
        version: int,
        ended_at: int,
    ) -> None:
        """Insert a game's results rows (`_result_rows`)."""
        game, seats = rows
        try:
            async with savepoint(db):
                await db.execute(
                    "INSERT INTO results (game_id, guild_id, version, players, setup, map,"
                    " expansions, rounds, hints, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, guild_id, version, *game, ended_at),
                )
        except Exception as exc:
            if self._unique_index(exc) != RESULTS_KEY:
                raise
            raise InvalidDataError(f"game {game_id} has its results already") from None
        players, setup, _map, expansions, _rounds, _hints = game
        await db.executemany(
            "INSERT INTO result_seats (game_id, guild_id, players, setup, expansions, seat,"
            " user_id, automa, company, officer, vp, rank, vp_by_source, energy_by_round,"
            " ai_turns, ai_at_end, hints_used)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, guild_id, players, setup, expansions, *seat) for seat in seats],
        )

    # -- moving games ------------------------------------------------------------------

    async def export_game(self, game_id: int) -> dict[str, Any]:
        """The whole game as one JSON-able document (see Store.export_game)."""

        async def body(db: Tx) -> dict[str, Any]:
            game = await self._load_game(db, game_id)
            rows = await db.fetch(
                "SELECT seq, body, created_at FROM log WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
            return {
                "format": EXPORT_FORMAT,
                "format_version": EXPORT_FORMAT_VERSION,
                "source_game_id": game.id,
                "status": game.status,
                "options": dict(game.options),
                "seed": game.seed,
                "engine_version": game.engine_version,
                "creator_id": game.creator_id,
                "created_at": game.created_at,
                "ended_at": game.ended_at,
                "seats": [
                    {
                        "seat": s.seat,
                        "user_id": s.user_id,
                        "joined_at": s.joined_at,
                        "replaced_at": s.replaced_at,
                    }
                    for s in game.seat_history
                ],
                "log": [{"seq": r[0], "at": r[2], "record": json.loads(r[1])} for r in rows],
            }

        return await self._tx(body, write=False)

    async def import_game(self, doc: Mapping[str, Any], *, guild_id: int, channel_id: int) -> Game:
        """Insert an exported game under a new id (see Store.import_game)."""
        parsed = parse_export(doc)
        row = {
            "guild_id": check_int64(guild_id, "guild_id"),
            "channel_id": check_int64(channel_id, "channel_id"),
            "status": parsed.status,
            "options": dump_json(parsed.options, "options"),
            "seed": parsed.seed,
            "engine_version": parsed.engine_version,
            "creator_id": parsed.creator_id,
            "created_at": parsed.created_at,
            "ended_at": parsed.ended_at,
        }
        log_rows = [
            (seq, check_record(rec, seq), dump_json(rec, f"log record {seq}"), at)
            for seq, at, rec in parsed.log
        ]

        async def body(db: Tx) -> Game:
            now = self._clock()
            game_id = await self._insert_game(db, row, now)
            await self._insert_seats(db, game_id, parsed.seats, now)
            await db.executemany(
                "INSERT INTO log (game_id, seq, kind, body, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, *r) for r in log_rows],
            )
            return await self._load_game(db, game_id)

        return await self._tx(body)


async def _active_id(db: Tx, channel_id: int) -> int | None:
    """The id of the channel's active game, if any."""
    row = await db.fetchone(
        "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
    )
    return None if row is None else int(row[0])


async def _vacate(db: Tx, game_id: int, seat: int, now: int) -> None:
    """End the current occupancy of a seat (its row stays as history)."""
    await db.execute(
        "UPDATE seats SET replaced_at = ? WHERE game_id = ? AND seat = ? AND replaced_at IS NULL",
        (now, game_id, seat),
    )


async def _max_seq(db: Tx, game_id: int) -> int:
    """The highest log sequence number of a game (its version), 0 for an empty log."""
    row = await db.fetchone("SELECT COALESCE(MAX(seq), 0) FROM log WHERE game_id = ?", (game_id,))
    return int(row[0]) if row else 0


async def _has_seq(db: Tx, game_id: int, seq: int) -> bool:
    """Whether the game's log has a record with this sequence number."""
    return (
        await db.fetchone("SELECT 1 FROM log WHERE game_id = ? AND seq = ?", (game_id, seq))
        is not None
    )


async def _game_where(db: Tx, where: str, params: Sequence[Any]) -> Game | None:
    """The one game whose row `where` holds, with its seats (in one statement), if any."""
    rows = await db.fetch(
        f"{_GAME_WITH_SEATS} WHERE {where} ORDER BY s.seat, s.joined_at, s.id", params
    )
    if not rows:
        return None
    seats = tuple(Seat(*row[13:]) for row in rows if row[13] is not None)
    return _game_from_row(rows[0], seats)


async def _load_seats(db: Tx, game_ids: Sequence[int]) -> dict[int, tuple[Seat, ...]]:
    """The seat history of each game, by game id."""
    if not game_ids:
        return {}
    marks = ", ".join("?" for _ in game_ids)
    rows = await db.fetch(
        "SELECT game_id, seat, user_id, joined_at, replaced_at FROM seats"
        f" WHERE game_id IN ({marks}) ORDER BY game_id, seat, joined_at, id",
        list(game_ids),
    )
    seats: dict[int, list[Seat]] = {}
    for game_id, *rest in rows:
        seats.setdefault(game_id, []).append(Seat(*rest))
    return {k: tuple(v) for k, v in seats.items()}


def _game_from_row(row: Row, seats: tuple[Seat, ...]) -> Game:
    """Build a Game from a `_GAME_COLUMNS` row."""
    (gid, guild, channel, status, options, seed, engine, creator, created, updated, ended, ver) = (
        row[:12]
    )
    return Game(
        id=gid,
        guild_id=guild,
        channel_id=channel,
        status=status,
        options=json.loads(options),
        seed=seed,
        engine_version=engine,
        creator_id=creator,
        created_at=created,
        updated_at=updated,
        ended_at=ended,
        version=ver,
        seat_history=seats,
        number=row[12] or gid,
    )


def _outbox_from_row(row: Row) -> OutboxItem:
    """Build an OutboxItem from an `_OUTBOX_COLUMNS` row."""
    item_id, game_id, version, channel_id, payload, created_at, attempts, claim = row
    return OutboxItem(
        item_id, game_id, version, channel_id, json.loads(payload), created_at, attempts, claim
    )


def _reminder_from_row(row: Row) -> Reminder:
    """Build a Reminder from a `_REMINDER_COLUMNS` row."""
    game_id, user_id, due_at, sent_count, last_sent_at, claim, kind = row
    return Reminder(game_id, user_id, due_at, sent_count, last_sent_at, claim, kind)


def _result_rows(result: GameResult) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """A result as its games row (without ids and times) and its seat rows (without the game)."""
    if not isinstance(result, GameResult):
        raise InvalidDataError(f"result must be a GameResult, not {type(result).__name__}")
    game = (
        result.players,
        result.setup,
        result.map,
        expansions_key(result.expansions),
        result.rounds,
        result.hints,
    )
    seats = [
        (
            s.seat,
            None if s.user_id is None else check_int64(s.user_id, "result user id"),
            s.automa,
            s.company,
            s.officer,
            s.vp,
            s.rank,
            dump_json(dict(s.vp_by_source), "VP by source"),
            dump_json(list(s.energy_by_round), "energy by round"),
            check_int64(s.ai_turns, "AI turns"),
            s.ai_at_end,
            check_int64(s.hints_used, "hints used"),
        )
        for s in result.seats
    ]
    return game, seats


async def _read_results(
    db: Tx, where: str, params: Sequence[Any], tail: str, tail_params: Sequence[Any]
) -> list[FinishedGame]:
    """Finished games with their seats: results rows `where` holds, ordered and cut by `tail`."""
    rows = await db.fetch(
        "SELECT r.game_id, r.guild_id, g.channel_id, g.number, r.version, r.ended_at,"
        " r.players, r.setup, r.map, r.expansions, r.rounds, r.hints"
        f" FROM results AS r JOIN games AS g ON g.id = r.game_id WHERE {where}{tail}",
        [*params, *tail_params],
    )
    if not rows:
        return []
    marks = ", ".join("?" for _ in rows)
    seat_rows = await db.fetch(
        "SELECT game_id, seat, user_id, automa, company, officer, vp, rank, vp_by_source,"
        " energy_by_round, ai_turns, ai_at_end, hints_used"
        f" FROM result_seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        [r[0] for r in rows],
    )
    seats: dict[int, list[SeatResult]] = {}
    for row in seat_rows:
        game_id, seat, user, automa, company, officer, vp, rank, sources, energy = row[:10]
        ai_turns, ai_at_end, hints_used = row[10:]
        seats.setdefault(game_id, []).append(
            SeatResult(
                seat,
                user,
                company,
                officer,
                vp,
                rank,
                json.loads(sources),
                tuple(json.loads(energy)),
                bool(automa),
                int(ai_turns),
                bool(ai_at_end),
                int(hints_used),
            )
        )
    out = []
    for row in rows:
        gid, guild, channel, number, version, ended, players, setup, map_, exp, rounds = row[:11]
        result = GameResult(
            players,
            setup,
            map_,
            tuple(exp.split(",")) if exp else (),
            rounds,
            tuple(seats.get(gid, ())),
            bool(row[11]),
        )
        out.append(FinishedGame(gid, guild, channel, number or gid, version, ended, result))
    return out


def _rating_games(rows: Iterable[Sequence[Any]]) -> tuple[RatingGame, ...]:
    """Games from rows of (game, ended, hints, user, rank, automa, AI turns, AI at the end,
    hints used), ordered by game then seat."""
    games: list[RatingGame] = []
    seats: list[PlacedSeat] = []
    current: tuple[int, int, bool] | None = None
    for game_id, ended, hints, user, rank, automa, ai_turns, ai_at_end, hints_used in rows:
        if current is None or current[0] != game_id:
            if current is not None:
                games.append(RatingGame(current[0], current[1], tuple(seats), current[2]))
            current, seats = (int(game_id), int(ended), bool(hints)), []
        seats.append(
            PlacedSeat(
                user, int(rank), bool(automa), int(ai_turns), bool(ai_at_end), int(hints_used)
            )
        )
    if current is not None:
        games.append(RatingGame(current[0], current[1], tuple(seats), current[2]))
    return tuple(games)


def _filter_clauses(
    guild_id: int, filters: StatsFilter, *, table: str = "r"
) -> tuple[list[str], list[Any]]:
    """The WHERE clauses and parameters of a server's results that match `filters`, on
    `results AS r` or `result_seats AS s` (`table`): both hold the columns filtered on."""
    where: list[str] = [f"{table}.guild_id = ?"]
    params: list[int | str] = [guild_id]
    if filters.players is not None:
        where.append(f"{table}.players = ?")
        params.append(filters.players)
    if filters.setup is not None:
        where.append(f"{table}.setup = ?")
        params.append(filters.setup)
    if filters.expansions is not None:
        where.append(f"{table}.expansions = ?")
        params.append(expansions_key(filters.expansions))
    return where, params


def _fold_tallies(rows: Iterable[Sequence[Any]]) -> tuple[Tally, ...]:
    """Tallies from (key, rank, games, VP sum, best VP) rows, by key."""
    found: dict[Any, dict[str, Any]] = {}
    for key, rank, games, vp_total, best in rows:
        entry = found.setdefault(key, {"games": 0, "vp": 0, "best": best, "ranks": {}})
        entry["games"] += games
        entry["vp"] += vp_total
        entry["best"] = max(entry["best"], best)
        entry["ranks"][rank] = games
    return tuple(
        Tally(
            key,
            e["games"],
            e["ranks"].get(1, 0),
            e["vp"],
            e["best"],
            dict(sorted(e["ranks"].items())),
        )
        for key, e in sorted(found.items())
    )


async def _game_counts(db: Tx, guild_id: int) -> GameCounts:
    """A server's games by status; a game counts as played once it has a committed state."""
    rows = await db.fetch(
        "SELECT status, COUNT(*) FROM games AS g WHERE guild_id = ?"
        " AND (status = 'finished' OR EXISTS (SELECT 1 FROM snapshots AS s WHERE s.game_id = g.id))"
        " GROUP BY status",
        (guild_id,),
    )
    by_status = {status: int(n) for status, n in rows}
    return GameCounts(
        sum(by_status.values()),
        by_status.get(FINISHED, 0),
        by_status.get(ACTIVE, 0),
        by_status.get(ABANDONED, 0),
    )


async def _count(db: Tx, sql: str, params: Sequence[Any]) -> int:
    """The number a SELECT COUNT(*) gives."""
    row = await db.fetchone(sql, params)
    assert row is not None, "COUNT(*) gives one row"
    return int(row[0])
