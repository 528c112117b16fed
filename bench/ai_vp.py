"""Where the VP come from: an AI level against an automa, VP by source category per seat.

Plays `--games` two-seat introductory games of `--level` (casual or strong) against the
automa at `--automa` (0 easy .. 3 expert), seeds from `--seed` on, and prints each game's VP
and, over all games, the mean VP by source (round scoring, bonus tiles, contracts, incomes,
final conversions, ...) of the AI and of the automa, the mean energy each makes in each round,
how it makes it (productions a game, energy a production, the share of the drops from its own
dams, neutral ones and rivals'), the structures on the map at the end (and the dams' mean
level), and the mean margin with its 95 % interval. A quick proxy for the evaluation's
quality (`bench/ai.py` gives the win rates).

    /work/venv/bin/python bench/ai_vp.py --level casual --games 8 --seed 5000
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections import defaultdict
from pathlib import Path
from statistics import mean, stdev
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from ai import weights  # bench/ai.py, beside this script

from bot.ai import decide, evaluate
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.state import NEUTRAL

AI_SEED_SALT = 0x5EED_A1
ENERGY = "energy in round "  # rows of energy made each round (not VP), printed apart
PRODUCTION = "production "  # rows of productions (count, energy, drops by dam owner), printed apart
STRUCTURE = "structure "  # rows of structures on the map at the end, printed apart


def category(source: str) -> str:
    """The score row of an event source: its first one or two words."""
    head = source.split(":")
    if head[0] in ("scoring", "income", "end") and len(head) > 1:
        return f"{head[0]}:{head[1]}"
    return head[0] or "?"


def weighted(overrides: str) -> None:
    """Set the evaluation's weights from `name=value,...` (an experiment; parsed as
    bench/ai.py's `--weights`)."""
    evaluate.W = weights([item for item in overrides.split(",") if item])


