"""What the pictures' symbols and short forms mean: a compact key under the map and shared
views, and the whole legend as a picture (`/barrage help symbols`).

An entry is a symbol (drawn as in the views: a red outline, a drop, a dam's level, a piece...)
and what it means. Each expansion's drawing module adds its own (`key_entries(view)`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer import draw as d
from renderer.expansions import asking, expansion_views
from renderer.header import BASE_COLUMNS, TAIL_COLUMNS
from renderer.theme import Theme, get_theme

#: The base game's views that carry a compact key under them (an expansion's own views carry
#: theirs: `keyed`).
KEYED_VIEWS = ("map", "shared", "company")
SYMBOL_W, SYMBOL_H = 56, 36
MARGIN = 12
ENTRY_GAP = 14


@dataclass(frozen=True, slots=True)
class Entry:
    """One symbol and its meaning. `symbol` is a drawing's name (`SYMBOLS`) or text."""

    symbol: str
    meaning: str


MAP_KEY = (
    Entry("red", "+3 credits"),
    Entry("level", "dam level"),
    Entry("drop", "drops held"),
    Entry("neutral", "neutral dam"),
    Entry("5→8", "conduit value → basin"),
    Entry("+2", "drops in this round"),
    Entry("piece", "company"),
    Entry("changed", "changed by the last turn"),
)
SHARED_SYMBOLS = (
    Entry("pips", "engineers"),
    Entry("red", "+3 credits"),
    Entry("unused", "not in play"),
    Entry("marker", "energy marker"),
    Entry("M/H/P", "areas"),
)
SHARED_KEY = (
    *SHARED_SYMBOLS,
    Entry("rot2", "rotate 2"),
    Entry("2mach", "2 machineries"),
    Entry("2flow", "drops flowing"),
    Entry("2drop", "drops later"),
)
#: The energy track's notation (the legend picture).
ENERGY_KEY = (
    Entry("R3 · 18+⚡", "round 3's bonus tile: full reward from 18 energy"),
    Entry("highlight", "this round's section of the track"),
    Entry("4 (12−8)", "bonus now: 4 VP, the full 12 less 4 VP per section behind"),
    Entry("–", "bonus now: nothing (under 6 energy)"),
    Entry("1st +6", "most energy this round: +6 VP (second +2 VP)"),
    Entry("4c", "credits at the end of the round for a marker in that band"),
    Entry("0⚡", "no energy: +3 credits but −3 VP"),
    Entry("marker", "a company's energy this round"),
)
#: Short forms in contracts, incomes, works and tiles (the legend picture).
REWARD_KEY = (
    Entry("5VP 2c", "5 victory points, 2 credits"),
    Entry("1exc 1mix", "1 excavator, 1 mixer"),
    Entry("2mach", "2 machineries of your choice"),
    Entry("+4⚡", "4 energy on the track"),
    Entry("rot2", "rotate your construction wheel 2 segments"),
    Entry("2flow", "2 drops on headstreams, flowing at once"),
    Entry("2drop", "2 drops on headstreams, flowing in the water phase"),
    Entry("Base M/H", "a free Base in the mountains or hills (P: plains)"),
    Entry("Elev.", "a free Elevation"),
    Entry("P.house", "a free Powerhouse"),
    Entry("Conduit≤2", "a free Conduit of value 2 at most"),
    Entry("contract≤4⚡", "fulfil a contract of at most 4 energy"),
    Entry("210 · 4⚡", "contract 210: produce 4 energy to fulfil it"),
    Entry("PH II", "an advanced tile (PH Powerhouse, Elev., Bldg. Building, Cond. Conduit)"),
)
#: The scoreboard's headings in a compact key (the legend picture says them in full).
SCOREBOARD_SHORT = (
    Entry("c", "credits"),
    Entry("exc", "excavators"),
    Entry("mix", "mixers"),
    Entry("⚡", "energy"),
    Entry("eng", "engineers"),
    Entry("✓", "contracts"),
)
SCOREBOARD_KEY = tuple(Entry(c.heading, c.meaning) for c in (*BASE_COLUMNS, *TAIL_COLUMNS))
#: A company board's symbols in its compact key.
COMPANY_VIEW_KEY = (
    Entry("+2", "back in 2 turns"),
    Entry("✓", "built"),
    Entry("income", "when built"),
    Entry("A2", "automa, level 2"),
)
COMPANY_KEY = (
    Entry("+2", "wheel segment: back after 2 more turns"),
    Entry("income", "what a built piece uncovers (green: yours each round)"),
    Entry("✓", "a piece built (it is on the map)"),
    Entry("3 left", "pieces of that kind still to build"),
)


def key_entries(view: str, expansions: Sequence[str]) -> tuple[Entry, ...]:
    """The compact key of a view: its own symbols, then each expansion's for it (the full
    view's: its parts' entries, each once)."""
    if view == "full":
        parts = ("map", "shared", "company", *(key for key, _t, _d in expansion_views(expansions)))
        return tuple(dict.fromkeys(e for part in parts for e in key_entries(part, expansions)))
    columns = _expansion_columns(expansions)
    base = {
        "map": MAP_KEY,
        "shared": (*SCOREBOARD_SHORT, *columns, *SHARED_KEY),
        # One line: a company board is the tallest view (the shared key says the
        # scoreboard's headings, the legend the rest).
        "company": COMPANY_VIEW_KEY,
    }.get(view, ())
    extra = tuple(
        Entry(symbol, meaning)
        for entries in asking(expansions, lambda each: each.key_entries)
        for symbol, meaning in entries(view)
    )
    return (*base, *extra)


