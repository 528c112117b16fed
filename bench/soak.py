"""Soak test: thousands of seeded random games (introductory, full, every third one with
The Leeghwater Project, every fifth one on the Nile with The Nile Affair, a fifth of the
others with The Colorado Connection; half of those with Leeghwater too; every seventh one with
1 to 3 automas of every level, each automa turn checked against the second implementation)
with every invariant checked after each action.

Run before resolving engine work: .venv/bin/python bench/soak.py [games] [first_seed]
"""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from benchargs import numbers

from bot.rules import GameOptions
from tests.rules.automa.games import play_game
from tests.rules.expansions.nile.test_random_games import play_nile_game
from tests.rules.test_random_games import play_random_game
from tests.rules.test_random_games_full import random_full_game


def main() -> None:
    games, first = numbers(
        __doc__, ("games", 2000, "games to play"), ("first_seed", 1000, "the first game's seed")
    )
    start = time.perf_counter()
    failures = 0
    for seed in range(first, first + games):
        players = 2 + seed % 3
        try:
            if seed % 7 == 6:
                automas = 1 + (seed // 7) % 3
                players = max(2, automas + (seed // 21) % 2)
                levels = tuple((seed + i) % 4 for i in range(automas))
                setup = "full" if (seed // 7) % 2 else "intro"
                extra = ("leeghwater",) if setup == "full" and (seed // 14) % 2 else ()
                options = GameOptions(
                    players=players, seed=seed, automa=levels, setup=setup, expansions=extra
                )
                problems = play_game(options).problems
                assert not problems, problems
            elif seed % 5 == 4:
                # Every fifth seed: The Nile Affair, every ledger invariant (irrigation too).
                players = 2 + (seed // 5) % 3
                extra = ("leeghwater",) if (seed // 5) % 2 else ()
                play_nile_game(players, seed, expansions=("nile", *extra))
            elif seed % 3 == 0:
                # Every third seed: The Leeghwater Project (player count varied separately,
                # since seed % 3 is fixed here).
                players = 2 + (seed // 3) % 3
                random_full_game(players, seed, expansions=("leeghwater",))
            elif seed % 5 == 1:
                # The Colorado Connection (its own map), with Leeghwater on every other one.
                players = 2 + (seed // 5) % 3
                both = ("leeghwater", "colorado") if (seed // 15) % 2 else ("colorado",)
                random_full_game(players, seed, expansions=both)
            elif seed % 2:
                random_full_game(players, seed)  # the full game's own invariants
            else:
                play_random_game(players, seed)  # introductory game, every ledger invariant
        except Exception:
            failures += 1
            print(f"seed {seed} ({players} players) failed:")
            traceback.print_exc()
    elapsed = time.perf_counter() - start
    print(
        f"{games} games, {failures} failures, {elapsed:.1f} s ({elapsed / games * 1000:.1f} ms/game)"
    )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
