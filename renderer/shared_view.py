"""The shared boards view: the energy track, the contract offer and the management board.

The energy track is drawn as the rulebook states it (rulebook "IV. Scoring"): every company's
marker with its count, the five sections with this round's marked, the scale, the credits each
position gives, the five round bonus tiles (full reward from the round's section, 4 VP less per
section behind, none under 6 energy) with what each company would score now, and the objective
tile at the end of the track. The turn order and the scores are in the header above.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.rules.draft import seat_player
from bot.rules.state import GameState
from bot.rules.wording import SECTION_NAMES
from renderer import draw as d
from renderer.content import content
from renderer.expansions import asking, catalogue, drawing, extending
from renderer.fonts import Weight
from renderer.layout import BoardLayout, Rect, board_layout
from renderer.theme import Theme, get_theme
from renderer.words import reward_text

LEVELS = ("green", "yellow", "red")
TRACK_CELLS = 31  # energy 0..30; more is shown at 30
MARKER_STEP = 44  # between rows of markers
SECTION_TITLES = {**SECTION_NAMES, "turbine_station": "Turbine Station: produce"}
INTRO_TITLES = {"patent_office": "Patent Office (full game only)"}


def _in_play(space: Any, players: int, setup: str) -> bool:
    return space.min_companies <= players and not (
        setup == "intro" and space.not_in_introductory_game
    )


def _cell(rect: Rect, energy: int) -> tuple[float, float]:
    """The left and right x of a track cell."""
    x0, _y0, x1, _y1 = rect
    w = (x1 - x0) / TRACK_CELLS
    return x0 + energy * w, x0 + (energy + 1) * w


def _centre(rect: Rect, energy: int) -> float:
    a, b = _cell(rect, min(max(energy, 0), TRACK_CELLS - 1))
    return (a + b) / 2


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
    for name in ("energy", "contracts", "management"):
        d.box(draw, layout.rects[name], theme.colour("panel"), theme.colour("panel outline"))
    track = content().energy_track
    rules = (
        f"1st +{track.first_vp} · 2nd +{track.second_vp} VP · 0⚡: "
        f"+{track.credits_for(0)[0]}c {track.credits_for(0)[1]:+d} VP · "
        f"−{track.malus_per_section} VP/section behind"
    )
    d.text(draw, layout.points["energy_rules"], rules, sizes["small"], muted, "regular", "lm")
    _scale(draw, layout, theme)
    at = layout.points["contracts_heading"]
    d.text(draw, at, "Contract offer", sizes["heading"], text, anchor="la")
    x = at[0] + int(d.text_width("Contract offer", sizes["heading"], "bold")) + 30
    for level in (*LEVELS, "national"):
        cy = at[1] + sizes["heading"] // 2 + 4
        draw.rectangle((x, cy - 13, x + 26, cy + 13), fill=theme.colour(f"contract {level}"))
        d.text(draw, (x + 34, cy), level, sizes["small"], text, "regular", "lm")
        x += 34 + int(d.text_width(level, sizes["small"])) + 26
    at = layout.points["management_heading"]
    d.text(draw, at, "Management board", sizes["heading"], text, anchor="la")
    for section, at in layout.headings.items():
        title = SECTION_TITLES.get(section, section)
        if setup == "intro":
            title = INTRO_TITLES.get(section, title)
        d.text(draw, at, title, sizes["small"], muted, anchor="la")
    for space in content().management_spaces:
        if space.id in layout.spaces:
            in_play = _in_play(space, players, setup)
            _space(draw, layout.spaces[space.id], space, in_play, theme)
            if space.row in layout.rows and space.side != "right":
                ink = text if in_play else muted
                name = space.short if space.section != "patent_office" else ""
                at = layout.rows[space.row]
                d.text(draw, at, name, sizes["label"], ink, "regular", "lm")
    for name in extensions:
        static = drawing(name).shared_static
        if static is not None:
            image = static(image, theme_name)
    return image


def _scale(draw: ImageDraw.ImageDraw, layout: BoardLayout, theme: Theme) -> None:
    """The track's scale: section starts, the credits of each band (cell 0 is in the rules)."""
    sizes = theme.views["shared"].text
    rect = layout.rects["energy_track"]
    track = content().energy_track
    y = layout.points["energy_scale"][1]
    for energy in (0, *track.bonus_section_min_energy):
        d.text(draw, (_centre(rect, energy), y), str(energy), sizes["small"], theme.colour("text"))
    y = layout.points["energy_credits"][1]
    for band in track.credit_thresholds:
        if band.min_energy == 0:
            continue
        last = min(band.max_energy if band.max_energy is not None else 30, TRACK_CELLS - 1)
        left, _ = _cell(rect, band.min_energy)
        _, right = _cell(rect, last)
        draw.line((left + 3, y - 20, right - 3, y - 20), fill=theme.colour("track mark"), width=2)
        d.text(
            draw,
            ((left + right) / 2, y),
            f"{band.credits}c",
            sizes["small"],
            theme.colour("text muted"),
            "regular",
        )


