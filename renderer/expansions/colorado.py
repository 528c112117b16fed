"""The Colorado Connection in pictures: Bridges on the dams, the Construction Sites, settlements.

The engine's state is `state.extra["colorado"]` (bot/rules/expansions/colorado/board.py):
`sites` (the Bridge tiles still at each Construction Site), `bridges` ({dam space: Bridge
tile}; the dam's owner owns the Bridge) and `settlements` ({settlement space: its face-up
tile}). Engineers on a site or settlement space are in `state.spaces` for the round, so a
settlement's occupant is who settled there this round. Every selectable thing carries the
id its notation uses: `site CS_M`, `bridge BR5 D1L` (the tile and the dam), `settle S_M3`,
`copy_bridge BR5`, `settlement S_H3`.

A basin holds at most one Bridge, so its tag goes in the basin's slot (`[bridge."<basin>"]`
in the layout), joined to the dam that carries it.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.state import Company, GameOptions, GameState
from renderer import draw as d
from renderer.background import (
    feature_background,
    feature_canvas,
    feature_fill,
    feature_label_at,
)
from renderer.content import content
from renderer.expansions.drawing import Drawing
from renderer.fonts import Weight
from renderer.layout import Rect, map_layout
from renderer.theme import CompanyStyle, Theme
from renderer.words import plural, reward_text

KEY = "colorado"


def active(options: GameOptions) -> bool:
    """True when the game plays The Colorado Connection."""
    return KEY in options.expansions


def board(state: GameState) -> dict[str, Any]:
    """The expansion's part of the state ({} before setup)."""
    return state.extra.get(KEY) or {}


def _rows(state: GameState, table: str) -> dict[str, Any]:
    data = content(state.options.expansions).of(KEY)
    return {row["id"]: row for row in data.get(table, ())}


def _map_features(state: GameState, table: str) -> dict[str, Any]:
    features = content(state.options.expansions).maps[state.options.map].features
    return {row["id"]: row for row in features.get(table, ())}


def bridge_cost(state: GameState, site_id: str) -> int | None:
    """Credits for the next Bridge at a site (1, then 2 more per Bridge built in its area)."""
    site = _map_features(state, "construction_site").get(site_id)
    if site is None:
        return None
    map_data = content(state.options.expansions).maps[state.options.map]
    built = sum(
        1 for dam in board(state).get("bridges", {}) if map_data.area_of(dam) == site["area"]
    )
    sequence = site["bridge_cost_sequence"]
    return int(sequence[min(built, len(sequence) - 1)])


def settler(state: GameState, space_id: str) -> str | None:
    """The company that settled on this space this round, if any."""
    for who, _n in state.spaces.get(space_id, []):
        return str(who)
    return None


def bridges_of(state: GameState, company_id: str) -> dict[str, str]:
    """{dam space: Bridge tile} of the company's Bridges."""
    return {
        dam: tile
        for dam, tile in board(state).get("bridges", {}).items()
        if dam in state.dams and state.dams[dam].owner == company_id
    }


def _nearest(rect: Rect, point: tuple[int, int]) -> tuple[int, int]:
    x0, y0, x1, y1 = rect
    return min(max(point[0], x0), x1), min(max(point[1], y0), y1)


