"""Moving up: copy every table of a SQLite store into an empty PostgreSQL database.

The tables are not listed here: every table of the SQLite file is copied (a table added by
a later migration comes along by itself), parents before children by their foreign keys.
Both databases are first brought to the latest schema, so they hold the same tables and
columns. The copy runs in one PostgreSQL transaction that is committed only after every
table's row count and content hash (SHA-256 over its rows in key order: the snapshots'
hash covers every stored game state) match the file's; otherwise nothing is written. The
file is read in one read transaction, so a consistent copy is taken even if a bot still
writes to it, but whatever that bot writes afterwards is not moved: stop it first.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no stubs and no py.typed

from bot.store.errors import StoreError
from bot.store.postgres import _VERSION_TABLE, PostgresStore
from bot.store.sqlite import SqliteStore
from bot.store.urls import redact_url

#: Rows sent to the server per COPY.
BATCH_ROWS = 1000


class MoveRefused(StoreError):
    """The move cannot be done (the message says why); nothing was written."""


@dataclass(frozen=True, slots=True)
class CopiedTable:
    """One table as copied: its rows and the SHA-256 of their content, equal on both sides."""

    name: str
    rows: int
    sha256: str


@dataclass(frozen=True, slots=True)
class _Table:
    """A table to copy: its columns in order, key columns and the tables it refers to."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    parents: frozenset[str]


def _quote(identifier: str) -> str:
    """An SQL identifier in double quotes (names come from the databases' catalogues)."""
    return '"' + identifier.replace('"', '""') + '"'


class _RowHash:
    """SHA-256 over rows, each written as JSON with booleans as 0 and 1 (SQLite's form)."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.rows = 0

    def add(self, row: Iterable[Any]) -> None:
        values = [int(v) if isinstance(v, bool) else v for v in row]
        self._hash.update(json.dumps(values, separators=(",", ":")).encode())
        self._hash.update(b"\n")
        self.rows += 1

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def _sqlite_tables(source: sqlite3.Connection) -> dict[str, _Table]:
    """The file's tables (SQLite's own excluded), with columns, keys and foreign keys."""
    names = [
        row[0]
        for row in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    tables = {}
    for name in names:
        info = source.execute(f"PRAGMA table_info({_quote(name)})").fetchall()
        columns = tuple(row[1] for row in info)
        # pk is the column's position in the primary key (1-based), 0 outside it.
        key = tuple(row[1] for row in sorted(info, key=lambda r: r[5]) if row[5] > 0)
        foreign = source.execute(f"PRAGMA foreign_key_list({_quote(name)})").fetchall()
        parents = frozenset(row[2] for row in foreign if row[2] != name)
        tables[name] = _Table(name, columns, key or columns, parents)
    return tables


def _in_dependency_order(tables: dict[str, _Table]) -> list[_Table]:
    """The tables with every referenced table before the tables referring to it."""
    ordered: list[_Table] = []
    placed: set[str] = set()
    waiting = sorted(tables)
    while waiting:
        # A reference to a table outside the store (none today) does not hold a table back.
        ready = [
            n for n in waiting if all(p in placed or p not in tables for p in tables[n].parents)
        ]
        if not ready:
            raise MoveRefused(f"the foreign keys of tables {waiting} refer to each other")
        for name in ready:
            ordered.append(tables[name])
            placed.add(name)
        waiting = [n for n in waiting if n not in placed]
    return ordered


async def _target_columns(target: asyncpg.Connection) -> dict[str, dict[str, str]]:
    """The target's tables in its current schema: column name -> data type, per table."""
    rows = await target.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name <> $1",
        _VERSION_TABLE,
    )
    tables: dict[str, dict[str, str]] = {}
    for row in rows:
        tables.setdefault(row["table_name"], {})[row["column_name"]] = row["data_type"]
    return tables


def _converter(data_type: str) -> Callable[[Any], Any]:
    """How a SQLite value becomes the target column's Python value (booleans are 0/1)."""
    if data_type == "boolean":
        return lambda v: None if v is None else bool(v)
    return lambda v: v


def _batches(
    cursor: sqlite3.Cursor, hashed: _RowHash, convert: list[Callable[[Any], Any]]
) -> Iterator[list[tuple[Any, ...]]]:
    """The source rows in batches, converted for the target, each hashed as read."""
    while rows := cursor.fetchmany(BATCH_ROWS):
        batch = []
        for row in rows:
            hashed.add(row)
            batch.append(tuple(f(v) for f, v in zip(convert, row, strict=True)))
        yield batch


