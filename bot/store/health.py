"""The database file's health: refusing an unusable file at start-up, naming disk faults.

Two kinds of trouble are told apart. A file that can never work (not SQLite, truncated,
damaged pages, a folder, no permission) stops the bot at start-up with one line
(`DatabaseUnusable`). A fault of the disk while running (full, read-only, I/O errors, a lock
held too long) only refuses the operation at hand (`StoreUnavailable`): it is logged once
when it begins and once when it ends, and the bot goes on serving what it can read.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import tempfile
from pathlib import Path

from bot.store.errors import DatabaseUnusable

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_HEADER = b"SQLite format 3\x00"
HEADER_SIZE = 100

# Primary result codes (the low byte of an extended code) that mean the disk or the file,
# not the SQL, failed: the operation may work later, or after an operator steps in.
_RUNTIME_FAULTS = {
    sqlite3.SQLITE_FULL: "the disk is full",
    sqlite3.SQLITE_READONLY: "the database file or its folder is read-only",
    sqlite3.SQLITE_IOERR: "the disk reported an I/O error",
    sqlite3.SQLITE_CANTOPEN: "a file next to the database cannot be created or opened",
    sqlite3.SQLITE_BUSY: "another process has held the database locked for too long",
    sqlite3.SQLITE_LOCKED: "the database is locked",
    sqlite3.SQLITE_CORRUPT: "the database file is damaged (restore it from a backup)",
    sqlite3.SQLITE_NOTADB: "the database file is damaged (restore it from a backup)",
    sqlite3.SQLITE_PERM: "the database file cannot be accessed (permission denied)",
}

#: SQLITE_READONLY_DIRECTORY: the file may be writable, but its folder is not (WAL needs it).
_READONLY_DIRECTORY = 1544

# At start-up the same codes say which advice fits (see DatabaseUnusable.kind).
_OPEN_KINDS = {
    sqlite3.SQLITE_FULL: ("full", "cannot be opened: the disk is full"),
    sqlite3.SQLITE_READONLY: (
        "unwritable",
        "cannot be written: the file or its folder is read-only",
    ),
    sqlite3.SQLITE_CANTOPEN: (
        "unwritable",
        "cannot be opened for writing (the folder must let the bot create files next to it)",
    ),
    sqlite3.SQLITE_PERM: ("unwritable", "cannot be opened: permission denied"),
    sqlite3.SQLITE_IOERR: ("io", "cannot be used: the disk reported an I/O error"),
    sqlite3.SQLITE_CORRUPT: ("damaged", "is damaged (SQLite reports a malformed database image)"),
    sqlite3.SQLITE_NOTADB: ("not-a-database", "is not an SQLite database"),
}


def primary_code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code of an error (extended codes carry it in the low byte)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def runtime_fault(exc: BaseException) -> str | None:
    """Why an error is a fault of the disk or the file (to retry later), or None for a bug."""
    if not isinstance(exc, sqlite3.Error):
        return None
    code = primary_code(exc)
    return None if code is None else _RUNTIME_FAULTS.get(code)


def unusable_from(path: str, exc: sqlite3.Error) -> DatabaseUnusable | None:
    """The start-up refusal an SQLite error stands for, or None if it is not about the file."""
    if getattr(exc, "sqlite_errorcode", None) == _READONLY_DIRECTORY:
        found: tuple[str, str] | None = ("unwritable", "cannot be written: its folder is read-only")
    else:
        found = _OPEN_KINDS.get(primary_code(exc) or -1)
    if found is None:
        return None
    kind, problem = found
    if kind in ("unwritable", "io"):
        # SQLite's codes do not say why; the operating system does (permission denied,
        # read-only file system...), so ask it the same question.
        reason = why_unwritable(path)
        problem = f"cannot be written: {reason}" if reason else problem
    return DatabaseUnusable(path, kind, problem)


def why_unwritable(path: str) -> str | None:
    """The operating system's reason why the database or its folder cannot be written."""
    problem = folder_problem(Path(path).parent)
    if problem or not Path(path).is_file():
        return problem
    try:
        with open(path, "r+b"):
            return None
    except OSError as exc:
        return f"the file cannot be opened for writing ({exc.strerror})"


