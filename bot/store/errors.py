"""The store's errors: one root class, each subclass a specific failure."""

from __future__ import annotations


class StoreError(Exception):
    """Root of every error the store raises on purpose."""


class StaleVersionError(StoreError):
    """An append named a version that is no longer the game's latest: the game moved on."""

    def __init__(self, game_id: int, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"game {game_id} moved on: append expected version {expected_version}, "
            f"the game is at version {current_version}"
        )
        self.game_id = game_id
        self.expected_version = expected_version
        self.current_version = current_version


class GameNotFoundError(StoreError, LookupError):
    """No game has the given id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class ChannelBusyError(StoreError):
    """The channel already has an active game; a channel holds at most one."""

    def __init__(self, channel_id: int, active_game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an active game (game {active_game_id})")
        self.channel_id = channel_id
        self.active_game_id = active_game_id


class InvalidDataError(StoreError, ValueError):
    """A value handed to the store has the wrong shape (a caller's bug, not a race)."""


class InvalidExportError(InvalidDataError):
    """An exported game document cannot be imported; the message says which field is wrong."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer barrage-bot than this one."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"database {path} has schema version {found}, but this barrage-bot only knows "
            f"versions up to {known}: it was written by a newer barrage-bot. Upgrade "
            f"barrage-bot, or restore a backup made by this version"
        )
        self.found = found
        self.known = known


class MigrationError(StoreError):
    """A schema migration failed; the database was left at the version before it."""


class DatabaseUnusable(StoreError):
    """The database file cannot be used at all; the bot must not start on it.

    `kind` says what to do about it: "damaged" (restore a backup), "not-a-database"
    (the path names something else), "folder" (a directory at the path), "unwritable"
    (permissions or a read-only disk) or "full" (no space to open it).
    """

    def __init__(self, path: str, kind: str, problem: str) -> None:
        super().__init__(f"database {path} {problem}")
        self.path = path
        self.kind = kind
        self.problem = problem


class StoreUnavailable(StoreError):
    """The database cannot be written (or read) right now; the operation changed nothing.

    Raised for a full or read-only disk, an I/O error, a lock held too long or damage found
    while running. The store logs the fault once and recovers by itself: the next operation
    tries again, and the first one that succeeds logs that the database works again.
    """

    def __init__(self, path: str, reason: str, *, writing: bool) -> None:
        action = "written" if writing else "read"
        super().__init__(f"database {path} cannot be {action} right now: {reason}")
        self.path = path
        self.reason = reason
        self.writing = writing
