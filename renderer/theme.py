"""Themes as data: colours keyed by role, company styles, and text sizes per view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, TypeVar

Shape = Literal["circle", "square", "triangle", "diamond", "hexagon"]

# A partial view is shown about 390 points wide on a phone: a capital of its smallest text is
# at least width / PHONE_CAPITAL_RATIO pixels tall, one of the scoreboard and the turn line at
# least width / BOARD_CAPITAL_RATIO (about 8 and 13 points on the phone).
PHONE_CAPITAL_RATIO = 50
BOARD_CAPITAL_RATIO = 30

PARTIAL_VIEWS = ("map", "shared", "company")
ALL_VIEWS = (*PARTIAL_VIEWS, "full")


@dataclass(frozen=True, slots=True)
class CompanyStyle:
    """How one company's pieces look: colour paired with a letter and a shape."""

    company: str
    fill: str
    outline: str  # contrasts with fill, so white and black pieces stand out on any ground
    letter: str
    ink: str  # colour of the letter printed on the piece
    shape: Shape


@dataclass(frozen=True, slots=True)
class ViewStyle:
    """Canvas width of one view and its text sizes in pixels, keyed by role."""

    width: int
    text: Mapping[str, int]
    partial: bool

    def min_text(self) -> int:
        """Return the smallest text size this view uses."""
        return min(self.text.values())


@dataclass(frozen=True, slots=True)
class Theme:
    """A complete look: role colours, company styles and view sizes."""

    name: str
    colours: Mapping[str, str]
    companies: Mapping[str, CompanyStyle]
    views: Mapping[str, ViewStyle]

    def colour(self, role: str) -> str:
        """Return the colour of ``role`` (a KeyError names a role the theme lacks)."""
        return self.colours[role]

    def company(self, company_id: str) -> CompanyStyle:
        """Return the style of ``company_id``."""
        return self.companies[company_id]


#: The values of a frozen mapping.
V = TypeVar("V")


def _frozen(mapping: Mapping[str, V]) -> Mapping[str, V]:
    return MappingProxyType(dict(mapping))


# Company colours are the reference data's display colours. Letters and shapes differ per
# company so that players who cannot tell the colours apart can still tell the pieces apart.
COMPANIES: Mapping[str, CompanyStyle] = _frozen(
    {
        "usa": CompanyStyle("usa", "#be2748", "#ffffff", "U", "#ffffff", "circle"),
        "germany": CompanyStyle("germany", "#1b1b1b", "#f2f2f2", "G", "#ffffff", "square"),
        "italy": CompanyStyle("italy", "#13757e", "#ffffff", "I", "#ffffff", "triangle"),
        "france": CompanyStyle("france", "#ffffff", "#1b1b1b", "F", "#1b1b1b", "diamond"),
        "netherlands": CompanyStyle("netherlands", "#ea4e1b", "#1b1b1b", "N", "#1b1b1b", "hexagon"),
    }
)


# The colour-blind theme's company colours: every pair at least 20 apart (CIEDE2000) under
# normal vision and simulated protanopia, deuteranopia and tritanopia, each one at least 12
# from the background or, for white France, set off by its dark outline
# (tests/renderer/test_colour_vision.py; bench/colours.py prints the figures).
COLOUR_BLIND_COMPANIES: Mapping[str, CompanyStyle] = _frozen(
    {
        "usa": CompanyStyle("usa", "#c42a1a", "#ffffff", "U", "#ffffff", "circle"),
        "germany": CompanyStyle("germany", "#1b1b1b", "#f2f2f2", "G", "#ffffff", "square"),
        "italy": CompanyStyle("italy", "#005caa", "#ffffff", "I", "#ffffff", "triangle"),
        "france": CompanyStyle("france", "#ffffff", "#1b1b1b", "F", "#1b1b1b", "diamond"),
        "netherlands": CompanyStyle("netherlands", "#ffb400", "#1b1b1b", "N", "#1b1b1b", "hexagon"),
    }
)


def _sizes(
    small: int, label: int, value: int, heading: int, title: int, board: int
) -> dict[str, int]:
    return {
        "small": small,
        "label": label,
        "value": value,
        "heading": heading,
        "title": title,
        "board": board,
    }