def inspect_file(path: str) -> None:
    """Refuse, before SQLite opens it, a path that cannot hold a database.

    A missing or empty file is fine (SQLite starts a new database in it). Anything else must
    begin with SQLite's header and be as long as the header says, or the file was cut short
    by a failed copy or a full disk and SQLite would only notice when it reads the lost part.
    """
    where = Path(path)
    if where.is_dir():
        raise DatabaseUnusable(path, "folder", "is a folder, not a database file")
    try:
        with where.open("rb") as fh:
            header = fh.read(HEADER_SIZE)
            size = os.fstat(fh.fileno()).st_size
    except FileNotFoundError:
        return
    except PermissionError:
        raise DatabaseUnusable(path, "unwritable", "cannot be read: permission denied") from None
    except OSError as exc:
        raise DatabaseUnusable(path, "io", f"cannot be read: {exc.strerror}") from None
    if size == 0:
        return
    if not header.startswith(SQLITE_HEADER):
        raise DatabaseUnusable(
            path, "not-a-database", f"is not an SQLite database ({_looks_like(header)})"
        )
    if len(header) < HEADER_SIZE:
        raise DatabaseUnusable(
            path, "damaged", f"is truncated: {size} bytes, shorter than its header"
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise DatabaseUnusable(
            path, "damaged", f"is damaged: its header names a page size of {page_size}"
        )
    # The page count in the header is only valid when its "version valid for" matches the
    # change counter (files written by SQLite 3.7.0 and later).
    pages = int.from_bytes(header[28:32], "big") if header[24:28] == header[92:96] else 0
    if size % page_size or size < pages * page_size:
        expected = f", its header says {pages * page_size}" if pages else ""
        raise DatabaseUnusable(path, "damaged", f"is truncated: {size} bytes{expected}")


def folder_problem(folder: Path) -> str | None:
    """Why the bot could not create files in `folder` (creating it first), or None.

    Tried for real with a scratch file: permission bits, a read-only mount, or a user
    namespace all answer the same way, which no `os.access` check can promise.
    """
    existing = folder.absolute()  # "the folder ." would say little
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a folder"
    try:
        fd, scratch = tempfile.mkstemp(dir=existing, prefix=".barrage-write-test-")
    except OSError as exc:
        return f"the folder {existing} cannot be written ({exc.strerror})"
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(scratch)
    return None


def check_database(path: str) -> None:
    """Everything start-up checks of an existing database, without changing it.

    Raises DatabaseUnusable; used by `--check-config` (start-up itself opens the store).
    """
    inspect_file(path)
    problem = why_unwritable(path)
    if problem:
        raise DatabaseUnusable(path, "unwritable", f"cannot be written: {problem}")
    if not Path(path).is_file() or Path(path).stat().st_size == 0:
        return
    con = sqlite3.connect(path)
    try:
        rows = [str(r[0]) for r in con.execute("PRAGMA integrity_check(1)")]
    except sqlite3.Error as exc:
        raise unusable_from(path, exc) or exc from None
    finally:
        con.close()
    if rows != ["ok"]:
        raise damaged(path, rows)


def damaged(path: str, report: list[str]) -> DatabaseUnusable:
    """The refusal for a failed integrity check, on one line."""
    # The report's lines joined, without its "*** in database main ***" banner.
    found = "; ".join(line for r in report for line in r.splitlines() if "***" not in line)
    return DatabaseUnusable(path, "damaged", f"is damaged (SQLite's check: {found[:160]})")


def _looks_like(header: bytes) -> str:
    """A few words on what a non-database file seems to be."""
    try:
        text = header.decode("utf-8")
    except UnicodeDecodeError:
        text = "\0"
    if all(c.isprintable() or c in "\t\r\n" for c in text):
        return "it is a text file"
    return "it does not start with SQLite's header"


class Outage:
    """Logs a fault once when it starts and once when it ends, never once per request."""

    def __init__(self, logger: logging.Logger, what: str) -> None:
        self._log = logger
        self._what = what
        #: The reason of the fault in progress, or None while all is well.
        self.reason: str | None = None

    def failed(self, reason: str, consequence: str) -> None:
        """Record a failure: an ERROR line at the first, DEBUG lines while it lasts."""
        if self.reason is None:
            self._log.error("%s failed: %s; %s", self._what, reason, consequence)
        else:
            self._log.debug("%s failed again: %s", self._what, reason)
        self.reason = reason

    def succeeded(self) -> None:
        """Record a success: one line if it ends a fault."""
        if self.reason is not None:
            self._log.warning("%s works again (after: %s)", self._what, self.reason)
            self.reason = None
