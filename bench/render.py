"""Print render time (median, max), PNG size, pixel size and save() time per view, mid-game 4p.

Rows marked "lwp" time a 3-player game of The Leeghwater Project, whose shared and company
views are taller (the Extra Management board, the board extension).

Two scenarios. "cold": every finished view is forgotten before each run (only the static
backgrounds and text masks stay cached), so the whole picture is drawn. "after partials": the
game service's order after a turn — map, shared and every company board of the state first,
then the full board, which is composed from them (only the full board's render is timed).
"""

from __future__ import annotations

import io
import statistics
import sys
import time

from PIL import Image

from renderer.expansions import drawing
from renderer.render import PNG_OPTIONS, clear_caches, render
from renderer.samples import midgame_state

RUNS = 15
VIEWS = ("map", "shared", "company", "full")
TARGET_MS = {"map": 80, "shared": 80, "company": 80, "full": 150}


def _time(state, view: str, runs: int, warm: bool) -> tuple[list[float], list[float], bytes]:
    totals, saves = [], []
    png = b""
    for _ in range(runs):
        clear_caches()
        if warm:
            render(state, view="map")
            render(state, view="shared")
            for cid in state.seats:
                render(state, view="company", company=cid)
        t0 = time.perf_counter()
        png = render(state, view=view)
        totals.append(time.perf_counter() - t0)
        # save() alone on the same finished image render() encoded (RGB, or palette for full)
        image = Image.open(io.BytesIO(png))
        image.load()
        buf = io.BytesIO()
        t1 = time.perf_counter()
        image.save(buf, format="PNG", **PNG_OPTIONS)
        saves.append(time.perf_counter() - t1)
    return totals, saves, png


def main(runs: int = RUNS) -> None:
    """Time every view of the mid-game positions and print a table."""
    # Each expansion's sample game, from its drawing module (the bench names none but these).
    base, lwp = midgame_state(), drawing("leeghwater").sample_state()
    colorado, nile = drawing("colorado").sample_state(), drawing("nile").sample_state()
    for state in (base, lwp, colorado, nile):
        for view in VIEWS:  # warm the static backgrounds and text: drawn once per process
            render(state, view=view)
    print(f"PNG options: {PNG_OPTIONS}; {runs} runs per view")
    print(
        f"{'view':<34} {'pixels':>10} {'median ms':>9} {'max ms':>7} {'save ms':>8} "
        f"{'draw ms':>8} {'draw/save':>9} {'PNG KB':>7} {'target':>7}"
    )
    rows = [(base, "", view, False) for view in VIEWS] + [(base, "", "full", True)]
    rows += [(lwp, "lwp ", view, False) for view in ("shared", "company", "full")]
    rows += [(lwp, "lwp ", "full", True)]
    # The river maps are taller and their boards carry a strip: reported beside the targets.
    for state, label in ((colorado, "colorado "), (nile, "nile ")):
        rows += [(state, label, view, False) for view in VIEWS] + [(state, label, "full", True)]
    for state, label, view, warm in rows:
        totals, saves, png = _time(state, view, runs, warm)
        width, height = Image.open(io.BytesIO(png)).size
        median, save = statistics.median(totals) * 1000, statistics.median(saves) * 1000
        draw = median - save
        ok = median < TARGET_MS[view] and (view != "full" or len(png) < 500 * 1024)
        ok = ok and draw <= save / 2
        name = f"{label}{view} ({'after partials' if warm else 'cold'})"
        print(
            f"{name:<34} {width:>4}x{height:<5} {median:>9.1f} "
            f"{max(totals) * 1000:>7.1f} {save:>8.1f} {draw:>8.1f} {draw / save:>9.2f} "
            f"{len(png) / 1024:>7.0f} {'ok' if ok else 'MISSED':>7}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS)
