"""Pictures of a server's records: the leaderboard, and the charts of one finished game.

Both are drawn from plain values (the service reads them from the results table; no game is
replayed), in the score sheet's look: the theme's panels and text sizes, companies shown by
their pieces, sized for a phone (1200 pixels wide, text at least width / 40).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.wording import END_ROWS, SCORE_ROWS
from renderer import draw as d
from renderer import png
from renderer.expansions import catalogue
from renderer.theme import Theme, get_theme

WIDTH = 1200
#: Colours of a records picture's palette: flat fills and antialiased text need no more.
PALETTE_COLOURS = 96
MARGIN = 12
ROW = 58
#: Colours of VP sources, in the order sources are stacked (Okabe & Ito's colour-blind safe
#: set first, then further distinct hues for expansions' sources).
SOURCE_COLOURS = (
    "#999999",
    "#e69f00",
    "#56b4e9",
    "#009e73",
    "#f0e442",
    "#0072b2",
    "#d55e00",
    "#cc79a7",
    "#7a5195",
    "#2f4b7c",
    "#a05195",
    "#665191",
    "#8c564b",
    "#bcbd22",
)
#: The base game's source groups in stacking order (expansions' follow, sorted).
SOURCE_ORDER = (
    "start",
    "income",
    "contract",
    "scoring",
    "bonus",
    "objective",
    "conduit-use",
    "tile",
    "end",
)
#: Ranks drawn on a medal.
MEDALS = {1: "#d4a017", 2: "#a8a9ad", 3: "#b0713a"}


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line of a table: its place (drawn on a medal), its name, its cells."""

    place: int | None
    name: str
    cells: tuple[str, ...]
    #: A company whose piece stands before the name.
    company: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table: column headings (the first is the names' column) and rows."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    #: Said in the table when it has no rows.
    empty: str = "Nobody yet."


@dataclass(frozen=True, slots=True)
class SeatChart:
    """One seat of a finished game as its charts show it."""

    company: str
    #: Who played it (a name, or "Automa").
    player: str
    vp: int
    rank: int
    vp_by_source: Mapping[str, int] = field(default_factory=dict)
    energy_by_round: Sequence[int] = ()


def draw_leaderboard(
    title: str, subtitle: str, tables: Sequence[Table], *, theme: str = "light"
) -> Image.Image:
    """A picture of tables one under another (players, companies, officers), titled."""
    look = get_theme(theme)
    heights = [_table_height(t) for t in tables]
    height = 140 + sum(h + 20 for h in heights)
    image = Image.new("RGB", (WIDTH, height), look.colour("background"))
    draw = ImageDraw.Draw(image)
    _heading(draw, title, subtitle, look)
    y = 140
    for table, h in zip(tables, heights, strict=True):
        _table(draw, (MARGIN, y, WIDTH - MARGIN, y + h), table, look)
        y += h + 20
    return image


def draw_game_charts(
    title: str, subtitle: str, seats: Sequence[SeatChart], *, theme: str = "light"
) -> Image.Image:
    """A finished game's charts: VP by source per player (stacked bars, best first, with a
    legend) and the energy each produced per round."""
    look = get_theme(theme)
    sources = source_order(s for seat in seats for s, vp in seat.vp_by_source.items() if vp)
    legend_rows = _legend_rows(sources)
    vp_h = 90 + len(seats) * 110 + legend_rows * 52 + 20
    energy_h = 470
    height = 140 + vp_h + 20 + energy_h + 20
    image = Image.new("RGB", (WIDTH, height), look.colour("background"))
    draw = ImageDraw.Draw(image)
    _heading(draw, title, subtitle, look)
    ranked = sorted(seats, key=lambda s: (s.rank, -s.vp))
    _vp_bars(draw, (MARGIN, 140, WIDTH - MARGIN, 140 + vp_h), ranked, sources, look)
    top = 140 + vp_h + 20
    _energy_bars(draw, (MARGIN, top, WIDTH - MARGIN, top + energy_h), ranked, look)
    return image


def encode_palette(image: Image.Image) -> bytes:
    """A picture of few colours as a palette PNG (smaller and quicker to send than RGB)."""
    mapped = image.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE,
                            dither=Image.Dither.NONE)  # fmt: skip
    return png.encode(mapped)


def source_order(groups: Iterable[str]) -> list[str]:
    """VP source groups in stacking order: the base game's, then the others sorted."""
    found = set(groups)
    return [g for g in SOURCE_ORDER if g in found] + sorted(found - set(SOURCE_ORDER))


