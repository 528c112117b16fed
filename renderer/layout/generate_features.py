"""Draft an expansion's features view and its map's Bridge slots.

`python -m renderer.layout.generate_features <map id>` prints the layout of the view that shows
the features of the expansion whose board the map is (`renderer/layout/<map id>_features.toml`:
`[view]`, `[features]`, `[feature.<id>]`); `... <map id> extra` prints the
`[bridge."<basin>"]` tables (when the expansion's drawing asks for them) and the `[course]` of a
great river (the map topology's key named by the drawing's `course_key`) that end the
map's layout (`renderer/layout/<map id>.toml`, after `generate.py`'s tables). The rows come
from that expansion's `Drawing` (`feature_rows(features, width, gap)`, `feature_title`,
`bridge_slots`). Each feature box is two text lines tall: its id, then what the state puts on it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from renderer.expansions import catalogue, drawing
from renderer.expansions.drawing import Drawing
from renderer.layout import MapLayout, Rect, map_layout

PANEL_TOP = 6
LEFT, RIGHT = 24, 1176
ROW = 92  # two lines of 34 px text
GAP = 10
TITLE = 50
BRIDGE_W, BRIDGE_H = 96, 40


def owner(map_id: str) -> Drawing:
    """The drawing of the expansion whose board `map_id` is."""
    for name, info in catalogue().expansions.items():
        if info.map == map_id or map_id in info.maps:
            return drawing(name)
    raise ValueError(f"no expansion plays on the map {map_id!r}")


def feature_tables(
    map_id: str, features: Mapping[str, Any]
) -> tuple[Rect, list[tuple[str, str, Rect]]]:
    """Return the panel's rect and each feature's (id, kind, rect), row by row."""
    feature_rows = owner(map_id).feature_rows
    if feature_rows is None:
        raise ValueError(f"the drawing of the map {map_id!r} lays out no features")
    rows = feature_rows(features, RIGHT - LEFT, GAP)
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
    """Return the TOML of the features view of ``map_id``'s expansion."""
    from bot.rules.content import load_content

    features = load_content().maps[map_id].features
    panel, placed = feature_tables(map_id, features)
    out = [
        f"# The features of the {map_id!r} map: their own view, each labelled with its id.",
        "# Drafted by renderer/layout/generate_features.py; schema: renderer/layout/README.md.",
        "",
        "[view]",
        "width = 1200",
        f"height = {panel[3] + 12}",
        "",
        "[features]",
        f"rect = {list(panel)}",
        f'title = "{owner(map_id).feature_title}"',
        "",
    ]
    for fid, kind, rect in placed:
        out += [f"[feature.{fid}]", f'kind = "{kind}"', f"rect = {list(rect)}", ""]
    return "\n".join(out)


def course_table(map_id: str) -> list[str]:
    """The `[course]` of a map with a great river (the topology's key its drawing module names
    in `COURSE_KEY`: its headstream, its basins, its exit): through the middle of each, as a
    broad band under the rivers."""
    import tomllib

    from bot.rules.declarations import read_file

    info = next(i for i in catalogue().expansions.values() if map_id in i.maps)
    topology = tomllib.loads(read_file(info.package, info.maps[map_id]))
    key = owner(map_id).course_key
    stops = topology["map"].get(key) if key else None
    if not stops:
        return []
    layout = map_layout(map_id)
    path = []
    for stop in stops:
        if isinstance(stop, int):
            x0, y0, x1, y1 = layout.basins[stop].rect
        else:
            x0, y0, x1, y1 = layout.spaces[stop].rect
        path.append([(x0 + x1) // 2, (y0 + y1) // 2])
    return ["[course]", f"path = {path}", ""]


def bridge_tables(map_id: str) -> str:
    """Return the TOML of the Bridge slots of ``map_id`` (when its expansion has Bridges) and
    its great river's course (when it has one)."""
    out = course_table(map_id)
    if owner(map_id).bridge_slots:
        out.append("# Where a basin's Bridge tag goes (one Bridge per basin at most).")
        for basin, rect in sorted(bridge_slots(map_layout(map_id)).items()):
            out += [f'[bridge."{basin}"]', f"rect = {list(rect)}", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(bridge_tables(sys.argv[1]) if sys.argv[2:] == ["extra"] else render_tables(sys.argv[1]))
