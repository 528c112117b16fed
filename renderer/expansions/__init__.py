"""Expansions' drawings: one drawing module per expansion, found through the catalogue.

The renderer never names an expansion: for a game it asks the catalogue which expansions the
game plays and imports each one's drawing module (`ExpansionInfo.drawing_module`, by default
`renderer.expansions.<name>`), whose `DRAWING` (a `renderer.expansions.drawing.Drawing`, typed)
names the parts it draws. Every part is optional:

| function | the renderer calls it |
|---|---|
| `draw_map(draw, state, theme, highlight)` | after the map view's pieces: the expansion's pieces on the map |
| `views`, `view_background(view, theme_name)` / `draw_view(view, state, theme, highlight, dirty)` | its own views ({key: title}): the static part of one / the view of a state (an RGB image, boxes drawn noted in `dirty`) |
| `scoreboard_columns()` | its own columns of the scoreboard: (heading, meaning, value(state, company)) |
| `key_entries(view)` / `legend_sections()` | its symbols in a view's compact key: (symbol, meaning) / its sections of the legend picture: (title, entries) |
| `view_layout(view)` | the board layout ("shared", "company") the view uses instead of the base one (a board extension below), or None |
| `shared_static(image, theme_name)` / `draw_shared(draw, state, theme, highlight)` | the static part of that shared-board extension / what changes on it |
| `company_static(image, company_id, theme_name)` / `company_key(state, company_id)` / `draw_company(draw, state, company, theme, lit)` | the static part of that company-board extension / what of the state it reads (cache key) / what changes on it |
| `company_lines(state, company)` | lines of a strip below a company board, titled with the display name: each line its forms from the longest to the shortest (the first that fits is drawn) |
| `describe_lines(state)` | lines of the text alternative (`renderer.describe`) |
| `feature_rows(features)`, `feature_title`, `course_key`, `bridge_slots` | the layout generator's rows of the map's own features (`renderer.layout.generate_features`) |
| `samples()`, `sample_backgrounds`, `sample_state()` | {file name: (state, view)} of sample pictures for the docs (`renderer.samples`), the static maps they show, a sample position for tests |

Content comes from the game's content (`renderer.content.content(state.options.expansions)`),
which holds every table of the expansions the game plays.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from bot.rules.catalogue import CATALOGUE, Catalogue
from renderer.expansions.drawing import Drawing
from renderer.layout import board_layout

T = TypeVar("T")

_CATALOGUE: list[Catalogue] = [CATALOGUE]


def catalogue() -> Catalogue:
    """The catalogue the renderer asks (the product's; tests may draw with their own)."""
    return _CATALOGUE[0]


def use_catalogue(catalogue: Catalogue) -> None:
    """Draw with this catalogue's expansions (a test's own expansion); `CATALOGUE` by default."""
    _CATALOGUE[0] = catalogue


class DrawingMissing(LookupError):
    """An expansion's drawing module cannot be imported, or hands no `Drawing`."""


def drawing(name: str) -> Drawing:
    """The drawing of one expansion (its drawing module's `DRAWING`)."""
    module = catalogue().info(name).drawing_module
    found = vars(importlib.import_module(module)).get("DRAWING")
    if not isinstance(found, Drawing):
        raise DrawingMissing(f"{module} defines no DRAWING (a renderer.expansions.drawing.Drawing)")
    return found


def named_drawings(expansions: Iterable[str]) -> tuple[tuple[str, Drawing], ...]:
    """(name, drawing) of a game's expansions, in hook order (unknown names skipped)."""
    asked, names = catalogue(), tuple(expansions)
    # A view asks a few hundred times per picture; a catalogue's expansions and their
    # drawing modules never change once read.
    kept = _NAMED.get((id(asked), names))
    if kept is not None and kept[0] is asked:
        return kept[1]
    known = [name for name in names if name in asked]
    found = tuple((name, drawing(name)) for name in asked.hook_order(known))
    if len(_NAMED) > 256:
        _NAMED.clear()
    _NAMED[(id(asked), names)] = (asked, found)
    return found


#: `named_drawings` by catalogue (its id, kept with it) and expansions asked for.
_NAMED: dict[tuple[int, tuple[str, ...]], tuple[Catalogue, tuple[tuple[str, Drawing], ...]]] = {}


def drawings(expansions: Iterable[str]) -> tuple[Drawing, ...]:
    """The drawings of a game's expansions, in hook order (unknown names skipped)."""
    return tuple(found for _name, found in named_drawings(expansions))


def asking(expansions: Iterable[str], part: Callable[[Drawing], T | None]) -> list[T]:
    """One part of each drawing that has it (`lambda drawing: drawing.draw_map`)."""
    found = (part(each) for each in drawings(expansions))
    return [f for f in found if f is not None]


def expansion_views(expansions: Iterable[str]) -> tuple[tuple[str, str, Drawing], ...]:
    """(key, title, drawing) of the views a game's expansions add, in hook order."""
    return tuple(
        (key, title, each) for each in drawings(expansions) for key, title in each.views.items()
    )


def extending(expansions: Iterable[str], view: str) -> tuple[str, ...]:
    """The game's expansions whose drawing extends a board view ("shared", "company")."""
    return tuple(name for name, each in named_drawings(expansions) if each.layout_of(view))


def view_layout(expansions: Iterable[str], view: str) -> str:
    """The board layout a view is drawn on: an expansion's extension of it, or the base one."""
    for each in drawings(expansions):
        name = each.layout_of(view)
        if name:
            return name
    return view


def view_height(view: str, options: Any) -> int:
    """The height of the "shared" or "company" view of a game with these options."""
    return board_layout(view_layout(options.expansions, view)).height


def display_name(name: str) -> str:
    """What players read for an expansion."""
    return catalogue().display_name(name)


def every_expansion() -> tuple[str, ...]:
    """Every expansion of the catalogue, in hook order."""
    return tuple(catalogue().expansions)
