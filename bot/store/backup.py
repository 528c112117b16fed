"""Scheduled online backups: timestamped copies in a directory, the oldest pruned."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.store.base import Clock, SupportsBackup
from bot.store.health import Outage

log = logging.getLogger(__name__)

_NAME = re.compile(r"^barrage-(\d{8}-\d{6})-(\d{3})\.sqlite3$")
#: After a failed backup, try again this soon (or at the interval, if that is sooner).
RETRY_MS = 10 * 60 * 1000


def backup_name(now_ms: int) -> str:
    """The file name of a backup taken at `now_ms`, sortable by time."""
    stamp = datetime.fromtimestamp(now_ms // 1000, UTC).strftime("%Y%m%d-%H%M%S")
    return f"barrage-{stamp}-{now_ms % 1000:03d}.sqlite3"


def backup_time(path: Path) -> int | None:
    """The time (UTC ms) encoded in a backup's file name, or None for other files."""
    match = _NAME.match(path.name)
    if not match:
        return None
    when = datetime.strptime(match[1], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    return int(when.timestamp()) * 1000 + int(match[2])


def list_backups(directory: str | os.PathLike[str]) -> list[Path]:
    """The backups in a directory, oldest first."""
    folder = Path(directory)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if backup_time(p) is not None)


async def backup_now(
    store: SupportsBackup, directory: str | os.PathLike[str], *, clock: Clock, keep: int
) -> Path:
    """Take one backup into `directory` and delete all but the newest `keep` backups."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / backup_name(clock())
    await store.backup(dest)
    log.info("database backed up to %s", dest)
    for old in list_backups(folder)[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)
        log.info("old backup %s deleted", old)
    return dest


async def run_backups(
    store: SupportsBackup,
    directory: str | os.PathLike[str],
    *,
    interval_ms: int,
    keep: int,
    clock: Clock,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Back up every `interval_ms` until cancelled; the first as soon as the newest
    backup in `directory` is older than the interval (so restarts do not skip one)."""
    backups = list_backups(directory)
    last = backup_time(backups[-1]) if backups else None
    outage = Outage(log, f"backing up the database to {directory}")
    while True:
        now = clock()
        if last is None or now - last >= interval_ms:
            try:
                await backup_now(store, directory, clock=clock, keep=keep)
                last = now
                outage.succeeded()
            except (OSError, sqlite3.Error) as exc:
                # A full disk or an unwritable folder must not stop the bot: one line when
                # it starts (not a traceback at every retry), one when backups work again.
                outage.failed(_reason(exc), f"trying again every {RETRY_MS // 60_000} minutes")
                await sleep(min(interval_ms, RETRY_MS) / 1000)
                continue
            except Exception:
                log.exception("database backup to %s failed", directory)
                await sleep(min(interval_ms, RETRY_MS) / 1000)
                continue
        await sleep(max(last + interval_ms - clock(), 0) / 1000)


def _reason(exc: OSError | sqlite3.Error) -> str:
    """A short reason for a failed backup, without a traceback."""
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return f"{exc.strerror or exc}{where}"
    return str(exc)
