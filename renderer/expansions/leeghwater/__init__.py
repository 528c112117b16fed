"""The Leeghwater Project in pictures: the Extra Management board and the board extension.

The Extra Management board is a view of its own ("works", layout `leeghwater_works.toml`);
the board extension is appended below each company view (`leeghwater_company.toml`, whose
height replaces the base one).
The engine's state is `state.extra["leeghwater"]` (bot/rules/expansions/leeghwater/board.py):
the three face-up External Works by slot, the piles, the five Private Buildings in drawn order
and the four building spaces beside each (None, "blocked" or a company). Engineers on the
expansion's spaces are in `state.spaces`: `external_work_1`..`_3`, `building_<tile>` (in order:
the first took the left space, the others the right ones) and `margot` (Margot Fouché's tile).
Every selectable thing carries the id its notation uses: `external_work_2`, `loan B4` (the
work's id), `building cofferdam_2` (the building space), `use cofferdam` (the tile).
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.expansions.leeghwater import tables
from bot.rules.state import Company, GameOptions, GameState
from renderer import draw as d
from renderer.content import content
from renderer.expansions.drawing import Drawing
from renderer.layout import Rect, board_layout
from renderer.theme import Theme, get_theme
from renderer.words import reward_text

KEY = "leeghwater"
BLOCKED = "blocked"
WORKS = "leeghwater_works"
COMPANY = "leeghwater_company"
ARCHITECT_OFFICER = "tommaso_battista"
LESLIE = "leslie_spencer"
LESLIE_TILE = "leslie_tile"
MARGOT = "margot_fouche"
MARGOT_SPACE = "margot"

# Each Private Building's action in a few words (the tiles' `action_text` is a sentence);
# credits before the colon are the action's own price, paid besides a right space's.
ACTIONS = {
    "cofferdam": "1 drop into a dam",
    "control_station": "produce +3",
    "customer_office": "3c: fulfil a contract",
    "development_office": "a tile back from the wheel",
    "energy_relay_field": "1c: +4⚡",
    "financial_division": "+5c",
    "heliport": "2c: a C settlement's bonus",
    "pumping_station": "irrigate from any dam",
    "loan_agency": "a work for 2c/mach.",
    "research_lab": "½ a segment's mach. back",
    "robot_factory": "1c: 2 mach.",
    "wind_farm": "2c: produce 5⚡",
}


def active(options: GameOptions) -> bool:
    """True when the game plays The Leeghwater Project."""
    return KEY in options.expansions


def key_entries(view: str) -> tuple[tuple[str, str], ...]:
    """Its symbols in the compact key of its own view."""
    if view == "works":
        return (
            ("A3", "External Work: cost → reward"),
            ("piles", "Works left in piles A-C"),
            ("space 1", "Private Building's space"),
            ("use", "its action spaces"),
            ("piece", "company"),
        )
    return ()


def legend_sections() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Its sections of the legend picture."""
    return (
        (
            "The Leeghwater Project",
            (
                ("A3", "External Work A3: its cost → its reward"),
                ("piles", "External Works left in piles A, B and C"),
                ("space 1", "a Private Building's space (the first blocked in small games)"),
                ("use", "the Building's action spaces, left and right"),
                ("Building", "a Building piece on the wheel or in supply"),
            ),
        ),
    )


def scoreboard_columns() -> tuple[tuple[str, str, Any], ...]:
    """Its column of the scoreboard: the Buildings each company has built of its five pieces
    (rulebook, Components: "5 Buildings" per company; Private Buildings: "Each player can
    build up to 5 Buildings"). Fulfilled External Works are face down in the company's supply
    and shown on its board extension; the shared view's key has no room for a second column."""
    return (("bld", "Buildings", lambda s, c: s.companies[c].placed.get("building", 0)),)


#: Its own view: the Extra Management board (key: title).
VIEWS = {"works": "Extra management board"}


def view_layout(view: str) -> str | None:
    """The board layout of the company view with the board extension below."""
    return {"company": COMPANY}.get(view)


def _board(state: GameState) -> dict[str, Any]:
    return state.extra.get(KEY) or {}


