"""The seam between the renderer and one expansion's drawing module: a typed `Drawing`.

Each drawing module ends with `DRAWING = Drawing(...)`, naming the parts it draws; every part
is optional (None, or empty, when the expansion has nothing there). mypy checks each part
against the type below where the module builds its `DRAWING`, and the renderer calls the parts
as attributes, never looking a function up by its name. See `renderer.expansions` for when
each part is called.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from PIL import Image, ImageDraw

from bot.rules.state import Company, GameState
from renderer.layout import Rect
from renderer.theme import Theme

#: (symbol, meaning) of a view's compact key.
KeyEntries = tuple[tuple[str, str], ...]
#: (title, entries) of the legend picture's sections.
LegendSections = tuple[tuple[str, KeyEntries], ...]
#: (heading, meaning, value(state, company)) of the scoreboard's own columns.
ScoreboardColumns = tuple[tuple[str, str, Any], ...]

DrawOn = Callable[[ImageDraw.ImageDraw, GameState, Theme, Collection[str]], None]
ViewBackground = Callable[[str, str], Image.Image]
CompanyStatic = Callable[[Image.Image, str, str], Image.Image]
DrawCompany = Callable[[ImageDraw.ImageDraw, GameState, Company, Theme, Collection[str]], None]
FeatureRows = Callable[[Any, int, int], list[list[tuple[str, str, int]]]]


class DrawView(Protocol):
    """Draws one of the expansion's own views of a state (an RGB image; boxes drawn noted in
    `dirty`)."""

    def __call__(
        self,
        view: str,
        state: GameState,
        theme: Theme,
        highlight: Collection[str] = (),
        dirty: list[Rect] | None = None,
    ) -> Image.Image: ...


class SteadyView(Protocol):
    """Draws (as `DrawView`) only what one of the expansion's views of a state shows the same
    all game."""

    def __call__(
        self, view: str, state: GameState, theme: Theme, dirty: list[Rect] | None = None
    ) -> Image.Image: ...


def _nothing() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True, kw_only=True)
class Drawing:
    """What one expansion draws, handed to the renderer as its module's `DRAWING`.

    `views` are its own views ({key: title}), drawn by `view_background` (the static part) and
    `draw_view` (the view of a state); `view_layout` names the board layout a base view uses
    instead (a board extension, drawn by `shared_static`/`draw_shared` or
    `company_static`/`draw_company`, with `company_key` what of the state the latter reads).
    `steady_view` draws what one of its views of a state shows the same all game, and
    `steady_key` says what of the state that reads (`render._overlaid`: pictures of the view
    splice in what they share with it).
    `feature_rows`, `feature_title`, `course_key` and `bridge_slots` feed the layout generator
    (`renderer.layout.generate_features`); `samples` and `sample_state` the docs and tests.
    """

    draw_map: DrawOn | None = None
    views: Mapping[str, str] = field(default_factory=_nothing)
    view_background: ViewBackground | None = None
    draw_view: DrawView | None = None
    steady_view: SteadyView | None = None
    steady_key: Callable[[str, GameState], tuple[object, ...]] | None = None
    scoreboard_columns: Callable[[], ScoreboardColumns] | None = None
    key_entries: Callable[[str], KeyEntries] | None = None
    legend_sections: Callable[[], LegendSections] | None = None
    view_layout: Callable[[str], str | None] | None = None
    shared_static: Callable[[Image.Image, str], Image.Image] | None = None
    draw_shared: DrawOn | None = None
    company_static: CompanyStatic | None = None
    company_key: Callable[[GameState, str], tuple[object, ...]] | None = None
    draw_company: DrawCompany | None = None
    company_lines: Callable[[GameState, Company], list[tuple[str, ...]]] | None = None
    describe_lines: Callable[[GameState], list[str]] | None = None
    feature_rows: FeatureRows | None = None
    feature_title: str = ""
    course_key: str = ""
    bridge_slots: bool = False
    samples: Callable[[], dict[str, tuple[GameState, str]]] | None = None
    sample_backgrounds: tuple[str, ...] = ()
    sample_state: Callable[[], GameState] | None = None

    def __post_init__(self) -> None:
        if self.views and (self.view_background is None or self.draw_view is None):
            raise TypeError("a drawing with its own views needs view_background and draw_view")

    def background(self, view: str, theme_name: str) -> Image.Image:
        """The static part of one of its own views."""
        if self.view_background is None:
            raise ValueError(f"this drawing has no view {view!r}")
        return self.view_background(view, theme_name)

    def view_drawer(self, view: str) -> DrawView:
        """What draws one of its own views of a state."""
        if self.draw_view is None:
            raise ValueError(f"this drawing has no view {view!r}")
        return self.draw_view

    def layout_of(self, view: str) -> str | None:
        """The board layout this drawing uses for a base view, or None (the base one)."""
        return None if self.view_layout is None else self.view_layout(view)
