"""Developer tool: draft a map layout file from a map's topology TOML.

Usage: ``python -m renderer.layout.generate MAP.toml > renderer/layout/NAME.toml``.

The committed layout files are the source of truth and may be edited by hand; this tool only
produces a first schematic arrangement (mountains on top, hills, plains, then the bottom
basins; rivers and conduits routed through the gaps) so a new map needs data, not code.
"""

from __future__ import annotations

import itertools
import sys
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from renderer.draw import value_width
from renderer.fonts import font
from renderer.layout import AREA_NAMES
from renderer.layout.routes import CONDUIT_WIDTH, RIVER_WIDTH, Line, line_crossings, line_shared
from renderer.theme import COMPANIES, VIEWS

WIDTH = VIEWS["map"].width
LABEL = VIEWS["map"].text["label"]
VALUE = VIEWS["map"].text["value"]
HEADING = VIEWS["map"].text["heading"]

MARGIN = 12  # canvas edge to band edge
GUTTER = 30  # horizontal gap between basins; rivers and conduits run down these
MIN_GUTTER = 20
CHANNEL = 44  # vertical gap between bands; rivers and conduits run across these
PAD = 8  # inside a basin, around its spaces
BOX_PAD = 5  # inside a space, left and right of its text
GAP = 6  # between two spaces
BAND_HEADER = HEADING + 8  # the band's name ("MOUNTAINS")
TITLE = 8  # the view's title and turn line are in the header above the map
RIVER_DROP = 32  # from a headstream to its basin: room for the river's arrowhead (30)
HEADSTREAM_ROW = LABEL + 8 + PAD + RIVER_DROP  # one line of text, then the arrow down
EXIT_ROW = 70
LINE = LABEL + 8  # height of one line of text inside a space
BADGE = LABEL + 14  # diameter of the basin number badge
DAM_W = 106  # a dam's owner letter, level bars (26) and drop badge (36) side by side

BANDS = ("mountain", "hill", "plain", "bottom")


def text_width(text: str, size: int = LABEL) -> int:
    """Return the pixel width of ``text`` in the bold label font."""
    return round(font(size, "bold").getlength(text))


def _conduit_size(
    space: str, production: int, basin: int, one_line: bool = False
) -> tuple[int, int]:
    """A conduit box: its owner's letter (once built) and id, then "value → basin" (below, or
    on the same line when ``one_line``: renderer.map_view draws either by the box's height)."""
    letter = max(text_width(style.letter) for style in COMPANIES.values())
    value = value_width(production, basin, LABEL)
    if one_line:
        return letter + 4 + text_width(space) + ONE_LINE_GAP + value + 2 * BOX_PAD, LINE + PAD
    width = max(letter + 4 + text_width(space), value) + 2 * BOX_PAD
    return max(width, 2 * LINE), 2 * LINE + PAD


ONE_LINE_GAP = 12  # between a one-line conduit's id and its value


def _at_least(size: tuple[int, int], width: int) -> tuple[int, int]:
    return max(size[0], width), size[1]


def box_size(lines: Sequence[str]) -> tuple[int, int]:
    """Return the size of a space box holding ``lines`` of label-sized text."""
    width = max(text_width(t) for t in lines) + 2 * BOX_PAD
    return max(width, 2 * LINE), len(lines) * LINE + PAD


@dataclass
class Item:
    """One thing placed inside a basin: a space box or the basin badge."""

    key: str
    size: tuple[int, int]
    rect: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass
class BasinPlan:
    """The spaces of one basin and the rows they are arranged in."""

    id: int
    band: str
    rows: list[list[Item]] = field(default_factory=list)
    rect: tuple[int, int, int, int] = (0, 0, 0, 0)

    def width_needed(self) -> int:
        """Return the narrowest width that fits the widest row."""
        return (
            max(sum(i.size[0] for i in row) + GAP * (len(row) - 1) for row in self.rows) + 2 * PAD
        )

    def height_needed(self) -> int:
        """Return the height the rows take."""
        return (
            sum(max(i.size[1] for i in row) for row in self.rows)
            + GAP * (len(self.rows) - 1)
            + 2 * PAD
        )


