"""Print, per view, what rendering a position of a played game costs against its floor.

The floor is the time to encode the finished picture's own palette PNG (what any renderer
must spend to send it); the ratio is a view's whole `render()` over that encode of the same
picture, so it is what drawing and mapping onto the palette add. Times are the rendering
thread's CPU time (`time.thread_time`), each render timed next to the encode of its picture:
on a machine shared with other work, wall-clock times measure the neighbours' load as much
as the renderer (the load average is printed too).

Positions come from seeded random games over every board and expansion (alone and
together), 2 to 4 players, each taken early, in the middle and late (`SETUPS`, `STAGES`).
Each view of each position is rendered once, twice over:

- "new": as a running bot renders a new position: its finished views forgotten
  (`clear_caches()`), the static backgrounds (drawn first: `warm` as a renderer process
  starts, `warm_game`, and the game's first position, every company's board of it too), text
  masks and stamps of the positions rendered before it kept;
- "no stamps": the stamps forgotten too (`stamps_forgotten()`, as `clear_stamps()`): every
  box, piece, text and item drawn afresh, as after a start or once the stamp cache let them
  go; the stamps known before are back after it, so the next "new" picture is drawn as a
  running bot draws it (before, the stamps forgotten here were missing from it too).

Per view: how many pictures, the p50 render and floor, the ratio's p50 and p95 both ways,
the largest PNG, and the board or expansion whose positions have the highest p50. Budgets
(issue 27): ratio at most 1.3 at p50 (over all positions, and over those of each board and
of each expansion) and 1.6 at p95 (new positions), 150 KB a view, 350 KB the full board.
Then the full board's size over late 4-player games with two expansions (`--size-games` of
each pair, 16 by default), and, as a separate table, the old figures: one sample position
per setup rendered `--runs` times, where after the first run every item is a cached stamp.

Run: python bench/render.py [--runs 15] [--size-games 16] [--seeds 1] [--skip-samples]
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import io
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import GameOptions, GameState, new_game
from bot.rules.catalogue import CATALOGUE
from bot.rules.prng import SplitMix64
from renderer.expansions import drawing
from renderer.render import (
    PNG_OPTIONS,
    board_ids,
    clear_caches,
    encode,
    render,
    render_score_sheet,
    stamps_forgotten,
    views,
    warm,
    warm_game,
)
from renderer.samples import finished_game, midgame_state

RUNS = 15
BUDGET_P50, BUDGET_P95 = 1.3, 1.6
BUDGET_KB = {"full": 350}
VIEW_KB = 150
#: Where in a game its positions are taken, as fractions of its decisions.
STAGES = {"early": 0.1, "middle": 0.5, "late": 0.95}
#: The two expansions that can be played together (each with its own board).
PAIRS = (("leeghwater", "colorado"), ("leeghwater", "nile"))


def game(players: int, setup: str = "intro", *expansions: str, map: str = "") -> GameOptions:
    """A game's options (seed 0: see `seeded`); an expansion with its own board plays on it."""
    board = map or CATALOGUE.own_map(expansions) or "base"
    return GameOptions(players=players, setup=setup, map=board, expansions=expansions)


def seeded(options: GameOptions, seed: int) -> GameOptions:
    """The same game with another seed."""
    return dataclasses.replace(options, seed=seed)


def label(options: GameOptions) -> str:
    """A short name of a game's setup: players, setup, expansions, board."""
    names = "+".join(options.expansions) or "base"
    return f"{options.players}p {options.setup} {names} on {options.map}"


#: Every board and expansion, alone and together, with 2, 3 and 4 players.
SETUPS = (
    game(2),
    game(3, "full"),
    game(4),
    game(4, "full", map="five_player"),
    game(2, "full", "leeghwater"),
    game(3, "full", "leeghwater"),
    game(4, "full", "leeghwater", map="five_player"),
    game(2, "full", "colorado"),
    game(3, "intro", "colorado"),
    game(4, "full", "colorado"),
    game(2, "intro", "nile"),
    game(3, "full", "nile"),
    game(4, "intro", "nile"),
    game(3, "full", *PAIRS[0]),
    game(4, "full", *PAIRS[0]),
    game(2, "full", *PAIRS[1]),
    game(4, "full", *PAIRS[1]),
)


