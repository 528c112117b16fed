"""CPU time of `Game.decisions()` and `Game.apply` over random games of every board and
expansion mix (the notation's cost: listing builds every option's typed move and text,
applying parses the answer once).

Prints, per mix and in all, the CPU seconds spent listing (a fresh listing at every step) and
applying (the answer and the engine's automatic follow-ups), and the mean per answer.
Run: /work/venv/bin/python bench/notation.py [games per mix] [repeats, best kept]
"""

from __future__ import annotations

import time

from benchargs import numbers

from bot.rules import GameOptions, new_game
from bot.rules.prng import SplitMix64

MIXES: tuple[tuple[str, GameOptions], ...] = (
    ("intro", GameOptions(players=3, setup="intro")),
    ("full", GameOptions(players=4, setup="full")),
    ("five_player", GameOptions(players=4, setup="full", map="five_player")),
    ("leeghwater", GameOptions(players=3, setup="full", expansions=("leeghwater",))),
    ("colorado", GameOptions(players=3, setup="full", expansions=("colorado",))),
    ("lw+colorado", GameOptions(players=2, setup="full", expansions=("leeghwater", "colorado"))),
    ("nile", GameOptions(players=3, setup="full", expansions=("nile",))),
    ("lw+nile", GameOptions(players=4, setup="full", expansions=("leeghwater", "nile"))),
    ("automa", GameOptions(players=3, setup="full", automa=(2,))),
)


def play(options: GameOptions, seed: int) -> tuple[float, float, int]:
    """CPU seconds listing, CPU seconds applying, and the answers of one random game."""
    game = new_game(
        GameOptions(
            players=options.players,
            setup=options.setup,
            map=options.map,
            expansions=options.expansions,
            automa=options.automa,
            seed=seed,
        )
    )
    rng = SplitMix64(seed * 31 + 7)
    listing = applying = 0.0
    answers = 0
    clock = time.process_time
    while not game.is_over:
        game._decisions = None  # a fresh listing, not the one apply left cached
        t0 = clock()
        decisions = game.decisions()
        t1 = clock()
        decision = decisions[rng.below(len(decisions))]
        option = decision.options[rng.below(len(decision.options))]
        t2 = clock()
        game.apply(option.notation, decision.player)
        t3 = clock()
        listing += t1 - t0
        applying += t3 - t2
        answers += 1
    return listing, applying, answers


def main() -> None:
    games, repeats = numbers(
        __doc__, ("games", 3, "games per mix"), ("repeats", 3, "repeats, the best kept")
    )
    best: dict[str, tuple[float, float, int]] = {}
    for _ in range(repeats):
        for name, options in MIXES:
            runs = [play(options, seed) for seed in range(games)]
            total = tuple(sum(run[i] for run in runs) for i in range(3))
            listed, applied, answers = float(total[0]), float(total[1]), int(total[2])
            if name not in best or listed + applied < sum(best[name][:2]):
                best[name] = (listed, applied, answers)
    print(f"{games} random games per mix, best of {repeats}; CPU time")
    print(f"{'mix':<14}{'answers':>8}{'list s':>9}{'apply s':>9}{'list µs':>9}{'apply µs':>10}")
    for name, (listed, applied, answers) in best.items():
        print(
            f"{name:<14}{answers:>8}{listed:>9.3f}{applied:>9.3f}"
            f"{listed / answers * 1e6:>9.0f}{applied / answers * 1e6:>10.0f}"
        )
    listed = sum(v[0] for v in best.values())
    applied = sum(v[1] for v in best.values())
    answers = sum(v[2] for v in best.values())
    print(
        f"{'all':<14}{answers:>8}{listed:>9.3f}{applied:>9.3f}"
        f"{listed / answers * 1e6:>9.0f}{applied / answers * 1e6:>10.0f}"
    )


if __name__ == "__main__":
    main()
