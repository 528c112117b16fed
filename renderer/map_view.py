"""The map view: the cached static map with the state's pieces, water and highlights on top."""

from __future__ import annotations

from collections.abc import Collection

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.state import NEUTRAL, GameState
from renderer import draw as d
from renderer.background import RED_OUTLINE_WIDTH, map_background
from renderer.content import content
from renderer.expansions import asking
from renderer.layout import Rect, map_layout
from renderer.theme import Theme
from renderer.words import phase_text

ROUNDS = 5


def draw_map(
    state: GameState, theme: Theme, highlight: Collection[str] = (), dirty: list[Rect] | None = None
) -> Image.Image:
    """Return the map view of ``state`` as a new RGB image."""
    map_id = state.options.map
    layout = map_layout(map_id)
    map_data = content().maps[map_id]
    image = map_background(map_id, theme.name).copy()
    draw = d.canvas(image, dirty)
    sizes = theme.views["map"].text

    d.text(
        draw,
        (layout.width - 18, 14),
        status_line(state),
        sizes["value"],
        theme.colour("text"),
        anchor="ra",
    )
    for space_id, dam in state.dams.items():
        if space_id in layout.spaces:
            red = map_data.dam_spaces[space_id].red_outline
            _dam(
                draw,
                layout.spaces[space_id].rect,
                space_id,
                dam.owner,
                dam.level,
                dam.water,
                red,
                theme,
            )
    for space_id, owner in state.conduits.items():
        if space_id in layout.spaces:
            production = map_data.conduit_spaces[space_id].production
            _conduit(draw, layout.spaces[space_id].rect, space_id, owner, production, theme)
    for space_id, owner in state.powerhouses.items():
        if space_id in layout.spaces:
            red = map_data.powerhouse_spaces[space_id].red_outline
            _powerhouse(draw, layout.spaces[space_id].rect, owner, red, theme)
    for hs_id in map_data.headstreams:
        if hs_id in layout.spaces:
            _headstream(
                draw,
                layout.spaces[hs_id].rect,
                state.headstream_tiles.get(hs_id),
                state.headstream_water.get(hs_id, 0),
                theme,
            )
    for draw_map in asking(state.options.expansions, "draw_map"):
        draw_map(draw, state, theme, highlight)
    for space_id in highlight:
        if space_id in layout.spaces:
            d.ring(
                draw, layout.spaces[space_id].rect, theme.colour("highlight"), theme.colour("text")
            )
    return image


def status_line(state: GameState) -> str:
    """Return "Round 3/5 · actions · USA to play" for the corner of a view."""
    if state.finished:
        return "Game over"
    parts = [f"Round {state.round}/{ROUNDS}", phase_text(state.phase)]
    if state.current and state.phase == "actions":
        parts.append(f"{company_name(state.current)} to play")
    return " · ".join(parts)


def _owner_colours(owner: str, theme: Theme) -> tuple[str, str, str, str]:
    """Return (fill, outline, ink, letter) for a structure's owner; neutral has no letter."""
    if owner == NEUTRAL:
        return theme.colour("neutral"), theme.colour("space outline"), "#1b1b1b", ""
    style = theme.company(owner)
    return style.fill, style.outline, style.ink, style.letter


def _fill_space(
    draw: ImageDraw.ImageDraw, rect: Rect, fill: str, outline: str, red: bool, theme: Theme
) -> None:
    # The red outline stays visible on a built space: its extra cost is part of the map.
    if red:
        d.box(draw, rect, fill, theme.colour("red outline"), width=RED_OUTLINE_WIDTH)
    else:
        d.box(draw, rect, fill, outline, width=3)


def _dam(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    space_id: str,
    owner: str,
    level: int,
    water: int,
    red: bool,
    theme: Theme,
) -> None:
    sizes = theme.views["map"].text
    fill, outline, ink, letter = _owner_colours(owner, theme)
    _fill_space(draw, rect, fill, outline, red, theme)
    x0, y0, x1, y1 = rect
    line = sizes["label"] + 8
    d.text(draw, ((x0 + x1) // 2, y0 + 4 + line // 2), space_id, sizes["label"], ink)
    cy = (y0 + 4 + line + y1 - 4) // 2 + 2
    if letter:
        d.text(draw, (x0 + 17, cy), letter, sizes["value"], ink)
    # The level as stacked blocks, filled up to the dam's level: a dam grows by Elevations.
    bx = x0 + 30
    for i in range(3):
        top = cy + 9 - i * 12
        block = (bx, top, bx + 14, top + 9)
        if i < level:
            draw.rectangle(block, fill=ink)
        else:
            draw.rectangle(block, outline=ink, width=2)
    if water:
        d.drop(draw, (x1 - 21, cy + 5), 15, theme.colour("water"), water, "#ffffff", sizes["small"])


def _conduit(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    space_id: str,
    owner: str,
    production: int,
    theme: Theme,
) -> None:
    sizes = theme.views["map"].text
    fill, outline, ink, letter = _owner_colours(owner, theme)
    _fill_space(draw, rect, fill, outline, False, theme)
    x0, y0, x1, _y1 = rect
    line = sizes["label"] + 8
    d.text(draw, ((x0 + x1) // 2, y0 + 4 + line // 2), space_id, sizes["label"], ink)
    cy = y0 + 4 + line + line // 2
    d.text(draw, (x0 + 20, cy), letter, sizes["value"], ink)
    d.text(draw, (x1 - 24, cy), str(production), sizes["value"], ink, "regular")


def _powerhouse(draw: ImageDraw.ImageDraw, rect: Rect, owner: str, red: bool, theme: Theme) -> None:
    # A built powerhouse space is no longer selectable, so its id gives way to the owner's
    # letter: the box is too small for both at phone size.
    sizes = theme.views["map"].text
    fill, outline, ink, letter = _owner_colours(owner, theme)
    _fill_space(draw, rect, fill, outline, red, theme)
    x0, y0, x1, y1 = rect
    d.text(draw, ((x0 + x1) // 2, (y0 + y1) // 2), letter, sizes["value"], ink)


def _headstream(
    draw: ImageDraw.ImageDraw, rect: Rect, tile: int | None, water: int, theme: Theme
) -> None:
    sizes = theme.views["map"].text
    x0, y0, x1, _y1 = rect
    line = sizes["label"] + 8
    cy = y0 + 4 + line + line // 2 - 2
    if tile is not None:
        # Base tiles are numbers (T3); an expansion's river source tokens are named (RS3).
        label = f"T{tile}" if isinstance(tile, int) else str(tile)
        d.text(draw, (x0 + 10, cy), label, sizes["small"], theme.colour("text"), "regular", "lm")
    if water:
        d.drop(draw, (x1 - 24, cy + 5), 15, theme.colour("water"), water, "#ffffff", sizes["small"])