# Text roles: "small" is the least legible text a view may use, "label" names spaces, "value"
# prints numbers on spaces, "heading" names sections, "title" names the view, and "board" is
# the scoreboard's and the turn line's (what a player reads first). On a partial view a
# capital of the smallest text is at least width / PHONE_CAPITAL_RATIO pixels tall and one
# of "board" text at least width / BOARD_CAPITAL_RATIO (tests measure the glyphs drawn);
# DejaVu Sans's capitals are 0.73 of the size.
VIEWS: Mapping[str, ViewStyle] = _frozen(
    {
        "map": ViewStyle(1200, _frozen(_sizes(34, 34, 36, 38, 44, 56)), partial=True),
        "shared": ViewStyle(1200, _frozen(_sizes(34, 34, 36, 38, 44, 56)), partial=True),
        "company": ViewStyle(1000, _frozen(_sizes(28, 28, 30, 32, 38, 46)), partial=True),
        # The full board is meant to be zoomed into (its caption says so), so it may use
        # text below the phone rule.
        "full": ViewStyle(2400, _frozen(_sizes(30, 30, 32, 36, 44, 56)), partial=False),
    }
)

# Roles shared by both themes; only the colours differ.
_LIGHT: dict[str, str] = {
    "background": "#f4f1e8",
    "panel": "#ffffff",
    "panel outline": "#8a8577",
    "text": "#1b1b1b",
    "text muted": "#55524a",
    "mountain": "#c9c2b8",
    "hill": "#cfdcb0",
    "plain": "#e6e0b8",
    "band text": "#4a463e",
    "basin": "#fbfaf5",
    "basin outline": "#6f6a5e",
    "river": "#2f7fd0",
    "conduit path": "#8f897c",
    "space": "#ffffff",
    "space outline": "#3a372f",
    "red outline": "#d01c1c",
    "neutral": "#8c8c8c",
    "water": "#1f6fd1",
    "headstream": "#d7ebfa",
    "exit": "#9fc3e6",
    "course": "#9fd8cf",
    "site": "#dccba8",
    "highlight": "#ffcc00",
    "production": "#1b1b1b",
    "space text": "#1b1b1b",
    "contract green": "#2e8b3e",
    "contract yellow": "#d9a800",
    "contract red": "#c8372d",
    "contract national": "#4a6fa5",
    "track": "#e9e4d4",
    "track mark": "#6f6a5e",
    "unused": "#e4e0d4",
    "active": "#2f9e44",
    "preview": "#7b3fb5",
}

_DARK: dict[str, str] = {
    "background": "#23262b",
    "panel": "#2f333a",
    "panel outline": "#8e949e",
    "text": "#f2f2f2",
    "text muted": "#b9bdc4",
    "mountain": "#5b5650",
    "hill": "#4d5d3d",
    "plain": "#6a6242",
    "band text": "#e4e0d6",
    "basin": "#393d44",
    "basin outline": "#a9a397",
    "river": "#58a6f0",
    "conduit path": "#b8b2a4",
    "space": "#e9e7e1",
    "space outline": "#101010",
    "red outline": "#ff4a4a",
    "neutral": "#9a9a9a",
    "water": "#4aa3ff",
    "headstream": "#2b4a66",
    "exit": "#35597d",
    "course": "#2f6f66",
    "site": "#6b5d45",
    "highlight": "#ffd21a",
    "production": "#1b1b1b",
    "space text": "#1b1b1b",
    "contract green": "#3fae52",
    "contract yellow": "#e8bd1c",
    "contract red": "#e0554a",
    "contract national": "#6f95cf",
    "track": "#3d424a",
    "track mark": "#a9a397",
    "unused": "#2a2d32",
    "active": "#51cf66",
    "preview": "#9a5fd6",
}

THEMES: Mapping[str, Theme] = _frozen(
    {
        "light": Theme("light", _frozen(_LIGHT), COMPANIES, VIEWS),
        "dark": Theme("dark", _frozen(_DARK), COMPANIES, VIEWS),
        # The light theme's grounds with company colours told apart by every colour vision.
        "colourblind": Theme("colourblind", _frozen(_LIGHT), COLOUR_BLIND_COMPANIES, VIEWS),
    }
)
#: What players call each theme (settings and the console's --theme).
THEME_TITLES: Mapping[str, str] = _frozen(
    {"light": "light", "dark": "dark", "colourblind": "colour-blind"}
)

DEFAULT_THEME = "light"


def get_theme(name: str = DEFAULT_THEME) -> Theme:
    """Return the theme called ``name`` ("light", "dark" or "colourblind")."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; expected one of {sorted(THEMES)}") from None
