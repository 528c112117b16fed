"""The computer player's strength and cost, measured in whole games.

Plays, for N games each (seats alternated, or for automa matches half the games with each
company first in turn order), and prints each figure on its own line with its 95 % Wilson
interval (a tie counts half):

- strong against a random player, against the greedy baseline (every legal option scored by
  the VP, energy and credits it yields within the current turn, the best taken), against the
  Expert automa in two-seat introductory games and in full-setup games, against casual, and
  against the Medium automa;
- 4-seat games of strong players on each board (mean VP, decisions per game);
- worker CPU (`time.process_time()`) per strong decision (decisions with one option not
  counted) and per strong turn (its decisions up to Confirm): mean and p95.

Every AI answer is checked legal by the engine (`Decision.find`, then `apply`).

    /work/venv/bin/python bench/ai.py --games 10 --seed 0 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from statistics import mean, stdev
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.ai import decide
from bot.ai.determinize import copy_game
from bot.ai.search import BUDGETS, Budget
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.options import Decision
from bot.rules.prng import SplitMix64

AI_SEED_SALT = 0x5EED_A1


@dataclass
class Result:
    """One finished game."""

    match: str
    kinds: list[str]  # by seat: strong, casual, random, greedy or automa
    vp: list[int]  # by seat
    share: float  # of the measured seat (seat of the "first" player): 1 win, 0.5 tie, 0 loss
    decisions: int
    cpu: list[float] = field(default_factory=list)  # strong decisions with several options
    turns: list[float] = field(default_factory=list)  # strong turns (CPU, up to Confirm)
    illegal: int = 0


def greedy_answer(game: Game, decision: Decision) -> str:
    """The bench's greedy baseline: the option whose turn (finished by the first options and
    Confirm) yields the most VP + energy + credits for its company."""
    player = decision.player
    best, best_score = decision.options[0].notation, -math.inf
    for option in decision.options:
        trial = copy_game(game)
        company = trial.state.companies.get(player)
        before = (company.vp + company.energy + company.credits) if company else 0
        trial.apply(option.notation, player)
        for _ in range(30):
            if trial.is_over or option.notation == "confirm":
                break
            pending = next((d for d in trial.decisions() if d.player == player), None)
            if pending is None:
                break
            step = pending.find("confirm") or pending.options[0]
            trial.apply(step.notation, player)
            if step.notation == "confirm":
                break
        company = trial.state.companies.get(player)
        score = (company.vp + company.energy + company.credits - before) if company else 0
        if score > best_score:
            best, best_score = option.notation, score
    return best


def play(match: str, options: GameOptions, kinds: list[str]) -> Result:
    """Play one game; `kinds[seat]` is strong, casual, random, greedy or automa."""
    game = new_game(options)
    rng = SplitMix64(options.seed * 31 + 7)
    ai_seed = (options.seed * 1_000_003) ^ AI_SEED_SALT
    result = Result(match, list(kinds), [], 0.0, 0)
    turn_cpu = 0.0
    while not game.is_over:
        decisions = game.decisions()
        decision = decisions[0]
        seat = player_seat(game.state, decision.player)
        assert seat is not None
        kind = kinds[seat]
        if kind == "automa":
            notation = automa_answer(game, decision).notation
        elif kind == "random":
            notation = decision.options[rng.below(len(decision.options))].notation
        elif kind == "greedy":
            notation = greedy_answer(game, decision)
        else:
            start = time.process_time()
            notation = decide(game, seat, kind, ai_seed).notation
            spent = time.process_time() - start
            if decision.find(notation) is None:
                result.illegal += 1
                raise AssertionError(f"illegal AI answer {notation!r} to {decision.kind}")
            if kind == "strong":
                turn_cpu += spent
                if len(decision.options) > 1:
                    result.cpu.append(spent)
                if notation == "confirm" or decision.simultaneous:
                    result.turns.append(turn_cpu)
                    turn_cpu = 0.0
        game.apply(notation, decision.player)
        result.decisions += 1
    result.vp = [game.company(company).vp for company in game.state.seats]
    ranking = game.state.result["ranking"]
    winners = {row["company"] for row in ranking if row["place"] == 1}
    measured = game.state.seats[kinds.index("strong")]
    if measured in winners:
        result.share = 1.0 / len(winners)
    return result


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def two_seat(match: str, opponent: str, games: int, seed: int, setup: str) -> list[tuple]:
    """Games of strong against `opponent`, seats alternated (the strong seat is measured)."""
    tasks = []
    for index in range(games):
        s = seed + index
        kinds = ["strong", opponent] if index % 2 == 0 else [opponent, "strong"]
        tasks.append((match, GameOptions(players=2, seed=s, setup=setup), kinds))
    return tasks


def against_automa(match: str, level: int, games: int, seed: int, setup: str) -> list[tuple]:
    """Games of strong (seat 0) against an automa (the last seat), half of them with each
    company first in turn order (seeds taken in order until both halves are full)."""
    want = {True: (games + 1) // 2, False: games // 2}
    tasks = []
    s = seed
    while want[True] or want[False]:
        options = GameOptions(players=2, seed=s, setup=setup, automa=(level,))
        first = new_game(options)
        ai_first = (
            first.state.turn_order[0] == first.state.seats[0] if setup == "intro" else s % 2 == 0
        )
        if want[ai_first]:
            want[ai_first] -= 1
            tasks.append((match, options, ["strong", "automa"]))
        s += 1
    return tasks


BOARDS = {
    "base": dict(setup="intro"),
    "leeghwater": dict(setup="full", expansions=("leeghwater",)),
    "colorado": dict(setup="intro", expansions=("colorado",)),
    "nile": dict(setup="intro", expansions=("nile",)),
}


def budgets(overrides: list[str]) -> dict[str, Budget]:
    """The levels' budgets with `--budget LEVEL.FIELD=VALUE` overrides applied."""
    out = dict(BUDGETS)
    for text in overrides:
        name, _, value = text.partition("=")
        level, _, key = name.partition(".")
        if level not in out or key not in {f.name for f in fields(Budget)} or not value:
            raise SystemExit(
                f"--budget {text!r}: expected LEVEL.FIELD=VALUE, e.g. strong.samples=2"
            )
        kind = type(getattr(out[level], key))
        parsed: Any = value.lower() in ("1", "true", "yes") if kind is bool else kind(value)
        out[level] = replace(out[level], **{key: parsed})
    return out


