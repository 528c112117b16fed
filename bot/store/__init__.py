"""Persistence for games behind the `Store` interface: SQLite (the embedded default) or
PostgreSQL (one database for several bot processes)."""

from __future__ import annotations

import os
from typing import Any

from bot.store.base import (
    ABANDONED,
    ACTIVE,
    AI_STEP,
    DEADLINE_KINDS,
    EXPIRY,
    FINISHED,
    RECORD_KINDS,
    REMINDER,
    REMINDER_KINDS,
    STATUSES,
    TURN_PING,
    USER_THEMES,
    ClaimOwner,
    Clock,
    Deadline,
    Game,
    LogEntry,
    OutboxItem,
    Reminder,
    ReminderDue,
    Seat,
    Snapshot,
    Store,
    SupportsBackup,
    SupportsWakeups,
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
from bot.store.sqlite import SqliteStore
from bot.store.urls import is_postgres_url, redact_url

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "AI_STEP",
    "AI_TURNS_NOT_COUNTED",
    "ANY_GAME",
    "DEADLINE_KINDS",
    "EXPIRY",
    "FINISHED",
    "RECORD_KINDS",
    "REMINDER",
    "REMINDER_KINDS",
    "STATUSES",
    "TURN_PING",
    "USER_THEMES",
    "ChannelBusyError",
    "ClaimOwner",
    "Clock",
    "DatabaseUnusable",
    "Deadline",
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
    "PlacedSeat",
    "RatingGame",
    "RatingGames",
    "Reminder",
    "ReminderDue",
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
    "SupportsWakeups",
    "Tally",
    "UserSettings",
    "expansions_key",
    "is_postgres_url",
    "latest_schema_version",
    "open_store",
    "redact_url",
    "system_clock",
]


async def open_store(
    database: str | os.PathLike[str], *, clock: Clock = system_clock, **options: Any
) -> Store:
    """Open the store the configuration names: a postgresql:// URL or an SQLite file path."""
    if is_postgres_url(database):
        # Imported here: asyncpg is only loaded by processes that use it.
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(str(database), clock=clock, **options)
    return await SqliteStore.open(database, clock=clock, **options)
