"""Static backgrounds: everything of a view that does not change during a game, drawn once."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from renderer import draw as d
from renderer.fonts import font
from renderer.layout import AREA_NAMES, FeatureView, MapLayout, feature_view, map_layout
from renderer.theme import COMPANIES, Theme, get_theme

RIVER_WIDTH = 12
CONDUIT_WIDTH = 4
RED_OUTLINE_WIDTH = 5
COURSE_WIDTH = 34
BOX_PAD = 5  # a space's text from its sides (renderer.layout.generate.BOX_PAD)
# Zones and sites (what a row of spaces belongs to) are tinted; their spaces are plain.
FEATURE_FILLS = {
    "construction_site": "site",
    "irrigation_zone": "course",
    "river_source": "headstream",
}


def draw_map_background(map_data: Any, layout: MapLayout, theme: Theme) -> Image.Image:
    """Draw the static map: areas, basins, rivers, conduit pipes and every labelled space.

    ``map_data`` is the engine's MapData (``bot.rules.content``): basins, dam_spaces,
    conduit_spaces and powerhouse_spaces keyed by their ids.
    """
    sizes = theme.views["map"].text
    image = Image.new("RGB", (layout.width, layout.height), theme.colour("background"))
    draw = ImageDraw.Draw(image)

    for area, (rect, _) in layout.bands.items():
        d.box(draw, rect, theme.colour(area), theme.colour(area), width=1, radius=14)

    for basin in layout.basins.values():
        d.box(
            draw,
            basin.rect,
            theme.colour("basin"),
            theme.colour("basin outline"),
            width=2,
            radius=12,
        )

    # Conduit pipes go under the rivers: the rivers carry the flow the eye should follow first.
    for conduit_id in map_data.conduit_spaces:
        path = layout.spaces[conduit_id].path
        d.polyline(draw, path, theme.colour("conduit path"), CONDUIT_WIDTH)
        d.arrowhead(draw, path[-1], path[-2], 16, theme.colour("conduit path"))

    if layout.course:
        # A great river's course: a broad band under the rivers, so it reads at a glance.
        d.polyline(draw, layout.course, theme.colour("course"), COURSE_WIDTH)
    # An area's name with no free stretch of its band's header (five basins in a row) goes
    # under the rivers, so no river or arrowhead is hidden; the others go on top, below.
    crowded = [area for area, (_, at) in layout.bands.items() if _under_a_river(layout, at, area)]
    for area in crowded:
        _area_name(draw, layout, area, theme, patch=False)
    _draw_rivers(draw, layout, theme)

    for basin in layout.basins.values():
        x0, y0, x1, y1 = basin.badge
        draw.ellipse(basin.badge, fill=theme.colour("basin outline"))
        d.text(
            draw,
            ((x0 + x1) // 2, (y0 + y1) // 2),
            str(basin.id),
            sizes["label"],
            theme.colour("basin"),
        )

    for space in layout.spaces.values():
        _draw_space(draw, space.id, space.kind, space.rect, map_data, theme)

    # Area names go on top, on a patch of their band's colour, so no pipe runs through them.
    for area in layout.bands:
        if area not in crowded:
            _area_name(draw, layout, area, theme, patch=True)
    return image


def _area_box(layout: MapLayout, area: str, size: int) -> tuple[int, int, int, int]:
    x, y = layout.bands[area][1]
    left, top, right, bottom = (int(v) for v in font(size, "bold").getbbox(AREA_NAMES[area]))
    return (x + left - 6, y + top - 4, x + right + 6, y + bottom + 4)


def _under_a_river(layout: MapLayout, at: tuple[int, int], area: str) -> bool:
    """True when a river (or its arrowhead) runs through the area name's box."""
    x0, y0, x1, y1 = _area_box(layout, area, get_theme().views["map"].text["heading"])
    paths = [r.path for r in layout.rivers] + [b.river for b in layout.basins.values()]
    pad = RIVER_WIDTH // 2 + 12  # the line's half width and its arrowhead
    for path in paths:
        for (ax, ay), (bx, by) in itertools.pairwise(path):
            if (
                min(ax, bx) - pad < x1
                and max(ax, bx) + pad > x0
                and min(ay, by) - pad < y1
                and max(ay, by) + pad > y0
            ):
                return True
    return False


