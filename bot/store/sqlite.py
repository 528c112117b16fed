"""The SQLite backend of the store (aiosqlite, WAL), the embedded default."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.base import Clock, system_clock
from bot.store.clocks import ClockSqlStore
from bot.store.errors import DatabaseUnusable, MigrationError, StoreUnavailable
from bot.store.health import Outage, damaged, inspect_file, runtime_fault, unusable_from
from bot.store.migrate import migrate, schema_version
from bot.store.sql import (
    LOG_SEQ,
    NUMBER_IN_GUILD,
    ONE_ACTIVE_PER_CHANNEL,
    RESULTS_KEY,
    Row,
    Tx,
    TxMode,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
Db = aiosqlite.Connection

# Extended result codes of a violated PRIMARY KEY / UNIQUE constraint.
_UNIQUE_CODES = frozenset({sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, sqlite3.SQLITE_CONSTRAINT_UNIQUE})
#: SQLite names the columns of a violated unique index, not the index: ours by columns.
_UNIQUE_INDEXES = {
    "games.channel_id": ONE_ACTIVE_PER_CHANNEL,
    "games.guild_id, games.number": NUMBER_IN_GUILD,
    "log.game_id, log.seq": LOG_SEQ,
    "results.game_id": RESULTS_KEY,
}
_FAILED_COLUMNS = re.compile(r"UNIQUE constraint failed: (.*)$")


class _SqliteTx:
    """A `Tx` on the aiosqlite connection: each statement is one trip to the connection's
    thread (statement, rows and cursor together), the transaction's BEGIN going with the
    first one. A trip costs both threads a wake-up and the loop a callback; a read of one
    row had taken three, and BEGIN a fourth (bench/discord_load.py --profile)."""

    def __init__(self, db: Db) -> None:
        self._db = db
        #: The BEGIN still to be sent, with the transaction's first statement.
        self._begin = ""
        #: Whether a BEGIN was sent (there is a transaction to commit).
        self.begun = False
        #: Statements run so far, and whether the body may run only one (without BEGIN).
        self._ran = 0
        self._alone = False

    def start(self, begin: str) -> None:
        """Begin a transaction with `begin` (sent with its first statement), or, with "",
        run the body's one statement without one (atomic by itself)."""
        self._begin, self.begun, self._ran, self._alone = begin, False, 0, not begin

    def _run(self, call: Callable[[sqlite3.Connection], T]) -> Awaitable[T]:
        """`call` on the connection's thread, after the pending BEGIN if there is one."""
        if self._alone and self._ran:
            raise AssertionError("an operation run alone runs one statement only")
        self._ran += 1
        conn: sqlite3.Connection = self._db._conn
        begin, self._begin = self._begin, ""
        if not begin:
            return self._db._execute(call, conn)
        self.begun = True

        def begin_then() -> T:
            conn.execute(begin)
            return call(conn)

        return self._db._execute(begin_then)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row the statement returns."""
        return await self._run(lambda conn: _closing(conn.execute(sql, params), _all_rows))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The statement's first row, if any."""
        return await self._run(lambda conn: _closing(conn.execute(sql, params), _first_row))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; return how many rows it changed."""
        return await self._run(lambda conn: _closing(conn.execute(sql, params), _rowcount))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per parameter row."""
        await self._run(lambda conn: _closing(conn.executemany(sql, rows), _rowcount))


def _closing(cursor: sqlite3.Cursor, read: Callable[[sqlite3.Cursor], T]) -> T:
    """What `read` reads from a cursor, the cursor closed after it."""
    try:
        return read(cursor)
    finally:
        cursor.close()


def _all_rows(cursor: sqlite3.Cursor) -> list[Row]:
    return list(cursor.fetchall())


def _first_row(cursor: sqlite3.Cursor) -> Row | None:
    row: Row | None = cursor.fetchone()
    return row


def _rowcount(cursor: sqlite3.Cursor) -> int:
    return cursor.rowcount