def _extend(image: Image.Image, name: str, theme: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """Return ``image`` on a canvas as tall as layout ``name``, and a drawing context on it."""
    layout = board_layout(name)
    out = Image.new("RGB", (layout.width, layout.height), theme.colour("background"))
    out.paste(image, (0, 0))
    return out, ImageDraw.Draw(out)


def machinery(cost: dict[str, int] | Any) -> str:
    """Return a machinery cost in short: "2 exc 1 mix"."""
    parts = []
    if cost.get("excavators"):
        parts.append(f"{cost['excavators']} exc")
    if cost.get("mixers"):
        parts.append(f"{cost['mixers']} mix")
    return " ".join(parts) or "free"


def work_text(work_id: str, expansions: tuple[str, ...] = ()) -> str:
    """Return an External Work's cost and reward in short: "4 exc → 4VP 2drop rot2"."""
    work = tables.WORKS.of(content(expansions)).get(work_id)
    if work is None:
        return ""
    return f"{machinery(work.cost)} → {reward_text(work.reward)}"


def action_text(tile: str, expansions: tuple[str, ...] = ()) -> str:
    """Return a Private Building's action in a few words."""
    if tile in ACTIONS:
        return ACTIONS[tile]
    building = tables.BUILDINGS.of(content(expansions)).get(tile)
    return reward_text(building.action_effect) if building else ""


# -- its own view: the Extra Management board ---------------------------------------------------


@functools.lru_cache(maxsize=8)
def view_background(view: str, theme_name: str) -> Image.Image:
    """The static part of the Extra Management board (callers ``copy()`` it)."""
    theme = get_theme(theme_name)
    layout = board_layout(WORKS)
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    image = Image.new("RGB", (layout.width, layout.height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    d.box(draw, layout.rects["extra"], theme.colour("panel"), theme.colour("panel outline"))
    d.text(draw, layout.points["title"], "External Works", sizes["heading"], text, anchor="la")
    heading = "Private Buildings: build on a space, then use"
    d.text(draw, layout.points["buildings"], heading, sizes["heading"], text, anchor="la")
    for space in tables.WORK_SPACES.of(content()).values():
        rect = layout.spaces.get(space.id)
        if rect is None:
            continue
        x0, y0, _x1, y1 = rect
        d.box(draw, rect, theme.colour("space"), theme.colour("panel outline"), 2)
        _pips(draw, x0, (y0 + y1) // 2, space.engineers, theme.colour("space text"))
    # The frames of the five Building rows: the game draws five Buildings at setup, so only
    # what is on them changes (drawn by ``draw_view``).
    actions = layout.lists["building_actions"]
    for slot, (x0, y0, x1, _y1) in enumerate(layout.lists["building_headers"]):
        if slot:
            draw.line((x0, y0 - 6, x1, y0 - 6), fill=theme.colour("panel outline"), width=2)
        row = actions[slot * 4 : slot * 4 + 4]
        ay = (row[0][1] + row[0][3]) // 2
        d.text(draw, (x0, ay), "use", sizes["label"], muted, anchor="lm")
        for rect in row:
            d.box(draw, rect, theme.colour("space"), theme.colour("panel outline"), 2)
    return image


def _pips(draw: ImageDraw.ImageDraw, x0: int, cy: int, engineers: int, ink: str) -> None:
    """Engineers needed as pips, as on the board."""
    for i in range(engineers):
        px = x0 + 16 + i * 17
        draw.ellipse((px - 6, cy - 6, px + 6, cy + 6), fill=ink)


def _occupant(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], company_id: str, engineers: int, theme: Theme
) -> None:
    """A company's piece with the engineers it placed, e.g. (I) ×2."""
    size = theme.views["shared"].text["small"]
    d.piece(draw, at, 19, theme.company(company_id), size)
    d.text(
        draw,
        (at[0] + 26, at[1]),
        f"×{engineers}",
        size,
        theme.colour("space text"),
        anchor="lm",
        on=theme.colour("space"),
    )


def draw_view(
    view: str,
    state: GameState,
    theme: Theme,
    highlight: Collection[str] = (),
    dirty: list[Rect] | None = None,
) -> Image.Image:
    """The Extra Management board of ``state``: works on offer, Buildings and who is where."""
    image, draw = d.over(view_background(view, theme.name), dirty)
    layout = board_layout(WORKS)
    board = _board(state)
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    lit = {str(h) for h in highlight}
    piles = board.get("work_piles", {})
    left = " · ".join(f"{p} {len(piles.get(p, []))}" for p in ("A", "B", "C"))
    piles_text = f"piles: {left}"
    panel = theme.colour("panel")
    d.text(
        draw, layout.points["piles"], piles_text, sizes["small"], muted, "regular", "ra", on=panel
    )

    works = board.get("works", [])
    expansions = state.options.expansions
    for slot, rect in enumerate(layout.lists["work_tiles"], start=1):
        work = works[slot - 1] if slot - 1 < len(works) else None
        paint = functools.partial(_paint_work, work=work, theme=theme, expansions=expansions)
        d.item(draw, ("work", work, theme.name, expansions), rect, paint)
        if work is not None and work in lit:
            d.ring(draw, rect, theme.colour("highlight"), text, width=5)
    for space_id, rect in layout.spaces.items():
        placements = state.spaces.get(space_id, [])
        _x0, y0, x1, y1 = rect
        for k, (company_id, engineers) in enumerate(placements):
            _occupant(draw, (x1 - 80 - 96 * k, (y0 + y1) // 2), company_id, engineers, theme)
        if space_id in lit:
            d.ring(draw, rect, theme.colour("highlight"), text, width=5)

    spaces = board.get("building_spaces", {})
    for slot, tile in enumerate(
        board.get("buildings", [])[: len(layout.lists["building_headers"])]
    ):
        _building(draw, layout, slot, tile, spaces.get(tile, []), state, theme, lit)
    return image


def steady_view(
    view: str, state: GameState, theme: Theme, dirty: list[Rect] | None = None
) -> Image.Image:
    """What the works view shows the same all game: each Private Building's name, VP, cost
    and action (`_building_header`)."""
    image, draw = d.over(view_background(view, theme.name), dirty)
    layout = board_layout(WORKS)
    buildings = tables.BUILDINGS.of(content(state.options.expansions))
    for slot, tile in enumerate(map(str, steady_key(view, state))):
        _building_header(draw, layout, slot, tile, buildings.get(tile), state, theme)
    return image


def steady_key(view: str, state: GameState) -> tuple[object, ...]:
    """The Private Buildings the works view shows (set up with the game, kept all game)."""
    layout = board_layout(WORKS)
    return tuple(_board(state).get("buildings", [])[: len(layout.lists["building_headers"])])


def _paint_work(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    *,
    work: str | None,
    theme: Theme,
    expansions: tuple[str, ...],
) -> None:
    """An External Work on offer: its id, cost and reward ("taken this round" without one)."""
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    x0, y0, x1, y1 = rect
    if work is None:
        d.box(draw, rect, theme.colour("unused"), theme.colour("panel outline"), 2)
        cy = (y0 + y1) // 2
        d.text(draw, (x0 + 14, cy), "taken this round", sizes["small"], muted, "regular", "lm")
        return
    d.box(draw, rect, theme.colour("basin"), theme.colour("panel outline"), 2)
    d.text(draw, (x0 + 14, y0 + 26), work, sizes["label"], text, anchor="lm")
    tx = x0 + 28 + int(d.text_width(work, sizes["label"], "bold"))
    lines = d.wrap(work_text(work, expansions), sizes["small"], x1 - tx - 12)
    for j, line in enumerate(lines):
        d.text(draw, (tx, y0 + 26 + j * 40), line, sizes["small"], text, "regular", "lm")


def _building(
    draw: ImageDraw.ImageDraw,
    layout: Any,
    slot: int,
    tile: str,
    row: list[str | None],
    state: GameState,
    theme: Theme,
    lit: Collection[str],
) -> None:
    """One Private Building: its name, VP, cost and action, building spaces and action spaces."""
    c = content(state.options.expansions)
    sizes = theme.views["shared"].text
    text = theme.colour("text")
    building = tables.BUILDINGS.of(c).get(tile)
    space_fill = theme.colour("space")
    _building_header(draw, layout, slot, tile, building, state, theme)

    for index, rect in enumerate(layout.lists["building_spaces"][slot * 4 : slot * 4 + 4]):
        who = row[index] if index < len(row) else BLOCKED
        space = tables.BUILDING_SPACES.of(c).get(index)
        paint = functools.partial(
            _paint_building_space, index=index, who=who, space=space, theme=theme
        )
        key = ("building space", index, who, space, theme.name)
        d.item(draw, key, rect, paint, placed=who is not None)
        if who != BLOCKED and f"{tile}_{index}" in lit:
            d.ring(draw, rect, theme.colour("highlight"), text, width=5)

    actions = layout.lists["building_actions"][slot * 4 : slot * 4 + 4]
    ay = (actions[0][1] + actions[0][3]) // 2
    placements = state.spaces.get(f"building_{tile}", [])
    printed = building.action_spaces if building else ()
    # The boxes and the "use" label are in the background (``view_background``).
    for k, rect in enumerate(actions):
        ax0, _, ax1, _ = rect
        action_space = printed[k] if k < len(printed) else None
        engineers = action_space.engineers if action_space else 0
        ink = theme.colour("space text")
        _pips(draw, ax0, ay, engineers, ink)
        side = "left" if k == 0 else "right"
        d.text(
            draw,
            (ax0 + 18 + max(engineers, 1) * 17, ay),
            side,
            sizes["small"],
            ink,
            "regular",
            "lm",
            on=space_fill,
        )
        if k < len(placements):
            company_id, placed = placements[k]
            _occupant(draw, (ax1 - 80, ay), company_id, placed, theme)
        elif action_space and action_space.extra_credits:
            cost = f"+{action_space.extra_credits}c"
            d.text(draw, (ax1 - 10, ay), cost, sizes["small"], ink, "regular", "rm", on=space_fill)
    if tile in lit and len(placements) < len(actions):
        d.ring(draw, actions[len(placements)], theme.colour("highlight"), text, width=5)


def _building_header(
    draw: ImageDraw.ImageDraw,
    layout: Any,
    slot: int,
    tile: str,
    building: Any,
    state: GameState,
    theme: Theme,
) -> None:
    """A Private Building's name, VP, cost and action (``building``: its table row, None if
    unknown), above its spaces."""
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    x0, y0, _x1, _y1 = layout.lists["building_headers"][slot]
    name = building.name if building else tile
    # Texts on the board's panel say so (`draw.text`'s ``on``).
    panel = theme.colour("panel")
    d.text(draw, (x0, y0 + 20), name, sizes["label"], text, anchor="lm", on=panel)
    if building is not None:
        tx = x0 + 16 + int(d.text_width(name, sizes["label"], "bold"))
        terms = f"{building.vp} VP · cost {machinery(building.cost)}"
        d.text(draw, (tx, y0 + 20), terms, sizes["small"], text, "regular", "lm", on=panel)
        action = f"action: {action_text(tile, state.options.expansions)}"
        d.text(draw, (x0, y0 + 60), action, sizes["small"], muted, "regular", "lm", on=panel)


def _paint_building_space(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    *,
    index: int,
    who: str | None,
    space: Any,
    theme: Theme,
) -> None:
    """A Building's space: blocked, free (with its extra cost) or built (the owner's piece)."""
    sizes = theme.views["shared"].text
    muted = theme.colour("text muted")
    red = bool(space and space.red_outline)
    sx0, sy0, sx1, sy1 = rect
    sy = (sy0 + sy1) // 2
    label = f"space {index + 1}"
    outline = theme.colour("red outline" if red else "panel outline")
    if who == BLOCKED:
        d.box(draw, rect, theme.colour("unused"), outline, 4 if red else 2)
        d.text(draw, ((sx0 + sx1) // 2, sy), "blocked", sizes["small"], muted, "regular")
        return
    d.box(draw, rect, theme.colour("space"), outline, 4 if red else 2)
    ink = theme.colour("space text")
    if who is not None:
        # A built Building: the owner's piece (colour and letter) on the space.
        d.piece(draw, (sx0 + 30, sy), 19, theme.company(who), sizes["small"])
        d.text(draw, (sx0 + 58, sy), label, sizes["small"], ink, "regular", "lm")
    else:
        d.text(draw, (sx0 + 14, sy), label, sizes["small"], ink, "regular", "lm")
        if space and space.extra_credits:
            cost = f"+{space.extra_credits}c"
            d.text(draw, (sx1 - 10, sy), cost, sizes["small"], ink, "regular", "rm")


# -- the company view: the board extension ------------------------------------------------------


def company_static(base: Image.Image, company_id: str, theme_name: str) -> Image.Image:
    """Return a company board's background with its extension: the Building row's pieces."""
    theme = get_theme(theme_name)
    layout = board_layout(COMPANY)
    sizes = theme.views["company"].text
    text = theme.colour("text")
    style = theme.company(company_id)
    image, draw = _extend(base, COMPANY, theme)
    d.box(draw, layout.rects["extension"], theme.colour("panel"), theme.colour("panel outline"))
    x0, y0 = layout.points["title"]
    d.text(draw, (x0, y0), "Private Buildings", sizes["heading"], text, anchor="la")
    at = layout.points["row_building"]
    d.text(draw, (at[0], at[1] - 14), "building", sizes["label"], text, anchor="lm")
    for rect in layout.lists["cells_building"]:
        d.box(draw, rect, style.fill, style.outline, 3)
    return image


def company_key(state: GameState, company_id: str) -> tuple[object, ...]:
    """Return what the extension reads of ``state`` beyond the company itself."""
    if not active(state.options):
        return ()
    return _buildings_of(state, company_id)


def _buildings_of(
    state: GameState, company_id: str
) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...], tuple[str, ...]]:
    """The company's Buildings (tile, slot), the tiles it used this round, Margot's users."""
    board = _board(state)
    built = tuple(
        (tile, row.index(company_id))
        for tile, row in board.get("building_spaces", {}).items()
        if company_id in row
    )
    used = tuple(
        tile
        for tile, _ in built
        if any(who == company_id for who, _n in state.spaces.get(f"building_{tile}", []))
    )
    margot = tuple(str(who) for who, _n in state.spaces.get(MARGOT_SPACE, []))
    return (built, used, margot)


def draw_company(
    draw: ImageDraw.ImageDraw,
    state: GameState,
    company: Company,
    theme: Theme,
    highlight: Collection[str] = (),
) -> None:
    """Draw the extension of ``company``: Buildings built and where, works, special pieces."""
    layout = board_layout(COMPANY)
    sizes = theme.views["company"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    lit = {str(h) for h in highlight}
    total = len(layout.lists["cells_building"])
    placed = company.placed.get("building", 0)
    at = layout.points["row_building"]
    left = f"{total - placed} left"
    panel = theme.colour("panel")
    d.text(draw, (at[0], at[1] + 14), left, sizes["small"], muted, "regular", "lm", on=panel)
    for rect in layout.lists["cells_building"][:placed]:
        d.box(draw, rect, theme.colour("unused"), theme.colour("panel outline"), 2)
    if "build" in lit and placed < total:
        d.ring(
            draw, layout.lists["cells_building"][placed], theme.colour("highlight"), text, width=4
        )

    built, used, _margot = _buildings_of(state, company.id)
    c = content(state.options.expansions)
    for rect, (tile, _index) in zip(layout.lists["cells_building"], built, strict=False):
        # Each built cell names its Building (its place on the board is in the works view).
        x0, y0, x1, y1 = rect
        name = tables.BUILDINGS.of(c)[tile].name if tile in tables.BUILDINGS.of(c) else tile
        lines = d.wrap(name, sizes["small"], x1 - x0 - 8)
        step = sizes["small"] + 2
        first = (y0 + y1) // 2 - (len(lines) - 1) * step // 2
        ink = theme.colour("active") if tile in used else text
        for j, line in enumerate(lines):
            d.text(draw, ((x0 + x1) // 2, first + j * step), line, sizes["small"], ink, "bold")
    works = company.extra.get("external_works", [])
    done = f"Works done ({len(works)}): " + (" ".join(works) if works else "none")
    wx, wy = layout.points["works"]  # right of the title
    d.text(draw, (wx, wy), done, sizes["small"], text, "regular", "rm", on=panel)
    _special(draw, layout.rects["special"], state, company, theme, lit)


def _special(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    state: GameState,
    company: Company,
    theme: Theme,
    lit: Collection[str],
) -> None:
    """The officer's special piece: the Architect, Leslie's tile, or Margot's action space."""
    sizes = theme.views["company"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    x0, y0, x1, y1 = rect
    cy = (y0 + y1) // 2
    copied = company.extra.get("copied_officer")
    if company.officer == ARCHITECT_OFFICER:
        where = (
            "on a space until the round ends"
            if company.extra.get("architect_out")
            else "in the supply (1 of the engineers)"
        )
        line = f"Architect: {where}"
    elif company.officer == LESLIE:
        line = f"Leslie's tile: {_leslie_place(company)}"
    elif company.officer == MARGOT:
        d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"), 2)
        draw.ellipse((x0 + 10, cy - 7, x0 + 24, cy + 7), fill=text)
        name = "Margot's tile"
        panel = theme.colour("panel")
        d.text(draw, (x0 + 34, cy), name, sizes["label"], text, "regular", "lm", on=panel)
        tx = x0 + 48 + int(d.text_width(name, sizes["label"]))
        hint = "an activated Building's action"
        d.text(draw, (tx, cy), hint, sizes["small"], muted, "regular", "lm", on=panel)
        for who, _n in state.spaces.get(MARGOT_SPACE, []):
            d.piece(draw, (x1 - 30, cy), 20, theme.company(str(who)), sizes["small"])
        if MARGOT_SPACE in lit:
            d.ring(draw, rect, theme.colour("highlight"), text, width=4)
        return
    elif copied:
        officer = content().officers.get(copied)
        line = f"Mahiri copies {officer.name if officer else copied} this turn"
    else:
        none = "No officer piece"
        d.text(
            draw, (x0, cy), none, sizes["small"], muted, "regular", "lm", on=theme.colour("panel")
        )
        return
    d.text(draw, (x0, cy), line, sizes["small"], text, "regular", "lm", on=theme.colour("panel"))


def _leslie_place(company: Company) -> str:
    """Where Leslie's tile is: in the supply, or on the wheel and when it comes back."""
    if LESLIE_TILE in company.tiles:
        return "in the supply (works may go on the wheel)"
    for k in range(len(company.wheel)):
        segment = company.wheel[(company.wheel_open + k) % len(company.wheel)]
        if LESLIE_TILE in segment.tiles:
            return f"on the wheel, back in {k} turn" + ("" if k == 1 else "s")
    return "not in the supply"


def describe_lines(state: GameState) -> list[str]:
    """Return the Extra Management board in words, for ``describe``."""
    if not active(state.options):
        return []
    board = _board(state)
    works = [
        f"{slot} {work} ({work_text(work, state.options.expansions)})" if work else f"{slot} taken"
        for slot, work in enumerate(board.get("works", []), start=1)
    ]
    lines = ["External Works: " + ("; ".join(works) if works else "none") + "."]
    buildings = []
    names = tables.BUILDINGS.of(content(state.options.expansions))
    for tile, row in board.get("building_spaces", {}).items():
        owners = [
            f"space {i + 1} {company_name(str(who))}"
            for i, who in enumerate(row)
            if who not in (None, BLOCKED)
        ]
        name = names[tile].name if tile in names else tile
        buildings.append(f"{name} ({', '.join(owners) if owners else 'no Buildings'})")
    lines.append("Private Buildings: " + ("; ".join(buildings) if buildings else "none") + ".")
    return lines


# -- samples (renderer.samples, tests) ----------------------------------------------------------


def sample_state(seed: int = 2, moves_into_round_4: int = 22) -> GameState:
    """Return round 4 of a seeded 3-player game with The Leeghwater Project.

    The random moves favour the expansion's (External Works, Buildings and their actions) so
    the sample shows its board in use.
    """
    import random

    from bot.rules import new_game

    options = GameOptions(players=3, seed=seed, setup="full", expansions=("leeghwater",))
    game = new_game(options)
    rng = random.Random(1)

    def move() -> None:
        decision = rng.choice(game.decisions())
        options = decision.options
        ours = [
            o
            for o in options
            if o.notation.split()[0] in ("building", "use", "margot", "build")
            or o.notation.startswith("external_work")
        ]
        choice = rng.choice(ours if ours and rng.random() < 0.7 else options)
        game.apply(choice.notation, decision.player)

    while not game.is_over and game.state.round < 4:
        move()
    for _ in range(moves_into_round_4):
        move()
    return game.state


def samples() -> dict[str, tuple[GameState, str]]:
    """The docs' sample pictures of the expansion: file name -> (state, view)."""
    state = sample_state()
    return {
        "sample-leeghwater-works.png": (state, "works"),
        "sample-leeghwater-company.png": (state, "company"),
    }


#: What the renderer draws of Leeghwater (`renderer.expansions.drawing`).
DRAWING = Drawing(
    views=VIEWS,
    view_background=view_background,
    draw_view=draw_view,
    steady_view=steady_view,
    steady_key=steady_key,
    scoreboard_columns=scoreboard_columns,
    key_entries=key_entries,
    legend_sections=legend_sections,
    view_layout=view_layout,
    company_static=company_static,
    company_key=company_key,
    draw_company=draw_company,
    describe_lines=describe_lines,
    samples=samples,
    sample_state=sample_state,
)