def _area_name(
    draw: ImageDraw.ImageDraw, layout: MapLayout, area: str, theme: Theme, *, patch: bool
) -> None:
    size = theme.views["map"].text["heading"]
    if patch:
        draw.rectangle(_area_box(layout, area, size), fill=theme.colour(area))
    at = layout.bands[area][1]
    d.text(draw, at, AREA_NAMES[area], size, theme.colour("band text"), anchor="la")


def feature_canvas(
    name: str, theme: Theme, dirty: list[tuple[int, int, int, int]] | None
) -> tuple[Image.Image, ImageDraw.ImageDraw, FeatureView]:
    """A features view's static background to draw a state on (`draw.over`), its canvas
    noting what is drawn in ``dirty``, and its layout."""
    image, draw = d.over(feature_background(name, theme.name), dirty)
    return image, draw, feature_view(name)


@functools.lru_cache(maxsize=8)
def feature_background(name: str, theme_name: str) -> Image.Image:
    """Return the static part of an expansion's features view (layout ``name``): its panel
    and every feature's box labelled with its short name (callers ``copy()`` it)."""
    from bot.rules.content import load_content

    theme = get_theme(theme_name)
    view = feature_view(name)
    sizes = theme.views["map"].text
    text = theme.colour("text")
    image = Image.new("RGB", (view.width, view.height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    d.box(draw, view.panel, theme.colour("panel"), theme.colour("panel outline"))
    x0, y0, _, _ = view.panel
    d.text(draw, (x0 + 12, y0 + 8), view.title, sizes["heading"], text, anchor="la")
    map_id = name.removesuffix("_features")
    features = load_content().maps[map_id].features
    red = {f["id"] for f in features.get("irrigation_action_space", ()) if f.get("red_outline")}
    for feature in view.features.values():
        fill = FEATURE_FILLS.get(feature.kind, "space")
        outline = theme.colour("red outline" if feature.id in red else "space outline")
        width = RED_OUTLINE_WIDTH if feature.id in red else 2
        d.box(draw, feature.rect, feature_fill(theme, feature.kind), outline, width=width)
        ink = theme.colour("space text") if fill == "space" else text
        # The name on the first line; the second is for what the state puts there.
        at = feature_label_at(feature.rect, sizes["label"])
        d.text(draw, at, feature_label(feature.id, feature.kind), sizes["label"], ink, anchor="lm")
    return image


def feature_fill(theme: Theme, kind: str) -> str:
    """The colour a feature's box is filled with in its view's background."""
    return theme.colour(FEATURE_FILLS.get(kind, "space"))


#: Features drawn by the last part of their id, in their zone's row ("IZ_M_S1" -> "S1").
ROW_MEMBERS = ("irrigation_space", "irrigation_action")


def feature_label(feature_id: str, kind: str) -> str:
    """A feature's label in its box: its id, or in a zone's row the id's last part."""
    return feature_id.rsplit("_", 1)[-1] if kind in ROW_MEMBERS else feature_id


def feature_label_at(rect: tuple[int, int, int, int], size: int) -> tuple[int, int]:
    """Return where a feature box's id goes: the left of its first text line."""
    x0, y0, _, _ = rect
    return x0 + 10, y0 + 6 + (size + 8) // 2


def _draw_rivers(draw: ImageDraw.ImageDraw, layout: MapLayout, theme: Theme) -> None:
    colour = theme.colour("river")
    for basin in layout.basins.values():
        d.polyline(draw, basin.river, colour, RIVER_WIDTH)
    for river in layout.rivers:
        d.polyline(draw, river.path, colour, RIVER_WIDTH)
    for tip, towards_from, size in river_arrows(layout):
        d.arrowhead(draw, tip, towards_from, size, colour)


def river_arrows(layout: MapLayout) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
    """Every river arrowhead as (tip, the point it points away from, size): one where each
    river ends and, so a river can be followed mid-way, one on every long stretch."""
    arrows = []
    for river in layout.rivers:
        path = river.path
        arrows.append((path[-1], path[-2], 30))
        for a, b in itertools.pairwise(path):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) >= 160:
                mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
                tip = (mid[0] + (b[0] - a[0]) // 12, mid[1] + (b[1] - a[1]) // 12)
                arrows.append((tip, mid, 28))
    return arrows


def _draw_space(
    draw: ImageDraw.ImageDraw,
    space_id: str,
    kind: str,
    rect: tuple[int, int, int, int],
    map_data: Any,
    theme: Theme,
) -> None:
    sizes = theme.views["map"].text
    x0, y0, x1, y1 = rect
    cx = (x0 + x1) // 2
    red = False
    if kind == "dam":
        red = map_data.dam_spaces[space_id].red_outline
    elif kind == "powerhouse":
        red = map_data.powerhouse_spaces[space_id].red_outline
    fill = {"headstream": "headstream", "exit": "exit"}.get(kind, "space")
    outline = theme.colour("red outline") if red else theme.colour("space outline")
    d.box(draw, rect, theme.colour(fill), outline, width=RED_OUTLINE_WIDTH if red else 2)
    ink = theme.colour("space text") if fill == "space" else theme.colour("text")
    line = sizes["label"] + 8
    if kind == "conduit" and one_line(rect, sizes["label"]):
        conduit = map_data.conduit_spaces[space_id]
        slots = conduit_slots(rect, conduit.production, conduit.to_basin, sizes["label"])
        d.text(draw, slots.id_at, space_id, sizes["label"], ink, anchor="lm")
        d.conduit_value(
            draw, slots.value_at, conduit.production, conduit.to_basin, sizes["label"], ink
        )
    elif kind == "headstream" and one_line(rect, sizes["label"]):
        d.text(
            draw,
            headstream_slots(rect, sizes["label"]).id_at,
            space_id,
            sizes["label"],
            ink,
            anchor="lm",
        )
    elif kind in ("dam", "conduit", "headstream"):
        # Two lines: the id on top, the second line for production or what the state adds.
        d.text(draw, (cx, y0 + 4 + line // 2), space_id, sizes["label"], ink)
        if kind == "conduit":
            conduit = map_data.conduit_spaces[space_id]
            size = sizes["label"]
            w = d.value_width(conduit.production, conduit.to_basin, size)
            at = (x1 - BOX_PAD - w, y0 + 4 + line + line // 2)
            d.conduit_value(draw, at, conduit.production, conduit.to_basin, size, ink)
    else:
        d.text(draw, (cx, (y0 + y1) // 2), space_id, sizes["label"], ink)


def one_line(rect: tuple[int, int, int, int], size: int) -> bool:
    """Whether a space box holds one line of text (a narrow basin's conduit, a headstream),
    not two (its id above what it holds)."""
    return rect[3] - rect[1] < 2 * (size + 8)


@dataclass(frozen=True, slots=True)
class Slots:
    """Where the parts of a one-line box go: the owner's letter, the id, the value (all
    left-middle anchors) and a drop badge's centre."""

    letter_at: tuple[int, int]
    id_at: tuple[int, int]
    value_at: tuple[int, int]
    drop_at: tuple[int, int]


def _letter_width(size: int) -> int:
    return max(round(d.text_width(style.letter, size, "bold")) for style in COMPANIES.values())


def conduit_slots(
    rect: tuple[int, int, int, int], production: int, basin: int | str, size: int
) -> Slots:
    """A one-line conduit: its owner's letter (once built), its id, then "value → basin" at the
    right; the id stays where it is when the conduit is built."""
    x0, y0, x1, y1 = rect
    cy = (y0 + y1) // 2
    value_x = x1 - BOX_PAD - d.value_width(production, basin, size)
    return Slots(
        (x0 + BOX_PAD, cy), (x0 + BOX_PAD + _letter_width(size) + 4, cy), (value_x, cy), (0, 0)
    )


def headstream_slots(rect: tuple[int, int, int, int], size: int) -> Slots:
    """A one-line headstream: its id, the drops its tile adds, its drops held at the right."""
    x0, y0, x1, y1 = rect
    cy = (y0 + y1) // 2
    id_w = round(d.text_width("HA", size, "bold"))
    return Slots((0, 0), (x0 + 8, cy), (x0 + 8 + id_w + 10, cy), (x1 - 23, y1 - 19))


@functools.lru_cache(maxsize=16)
def map_background(map_id: str, theme_name: str = "light") -> Image.Image:
    """Return the cached static background of ``map_id``; callers must ``copy()`` before drawing."""
    from bot.rules.content import (
        load_content,  # the engine's content; imported late, as it is large
    )

    return draw_map_background(
        load_content().maps[map_id], map_layout(map_id), get_theme(theme_name)
    )