def keyed(view: str, expansions: Sequence[str]) -> bool:
    """Whether a view carries a compact key (every view with symbols does)."""
    return bool(key_entries(view, expansions))


def _symbol_width(entry: Entry, size: int) -> int:
    """A drawn symbol's width, or its text's."""
    if entry.symbol == "marker":
        return 48 + int(d.text_width("7", size, "bold")) + 8
    if entry.symbol in SYMBOLS:
        return SYMBOL_W
    return max(int(d.text_width(entry.symbol, size, "bold")), 24)


def _entry_width(entry: Entry, size: int) -> int:
    return _symbol_width(entry, size) + 10 + int(d.text_width(entry.meaning, size)) + ENTRY_GAP


def _flow(entries: Sequence[Entry], width: int, size: int) -> list[list[Entry]]:
    """Entries in lines no wider than ``width``: each in the first line with room for it (a
    compact key takes few lines; entries stay in their order within a line)."""
    lines: list[list[Entry]] = []
    used: list[int] = []
    for entry in entries:
        w = _entry_width(entry, size)
        line = next((i for i, u in enumerate(used) if u + w <= width), None)
        if line is None:
            lines.append([])
            used.append(0)
            line = len(lines) - 1
        lines[line].append(entry)
        used[line] += w
    return lines


def _line_h(size: int) -> int:
    return max(SYMBOL_H, size) + 10


def key_height(view: str, expansions: tuple[str, ...], theme_name: str, width: int = 0) -> int:
    """The height of a view's key strip (``width``: the full view's, which depends on its map)."""
    return key_strip(view, expansions, theme_name, width).height


