"""Benchmark of the rules engine: listing and applying options, whole games, loading.

Prints, per decision type, p50/p99/max of the time to list the options and to apply one;
the time of a complete random 4-player game; and loading a game at its worst point (the
latest snapshot at the start of round 5 plus a replay of the decisions after it).
Run: .venv/bin/python bench/engine.py [games]
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict

from benchargs import numbers

from bot.rules import GameOptions, GameState, new_game, open_game


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    (games,) = numbers(__doc__, ("games", 200, "whole games to play"))
    listing: dict[str, list[float]] = defaultdict(list)
    applying: dict[str, list[float]] = defaultdict(list)
    whole: list[float] = []
    decisions_per_game: list[int] = []
    for seed in range(games):
        rng = random.Random(seed)
        start = time.perf_counter()
        game = new_game(GameOptions(players=4, seed=seed))
        count = 0
        while not game.is_over:
            t0 = time.perf_counter()
            game._decisions = None  # measure a fresh listing, not the cached one
            decisions = game.decisions()
            t1 = time.perf_counter()
            decision = rng.choice(decisions)
            listing[decision.kind].append(t1 - t0)
            option = rng.choice(decision.options)
            t2 = time.perf_counter()
            game.apply(option.notation, decision.player)
            applying[decision.kind].append(time.perf_counter() - t2)
            count += 1
        whole.append(time.perf_counter() - start)
        decisions_per_game.append(count)

    print(f"{games} random 4-player introductory games")
    print(
        f"{'decision':<20}{'n':>7}{'list p50':>10}{'p99':>9}{'max':>9}{'apply p50':>11}{'p99':>9}{'max':>9}  (ms)"
    )
    for kind in sorted(listing):
        lst = [t * 1000 for t in listing[kind]]
        app = [t * 1000 for t in applying[kind]]
        print(
            f"{kind:<20}{len(lst):>7}{percentile(lst, 0.5):>10.3f}{percentile(lst, 0.99):>9.3f}"
            f"{max(lst):>9.3f}{percentile(app, 0.5):>11.3f}{percentile(app, 0.99):>9.3f}{max(app):>9.3f}"
        )
    every = [t * 1000 for times in listing.values() for t in times]
    print(f"all decisions: list p99 {percentile(every, 0.99):.3f} ms (target < 5 ms)")
    print(
        f"complete game: median {statistics.median(whole) * 1000:.1f} ms, max {max(whole) * 1000:.1f} ms"
        f" (target < 500 ms), {statistics.median(decisions_per_game):.0f} decisions"
    )

    # Worst point to load: snapshot at the start of round 5, then replay the rest.
    rng = random.Random(7)
    game = new_game(GameOptions(players=4, seed=7))
    snapshot = None
    tail: list[tuple[str, str]] = []
    while not game.is_over:
        if snapshot is None and game.state.round == 5:
            snapshot = game.state.to_json()
        decision = rng.choice(game.decisions())
        option = rng.choice(decision.options)
        if snapshot is not None:
            tail.append((option.notation, decision.player))
        game.apply(option.notation, decision.player)
    loads = []
    for _ in range(50):
        t0 = time.perf_counter()
        loaded = open_game(GameState.from_json(snapshot))
        for notation, player in tail:
            loaded.apply(notation, player)
        loads.append(time.perf_counter() - t0)
    print(
        f"load at worst point (round-5 snapshot + {len(tail)} decisions): "
        f"median {statistics.median(loads) * 1000:.1f} ms, max {max(loads) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