def _run(task: tuple) -> Result:
    match, options, kinds, levels = task
    BUDGETS.update(levels)  # this process plays with the budgets the run was given
    return play(match, options, kinds)


def interleaved(groups: list[list[tuple]]) -> list[tuple]:
    """The matches' games taken in turn (one of each, then the second of each...), so that a
    run stopped early has figures for every match."""
    out: list[tuple] = []
    for index in range(max((len(group) for group in groups), default=0)):
        out.extend(group[index] for group in groups if index < len(group))
    return out


def report_share(label: str, results: list[Result]) -> None:
    """One line: the measured seat's share of wins with its interval and mean VP."""
    n = len(results)
    if not n:
        return
    share = sum(r.share for r in results)
    low, high = wilson(share, n)
    strong_vp = [
        v for r in results for v, kind in zip(r.vp, r.kinds, strict=True) if kind == "strong"
    ]
    other_vp = [
        v for r in results for v, kind in zip(r.vp, r.kinds, strict=True) if kind != "strong"
    ]
    margins: list[float] = [
        mean(v for v, kind in zip(r.vp, r.kinds, strict=True) if kind == "strong")
        - max(v for v, kind in zip(r.vp, r.kinds, strict=True) if kind != "strong")
        for r in results
    ]
    print(
        f"{label}: {100 * share / n:.1f} % of {n} games (95 % CI {100 * low:.1f}–{100 * high:.1f} %); "
        f"mean VP strong {mean(strong_vp):.1f}, opponent {mean(other_vp):.1f}; "
        f"margin {mean(margins):+.1f} ± {spread(margins):.1f}",
        flush=True,
    )


def spread(values: list[float]) -> float:
    """The half-width of the mean's 95 % interval (normal approximation)."""
    return 1.96 * stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf


