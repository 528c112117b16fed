"""The company board view: resources, wheel, tiles, structures and incomes, contracts."""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.rules.draft import TILES as DRAFT_TILES
from bot.rules.officers import MAHIRI, MAHIRI_SPACES
from bot.rules.state import Company, GameOptions, GameState
from renderer import draw as d
from renderer.automa import automa_title, next_card
from renderer.content import content
from renderer.expansions import (
    asking,
    display_name,
    drawing,
    extending,
    named_drawings,
    view_height,
)
from renderer.fonts import Weight
from renderer.layout import BoardLayout, Rect, board_layout
from renderer.theme import CompanyStyle, Theme, get_theme
from renderer.words import reward_text, tile_effect, tile_name

KINDS = ("base", "elevation", "conduit", "powerhouse")
CELL_PADDING = 8  # pixels of a structure cell kept clear of its income text
# An expansion that shows a company's own state in words (its drawing's `company_lines`) adds
# a strip of this height below the board (below any board extension): a heading and two lines.
RIVER_STRIP = 110


def strips(options: GameOptions) -> tuple[str, ...]:
    """The game's expansions that add a strip below the company boards."""
    return tuple(
        name for name, m in named_drawings(options.expansions) if m.company_lines is not None
    )


def board_height(options: GameOptions) -> int:
    """Return the company view's height for a game with ``options``."""
    return view_height("company", options) + RIVER_STRIP * len(strips(options))


def _river_static(image: Image.Image, river: str, theme: Theme) -> Image.Image:
    """Return ``image`` with the strip of an expansion's company state below it."""
    top = image.height
    out = Image.new("RGB", (image.width, top + RIVER_STRIP), theme.colour("background"))
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out)
    d.box(draw, river_panel(top), theme.colour("panel"), theme.colour("panel outline"))
    sizes = theme.views["company"].text
    title = display_name(river)
    d.text(draw, (24, top + 8), title, sizes["heading"], theme.colour("text"), anchor="la")
    return out


def river_panel(top: int) -> Rect:
    """Return the river strip's panel for a strip starting at ``top``."""
    return (12, top, 988, top + RIVER_STRIP - 12)


def cell_lines(label: str, size: int, width: int, weight: Weight = "regular") -> list[str]:
    """Return ``label`` as the lines it is drawn in within ``width``: one, else two halves."""
    if not label or d.text_width(label, size, weight) <= width:
        return [label] if label else []
    words = label.split()
    # Split where the longer line is shortest, so "2VP 1mach" becomes "2VP" over "1mach".
    best = min(
        range(1, len(words)),
        key=lambda i: max(
            d.text_width(" ".join(words[:i]), size, weight),
            d.text_width(" ".join(words[i:]), size, weight),
        ),
        default=0,
    )
    if not best:
        return [label]
    return [" ".join(part) for part in (words[:best], words[best:])]


def incomes_of(company_id: str) -> dict[tuple[str, int], str]:
    """Return the text of each income or bonus a structure row uncovers, keyed by (kind, piece)."""
    c = content()
    out = {(i.track, i.after_piece): reward_text(i.reward) for i in c.companies[company_id].income}
    for after, bonus in c.common.powerhouse_bonus_after.items():
        out[("powerhouse", after)] = f"+{bonus} prod."
    out[("powerhouse", c.common.ability_after_powerhouses)] = "ability"
    return out


#: The panels' captions: what their symbols mean. A board too tall for its key below it (a
#: phone view stays within 2:1) says the whole key there (`inline_key`).
CAPTIONS = {"wheel": "+n: back after n turns", "structures": "income when uncovered"}
INLINE_CAPTIONS = {
    **CAPTIONS,
    "structures": "✓ built · income when uncovered",
    "officer": "A2: automa, level 2",  # the scoreboard's mark (the officer's name is short)
}