def _space(draw: ImageDraw.ImageDraw, rect: Rect, space: Any, in_play: bool, theme: Theme) -> None:
    sizes = theme.views["shared"].text
    x0, y0, x1, y1 = rect
    fill = theme.colour("space") if in_play else theme.colour("unused")
    ink = theme.colour("space text") if in_play else theme.colour("text muted")
    if space.red_outline:
        d.box(draw, rect, fill, theme.colour("red outline"), width=4)
    else:
        d.box(draw, rect, fill, theme.colour("panel outline"), width=2)
    cy = (y0 + y1) // 2
    # Engineers needed as pips, as on the board: a number would cost text width we lack.
    for i in range(space.engineers):
        px = x0 + 16 + i * 17
        draw.ellipse((px - 6, cy - 6, px + 6, cy + 6), fill=ink)
    if space.action_cost:
        cost = f"{space.action_cost}c"
        d.text(draw, (x1 - 10, cy), cost, sizes["small"], ink, "regular", "rm")


def draw_shared(
    state: GameState, theme: Theme, highlight: Collection[str] = (), dirty: list[Rect] | None = None
) -> Image.Image:
    """Return the shared boards view's body of ``state`` as a new RGB image."""
    layout = board_layout("shared")
    options = state.options
    extensions = extending(options.expansions, "shared")
    background = shared_background(options.players, options.setup, theme.name, extensions)
    image, draw = d.over(background, dirty)
    text = theme.colour("text")
    if draft_state(state):
        _draft(draw, layout, state, theme, highlight)
    else:
        _energy(draw, layout, state, theme)
    _bonus(draw, layout, state, theme)
    _contracts(draw, layout, state, theme, highlight)
    _patents(draw, layout, state, theme, highlight)
    _occupants(draw, layout, state, theme)
    for draw_extra in asking(options.expansions, lambda each: each.draw_shared):
        draw_extra(draw, state, theme, highlight)
    for space_id in sorted(highlight):  # in a fixed order: overlapping rings, the same picture
        if space_id in layout.spaces:
            d.ring(draw, layout.spaces[space_id], theme.colour("highlight"), text, width=5)
    return image


@dataclass(frozen=True, slots=True)
class BonusNow:
    """What a company would score from this round's bonus tile if the round ended now."""

    vp: int  # what it scores (none under the minimum energy)
    full: int  # the full reward, from this round's section of the track
    cut: int  # VP taken off for the sections behind this round's
    eligible: bool  # False under the minimum energy: no reward at all

    def label(self) -> str:
        """'12', '4 (12−8)' behind this round's section, '–' under the minimum energy."""
        if not self.eligible:
            return "–"
        return f"{self.vp} ({self.full}−{self.cut})" if self.cut else str(self.vp)

    def short_label(self) -> str:
        """The VP alone ('4'), '–' under the minimum energy."""
        return str(self.vp) if self.eligible else "–"


