"""A child process that meets real disk faults on a small tmpfs in its own mount namespace.

Usage (run by tests/store/test_disk_faults_real.py under `unshare`, never directly):
    disk_fault_worker.py full DIR       a full disk under a running service, then space again
    disk_fault_worker.py readonly DIR   the bot started on a database whose disk is read-only

Prints one JSON object with what it saw; the parent test asserts on it.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.service import CannotSave, GameService, RendererPool
from bot.store import SqliteStore
from tests.service.conftest import fake_png
from tests.service.helpers import FakeClock, actor, deciding, started_game


def mount_tmpfs(folder: Path, size: str, *options: str) -> None:
    """A fresh tmpfs of `size` at `folder` (visible only in this mount namespace)."""
    folder.mkdir(parents=True, exist_ok=True)
    opts = ",".join([f"size={size}", *options])
    subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """Write a file until the disk has not one byte left; return it."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as fh:
        for chunk in (65536, 4096, 1):
            while True:
                try:
                    fh.write(b"\0" * chunk)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                    break
    return filler


class Lines(logging.Handler):
    """Keeps the formatted records of WARNING and above."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[tuple[str, str, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((record.levelname, record.getMessage(), record.exc_info is not None))


async def full(folder: Path) -> dict[str, Any]:
    """Play on a disk that fills up, then gets space back."""
    mount_tmpfs(folder, "2m")
    lines = Lines()
    logging.getLogger().addHandler(lines)
    clock = FakeClock()
    store = await SqliteStore.open(folder / "games.sqlite3", clock=clock)
    try:
        return await _play_through_a_full_disk(store, clock, folder, lines)
    finally:
        await store.close()


async def _play_through_a_full_disk(
    store: SqliteStore, clock: FakeClock, folder: Path, lines: Lines
) -> dict[str, Any]:
    """Fill the disk under a started game, try moves, free the disk, move again."""
    path = folder / "games.sqlite3"
    pool = RendererPool(kind="inline", render_fn=fake_png)
    service = GameService(store, clock=clock, renderer_pool=pool)
    game_id = await started_game(service, 2)
    before = await store.version(game_id)
    # Empty the write-ahead log into the database file, so that the next write needs new
    # blocks (a WAL with room left would absorb small writes even on a full disk).
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    filler = fill(folder)
    refusals = []
    for _ in range(3):
        user, panel = await deciding(service)
        try:
            await service.moves.play(
                actor(user), [panel.options[0].notation], expected_version=panel.version
            )
        except CannotSave as exc:
            refusals.append(str(exc))
    during = await store.version(game_id)
    still_reads = (await deciding(service))[1].prompt != ""
    filler.unlink()
    user, panel = await deciding(service)
    await service.moves.play(
        actor(user), [panel.options[0].notation], expected_version=panel.version
    )
    after = await store.version(game_id)
    con = sqlite3.connect(path)
    integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    return {
        "refusals": refusals,
        "versions": [before, during, after],
        "reads": still_reads,
        "log": lines.lines,
        "integrity": integrity,
    }


async def readonly(folder: Path) -> dict[str, Any]:
    """Start the real bot on a database whose disk became read-only."""
    mount_tmpfs(folder, "2m")
    path = folder / "games.sqlite3"
    store = await SqliteStore.open(path, clock=FakeClock())
    try:
        pool = RendererPool(kind="inline", render_fn=fake_png)
        await started_game(GameService(store, clock=FakeClock(), renderer_pool=pool), 2)
    finally:
        await store.close()
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    config = Path(os.environ["WORKER_TMP"]) / "config.toml"
    config.write_text(f'[database]\npath = "{path}"\n[backup]\ndirectory = "{folder}/backups"\n')
    results = {}
    for args in (["--check-config"], []):
        run = subprocess.run(
            [sys.executable, "-m", "bot", "--config", str(config), *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        results[" ".join(args) or "start"] = {"rc": run.returncode, "stderr": run.stderr}
    return results


def main() -> None:
    mode, folder = sys.argv[1], Path(sys.argv[2])
    result = asyncio.run({"full": full, "readonly": readonly}[mode](folder))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
