"""The PostgreSQL backend of the store (asyncpg): one database for several bot processes.

Every operation is one transaction on a pooled connection. Writes run at READ COMMITTED,
and what decides between processes is the database itself: unique indexes pick the one
winner of a race ((game_id, seq) for appends, (guild_id, number) for new games' numbers);
claims lock the rows they pick and skip rows another process is claiming (FOR UPDATE SKIP
LOCKED), so of several processes exactly one gets each announcement and reminder; a
read-modify-write of a game first locks the game's row. Reads run at REPEATABLE READ, so
a game and its seats are read from one snapshot.

The outbox's bookkeeping (claims, leases, sent marks, retries) runs on a small pool of its
own whose commits do not wait for the disk (synchronous_commit off): a crash of the server
may lose its last moments of it, so an announcement may be posted again (as one being posted
at the time of a crash already may), never lost, since the commit that writes an
announcement waits for the disk as every other write does. That is SQLite's guarantee in WAL
with synchronous=NORMAL (a crash of the machine may lose the last commits), and it spares
the sender a flush per claim and per sent mark. An operation of one statement runs without a
transaction around it, and pooled connections go back unreset (the store leaves no session
state on them): round trips to the server were most of the outbox's time.

When an announcement is committed (or given back), the transaction also sends a NOTIFY,
and every process that subscribed (`subscribe`) wakes its sender at once; the senders'
polls are only a safety net.

If the server cannot be reached, is shutting down, out of disk or read-only, the operation
raises StoreUnavailable (changing nothing), logged once per outage; the pool connects again
by itself when the server is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no stubs and no py.typed

from bot.store.base import Clock, system_clock
from bot.store.clocks import ClockSqlStore
from bot.store.errors import DatabaseUnusable, MigrationError, SchemaTooNewError, StoreUnavailable
from bot.store.health import Outage
from bot.store.migrate import Migration, backend_migrations
from bot.store.sql import Row, Tx, TxMode
from bot.store.urls import redact_url

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The prefix of the NOTIFY channels (one per wake-up topic).
CHANNEL_PREFIX = "barrage_"
#: How often a transaction that lost a serialization or deadlock check is tried again.
_RETRIES = 5
#: A lock number of our own for pg_advisory_lock: migrations take turns on it.
_MIGRATION_LOCK = 0x62617272  # "barr"
#: The table holding the schema version (SQLite keeps it in its file header).
_VERSION_TABLE = "barrage_schema"

_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def to_dollar(sql: str) -> str:
    """The statement with PostgreSQL's numbered placeholders ($1, $2...) for `?`.

    Our SQL never has a question mark inside a string literal.
    """
    numbers = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(numbers)}", sql)


def _rows_changed(status: str) -> int:
    """The row count of a command status such as "UPDATE 3" or "INSERT 0 1"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgTx:
    """A `Tx` on one asyncpg connection inside an open transaction (or, `alone`, outside
    any: then it runs one statement only, atomic by itself)."""

    def __init__(self, connection: asyncpg.Connection, *, alone: bool = False) -> None:
        self._c = connection
        self._alone = alone
        self._ran = False

    def _one_more(self) -> None:
        """Refuse a second statement of an operation said to run one alone."""
        if self._alone:
            if self._ran:
                raise AssertionError("an operation run alone runs one statement only")
            self._ran = True

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row the statement returns (as tuples, like SQLite's)."""
        self._one_more()
        return [tuple(r) for r in await self._c.fetch(to_dollar(sql), *params)]

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The statement's first row, if any."""
        self._one_more()
        row = await self._c.fetchrow(to_dollar(sql), *params)
        return None if row is None else tuple(row)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; return how many rows it changed."""
        self._one_more()
        if params:
            return _rows_changed(await self._c.execute(to_dollar(sql), *params))
        return _rows_changed(await self._c.execute(sql))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per parameter row (one round trip)."""
        self._one_more()
        await self._c.executemany(to_dollar(sql), list(rows))


#: SQLSTATE classes and codes of a server that is unreachable, stopping, full or read-only:
#: faults to wait out, not bugs. Looked up by full code first, then by class.
_FAULTS = {
    "08": "the connection to the database server failed",
    "53100": "the database server's disk is full",
    "53200": "the database server is out of memory",
    "53300": "the database server has too many connections",
    "53": "the database server lacks resources",
    "57P01": "the database server is shutting down",
    "57P02": "the database server crashed and is restarting",
    "57P03": "the database server is starting up or shutting down",
    "57014": "a statement took too long and was cancelled",
    "25006": "the database server is read-only (a standby, or in recovery)",
    "58": "the database server reported an I/O error",
    "XX001": "the database server found damaged data",
    "XX002": "the database server found a damaged index",
}


def runtime_fault(exc: BaseException) -> str | None:
    """Why an error is a fault of the server or the network (to retry later), or None."""
    if isinstance(exc, asyncpg.PostgresError):
        code = str(getattr(exc, "sqlstate", "") or "")
        return _FAULTS.get(code) or _FAULTS.get(code[:2])
    if isinstance(exc, TimeoutError):
        return "the database server did not answer in time"
    if isinstance(exc, OSError):
        return f"the database server cannot be reached ({exc.strerror or exc})"
    if isinstance(exc, asyncpg.InterfaceError) and "connection" in str(exc).lower():
        return f"the connection to the database server was lost ({exc})"
    return None


def unusable_from(url: str, exc: BaseException) -> DatabaseUnusable | None:
    """The start-up refusal an error of connecting stands for, or None for a bug."""
    where = redact_url(url)
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return DatabaseUnusable(where, "missing", f"does not exist ({exc})")
    if isinstance(
        exc, asyncpg.InvalidAuthorizationSpecificationError | asyncpg.InvalidPasswordError
    ):
        return DatabaseUnusable(where, "refused", f"refused the login ({exc})")
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return DatabaseUnusable(where, "unwritable", f"cannot be written by this user ({exc})")
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return DatabaseUnusable(where, "unwritable", "is read-only (a standby, or in recovery)")
    reason = runtime_fault(exc)
    if reason is not None:
        return DatabaseUnusable(where, "unreachable", f"cannot be used: {reason}")
    if isinstance(exc, ValueError | asyncpg.ClientConfigurationError):
        return DatabaseUnusable(where, "url", f"is not a usable database URL ({exc})")
    return None


#: What a fault means for users, for the log line (by whether it was a write).
_CONSEQUENCE = {
    True: "commands that change a game are refused, changing nothing, while this lasts",
    False: "commands that read a game are refused while this lasts",
}


class PostgresStore(ClockSqlStore):
    """A Store on a PostgreSQL database, shared by any number of bot processes."""

    _FOR_UPDATE = " FOR UPDATE"

    def __init__(
        self,
        pool: asyncpg.Pool,
        url: str,
        *,
        clock: Clock,
        bookkeeping_pool: asyncpg.Pool | None = None,
        outbox_backoff_ms: tuple[int, int] = (5_000, 3_600_000),
        outbox_max_attempts: int = 20,
    ) -> None:
        """Wrap an open pool on a migrated database; use `PostgresStore.open` instead."""
        super().__init__(
            clock=clock,
            outbox_backoff_ms=outbox_backoff_ms,
            outbox_max_attempts=outbox_max_attempts,
        )
        self._pool = pool
        #: The outbox's bookkeeping commits here without waiting for the disk (the module's
        #: notes); without one of its own, on `pool` like everything else.
        self._bookkeeping_pool = bookkeeping_pool or pool
        self._url = url
        where = redact_url(url)
        self._write_outage = Outage(log, f"saving to database {where}")
        self._read_outage = Outage(log, f"reading database {where}")
        self._listener: _Listener | None = None

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Clock = system_clock,
        pool_size: int = 20,
        bookkeeping_pool_size: int = 4,
        command_timeout_s: float = 30.0,
        **options: Any,
    ) -> PostgresStore:
        """Connect to the database at `url`, check it and migrate it.

        Raises DatabaseUnusable, with one line, when the server cannot be reached, refuses
        the login, has no such database or cannot be written; SchemaTooNewError when a newer
        barrage-bot wrote it.
        """
        pools: list[asyncpg.Pool] = []
        try:
            for size, settings in ((pool_size, {}), (bookkeeping_pool_size, _BOOKKEEPING)):
                pools.append(
                    await asyncpg.create_pool(
                        url,
                        min_size=1,
                        max_size=size,
                        command_timeout=command_timeout_s,
                        timeout=command_timeout_s,
                        reset=_keep_session,
                        server_settings=settings,
                    )
                )
        except Exception as exc:
            for pool in pools:
                await pool.close()
            refusal = unusable_from(url, exc)
            if refusal is None:
                raise
            raise refusal from None
        pool, bookkeeping = pools
        try:
            async with pool.acquire() as connection:
                await migrate_pg(connection, url=url)
        except BaseException as exc:
            await pool.close()
            await bookkeeping.close()
            cause = exc.__cause__ if isinstance(exc, MigrationError) else exc
            if cause is not None and (refusal := unusable_from(url, cause)):
                raise refusal from None
            raise
        return cls(pool, url, clock=clock, bookkeeping_pool=bookkeeping, **options)

    async def close(self) -> None:
        """Let running transactions finish, stop listening, close the pool."""
        await self._finish_transactions()
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        await self._pool.close()
        if self._bookkeeping_pool is not self._pool:
            await self._bookkeeping_pool.close()

    @property
    def url(self) -> str:
        """The database's URL (with its password: never log it; see `redact_url`)."""
        return self._url

    # -- transactions ------------------------------------------------------------------

    async def _run_tx(self, body: Callable[[Tx], Awaitable[T]], mode: TxMode) -> T:
        """BEGIN, run `body`, COMMIT; a lost serialization or deadlock check runs it again.
        The mode's `alone`: run the body's one statement without BEGIN and COMMIT;
        `bookkeeping`: on the pool whose commits do not wait for the disk (module notes).

        A fault of the server or the network becomes StoreUnavailable (nothing was changed),
        logged once per outage; the next transaction simply tries again.
        """
        write = mode.write
        outage = self._write_outage if write else self._read_outage
        isolation = "read_committed" if write else "repeatable_read"
        pool = self._bookkeeping_pool if mode.bookkeeping else self._pool
        for attempt in range(1, _RETRIES + 1):
            try:
                async with pool.acquire() as connection:
                    # Only a write that wrote proves that saving works again (asked only
                    # during an outage): one with nothing to write commits on a full disk too.
                    proof = not write or outage.reason is None
                    if mode.alone:
                        # One statement without BEGIN: it cannot be asked whether it wrote,
                        # so it never proves the end of an outage (a real commit will).
                        result = await body(_PgTx(connection, alone=True))
                    else:
                        async with connection.transaction(isolation=isolation, readonly=not write):
                            result = await body(_PgTx(connection))
                            proof = proof or await connection.fetchval(
                                "SELECT txid_current_if_assigned() IS NOT NULL"
                            )
            except (asyncpg.SerializationError, asyncpg.DeadlockDetectedError) as exc:
                if attempt == _RETRIES:
                    raise
                log.debug("transaction lost a race (%s); running it again", exc)
                continue
            except Exception as exc:
                reason = runtime_fault(exc)
                if reason is None:
                    raise
                outage.failed(reason, _CONSEQUENCE[write])
                raise StoreUnavailable(redact_url(self._url), reason, writing=write) from exc
            if proof:
                outage.succeeded()
            return result
        raise AssertionError("unreachable")

    def _unique_index(self, exc: BaseException) -> str | None:
        """The unique index a UniqueViolationError names."""
        if isinstance(exc, asyncpg.UniqueViolationError):
            return str(exc.constraint_name or "") or None
        return None

    async def _lock_game(self, db: Tx, game_id: int) -> None:
        """Lock the game's row until commit (other writers of this game wait)."""
        # NO KEY UPDATE: appends, whose log rows only reference the game, go on meanwhile.
        await db.fetchone("SELECT 1 FROM games WHERE id = ? FOR NO KEY UPDATE", (game_id,))

    def _skip_locked(self, alias: str) -> str:
        """Lock the rows a claim picks; skip those another process is claiming."""
        return f" FOR UPDATE OF {alias} SKIP LOCKED"

    async def _notify(self, db: Tx, topic: str) -> None:
        """NOTIFY the topic's channel; PostgreSQL delivers it when the transaction commits."""
        await db.fetchone("SELECT pg_notify(?, '')", (CHANNEL_PREFIX + topic,))

    # -- wake-ups ----------------------------------------------------------------------

    async def subscribe(self, topic: str, wake: Callable[[], None]) -> None:
        """Call `wake` whenever any process commits work on `topic` (and after the listening
        connection was lost and is back, since notifications may have been missed)."""
        if self._listener is None:
            self._listener = _Listener(self._url)
        await self._listener.add(CHANNEL_PREFIX + topic, wake)