def source_label(group: str) -> str:
    """What a player reads for a VP source group (the score sheet's row names)."""
    if group == "start":
        return "Start"
    labels = {**SCORE_ROWS, **END_ROWS}
    for name in catalogue().expansions:
        for row in catalogue().info(name).score.values():
            labels.setdefault(row.lower(), row)
    return labels.get(group, group.capitalize())


def source_colour(group: str, order: Sequence[str]) -> str:
    """A source's colour: by its place in the stacking order (start is always grey)."""
    if group == "start":
        return SOURCE_COLOURS[0]
    rest = [g for g in order if g != "start"]
    return SOURCE_COLOURS[1 + rest.index(group) % (len(SOURCE_COLOURS) - 1)]


# -- parts ---------------------------------------------------------------------------------


def _heading(draw: ImageDraw.ImageDraw, title: str, subtitle: str, theme: Theme) -> None:
    sizes = theme.views["shared"].text
    d.text(draw, (18, 14), d.fit(title, sizes["title"], WIDTH - 36, "bold"), sizes["title"],
           theme.colour("text"), anchor="la")  # fmt: skip
    d.text(draw, (18, 80), d.fit(subtitle, sizes["small"], WIDTH - 36), sizes["small"],
           theme.colour("text muted"), "regular", anchor="la")  # fmt: skip


def _table_height(table: Table) -> int:
    return 70 + ROW * (1 + max(len(table.rows), 1)) + 10


#: Width of each value column of a table, and of the place column.
VALUE_COLUMN = 150
PLACE_COLUMN = 70


def _panel(
    draw: ImageDraw.ImageDraw, rect: tuple[int, int, int, int], title: str, theme: Theme
) -> tuple[Mapping[str, int], str, str]:
    """A panel's box and heading; the text sizes and the text and muted colours inside it."""
    sizes = theme.views["shared"].text
    text = theme.colour("text")
    d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"))
    d.text(draw, (rect[0] + 14, rect[1] + 10), title, sizes["heading"], text, anchor="la")
    return sizes, text, theme.colour("text muted")


