"""Print render time (median, max), PNG size, pixel size and save() time per view, mid-game 4p."""

from __future__ import annotations

import io
import statistics
import sys
import time

from PIL import Image

from renderer.render import PNG_OPTIONS, palette, render, render_image
from renderer.samples import midgame_state

RUNS = 15
VIEWS = ("map", "shared", "company", "full")
TARGET_MS = {"map": 80, "shared": 80, "company": 80, "full": 150}


def main(runs: int = RUNS) -> None:
    """Time every view of the mid-game position and print a table."""
    state = midgame_state()
    for view in VIEWS:  # warm the static backgrounds: they are drawn once per process
        render(state, view=view)
    print(f"PNG options: {PNG_OPTIONS}; {runs} runs per view")
    print(
        f"{'view':<8} {'pixels':>10} {'median ms':>9} {'max ms':>7} {'save ms':>8} "
        f"{'draw ms':>8} {'draw/save':>9} {'PNG KB':>7} {'target':>7}"
    )
    for view in VIEWS:
        totals, saves = [], []
        size = 0
        image = render_image(state, view=view)
        if view == "full":  # time save() on what render() encodes: the palette image
            image = image.quantize(palette=palette("light"), dither=Image.Dither.NONE)
        for _ in range(runs):
            t0 = time.perf_counter()
            png = render(state, view=view)
            totals.append(time.perf_counter() - t0)
            size = len(png)
            buf = io.BytesIO()
            t1 = time.perf_counter()
            image.save(buf, format="PNG", **PNG_OPTIONS)
            saves.append(time.perf_counter() - t1)
        median, save = statistics.median(totals) * 1000, statistics.median(saves) * 1000
        draw = median - save
        ok = median < TARGET_MS[view] and (view != "full" or size < 500 * 1024)
        print(
            f"{view:<8} {image.width:>4}x{image.height:<5} {median:>9.1f} "
            f"{max(totals) * 1000:>7.1f} {save:>8.1f} {draw:>8.1f} {draw / save:>9.2f} "
            f"{size / 1024:>7.0f} {'ok' if ok else 'MISSED':>7}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS)