#: The session settings of the bookkeeping pool's connections.
_BOOKKEEPING = {"synchronous_commit": "off"}


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Give a connection back to the pool as it is: the store leaves no session state on it
    (no LISTEN, SET or advisory lock outlives its transaction), and asyncpg's default reset
    is a round trip per operation (an open transaction is still rolled back before this)."""
    return None


class _Listener:
    """One connection that LISTENs for the store's wake-ups, connecting again when lost."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._wakes: dict[str, list[Callable[[], None]]] = {}
        self._connection: asyncpg.Connection | None = None
        self._lost = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def add(self, channel: str, wake: Callable[[], None]) -> None:
        """Listen on `channel` (connecting first if needed)."""
        first = channel not in self._wakes
        self._wakes.setdefault(channel, []).append(wake)
        if self._task is None:
            try:
                await self._connect()
            except Exception as exc:
                # Not fatal: the poll stands in, and the task below keeps trying.
                log.warning("database wake-ups: cannot listen yet (%s); trying again", exc)
                self._lost.set()
            self._task = asyncio.create_task(self._keep_connected(), name="database wake-ups")
        elif first and self._connection is not None and not self._connection.is_closed():
            await self._connection.add_listener(channel, self._on_notify)

    async def _connect(self) -> None:
        """Open the listening connection and LISTEN on every channel."""
        connection = await asyncpg.connect(self._url)
        connection.add_termination_listener(lambda _: self._lost.set())
        for channel in self._wakes:
            await connection.add_listener(channel, self._on_notify)
        self._connection = connection
        self._lost.clear()

    def _on_notify(self, connection: object, pid: int, channel: str, payload: str) -> None:
        """A notification: wake everyone waiting on its channel."""
        for wake in self._wakes.get(channel, ()):
            wake()

    def _wake_all(self) -> None:
        """Wake everyone (after a gap in listening, work may have been missed)."""
        for wakes in self._wakes.values():
            for wake in wakes:
                wake()

    async def _keep_connected(self) -> None:
        """Connect again, with a growing pause, whenever the connection is lost."""
        delay = 0.5
        while True:
            await self._lost.wait()
            log.debug("database wake-ups: the listening connection was lost")
            while True:
                await asyncio.sleep(delay)
                try:
                    await self._connect()
                except Exception as exc:
                    delay = min(delay * 2, 15.0)
                    log.debug("database wake-ups: cannot connect again yet: %s", exc)
                    continue
                delay = 0.5
                self._wake_all()
                break

    async def close(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._connection is not None and not self._connection.is_closed():
            with contextlib.suppress(Exception):
                await self._connection.close(timeout=5)


async def check_server(url: str) -> None:
    """Everything start-up checks of the database, without changing it (`--check-config`):
    the server answers, lets us in, is writable, and holds no newer schema than ours.

    Raises DatabaseUnusable or SchemaTooNewError.
    """
    try:
        connection = await asyncpg.connect(url, timeout=10)
    except Exception as exc:
        refusal = unusable_from(url, exc)
        if refusal is None:
            raise
        raise refusal from None
    try:
        if await connection.fetchval("SELECT pg_is_in_recovery()"):
            raise DatabaseUnusable(
                redact_url(url), "unwritable", "is read-only (a standby, or in recovery)"
            )
        if not await connection.fetchval("SELECT has_schema_privilege(current_schema(), 'CREATE')"):
            raise DatabaseUnusable(
                redact_url(url),
                "unwritable",
                "cannot be written: this user may not create tables in its schema",
            )
        found, known = await schema_version(connection), pg_migrations()[-1].version
        if found > known:
            raise SchemaTooNewError(redact_url(url), found, known)
    finally:
        await connection.close()


# -- migrations ------------------------------------------------------------------------


def pg_migrations() -> list[Migration]:
    """The PostgreSQL migrations shipped in bot/store/migrations/postgresql, in order."""
    return backend_migrations("postgresql")


async def schema_version(connection: asyncpg.Connection) -> int:
    """The schema version recorded in the database (0 for a database without our tables)."""
    exists = await connection.fetchval("SELECT to_regclass($1) IS NOT NULL", _VERSION_TABLE)
    if not exists:
        return 0
    return int(await connection.fetchval(f"SELECT version FROM {_VERSION_TABLE}") or 0)


async def migrate_pg(
    connection: asyncpg.Connection,
    *,
    url: str,
    target: int | None = None,
    migrations: list[Migration] | None = None,
) -> int:
    """Bring the database up to `target` (default: latest), each step in one transaction.

    PostgreSQL's DDL is transactional: a failing step leaves the database at the version
    before it. The migration holds an advisory lock from before it reads the version to after
    its last step, so of processes starting together one applies each step and the others
    wait, then find the database migrated. SchemaTooNewError for a database written by a
    newer barrage-bot.
    """
    steps = pg_migrations() if migrations is None else migrations
    known = steps[-1].version if steps else 0
    goal = known if target is None else target
    # A session lock, taken outside any transaction: the version is read in a transaction
    # begun after the wait, which sees the tables the holder made. (Read in a transaction
    # that began before the wait, as a transaction-scoped lock inside it would have it, the
    # backend's catalogue cache may still say the version table does not exist.)
    await connection.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        found = await schema_version(connection)
        if found > known:
            raise SchemaTooNewError(redact_url(url), found, known)
        for step in steps:
            if step.version > goal or step.version <= found:
                continue
            await _apply_pg(connection, step, url)
        return await schema_version(connection)
    finally:
        # A connection that broke has lost its session, and the lock with it.
        with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
            await connection.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)


async def _apply_pg(connection: asyncpg.Connection, step: Migration, url: str) -> None:
    """Apply one migration step and record its version, in one transaction."""
    try:
        async with connection.transaction():
            log.info(
                "database %s: applying migration %04d_%s", redact_url(url), step.version, step.name
            )
            await connection.execute(step.sql)
            await connection.execute(
                f"CREATE TABLE IF NOT EXISTS {_VERSION_TABLE} (version INTEGER NOT NULL)"
            )
            await connection.execute(f"DELETE FROM {_VERSION_TABLE}")
            await connection.execute(
                f"INSERT INTO {_VERSION_TABLE} (version) VALUES ($1)", step.version
            )
    except asyncpg.PostgresError as exc:
        if runtime_fault(exc) is not None:
            raise
        raise MigrationError(
            f"database {redact_url(url)}: migration {step.version:04d}_{step.name} failed: {exc}"
        ) from exc
