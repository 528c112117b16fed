"""Print the time of complete random 4-player full games, draft to final scoring (median)."""

from __future__ import annotations

import statistics
import time

from benchargs import numbers

from bot.rules import GameOptions, new_game
from bot.rules.prng import SplitMix64

RUNS = 10


def play(seed: int, players: int = 4, expansions: tuple[str, ...] = ()) -> int:
    """Play one random full game through listed options; return the decisions answered."""
    game = new_game(GameOptions(players=players, setup="full", seed=seed, expansions=expansions))
    rng = SplitMix64(seed + 1)
    answers = 0
    while not game.is_over:
        decision = game.decisions()[0]
        game.apply(decision.options[rng.below(len(decision.options))], decision.player)
        answers += 1
    return answers


def main(runs: int = RUNS) -> None:
    """Time `runs` seeded games (base, then with Leeghwater) and print median, min and max."""
    for name, expansions in (("full game", ()), ("Leeghwater game", ("leeghwater",))):
        times, answers = [], []
        for seed in range(runs):
            start = time.perf_counter()
            answers.append(play(seed, expansions=expansions))
            times.append(time.perf_counter() - start)
        print(
            f"random 4-player {name}: median {statistics.median(times) * 1000:.1f} ms, "
            f"min {min(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
            f"({statistics.median(answers):.0f} decisions; {runs} seeds; target < 500 ms)"
        )


if __name__ == "__main__":
    main(*numbers(__doc__, ("runs", RUNS, "games to time")))
