"""Print how two bot processes on one PostgreSQL database fare in 1,000 races of each kind.

Two rival processes (tests/store/rival.py) are released together at a barrier for every
race: both append at the same (game, version), both claim the same announcement, both
claim the same reminder. Every race must have exactly one winner; the script prints the
counts, how the wins split between the rivals and the time per race (figures, not a test;
tests/store/test_store_processes.py runs 50 of each).

Usage: .venv/bin/python bench/processes.py [--races N] [--url postgresql://...]
Without --url a throwaway server is started (as in the tests) and removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "store"))  # the rival process and its driver
sys.path.insert(0, str(ROOT / "tests"))  # the throwaway server
sys.path.insert(0, str(ROOT))

from pgtestserver import TestPostgres  # noqa: E402
from rival import Rivals  # noqa: E402

from bot.store import system_clock  # noqa: E402
from bot.store.postgres import PostgresStore  # noqa: E402

#: One race: given the race number, run it and return the winner's index (0 or 1), or
#: raise AssertionError when it did not have exactly one winner.
Race = Callable[[int], Awaitable[int]]


def _one_winner(answers: list[dict[str, Any]], won: Callable[[dict[str, Any]], bool]) -> int:
    """The index of the single winner among the answers (AssertionError otherwise)."""
    winners = [i for i, answer in enumerate(answers) if won(answer)]
    if len(winners) != 1:
        raise AssertionError(f"{len(winners)} winners: {answers}")
    return winners[0]


async def _new_game(store: PostgresStore) -> int:
    """A fresh two-seat game, its id."""
    game = await store.create_game(
        guild_id=1,
        channel_id=int(time.time_ns() % 10**12),
        creator_id=1,
        options={},
        seed=1,
        engine_version="bench",
        seats=[1, 2],
    )
    return game.id


async def run_kind(
    name: str, races: int, race: Race, failures: list[str]
) -> tuple[str, Counter[int], list[float]]:
    """Run `races` races of one kind; the wins per rival and the seconds per race."""
    wins: Counter[int] = Counter()
    times: list[float] = []
    for number in range(races):
        started = time.perf_counter()
        try:
            wins[await race(number)] += 1
        except AssertionError as exc:
            failures.append(f"{name} race {number}: {exc}")
        times.append(time.perf_counter() - started)
    return name, wins, times


async def run(url: str, races: int) -> int:
    """Run every kind of race; print figures; return the number of races without one winner."""
    store = await PostgresStore.open(url, clock=system_clock)
    failures: list[str] = []
    results = []
    try:
        async with Rivals(url) as rivals:
            game = await _new_game(store)

            async def append(version: int) -> int:
                answers = await rivals.race(
                    *({"op": "append", "game": game, "version": version, "tag": t} for t in "ab")
                )
                return _one_winner(answers, lambda a: a["won"])

            results.append(await run_kind("append at one version", races, append, failures))
            if len(await store.read_log(game)) != races:
                failures.append("append: the log does not hold one entry per race")

            outbox_game = await _new_game(store)

            async def claim_outbox(number: int) -> int:
                await store.append(outbox_game, number, [{"kind": "system"}], outbox=[{"n": 1}])
                answers = await rivals.race(
                    {"op": "claim_outbox", "owner": "a"}, {"op": "claim_outbox", "owner": "b"}
                )
                winner = _one_winner(answers, lambda a: len(a["claimed"]) == 1)
                if any(len(a["claimed"]) > 1 for a in answers):
                    raise AssertionError(f"more than one item claimed: {answers}")
                [[item_id, claim]] = answers[winner]["claimed"]
                await store.mark_sent(item_id, claim, 1000 + number)
                return winner

            results.append(await run_kind("claim one announcement", races, claim_outbox, failures))

            reminder_game = await _new_game(store)

            async def claim_reminder(number: int) -> int:
                await store.set_reminder(reminder_game, 1 + number % 2, system_clock() - 1)
                answers = await rivals.race({"op": "claim_reminders"}, {"op": "claim_reminders"})
                winner = _one_winner(answers, lambda a: len(a["claimed"]) == 1)
                await store.clear_reminders(reminder_game)
                return winner

            results.append(await run_kind("claim one reminder", races, claim_reminder, failures))
    finally:
        await store.close()

    print(f"{races} races of each kind, two processes released together at a barrier")
    print(
        f"{'race':<26}{'one winner':>11}{'rival a':>9}{'rival b':>9}{'median ms':>11}{'p99 ms':>9}"
    )
    for name, wins, times in results:
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        print(
            f"{name:<26}{sum(wins.values()):>11}{wins[0]:>9}{wins[1]:>9}"
            f"{statistics.median(times) * 1000:>11.2f}{p99 * 1000:>9.2f}"
        )
    for failure in failures[:20]:
        print("FAILED:", failure)
    print(f"races without exactly one winner: {len(failures)}")
    return len(failures)


def main() -> None:
    """Parse arguments, start a server if none is given, run the races."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--url", help="an empty PostgreSQL database (default: a throwaway one)")
    args = parser.parse_args()
    if args.url:
        failed = asyncio.run(run(args.url, args.races))
    else:
        with TestPostgres() as server:
            failed = asyncio.run(run(server.new_database("bench"), args.races))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