def positions(options: GameOptions, fractions: dict[str, float]) -> dict[str, GameState]:
    """A random game's positions at these fractions of its decisions (seeded: the same each
    run); a fraction of 1 is the finished game."""
    length = len(_play(options, {})) - 1  # the states after 0, 1, ... length decisions
    at = {min(length, round(f * length)): name for name, f in fractions.items()}
    taken = _play(options, at)
    return {name: taken[number] for number, name in at.items()}


def _play(options: GameOptions, at: dict[int, str]) -> dict[int, GameState]:
    """Play a random game through listed options; return copies of its state after each
    decision number in `at` (every decision number when `at` is empty, as None)."""
    game = new_game(options)
    rng = SplitMix64(options.seed + 1)
    kept: dict[int, GameState] = {}
    answered = 0
    while True:
        if answered in at or not at:
            kept[answered] = game.state.clone() if at else None  # type: ignore[assignment]
        if game.is_over:
            return kept
        decision = game.decisions()[0]
        game.apply(decision.options[rng.below(len(decision.options))], decision.player)
        answered += 1


def _encode_s(image: Image.Image) -> float:
    """The thread CPU time of encoding `image` as the renderer does."""
    t0 = time.thread_time()
    encode(image)
    return time.thread_time() - t0


def _timed(make: Callable[[], bytes], forget: Callable[[], None]) -> tuple[float, float, int]:
    """(render s, floor s, PNG bytes) of one render after `forget`, both in thread CPU time."""
    forget()
    t0 = time.thread_time()
    png = make()
    spent = time.thread_time() - t0
    image = Image.open(io.BytesIO(png))
    image.load()
    return spent, _encode_s(image), len(png)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass
class Figures:
    """One view's measurements: (render s, floor s) both ways, and the PNG sizes."""

    new: list[tuple[float, float]]
    cold: list[tuple[float, float]]
    sizes: list[int]
    #: The "new" ratios by board and by expansion (`groups`).
    grouped: dict[str, list[float]] = dataclasses.field(default_factory=lambda: defaultdict(list))


def groups(options: GameOptions) -> list[str]:
    """The board and each expansion (or "no expansion") a setup's positions count in."""
    return [f"{options.map} board", *(options.expansions or ("no expansion",))]


def measure(seeds: int) -> dict[str, Figures]:
    """Render every view of every setup's positions once each way; by view name."""
    found: dict[str, Figures] = defaultdict(lambda: Figures([], [], []))
    warm()  # as every renderer process does when it starts
    for setup in SETUPS:
        for seed in range(1, seeds + 1):
            taken = positions(seeded(setup, seed), {"start": 0.0, **STAGES})
            # A running bot has drawn its boards' static backgrounds long ago: they are
            # mapped here (every company's board too, as the game's first rounds show them),
            # and the game's first position (not measured) is rendered, with every company's
            # board: each player looks at theirs in the first round.
            start = taken.pop("start")
            warm_game(start.options)
            for view in views(start.options):
                render(start, view=view)
            for company in board_ids(start):
                render(start, view="company", company=company)
            for state in taken.values():
                for view in views(state.options):

                    def make(s: GameState = state, v: str = view) -> bytes:
                        return render(s, view=v)

                    spent, floor, size = _timed(make, clear_caches)
                    found[view].new.append((spent, floor))
                    for group in groups(state.options):
                        found[view].grouped[group].append(spent / floor)
                    found[view].sizes.append(size)
                    # The stamps this made are not kept: the next "new" picture is drawn
                    # with the stamps of the positions before it, as a running bot's.
                    with stamps_forgotten():
                        spent, floor, _ = _timed(make, clear_caches)
                    found[view].cold.append((spent, floor))
    return found


def _ratios(pairs: list[tuple[float, float]]) -> list[float]:
    return [spent / floor for spent, floor in pairs if floor > 0]


def print_positions(found: dict[str, Figures]) -> None:
    """The table of positions from played games, one row per view."""
    print(
        f"{'view':<12} {'n':>4} {'render':>8} {'floor':>8} {'new p50':>8} {'new p95':>8} "
        f"{'nost p50':>8} {'nost p95':>8} {'max KB':>7} {'budget':>7}  worst board or expansion"
    )
    print(f"{'':<12} {'':>4} {'p50 ms':>8} {'p50 ms':>8}{'':>52}  (its new p50)")
    for view, f in found.items():
        new, cold = _ratios(f.new), _ratios(f.cold)
        kb = max(f.sizes) / 1024
        worst, worst_p50 = max(
            ((group, pct(ratios, 0.5)) for group, ratios in f.grouped.items()),
            key=lambda pair: pair[1],
        )
        ok = (
            pct(new, 0.5) <= BUDGET_P50
            and worst_p50 <= BUDGET_P50
            and pct(new, 0.95) <= BUDGET_P95
            and kb <= BUDGET_KB.get(view, VIEW_KB)
        )
        print(
            f"{view:<12} {len(f.new):>4} {statistics.median(s for s, _ in f.new) * 1000:>8.1f} "
            f"{statistics.median(fl for _, fl in f.new) * 1000:>8.1f} {pct(new, 0.5):>8.2f} "
            f"{pct(new, 0.95):>8.2f} {pct(cold, 0.5):>8.2f} {pct(cold, 0.95):>8.2f} "
            f"{kb:>7.0f} {'ok' if ok else 'MISSED':>7}  {worst} {worst_p50:.2f}"
        )


