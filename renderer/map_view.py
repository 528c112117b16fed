"""The map view: the cached static map with the state's pieces, water and highlights on top."""

from __future__ import annotations

import functools
from collections.abc import Collection

from PIL import Image, ImageDraw

from bot.rules.content import ConduitSpace
from bot.rules.state import NEUTRAL, Dam, GameState
from renderer import draw as d
from renderer.background import (
    RED_OUTLINE_WIDTH,
    conduit_slots,
    headstream_slots,
    map_background,
    one_line,
)
from renderer.content import content
from renderer.expansions import asking
from renderer.layout import Rect, map_layout
from renderer.theme import Theme

ROUNDS = 5


def draw_map(
    state: GameState,
    theme: Theme,
    highlight: Collection[str] = (),
    dirty: list[Rect] | None = None,
    changed: Collection[str] = (),
) -> Image.Image:
    """Return the map view's body of ``state`` as a new RGB image (the header is apart);
    ``changed``: the spaces the last turn changed, ringed in their own colour."""
    map_id = state.options.map
    layout = map_layout(map_id)
    c = content(state.options.expansions)
    map_data = c.maps[map_id]
    image, draw = d.over(map_background(map_id, theme.name), dirty)
    for space_id, dam in state.dams.items():
        if space_id in layout.spaces:
            red = map_data.dam_spaces[space_id].red_outline
            _dam(draw, layout.spaces[space_id].rect, space_id, dam, red, theme)
    for space_id, owner in state.conduits.items():
        if space_id in layout.spaces:
            conduit = map_data.conduit_spaces[space_id]
            _conduit(draw, layout.spaces[space_id].rect, space_id, owner, conduit, theme)
    for space_id, owner in state.powerhouses.items():
        if space_id in layout.spaces:
            red = map_data.powerhouse_spaces[space_id].red_outline
            _powerhouse(draw, layout.spaces[space_id].rect, owner, red, theme)
    schedules = {tile.id: tile.drops_per_round for tile in c.headstream_tiles}
    for hs_id in map_data.headstreams:
        if hs_id in layout.spaces:
            tile = state.headstream_tiles.get(hs_id)
            _headstream(
                draw,
                layout.spaces[hs_id].rect,
                _headstream_label(tile, schedules, state.round),
                state.headstream_water.get(hs_id, 0),
                theme,
            )
    for draw_map in asking(state.options.expansions, lambda each: each.draw_map):
        draw_map(draw, state, theme, highlight)
    # Ringed in the preview's purple (every palette has it), apart from the legal choices.
    for space_id in sorted(set(changed) - set(highlight)):
        if space_id in layout.spaces:
            d.ring(
                draw, layout.spaces[space_id].rect, theme.colour("preview"), theme.colour("text")
            )
    for space_id in sorted(highlight):  # in a fixed order: overlapping rings, the same picture
        if space_id in layout.spaces:
            d.ring(
                draw, layout.spaces[space_id].rect, theme.colour("highlight"), theme.colour("text")
            )
    return image


def _headstream_label(tile: object, schedules: dict[int, tuple[int, ...]], round_no: int) -> str:
    """'+2': the drops a headstream tile adds this round; an expansion's token by its name."""
    if isinstance(tile, int):
        drops = schedules.get(tile, ())
        return f"+{drops[round_no - 1]}" if 0 < round_no <= len(drops) else "+0"
    return str(tile) if tile is not None else ""


def _owner_colours(owner: str, theme: Theme) -> tuple[str, str, str]:
    """Return (fill, outline, ink) of a structure's owner (neutral: grey)."""
    if owner == NEUTRAL:
        return theme.colour("neutral"), theme.colour("space outline"), "#1b1b1b"
    style = theme.company(owner)
    return style.fill, style.outline, style.ink


def _fill_space(
    draw: ImageDraw.ImageDraw, rect: Rect, fill: str, outline: str, red: bool, theme: Theme
) -> None:
    # The red outline stays visible on a built space: its extra cost is part of the map.
    if red:
        d.box(draw, rect, fill, theme.colour("red outline"), width=RED_OUTLINE_WIDTH)
        x0, y0, x1, y1 = rect
        inner = (
            x0 + RED_OUTLINE_WIDTH,
            y0 + RED_OUTLINE_WIDTH,
            x1 - RED_OUTLINE_WIDTH,
            y1 - RED_OUTLINE_WIDTH,
        )
        draw.rounded_rectangle(inner, radius=5, outline=outline, width=2)
    else:
        d.box(draw, rect, fill, outline, width=4)


