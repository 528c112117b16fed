"""How long start-up's database check takes as the database grows (prints figures).

    .venv/bin/python bench/store_open.py [--games 200] [--records 500]

Builds a database of GAMES games with RECORDS log records each (about 300 bytes a record,
like a decision with its notation) and a snapshot every 25 records, then times
`SqliteStore.open` (which runs SQLite's full integrity check before migrating) and, for
comparison, the integrity check alone and `PRAGMA quick_check`. Timings on a shared
machine are noisy; run it twice.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.store import SqliteStore  # noqa: E402

SNAPSHOT = {"state": "x" * 20_000}


async def build(path: Path, games: int, records: int) -> None:
    """The database: games with long logs and periodic snapshots."""
    clock = iter(range(1, 10**9)).__next__
    store = await SqliteStore.open(path, clock=clock)
    for g in range(games):
        game = await store.create_game(
            guild_id=1,
            channel_id=10 + g,
            creator_id=1,
            options={},
            seed=g,
            engine_version="bench",
            seats=[1, 2, 3],
        )
        version = 0
        while version < records:
            batch = [
                {"kind": "decision", "notation": f"base D{v % 12}U", "pad": "p" * 250}
                for v in range(version, min(version + 25, records))
            ]
            version = await store.append(game.id, version, batch, snapshot=SNAPSHOT)
    await store.close()


def timed(fn: object) -> float:
    """Seconds one call takes."""
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--records", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        asyncio.run(build(path, args.games, args.records))
        size = path.stat().st_size / 2**20

        async def open_close() -> None:
            store = await SqliteStore.open(path)
            await store.close()

        def pragma(name: str) -> None:
            con = sqlite3.connect(path)
            con.execute(f"PRAGMA {name}").fetchall()
            con.close()

        print(f"database: {args.games} games x {args.records} records, {size:.1f} MiB")
        for label, fn in (
            ("SqliteStore.open (with integrity check)", lambda: asyncio.run(open_close())),
            ("PRAGMA integrity_check alone", lambda: pragma("integrity_check(1)")),
            ("PRAGMA quick_check alone", lambda: pragma("quick_check(1)")),
        ):
            runs = sorted(timed(fn) for _ in range(3))
            print(f"{label:42s} best {runs[0] * 1000:8.1f} ms   median {runs[1] * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
