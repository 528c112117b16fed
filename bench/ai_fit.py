"""Fitting the evaluation's term scales to played games ("Texel tuning"; never imported by the
product).

`record` plays two-seat introductory games (strong against the Medium and the Expert automa,
and strong against strong; seeds outside 9000-9999, which measure) and writes, at the end of
every step (a Confirm, or a simultaneous answer) and for both companies, one JSON line: the
game, the company's kind, the rounds after the current one, its `worth_terms` (before the
scales), and at the game's end its final VP. `fit` reads those lines and, for each number of
rounds after the current one, fits one multiplier per term by least squares on the VP still to
come (final VP minus VP now), ridge-regularised towards 1 (the hand-set evaluation), with a
free constant and a free automa constant (the VP every company of a kind still makes whatever
its position, which cancels in `margin` or is not the evaluation's business); each multiplier
is clamped to [LOW, HIGH]. It prints, fitted on half the games and tested on the other half
and the other way round, how much of the VP to come the hand-set and the fitted scales explain,
then the table fitted on every game, ready for `evaluate.TERM_SCALE`.

    PYTHONPATH=$PWD /work/venv/bin/python bench/ai_fit.py record --games 60 --seed 20000 \
        --jobs 2 --out /tmp/fit.jsonl
    PYTHONPATH=$PWD /work/venv/bin/python bench/ai_fit.py fit /tmp/fit.jsonl --ridge 0.3
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from ai import weights

from bot.ai import decide, evaluate
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.options import Decision

LOW, HIGH = 0.3, 2.0  # the range a fitted multiplier is clamped to
FITTED = tuple(term for term in evaluate.TERMS if term != "vp")  # "vp" is what is, not a guess
MATCHES = {"medium": (1,), "expert": (3,), "self": ()}  # opponent: the automa levels


def answer(game: Game, decision: Decision, ai_seed: int) -> str:
    """The automa's answer by its rules, an AI seat's at the strong level."""
    if game.automa_level(decision.player) is not None:
        return automa_answer(game, decision).notation
    seat = player_seat(game.state, decision.player)
    assert seat is not None
    return decide(game, seat, "strong", ai_seed).notation


def record_game(task: tuple[str, int, evaluate.Weights]) -> list[dict]:
    """One game's samples: every step end, both companies (final VP filled in at the end)."""
    match, seed, judged = task
    evaluate.W = judged  # this process plays and records with the weights it was given
    options = GameOptions(players=2, seed=seed, setup="intro", automa=MATCHES[match])
    game = new_game(options)
    ai_seed = seed * 7919 + 13
    rows: list[dict] = []
    while not game.is_over:
        decision = game.decisions()[0]
        notation = answer(game, decision, ai_seed)
        game.apply(notation, decision.player)
        if (notation != "confirm" and not decision.simultaneous) or game.is_over:
            continue
        for company in game.state.seats:
            rows.append(
                {
                    "game": f"{match}-{seed}",
                    "company": company,
                    "automa": game.automa_level(company) is not None,
                    "later": evaluate.rounds_after(game),
                    "phase": game.state.phase,
                    "terms": evaluate.worth_terms(game, company),
                }
            )
    final = {company: game.company(company).vp for company in game.state.seats}
    for row in rows:
        row["final"] = final[row["company"]]
    return rows


def record(args: argparse.Namespace) -> None:
    """Play the games and write their samples, one JSON line each."""
    matches = args.matches.split(",")
    judged = weights(args.weights)
    tasks = [(matches[i % len(matches)], args.seed + i, judged) for i in range(args.games)]
    if any(9000 <= seed <= 9999 for _, seed, _ in tasks):
        raise SystemExit("seeds 9000-9999 measure the AI: record on others (--seed)")
    start = time.perf_counter()
    with open(args.out, "a") as out, multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for done, rows in enumerate(pool.imap_unordered(record_game, tasks, chunksize=1), 1):
            out.writelines(json.dumps(row) + "\n" for row in rows)
            out.flush()
            print(f"  game {done}/{len(tasks)} {rows[0]['game']}: {len(rows)} samples", flush=True)
    print(f"wall time {time.perf_counter() - start:.0f} s")


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the normal equations are small)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def features(row: dict) -> list[float]:
    """The fitted terms of one sample, then the two free constants."""
    return [float(row["terms"].get(t, 0.0)) for t in FITTED] + [1.0, float(row["automa"])]


def target(row: dict) -> float:
    """The VP still to come."""
    return float(row["final"] - row["terms"]["vp"])


