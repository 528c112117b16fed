"""Print the time to draw each static map background and to encode it as PNG (median of runs)."""

from __future__ import annotations

import io
import statistics
import time

from benchargs import numbers

from bot.rules.content import load_content
from renderer.background import draw_map_background
from renderer.layout import MAP_LAYOUTS, map_layout
from renderer.theme import get_theme

RUNS = 15


def main(runs: int = RUNS) -> None:
    """Time drawing and PNG encoding of every map background in the light theme."""
    content = load_content()
    theme = get_theme("light")
    print(
        f"{'map':<12} {'size':>10} {'draw ms':>8} {'save ms':>8} {'png KB':>7}  (median of {runs})"
    )
    for map_id in MAP_LAYOUTS:
        layout = map_layout(map_id)
        draws, saves = [], []
        size = 0
        for _ in range(runs):
            t0 = time.perf_counter()
            image = draw_map_background(content.maps[map_id], layout, theme)
            t1 = time.perf_counter()
            buf = io.BytesIO()
            image.save(buf, format="PNG")
            t2 = time.perf_counter()
            draws.append(t1 - t0)
            saves.append(t2 - t1)
            size = buf.tell()
        print(
            f"{map_id:<12} {image.width:>4}x{image.height:<5} "
            f"{statistics.median(draws) * 1000:>8.1f} {statistics.median(saves) * 1000:>8.1f} "
            f"{size / 1024:>7.0f}"
        )


if __name__ == "__main__":
    main(*numbers(__doc__, ("runs", RUNS, "draws of each background")))
