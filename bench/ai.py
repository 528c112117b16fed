"""The computer player's strength and cost, measured in whole games.

Plays, for N games each (seats alternated, or for automa matches half the games with each
company first in turn order), and prints each figure on its own line with its 95 % Wilson
interval (a tie counts half):

- strong against a random player, against the greedy baseline (below), against the Expert
  automa in two-seat introductory games and in full-setup games, against casual, and against
  the Medium automa;
- 4-seat games of strong players on each board (mean VP, decisions per game);
- worker CPU (`time.process_time()`) per strong decision (decisions with one option not
  counted) and per strong turn (its decisions up to Confirm): mean and p95.

Every AI answer is checked legal by the engine (`Decision.find`, then `apply`).

The greedy baseline is the issue's "player that scores every legal option by the VP, energy
and credits it yields within the current turn and takes the best", read so that it plays
Barrage at all (`Greedy`): an option is judged with the whole chain of sub-choices of its
step (a turn up to Confirm: action, space, tile, payment, contract...), all chains searched,
by what the step yields — VP, the energy made (a production's energy counts the moment it is
made) and credits at 1 each, and what the step spends or gets besides at about the game's own
prices (engineers at the Bank's rate, machinery at the machine shop's, a structure at the
price of its machinery, a drop held in its own dam at the final scoring's 1 VP, a contract
held at half its reward: `GREEDY_*`). It never looks past the step, and never depends on
hidden draws (a step's chains end before its Confirm, which reveals them). Read literally
(VP + energy + credits only, the first sub-choice then Confirm), every build costs and yields
nothing within the turn, so the Bank always won: that baseline put all 12 engineers on the
Bank at its first turn of every round and built nothing, 28 VP in every game. Measured (`--only
greedy-random,greedy-casual`, played only when asked; seeds 0 (6 games) and 100 (10 games)):
it beats random 16 of 16 (104.0 and 80.8 VP to 16.0 and 18.4) and casual 6 of 16 (67.0 to
60.8, 53.8 to 78.6), a little weaker than casual; strong beats it 20 of 20 (138.4 to 63.9,
`--only greedy --games 20 --seed 0`).

Worker CPU per game (printed by every run, to size one; one loaded machine): strong against
random about 20-26 s, greedy 19, casual 15, Expert 11 (full setup 14), Medium 10; a 4-seat
game of strong players 98-123 s (Colorado the longest). The workers are CPU-bound and the
parent only collects, so `--jobs` = the number of free cores is best; the 4-seat games come
early in the interleaved order, so no long game is left alone at the end.

    /work/venv/bin/python bench/ai.py --games 10 --seed 0 --jobs 2

A run stopped early (`--stop-after`, or a `kill` of the bench's own process: SIGTERM) prints
the figures of the games finished, CPU lines included.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from statistics import mean, stdev
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.ai import decide, evaluate
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
    share: float  # of the measured seat (the first seat of kind `measured`): 1 win, 0.5 tie
    decisions: int
    cpu: list[float] = field(default_factory=list)  # strong decisions with several options
    turns: list[float] = field(default_factory=list)  # strong turns (CPU, up to Confirm)
    illegal: int = 0
    game_cpu: float = 0.0  # the worker's CPU for the whole game, every seat's decisions
    measured: str = "strong"  # the kind whose share and VP the match reports
    seed: int = 0  # the game's setup seed (pairs the games of two runs on the same seeds)


# The greedy baseline's rates, in VP. What the issue counts — VP, energy made this round,
# credits — at 1 each; what a step spends or gets besides, at the game's own prices in
# credits: an engineer at the Bank's 1 credit (so the Bank is worth nothing net: banking one
# engineer is the greedy player's pass); an excavator or mixer in the supply at the machine
# shop's 2 credits and its engineer, a little over (so that spare credits buy machinery: at 3
# or less they never did, and it stopped building once its machinery sat on the wheel), half
# that while it waits on the wheel (it comes back); a structure at that price of the machinery
# it took; a water drop held in its own dam at the final scoring's 1 VP; a contract held at
# half of what it pays once fulfilled.
GREEDY_ENGINEER = 1.0
GREEDY_MACHINE = 3.2
GREEDY_ON_WHEEL = 1.5
GREEDY_DROP = 1.0
GREEDY_HELD = 0.5
GREEDY_NODES = 3000  # decisions tried per step at most; past it a branch ends the cheapest way


def greedy_worth(game: Game, company_id: str, built: int) -> float:
    """A company's VP + energy + credits, with its other means at the greedy baseline's rates
    (`built`: machinery loaded on the wheel by this step's builds, the structures' price)."""
    company = game.state.companies.get(company_id)
    if company is None:
        return 0.0
    wheel = sum(segment.excavators + segment.mixers for segment in company.wheel)
    water = sum(dam.water for dam in game.state.dams.values() if dam.owner == company_id)
    held = 0.0
    for contract_id in company.contracts:
        reward = game.content.contracts[contract_id].reward
        for key, amount in reward.items():
            count = amount if isinstance(amount, int) and not isinstance(amount, bool) else 1
            rate = GREEDY_MACHINE if key in ("excavators", "mixers") else 1.0
            held += GREEDY_HELD * rate * count
    return (
        company.vp
        + company.energy
        + company.credits
        + GREEDY_ENGINEER * company.engineers
        + GREEDY_MACHINE * (company.excavators + company.mixers + built)
        + GREEDY_ON_WHEEL * wheel
        + GREEDY_DROP * water
        + held
    )


@dataclass
class Greedy:
    """The bench's greedy baseline: at the start of each step (a turn up to its Confirm, a
    draft pick, an income choice...) it tries every chain of the step's legal sub-choices
    (depth first, in the engine's order, at most GREEDY_NODES decisions, a branch past that
    finished by Confirm or its first option), scores each finished chain by what it yields
    within the step — the change of VP + energy made + credits, with engineers, machinery,
    structures built and contracts held at the rates above (`greedy_worth`) — and plays the
    best chain (the first of equals), so it builds, produces and fulfils contracts for what they
    bring at once and never looks past the step. Deterministic: no randomness at all."""

    plan: list[tuple[int, str]] = field(default_factory=list)  # (decisions count, notation)

    def answer(self, game: Game, decision: Decision) -> str:
        """The next sub-choice of the best chain (searched again when the game left it)."""
        while self.plan and self.plan[0][0] < game.state.decisions:
            self.plan.pop(0)
        if self.plan and self.plan[0][0] == game.state.decisions:
            notation = self.plan.pop(0)[1]
            if decision.find(notation) is not None:
                return notation
        self.plan = self.search(game, decision)
        return self.plan.pop(0)[1]

    def search(self, game: Game, decision: Decision) -> list[tuple[int, str]]:
        """The best chain of this step from `decision`, as (decisions count, notation) pairs."""
        player = decision.player
        company_id = player if player in game.state.companies else None
        before = greedy_worth(game, company_id, 0) if company_id else 0.0
        best: list[tuple[int, str]] = [(game.state.decisions, decision.options[0].notation)]
        best_score = -math.inf
        nodes = 0
        seat = player_seat(game.state, player)

        def score(trial: Game, built: int) -> float:
            owner = company_id or next(
                (c for c, company in trial.state.companies.items() if company.seat == seat), None
            )
            if owner is None:
                return 0.0
            return greedy_worth(trial, owner, built) - (before if company_id else 0.0)

        def leaf(trial: Game, chain: list[tuple[int, str]], built: int) -> None:
            nonlocal best, best_score
            value = score(trial, built)
            if value > best_score:
                best, best_score = list(chain), value

        def walk(trial: Game, pending: Decision, chain: list[tuple[int, str]], built: int) -> None:
            nonlocal nodes
            confirm = pending.find("confirm")
            if confirm is not None:
                leaf(trial, [*chain, (trial.state.decisions, "confirm")], built)
            options = [option for option in pending.options if option.notation != "confirm"]
            for index, option in enumerate(options):
                if nodes >= GREEDY_NODES and index > 0:
                    break  # past the budget: only the first option goes on
                nodes += 1
                child = copy_game(trial)
                events = child.apply(option.notation, pending.player)
                loaded = sum(
                    event.data.get("excavators", 0) + event.data.get("mixers", 0)
                    for event in events
                    if event.kind == "wheel_load"
                )
                step = [*chain, (trial.state.decisions, option.notation)]
                following = None
                if not child.is_over:
                    following = next(
                        (d for d in child.decisions() if d.player == pending.player), None
                    )
                if following is None:
                    leaf(child, step, built + loaded)
                elif len(step) < 30:
                    walk(child, following, step, built + loaded)

        walk(game, decision, [], 0)
        return best


def play(match: str, options: GameOptions, kinds: list[str], measured: str = "strong") -> Result:
    """Play one game; `kinds[seat]` is strong, casual, random, greedy or automa; the share is
    that of the first seat of kind `measured`."""
    game = new_game(options)
    rng = SplitMix64(options.seed * 31 + 7)
    ai_seed = (options.seed * 1_000_003) ^ AI_SEED_SALT
    result = Result(match, list(kinds), [], 0.0, 0, measured=measured)
    turn_cpu = 0.0
    greedy = [Greedy() for _ in kinds]  # each seat its own plan
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
            notation = greedy[seat].answer(game, decision)
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
    if game.state.seats[kinds.index(measured)] in winners:
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


def two_seat(
    match: str, opponent: str, games: int, seed: int, setup: str, measured: str = "strong"
) -> list[tuple]:
    """Games of `measured` against `opponent`, seats alternated (`measured` is reported)."""
    tasks = []
    for index in range(games):
        s = seed + index
        kinds = [measured, opponent] if index % 2 == 0 else [opponent, measured]
        tasks.append((match, GameOptions(players=2, seed=s, setup=setup), kinds, measured))
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
            tasks.append((match, options, ["strong", "automa"], "strong"))
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


def weights(overrides: list[str]) -> evaluate.Weights:
    """The evaluation's weights with `--weights NAME=VALUE` overrides applied."""
    known = {f.name: f for f in fields(evaluate.Weights)}
    changes: dict[str, Any] = {}
    for text in overrides:
        name, _, value = text.partition("=")
        if name not in known or not value:
            raise SystemExit(
                f"--weights {text!r}: expected NAME=VALUE; weights: {', '.join(known)}"
            )
        kind = type(getattr(evaluate.W, name))
        changes[name] = value.lower() in ("1", "true", "yes") if kind is bool else float(value)
    return replace(evaluate.W, **changes)