def _dam(
    draw: ImageDraw.ImageDraw, rect: Rect, space_id: str, dam: Dam, red: bool, theme: Theme
) -> None:
    """A built dam: its owner's colour, the id, then the owner's piece, the level and drops."""
    sizes = theme.views["map"].text
    fill, outline, ink = _owner_colours(dam.owner, theme)
    x0, y0, x1, y1 = rect
    line = sizes["label"] + 8
    # The space and its id are one item: a red-outlined space's inner outline runs under it.
    key = ("dam", space_id, fill, outline, ink, red, theme.name, sizes["label"])
    paint = functools.partial(
        _dam_space, space_id=space_id, colours=(fill, outline, ink), red=red, theme=theme
    )
    d.item(draw, key, rect, paint)
    cy = (y0 + 4 + line + y1 - 4) // 2 + 1
    letter = theme.company(dam.owner).letter if dam.owner != NEUTRAL else ""
    d.text(draw, (x0 + 7, cy), letter, sizes["value"], ink, "bold", "lm", on=fill)
    d.level_bars(draw, (x0 + 36, cy + 17), dam.level, ink)
    if dam.water:
        d.drop(
            draw, (x1 - 23, cy + 4), 17, theme.colour("water"), dam.water, "#ffffff", sizes["small"]
        )


def _dam_space(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    *,
    space_id: str,
    colours: tuple[str, str, str],
    red: bool,
    theme: Theme,
) -> None:
    """A built dam's space in its owner's colours (``fill, outline, ink``), with its id."""
    fill, outline, ink = colours
    _fill_space(draw, rect, fill, outline, red, theme)
    x0, y0, x1, _y1 = rect
    size = theme.views["map"].text["label"]
    d.text(draw, ((x0 + x1) // 2, y0 + 4 + (size + 8) // 2), space_id, size, ink)


def _conduit(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    space_id: str,
    owner: str,
    conduit: ConduitSpace,
    theme: Theme,
) -> None:
    """A built conduit: its owner's colour, letter and the id, then value and destination
    (one item: the same wherever it is drawn)."""
    key = ("conduit", space_id, owner, conduit.production, conduit.to_basin, theme.name)
    paint = functools.partial(
        _conduit_space, space_id=space_id, owner=owner, conduit=conduit, theme=theme
    )
    d.item(draw, key, rect, paint)


def _conduit_space(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    *,
    space_id: str,
    owner: str,
    conduit: ConduitSpace,
    theme: Theme,
) -> None:
    """A built conduit's space (see `_conduit`)."""
    sizes = theme.views["map"].text
    fill, outline, ink = _owner_colours(owner, theme)
    _fill_space(draw, rect, fill, outline, False, theme)
    x0, y0, x1, _y1 = rect
    size = sizes["label"]
    line = size + 8
    letter = theme.company(owner).letter if owner != NEUTRAL else ""
    production, basin = conduit.production, conduit.to_basin
    if one_line(rect, size):
        slots = conduit_slots(rect, production, basin, size)
        d.text(draw, slots.letter_at, letter, size, ink, "bold", "lm")
        d.text(draw, slots.id_at, space_id, size, ink, "bold", "lm")
        d.conduit_value(draw, slots.value_at, production, basin, size, ink)
        return
    cy = y0 + 4 + line // 2
    d.text(draw, (x0 + 5, cy), letter, size, ink, "bold", "lm")
    d.text(draw, (x1 - 5, cy), space_id, size, ink, "bold", "rm")
    at = (x1 - 5 - d.value_width(production, basin, size), cy + line)
    d.conduit_value(draw, at, production, basin, size, ink)


def _powerhouse(draw: ImageDraw.ImageDraw, rect: Rect, owner: str, red: bool, theme: Theme) -> None:
    # A built powerhouse space is no longer selectable, so its id gives way to the owner's
    # piece (shape and letter): the box is too small for both at phone size.
    fill, outline, _ink = _owner_colours(owner, theme)
    _fill_space(draw, rect, fill, outline, red, theme)
    x0, y0, x1, y1 = rect
    d.piece(
        draw,
        ((x0 + x1) // 2, (y0 + y1) // 2),
        20,
        theme.company(owner),
        theme.views["map"].text["small"],
    )


def _headstream(
    draw: ImageDraw.ImageDraw, rect: Rect, label: str, water: int, theme: Theme
) -> None:
    sizes = theme.views["map"].text
    if one_line(rect, sizes["label"]):
        slots = headstream_slots(rect, sizes["label"])
        d.text(draw, slots.value_at, label, sizes["value"], theme.colour("text"), "regular", "lm")
        if water:
            d.drop(draw, slots.drop_at, 17, theme.colour("water"), water, "#ffffff", sizes["small"])
        return
    x0, y0, x1, _y1 = rect
    line = sizes["label"] + 8
    cy = y0 + 4 + line + line // 2 - 2
    d.text(draw, (x0 + 8, cy), label, sizes["value"], theme.colour("text"), "regular", "lm")
    if water:
        d.drop(draw, (x1 - 23, cy + 4), 17, theme.colour("water"), water, "#ffffff", sizes["small"])