def bonus_now(state: GameState) -> dict[str, BonusNow]:
    """What each company would score from this round's bonus tile now (the engine's own
    count: `bot.rules.flow.bonus_reward`)."""
    if not state.companies or not 0 < state.round <= len(state.bonus_tiles):
        return {}
    from bot.rules.catalogue import open_game
    from bot.rules.flow import bonus_count, bonus_reward

    game = open_game(state, catalogue=catalogue())
    track = game.content.energy_track
    tile = state.bonus_tiles[state.round - 1]
    each = game.content.bonus_tiles[tile].vp_each
    out = {}
    for cid, company in state.companies.items():
        energy = min(company.energy, TRACK_CELLS - 1)
        vp, _how = bonus_reward(game, cid, tile)
        if energy < track.bonus_min_energy:
            out[cid] = BonusNow(vp, 0, 0, False)
            continue
        reached = sum(1 for start in track.bonus_section_min_energy if energy >= start)
        behind = max(0, state.round - reached)
        full = bonus_count(game, cid, tile) * each
        out[cid] = BonusNow(vp, full, track.malus_per_section * behind, True)
    return out


#: Pixels between one company's "bonus now" label and the next company's piece.
BONUS_GAP = 22


def _bonus_labels(scores: list[BonusNow], size: int, room: int) -> list[str]:
    """Each company's "bonus now" label as it fits the heading's row: with how the reward is
    reduced ('4 (12−8)') when every label fits, else the VP alone (the rules line beside the
    track says what a section behind costs)."""
    for labels in ([s.label() for s in scores], [s.short_label() for s in scores]):
        used = sum(44 + int(d.text_width(label, size, "bold")) + BONUS_GAP for label in labels)
        if used - BONUS_GAP <= room:
            break
    return labels


def _energy(draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme) -> None:
    """The heading with this round's bonus as each company would score it now, the sections
    (this round's marked) and every marker with its count."""
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    rect = layout.rects["energy_track"]
    track = content().energy_track
    x, y = layout.points["energy_heading"]
    heading = "Energy track"
    # Texts on the panel say so (`draw.text`'s ``on``: blended and mapped once).
    panel = theme.colour("panel")
    d.text(draw, (x, y), heading, sizes["heading"], text, anchor="la", on=panel)
    cy = y + sizes["heading"] // 2 + 4
    x += int(d.text_width(heading, sizes["heading"], "bold")) + 26
    scores = bonus_now(state)
    if scores:
        d.text(draw, (x, cy), "bonus now:", sizes["small"], muted, "regular", "lm")
        x += int(d.text_width("bonus now:", sizes["small"])) + 12
        shown = [cid for cid in state.turn_order if cid in scores]
        labels = _bonus_labels([scores[cid] for cid in shown], sizes["small"], rect[2] - x)
        for cid, label in zip(shown, labels, strict=True):
            d.piece(draw, (x + 20, cy), 19, theme.company(cid), sizes["small"])
            d.text(draw, (x + 44, cy), label, sizes["small"], text, "bold", "lm")
            x += 44 + int(d.text_width(label, sizes["small"], "bold")) + BONUS_GAP
    # The sections: no bonus below the first; this round's in the highlight colour.
    starts = track.bonus_section_min_energy
    _x0, y0, _x1, y1 = rect
    for energy in range(TRACK_CELLS):
        section = sum(1 for s in starts if energy >= s)
        if section == 0:
            fill = theme.colour("unused")
        elif section == state.round and not state.finished:
            fill = theme.colour("highlight")
        else:
            fill = theme.colour("track mark" if section % 2 else "track")
        left, right = _cell(rect, energy)
        draw.rectangle((round(left), y0, round(right) - 2, y1), fill=fill)
    _markers(draw, layout, state, theme)


def _markers(
    draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme
) -> None:
    """Each company's marker above its cell with its count; markers that would overlap go on
    the next row up, and a line joins each to its cell."""
    sizes = theme.views["shared"].text
    rect = layout.rects["energy_track"]
    area = layout.rects["energy_markers"]
    rows: list[list[tuple[float, float]]] = []
    placed = []
    for company in sorted(state.companies.values(), key=lambda c: (c.energy, c.seat)):
        cx = _centre(rect, company.energy)
        w = 56 + d.text_width(str(company.energy), sizes["small"], "bold")
        span = (cx - 24, cx - 24 + w)
        row = next(
            (
                i
                for i, spans in enumerate(rows)
                if all(span[0] > b + 6 or span[1] < a - 6 for a, b in spans)
            ),
            len(rows),
        )
        if row == len(rows):
            rows.append([])
        rows[row].append(span)
        placed.append((company, cx, row))
    for company, cx, row in placed:
        cy = area[3] - 22 - row * MARKER_STEP
        style = theme.company(company.id)
        draw.line((cx, cy, cx, rect[1]), fill=theme.colour("text"), width=2)
    for company, cx, row in placed:
        cy = area[3] - 22 - row * MARKER_STEP
        style = theme.company(company.id)
        d.marker(draw, (round(cx), cy), style, company.energy, sizes["small"], theme.colour("text"))