def _flow(items: Iterable[Item], width: int) -> list[list[Item]]:
    """Break ``items`` into rows no wider than ``width``."""
    rows: list[list[Item]] = [[]]
    used = 0
    for item in items:
        need = item.size[0] + (GAP if rows[-1] else 0)
        if rows[-1] and used + need > width:
            rows.append([])
            used = 0
            need = item.size[0]
        rows[-1].append(item)
        used += need
    return [r for r in rows if r]


def plan_basin(
    basin: Mapping[str, Any], conduits: Mapping[str, Mapping[str, Any]], width: int
) -> BasinPlan:
    """Arrange one basin's spaces in rows that fit ``width`` (water order: top to bottom)."""
    band = basin["area"] if basin["dam_spaces"] else "bottom"
    plan = BasinPlan(basin["id"], band)
    inner = width - 2 * PAD
    badge = Item(f"basin:{basin['id']}", (BADGE, BADGE))
    powerhouses = [Item(p, box_size([p])) for p in basin["powerhouse_spaces"]]
    # Water passes the powerhouses first, then the upper dam, then the lower one.
    dams = {d[-1]: Item(d, _at_least(box_size([d, "0"]), DAM_W)) for d in basin["dam_spaces"]}
    with_badge = _flow([badge, *powerhouses], inner) if powerhouses else []
    alone = _flow(powerhouses, inner) if powerhouses else []
    # The badge rides with the powerhouses unless it would take a row of its own there.
    plan.rows.extend(alone if len(alone) < len(with_badge) else with_badge)
    badged = any(i is badge for row in plan.rows for i in row)

    # A dam's second line holds its owner's piece, its level bars and its drops.
    # A conduit's second line: its owner's letter (once built), its value and the basin fed.
    def conduit(c: str, one_line: bool = False) -> Item:
        return Item(
            c, _conduit_size(c, conduits[c]["production"], conduits[c]["to_basin"], one_line)
        )

    if dams:
        upper, lower = dams["U"], dams["L"]
        left, right = (conduit(c) for c in basin["conduit_spaces"])
        if left.size[0] + upper.size[0] + right.size[0] + 2 * GAP <= inner:
            plan.rows.append([left, upper, right])
            plan.rows.append([lower])
        elif left.size[0] + right.size[0] + GAP <= inner:
            plan.rows.extend([[upper], [lower], [left, right]])
        else:
            # A narrow basin (five in a band): the conduits one under the other, each on one
            # line when it fits.
            lines = [conduit(c, one_line=True) for c in basin["conduit_spaces"]]
            if all(i.size[0] <= inner for i in lines):
                left, right = lines
            plan.rows.extend([[upper], [lower], [left], [right]])
        if not badged:
            # No powerhouse row carries the badge: it goes beside the upper dam if there is
            # room, else in a row of its own above the powerhouses.
            first = next(row for row in plan.rows if upper in row)
            used = sum(i.size[0] for i in first) + GAP * len(first) + BADGE
            if used <= inner:
                first.insert(0, badge)
            else:
                plan.rows[: len(alone)] = with_badge
    elif not badged:
        plan.rows[: len(alone)] = with_badge or [[badge]]
    return plan


def core_width(basin: Mapping[str, Any], conduits: Mapping[str, Mapping[str, Any]]) -> int:
    """The width of a basin whose conduits sit beside its upper dam (powerhouses flow into
    rows as wide); a basin without dams as wide as all its spaces in one row."""
    plan = plan_basin(basin, conduits, WIDTH)
    if not basin["dam_spaces"]:
        return plan.width_needed()
    row = next(r for r in plan.rows if any(i.key.startswith("D") for i in r))
    spaces = [i for i in row if not i.key.startswith("basin:")]
    return sum(i.size[0] for i in spaces) + GAP * (len(spaces) - 1) + 2 * PAD