def _run(task: tuple) -> Result:
    match, options, kinds, measured, levels, judged = task
    BUDGETS.update(levels)  # this process plays with the budgets the run was given
    evaluate.W = judged  # ... and judges positions with the weights it was given
    start = time.process_time()
    result = play(match, options, kinds, measured)
    result.seed = options.seed
    result.game_cpu = time.process_time() - start
    return result


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
    ours: list[float] = []
    theirs: list[float] = []
    margins: list[float] = []
    for r in results:
        mine = [v for v, kind in zip(r.vp, r.kinds, strict=True) if kind == r.measured]
        others = [v for v, kind in zip(r.vp, r.kinds, strict=True) if kind != r.measured]
        ours += mine
        theirs += others
        margins.append(mean(mine) - max(others))
    measured = results[0].measured
    print(
        f"{label}: {100 * share / n:.1f} % of {n} games (95 % CI {100 * low:.1f}–{100 * high:.1f} %); "
        f"mean VP {measured} {mean(ours):.1f}, opponent {mean(theirs):.1f}; "
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


class Stopped(Exception):
    """The run was asked to stop (SIGTERM): the games finished are reported."""


def stop(signum: int, frame: object) -> None:
    """SIGTERM's handler: stop playing and report (`Stopped`)."""
    raise Stopped


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per match (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--only", default="", help="comma-separated matches to play (default: all)")
    parser.add_argument(
        "--four-per-board",
        type=int,
        default=0,
        help="4-seat games of strong players on each board (default: a fifth of --games, at "
        "least 1); each costs about 5 times a 2-seat game's CPU",
    )
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
    parser.add_argument(
        "--weights",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one of the evaluation's weights (repeatable), e.g. held=0.6: compares "
        "evaluations on the same seeds",
    )
    args = parser.parse_args(argv)
    levels = budgets(args.budget)
    judged = weights(args.weights)
    n, seed = args.games, args.seed
    matches: dict[str, list[tuple]] = {
        "random": two_seat("random", "random", n, seed, "intro"),
        "greedy": two_seat("greedy", "greedy", n, seed + 1000, "intro"),
        "expert-intro": against_automa("expert-intro", 3, n, seed + 2000, "intro"),
        "expert-full": against_automa("expert-full", 3, n, seed + 3000, "full"),
        "casual": two_seat("casual", "casual", n, seed + 4000, "intro"),
        "medium": against_automa("medium", 1, n, seed + 5000, "intro"),
        # The baseline's own checks (only with --only): greedy against random and casual.
        "greedy-random": two_seat("greedy-random", "random", n, seed + 7000, "intro", "greedy"),
        "greedy-casual": two_seat("greedy-casual", "casual", n, seed + 8000, "intro", "greedy"),
        "four": [
            (
                f"four-{board}",
                GameOptions(players=4, seed=seed + 6000 + index, **extra),  # type: ignore[arg-type]
                ["strong"] * 4,
                "strong",
            )
            for index in range(args.four_per_board or max(1, n // 5))  # each board in turn
            for board, extra in BOARDS.items()
        ],
    }
    checks = {"greedy-random", "greedy-casual"}
    wanted = set(args.only.split(",")) if args.only else set(matches) - checks
    unknown = wanted - set(matches)
    if unknown:
        raise SystemExit(
            f"--only: unknown match {', '.join(sorted(unknown))}; matches: {', '.join(matches)}"
        )
    matches = {name: tasks for name, tasks in matches.items() if name in wanted}
    tasks = [(*task, levels, judged) for task in interleaved(list(matches.values()))]
    start = time.perf_counter()
    runner: Callable[[tuple], Result] = _run
    results: list[Result] = []

    def done(result: Result) -> None:
        """Print each game as it ends (a long run shows its progress)."""
        print(
            f"  game {len(results) + 1}/{len(tasks)} {result.match}: VP {result.vp} "
            f"({', '.join(result.kinds)}) seed {result.seed}",
            flush=True,
        )
        results.append(result)

    deadline = start + 60 * args.stop_after if args.stop_after else math.inf
    signal.signal(signal.SIGTERM, stop)  # a run stopped by `kill` still reports its figures
    why = f"stopped after {args.stop_after:g} min"
    try:
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
    except (Stopped, KeyboardInterrupt):
        why = "stopped by a signal"  # the pool's `with` terminated the games still running
    if len(results) < len(tasks):
        print(f"{why}: {len(results)} of {len(tasks)} games played")
    by_match: dict[str, list[Result]] = {}
    for result in results:
        by_match.setdefault(result.match, []).append(result)
    extra = "".join(f" --budget {text}" for text in args.budget)
    extra += "".join(f" --weights {text}" for text in args.weights)
    print(f"bench/ai.py --games {n} --seed {seed} --jobs {args.jobs}{extra}")
    print("budgets: " + "; ".join(f"{level} {budget}" for level, budget in levels.items()))
    labels = {
        "random": "strong vs random (2 seats, intro)",
        "greedy": "strong vs greedy baseline (2 seats, intro)",
        "expert-intro": "strong vs Expert automa (2 seats, intro)",
        "expert-full": "strong vs Expert automa (2 seats, full setup)",
        "casual": "strong vs casual (2 seats, intro)",
        "medium": "strong vs Medium automa (2 seats, intro)",
        "greedy-random": "greedy baseline vs random (2 seats, intro)",
        "greedy-casual": "greedy baseline vs casual (2 seats, intro)",
    }
    for name, label in labels.items():
        report_share(label, by_match.get(name, []))
    costs = [f"{name} {mean(r.game_cpu for r in games):.1f}" for name, games in by_match.items()]
    if costs:
        print(f"worker CPU per game (s), to size a run: {', '.join(costs)}")
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