def _bonus(draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme) -> None:
    """The five round bonus tiles (this round's marked) and the objective tile."""
    sizes = theme.views["shared"].text
    c = content(state.options.expansions)
    starts = c.energy_track.bonus_section_min_energy
    for i, (rect, tile_id) in enumerate(
        zip(layout.lists["bonus_tiles"], state.bonus_tiles, strict=False)
    ):
        rnd = i + 1
        current = rnd == state.round and not state.finished
        past = rnd < state.round or state.finished
        start = starts[i] if i < len(starts) else 0
        tile = c.bonus_tiles.get(tile_id)
        paint = functools.partial(
            _paint_bonus, rnd=rnd, start=start, tile=tile, current=current, past=past, theme=theme
        )
        key = ("bonus", rnd, start, tile, current, past, theme.name)
        d.item(draw, key, rect, paint)
    x0, y0, x1, y1 = layout.rects["objective"]
    objective = c.objective_tiles.get(state.objective)
    vp = "/".join(str(v) for v in c.objective_vp_by_place)
    name = objective.name if objective else "none"
    forms = (f"Objective ({vp} VP at the end): {name}", f"Objective ({vp} VP): {name}")
    line = d.first_fitting(forms, sizes["small"], x1 - x0, "bold")
    # On the energy panel (the draft's rows reach under it: `_draft` stamps its box).
    on = None if draft_state(state) else theme.colour("panel")
    d.text(
        draw, (x0, (y0 + y1) // 2), line, sizes["small"], theme.colour("text"), "bold", "lm", on=on
    )


def _paint_bonus(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    *,
    rnd: int,
    start: int,
    tile: Any,
    current: bool,
    past: bool,
    theme: Theme,
) -> None:
    """A round's bonus tile: the round, where its section starts, the tile's name and VP."""
    sizes = theme.views["shared"].text
    fill = theme.colour("highlight") if current else theme.colour("panel")
    ink = "#1b1b1b" if current else theme.colour("text muted" if past else "text")
    outline = theme.colour("text") if current else theme.colour("panel outline")
    d.box(draw, rect, fill, outline, 4 if current else 2)
    x0, y0, x1, y1 = rect
    cx = (x0 + x1) // 2
    # Its round and VP are on the box's fill (`draw.text`'s ``on``: pasted, blended once).
    d.text(draw, (cx, y0 + 24), f"R{rnd} · {start}+⚡", sizes["label"], ink, on=fill)
    lines = d.wrap(tile.name if tile else "", sizes["small"], x1 - x0 - 12)
    for j, line in enumerate(lines[:2]):
        # (a wrapped name may reach the box's outline: blended over what is there)
        d.text(draw, (cx, y0 + 64 + j * 36), line, sizes["small"], ink, "regular")
    each = f"{tile.vp_each} VP each" if tile else ""
    d.text(draw, (cx, y1 - 20), each, sizes["small"], ink, "bold", on=fill)


def _contract_box(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    contract_id: int | None,
    level: str,
    theme: Theme,
    lit: bool,
    expansions: tuple[str, ...] = (),
) -> None:
    paint = functools.partial(
        _paint_contract, contract_id=contract_id, level=level, theme=theme, expansions=expansions
    )
    # A contract's box is the same in every game that offers it: drawn once (`draw.item`).
    d.item(draw, ("contract", contract_id, level, theme.name, expansions), rect, paint)
    if lit and contract_id is not None:
        d.ring(draw, rect, theme.colour("highlight"), theme.colour("text"), width=5)


def _paint_contract(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    *,
    contract_id: int | None,
    level: str,
    theme: Theme,
    expansions: tuple[str, ...],
) -> None:
    """A contract's box: its level's colour, its id, energy and reward ("empty" without one)."""
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
            on=theme.colour("unused"),
        )
        return
    contract = content(expansions).contracts.get(contract_id)
    d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"), 2)
    draw.rectangle((x0 + 3, y0 + 3, x0 + 16, y1 - 3), fill=theme.colour(f"contract {level}"))
    energy = f" · {contract.energy}⚡" if contract else ""
    # Its texts are on the box's fill (`draw.text`'s ``on``: pasted, each blended once).
    panel = theme.colour("panel")
    d.text(
        draw,
        (x0 + 26, y0 + 24),
        f"{contract_id}{energy}",
        sizes["label"],
        theme.colour("text"),
        anchor="lm",
        on=panel,
    )
    if contract:
        reward = reward_text(contract.reward)
        lines = d.wrap(reward, sizes["small"], x1 - x0 - 36)
        if len(lines) > 1:
            # Two lines of reward: the second beside the id when it fits there.
            head = f"{contract_id}{energy}"
            room = x1 - x0 - 36 - d.text_width(head, sizes["label"], "bold") - 16
            if d.fits(lines[0], sizes["small"], int(room)):
                d.text(
                    draw,
                    (x1 - 10, y0 + 24),
                    lines[0],
                    sizes["small"],
                    theme.colour("text"),
                    "regular",
                    "rm",
                    on=panel,
                )
                lines = (" ".join(lines[1:]),)
        d.text(
            draw,
            (x0 + 26, y0 + 66),
            " ".join(lines),
            sizes["small"],
            theme.colour("text"),
            "regular",
            "lm",
            on=panel,
        )


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


