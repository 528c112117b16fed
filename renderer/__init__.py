"""Board renderer: pure functions from a game state to PNG images and a text description.

render(state, *, view="map"|"shared"|"company"|"full"|an expansion's view, company=None,
       theme="light", highlight=(), preview=False) -> bytes
render_score_sheet(state, events, *, theme="light") -> bytes
render_legend(expansions=(), *, theme="light") -> bytes   the symbols of the pictures
views(options) -> the views of a game; view_titles(options) -> what each shows
describe(state) -> str
use_text_layout("basic")   Pillow's basic text layout for every picture (process-wide)
"""

from __future__ import annotations

from renderer.describe import describe
from renderer.render import (
    render,
    render_image,
    render_legend,
    render_score_sheet,
    use_text_layout,
    view_titles,
    views,
)
from renderer.words import highlight_ids

__all__ = [
    "describe",
    "highlight_ids",
    "render",
    "render_image",
    "render_legend",
    "render_score_sheet",
    "use_text_layout",
    "view_titles",
    "views",
]