def quantile_interval(values: list[float], q: float) -> tuple[float, float]:
    """A distribution-free 95 % interval of the q-quantile (order statistics around n·q)."""
    ordered = sorted(values)
    n = len(ordered)
    half = 1.96 * math.sqrt(n * q * (1 - q))
    low = max(0, math.floor(n * q - half) - 1)
    high = min(n - 1, math.ceil(n * q + half) - 1)
    return ordered[low], ordered[high]


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per match (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--only", default="", help="comma-separated matches to play (default: all)")
    parser.add_argument(
        "--stop-after",
        type=float,
        default=0.0,
        help="wall-clock minutes after which no game is started and the figures are those of "
        "the games finished (default: no limit)",
    )
    parser.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="LEVEL.FIELD=VALUE",
        help="override a level's search budget (repeatable), e.g. strong.samples=2: compares "
        "budgets on the same seeds",
    )
    args = parser.parse_args(argv)
    levels = budgets(args.budget)
    n, seed = args.games, args.seed
    matches: dict[str, list[tuple]] = {
        "random": two_seat("random", "random", n, seed, "intro"),
        "greedy": two_seat("greedy", "greedy", n, seed + 1000, "intro"),
        "expert-intro": against_automa("expert-intro", 3, n, seed + 2000, "intro"),
        "expert-full": against_automa("expert-full", 3, n, seed + 3000, "full"),
        "casual": two_seat("casual", "casual", n, seed + 4000, "intro"),
        "medium": against_automa("medium", 1, n, seed + 5000, "intro"),
        "four": [
            (
                f"four-{board}",
                GameOptions(players=4, seed=seed + 6000 + index, **extra),  # type: ignore[arg-type]
                ["strong"] * 4,
            )
            for index in range(max(1, n // 5))  # each board once before any twice
            for board, extra in BOARDS.items()
        ],
    }
    if args.only:
        wanted = set(args.only.split(","))
        matches = {name: tasks for name, tasks in matches.items() if name in wanted}
    tasks = [(*task, levels) for task in interleaved(list(matches.values()))]
    start = time.perf_counter()
    runner: Callable[[tuple], Result] = _run
    results: list[Result] = []

    def done(result: Result) -> None:
        """Print each game as it ends (a long run shows its progress)."""
        print(
            f"  game {len(results) + 1}/{len(tasks)} {result.match}: VP {result.vp} "
            f"({', '.join(result.kinds)})",
            flush=True,
        )
        results.append(result)

    deadline = start + 60 * args.stop_after if args.stop_after else math.inf
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for result in pool.imap_unordered(runner, tasks, chunksize=1):
                done(result)
                if time.perf_counter() > deadline:
                    pool.terminate()  # the games still running are not counted
                    break
    else:
        for task in tasks:
            if time.perf_counter() > deadline:
                break
            done(runner(task))
    if len(results) < len(tasks):
        print(f"stopped after {args.stop_after:g} min: {len(results)} of {len(tasks)} games played")
    by_match: dict[str, list[Result]] = {}
    for result in results:
        by_match.setdefault(result.match, []).append(result)
    extra = "".join(f" --budget {text}" for text in args.budget)
    print(f"bench/ai.py --games {n} --seed {seed} --jobs {args.jobs}{extra}")
    print("budgets: " + "; ".join(f"{level} {budget}" for level, budget in levels.items()))
    labels = {
        "random": "strong vs random (2 seats, intro)",
        "greedy": "strong vs greedy baseline (2 seats, intro)",
        "expert-intro": "strong vs Expert automa (2 seats, intro)",
        "expert-full": "strong vs Expert automa (2 seats, full setup)",
        "casual": "strong vs casual (2 seats, intro)",
        "medium": "strong vs Medium automa (2 seats, intro)",
    }
    for name, label in labels.items():
        report_share(label, by_match.get(name, []))
    for board in BOARDS:
        games = by_match.get(f"four-{board}", [])
        if games:
            vps = [float(v) for r in games for v in r.vp]
            lengths = [float(r.decisions) for r in games]
            print(
                f"4 strong seats on {board}: mean VP {mean(vps):.1f} ± {spread(vps):.1f} (min "
                f"{min(vps):.0f}, max {max(vps):.0f}), {mean(lengths):.0f} ± "
                f"{spread(lengths):.0f} decisions a game, {len(games)} games",
                flush=True,
            )
    cpu = [c for r in results for c in r.cpu]
    turns = [t for r in results for t in r.turns]
    if cpu:
        low, high = quantile_interval(cpu, 0.95)
        print(
            f"CPU per strong decision (several options): mean {mean(cpu):.3f} ± "
            f"{spread(cpu):.3f} s, p95 {percentile(cpu, 0.95):.3f} s (95 % CI {low:.3f}–"
            f"{high:.3f}), max {max(cpu):.3f} s over {len(cpu)} decisions"
        )
    if turns:
        low, high = quantile_interval(turns, 0.95)
        print(
            f"CPU per strong turn: mean {mean(turns):.3f} ± {spread(turns):.3f} s, p95 "
            f"{percentile(turns, 0.95):.3f} s (95 % CI {low:.3f}–{high:.3f}) over "
            f"{len(turns)} turns"
        )
    illegal = sum(r.illegal for r in results)
    print(f"illegal AI answers: {illegal} (every answer checked by the engine)")
    print(f"wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
