"""The map's route lines as geometry: where rivers and conduit pipes cross or run together.

A map is easier to follow the fewer its lines cross. The layout generator
(`renderer.layout.generate`) routes lines to keep these counts low and the layout tests pin
them, both computed here from the layout's paths (the same paths the background draws):

- a **crossing** is a point where two different lines meet that is not where they join: a
  river flowing on through a basin, two rivers (or two pipes) meeting at the basin they both
  enter;
- a **shared stretch** is a piece of two lines running along each other closer than their
  widths, so the eye cannot tell them apart.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from renderer.layout import MapLayout, Point

RIVER_WIDTH = 12  # renderer.background.RIVER_WIDTH
CONDUIT_WIDTH = 4  # renderer.background.CONDUIT_WIDTH
#: A stretch shorter than this where two lines run together is only where they cross.
SHARED_MIN = 6


@dataclass(frozen=True, slots=True)
class Line:
    """One drawn route: a river (between basins, from a headstream, inside a basin) or a pipe."""

    name: str
    path: tuple[Point, ...]
    width: int


def map_lines(layout: MapLayout) -> list[Line]:
    """Every route line the map view draws: rivers, the river inside each basin, pipes."""
    lines = [Line(f"river {r.source}→{r.target}", r.path, RIVER_WIDTH) for r in layout.rivers]
    lines += [Line(f"basin {b.id}", b.river, RIVER_WIDTH) for b in layout.basins.values()]
    lines += [
        Line(f"conduit {s.id}", s.path, CONDUIT_WIDTH)
        for s in layout.spaces.values()
        if s.kind == "conduit" and s.path
    ]
    return lines


def crossings(lines: Sequence[Line]) -> list[tuple[str, str, Point]]:
    """Every point where two lines cross: (one line's name, the other's, where)."""
    found = []
    for a, b in itertools.combinations(lines, 2):
        found += [(a.name, b.name, p) for p in _crossing_points(a, b)]
    return found


def crossing_count(lines: Sequence[Line]) -> int:
    """How many times the lines cross each other."""
    return len(crossings(lines))


def shared_stretches(lines: Sequence[Line]) -> list[tuple[str, str]]:
    """Pairs of lines that run along each other somewhere (not only where they join)."""
    return [
        (a.name, b.name)
        for a, b in itertools.combinations(lines, 2)
        if _runs_along(a, b) and not _joined(a, b)
    ]


def line_crossings(line: Line, others: Iterable[Line]) -> int:
    """How many times one line crosses the others (the generator's cost of a route)."""
    return sum(len(_crossing_points(line, other)) for other in others if other is not line)


def line_shared(line: Line, others: Iterable[Line]) -> int:
    """With how many of the others one line shares a stretch."""
    return sum(
        1
        for other in others
        if other is not line and _runs_along(line, other) and not _joined(line, other)
    )


def _joined(a: Line, b: Line) -> bool:
    """Whether the lines end at the same point (they flow into the same place)."""
    return a.path[-1] == b.path[-1]


def _crossing_points(a: Line, b: Line) -> list[Point]:
    """Where two lines meet, less the points where they join; each point counted once."""
    ends_a = {a.path[0], a.path[-1]}
    ends_b = {b.path[0], b.path[-1]}
    merge = a.path[-1] == b.path[-1]
    last_a = (a.path[-2], a.path[-1]) if len(a.path) > 1 else None
    last_b = (b.path[-2], b.path[-1]) if len(b.path) > 1 else None
    points: set[Point] = set()
    for sa in itertools.pairwise(a.path):
        for sb in itertools.pairwise(b.path):
            for point in _meet(sa, sb):
                if point in ends_a and point in ends_b:
                    continue  # one flows on from the other's end, or both enter one place
                if point in ends_a and _on_end(point, a) and _flows_on(point, b):
                    continue
                if point in ends_b and _on_end(point, b) and _flows_on(point, a):
                    continue
                if merge and (_on(point, last_a) or _on(point, last_b)):
                    continue  # two lines into one place meet on the way in
                points.add(point)
    return sorted(points)


def _on_end(point: Point, line: Line) -> bool:
    return point == line.path[-1]


def _flows_on(point: Point, line: Line) -> bool:
    """Whether a line entering at ``point`` continues along ``line`` (a river entering its
    basin's line at the top)."""
    return point == line.path[0]


def _on(point: Point, segment: tuple[Point, Point] | None) -> bool:
    if segment is None:
        return False
    (ax, ay), (bx, by) = segment
    x, y = point
    cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
    return cross == 0 and min(ax, bx) <= x <= max(ax, bx) and min(ay, by) <= y <= max(ay, by)


def _meet(s: tuple[Point, Point], t: tuple[Point, Point]) -> list[Point]:
    """The point where two segments meet (none when apart, the ends of a shared piece when
    they lie along each other)."""
    (ax, ay), (bx, by) = s
    (cx, cy), (dx, dy) = t
    rx, ry = bx - ax, by - ay
    sx, sy = dx - cx, dy - cy
    denom = rx * sy - ry * sx
    if denom == 0:
        if (cx - ax) * ry - (cy - ay) * rx != 0:
            return []  # parallel, apart
        shared = [p for p in (s[0], s[1], t[0], t[1]) if _on(p, s) and _on(p, t)]
        return sorted(set(shared))[:1]  # a shared piece counts once
    u = ((cx - ax) * sy - (cy - ay) * sx) / denom
    v = ((cx - ax) * ry - (cy - ay) * rx) / denom
    if 0 <= u <= 1 and 0 <= v <= 1:
        return [(round(ax + u * rx), round(ay + u * ry))]
    return []


def _runs_along(a: Line, b: Line) -> bool:
    """Whether two lines run side by side closer than their widths for a stretch."""
    gap = (a.width + b.width) // 2
    for sa in itertools.pairwise(a.path):
        for sb in itertools.pairwise(b.path):
            if _alongside(sa, sb, gap):
                return True
    return False


def _alongside(s: tuple[Point, Point], t: tuple[Point, Point], gap: int) -> bool:
    (ax, ay), (bx, by) = s
    (cx, cy), (dx, dy) = t
    if ay == by and cy == dy and abs(ay - cy) <= gap:
        lo, hi = max(min(ax, bx), min(cx, dx)), min(max(ax, bx), max(cx, dx))
        return hi - lo >= SHARED_MIN
    if ax == bx and cx == dx and abs(ax - cx) <= gap:
        lo, hi = max(min(ay, by), min(cy, dy)), min(max(ay, by), max(cy, dy))
        return hi - lo >= SHARED_MIN
    return False
