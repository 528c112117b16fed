"""Print how soon committed announcements are posted, on SQLite and PostgreSQL (figures).

Turns are committed at `--rate` per second (Poisson arrivals, several under way at once as
players' Confirms are) over `--games` games (each commit appends its record with its
announcement, as a turn's Confirm does, and wakes the sender as the bot's commit does), while the bot's own OutboxSender claims, posts through a port that answers at
once, and marks them sent; nothing is drawn (the announcements carry no pictures), so the
figures are the store's share of an announcement's latency: commit to posted, p50 and p95,
and to marked sent. Each store at its shipped durability: SQLite in WAL with
synchronous=NORMAL, PostgreSQL (a throwaway server, as in the tests) with fsync and
synchronous commits (`--fsync-off` for the tests' settings). The CPU time of this process
and of the database server is printed beside the wall-clock figures with the machine's load.

Run: python bench/announce.py [--rate 20] [--seconds 20] [--games 50] [--backend B]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the throwaway PostgreSQL server
sys.path.insert(0, str(ROOT))

from proctree import cpu_seconds  # noqa: E402

from bot.service.outbox import OutboxSender  # noqa: E402
from bot.service.types import Announcement, ReminderNotice  # noqa: E402
from bot.store import Store, open_store, system_clock  # noqa: E402


class Port:
    """Posts at once, noting when each announcement arrived."""

    def __init__(self) -> None:
        self.posted: dict[tuple[int, int], float] = {}

    async def post(self, announcement: Announcement) -> int:
        """Note the post by its game and version; its message id is its outbox id."""
        self.posted[announcement.game_id, announcement.version] = time.perf_counter()
        return announcement.outbox_id

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Nothing to strip."""

    async def remind(self, notice: ReminderNotice) -> None:
        """No reminders here."""


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) in ms."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def run(database: str, args: argparse.Namespace, server_pid: int | None) -> None:
    """Commit at the rate for the time while the sender posts; print the figures."""
    store: Store = await open_store(database)
    port = Port()
    sender = OutboxSender(store, port, system_clock)
    games = []
    for channel in range(args.games):
        game = await store.create_game(
            guild_id=1,
            channel_id=channel + 1,
            creator_id=1,
            options={},
            seed=channel,
            engine_version="bench",
            seats=[1, 2, 3],
        )
        games.append([game.id, 0])
    stop = asyncio.Event()
    delivering = asyncio.create_task(sender.run(stop))
    committed: dict[tuple[int, int], float] = {}
    rng = random.Random(1)
    cpu, server_cpu = time.process_time(), cpu_seconds(server_pid) if server_pid else 0.0
    idle = list(range(len(games)))  # games without a commit under way
    commits: set[asyncio.Task[None]] = set()

    async def commit(index: int) -> None:
        """One turn's commit in game `index`, as a player's Confirm (others run meanwhile)."""
        game = games[index]
        try:
            version = await store.append(
                game[0],
                game[1],
                [{"kind": "confirm"}],
                outbox=[{"lines": [], "play_button": False}],
            )
            game[1] = version
            committed[game[0], version] = time.perf_counter()
            sender.wake()
        finally:
            idle.append(index)

    started = time.perf_counter()
    end = started + args.seconds
    due = started
    while (now := time.perf_counter()) < end:
        due += rng.expovariate(args.rate)
        if due > now:
            await asyncio.sleep(due - now)
        if idle:  # else every game is committing: this arrival is dropped (counted below)
            task = asyncio.create_task(commit(idle.pop(rng.randrange(len(idle)))))
            commits.add(task)
            task.add_done_callback(commits.discard)
    if commits:
        await asyncio.wait(commits)
    # Wait for the last posts (at most a while: a backlog shows in the figures).
    deadline = time.perf_counter() + 120
    while len(port.posted) < len(committed) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    elapsed = time.perf_counter() - started
    stop.set()
    await delivering
    cpu = time.process_time() - cpu
    server = f", server {cpu_seconds(server_pid) - server_cpu:.1f} s" if server_pid else ""
    latencies = [port.posted[key] - at for key, at in committed.items() if key in port.posted]
    print(
        f"{len(committed)} commits at {args.rate:g}/s over {args.games} games, "
        f"{len(port.posted)} posted in {elapsed:.1f} s: commit to posted p50 "
        f"{pct(latencies, 0.5):.0f} ms, p95 {pct(latencies, 0.95):.0f} ms, max "
        f"{pct(latencies, 1.0):.0f} ms (CPU: this process {cpu:.1f} s{server}; machine load "
        f"average {load_average()})"
    )
    await store.close()


def main() -> None:
    """Parse the arguments and run on each backend asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=20.0, help="commits per second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--fsync-off",
        action="store_true",
        help="the throwaway PostgreSQL server without fsync and synchronous commits",
    )
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        print("-- SQLite (one file, WAL, synchronous=NORMAL)")
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run(str(Path(tmp) / "announce.sqlite3"), args, None))
    if args.backend in ("postgresql", "both"):
        from pgtestserver import bench_database

        with bench_database("announce", fsync_off=args.fsync_off) as (url, pid):
            asyncio.run(run(url, args, pid))


if __name__ == "__main__":
    main()
