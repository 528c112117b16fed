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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from ai import weights

from bot.ai import decide, evaluate
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.options import Decision

LOW, HIGH = 0.3, 2.0  # the range a fitted multiplier is clamped to
FITTED = [term for term in evaluate.TERMS if term != "vp"]  # "vp" is what is, not a guess
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


Sample = tuple[dict[str, float], int, bool, float, str]  # terms, later, automa, target, game


def samples(rows: list[dict], aim: str) -> list[Sample]:
    """What is fitted: each row's terms and the VP it still makes ("vp"), or (the rows of one
    step end taken in pairs, seen from each non-automa company) the difference of the two
    companies' terms and of the VP they still make ("margin": what `margin` ranks, and a
    game's luck shared by both cancels)."""
    if aim == "vp":
        return [
            (
                r["terms"],
                int(r["later"]),
                bool(r["automa"]),
                r["final"] - r["terms"]["vp"],
                r["game"],
            )
            for r in rows
        ]
    out: list[Sample] = []
    for first, second in zip(rows[0::2], rows[1::2], strict=False):
        assert first["game"] == second["game"] and first["later"] == second["later"]
        for me, other in ((first, second), (second, first)):
            if me["automa"]:
                continue
            terms = {
                t: me["terms"].get(t, 0.0) - other["terms"].get(t, 0.0) for t in evaluate.TERMS
            }
            to_come = me["final"] - me["terms"]["vp"] - other["final"] + other["terms"]["vp"]
            out.append((terms, int(me["later"]), bool(other["automa"]), to_come, me["game"]))
    return out


LATERS = 5  # rounds after the current one: 0..4


def features(sample: Sample, shape: str) -> list[float]:
    """The fitted terms (and with shape "linear" each term times the rounds after, centred),
    then the free constants: one per number of rounds after, and the same for an automa."""
    terms, later, automa, _, _ = sample
    x = [float(terms.get(t, 0.0)) for t in FITTED]
    if shape == "linear":
        slope = (later - 2) / 2
        x += [v * slope for v in x]
    ones = [1.0 if later == i else 0.0 for i in range(LATERS)]
    return x + ones + [v * automa for v in ones]


def prior(shape: str) -> list[float]:
    """What the ridge pulls the fitted parameters towards: each multiplier 1, each slope 0."""
    return [1.0] * len(FITTED) + ([0.0] * len(FITTED) if shape == "linear" else [])


def fit(data: list[Sample], ridge: float, shape: str) -> list[float]:
    """Multipliers of FITTED (and slopes) and the constants, by ridge least squares towards
    `prior`: each parameter's penalty is `ridge` times its feature's own sum of squares."""
    pulled = prior(shape)
    k = len(pulled) + 2 * LATERS
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for sample in data:
        x, y = features(sample, shape), sample[3]
        nonzero = [i for i in range(k) if x[i]]
        for i in nonzero:
            xty[i] += x[i] * y
            row = xtx[i]
            for j in nonzero:
                row[j] += x[i] * x[j]
    for i, towards in enumerate(pulled):
        penalty = ridge * xtx[i][i] + 1e-6
        xtx[i][i] += penalty
        xty[i] += penalty * towards
    for i in range(len(pulled), k):
        xtx[i][i] += 1e-6  # a number of rounds after with no sample
    return solve(xtx, xty)


def scales(model: list[float], shape: str, later: int) -> list[float]:
    """The fitted multipliers of FITTED with `later` rounds after the current one, clamped."""
    n = len(FITTED)
    slope = (later - 2) / 2
    raw = [model[i] + (model[n + i] * slope if shape == "linear" else 0.0) for i in range(n)]
    return [min(HIGH, max(LOW, m)) for m in raw]


def predict(model: list[float], shape: str, sample: Sample) -> float:
    """The model's VP still to come for a sample (clamped multipliers, fitted constants)."""
    terms, later, automa, _, _ = sample
    n = len(prior(shape))
    value = sum(
        m * float(terms.get(t, 0.0))
        for m, t in zip(scales(model, shape, later), FITTED, strict=True)
    )
    return value + model[n + later] + (model[n + LATERS + later] if automa else 0.0)


def hand_set(shape: str, data: list[Sample]) -> list[float]:
    """The hand-set evaluation (every multiplier 1) with its constants fitted to `data`."""
    return fit(data, 1e9, shape)  # an overwhelming ridge: only the constants move