def _table(draw: ImageDraw.ImageDraw, rect: tuple[int, int, int, int], table: Table,
           theme: Theme) -> None:  # fmt: skip
    sizes, text, muted = _panel(draw, rect, table.title, theme)
    x0, y0, x1, _ = rect
    values = len(table.columns) - 1
    name_x = x0 + 14 + PLACE_COLUMN
    name_w = x1 - 14 - values * VALUE_COLUMN - name_x
    y = y0 + 70
    d.text(draw, (name_x, y + ROW // 2), table.columns[0], sizes["small"], muted, "regular", "lm")
    for i, heading in enumerate(table.columns[1:]):
        cx = x1 - 14 - (values - i) * VALUE_COLUMN + VALUE_COLUMN // 2
        d.text(draw, (cx, y + ROW // 2), heading, sizes["small"], muted, "regular")
    y += ROW
    if not table.rows:
        d.text(draw, (name_x, y + ROW // 2), table.empty, sizes["label"], muted, "regular", "lm")
        return
    for n, row in enumerate(table.rows):
        if n % 2 == 0:
            draw.rectangle((x0 + 4, y, x1 - 4, y + ROW - 1), fill=theme.colour("track"))
        mid = y + ROW // 2
        if row.place is not None:
            medal = MEDALS.get(row.place)
            if medal is not None:
                draw.ellipse((x0 + 20, mid - 24, x0 + 68, mid + 24), fill=medal)
            d.text(draw, (x0 + 44, mid), str(row.place), sizes["small"], text)
        left = name_x
        if row.company is not None and row.company in theme.companies:
            d.piece(draw, (left + 22, mid), 20, theme.company(row.company), sizes["small"])
            left += 54
        label = d.fit(row.name, sizes["label"], name_w - (left - name_x))
        d.text(draw, (left, mid), label, sizes["label"], text, "regular", "lm")
        for i, cell in enumerate(row.cells):
            cx = x1 - 14 - (values - i) * VALUE_COLUMN + VALUE_COLUMN // 2
            d.text(draw, (cx, mid), d.fit(cell, sizes["value"], VALUE_COLUMN - 8), sizes["value"],
                   text, "regular")  # fmt: skip
        y += ROW


#: Sources named per row of the legend.
LEGEND_COLUMNS = 2


def _legend_rows(sources: Sequence[str]) -> int:
    return max(1, -(-len(sources) // LEGEND_COLUMNS))


def _seat_label(seat: SeatChart) -> str:
    return f"{seat.rank}. {seat.player} ({company_name(seat.company)})"


def _vp_bars(
    draw: ImageDraw.ImageDraw,
    rect: tuple[int, int, int, int],
    seats: Sequence[SeatChart],
    sources: Sequence[str],
    theme: Theme,
) -> None:
    """Stacked bars: each seat's VP by source, positive sources right of zero, negative left."""
    sizes, text, muted = _panel(draw, rect, "VP by source", theme)
    x0, y0, x1, _ = rect
    most = max([1, *(sum(v for v in s.vp_by_source.values() if v > 0) for s in seats)])
    least = max([0, *(-sum(v for v in s.vp_by_source.values() if v < 0) for s in seats)])
    left, right = x0 + 24, x1 - 110
    scale = (right - left) / (most + least)
    zero = left + least * scale
    y = y0 + 80
    for seat in seats:
        style = theme.company(seat.company) if seat.company in theme.companies else None
        if style is not None:
            d.piece(draw, (left + 20, y + 24), 20, style, sizes["small"])
        d.text(draw, (left + 54, y + 24), d.fit(_seat_label(seat), sizes["label"], right - left - 60),
               sizes["label"], text, "regular", "lm")  # fmt: skip
        top, bottom = y + 52, y + 96
        ahead, behind = zero, zero
        for group in sources:
            value = seat.vp_by_source.get(group, 0)
            if not value:
                continue
            width = abs(value) * scale
            if value > 0:
                box = (ahead, top, ahead + width, bottom)
                ahead += width
            else:
                box = (behind - width, top, behind, bottom)
                behind -= width
            colour = source_colour(group, sources)
            draw.rectangle(box, fill=colour, outline=theme.colour("panel"), width=2)
            label = str(value)
            if d.text_width(label, sizes["small"]) + 8 <= width:
                d.text(draw, ((box[0] + box[2]) / 2, (top + bottom) / 2), label, sizes["small"],
                       _ink_on(colour), "regular")  # fmt: skip
        d.text(
            draw, (ahead + 12, (top + bottom) / 2), str(seat.vp), sizes["value"], text, anchor="lm"
        )
        if least:
            draw.line((zero, top - 6, zero, bottom + 6), fill=muted, width=2)
        y += 110
    # The legend: a swatch and a name per source.
    column = (x1 - x0 - 28) // LEGEND_COLUMNS
    for i, group in enumerate(sources):
        lx = x0 + 14 + (i % LEGEND_COLUMNS) * column
        ly = y + 8 + (i // LEGEND_COLUMNS) * 52
        draw.rectangle((lx, ly + 6, lx + 34, ly + 40), fill=source_colour(group, sources),
                       outline=theme.colour("panel outline"))  # fmt: skip
        d.text(draw, (lx + 44, ly + 23), d.fit(source_label(group), sizes["small"], column - 52),
               sizes["small"], text, "regular", "lm")  # fmt: skip


def _energy_bars(
    draw: ImageDraw.ImageDraw,
    rect: tuple[int, int, int, int],
    seats: Sequence[SeatChart],
    theme: Theme,
) -> None:
    """Grouped bars: the energy each company produced in each round."""
    sizes, text, muted = _panel(draw, rect, "Energy produced per round", theme)
    x0, y0, x1, y1 = rect
    rounds = max((len(s.energy_by_round) for s in seats), default=0)
    if not rounds or not seats:
        d.text(draw, (x0 + 14, y0 + 100), "No round was scored.", sizes["label"], muted, "regular",
               "lm")  # fmt: skip
        return
    high = max([1, *(max(s.energy_by_round, default=0) for s in seats)])
    base, top = y1 - 60, y0 + 110
    px0, px1 = x0 + 24, x1 - 24
    group_w = (px1 - px0) / rounds
    bar_w = min(70.0, (group_w - 20) / len(seats))
    draw.line((px0, base, px1, base), fill=muted, width=2)
    for r in range(rounds):
        centre = px0 + group_w * (r + 0.5)
        d.text(draw, (centre, base + 32), f"Round {r + 1}", sizes["small"], muted, "regular")
        start = centre - bar_w * len(seats) / 2
        for i, seat in enumerate(seats):
            value = seat.energy_by_round[r] if r < len(seat.energy_by_round) else 0
            bx = start + i * bar_w
            by = base - (base - top) * value / high
            style = theme.company(seat.company) if seat.company in theme.companies else None
            fill = style.fill if style else muted
            outline = style.outline if style else text
            if value:
                draw.rectangle((bx + 3, by, bx + bar_w - 3, base), fill=fill, outline=outline,
                               width=3)  # fmt: skip
            if style is not None and base - by >= 48:
                # The company's letter too: colour is never the only key.
                d.text(draw, (bx + bar_w / 2, base - 24), style.letter, sizes["small"], style.ink)
            d.text(draw, (bx + bar_w / 2, by - 20), str(value), sizes["small"], text, "regular")


def _ink_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#1b1b1b" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"
