"""The toy expansion's drawing (tests only): its statues on the map, and in words."""

from __future__ import annotations

from collections.abc import Collection

from PIL import ImageDraw

from bot.rules.content import company_name
from bot.rules.state import GameState
from renderer.expansions.drawing import Drawing
from renderer.layout import map_layout
from renderer.theme import Theme

STATUE = 14  # half the side of a statue's square, in pixels


def draw_map(
    draw: ImageDraw.ImageDraw, state: GameState, theme: Theme, highlight: Collection[str]
) -> None:
    """A square in its owner's colour on the number badge of each basin holding a statue."""
    basins = map_layout(state.options.map).basins
    for space, owner in sorted(state.extra.get("statues", {}).items()):
        x0, y0, x1, y1 = basins[int(space.removeprefix("S"))].badge
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        style = theme.company(owner)
        draw.rectangle(
            (cx - STATUE, cy - STATUE, cx + STATUE, cy + STATUE),
            fill=style.fill,
            outline=style.outline,
        )


def describe_lines(state: GameState) -> list[str]:
    """The statues in words, for the text alternative."""
    statues = state.extra.get("statues", {})
    if not statues:
        return []
    poses = state.extra.get("statue_poses", {})
    listed = ", ".join(
        f"{space} {company_name(owner)} ({poses.get(space, 'no pose yet')})"
        for space, owner in sorted(statues.items())
    )
    return [f"Statues: {listed}."]


#: What the renderer draws of the toy (`renderer.expansions.drawing`).
DRAWING = Drawing(draw_map=draw_map, describe_lines=describe_lines)