def explained(model: list[float], shape: str, data: list[Sample]) -> float:
    """The share of the variance of what is still to come (about its mean) the model explains."""
    if not data:
        return 0.0
    ys = [s[3] for s in data]
    centre = sum(ys) / len(ys)
    total = sum((y - centre) ** 2 for y in ys) or 1.0
    error = sum((s[3] - predict(model, shape, s)) ** 2 for s in data)
    return 1.0 - error / total


def fit_table(data: list[Sample], ridge: float, shape: str) -> dict[str, list[float]]:
    """TERM_SCALE fitted to `data`: per term, its multiplier for 0..4 rounds after."""
    if shape == "linear":
        model = fit(data, ridge, shape)
        per_later = [scales(model, shape, later) for later in range(LATERS)]
    else:
        per_later = []
        for later in range(LATERS):
            group = [s for s in data if s[1] == later]
            per_later.append(
                scales(fit(group, ridge, shape), shape, later) if group else [1.0] * len(FITTED)
            )
    return {t: [per_later[later][i] for later in range(LATERS)] for i, t in enumerate(FITTED)}


def held_out(data: list[Sample], ridge: float, shape: str) -> tuple[float, float]:
    """The share explained by the hand-set and the fitted evaluation on the games left out of
    the fit (half the games fitted, the other half tested, then the other way round)."""
    games = sorted({s[4] for s in data})
    halves = [set(games[0::2]), set(games[1::2])]
    hand = tuned = 0.0
    for test_games in halves:
        train = [s for s in data if s[4] not in test_games]
        test = [s for s in data if s[4] in test_games]
        table = fit_table(train, ridge, shape)
        hand += explained(hand_set(shape, train), shape, test) / 2
        rescaled = [rescale(s, table) for s in train]
        fitted = hand_set(shape, rescaled)  # the table's multipliers, its constants refitted
        tuned += explained(fitted, shape, [rescale(s, table) for s in test]) / 2
    return hand, tuned


def rescale(sample: Sample, table: dict[str, list[float]]) -> Sample:
    """A sample with each term multiplied by its fitted scale."""
    terms, later, automa, y, game = sample
    scaled = {t: v * (table[t][later] if t in table else 1.0) for t, v in terms.items()}
    return scaled, later, automa, y, game


def tied(sample: Sample, groups: list[list[str]]) -> Sample:
    """A sample whose terms of each group are added into one, fitted with one multiplier (a
    group of terms one converts into another, such as water held and the energy it makes:
    scaled apart, the fit can make holding water look better than producing it)."""
    terms, later, automa, y, game = sample
    out = dict(terms)
    for group in groups:
        out["+".join(group)] = sum(out.pop(t, 0.0) for t in group)
    return out, later, automa, y, game


def report(args: argparse.Namespace) -> None:
    """Fit, check on held-out games, and print the TERM_SCALE table."""
    rows = []
    for path in args.files:
        with open(path) as lines:
            rows.extend(json.loads(line) for line in lines)
    if args.only:
        rows = [r for r in rows if r["game"].split("-")[0] in args.only.split(",")]
    data = samples(rows, args.aim)
    groups = [group.split("+") for group in args.tie.split(",") if group]
    if groups:
        data = [tied(sample, groups) for sample in data]
        members = {t for group in groups for t in group}
        FITTED[:] = [t for t in FITTED if t not in members] + ["+".join(g) for g in groups]
    if args.kind:
        data = [s for s in data if s[2] == (args.kind == "automa")] if args.aim == "vp" else data
    games = len({s[4] for s in data})
    print(
        f"{len(data)} samples from {games} games; aim {args.aim}, shape {args.shape}, ridge {args.ridge}"
    )
    hand, tuned = held_out(data, args.ridge, args.shape)
    print(f"held-out share explained: hand-set {hand:.3f}, fitted {tuned:.3f}")
    table = fit_table(data, args.ridge, args.shape)
    for name in list(table):
        for term in name.split("+") if "+" in name else ():
            table[term] = table[name]
        if "+" in name:
            del table[name]
    print("TERM_SCALE = {  # index: rounds after the current one")
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
    fitting.add_argument("--aim", choices=("vp", "margin"), default="vp")
    fitting.add_argument("--shape", choices=("bucket", "linear"), default="linear")
    fitting.add_argument(
        "--tie", default="", help="groups of terms fitted with one multiplier: a+b,c+d"
    )
    fitting.add_argument("--kind", choices=("", "ai", "automa"), default="", help="(aim vp)")
    args = parser.parse_args(argv)
    if args.command == "record":
        record(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