def play(
    task: tuple[int, str, int, str],
) -> tuple[int, dict[str, dict[str, int]], list[int], float]:
    """One game; returns (seed, VP by category by kind, [ai VP, automa VP], AI CPU)."""
    seed, level, automa, overrides = task
    weighted(overrides)
    game = new_game(GameOptions(players=2, seed=seed, setup="intro", automa=(automa,)))
    rows: dict[str, dict[str, int]] = {"ai": defaultdict(int), "automa": defaultdict(int)}
    original = Game.gain

    def gain(self: Game, company_id: str, resource: str, amount: int, source: str) -> int:
        change = original(self, company_id, resource, amount, source)
        vp = resource == "vp" or (
            resource == "credits" and self.automa_level(company_id) is not None
        )
        if vp and self is game:
            kind = "automa" if self.automa_level(company_id) is not None else "ai"
            rows[kind][category(source)] += change
        return change

    produced = Game.add_energy

    def add_energy(self: Game, company_id: str, amount: int, source: str) -> None:
        if self is game and amount > 0:
            kind = "automa" if self.automa_level(company_id) is not None else "ai"
            rows[kind][f"{ENERGY}{self.state.round}"] += amount
        produced(self, company_id, amount, source)

    emitted = Game.emit

    def emit(self: Game, kind: str, company: str | None = None, *args: Any, **kw: Any) -> None:
        emitted(self, kind, company, *args, **kw)
        if self is game and kind == "production" and company is not None:
            event = self.events[-1]
            who = "automa" if self.automa_level(company) is not None else "ai"
            owner = self.state.dams[event.data["dam"]].owner
            mine = "own" if owner == company else "neutral" if owner == NEUTRAL else "rival"
            rows[who][f"{PRODUCTION}count"] += 1
            rows[who][f"{PRODUCTION}energy"] += event.amount
            rows[who][f"{PRODUCTION}drops {mine}"] += event.data["drops"]

    Game.gain = gain  # type: ignore[method-assign]
    Game.add_energy = add_energy  # type: ignore[method-assign]
    Game.emit = emit  # type: ignore[method-assign]
    ai_seed = (seed * 1_000_003) ^ AI_SEED_SALT
    cpu = 0.0
    try:
        while not game.is_over:
            decision = game.decisions()[0]
            if game.automa_level(decision.player) is not None:
                notation = automa_answer(game, decision).notation
            else:
                seat = player_seat(game.state, decision.player)
                assert seat is not None
                start = time.process_time()
                notation = decide(game, seat, level, ai_seed).notation
                cpu += time.process_time() - start
            game.apply(notation, decision.player)
    finally:
        Game.gain = original  # type: ignore[method-assign]
        Game.add_energy = produced  # type: ignore[method-assign]
        Game.emit = emitted  # type: ignore[method-assign]
    ai, auto = game.state.seats[0], game.state.seats[1]
    for kind, company_id in (("ai", ai), ("automa", auto)):
        for piece, count in game.company(company_id).placed.items():
            rows[kind][f"{STRUCTURE}{piece}"] += count
        levels = [d.level for d in game.state.dams.values() if d.owner == company_id]
        rows[kind][f"{STRUCTURE}dam levels"] += sum(levels)
        rows[kind][f"{STRUCTURE}dams"] += len(levels)
    return (
        seed,
        {k: dict(v) for k, v in rows.items()},
        [game.company(ai).vp, game.company(auto).vp],
        cpu,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="casual")
    parser.add_argument(
        "--automa", type=int, default=1, help="automa level 0-3 (default 1, Medium)"
    )
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--weights", default="", help="evaluation weights to change, e.g. now_share=0.3,held=0.6"
    )
    args = parser.parse_args(argv)
    weighted(args.weights)  # refused here before any game if a name is wrong
    tasks = [(args.seed + i, args.level, args.automa, args.weights) for i in range(args.games)]
    results = []

    def done(result: tuple[int, dict[str, dict[str, int]], list[int], float]) -> None:
        seed, _, vp, cpu = result
        print(f"  seed {seed}: AI {vp[0]} automa {vp[1]} (AI CPU {cpu:.0f} s)", flush=True)
        results.append(result)

    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for result in pool.imap(play, tasks, chunksize=1):
                done(result)
    else:
        for task in tasks:
            done(play(task))
    totals: dict[str, dict[str, int]] = {"ai": defaultdict(int), "automa": defaultdict(int)}
    margins, wins = [], 0.0
    for _, rows, vp, _ in results:
        margins.append(vp[0] - vp[1])
        wins += 1.0 if vp[0] > vp[1] else 0.5 if vp[0] == vp[1] else 0.0
        for kind in rows:
            for key, value in rows[kind].items():
                totals[kind][key] += value
    n = len(results)
    keys = sorted(
        (
            k
            for k in set(totals["ai"]) | set(totals["automa"])
            if not k.startswith((ENERGY, PRODUCTION, STRUCTURE))
        ),
        key=lambda k: -totals["automa"].get(k, 0),
    )
    print(
        f"bench/ai_vp.py --level {args.level} --automa {args.automa} --games {n} --seed {args.seed}"
        + (f" --weights {args.weights}" if args.weights else "")
    )
    for key in keys:
        print(
            f"  {key:28s} AI {totals['ai'].get(key, 0) / n:6.1f}   automa {totals['automa'].get(key, 0) / n:6.1f}"
        )
    rounds = range(1, 6)
    for kind in ("ai", "automa"):
        made = " ".join(f"{totals[kind].get(f'{ENERGY}{r}', 0) / n:5.1f}" for r in rounds)
        print(f"  energy made, rounds 1-5      {'AI' if kind == 'ai' else 'automa'} {made}")
    for kind in ("ai", "automa"):
        row = totals[kind]
        count = row.get(f"{PRODUCTION}count", 0)
        drops = {
            mine: row.get(f"{PRODUCTION}drops {mine}", 0) for mine in ("own", "neutral", "rival")
        }
        held = sum(drops.values()) or 1
        shares = ", ".join(f"{mine} {100 * d / held:.0f} %" for mine, d in drops.items())
        print(
            f"  productions                  {'AI' if kind == 'ai' else 'automa'} "
            f"{count / n:.1f} a game, {row.get(f'{PRODUCTION}energy', 0) / max(count, 1):.1f} "
            f"energy each; drops from dams {shares}"
        )
    for kind in ("ai", "automa"):
        row = totals[kind]
        pieces = ", ".join(
            f"{row.get(f'{STRUCTURE}{piece}', 0) / n:.1f} {piece}s"
            for piece in ("base", "elevation", "conduit", "powerhouse")
        )
        level = row.get(f"{STRUCTURE}dam levels", 0) / max(row.get(f"{STRUCTURE}dams", 0), 1)
        print(
            f"  structures at the end        {'AI' if kind == 'ai' else 'automa'} {pieces}; "
            f"dam level {level:.1f}"
        )
    spread = 1.96 * stdev(margins) / math.sqrt(n) if n > 1 else 0.0
    print(
        f"mean margin {mean(margins):+.1f} ± {spread:.1f} VP; wins {wins:g} of {n}; "
        f"mean VP AI {mean(r[2][0] for r in results):.1f}, automa {mean(r[2][1] for r in results):.1f}"
    )


if __name__ == "__main__":
    main()