class SqliteStore(ClockSqlStore):
    """A Store on one SQLite file, through one aiosqlite connection (one thread).

    Each operation is one transaction (BEGIN IMMEDIATE for writes). An asyncio.Lock keeps
    coroutines that share this connection out of each other's transactions; it is not
    what makes concurrent writers safe — other instances and processes have their own
    connections, and the database's constraints and locks decide between them.
    """

    def __init__(
        self,
        db: Db,
        path: str,
        *,
        clock: Clock,
        outbox_backoff_ms: tuple[int, int] = (5_000, 3_600_000),
        outbox_max_attempts: int = 20,
    ) -> None:
        """Wrap an open, migrated connection; use `SqliteStore.open` instead."""
        super().__init__(
            clock=clock,
            outbox_backoff_ms=outbox_backoff_ms,
            outbox_max_attempts=outbox_max_attempts,
        )
        self._db = db
        self._tx_db = _SqliteTx(db)
        self._path = path
        self._lock = asyncio.Lock()
        self._write_outage = Outage(log, f"saving to database {path}")
        self._read_outage = Outage(log, f"reading database {path}")

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = system_clock,
        busy_timeout_ms: int = 10_000,
        **options: Any,
    ) -> SqliteStore:
        """Open (creating if needed), check and migrate the database file at `path`.

        Raises DatabaseUnusable, with one line saying what is wrong, for a file that cannot
        work: a folder, not SQLite, truncated, damaged pages, or no permission to write it.
        """
        path = os.fspath(path)
        inspect_file(path)
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnusable(
                path,
                "unwritable",
                f"cannot be created: its folder {Path(path).parent} cannot be ({exc.strerror})",
            ) from None
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, Python adds nothing.
        connection = aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
        try:
            db = await connection
        except sqlite3.Error as exc:
            # aiosqlite stops its thread after a failed connect without waiting for it; wait
            # here, or the thread may report to a closed event loop (a stray traceback).
            thread = getattr(connection, "_thread", None)
            if thread is not None:
                await asyncio.to_thread(thread.join, 5)
            raise unusable_from(path, exc) or exc from None
        try:
            await _prepare(db, path, busy_timeout_ms)
        except BaseException as exc:
            await db.close()
            cause = exc.__cause__ if isinstance(exc, MigrationError) else exc
            if isinstance(cause, sqlite3.Error) and (refusal := unusable_from(path, cause)):
                raise refusal from None
            raise
        return cls(db, path, clock=clock, **options)

    async def close(self) -> None:
        """Let running transactions finish, then close the connection."""
        await self._finish_transactions()
        await self._db.close()

    # -- transactions ------------------------------------------------------------------

    async def _run_tx(self, body: Callable[[Tx], Awaitable[T]], mode: TxMode) -> T:
        """BEGIN (with the body's first statement), run `body`, COMMIT; ROLLBACK on any
        error. A read `alone` runs its one statement without BEGIN and COMMIT (one trip to
        the connection's thread); a write alone still begins IMMEDIATE, so that it waits for
        another process's writer rather than fail on a stale snapshot; `bookkeeping` changes
        nothing here (WAL with synchronous=NORMAL never waits for the disk at a commit).

        A fault of the disk or the file becomes StoreUnavailable (nothing was changed),
        logged once per outage; the next transaction simply tries again.
        """
        write = mode.write
        outage = self._write_outage if write else self._read_outage
        async with self._lock:
            changes = self._db.total_changes
            tx = self._tx_db
            try:
                tx.start("BEGIN IMMEDIATE" if write else "" if mode.alone else "BEGIN")
                try:
                    result = await body(tx)
                    if tx.begun:  # a body that ran no statement began no transaction
                        await self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        await self._rollback()
                    raise
            except sqlite3.Error as exc:
                reason = runtime_fault(exc)
                if reason is None:
                    raise
                outage.failed(reason, _CONSEQUENCE[write])
                raise StoreUnavailable(self._path, reason, writing=write) from exc
            # Only a write that wrote proves that saving works again: one with nothing to
            # write (an empty claim) commits on a full disk too.
            if not write or self._db.total_changes != changes:
                outage.succeeded()
            return result

    async def _rollback(self) -> None:
        """Roll back; a rollback that fails too (the disk is gone) leaves SQLite to do it."""
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            # SQLite rolls back itself when the connection is next used or closed.
            log.debug("rollback failed: %s", exc)

    def _unique_index(self, exc: BaseException) -> str | None:
        """Which of our unique indexes an IntegrityError names (by its columns)."""
        if not isinstance(exc, sqlite3.IntegrityError) or not _is_unique_violation(exc):
            return None
        match = _FAILED_COLUMNS.search(str(exc))
        return _UNIQUE_INDEXES.get(match[1]) if match else None

    # -- backup ------------------------------------------------------------------------

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Write a consistent copy of the live database to `dest` (SQLite's backup API)."""
        copy = asyncio.ensure_future(asyncio.to_thread(_backup_file, self._path, os.fspath(dest)))
        try:
            await asyncio.shield(copy)
        except asyncio.CancelledError:
            # The thread cannot be stopped: let it finish so that shutting down never leaves
            # a half-written backup behind, then pass the cancellation on.
            await copy
            raise


#: What a fault means for users, for the log line (by whether it was a write).
_CONSEQUENCE = {
    True: "commands that change a game are refused, changing nothing, while this lasts",
    False: "commands that read a game are refused while this lasts",
}


async def _prepare(db: aiosqlite.Connection, path: str, busy_timeout_ms: int) -> None:
    """WAL, pragmas, the integrity check, a write probe and the migrations."""
    mode = await _enable_wal(db, busy_timeout_ms)
    if mode is None or str(mode[0]).lower() != "wal":
        log.warning("database %s: WAL mode unavailable (got %s)", path, mode)
    # NORMAL is safe in WAL mode: a crash of the process never loses a commit; a
    # power cut can roll back the last commits but never corrupts the file.
    await db.execute("PRAGMA synchronous = NORMAL")
    await db.execute("PRAGMA foreign_keys = ON")
    await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    await check_integrity(db, path)
    await _probe_write(db)
    await migrate(db, path=path)


async def check_integrity(db: aiosqlite.Connection, path: str) -> None:
    """Refuse a database whose pages or indexes are damaged (SQLite's integrity check).

    It reads the whole file once, which is why it runs at start-up only: a damaged page
    found later is a runtime fault of the one operation that meets it.
    """
    async with db.execute("PRAGMA integrity_check(1)") as cur:
        rows = [str(r[0]) for r in await cur.fetchall()]
    if rows != ["ok"]:
        raise damaged(path, rows)


async def _probe_write(db: aiosqlite.Connection) -> None:
    """Fail now, not at the first move, if the file cannot be written (SQLite then opened it
    read-only): rewriting the schema version dirties the first page, and nothing is kept."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        version = await schema_version(db)
        await db.execute(f"PRAGMA user_version = {int(version)}")
    finally:
        await db.execute("ROLLBACK")


async def _enable_wal(db: aiosqlite.Connection, busy_timeout_ms: int) -> Any:
    """Switch to WAL, retrying while another process does the same.

    Changing the journal mode needs an exclusive lock, and SQLite reports "database is
    locked" for it at once instead of waiting in the busy handler when two processes open a
    new file together; so this waits and retries for up to the busy timeout.
    """
    delay, waited = 0.01, 0.0
    while True:
        try:
            async with db.execute("PRAGMA journal_mode = WAL") as cur:
                return await cur.fetchone()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or waited * 1000 >= busy_timeout_ms:
                raise
        await asyncio.sleep(delay)
        waited += delay
        delay = min(delay * 2, 0.2)


def _backup_file(source: str, dest: str) -> None:
    """Copy a live database with the backup API, through a temporary file renamed into place."""
    # Copying the file itself is unsafe in WAL mode: commits may still sit in the -wal file.
    partial = dest + ".partial"
    if os.path.exists(partial):
        os.remove(partial)
    try:
        src = sqlite3.connect(source)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, dest)
    except BaseException:
        # A half-written copy on a full disk would take the space the live database needs.
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise


def _is_unique_violation(exc: sqlite3.IntegrityError) -> bool:
    """Whether an IntegrityError comes from a PRIMARY KEY or UNIQUE constraint."""
    return getattr(exc, "sqlite_errorcode", None) in _UNIQUE_CODES
