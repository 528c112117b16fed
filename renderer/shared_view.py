"""The shared boards view: round, turn order, energy, bonus tiles, contracts, management."""

from __future__ import annotations

import functools
from collections.abc import Collection

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.draft import seat_player
from bot.rules.state import GameState
from renderer import draw as d
from renderer.automa import automa_level
from renderer.content import content
from renderer.expansions import asking, drawing, extending
from renderer.layout import BoardLayout, Rect, board_layout
from renderer.map_view import ROUNDS
from renderer.theme import Theme, get_theme
from renderer.words import phase_text, reward_text, tile_effect

SECTION_NAMES = {
    "turbine_station": "Turbine station (produce)",
    "water_management": "Water management",
    "bank": "Bank",
    "workshop": "Workshop (rotate the wheel)",
    "machinery_shop": "Machinery shop",
    "contract_office": "Contract office",
    "patent_office": "Patent office",
}
LEVELS = ("green", "yellow", "red")
TRACK_CELLS = 31  # energy 0..30; more is shown at 30
MARKER_ROWS = 5
MARKER_RADIUS = 18
MARKER_STEP = 46  # between rows (and between markers sharing a row)
MARKER_GAP = 26  # from the track's top to the lowest row's centre


def _in_play(space, players: int, setup: str) -> bool:
    return space.min_companies <= players and not (
        setup == "intro" and space.not_in_introductory_game
    )


