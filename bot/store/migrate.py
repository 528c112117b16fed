"""Numbered schema migrations, one folder per backend, each applied in one transaction.

Both backends have the same steps under the same numbers (`latest_version` is the schema
version of either), each written in its own dialect; SQLite's runner is here, PostgreSQL's
in `bot.store.postgres`.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from bot.store.errors import MigrationError, SchemaTooNewError

log = logging.getLogger(__name__)

_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: running `sql` turns schema version `version - 1` into `version`."""

    version: int
    name: str
    sql: str


def backend_migrations(backend: str) -> list[Migration]:
    """A backend's migrations, shipped in bot/store/migrations/BACKEND, in order."""
    found = []
    for entry in resources.files(f"bot.store.migrations.{backend}").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    # A gap or a duplicate would silently skip a step on some databases.
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations are not numbered 1..N: {[m.version for m in found]}")
    return found


def sqlite_migrations() -> list[Migration]:
    """The SQLite migrations shipped in bot/store/migrations/sqlite, in order."""
    return backend_migrations("sqlite")


def latest_version() -> int:
    """The schema version this code writes."""
    return sqlite_migrations()[-1].version


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (semicolons inside strings are kept)."""
    statements = []
    buf = ""
    for piece in sql.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if _has_code(buf):
                statements.append(buf.strip())
            buf = ""
    return statements


def _has_code(sql: str) -> bool:
    """Whether a fragment holds more than whitespace, comments and semicolons."""
    lines = (line.split("--", 1)[0] for line in sql.splitlines())
    return bool("".join(lines).replace(";", "").strip())


async def schema_version(db: aiosqlite.Connection) -> int:
    """The schema version recorded in the database header (0 for a new database)."""
    async with db.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(
    db: aiosqlite.Connection,
    *,
    path: str,
    target: int | None = None,
    migrations: list[Migration] | None = None,
) -> int:
    """Bring the database (opened in autocommit mode) up to `target` (default: latest).

    Refuses a database newer than the code with SchemaTooNewError. Each step runs in its
    own BEGIN IMMEDIATE transaction that also sets PRAGMA user_version, so a crash or a
    failing step leaves the database at the previous version, and two processes starting
    at once cannot both apply a step.
    """
    steps = sqlite_migrations() if migrations is None else migrations
    known = steps[-1].version if steps else 0
    goal = known if target is None else target
    found = await schema_version(db)
    if found > known:
        raise SchemaTooNewError(path, found, known)
    for step in steps:
        if step.version > goal:
            break
        await db.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the write lock: another process may have applied it meanwhile.
            if await schema_version(db) >= step.version:
                await db.execute("ROLLBACK")
                continue
            log.info("database %s: applying migration %04d_%s", path, step.version, step.name)
            for statement in split_statements(step.sql):
                await db.execute(statement)
            # PRAGMA takes no parameters; the value is our own integer.
            await db.execute(f"PRAGMA user_version = {int(step.version)}")
            await db.execute("COMMIT")
        except BaseException as exc:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(
                    f"database {path}: migration {step.version:04d}_{step.name} failed: {exc}"
                ) from exc
            raise
    return await schema_version(db)