@functools.lru_cache(maxsize=32)
def key_strip(
    view: str, expansions: tuple[str, ...], theme_name: str, width: int = 0
) -> Image.Image:
    """The compact key under a view (static: drawn once per view, expansions, theme and width;
    ``width`` 0: its view's own)."""
    theme = get_theme(theme_name)
    # The full view's text sizes are its own; the others' are the map's or the company's.
    style = theme.views[view if view in ("company", "full") else "map"]
    width = width or style.width
    size = style.text["small"]
    entries = key_entries(view, expansions)
    lines = _flow(entries, width - 2 * MARGIN - 24, size)
    height = 2 * MARGIN + len(lines) * _line_h(size) + 8
    image = Image.new("RGB", (width, height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    d.box(
        draw,
        (MARGIN, 4, width - MARGIN, height - MARGIN + 4),
        theme.colour("panel"),
        theme.colour("panel outline"),
    )
    y = MARGIN + 6
    for line in lines:
        x = MARGIN + 12
        cy = y + _line_h(size) // 2
        for entry in line:
            _symbol(draw, entry.symbol, (x, cy - SYMBOL_H // 2), theme, size)
            d.text(
                draw,
                (x + _symbol_width(entry, size) + 10, cy),
                entry.meaning,
                size,
                theme.colour("text"),
                "regular",
                "lm",
            )
            x += _entry_width(entry, size)
        y += _line_h(size)
    return image


def _symbol(
    draw: ImageDraw.ImageDraw, symbol: str, at: tuple[int, int], theme: Theme, size: int
) -> None:
    """Draw one symbol in its SYMBOL_W x SYMBOL_H box at ``at`` (text is drawn bold)."""
    x, y = at
    box = (x, y, x + SYMBOL_W, y + SYMBOL_H)
    _cx, cy = x + SYMBOL_W // 2, y + SYMBOL_H // 2
    drawing = SYMBOLS.get(symbol)
    if drawing is not None:
        drawing(draw, box, theme, size)
        return
    d.text(draw, (x, cy), symbol, size, theme.colour("text"), anchor="lm")


def _red(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    d.box(draw, box, theme.colour("space"), theme.colour("red outline"), width=5)


def _unused(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    d.box(draw, box, theme.colour("unused"), theme.colour("panel outline"), width=2)


def _neutral(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    d.box(draw, box, theme.colour("neutral"), theme.colour("space outline"), width=3)


def _drop(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    x0, y0, x1, y1 = box
    # As on the map: the number at the view's smallest text size.
    d.drop(
        draw, ((x0 + x1) // 2, (y0 + y1) // 2 + 4), 17, theme.colour("water"), 2, "#ffffff", size
    )


def _level(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    x0, _y0, _x1, y1 = box
    d.level_bars(draw, (x0 + 10, y1 - 2), 2, theme.colour("text"), 3)


def _pips(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    x0, y0, _x1, y1 = box
    for i in range(2):
        px = x0 + 14 + i * 18
        draw.ellipse(
            (px - 7, (y0 + y1) // 2 - 7, px + 7, (y0 + y1) // 2 + 7), fill=theme.colour("text")
        )


def _piece(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    x0, y0, x1, y1 = box
    d.piece(draw, ((x0 + x1) // 2, (y0 + y1) // 2), 20, theme.company("france"), size)


def _marker(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    x0, y0, _x1, y1 = box
    d.marker(draw, (x0 + 22, (y0 + y1) // 2), theme.company("usa"), 7, size, theme.colour("text"))


def _highlight(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    d.box(draw, box, theme.colour("highlight"), theme.colour("text"), width=2)


def _changed(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    x0, y0, x1, y1 = box
    d.ring(draw, (x0 + 8, y0 + 8, x1 - 8, y1 - 8), theme.colour("preview"), theme.colour("text"), 5)


def _course(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, size: int
) -> None:
    x0, y0, x1, y1 = box
    draw.line((x0 + 4, y1 - 6, x1 - 4, y0 + 6), fill=theme.colour("course"), width=14)


SYMBOLS: dict[str, Callable[[ImageDraw.ImageDraw, tuple[int, int, int, int], Theme, int], None]] = {
    "red": _red,
    "unused": _unused,
    "neutral": _neutral,
    "drop": _drop,
    "level": _level,
    "pips": _pips,
    "piece": _piece,
    "marker": _marker,
    "highlight": _highlight,
    "changed": _changed,
    "course": _course,
}


# -- the legend picture (/barrage help symbols) -------------------------------------------


LEGEND_SECTIONS = (
    (
        "Top of every picture: the scoreboard",
        (
            *SCOREBOARD_KEY,
            Entry("▶", "acts now"),
            Entry("A2", "an automa plays it, at level 2 (A0 easy to A3 expert)"),
            Entry("AI2", "an AI player plays it, at level 2 (strong; AI1: casual)"),
        ),
    ),
    ("The map", MAP_KEY),
    ("The energy track (shared boards)", ENERGY_KEY),
    ("The shared boards", SHARED_SYMBOLS),
    ("Short forms: contracts, incomes, works, tiles", REWARD_KEY),
    ("A company board", COMPANY_KEY),
)


def _expansion_columns(expansions: Sequence[str]) -> tuple[Entry, ...]:
    """The scoreboard columns the expansions add, as key entries."""
    return tuple(
        Entry(heading, meaning)
        for columns in asking(expansions, lambda each: each.scoreboard_columns)
        for heading, meaning, _value in columns()
    )


def legend_sections(expansions: Sequence[str]) -> list[tuple[str, tuple[Entry, ...]]]:
    """The legend's sections: the base game's (the scoreboard with the expansions' columns),
    then each expansion's."""
    (title, board), *rest = LEGEND_SECTIONS
    out = [(title, (*board, *_expansion_columns(expansions))), *rest]
    for sections in asking(expansions, lambda each: each.legend_sections):
        out += [(title, tuple(Entry(s, m) for s, m in entries)) for title, entries in sections()]
    return out


def _entry_lines(entry: Entry, size: int, column: int) -> tuple[str, ...]:
    """An entry's meaning in lines that fit beside its symbol in a column."""
    return d.wrap(entry.meaning, size, column - _symbol_width(entry, size) - 10)


def draw_legend(expansions: Sequence[str], theme_name: str = "light") -> Image.Image:
    """The whole legend: every symbol and short form of the pictures, section by section,
    two entries a row (a meaning wraps under itself; nothing is cut)."""
    theme = get_theme(theme_name)
    style = theme.views["map"]
    size, heading = style.text["small"], style.text["heading"]
    sections = legend_sections(expansions)
    column = (style.width - 2 * MARGIN - 36) // 2
    step = size + 10

    def rows(entries: tuple[Entry, ...]) -> list[tuple[Entry, ...]]:
        return [entries[i : i + 2] for i in range(0, len(entries), 2)]

    def row_height(row: tuple[Entry, ...]) -> int:
        lines = max(len(_entry_lines(e, size, column)) for e in row)
        return max(_line_h(size), lines * step + 10)

    height = MARGIN + style.text["title"] + 24
    for _title, entries in sections:
        height += heading + 20 + sum(row_height(r) for r in rows(entries)) + 16
    image = Image.new("RGB", (style.width, height + MARGIN), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    text = theme.colour("text")
    title = "What the pictures show"
    d.text(draw, (MARGIN + 6, MARGIN), title, style.text["title"], text, anchor="la")
    y = MARGIN + style.text["title"] + 24
    for title, entries in sections:
        d.text(draw, (MARGIN + 6, y), title, heading, text, anchor="la")
        y += heading + 20
        for row in rows(entries):
            for i, entry in enumerate(row):
                x = MARGIN + 12 + i * (column + 12)
                top = y + _line_h(size) // 2
                _symbol(draw, entry.symbol, (x, top - SYMBOL_H // 2), theme, size)
                left = x + _symbol_width(entry, size) + 10
                for k, line in enumerate(_entry_lines(entry, size, column)):
                    d.text(draw, (left, top + k * step), line, size, text, "regular", "lm")
            y += row_height(row)
        y += 16
    return image