@functools.lru_cache(maxsize=64)
def company_background(
    company_id: str,
    theme_name: str,
    extensions: tuple[str, ...] = (),
    rivers: tuple[str, ...] = (),
    inline_key: bool = False,
) -> Image.Image:
    """Return the static part of one company's board view (callers ``copy()`` it).

    ``extensions`` are the expansions whose drawing extends the board below; ``rivers`` those
    that then add a strip of the company's state in words; ``inline_key``: the panels'
    captions say the compact key's symbols (there is no room for the key below).
    """
    captions = INLINE_CAPTIONS if inline_key else CAPTIONS
    theme = get_theme(theme_name)
    layout = board_layout("company")
    sizes = theme.views["company"].text
    c = content()
    image = Image.new("RGB", (layout.width, layout.height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    text, muted = theme.colour("text"), theme.colour("text muted")
    style = theme.company(company_id)
    d.piece(draw, layout.points["piece"], 22, style, sizes["value"])
    for name in ("wheel", "tiles", "structures", "construction", "contracts", "officer"):
        d.box(draw, layout.rects[name], theme.colour("panel"), theme.colour("panel outline"))
    x0, y0, x1, _ = layout.rects["wheel"]
    d.text(draw, (x0 + 12, y0 + 8), "Construction wheel", sizes["heading"], text, anchor="la")
    d.text(draw, (x1 - 12, y0 + 12), captions["wheel"], sizes["small"], muted, "regular", "ra")
    x0, y0, _, _ = layout.rects["tiles"]
    d.text(draw, (x0 + 12, y0 + 8), "Tiles in supply", sizes["heading"], text, anchor="la")
    x0, y0, x1, _ = layout.rects["structures"]
    d.text(draw, (x0 + 12, y0 + 8), "Structures to build", sizes["heading"], text, anchor="la")
    d.text(draw, (x1 - 12, y0 + 12), captions["structures"], sizes["small"], muted, "regular", "ra")
    x0, y0, _, y1 = layout.rects["construction"]
    d.text(draw, (x0 + 12, (y0 + y1) // 2), "Construction", sizes["heading"], text, anchor="lm")
    for space, rect in zip(
        c.common.construction_spaces, layout.lists["construction_spaces"], strict=False
    ):
        red = space.red_outline
        d.box(
            draw,
            rect,
            theme.colour("panel"),
            theme.colour("red outline" if red else "panel outline"),
            4 if red else 2,
        )
    x0, y0, _, _ = layout.rects["contracts"]
    d.text(draw, (x0 + 12, y0 + 8), "Contracts", sizes["heading"], text, anchor="la")
    if "officer" in captions:  # right of the officer's heading (the contracts' row has a count)
        _, y0, x1, _ = layout.rects["officer"]
        caption = captions["officer"]
        d.text(draw, (x1 - 12, y0 + 12), caption, sizes["small"], muted, "regular", "ra")
    # What looks the same all game: the wheel's ring of segments (the first is the open one)
    # and the structures not yet built with the incomes they hide.
    for k, rect in enumerate(layout.lists["wheel_segments"]):
        x0, y0, _, _ = rect
        is_open = k == 0
        fill = theme.colour("highlight") if is_open else theme.colour("basin")
        outline = text if is_open else theme.colour("panel outline")
        d.box(draw, rect, fill, outline, 3 if is_open else 2)
        ink = "#1b1b1b" if is_open else text
        label = "open" if is_open else f"+{k}"
        d.text(draw, (x0 + 12, y0 + 20), label, sizes["label"], ink, anchor="lm")
    incomes = incomes_of(company_id)
    for kind in KINDS:
        for n, rect in enumerate(layout.lists[f"cells_{kind}"], start=1):
            _cell(draw, rect, incomes.get((kind, n), ""), False, style, theme)
    for name in extensions:
        static = drawing(name).company_static
        if static is not None:
            image = static(image, company_id, theme_name)
    for river in rivers:
        image = _river_static(image, river, theme)
    return image


TILE_HEADING_W = 270  # "Tiles in supply" at heading size, and a gap
CHIP_H, CHIP_STEP = 34, 40


def tile_chips(tiles: list[str], panel: Rect, size: int) -> list[tuple[Rect, str, str]]:
    """Return (chip, label, tile) for the tiles in supply, laid out to fit ``panel``.

    Three rows: beside the heading, then two full rows. When the names with effects do not
    fit, the names alone; then repeated tiles once with a count ("Base ×2"); then as many
    as fit and a last chip "+n more". Chips never leave the panel.
    """
    x0, y0, x1, y1 = panel
    rows = [(x0 + 12 + TILE_HEADING_W, y0 + 26)] + [
        (x0 + 12, y0 + 66 + k * CHIP_STEP) for k in range(3)
    ]
    rows = [(x, y) for x, y in rows if y + CHIP_H // 2 <= y1 - 4]
    if not tiles:
        return _flow([("none", "")], rows, x1, size) or []
    names = {t: tile_name(t) for t in tiles}
    effects = [
        (
            f"{names[t]}: {tile_effect(t)}"
            if tile_effect(t) and not t.startswith("basic_")
            else names[t],
            t,
        )
        for t in tiles
    ]
    ids = [(names[t], t) for t in tiles]
    counts: dict[str, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    grouped = [(f"{names[t]} ×{n}" if n > 1 else names[t], t) for t, n in counts.items()]
    for labels in (effects, ids, grouped):
        placed = _flow(labels, rows, x1, size)
        if placed is not None:
            return placed
    # Still too many: as many as fit, then how many more.
    for keep in range(len(grouped) - 1, -1, -1):
        rest = sum(counts[t] for _label, t in grouped[keep:])
        placed = _flow([*grouped[:keep], (f"+{rest} more", "")], rows, x1, size)
        if placed is not None:
            return placed
    return []


def _flow(
    labels: list[tuple[str, str]], rows: list[tuple[int, int]], right: int, size: int
) -> list[tuple[Rect, str, str]] | None:
    """Lay chips left to right over ``rows``; None when they do not all fit."""
    out: list[tuple[Rect, str, str]] = []
    row = 0
    if not rows:
        return None
    x = rows[0][0]
    for label, tile in labels:
        w = int(d.text_width(label, size)) + 20
        while x + w > right - 8:
            row += 1
            if row >= len(rows):
                return None
            x = rows[row][0]
        y = rows[row][1]
        out.append(((x, y - CHIP_H // 2, x + w, y + CHIP_H // 2), label, tile))
        x += w + 10
    return out


def _cell(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    income: str,
    built: bool,
    style: CompanyStyle,
    theme: Theme,
) -> None:
    """Draw one structure cell: the piece still on it, or built with the income it uncovered
    (the same in every board that shows it: drawn once, `draw.item`)."""
    paint = functools.partial(_paint_cell, income=income, built=built, style=style, theme=theme)
    d.item(draw, ("cell", income, built, style, theme.name), rect, paint)


def _paint_cell(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    *,
    income: str,
    built: bool,
    style: CompanyStyle,
    theme: Theme,
) -> None:
    """A structure cell as `_cell` says."""
    sizes = theme.views["company"].text
    x0, y0, x1, y1 = rect
    if built:
        # An uncovered income pays every round: drawn bold on an "active" edge.
        # The piece has left its slot: an empty grey slot, so white pieces still contrast.
        d.box(
            draw,
            rect,
            theme.colour("unused"),
            theme.colour("active") if income else theme.colour("panel outline"),
            4 if income else 2,
        )
        label = income or "✓"
        ink = theme.colour("text")
    else:
        d.box(draw, rect, style.fill, style.outline, 3)
        label, ink = income, style.ink
    weight: Weight = "bold" if built else "regular"
    lines = cell_lines(label, sizes["small"], x1 - x0 - CELL_PADDING, weight)
    step = sizes["small"] + 2
    top = (y0 + y1) // 2 - (len(lines) - 1) * step / 2
    for j, line in enumerate(lines):
        d.text(draw, ((x0 + x1) // 2, round(top + j * step)), line, sizes["small"], ink, weight)


@functools.lru_cache(maxsize=64)
def half_background(
    company_id: str,
    theme_name: str,
    extensions: tuple[str, ...] = (),
    rivers: tuple[str, ...] = (),
) -> Image.Image:
    """Return ``company_background`` at half size (callers ``copy()`` it)."""
    # Drawn at full size to be halved: its texts are not the half board's (nor at its place).
    with d.not_recording():
        return company_background(company_id, theme_name, extensions, rivers).reduce(2)


def board_of(state: GameState, company_id: str) -> Company:
    """Return the company to draw: the state's, or during the draft a preview of the offer."""
    company = state.companies.get(company_id)
    if company is not None:
        return company
    offer = draft_offer(state)
    if company_id not in offer:
        raise ValueError(f"no company {company_id!r} in this game or its draft offer")
    officer = content().officers[offer[company_id]]
    start = officer.starting_resources
    # What the company will start with if picked now (bot.rules.draft.seat_companies).
    return Company(
        id=company_id,
        seat=-1,
        officer=officer.id,
        credits=start.get("credits", 6),
        excavators=start.get("excavators", 6),
        mixers=start.get("mixers", 4),
        engineers=start.get("engineers", 12),
        vp=content().common.starting_vp,
        tiles=[*DRAFT_TILES, *officer.special_tiles],
    )


def draft_offer(state: GameState) -> dict[str, str]:
    """Return {company: officer} of the boards still on offer in the full game's draft."""
    draft = state.extra.get("draft") or {}
    return {board: officer for board, officer in draft.get("pairs", [])}


def company_key(state: GameState, company_id: str) -> tuple[object, ...]:
    """Return everything ``draw_company`` reads of ``state``: equal keys draw equal boards."""
    board = board_of(state, company_id)
    mahiri = _mahiri_occupants(state, board)
    extension = tuple(
        key(state, company_id)
        for key in asking(state.options.expansions, lambda each: each.company_key)
    )
    river = _river_lines(state, board) if company_id in state.companies else ()
    card = next_card(state, company_id)  # an automa's face-up card
    return (company_id, repr(board), state.current, state.finished, mahiri, extension, river, card)


def _river_lines(
    state: GameState, company: Company
) -> tuple[tuple[str | tuple[str, ...], ...], ...]:
    """The lines of each expansion's strip below a company's board: each a text, or its forms
    from the longest to the shortest (the first that fits the strip is drawn)."""
    return tuple(
        tuple(lines(state, company))
        for lines in asking(state.options.expansions, lambda each: each.company_lines)
    )


def _mahiri_occupants(state: GameState, company: Company) -> tuple[str, ...]:
    """Return, per Mahiri space, the company on it ("" when free); () for other officers."""
    if company.officer != MAHIRI:
        return ()
    return tuple(
        next((str(owner) for owner, _n in state.spaces.get(space, [])), "")
        for space, _credits in MAHIRI_SPACES
    )


@dataclass(frozen=True, slots=True)
class _Board:
    """What every section of a company board is drawn with."""

    draw: ImageDraw.ImageDraw
    layout: BoardLayout
    content: Any  # the game's content (`renderer.content.content`)
    company_id: str
    company: Company
    theme: Theme
    lit: frozenset[str]
    sizes: Mapping[str, int]
    text: str  # the theme's text colour
    muted: str
    panel: str
    basin: str


def draw_company(
    state: GameState,
    company_id: str,
    theme: Theme,
    highlight: Collection[str] = (),
    dirty: list[Rect] | None = None,
    half: bool = False,
    inline_key: bool = False,
    steady: bool = False,
) -> Image.Image:
    """Return the board view of ``company_id`` in ``state`` as a new RGB image.

    ``dirty`` collects the boxes drawn over the static background; ``half`` draws the board at
    half size (for the full board); ``inline_key``: its captions say the key (`CAPTIONS`);
    ``steady``: only what the board shows the same all game (its title, its officer's panel
    with nobody on it), which most pictures of it share with it (`render._overlaid`).
    """
    company = board_of(state, company_id)
    preview = company_id not in state.companies
    extensions = extending(state.options.expansions, "company")
    rivers = strips(state.options)
    if half:
        background = half_background(company_id, theme.name, extensions, rivers)
    elif inline_key:
        background = company_background(company_id, theme.name, extensions, rivers, True)
    else:  # called as `half_background` calls it: one cached background serves both
        background = company_background(company_id, theme.name, extensions, rivers)
    image, draw = d.over(background, dirty, half)
    board = _Board(
        draw,
        board_layout("company"),
        content(state.options.expansions),
        company_id,
        company,
        theme,
        frozenset(str(h) for h in highlight),
        theme.views["company"].text,
        theme.colour("text"),
        theme.colour("text muted"),
        theme.colour("panel"),
        theme.colour("basin"),
    )
    if steady:
        _title(board, state, preview, steady=True)
        nobody = tuple("" for _ in MAHIRI_SPACES) if company.officer == MAHIRI else ()
        _officer(draw, board.layout, company, nobody, theme, frozenset())
        return image
    _title(board, state, preview)
    _wheel(board)
    _tiles(board)
    _structures(board)
    _construction(board)
    _contracts(board)
    lit = board.lit
    _officer(draw, board.layout, company, _mahiri_occupants(state, company), theme, lit)
    for draw_extra in asking(state.options.expansions, lambda each: each.draw_company):
        draw_extra(draw, state, company, theme, lit)
    if not preview:
        _river_strips(board, state)
    return image


def _title(board: _Board, state: GameState, preview: bool, steady: bool = False) -> None:
    """The title (company and officer), and under it an automa's card or a draft offer's
    starting goods (not when ``steady``)."""
    draw, layout, company, sizes = board.draw, board.layout, board.company, board.sizes
    c, company_id = board.content, board.company_id
    officer = c.officers.get(company.officer)
    name = c.companies[company_id].name
    title = f"{name} · {officer.name if officer else company.officer}"
    size = (
        sizes["title"]
        if d.fits(title, sizes["title"], layout.width - 90, "bold")
        else sizes["heading"]
    )
    # Texts drawn on a flat colour say so (`draw.text`'s ``on``): blended and mapped once.
    blank = board.theme.colour("background")
    d.text(draw, layout.points["title"], title, size, board.text, anchor="la", on=blank)
    if steady:
        return
    card = next_card(state, company_id) if not preview else ""
    if card:  # an automa: its level and the card on top of its deck, under the title
        line = f"{automa_title(state, company_id)} · {card}"
        x1 = layout.width - 18
        at = (x1, layout.points["title"][1] + 42)
        d.text(draw, at, line, sizes["small"], board.muted, "regular", "ra")
    if preview:
        # A board on offer in the draft: what it would start with (not yet in the scoreboard).
        start = f"starts: {company.credits}c {company.excavators} exc {company.mixers} mix"
        x1 = layout.width - 18
        d.text(
            draw,
            (x1, layout.points["title"][1] + 42),
            start,
            sizes["small"],
            board.muted,
            "regular",
            "ra",
        )


def _wheel(board: _Board) -> None:
    """The wheel, drawn as a ring of boxes in the order segments come back to the opening."""
    company, sizes = board.company, board.sizes
    for k, rect in enumerate(board.layout.lists["wheel_segments"]):
        index = (company.wheel_open + k) % len(company.wheel)
        segment = company.wheel[index]
        x0, y0, x1, y1 = rect
        # The segment's box and its "open" / "+k" label are in the background.
        ink = "#1b1b1b" if k == 0 else board.text
        words = ", ".join(tile_name(tile) for tile in segment.tiles)
        lines = list(d.wrap(words, sizes["small"], x1 - x0 - 20)) if words else []
        machines = []
        if segment.excavators:
            machines.append(f"{segment.excavators} exc")
        if segment.mixers:
            machines.append(f"{segment.mixers} mix")
        if machines:
            lines.append(" · ".join(machines))
        if not lines:
            lines = ["empty"]
        step = min(32, (y1 - y0 - 56) // max(len(lines), 1) + 4)
        fill = board.theme.colour("highlight") if k == 0 else board.basin
        for j, line in enumerate(lines):
            d.text(
                board.draw,
                (x0 + 12, y0 + 54 + j * step),
                line,
                sizes["small"],
                ink if lines != ["empty"] else board.muted,
                "regular",
                "lm",
                on=fill,
            )


def _tiles(board: _Board) -> None:
    """The technology tiles in the company's supply, as chips."""
    draw, company, theme, text = board.draw, board.company, board.theme, board.text
    small = board.sizes["small"]
    for chip, label, tile in tile_chips(company.tiles, board.layout.rects["tiles"], small):
        x0, y0, _x1, y1 = chip
        d.box(draw, chip, theme.colour("basin"), theme.colour("panel outline"), 2, 8)
        ink = text if company.tiles else board.muted
        d.text(draw, (x0 + 10, (y0 + y1) // 2), label, small, ink, "regular", "lm", on=board.basin)
        if tile in board.lit:
            d.ring(draw, chip, theme.colour("highlight"), text, width=4)


def _structures(board: _Board) -> None:
    """Each kind of structure: how many are left, and the cells of those built."""
    draw, layout, sizes, panel = board.draw, board.layout, board.sizes, board.panel
    incomes = incomes_of(board.company_id)
    pieces = board.content.common.pieces
    style = board.theme.company(board.company_id)
    for kind in KINDS:
        placed = board.company.placed.get(kind, 0)
        at = layout.points[f"row_{kind}"]
        d.text(draw, (at[0], at[1] - 14), kind, sizes["label"], board.text, anchor="lm", on=panel)
        d.text(
            draw,
            (at[0], at[1] + 14),
            f"{pieces.get(kind, 0) - placed} left",
            sizes["small"],
            board.muted,
            "regular",
            "lm",
            on=panel,
        )
        # Unbuilt cells are in the background; a built one is drawn over its cell.
        for n, rect in enumerate(layout.lists[f"cells_{kind}"][:placed], start=1):
            _cell(draw, rect, incomes.get((kind, n), ""), True, style, board.theme)


def _construction(board: _Board) -> None:
    """The construction spaces: the company's pieces on those used, the costs of the rest."""
    draw, company, sizes, text, panel = (
        board.draw,
        board.company,
        board.sizes,
        board.text,
        board.panel,
    )
    style = board.theme.company(board.company_id)
    for i, rect in enumerate(board.layout.lists["construction_spaces"]):
        space = board.content.common.construction_spaces[i]
        x0, y0, x1, y1 = rect
        cy = (y0 + y1) // 2
        if i < company.construction_spaces_used:
            d.piece(draw, (x0 + 30, cy), 20, style, sizes["small"])
            at = (x0 + 58, cy)
            d.text(draw, at, "used", sizes["small"], board.muted, "regular", "lm", on=panel)
        else:
            for p in range(space.engineers):
                px = x0 + 20 + p * 18
                draw.ellipse((px - 7, cy - 7, px + 7, cy + 7), fill=text)
            if space.extra_credits:
                d.text(
                    draw,
                    (x1 - 10, cy),
                    f"+{space.extra_credits}c",
                    sizes["small"],
                    text,
                    "regular",
                    "rm",
                    on=panel,
                )
        if "build" in board.lit and i == company.construction_spaces_used:
            d.ring(draw, rect, board.theme.colour("highlight"), text, width=4)


#: How a held contract's line is written (weight, anchor; at the board's small size).
CONTRACT_TEXT: tuple[Weight, str] = ("regular", "lm")


def contract_line(contract_id: int | str, contract: Any) -> str:
    """A held contract's line: '303 · 5⚡ → 2VP 1flow rot2'."""
    return f"{contract_id} · {contract.energy}⚡ → {reward_text(contract.reward)}"


def _contracts(board: _Board) -> None:
    """The contracts held, then those fulfilled (or their count when they do not fit)."""
    draw, layout, company, theme = board.draw, board.layout, board.company, board.theme
    small, text, muted, panel = board.sizes["small"], board.text, board.muted, board.panel
    c = board.content
    slots = layout.lists["contract_slots"]
    held = company.contracts
    for rect, contract_id in zip(slots, held, strict=False):
        x0, y0, _x1, y1 = rect
        contract = c.contracts.get(contract_id)
        cy = (y0 + y1) // 2
        if contract:
            colour = (
                theme.colour(f"contract {contract.kind}")
                if contract.kind in ("green", "yellow", "red", "national")
                else muted
            )
            draw.rectangle((x0, y0 + 4, x0 + 14, y1 - 4), fill=colour)
            line = contract_line(contract_id, contract)
        else:
            line = str(contract_id)
        d.text(draw, (x0 + 24, cy), line, small, text, *CONTRACT_TEXT, on=panel)
        if str(contract_id) in board.lit:
            d.ring(draw, rect, theme.colour("highlight"), text, width=4)
    if not held:
        x0, y0, _x1, y1 = slots[0]
        at = (x0 + 24, (y0 + y1) // 2)
        d.text(draw, at, "none held", small, muted, "regular", "lm", on=panel)
    # The contracts fulfilled go in the slots below the held ones ("none held" takes the
    # first when none is held); when they need more lines than are free, their count goes on
    # the heading's row instead, so they never cover a held contract nor lose a line.
    free = slots[max(len(held), 1) :]
    done = ", ".join(str(f) for f in company.fulfilled) or "none"
    # The count first, as the scoreboard gives it, then which contracts ("Fulfilled (1): 2").
    heading = (
        f"Fulfilled ({len(company.fulfilled)}): {done}" if company.fulfilled else "Fulfilled: none"
    )
    fulfilled = d.wrap(heading, small, slots[0][2] - slots[0][0])
    if len(fulfilled) <= len(free):
        for rect, line in zip(free, fulfilled, strict=False):
            x0, y0, _x1, y1 = rect
            at = (x0, (y0 + y1) // 2)
            d.text(draw, at, line, small, muted, "regular", "lm", on=panel)
    else:
        _px0, py0, px1, _py1 = layout.rects["contracts"]
        count = f"{len(company.fulfilled)} fulfilled"
        d.text(draw, (px1 - 12, py0 + 10), count, small, muted, "regular", "ra", on=panel)


def _river_strips(board: _Board, state: GameState) -> None:
    """The expansions' strips below the board, each line the longest form that fits."""
    top = view_height("company", state.options)
    small = board.sizes["small"]
    for river_lines in _river_lines(state, board.company):
        x0, _y0, x1, _y1 = river_panel(top)
        for j, forms in enumerate(river_lines):
            line = d.first_fitting(
                (forms,) if isinstance(forms, str) else forms, small, x1 - x0 - 24
            )
            # Two lines between the heading and the panel's foot, descenders included.
            at = (x0 + 12, top + 51 + j * 30)
            d.text(board.draw, at, line, small, board.text, "regular", "lm")
        top += RIVER_STRIP


def _officer(
    draw: ImageDraw.ImageDraw,
    layout: BoardLayout,
    company: Company,
    mahiri: tuple[str, ...],
    theme: Theme,
    lit: Collection[str],
) -> None:
    """Draw the officer panel: the ability in brief, or Mahiri's two action spaces."""
    sizes = theme.views["company"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    officer = content().officers.get(company.officer)
    x0, y0, x1, _ = layout.rects["officer"]
    name = officer.name if officer else company.officer or "none"
    panel = theme.colour("panel")
    heading = f"Officer: {name}"
    d.text(draw, (x0 + 12, y0 + 8), heading, sizes["heading"], text, anchor="la", on=panel)
    if company.officer != MAHIRI:
        ability = officer.summary if officer else ""
        for j, line in enumerate(d.wrap(ability, sizes["small"], x1 - x0 - 24)):
            at = (x0 + 12, y0 + 62 + j * 30)
            d.text(draw, at, line, sizes["small"], muted, "regular", "lm", on=panel)
        return
    for number, ((space, credits), rect, occupant) in enumerate(
        zip(MAHIRI_SPACES, layout.lists["officer_spaces"], mahiri, strict=True), start=1
    ):
        sx0, sy0, sx1, sy1 = rect
        cy = (sy0 + sy1) // 2
        d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"), 2)
        draw.ellipse((sx0 + 10, cy - 7, sx0 + 24, cy + 7), fill=text)
        label = f"copy space {number}"
        d.text(draw, (sx0 + 34, cy), label, sizes["label"], text, "regular", "lm", on=panel)
        if occupant:
            d.piece(draw, (sx1 - 30, cy), 20, theme.company(occupant), sizes["small"])
        elif credits:
            at = (sx1 - 12, cy)
            d.text(draw, at, f"+{credits}c", sizes["small"], text, "regular", "rm", on=panel)
        if space in lit or ("mahiri" in lit and not occupant):
            d.ring(draw, rect, theme.colour("highlight"), text, width=4)