def _patents(
    draw: ImageDraw.ImageDraw,
    layout: BoardLayout,
    state: GameState,
    theme: Theme,
    highlight: Collection[str],
) -> None:
    """The Patent Office rows: the advanced tile in each slot, by name."""
    sizes = theme.views["shared"].text
    c = content(state.options.expansions)
    lit = {str(h) for h in highlight}
    for space in c.management_spaces:
        if space.section != "patent_office" or space.row not in layout.rows:
            continue
        slot = space.effect.get("take_advanced_tile_slot", 0)
        at = layout.rows[space.row]
        if not state.patent_offer:
            d.text(draw, at, "—", sizes["label"], theme.colour("text muted"), "regular", "lm")
            continue
        tile = state.patent_offer[slot - 1] if 0 < slot <= len(state.patent_offer) else None
        name = c.tiles[tile].name if tile in c.tiles else "empty"
        room = layout.spaces[space.id][0] - at[0] - 8 if space.id in layout.spaces else 10**4
        name, weight = _fitting_tile_name(name, sizes["label"], room)
        ink = theme.colour("text")
        d.text(draw, at, name, sizes["label"], ink, weight, "lm", on=theme.colour("panel"))
        if tile and tile in lit and space.id in layout.spaces:
            d.ring(
                draw,
                layout.spaces[space.id],
                theme.colour("highlight"),
                theme.colour("text"),
                width=5,
            )


#: Short forms of tile names too wide for the Patent Office's row names (the legend says them).
TILE_SHORT_WORDS = {
    "Powerhouse": "PH",
    "Elevation": "Elev.",
    "Building": "Bldg.",
    "Conduit": "Cond.",
}


