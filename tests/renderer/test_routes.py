"""The map's lines, measured on the layouts: fewer crossings, no lines run together, and no
area name over a river, a pipe or their arrows.

Counts come from `renderer.layout.routes` over the paths the background draws. The layouts
were routed by `renderer.layout.generate`'s router (issue 13); the counts before it, with
pipes in fixed lanes: base 50 crossings / 5 shared stretches, Colorado 33 / 2, 4-5 players
85 / 12, Nile 32 / 1 (and pipes under the area names on every map). A layout change that
crosses more lines fails here.
"""

from __future__ import annotations

import itertools

import pytest

from renderer import draw as d
from renderer.background import CONDUIT_WIDTH, RIVER_WIDTH, map_background, river_arrows
from renderer.layout import AREA_NAMES, MAP_LAYOUTS, Rect, map_layout
from renderer.layout.routes import (
    Line,
    crossing_count,
    crossings,
    map_lines,
    shared_stretches,
)
from renderer.render import forget_pictures

#: The most crossings (and stretches run together) each map may have: what the router made.
CROSSINGS = {"base": 24, "colorado": 17, "five_player": 47, "nile": 13}
SHARED = {"base": 2, "colorado": 1, "five_player": 4, "nile": 1}


def test_every_map_is_pinned() -> None:
    assert set(CROSSINGS) == set(MAP_LAYOUTS) == set(SHARED)


@pytest.mark.parametrize("map_id", MAP_LAYOUTS)
def test_lines_cross_no_more_than_the_routed_layout(map_id: str) -> None:
    lines = map_lines(map_layout(map_id))
    assert crossing_count(lines) <= CROSSINGS[map_id], crossings(lines)
    assert len(shared_stretches(lines)) <= SHARED[map_id], shared_stretches(lines)


@pytest.mark.parametrize("map_id", MAP_LAYOUTS)
def test_every_river_and_pipe_is_a_counted_line(map_id: str) -> None:
    layout = map_layout(map_id)
    names = {line.name for line in map_lines(layout)}
    conduits = [s for s in layout.spaces.values() if s.kind == "conduit"]
    assert len(names) == len(layout.rivers) + len(layout.basins) + len(conduits)


def test_the_count_tells_a_crossing_from_a_join() -> None:
    across = Line("a", ((0, 50), (100, 50)), 4)
    down = Line("b", ((50, 0), (50, 100)), 4)
    assert crossing_count([across, down]) == 1
    # A river flowing on into a basin's line, two rivers entering one basin: joins.
    into = Line("river", ((50, -40), (50, 0)), 12)
    other = Line("other", ((0, -20), (50, -20), (50, 0)), 12)
    assert crossing_count([into, down]) == 0
    assert crossing_count([into, other]) == 0
    # Two lines along each other for a stretch, going different places: shared, not joined.
    beside = Line("c", ((0, 54), (80, 54), (80, 120)), 4)
    assert shared_stretches([across, beside]) == [("a", "c")]


def _touches(rect: Rect, a: tuple[float, float], b: tuple[float, float], pad: float) -> bool:
    """Whether a segment drawn ``2 * pad`` wide touches a rectangle."""
    x0, y0, x1, y1 = rect
    steps = max(1, int(abs(a[0] - b[0]) + abs(a[1] - b[1])))
    for k in range(steps + 1):
        x = a[0] + (b[0] - a[0]) * k / steps
        y = a[1] + (b[1] - a[1]) * k / steps
        if x0 - pad <= x <= x1 + pad and y0 - pad <= y <= y1 + pad:
            return True
    return False


def _arrow_edges(tip: tuple[int, int], towards_from: tuple[int, int], size: int) -> list:
    """The three sides of an arrowhead as `renderer.draw.arrowhead` draws it."""
    dx, dy = tip[0] - towards_from[0], tip[1] - towards_from[1]
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    px, py = -uy * size * 0.6, ux * size * 0.6
    corners = [tip, (bx + px, by + py), (bx - px, by - py)]
    return [*itertools.pairwise(corners), (corners[2], corners[0]), ((bx, by), tip)]


@pytest.mark.parametrize("map_id", MAP_LAYOUTS)
def test_no_area_name_covers_a_river_a_pipe_or_an_arrow(map_id: str) -> None:
    layout = map_layout(map_id)
    forget_pictures()  # the background is drawn again, so its texts are recorded
    with d.recording() as texts:
        map_background(map_id)
    names = [t for t in texts if t.content in AREA_NAMES.values()]
    assert sorted(t.content for t in names) == sorted(AREA_NAMES[a] for a in layout.bands)
    rivers = [r.path for r in layout.rivers] + [b.river for b in layout.basins.values()]
    for name in names:
        for path in rivers:
            for a, b in itertools.pairwise(path):
                assert not _touches(name.box, a, b, RIVER_WIDTH / 2), (name.content, path)
        for tip, towards_from, size in river_arrows(layout):
            for a, b in _arrow_edges(tip, towards_from, size):
                assert not _touches(name.box, a, b, 0), (name.content, tip)
        # Pipes go under the names' patches: one there would be lost from sight.
        for space in layout.spaces.values():
            if space.kind != "conduit":
                continue
            for a, b in itertools.pairwise(space.path):
                assert not _touches(name.box, a, b, CONDUIT_WIDTH / 2), (name.content, space.id)
            for a, b in _arrow_edges(space.path[-1], space.path[-2], 16):
                assert not _touches(name.box, a, b, 0), (name.content, space.id)