def place_rows(plan: BasinPlan) -> list[Item]:
    """Give every item of ``plan`` its rectangle inside ``plan.rect``; return the items."""
    x0, y0, x1, _ = plan.rect
    cx = (x0 + x1) // 2
    y = y0 + PAD
    placed: list[Item] = []
    for row in plan.rows:
        h = max(i.size[1] for i in row)
        if len(row) == 2 and row[0].key.startswith("basin:") and row[1].key.startswith("D"):
            # Badge on the left, the dam centred on the river.
            xs = [x0 + PAD, max(cx - row[1].size[0] // 2, x0 + PAD + row[0].size[0] + GAP)]
        elif len(row) == 4 and row[0].key.startswith("basin:") and row[1].key.startswith("C"):
            badge, _left, mid, right = row
            xs = [
                x0 + PAD,
                x0 + 2 * PAD + badge.size[0],
                cx - mid.size[0] // 2,
                x1 - PAD - right.size[0],
            ]
        elif len(row) == 3 and not row[0].key.startswith(("P", "basin")):
            # Conduit, upper dam, conduit: conduits hug the basin's sides, the dam is centred.
            _left, mid, right = row
            xs = [x0 + PAD, cx - mid.size[0] // 2, x1 - PAD - right.size[0]]
        elif len(row) == 2 and row[0].key.startswith("C"):
            xs = [x0 + PAD, x1 - PAD - row[1].size[0]]
        else:
            total = sum(i.size[0] for i in row) + GAP * (len(row) - 1)
            xs = []
            x = cx - total // 2
            for i in row:
                xs.append(x)
                x += i.size[0] + GAP
        for item, x in zip(row, xs, strict=True):
            top = y + (h - item.size[1]) // 2
            item.rect = (x, top, x + item.size[0], top + item.size[1])
            placed.append(item)
        y += h + GAP
    return placed


def _basin_widths(plans: Sequence[BasinPlan], avail: int) -> list[int]:
    """Share ``avail`` pixels among ``plans`` in proportion to what each needs."""
    need = [p.width_needed() for p in plans]
    extra = max(0, avail - sum(need))
    return [n + extra // len(plans) for n in need]


def generate(topology: Mapping[str, Any]) -> dict[str, Any]:
    """Return layout data (see README schema) for the map ``topology``."""
    basins = {b["id"]: b for b in topology["basin"]}
    conduits = {c["id"]: c for c in topology["conduit_space"]}
    by_band: dict[str, list[Mapping[str, Any]]] = {b: [] for b in BANDS}
    for b in basins.values():
        by_band[b["area"] if b["dam_spaces"] else "bottom"].append(b)

    layout: dict[str, Any] = {
        "view": {"width": WIDTH},
        "band": {},
        "basin": {},
        "space": {},
        "river": [],
    }
    # The first band holds the headstreams too, between its name and its basins: nothing
    # flows into the band from above, so its name has the whole width to itself.
    y = TITLE
    gutters: dict[str, list[int]] = {}
    for band in BANDS:
        members = sorted(by_band[band], key=lambda b: b["id"])
        if not members:
            continue
        n = len(members)
        # Each basin as wide as its spaces in the fewest rows, when the band holds them all;
        # else equal shares.
        plans = [plan_basin(b, conduits, core_width(b, conduits)) for b in members]
        if sum(p.width_needed() for p in plans) > WIDTH - 2 * MARGIN - (n + 1) * MIN_GUTTER:
            share = (WIDTH - 2 * MARGIN - (n + 1) * GUTTER) // n
            plans = [plan_basin(b, conduits, share) for b in members]
            if any(len(r) == 1 and r[0].key.startswith("C") for p in plans for r in p.rows):
                # Conduits stacked one under the other: take the narrowest gutters instead.
                share = (WIDTH - 2 * MARGIN - (n + 1) * MIN_GUTTER) // n
                plans = [plan_basin(b, conduits, share) for b in members]
        # Narrow the gutters (never below a river's width plus a margin) when the basins need it.
        spare = WIDTH - 2 * MARGIN - sum(p.width_needed() for p in plans)
        gutter = max(MIN_GUTTER, min(GUTTER, spare // (n + 1)))
        avail = WIDTH - 2 * MARGIN - (n + 1) * gutter
        widths = _basin_widths(plans, avail)
        header = 0 if band == "bottom" else BAND_HEADER
        if not gutters:
            header += HEADSTREAM_ROW
        band_top = y
        top = y + header
        height = max(p.height_needed() for p in plans)
        # Spread the spare width evenly so the gutters line up as straight lanes.
        x = MARGIN + gutter
        gutters[band] = [MARGIN + gutter // 2]
        for plan, w in zip(plans, widths, strict=True):
            plan.rect = (x, top, x + w, top + height)
            x += w + gutter
            gutters[band].append(x - gutter // 2)
        band_rect = [MARGIN, band_top, WIDTH - MARGIN, top + height + PAD]
        if band == "bottom":
            # The bottom basins are plains too: extend the plains band around them.
            layout["band"]["plain"]["rect"][3] = band_rect[3]
        else:
            # The area's name sits between the first two basins, clear of the rivers entering them.
            centres = [(p.rect[0] + p.rect[2]) // 2 for p in plans[:2]]
            label_x = max(
                MARGIN + gutter, sum(centres) // 2 - text_width(AREA_NAMES[band], HEADING) // 2
            )
            layout["band"][band] = {"rect": band_rect, "label_at": [label_x, band_top + 6]}
        for plan in plans:
            for item in place_rows(plan):
                if item.key.startswith("basin:"):
                    layout["basin"].setdefault(str(plan.id), {})["badge"] = list(item.rect)
                    continue
                layout["space"][item.key] = {"rect": list(item.rect)}
        for plan in plans:
            entry = layout["basin"].setdefault(str(plan.id), {})
            entry.update({"band": band, "rect": list(plan.rect)})
        y = band_rect[3] + CHANNEL

    for k, v in layout["space"].items():
        v["kind"] = {"D": "dam", "C": "conduit", "P": "powerhouse"}[k[0]]
    height = y - CHANNEL // 2 + EXIT_ROW + MARGIN
    layout["view"]["height"] = height
    layout["view"]["title"] = "Map"  # edit by hand: the heading players read
    layout["view"]["title_at"] = [MARGIN + 6, 10]

    _place_headstreams(layout, topology)
    _place_exits(layout, topology, height)
    # The area names first, clear of the rivers entering the basins; the router then keeps
    # every line off them, and the last check moves a name that still has a line under it.
    _place_band_labels(layout)
    _route_all(layout, topology, basins, gutters)
    _place_band_labels(layout)
    return layout


def _place_band_labels(layout: dict[str, Any]) -> None:
    """Put each area's name in its band's header where no river, arrowhead or pipe runs: the
    free stretch nearest to the band's first gap between basins. Before routing, only the
    rivers into the band's basins (straight down into their middles) are known."""
    lines = [r["path"] for r in layout["river"]] + [
        s["path"] for s in layout["space"].values() if "path" in s
    ]
    lines += [b["river"] for b in layout["basin"].values() if "river" in b]
    for band, entry in layout["band"].items():
        x0, y0, x1, _ = entry["rect"]
        w = text_width(AREA_NAMES[band], HEADING) + 12
        top, bottom = y0 + 2, y0 + BAND_HEADER + 4
        entries = [
            [[cx, top - 40], [cx, bottom + 40]]
            for b in layout["basin"].values()
            if b["band"] == band
            for cx in [(b["rect"][0] + b["rect"][2]) // 2]
        ]
        preferred = entry["label_at"][0]
        free = [
            x
            for x in range(x0 + 12, x1 - w - 12, 4)
            if not any(_crosses(path, (x - 6, top, x + w, bottom), 20) for path in lines + entries)
        ]
        if free:
            entry["label_at"][0] = min(free, key=lambda x: abs(x - preferred))


def _label_boxes(layout: Mapping[str, Any]) -> list[tuple[int, int, int, int]]:
    """The boxes the area names take in their bands' headers (`_place_band_labels`)."""
    boxes = []
    for band, entry in layout["band"].items():
        x, y0 = entry["label_at"][0], entry["rect"][1]
        w = text_width(AREA_NAMES[band], HEADING) + 12
        boxes.append((x - 6, y0 + 2, x + w, y0 + BAND_HEADER + 4))
    return boxes


def _crosses(path: Sequence[Sequence[int]], rect: tuple[int, int, int, int], pad: int) -> bool:
    """True when a polyline (with ``pad`` pixels around it: its width, an arrowhead) touches
    ``rect``."""
    x0, y0, x1, y1 = rect
    for (ax, ay), (bx, by) in itertools.pairwise(path):
        lx0, lx1 = min(ax, bx) - pad, max(ax, bx) + pad
        ly0, ly1 = min(ay, by) - pad, max(ay, by) + pad
        if lx0 < x1 and x0 < lx1 and ly0 < y1 and y0 < ly1:
            return True
    return False


def _basin_centre_x(layout: Mapping[str, Any], basin_id: int) -> int:
    rect: tuple[int, int, int, int] = layout["basin"][str(basin_id)]["rect"]
    x0, _, x1, _ = rect
    return (x0 + x1) // 2


def headstream_size(pitch: int) -> tuple[int, int]:
    """A headstream box, one line: its id, the drops its tile adds ("+2"; a river source token
    "RS10" where there is room), its drops held (renderer.map_view); ``pitch`` apart."""
    width = BOX_PAD + text_width("HA") + 10 + text_width("RS10", VALUE) + 10 + DROP_W + BOX_PAD
    return min(width, pitch - 2 * MIN_GUTTER), LINE + PAD


DROP_W = 40  # a drop badge (renderer.map_view)


def _place_headstreams(layout: dict[str, Any], topology: Mapping[str, Any]) -> None:
    """Each headstream above the basin it feeds, in the first band's headstream row."""
    centres = sorted(_basin_centre_x(layout, hs["feeds_basin"]) for hs in topology["headstream"])
    pitch = min((b - a for a, b in itertools.pairwise(centres)), default=WIDTH)
    w, h = headstream_size(pitch)
    first = min(layout["band"].values(), key=lambda b: b["rect"][1])
    y = first["rect"][1] + BAND_HEADER
    for hs in topology["headstream"]:
        cx = _basin_centre_x(layout, hs["feeds_basin"])
        layout["space"][hs["id"]] = {
            "kind": "headstream",
            "rect": [cx - w // 2, y, cx + w // 2, y + h],
        }


def _place_exits(layout: dict[str, Any], topology: Mapping[str, Any], height: int) -> None:
    exits = topology["map"]["exits"]
    w, h = box_size(["EXIT_L"])
    y = height - MARGIN - h
    for exit_id in exits:
        feeders = [b["id"] for b in topology["basin"] if b["river_to"] == exit_id]
        cx = sum(_basin_centre_x(layout, b) for b in feeders) // len(feeders)
        if exit_id == "EXIT_L":
            cx = min(cx, MARGIN + w // 2)
        elif exit_id == "EXIT_R":
            cx = max(cx, WIDTH - MARGIN - w // 2)
        layout["space"][exit_id] = {"kind": "exit", "rect": [cx - w // 2, y, cx + w // 2, y + h]}


def _band_index(band: str) -> int:
    return BANDS.index(band)


#: Where a line may cross a channel between bands: offsets from the channel's middle, far
#: enough apart for a pipe beside a river.
LANES = tuple(range(-21, 22, 6))
#: What the router minimises, per line: crossings, plus stretches run along another line
#: (worse: the eye cannot tell the two apart), plus a little length.
SHARED_COST = 3
LABEL_COST = 40  # a line under an area's name: hidden where the name's patch covers it
LENGTH_COST = 0.0005


@dataclass
class RouteSpec:
    """A line to route down the map: its ends and the choices the router makes for it, the
    lane of each channel it crosses and the gutter it takes through each band between."""

    key: tuple[str, str]  # ("river", source) or ("conduit", space id)
    start: tuple[int, int]
    start_band: str
    end: tuple[int, int]
    end_band: str | None  # None: an exit below the last band
    width: int
    lanes: list[int]
    picks: list[int | None]  # a gutter's index, or None for the one nearest the way down
    arrivals: tuple[int, ...] = ()  # where on its target's top edge a pipe may arrive
    arrival: list[int] = field(default_factory=lambda: [0])  # the arrival taken (its index)


def _route(
    layout: Mapping[str, Any], spec: RouteSpec, gutters: Mapping[str, list[int]]
) -> list[list[int]]:
    """The path of ``spec`` down the map through the channels and gutters it was given."""
    bands = [b for b in BANDS if b in gutters]
    i = bands.index(spec.start_band)
    j = bands.index(spec.end_band) if spec.end_band else len(bands)
    (x, y), end = spec.start, spec.end
    if spec.arrivals:
        end = (spec.arrivals[spec.arrival[0]], end[1])

    def gutter(band: str, pick: int | None, aim: int) -> int:
        if pick is None:
            return min(gutters[band], key=lambda g: abs(g - aim))
        return gutters[band][pick]

    if i == j:
        # A neighbour in the same band: climb a gutter to the channel above, cross over.
        g = gutter(spec.start_band, spec.picks[0], (x + end[0]) // 2)
        above = _channel_above(layout, spec.start_band) + spec.lanes[0]
        points = [[x, y], [x, y + PAD + GAP], [g, y + PAD + GAP], [g, above], [end[0], above]]
        return [*points, [end[0], end[1]]]
    points = [[x, y]]
    for n, k in enumerate(range(i, j)):
        channel_y = _channel_below(layout, bands[k], gutters) + spec.lanes[n]
        points.append([x, channel_y])
        x = gutter(bands[k + 1], spec.picks[n], (x + end[0]) // 2) if k + 1 < j else end[0]
        points.append([x, channel_y])
    points.append([end[0], end[1]])
    out: list[list[int]] = []
    for p in points:
        if not out or out[-1] != p:
            out.append(p)
    return out


def _channel_below(layout: Mapping[str, Any], band: str, gutters: Mapping[str, list[int]]) -> int:
    bottoms: list[int] = [b["rect"][3] for b in layout["basin"].values() if b["band"] == band]
    return max(bottoms) + PAD + CHANNEL // 2


def _channel_above(layout: Mapping[str, Any], band: str) -> int:
    tops: list[int] = [b["rect"][1] for b in layout["basin"].values() if b["band"] == band]
    return min(tops) - PAD - CHANNEL // 2 + 4


def _band_of(basin: Mapping[str, Any]) -> str:
    return basin["area"] if basin["dam_spaces"] else "bottom"


def _river_specs(
    layout: dict[str, Any], topology: Mapping[str, Any], basins: Mapping[int, Mapping[str, Any]]
) -> list[RouteSpec]:
    """The rivers from each headstream (straight down, fixed) and each basin (routed)."""
    for hs in topology["headstream"]:
        x0, _, x1, y1 = layout["space"][hs["id"]]["rect"]
        target = layout["basin"][str(hs["feeds_basin"])]["rect"]
        layout["river"].append(
            {
                "from": hs["id"],
                "to": hs["feeds_basin"],
                "path": [[(x0 + x1) // 2, y1], [(x0 + x1) // 2, target[1]]],
            }
        )
    specs = []
    for b in basins.values():
        rect = layout["basin"][str(b["id"])]["rect"]
        band = layout["basin"][str(b["id"])]["band"]
        cx = (rect[0] + rect[2]) // 2
        # Inside the basin the river runs down the middle, past the powerhouses and both dams.
        layout["basin"][str(b["id"])]["river"] = [[cx, rect[1]], [cx, rect[3]]]
        to = b["river_to"]
        if isinstance(to, str):
            ex = layout["space"][to]["rect"]
            end = ((ex[0] + ex[2]) // 2, ex[1])
            end_band = None
        else:
            t = layout["basin"][str(to)]
            end = ((t["rect"][0] + t["rect"][2]) // 2, t["rect"][1])
            end_band = t["band"]
        # The first guess: neighbouring rivers cross a channel in different lanes, a river
        # skipping a band in its own lane.
        skips = end_band is not None and BANDS.index(end_band) - BANDS.index(band) > 1
        index = sorted(x["id"] for x in basins.values() if _band_of(x) == band).index(b["id"])
        lane = LANES[0] if skips else LANES[2 if index % 2 == 0 else 5]
        bands = layout["_bands"]
        channels = (bands.index(end_band) if end_band else len(bands)) - bands.index(band)
        specs.append(
            RouteSpec(
                ("river", str(b["id"])),
                (cx, rect[3]),
                band,
                end,
                end_band,
                RIVER_WIDTH,
                [lane] * max(1, channels),
                [None] * max(1, channels - 1),
            )
        )
    return specs


def _conduit_specs(layout: dict[str, Any], topology: Mapping[str, Any]) -> list[RouteSpec]:
    """Each conduit's pipe, from under its space to the top of the basin it feeds."""
    specs = []
    bands = layout["_bands"]
    for c in topology["conduit_space"]:
        x0, _, x1, y1 = layout["space"][c["id"]]["rect"]
        src = layout["basin"][str(c["from_basin"])]
        dst = layout["basin"][str(c["to_basin"])]
        cx = (dst["rect"][0] + dst["rect"][2]) // 2
        end = (cx + (-28 if c["side"] == "left" else 28), dst["rect"][1])
        # A pipe arrives on its target's top edge, clear of the river in its middle and of
        # the number badge in its top left corner.
        reach = ((dst["rect"][2] - dst["rect"][0]) // 2 - 12) // 16
        arrivals = tuple(cx + k * 16 for k in range(-reach, reach + 1) if abs(k) >= 2)
        badge = dst["badge"]
        arrivals = tuple(x for x in arrivals if not badge[0] - 10 <= x <= badge[2] + 10)
        start_x = x0 + 14 if c["side"] == "left" else x1 - 14
        channels = max(1, bands.index(dst["band"]) - bands.index(src["band"]))
        lane = LANES[6] if c["side"] == "left" else LANES[7]
        specs.append(
            RouteSpec(
                ("conduit", c["id"]),
                (start_x, y1),
                src["band"],
                end,
                dst["band"],
                CONDUIT_WIDTH,
                [lane] * channels,
                [None] * max(1, channels - 1),
                arrivals,
                [min(range(len(arrivals)), key=lambda n: abs(arrivals[n] - end[0]))],
            )
        )
    return specs


def _route_all(
    layout: dict[str, Any],
    topology: Mapping[str, Any],
    basins: Mapping[int, Mapping[str, Any]],
    gutters: Mapping[str, list[int]],
) -> None:
    """Route every river and pipe, choosing lanes and gutters for the fewest crossings."""
    layout["_bands"] = [b for b in BANDS if b in gutters]
    specs = _river_specs(layout, topology, basins) + _conduit_specs(layout, topology)
    fixed = [
        Line(f"river {r['from']}", _tuples(r["path"]), RIVER_WIDTH) for r in layout["river"]
    ] + [Line(f"basin {k}", _tuples(b["river"]), RIVER_WIDTH) for k, b in layout["basin"].items()]
    lines = {s.key: _line(layout, s, gutters) for s in specs}
    labels = _label_boxes(layout)

    def cost(spec: RouteSpec, line: Line) -> float:
        others = fixed + [v for k, v in lines.items() if k != spec.key]
        length = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in itertools.pairwise(line.path))
        # Its width and its arrowhead (a pipe's is 16 px long, 10 px either side).
        under = sum(_crosses(line.path, box, line.width // 2 + 12) for box in labels)
        return (
            line_crossings(line, others)
            + SHARED_COST * line_shared(line, others)
            + LABEL_COST * under
            + LENGTH_COST * length
        )

    for _ in range(8):
        changed = False
        for spec in specs:
            choice_lists: tuple[tuple[list[Any], Sequence[int] | None], ...] = (
                (spec.lanes, LANES),
                (spec.picks, None),
                (spec.arrival, tuple(range(len(spec.arrivals))) if spec.arrivals else ()),
            )
            for choices, options in choice_lists:
                if choices is spec.arrival and not spec.arrivals:
                    continue
                for n in range(len(choices)):
                    band = _crossed_band(spec, layout["_bands"], n)
                    values: Sequence[int | None] = (
                        options
                        if options is not None
                        else [None, *range(len(gutters.get(band, [])))]
                    )
                    best = cost(spec, lines[spec.key])
                    keep = choices[n]
                    for value in values:
                        choices[n] = value
                        line = _line(layout, spec, gutters)
                        now = cost(spec, line)
                        if now < best - 1e-9:
                            best, keep, changed = now, value, True
                    choices[n] = keep
                    lines[spec.key] = _line(layout, spec, gutters)
        if not changed:
            break
    del layout["_bands"]
    for spec in specs:
        path = [list(p) for p in lines[spec.key].path]
        if spec.key[0] == "river":
            source = int(spec.key[1])
            layout["river"].append({"from": source, "to": basins[source]["river_to"], "path": path})
        else:
            layout["space"][spec.key[1]]["path"] = path


def _crossed_band(spec: RouteSpec, bands: Sequence[str], n: int) -> str:
    """The band whose gutter the ``n``-th gutter choice of a route picks."""
    i = bands.index(spec.start_band)
    j = bands.index(spec.end_band) if spec.end_band else len(bands)
    return spec.start_band if i == j else bands[min(i + n + 1, len(bands) - 1)]


def _line(layout: Mapping[str, Any], spec: RouteSpec, gutters: Mapping[str, list[int]]) -> Line:
    return Line(" ".join(spec.key), _tuples(_route(layout, spec, gutters)), spec.width)


def _tuples(path: Sequence[Sequence[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(x), int(y)) for x, y in path)


def to_toml(layout: Mapping[str, Any], map_id: str) -> str:
    """Serialise ``layout`` as TOML in a stable, diff-friendly order."""

    def arr(v: Sequence[Any]) -> str:
        return "[" + ", ".join(arr(x) if isinstance(x, list) else _scalar(x) for x in v) + "]"

    out = [
        f"# Layout of the {map_id!r} map view: pixel geometry keyed by the engine's ids.",
        "# Drafted by renderer/layout/generate.py, then free to edit by hand.",
        "# Schema: renderer/layout/README.md.",
        "",
        "[view]",
    ]
    out += [
        f"{k} = {arr(v) if isinstance(v, list) else _scalar(v)}" for k, v in layout["view"].items()
    ]
    out.append(f'map = "{map_id}"')
    for band, v in layout["band"].items():
        out += ["", f"[band.{band}]"] + [f"{k} = {arr(x)}" for k, x in v.items()]
    for bid, v in sorted(layout["basin"].items(), key=lambda kv: int(kv[0])):
        out += ["", f'[basin."{bid}"]']
        out += [f"{k} = {arr(x) if isinstance(x, list) else _scalar(x)}" for k, x in v.items()]
    for sid, v in layout["space"].items():
        out += ["", f"[space.{sid}]"]
        out += [f"{k} = {arr(x) if isinstance(x, list) else _scalar(x)}" for k, x in v.items()]
    for r in layout["river"]:
        out += [
            "",
            "[[river]]",
            f"from = {_scalar(r['from'])}",
            f"to = {_scalar(r['to'])}",
            f"path = {arr(r['path'])}",
        ]
    return "\n".join(out) + "\n"


def _scalar(v: Any) -> str:
    return f'"{v}"' if isinstance(v, str) else str(v)


def main(argv: Sequence[str]) -> None:
    """Print the drafted layout of the map TOML named in ``argv``."""
    with open(argv[1], "rb") as f:
        topology = tomllib.load(f)
    print(to_toml(generate(topology), topology["map"]["id"]), end="")


if __name__ == "__main__":
    main(sys.argv)
