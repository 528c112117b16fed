"""Draft the expansion feature tables of a map layout: the panel below the map, Bridge slots.

`python -m renderer.layout.generate_features <map id>` prints the `[features]`,
`[feature.<id>]` (and, when the expansion's drawing asks for them, `[bridge."<basin>"]`)
tables that end `renderer/layout/<map id>.toml`; the tables before them are `generate.py`'s.
The rows come from the drawing module of the expansion whose board the map is
(`feature_rows(features, width, gap)`, `FEATURE_TITLE`, `BRIDGE_SLOTS`). Each feature box is
two text lines tall: its id, then what the state puts on it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from renderer.expansions import catalogue, drawing
from renderer.layout import MapLayout, Rect, map_layout

PANEL_TOP = 1596
LEFT, RIGHT = 24, 1176
ROW = 84  # two lines of 30 px text
GAP = 10
TITLE = 50
BRIDGE_W, BRIDGE_H = 96, 40


def owner(map_id: str) -> ModuleType:
    """The drawing module of the expansion whose board `map_id` is."""
    for name, info in catalogue().expansions.items():
        if info.map == map_id or map_id in info.maps:
            return drawing(name)
    raise ValueError(f"no expansion plays on the map {map_id!r}")


def feature_tables(
    map_id: str, features: Mapping[str, Any]
) -> tuple[Rect, list[tuple[str, str, Rect]]]:
    """Return the panel's rect and each feature's (id, kind, rect), row by row."""
    rows = owner(map_id).feature_rows(features, RIGHT - LEFT, GAP)
    placed = []
    y = PANEL_TOP + TITLE + 4
    for row in rows:
        x = LEFT
        for fid, kind, width in row:
            placed.append((fid, kind, (x, y, x + width, y + ROW)))
            x += width + GAP
        y += ROW + GAP
    return (12, PANEL_TOP, 1188, y + 2), placed


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def bridge_slots(layout: MapLayout) -> dict[int, Rect]:
    """Per basin with dams, a free slot beside its lower dam for the basin's one Bridge tag.

    A basin holds at most one Bridge, so one slot serves both dams; the right side is tried
    first, then the left. The slot may reach into the gutter beside the basin, never another
    basin, space or number badge.
    """
    slots: dict[int, Rect] = {}
    others = [s.rect for s in layout.spaces.values()] + [b.badge for b in layout.basins.values()]
    for basin in layout.basins.values():
        dams = [
            s for s in layout.spaces.values() if s.kind == "dam" and _overlap(s.rect, basin.rect)
        ]
        if not dams:
            continue
        lower = max(dams, key=lambda s: s.rect[1])
        x0, y0, x1, y1 = lower.rect
        cy = (y0 + y1) // 2
        for rect in (
            (x1 + 6, cy - BRIDGE_H // 2, x1 + 6 + BRIDGE_W, cy + BRIDGE_H // 2),
            (x0 - 6 - BRIDGE_W, cy - BRIDGE_H // 2, x0 - 6, cy + BRIDGE_H // 2),
        ):
            clear = not any(_overlap(rect, o) for o in others)
            alone = not any(
                _overlap(rect, b.rect) for b in layout.basins.values() if b.id != basin.id
            )
            if clear and alone:
                slots[basin.id] = rect
                break
    return slots


def render_tables(map_id: str) -> str:
    """Return the TOML of the feature panel (and Bridge slots) of ``map_id``."""
    from bot.rules.content import load_content

    features = load_content().maps[map_id].features
    panel, placed = feature_tables(map_id, features)
    out = [
        "# Expansion features below the map, labelled with their ids (generate_features.py).",
        "[features]",
        f"rect = {list(panel)}",
        f'title = "{owner(map_id).FEATURE_TITLE}"',
        "",
    ]
    for fid, kind, rect in placed:
        out += [f"[feature.{fid}]", f'kind = "{kind}"', f"rect = {list(rect)}", ""]
    if getattr(owner(map_id), "BRIDGE_SLOTS", False):
        out.append("# Where a basin's Bridge tag goes (one Bridge per basin at most).")
        for basin, rect in sorted(bridge_slots(map_layout(map_id)).items()):
            out += [f'[bridge."{basin}"]', f"rect = {list(rect)}", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(render_tables(sys.argv[1]))