def draw_map(
    draw: ImageDraw.ImageDraw, state: GameState, theme: Theme, highlight: Collection[str] = ()
) -> None:
    """Draw the Bridges on the map, each joined to the dam that carries it."""
    layout = map_layout(state.options.map)
    map_data = content(state.options.expansions).maps[state.options.map]
    lit = {str(h) for h in highlight}
    text = theme.colour("text")
    for dam, tile in board(state).get("bridges", {}).items():
        space = layout.spaces.get(dam)
        dam_data = map_data.dam_spaces.get(dam)
        if space is None or dam_data is None or dam not in state.dams:
            continue
        slot = layout.bridges.get(dam_data.basin)
        if slot is None:
            continue
        style = theme.company(state.dams[dam].owner)
        sx0, sy0, sx1, sy1 = slot
        centre = ((sx0 + sx1) // 2, (sy0 + sy1) // 2)
        dx0, dy0, dx1, dy1 = space.rect
        # The deck joins the tag to its dam, so a Bridge on the upper dam reads as such: a dark
        # line under a line of the owner's colour shows whatever the colour (white included).
        a = _nearest(slot, ((dx0 + dx1) // 2, (dy0 + dy1) // 2))
        b = _nearest(space.rect, centre)
        draw.line((a, b), fill=theme.colour("text"), width=10)
        draw.line((a, b), fill=style.fill, width=5)
        draw.ellipse((b[0] - 7, b[1] - 7, b[0] + 7, b[1] + 7), fill=theme.colour("text"))
        paint = functools.partial(_bridge_tag, tile=tile, style=style, theme=theme)
        d.item(draw, ("bridge tag", tile, style, theme.name), slot, paint)
        if tile in lit:
            d.ring(draw, slot, theme.colour("highlight"), text, width=5)


def _bridge_tag(
    draw: ImageDraw.ImageDraw, slot: Rect, *, tile: str, style: CompanyStyle, theme: Theme
) -> None:
    """A Bridge's tag: its tile's number on its owner's colour."""
    sx0, sy0, sx1, sy1 = slot
    size = theme.views["map"].text["small"]
    d.box(draw, slot, style.fill, theme.colour("text"), 3, 10)
    # "BR10" in bold is wider than its slot: the regular weight then.
    weight: Weight = "bold" if d.fits(tile, size, sx1 - sx0 - 4, "bold") else "regular"
    d.text(draw, ((sx0 + sx1) // 2, (sy0 + sy1) // 2), tile, size, style.ink, weight)


def key_entries(view: str) -> tuple[tuple[str, str], ...]:
    """Its symbols in the compact key of the map and of its own view."""
    if view == "sites":
        return (
            ("CS_M", "Construction Site (mountains)"),
            ("S_M1", "settlement space"),
            ("SA7", "settlement tile"),
            ("5c", "next Bridge's price"),
            ("piece", "company"),
        )
    return (("BR4", "Bridge tile on the dam it links to"),) if view == "map" else ()


def legend_sections() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Its sections of the legend picture."""
    return (
        (
            "The Colorado Connection",
            (
                ("BR4", "Bridge tile 4, linked to its dam by a line"),
                ("CS_M", "Construction Site of the mountains (H hills, P plains)"),
                ("S_M1", "settlement space 1 of the mountains"),
                ("SA7", "settlement tile A7 and what it gives"),
                ("5c", "the price of the site's next Bridge"),
            ),
        ),
    )


#: Its own view: the Construction Sites and the settlements (key: title).
VIEWS = {"sites": "Construction Sites and settlements"}
FEATURES = "colorado_features"


def view_background(view: str, theme_name: str) -> Image.Image:
    """The static part of the sites view: every site and settlement space, labelled."""
    return feature_background(FEATURES, theme_name)


def draw_view(
    view: str,
    state: GameState,
    theme: Theme,
    highlight: Collection[str] = (),
    dirty: list[Rect] | None = None,
) -> Image.Image:
    """The Construction Sites (next Bridge's price, tiles left) and settlements of ``state``."""
    image, draw, layout = feature_canvas(FEATURES, theme, dirty)
    sizes = theme.views["map"].text
    lit = {str(h) for h in highlight}
    text = theme.colour("text")
    co = board(state)
    settlement_tiles = _rows(state, "settlement_tile")
    settlements = co.get("settlements", {})
    for fid, feature in layout.features.items():
        x0, _y0, x1, y1 = feature.rect
        line2 = y1 - 6 - (sizes["small"] + 8) // 2
        # The state's lines are drawn on the feature's box (`draw.text`'s ``on``).
        on = feature_fill(theme, feature.kind)
        if feature.kind == "construction_site":
            cost = bridge_cost(state, fid)
            if cost is not None:
                at = feature_label_at(feature.rect, sizes["label"])
                label = f"next Bridge {cost}c"
                d.text(draw, (x1 - 10, at[1]), label, sizes["small"], text, "regular", "rm", on=on)
            tiles = co.get("sites", {}).get(fid, [])
            line = " ".join(tiles) if tiles else "no Bridge tiles left"
            d.text(draw, (x0 + 10, line2), line, sizes["small"], text, "regular", "lm", on=on)
        elif feature.kind == "settlement":
            ink = theme.colour("space text")
            tile = settlements.get(fid)
            row = settlement_tiles.get(tile or "")
            line = f"{tile} {reward_text(row['effect'])}" if row else (tile or "no tile")
            lines = d.wrap(line, sizes["small"], x1 - x0 - 16)
            at = (x0 + 10, line2)
            d.text(draw, at, " ".join(lines), sizes["small"], ink, "regular", "lm", on=on)
            who = settler(state, fid)
            if who:
                at = feature_label_at(feature.rect, sizes["label"])
                d.piece(draw, (x1 - 28, at[1]), 20, theme.company(who), sizes["small"])
            if tile in lit:
                d.ring(draw, feature.rect, theme.colour("highlight"), text, width=5)
        else:
            continue
        if fid in lit:
            d.ring(draw, feature.rect, theme.colour("highlight"), text, width=5)
    return image


def company_lines(state: GameState, company: Company) -> list[tuple[str, ...]]:
    """The company's Colorado state in words, for its board: Bridges, settlements (each
    line with its shorter form: the Bridges without their rewards)."""
    if not active(state.options):
        return []
    company_id = company.id
    tiles = _rows(state, "bridge_tile")
    built = bridges_of(state, company_id)
    parts = [
        f"{tile} on {dam} ({reward_text(tiles[tile]['effect'])})" if tile in tiles else tile
        for dam, tile in built.items()
    ]
    settled = [
        f"{space} ({board(state).get('settlements', {}).get(space, '?')})"
        for space in _map_features(state, "settlement_space")
        if settler(state, space) == company_id
    ]
    where = [f"{tile} on {dam}" for dam, tile in built.items()]
    return [
        (
            f"Bridges ({len(built)}): " + (", ".join(parts) if parts else "none"),
            f"Bridges ({len(built)}): " + (", ".join(where) if where else "none"),
        ),
        ("Settled this round: " + (", ".join(settled) if settled else "none"),),
    ]


def _credits(cost: int | None) -> str:
    """'1 credit', '3 credits' ('? credits' for a site the map does not know)."""
    return "? credits" if cost is None else plural(cost, "credit")


def describe_lines(state: GameState) -> list[str]:
    """The Colorado state in words, for ``describe``."""
    if not active(state.options):
        return []
    co = board(state)
    sites = [
        f"{site} (next Bridge {_credits(bridge_cost(state, site))}; tiles "
        f"{' '.join(tiles) if tiles else 'none'})"
        for site, tiles in co.get("sites", {}).items()
    ]
    bridges = [
        f"{tile} on {dam} ({company_name(state.dams[dam].owner)})"
        for dam, tile in co.get("bridges", {}).items()
        if dam in state.dams
    ]
    settlements = []
    for space, tile in co.get("settlements", {}).items():
        who = settler(state, space)
        settlements.append(
            f"{space} {tile}" + (f" (settled by {company_name(who)})" if who else "")
        )
    return [
        "Construction Sites: " + ("; ".join(sites) if sites else "none") + ".",
        "Bridges: " + ("; ".join(bridges) if bridges else "none") + ".",
        "Settlements: " + ("; ".join(settlements) if settlements else "none") + ".",
    ]


# -- the layout generator's rows (renderer.layout.generate_features) ---------------------

FEATURE_TITLE = "Construction Sites (Bridges) and settlements"
BRIDGE_SLOTS = True  # a slot beside each basin's lower dam for its Bridge tag


def feature_rows(features: Any, width: int, gap: int) -> list[list[tuple[str, str, int]]]:
    """The layout generator's rows of the sites view (`renderer.layout.generate_features`): per
    area, the site (a whole row: its Bridge tiles), then its settlement spaces two a row."""
    rows = []
    each = (width - gap) // 2  # two settlements a row: a tile's reward fits on one line
    for site in features["construction_site"]:
        rows.append([(site["id"], "construction_site", width)])
        spaces = [s for s in features["settlement_space"] if s["area"] == site["area"]]
        for k in range(0, len(spaces), 2):
            rows.append([(s["id"], "settlement", each) for s in spaces[k : k + 2]])
    return rows


# -- samples (renderer.samples, tests) ----------------------------------------------------------


def sample_state(
    seed: int = 5, setup: str = "intro", leeghwater: bool = False, moves: int = 20
) -> GameState:
    """Return round 3 of a seeded 4-player Colorado game, its Bridges and settlements in use."""
    expansions = ("colorado", "leeghwater") if leeghwater else ("colorado",)
    options = GameOptions(players=4, seed=seed, setup=setup, expansions=expansions)
    from renderer.samples import played

    return played(options, ("site", "bridge", "settle"), 3, moves)


def samples() -> dict[str, tuple[GameState, str]]:
    """The docs' sample pictures of the expansion: file name -> (state, view)."""
    state = sample_state()
    return {
        "sample-colorado-map.png": (state, "map"),
        "sample-colorado-sites.png": (state, "sites"),
    }


#: What the renderer draws of Colorado (`renderer.expansions.drawing`).
DRAWING = Drawing(
    draw_map=draw_map,
    views=VIEWS,
    view_background=view_background,
    draw_view=draw_view,
    key_entries=key_entries,
    legend_sections=legend_sections,
    company_lines=company_lines,
    describe_lines=describe_lines,
    feature_rows=feature_rows,
    feature_title=FEATURE_TITLE,
    bridge_slots=BRIDGE_SLOTS,
    samples=samples,
    sample_state=sample_state,
)
