"""Persistence for games behind the `Store` interface; SQLite is the embedded backend."""

from __future__ import annotations

import os

from bot.store.base import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    RECORD_KINDS,
    REMINDER,
    REMINDER_KINDS,
    STATUSES,
    TURN_PING,
    ClaimOwner,
    Clock,
    Game,
    LogEntry,
    OutboxItem,
    Reminder,
    Seat,
    Snapshot,
    Store,
    SupportsBackup,
    UserSettings,
    system_clock,
)
from bot.store.errors import (
    ChannelBusyError,
    DatabaseUnusable,
    GameNotFoundError,
    InvalidDataError,
    InvalidExportError,
    MigrationError,
    SchemaTooNewError,
    StaleVersionError,
    StoreError,
    StoreUnavailable,
)
from bot.store.migrate import latest_version as latest_schema_version
from bot.store.results import (
    ANY_GAME,
    FinishedGame,
    GameCounts,
    GameResult,
    ResultsPage,
    SeatResult,
    Stats,
    StatsFilter,
    Tally,
    expansions_key,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "ANY_GAME",
    "FINISHED",
    "RECORD_KINDS",
    "REMINDER",
    "REMINDER_KINDS",
    "STATUSES",
    "TURN_PING",
    "ChannelBusyError",
    "ClaimOwner",
    "Clock",
    "DatabaseUnusable",
    "FinishedGame",
    "Game",
    "GameCounts",
    "GameNotFoundError",
    "GameResult",
    "InvalidDataError",
    "InvalidExportError",
    "LogEntry",
    "MigrationError",
    "OutboxItem",
    "Reminder",
    "ResultsPage",
    "SchemaTooNewError",
    "Seat",
    "SeatResult",
    "Snapshot",
    "SqliteStore",
    "StaleVersionError",
    "Stats",
    "StatsFilter",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "SupportsBackup",
    "Tally",
    "UserSettings",
    "expansions_key",
    "latest_schema_version",
    "open_store",
    "system_clock",
]


async def open_store(database: str | os.PathLike[str], *, clock: Clock = system_clock) -> Store:
    """Open the store named by the configuration: for now always a SQLite file path."""
    # A "postgresql://" URL will select the PostgreSQL backend here.
    return await SqliteStore.open(database, clock=clock)
