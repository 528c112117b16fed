"""Print how fast the SQLite store appends, claims and reads (figures, not a test).

Usage: .venv/bin/python bench/store_append.py [--games N] [--turns N] [DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bot.store import SqliteStore, StaleVersionError


async def run(folder: Path, games: int, turns: int) -> None:
    """Play `turns` turns in each of `games` games from two store instances, timing each part."""
    path = folder / "bench.sqlite3"
    a = await SqliteStore.open(path)
    b = await SqliteStore.open(path)
    ids = [
        (
            await a.create_game(
                guild_id=1,
                channel_id=c,
                creator_id=1,
                options={},
                seed=c,
                engine_version="bench",
                seats=[1, 2, 3, 4],
            )
        ).id
        for c in range(games)
    ]
    state = {"board": ["x" * 40] * 100}  # a few kB, like an engine snapshot

    started = time.perf_counter()
    for turn in range(turns):
        for game_id in ids:
            # Three decisions, then the commit with its snapshot and announcement.
            await a.append(game_id, turn * 4, [{"kind": "decision", "n": i} for i in range(3)])
            await a.append(
                game_id,
                turn * 4 + 3,
                [{"kind": "confirm"}],
                snapshot=state,
                outbox=[{"text": "turn"}],
            )
    elapsed = time.perf_counter() - started
    appends = 2 * turns * games
    print(f"appends: {appends} in {elapsed:.2f} s = {appends / elapsed:.0f}/s (1 instance)")

    started, stale = time.perf_counter(), 0
    version = await a.version(ids[0])
    for _ in range(500):
        results = await asyncio.gather(
            a.append(ids[0], version, [{"kind": "decision"}]),
            b.append(ids[0], version, [{"kind": "decision"}]),
            return_exceptions=True,
        )
        stale += sum(isinstance(r, StaleVersionError) for r in results)
        version += 1
    elapsed = time.perf_counter() - started
    print(f"races: 500 in {elapsed:.2f} s = {500 / elapsed:.0f}/s, {stale} stale")

    started, claimed = time.perf_counter(), 0
    while items := await a.claim_outbox(limit=50):
        for item in items:
            await a.mark_sent(item.id, item.claim, item.id)
        claimed += len(items)
    elapsed = time.perf_counter() - started
    print(f"outbox: {claimed} claimed and marked sent in {elapsed:.2f} s")

    started = time.perf_counter()
    for game_id in ids:
        await a.read_log(game_id)
        await a.latest_snapshot(game_id)
    elapsed = time.perf_counter() - started
    print(f"reads: log + snapshot of {games} games in {elapsed * 1000:.0f} ms")
    print(f"file: {path.stat().st_size / 1e6:.1f} MB")
    await a.close()
    await b.close()


def main() -> None:
    """Parse the arguments and run the benchmark in a temporary directory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("dir", nargs="?", help="where to put the database (default: temp)")
    args = parser.parse_args()
    if args.dir:
        asyncio.run(run(Path(args.dir), args.games, args.turns))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run(Path(tmp), args.games, args.turns))


if __name__ == "__main__":
    main()
