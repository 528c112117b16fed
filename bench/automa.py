"""The automa's strength, measured: per level, games of one random player against two
automas of that level; then games of three automas of different levels (and one random
player) against each other. Prints mean final VP, energy per round, win rates, the
requirements (Medium beats a random player in more than 95 % of games; a higher level scores
more on average than a lower one in mixed games), and the coverage of every action type and
placement criterion across the games. Every automa turn is checked against the second,
deliberately simple implementation of the turn algorithm (tests/rules/automa/reference.py).

    .venv/bin/python bench/automa.py [games per level, default 200] [first seed]
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from benchargs import numbers

from bot.rules import GameOptions
from bot.rules.automa.criteria import CRITERIA
from bot.rules.automa.seats import LEVEL_NAMES
from bot.rules.automa.turn import PERFORM
from tests.rules.automa.games import Played, play_game

EXTRA_STEPS = ("completes_system", "tie_break", "first_available", "last_available")


def energy_per_round(played: Played, company: str) -> float:
    """A company's mean energy per round."""
    history = played.game.state.history
    return mean(row["energy"].get(company, 0) for row in history)


def options_for(seed: int, levels: tuple[int, ...]) -> GameOptions:
    """Every fourth game is a full game with The Leeghwater Project, the others introductory."""
    if seed % 4 == 3:
        return GameOptions(
            players=len(levels) + 1,
            seed=seed,
            automa=levels,
            setup="full",
            expansions=("leeghwater",),
        )
    return GameOptions(players=len(levels) + 1, seed=seed, automa=levels)


def main() -> None:
    games, first = numbers(
        __doc__, ("games", 200, "games per level"), ("first_seed", 0, "the first game's seed")
    )
    start = time.perf_counter()
    actions: Counter = Counter()
    criteria: Counter = Counter()
    problems: list[str] = []
    turns = 0
    verdicts: list[tuple[str, bool]] = []

    print(f"One random player against two automas of one level, {games} games per level")
    print("level    automa VP  random VP  automa energy/round  automa beats random  random last")
    win_rates = {}
    for level in range(4):
        automa_vp, random_vp, energy, beats, last = [], [], [], [], []
        for seed in range(first, first + games):
            played = play_game(options_for(seed, (level, level)), check_every=False)
            actions.update(played.actions)
            criteria.update(played.criteria)
            problems += played.problems
            turns += played.turns
            seats = played.game.state.seats
            person, automas = seats[0], seats[1:]
            vp = {c: played.game.company(c).vp for c in seats}
            random_vp.append(vp[person])
            for company in automas:
                automa_vp.append(vp[company])
                energy.append(energy_per_round(played, company))
                beats.append(vp[company] > vp[person])
            last.append(all(vp[person] < vp[c] for c in automas))
        win_rates[level] = 100 * mean(beats)
        print(
            f"{LEVEL_NAMES[level]:<8} {mean(automa_vp):9.1f}  {mean(random_vp):9.1f}  "
            f"{mean(energy):19.1f}  {win_rates[level]:18.1f} %  {100 * mean(last):10.1f} %"
        )
    verdicts.append(("Medium beats a random player in more than 95 % of games", win_rates[1] > 95))

    print()
    mixed_games = max(4, games // 2)
    print(
        f"Mixed levels: one random player and three automas of different levels, {mixed_games} games"
    )
    vp_by_level: dict[int, list[int]] = defaultdict(list)
    energy_by_level: dict[int, list[float]] = defaultdict(list)
    wins: Counter = Counter()
    pair_wins: Counter = Counter()
    pair_games: Counter = Counter()
    trios = list(itertools.combinations(range(4), 3))
    for index, seed in enumerate(range(first + 10_000, first + 10_000 + mixed_games)):
        trio = trios[index % len(trios)]
        levels = tuple(trio[(i + index // len(trios)) % 3] for i in range(3))  # seats rotate
        played = play_game(options_for(seed, levels), check_every=False)
        actions.update(played.actions)
        criteria.update(played.criteria)
        problems += played.problems
        turns += played.turns
        game = played.game
        automas = game.state.seats[1:]
        vp = {c: game.company(c).vp for c in automas}
        level_of = {c: game.automa_level(c) for c in automas}
        for company in automas:
            vp_by_level[level_of[company]].append(vp[company])
            energy_by_level[level_of[company]].append(energy_per_round(played, company))
        winner = max(automas, key=lambda c: vp[c])
        wins[level_of[winner]] += 1
        for a, b in itertools.combinations(automas, 2):
            low, high = sorted((a, b), key=lambda c: level_of[c])
            pair = (level_of[low], level_of[high])
            pair_games[pair] += 1
            pair_wins[pair] += vp[high] > vp[low]
    print("level    mean VP  energy/round  best automa of its game")
    for level in range(4):
        print(
            f"{LEVEL_NAMES[level]:<8} {mean(vp_by_level[level]):7.1f}  "
            f"{mean(energy_by_level[level]):12.1f}  {wins[level]:4d} games"
        )
    print("higher level outscores lower, same game:")
    for pair in sorted(pair_games):
        share = 100 * pair_wins[pair] / pair_games[pair]
        print(
            f"  {LEVEL_NAMES[pair[1]]} over {LEVEL_NAMES[pair[0]]}: {share:.1f} % of {pair_games[pair]}"
        )
    means = [mean(vp_by_level[level]) for level in range(4)]
    verdicts.append(
        (
            "a higher level scores more on average than a lower one in mixed games",
            all(means[i] < means[i + 1] for i in range(3)),
        )
    )

    print()
    print(f"Coverage over {turns} automa turns")
    for name in PERFORM:
        print(f"  action {name:<40} {actions[name]:6d}")
    for name in [*CRITERIA, *EXTRA_STEPS]:
        print(f"  criterion {name:<37} {criteria[name]:6d}")
    missing = [n for n in PERFORM if not actions[n]] + [
        n for n in [*CRITERIA, *EXTRA_STEPS] if not criteria[n]
    ]
    verdicts.append(("every action type and placement criterion fired", not missing))
    if missing:
        print("  never fired:", ", ".join(missing))
    verdicts.append(("every automa turn agrees with the second implementation", not problems))
    for problem in problems[:20]:
        print("  differs:", problem)
    print(f"  {len(problems)} turns differ from the second implementation")
    print()
    for text, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    print(f"{time.perf_counter() - start:.1f} s")
    sys.exit(0 if all(ok for _text, ok in verdicts) else 1)


if __name__ == "__main__":
    main()