def fit(rows: list[dict], ridge: float) -> list[float]:
    """Multipliers of FITTED (clamped) and the two constants, by ridge least squares towards 1:
    each term's penalty is `ridge` times its own sum of squares (scale-free)."""
    k = len(FITTED) + 2
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for row in rows:
        x, y = features(row), target(row)
        for i in range(k):
            if x[i]:
                xty[i] += x[i] * y
                for j in range(k):
                    xtx[i][j] += x[i] * x[j]
    for i in range(len(FITTED)):
        penalty = ridge * xtx[i][i] + 1e-6
        xtx[i][i] += penalty
        xty[i] += penalty  # towards 1
    solved = solve(xtx, xty)
    return [min(HIGH, max(LOW, m)) for m in solved[: len(FITTED)]] + solved[len(FITTED) :]


def constants(rows: list[dict], scales: list[float]) -> list[float]:
    """The two free constants that best fit these rows with the multipliers fixed."""
    plain = [r for r in rows if not r["automa"]]
    automa = [r for r in rows if r["automa"]]

    def rest(group: list[dict]) -> float:
        if not group:
            return 0.0
        rests = [
            target(r) - sum(m * x for m, x in zip(scales, features(r), strict=False)) for r in group
        ]
        return sum(rests) / len(rests)

    base = rest(plain)
    return [base, rest(automa) - base if automa else 0.0]


def explained(rows: list[dict], model: list[float]) -> float:
    """The share of the VP to come's variance (about its mean) this model explains."""
    if not rows:
        return 0.0
    ys = [target(r) for r in rows]
    centre = sum(ys) / len(ys)
    total = sum((y - centre) ** 2 for y in ys) or 1.0
    error = sum(
        (y - sum(m * x for m, x in zip(model, features(r), strict=True))) ** 2
        for r, y in zip(rows, ys, strict=True)
    )
    return 1.0 - error / total


def by_later(rows: Iterable[dict]) -> dict[int, list[dict]]:
    """The samples per number of rounds after the current one."""
    out: dict[int, list[dict]] = {}
    for row in rows:
        out.setdefault(int(row["later"]), []).append(row)
    return out


def report(args: argparse.Namespace) -> None:
    """Fit, check on held-out games, and print the TERM_SCALE table."""
    rows = []
    for path in args.files:
        with open(path) as lines:
            rows.extend(json.loads(line) for line in lines)
    if args.only:
        rows = [r for r in rows if r["game"].split("-")[0] in args.only.split(",")]
    games = sorted({r["game"] for r in rows})
    halves = [set(games[0::2]), set(games[1::2])]
    print(f"{len(rows)} samples from {len(games)} games; ridge {args.ridge}")
    table: dict[str, list[float]] = {t: [] for t in FITTED}
    for later, group in sorted(by_later(rows).items()):
        unit = [1.0] * len(FITTED)
        scores = []
        for held in (0, 1):
            train = [r for r in group if r["game"] not in halves[held]]
            test = [r for r in group if r["game"] in halves[held]]
            fitted = fit(train, args.ridge)
            scores.append(
                (
                    explained(test, unit + constants(train, unit)),
                    explained(
                        test, fitted[: len(FITTED)] + constants(train, fitted[: len(FITTED)])
                    ),
                )
            )
        model = fit(group, args.ridge)
        hand = sum(s[0] for s in scores) / 2
        tuned = sum(s[1] for s in scores) / 2
        print(
            f"rounds after {later}: {len(group)} samples; held-out R2 hand-set {hand:.3f}, "
            f"fitted {tuned:.3f}; constants {model[-2]:+.1f} (automa {model[-1]:+.1f})"
        )
        print("   " + "  ".join(f"{t} {m:.2f}" for t, m in zip(FITTED, model, strict=False)))
        for term, m in zip(FITTED, model, strict=False):
            table[term].append(round(m, 2))
    print("TERM_SCALE = {")
    for term, values in table.items():
        print(f'    "{term}": ({", ".join(f"{v:.2f}" for v in values)}),')
    print("}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="play games and write their samples")
    rec.add_argument("--games", type=int, default=20)
    rec.add_argument("--seed", type=int, default=20000)
    rec.add_argument("--jobs", type=int, default=1)
    rec.add_argument("--matches", default="medium,expert,self", help="opponents, in turn")
    rec.add_argument("--out", required=True, help="JSON lines file (appended to)")
    rec.add_argument("--weights", action="append", default=[], metavar="NAME=VALUE")
    fitting = sub.add_parser("fit", help="fit the term scales to recorded samples")
    fitting.add_argument("files", nargs="+")
    fitting.add_argument("--ridge", type=float, default=0.3)
    fitting.add_argument("--only", default="", help="matches to fit on (default: all)")
    args = parser.parse_args(argv)
    if args.command == "record":
        record(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