def _fitting_tile_name(name: str, size: int, room: int) -> tuple[str, Weight]:
    """A tile's name as it fits ``room`` pixels: bold, else regular, else in short form."""
    for weight in ("bold", "regular"):
        if d.fits(name, size, room, weight):
            return name, weight
    for word, short in TILE_SHORT_WORDS.items():
        name = name.replace(word, short)
    return name, "regular"


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
    """Draw the draft over the energy panel: the boards with their officers, the contracts."""
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    c = content(state.options.expansions)
    draft = state.extra["draft"]
    picks = draft.get("picks", [])
    order = draft.get("order", [])
    picker = order[len(picks)] if len(picks) < len(order) else None
    lit = {h.lower() for h in highlight}
    rect = layout.rects["draft"]
    # A stamp, however large: a text over it is then drawn on the palette (over a shape it
    # is not), and the draft shows one box for many pictures.
    d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"), stamped=True)
    rx0, ry0, rx1, _ = rect
    from bot.rules.content import company_name

    heading = f"Draft: {company_name(seat_player(picker))} picks" if picker is not None else "Draft"
    # Texts on the panel and in the rows' boxes say so (`draw.text`'s ``on``): the panel is
    # too large a box to be a stamp, and a text over a shape is not drawn on the palette.
    panel = theme.colour("panel")
    d.text(draw, (rx0 + 12, ry0 + 10), heading, sizes["heading"], text, anchor="la", on=panel)
    spares = [c.officers[o].name for o in state.extra.get("spare_officers", []) if o in c.officers]
    if spares:
        spare = "Mahiri may also copy " + ", ".join(spares)
        if d.fits(
            spare,
            sizes["small"],
            rx1 - rx0 - 24 - int(d.text_width(heading, sizes["heading"], "bold")),
        ):
            at = (rx1 - 12, ry0 + 16)
            d.text(draw, at, spare, sizes["small"], muted, "regular", "ra", on=panel)
    for box, (board, officer) in zip(
        layout.lists["draft_pairs"], draft.get("pairs", []), strict=False
    ):
        name = c.officers[officer].name if officer in c.officers else officer
        _offer_row(
            draw, box, f"pick {board}", f"{company_name(board)} with {name}", board, theme, lit
        )
    for box, contract_id in zip(
        layout.lists["draft_starting"], draft.get("starting", []), strict=False
    ):
        contract = c.contracts.get(contract_id)
        terms = f"{contract.energy}⚡ → {reward_text(contract.reward)}" if contract else ""
        _offer_row(
            draw, box, f"start {contract_id}", f"contract {contract_id}: {terms}", None, theme, lit
        )


def _offer_row(
    draw: ImageDraw.ImageDraw,
    box: Rect,
    notation: str,
    detail: str,
    company: str | None,
    theme: Theme,
    lit: Collection[str],
) -> None:
    """Draw one draft choice: the company's piece and what it brings."""
    sizes = theme.views["shared"].text
    text = theme.colour("text")
    bx0, by0, _bx1, by1 = box
    by = (by0 + by1) // 2
    d.box(draw, box, theme.colour("basin"), theme.colour("panel outline"), 2)
    x = bx0 + 12
    if company:
        d.piece(draw, (bx0 + 30, by), 20, theme.company(company), sizes["small"])
        x = bx0 + 60
    d.text(draw, (x, by), detail, sizes["small"], text, "regular", "lm", on=theme.colour("basin"))
    if notation in lit:
        d.ring(draw, box, theme.colour("highlight"), text, width=5)


def _occupants(
    draw: ImageDraw.ImageDraw, layout: BoardLayout, state: GameState, theme: Theme
) -> None:
    for space_id, placements in state.spaces.items():
        rect = layout.spaces.get(space_id)
        if rect is None or not placements:
            continue
        x0, y0, x1, y1 = rect
        # An exclusive space holds one company; the Bank fills from its left.
        x = x1 - 100 if len(placements) == 1 and x1 - x0 < 400 else x0 + 12
        for company_id, engineers in placements:
            paint = functools.partial(_paint_occupant, engineers=engineers, theme=theme)
            rect = (x - 6, y0 + 3, x + 92, y1 - 3)
            # The box and count are the same at every place; the piece, whose corners round
            # where they fall, is drawn over them apart (their inks never meet).
            d.item(draw, ("occupant", engineers, theme.name), rect, paint)
            style = theme.company(company_id)
            d.piece(draw, (x + 20, (y0 + y1) // 2), 19, style, theme.views["shared"].text["small"])
            x += 104


def _paint_occupant(draw: ImageDraw.ImageDraw, rect: Rect, *, engineers: int, theme: Theme) -> None:
    """A company's box on a management space with the engineers it placed, e.g. ×2 (its
    piece is drawn over it apart: `_occupants`)."""
    sizes = theme.views["shared"].text
    x0, y0, _x1, y1 = rect
    x, cy = x0 + 6, (y0 - 3 + y1 + 3) // 2
    d.box(draw, rect, theme.colour("space"), theme.colour("space"), 1, 6)
    d.text(
        draw, (x + 44, cy), f"×{engineers}", sizes["small"], theme.colour("space text"), anchor="lm"
    )
