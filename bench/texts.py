"""Every word a player reads, over many games: the text check's findings by kind (must be 0).

Plays seeded random whole games of every setup (intro and full, each expansion and allowed
combination, 2-4 seats, automa seats of each level) through the service, reading every text a
player can see, and checks them with tests/texts/checker.py, as tests/texts/test_texts.py
does over fewer games (with games through Discord and the console).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from tests.texts.checker import KINDS, Finding
from tests.texts.service_play import service_findings
from tests.texts.setups import Setup, all_setups


def one_game(job: tuple[int, Setup, int]) -> list[Finding]:
    """The findings of one game (in a worker process: its own event loop and database)."""
    i, setup, seed = job
    with tempfile.TemporaryDirectory(prefix=f"texts-{i}-") as tmp:
        return asyncio.run(service_findings(setup, seed, Path(tmp) / "game.sqlite3"))


def run(games: int, first_seed: int, show: int, jobs: int) -> int:
    """Read the games; print the findings by kind; 1 if there is any."""
    rounds = 1
    while len(all_setups(rounds)) < games:
        rounds += 1
    setups = all_setups(rounds)[:games]
    found: list[Finding] = []
    start = time.perf_counter()
    work = [(i, setup, first_seed + i) for i, setup in enumerate(setups)]
    # Game i is the same game (setup and seed) whatever the number of jobs.
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for done, findings in enumerate(pool.imap(one_game, work), start=1):
            found += findings
            if done % 25 == 0:
                so_far = len(found)
                print(
                    f"  {done} games, {time.perf_counter() - start:.0f} s, {so_far} findings",
                    flush=True,
                )
    counts = Counter(f.kind for f in found)
    print(f"{len(setups)} games in {time.perf_counter() - start:.0f} s; findings by kind:")
    for kind in KINDS:
        print(f"  {kind}: {counts.get(kind, 0)}")
    print(f"  total: {len(found)}")
    seen: dict[tuple[str, str], Finding] = {}
    for finding in found:
        seen.setdefault((finding.kind, finding.what), finding)
    for finding in list(seen.values())[:show]:
        print(f"    {str(finding)[:300]}")
    return 1 if found else 0


def main() -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="how many games (500)")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed (1000)")
    parser.add_argument("--show", type=int, default=20, help="examples to print (20)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (1)")
    args = parser.parse_args()
    return run(args.games, args.seed, args.show, max(1, args.jobs))


if __name__ == "__main__":
    sys.exit(main())