@functools.lru_cache(maxsize=32)
def shared_background(
    players: int, setup: str, theme_name: str, extensions: tuple[str, ...] = ()
) -> Image.Image:
    """Return the static part of the shared view for a game size (callers ``copy()`` it).

    ``extensions`` are the expansions whose drawing extends the shared view (a board below).
    """
    theme = get_theme(theme_name)
    layout = board_layout("shared")
    sizes = theme.views["shared"].text
    image = Image.new("RGB", (layout.width, layout.height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    text, muted = theme.colour("text"), theme.colour("text muted")
    for name in ("energy", "bonus", "contracts", "management"):
        d.box(draw, layout.rects[name], theme.colour("panel"), theme.colour("panel outline"))
    x0, y0, _, _ = layout.rects["energy"]
    d.text(draw, (x0 + 12, y0 + 8), "Energy this round", sizes["heading"], text, anchor="la")
    _, _, x1, _ = layout.rects["energy"]
    d.text(draw, (x1 - 12, y0 + 12), "bonus tile needs 6+", sizes["small"], muted, "regular", "ra")
    _track(draw, layout.rects["energy_track"], theme)
    x0, y0, _, _ = layout.rects["bonus"]
    d.text(draw, (x0 + 12, y0 + 8), "Round bonus tiles", sizes["heading"], text, anchor="la")
    x0, y0, _, _ = layout.rects["contracts"]
    d.text(draw, (x0 + 12, y0 + 8), "Contract offer", sizes["heading"], text, anchor="la")
    for level in LEVELS:
        at = layout.points[f"level_{level}"]
        draw.rectangle(
            (at[0], at[1] - 14, at[0] + 28, at[1] + 14), fill=theme.colour(f"contract {level}")
        )
        d.text(draw, (at[0] + 38, at[1]), f"private {level}", sizes["label"], text, anchor="lm")
    at = layout.points["national"]
    draw.rectangle(
        (at[0], at[1] - 14, at[0] + 28, at[1] + 14), fill=theme.colour("contract national")
    )
    d.text(draw, (at[0] + 38, at[1]), "national", sizes["label"], text, anchor="lm")
    at = layout.points["patent"]
    d.text(draw, (at[0], at[1] + 28), "Patent tiles", sizes["label"], text, anchor="lm")
    x0, y0, _, _ = layout.rects["management"]
    d.text(draw, (x0 + 12, y0 + 8), "Management board", sizes["heading"], text, anchor="la")
    for section, at in layout.headings.items():
        d.text(draw, at, SECTION_NAMES.get(section, section), sizes["label"], muted, anchor="la")
    for space in content().management_spaces:
        if space.id in layout.spaces:
            _space(draw, layout.spaces[space.id], space, _in_play(space, players, setup), theme)
    for name in extensions:
        image = drawing(name).shared_static(image, theme_name)
    return image


def _track(draw: ImageDraw.ImageDraw, rect: Rect, theme: Theme) -> None:
    sizes = theme.views["shared"].text
    x0, y0, x1, y1 = rect
    cell = (x1 - x0) / TRACK_CELLS
    bonus = set(content().energy_track.bonus_section_min_energy)
    for i in range(TRACK_CELLS):
        cx0 = x0 + round(i * cell)
        fill = theme.colour("track mark") if i in bonus else theme.colour("track")
        draw.rectangle((cx0, y0, x0 + round((i + 1) * cell) - 2, y1), fill=fill)
        if i % 6 == 0 or i == TRACK_CELLS - 1:
            d.text(
                draw,
                (cx0 + cell / 2, y1 + 22),
                str(i),
                sizes["small"],
                theme.colour("text"),
                "regular",
            )


def _space(draw: ImageDraw.ImageDraw, rect: Rect, space, in_play: bool, theme: Theme) -> None:
    sizes = theme.views["shared"].text
    x0, y0, x1, y1 = rect
    fill = theme.colour("panel") if in_play else theme.colour("unused")
    ink = theme.colour("text") if in_play else theme.colour("text muted")
    if space.red_outline:
        d.box(draw, rect, fill, theme.colour("red outline"), width=4)
    else:
        d.box(draw, rect, fill, theme.colour("panel outline"), width=2)
    cy = (y0 + y1) // 2
    # Engineers needed as pips, as on the board: a number would cost text width we lack.
    for i in range(space.engineers):
        px = x0 + 16 + i * 16
        draw.ellipse((px - 6, cy - 6, px + 6, cy + 6), fill=ink)
    tx = x0 + 16 + max(space.engineers, 1) * 16
    d.text(draw, (tx, cy), space.id, sizes["label"], ink, "regular", "lm")
    if space.action_cost:
        d.text(draw, (x1 - 12, cy), f"{space.action_cost}c", sizes["small"], ink, "regular", "rm")


def draw_shared(
    state: GameState, theme: Theme, highlight: Collection[str] = (), dirty: list[Rect] | None = None
) -> Image.Image:
    """Return the shared boards view of ``state`` as a new RGB image."""
    layout = board_layout("shared")
    options = state.options
    extensions = extending(options.expansions, "shared")
    image = shared_background(options.players, options.setup, theme.name, extensions).copy()
    draw = d.canvas(image, dirty)
    sizes = theme.views["shared"].text
    text = theme.colour("text")
    title = (
        "Game over"
        if state.finished
        else f"Round {state.round} of {ROUNDS} · {phase_text(state.phase)}"
    )
    d.text(draw, layout.points["title"], title, sizes["title"], text, anchor="la")
    if draft_state(state):
        _draft(draw, layout, state, theme, highlight)
    else:
        _turn_order(draw, layout, state, theme)
        _energy(draw, layout, state, theme)
    _bonus(draw, layout, state, theme)
    _contracts(draw, layout, state, theme, highlight)
    _occupants(draw, layout, state, theme)
    for draw_extra in asking(options.expansions, "draw_shared"):
        draw_extra(draw, state, theme, highlight)
    for space_id in highlight:
        if space_id in layout.spaces:
            d.ring(draw, layout.spaces[space_id], theme.colour("highlight"), text, width=5)
    return image


def _turn_order(
    draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme
) -> None:
    sizes = theme.views["shared"].text
    x0, y0, _x1, y1 = layout.rects["turn_order"]
    cy = (y0 + y1) // 2
    d.text(draw, (x0 + 6, cy), "Turn order", sizes["label"], theme.colour("text"), anchor="lm")
    x = x0 + 200
    for cid in state.turn_order:
        name = company_name(cid) + (" (automa)" if automa_level(state, cid) is not None else "")
        width = 52 + int(d.text_width(name, sizes["label"])) + 16
        if cid == state.current and not state.finished:
            d.box(
                draw,
                (x - 4, y0, x + width - 8, y1),
                theme.colour("highlight"),
                theme.colour("text"),
                2,
                10,
            )
        d.piece(draw, (x + 22, cy), 20, theme.company(cid), sizes["small"])
        ink = "#1b1b1b" if cid == state.current else theme.colour("text")
        d.text(draw, (x + 48, cy), name, sizes["label"], ink, "regular", "lm")
        x += width + 8


def _energy(draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme) -> None:
    sizes = theme.views["shared"].text
    x0, y0, x1, _ = layout.rects["energy_track"]
    cell = (x1 - x0) / TRACK_CELLS
    # Markers on nearby cells would overlap, so each goes on the lowest free row above the
    # track; the panel has room for one row per company (five), clear of its heading.
    rows: list[list[float]] = [[] for _ in range(MARKER_ROWS)]
    companies = sorted(state.companies.values(), key=lambda c: (c.energy, c.seat))
    for company in companies:
        cx = x0 + (min(company.energy, TRACK_CELLS - 1) + 0.5) * cell
        row = next(
            (i for i, xs in enumerate(rows) if all(abs(cx - x) >= MARKER_STEP for x in xs)),
            len(rows) - 1,
        )
        rows[row].append(cx)
        cy = y0 - MARKER_GAP - row * MARKER_STEP
        d.piece(draw, (round(cx), cy), MARKER_RADIUS, theme.company(company.id), sizes["small"])


def _bonus(draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme) -> None:
    sizes = theme.views["shared"].text
    tiles = content(state.options.expansions).bonus_tiles
    for i, (rect, tile_id) in enumerate(
        zip(layout.lists["bonus_tiles"], state.bonus_tiles, strict=False)
    ):
        rnd = i + 1
        current = rnd == state.round and not state.finished
        past = rnd < state.round or state.finished
        fill = theme.colour("highlight") if current else theme.colour("panel")
        ink = "#1b1b1b" if current else theme.colour("text muted" if past else "text")
        d.box(
            draw,
            rect,
            fill,
            theme.colour("text") if current else theme.colour("panel outline"),
            4 if current else 2,
        )
        x0, y0, x1, y1 = rect
        cx = (x0 + x1) // 2
        tile = tiles.get(tile_id)
        vp = f" · {tile.vp_each}VP" if tile else ""
        d.text(draw, (cx, y0 + 26), f"R{rnd}{vp}", sizes["label"], ink)
        d.text(
            draw,
            (cx, y0 + 66),
            d.fit(tile_id, sizes["small"], x1 - x0 - 10),
            sizes["small"],
            ink,
            "regular",
        )
        d.text(
            draw,
            (cx, y0 + 104),
            "now" if current else ("done" if past else ""),
            sizes["small"],
            ink,
            "regular",
        )
    x0, y0, x1, y1 = layout.rects["objective"]
    cy = (y0 + y1) // 2
    for shared_line in asking(state.options.expansions, "shared_line"):
        # Two lines: the objective, then the expansion's (e.g. the round's scoring).
        cy = y0 + 20
        line = d.fit(shared_line(state), sizes["small"], x1 - x0)
        d.text(draw, (x0, y1 - 20), line, sizes["small"], theme.colour("text"), "regular", "lm")
    d.text(draw, (x0, cy), "Objective:", sizes["label"], theme.colour("text"), anchor="lm")
    d.text(
        draw,
        (x0 + 180, cy),
        state.objective or "—",
        sizes["label"],
        theme.colour("text"),
        "regular",
        "lm",
    )


def _contract_box(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    contract_id: int | None,
    level: str,
    theme: Theme,
    lit: bool,
    expansions: tuple[str, ...] = (),
) -> None:
    sizes = theme.views["shared"].text
    x0, y0, x1, y1 = rect
    if contract_id is None:
        d.box(draw, rect, theme.colour("unused"), theme.colour("panel outline"), 2)
        d.text(
            draw,
            ((x0 + x1) // 2, (y0 + y1) // 2),
            "empty",
            sizes["small"],
            theme.colour("text muted"),
            "regular",
        )
        return
    contract = content(expansions).contracts.get(contract_id)
    d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"), 2)
    draw.rectangle((x0 + 3, y0 + 3, x0 + 16, y1 - 3), fill=theme.colour(f"contract {level}"))
    energy = f" · {contract.energy}⚡" if contract else ""
    d.text(
        draw,
        (x0 + 26, y0 + 22),
        f"{contract_id}{energy}",
        sizes["label"],
        theme.colour("text"),
        anchor="lm",
    )
    if contract:
        reward = d.fit(reward_text(contract.reward), sizes["small"], x1 - x0 - 36)
        d.text(
            draw, (x0 + 26, y0 + 62), reward, sizes["small"], theme.colour("text"), "regular", "lm"
        )
    if lit:
        d.ring(draw, rect, theme.colour("highlight"), theme.colour("text"), width=5)


def _contracts(
    draw: ImageDraw.ImageDraw,
    layout: BoardLayout,
    state: GameState,
    theme: Theme,
    highlight: Collection[str],
) -> None:
    lit = {str(h) for h in highlight}
    for level in LEVELS:
        offer = state.private_offer.get(level, [])
        for i, rect in enumerate(layout.lists[f"private_{level}"]):
            cid = offer[i] if i < len(offer) else None
            _contract_box(draw, rect, cid, level, theme, str(cid) in lit, state.options.expansions)
    for i, rect in enumerate(layout.lists["national"]):
        cid = state.national_offer[i] if i < len(state.national_offer) else None
        _contract_box(draw, rect, cid, "national", theme, str(cid) in lit, state.options.expansions)
    sizes = theme.views["shared"].text
    if not state.patent_offer:
        x0, y0, _, y1 = layout.lists["patent"][0]
        d.text(
            draw,
            (x0, (y0 + y1) // 2),
            "not in the introductory game",
            sizes["small"],
            theme.colour("text muted"),
            "regular",
            "lm",
        )
        return
    for rect, tile in zip(layout.lists["patent"], state.patent_offer, strict=False):
        x0, y0, x1, y1 = rect
        d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"), 2)
        cx, width = (x0 + x1) // 2, x1 - x0 - 12
        label = d.fit(tile or "empty", sizes["small"], width)
        d.text(draw, (cx, y0 + 28), label, sizes["small"], theme.colour("text"), "regular")
        effect = d.fit(tile_effect(tile) if tile else "", sizes["small"], width)
        d.text(draw, (cx, y1 - 30), effect, sizes["small"], theme.colour("text muted"), "regular")
        if tile and tile in lit:
            d.ring(draw, rect, theme.colour("highlight"), theme.colour("text"), width=5)


def draft_state(state: GameState) -> bool:
    """True while the full game's draft is on: no companies yet, boards on offer."""
    return not state.companies and bool(state.extra.get("draft"))


def _draft(
    draw: ImageDraw.ImageDraw,
    layout: BoardLayout,
    state: GameState,
    theme: Theme,
    highlight: Collection[str],
) -> None:
    """Draw the draft: picking order with the picks made, and the boards and contracts on offer."""
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    c = content(state.options.expansions)
    draft = state.extra["draft"]
    picks = {seat: board for seat, board, _officer, _contract in draft.get("picks", [])}
    order = draft.get("order", [])
    picker = order[len(picks)] if len(picks) < len(order) else None
    lit = {h.lower() for h in highlight}

    x0, y0, _x1, y1 = layout.rects["turn_order"]
    cy = (y0 + y1) // 2
    d.text(draw, (x0 + 6, cy), "Picking", sizes["label"], text, anchor="lm")
    x = x0 + 150
    for seat in order:
        label = seat_player(seat)
        width = int(d.text_width(label, sizes["label"])) + (64 if seat in picks else 24)
        if seat == picker:
            d.box(draw, (x - 4, y0, x + width, y1), theme.colour("highlight"), text, 2, 10)
        tx = x + 6
        if seat in picks:
            d.piece(draw, (x + 24, cy), 20, theme.company(picks[seat]), sizes["small"])
            tx = x + 50
        ink = "#1b1b1b" if seat == picker else text
        d.text(draw, (tx, cy), label, sizes["label"], ink, "regular", "lm")
        x += width + 14

    rect = layout.rects["draft"]
    d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"))
    rx0, ry0, rx1, _ = rect
    heading = f"Draft: {seat_player(picker)} picks" if picker is not None else "Draft"
    d.text(draw, (rx0 + 12, ry0 + 8), heading, sizes["heading"], text, anchor="la")
    spares = [c.officers[o].name for o in state.extra.get("spare_officers", []) if o in c.officers]
    if spares:
        spare = d.fit("Mahiri may also copy " + ", ".join(spares), sizes["small"], 560)
        d.text(draw, (rx1 - 12, ry0 + 14), spare, sizes["small"], muted, "regular", "ra")
    for box, (board, officer) in zip(
        layout.lists["draft_pairs"], draft.get("pairs", []), strict=False
    ):
        name = c.officers[officer].name if officer in c.officers else officer
        _offer_row(draw, box, f"pick {board}", name, board, theme, lit)
    for box, contract_id in zip(
        layout.lists["draft_starting"], draft.get("starting", []), strict=False
    ):
        contract = c.contracts.get(contract_id)
        terms = f"{contract.energy}⚡ → {reward_text(contract.reward)}" if contract else ""
        _offer_row(draw, box, f"start {contract_id}", terms, None, theme, lit)


def _offer_row(
    draw: ImageDraw.ImageDraw,
    box: Rect,
    notation: str,
    detail: str,
    company: str | None,
    theme: Theme,
    lit: Collection[str],
) -> None:
    """Draw one draft choice: its notation in bold, what it brings, the company's piece."""
    sizes = theme.views["shared"].text
    text = theme.colour("text")
    bx0, by0, bx1, by1 = box
    by = (by0 + by1) // 2
    d.box(draw, box, theme.colour("basin"), theme.colour("panel outline"), 2)
    x = bx0 + 12
    if company:
        d.piece(draw, (bx0 + 28, by), 18, theme.company(company), sizes["small"])
        x = bx0 + 54
    d.text(draw, (x, by), notation, sizes["label"], text, anchor="lm")
    x += int(d.text_width(notation, sizes["label"], "bold")) + 14
    d.text(
        draw,
        (x, by),
        d.fit(detail, sizes["small"], bx1 - x - 8),
        sizes["small"],
        text,
        "regular",
        "lm",
    )
    if notation in lit:
        d.ring(draw, box, theme.colour("highlight"), text, width=5)


def _occupants(
    draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme
) -> None:
    sizes = theme.views["shared"].text
    for space_id, placements in state.spaces.items():
        rect = layout.spaces.get(space_id)
        if rect is None or not placements:
            continue
        x0, y0, x1, y1 = rect
        cy = (y0 + y1) // 2
        # Exclusive spaces hold one company at their right end; the Bank fills from its middle.
        x = x1 - 96 if len(placements) == 1 and x1 - x0 < 800 else x0 + 420
        for company_id, engineers in placements:
            d.box(
                draw,
                (x - 8, y0 + 3, x + 84, y1 - 3),
                theme.colour("panel"),
                theme.colour("panel"),
                1,
                6,
            )
            d.piece(draw, (x + 18, cy), 20, theme.company(company_id), sizes["small"])
            d.text(
                draw,
                (x + 44, cy),
                f"×{engineers}",
                sizes["small"],
                theme.colour("text"),
                anchor="lm",
            )
            x += 100