def print_full_sizes(games: int) -> None:
    """The full board's PNG size in late 4-player games of each pair of expansions."""
    for pair in PAIRS:
        setup = game(4, "full", *pair)
        sizes = []
        for seed in range(1, games + 1):
            late = positions(seeded(setup, 1000 + seed), {"late": 0.95, "end": 1.0})
            for state in late.values():
                clear_caches()
                sizes.append(len(render(state, view="full")) / 1024)
        over = sum(kb > BUDGET_KB["full"] for kb in sizes)
        print(
            f"full board, {label(setup)}: {games} games, late and finished: max "
            f"{max(sizes):.0f} KB, median {statistics.median(sizes):.0f} KB, "
            f"{over} of {len(sizes)} over {BUDGET_KB['full']} KB"
        )


def _sample_row(label: str, make: Callable[[], bytes], runs: int) -> str:
    """Time ``make()`` `runs` times with its finished views forgotten (stamps cached)."""
    timed = [_timed(make, clear_caches) for _ in range(runs)]
    render_ms = statistics.median(t[0] for t in timed) * 1000
    floor = statistics.median(t[1] for t in timed) * 1000
    best = min(t[0] for t in timed) / min(t[1] for t in timed)
    return (
        f"{label:<28} {render_ms:>8.1f} {floor:>8.1f} {render_ms / floor:>6.2f} "
        f"{best:>6.2f} {timed[-1][2] / 1024:>7.0f}"
    )


def print_samples(runs: int) -> None:
    """The old figures: each sample position rendered `runs` times (medians)."""
    samples = [("", midgame_state())]
    for name in ("leeghwater", "colorado", "nile"):
        samples.append((f"{name} ", drawing(name).sample_state()))
    for _label, state in samples:  # warm the static backgrounds and text: drawn once
        for view in views(state.options):
            render(state, view=view)
    print(f"{'view':<28} {'render':>8} {'floor':>8} {'ratio':>6} {'best':>6} {'KB':>7}")
    for label, state in samples:
        for view in views(state.options):
            print(_sample_row(f"{label}{view}", functools.partial(render, state, view=view), runs))
    final = finished_game()
    print(_sample_row("score sheet", lambda: render_score_sheet(final[0], final[1]), runs))


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    """Measure and print the three tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each sample position")
    parser.add_argument("--size-games", type=int, default=16, help="games of each pair")
    parser.add_argument("--seeds", type=int, default=1, help="games of each setup")
    parser.add_argument("--skip-samples", action="store_true", help="no sample-position table")
    args = parser.parse_args()
    print(f"PNG options: {PNG_OPTIONS}; thread CPU time; machine load average {load_average()}")
    started = time.thread_time()
    found = measure(args.seeds)
    print(
        f"\npositions of played games ({len(SETUPS)} setups x {args.seeds} seed(s) x "
        f"{len(STAGES)} stages, {', '.join(STAGES)}), each view rendered once; new = finished "
        "views forgotten, stamps and backgrounds kept; nost = stamps forgotten too; ratio = "
        "render / palette-PNG encode of the same picture"
    )
    print_positions(found)
    print(f"(load average now {load_average()})\n")
    print_full_sizes(args.size_games)
    if not args.skip_samples:
        print(
            f"\ncached samples (the former figures): one position per setup, {args.runs} runs "
            "each, finished views forgotten before each run, so every item after the first "
            "run is a cached stamp; medians, best = fastest render / fastest encode"
        )
        print_samples(args.runs)
    print(
        f"\nthis bench: {time.thread_time() - started:.0f} s of CPU; machine load average "
        f"{load_average()}"
    )


if __name__ == "__main__":
    main()