async def move_to_postgres(path: str | Path, url: str) -> list[CopiedTable]:
    """Copy every table of the SQLite file at `path` into the empty database at `url`.

    MoveRefused, writing nothing, when the file does not exist, the database already holds
    rows, the two schemas differ, or a table's count or hash differs after the copy.
    Returns each copied table's row count and hash, in copy order.
    """
    path = Path(path)
    if not path.is_file():
        raise MoveRefused(f"{path}: no such SQLite file")
    # Opening brings each database to the latest schema (as the bot does when it starts).
    await (await SqliteStore.open(path)).close()
    await (await PostgresStore.open(url)).close()

    source = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, isolation_level=None)
    target = await asyncpg.connect(url)
    try:
        source.execute("BEGIN")  # one consistent view of every table
        tables = _sqlite_tables(source)
        target_tables = await _target_columns(target)
        if set(tables) != set(target_tables):
            raise MoveRefused(
                f"the file's tables {sorted(tables)} differ from the database's "
                f"{sorted(target_tables)}: is one of them from another barrage-bot version?"
            )
        for table in tables.values():
            if set(table.columns) != set(target_tables[table.name]):
                raise MoveRefused(
                    f"table {table.name}: the file's columns {sorted(table.columns)} differ "
                    f"from the database's {sorted(target_tables[table.name])}"
                )
        filled = [
            name
            for name in sorted(tables)
            if await target.fetchval(f"SELECT EXISTS (SELECT 1 FROM {_quote(name)})")
        ]
        if filled:
            raise MoveRefused(
                f"database {redact_url(url)} is not empty (rows in {', '.join(filled)}); "
                "it is never overwritten: name a new, empty database"
            )
        copied = []
        async with target.transaction():
            # Other movers wait here; the check above is repeated under the lock.
            await target.execute(f"LOCK TABLE {', '.join(map(_quote, sorted(tables)))}")
            for name in sorted(tables):
                if await target.fetchval(f"SELECT EXISTS (SELECT 1 FROM {_quote(name)})"):
                    raise MoveRefused(f"database {redact_url(url)} was filled meanwhile")
            for table in _in_dependency_order(tables):
                copied.append(await _copy_table(source, target, table, target_tables[table.name]))
            await _advance_identities(target, list(tables))
        return copied
    finally:
        source.close()
        await target.close()


async def _copy_table(
    source: sqlite3.Connection, target: asyncpg.Connection, table: _Table, types: dict[str, str]
) -> CopiedTable:
    """Copy one table's rows, then read them back in key order and compare count and hash."""
    columns = ", ".join(map(_quote, table.columns))
    order = ", ".join(map(_quote, table.key))
    query = f"SELECT {columns} FROM {_quote(table.name)} ORDER BY {order}"
    read = _RowHash()
    convert = [_converter(types[c]) for c in table.columns]
    for batch in _batches(source.execute(query), read, convert):
        await target.copy_records_to_table(table.name, records=batch, columns=table.columns)
    written = _RowHash()
    # Text keys sort by code point, as in SQLite, whatever the database's collation.
    pg_order = ", ".join(
        _quote(c) + (' COLLATE "C"' if types[c] == "text" else "") for c in table.key
    )
    async for row in target.cursor(
        f"SELECT {columns} FROM {_quote(table.name)} ORDER BY {pg_order}", prefetch=BATCH_ROWS
    ):
        written.add(row)
    if (written.rows, written.hexdigest()) != (read.rows, read.hexdigest()):
        raise MoveRefused(
            f"table {table.name}: {read.rows} rows read but {written.rows} found after the "
            "copy, or their contents differ; nothing was written"
        )
    return CopiedTable(table.name, read.rows, read.hexdigest())


async def _advance_identities(target: asyncpg.Connection, tables: list[str]) -> None:
    """Move each identity column's sequence past the copied ids, so new rows get new ones."""
    identities = await target.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
        " AND table_name = ANY($1::text[])",
        tables,
    )
    for row in identities:
        table, column = _quote(row["table_name"]), _quote(row["column_name"])
        await target.execute(
            f"SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX({column}), 0) + 1,"
            f" false) FROM {table}",
            table,
            row["column_name"],
        )
