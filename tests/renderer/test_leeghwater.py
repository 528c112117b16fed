"""The Leeghwater Project in the renderer: the Extra Management board and the extensions."""

from __future__ import annotations

import copy
import functools
import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageColor

from bot.rules import GameOptions, GameState, new_game
from bot.rules.content import company_name
from bot.rules.expansions.leeghwater import tables as lw_tables
from renderer import draw as d
from renderer.company_view import company_key, draw_company
from renderer.content import content
from renderer.describe import describe
from renderer.expansions import leeghwater as lv
from renderer.layout import board_layout
from renderer.render import render, render_score_sheet
from renderer.score_sheet import vp_breakdown
from renderer.theme import get_theme
from tests.renderer.conftest import body_image

OPTIONS = GameOptions(players=3, seed=1, setup="full", expansions=("leeghwater",))


@functools.cache
def _midgame_json() -> dict:
    game = new_game(OPTIONS)
    rng = random.Random(2)
    while not game.is_over and game.state.round < 3:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    return game.state.to_json()


@pytest.fixture
def lwp() -> GameState:
    """Round 3 of a seeded random 3-player game with The Leeghwater Project."""
    return GameState.from_json(_midgame_json())


def _png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _has_colour(image: Image.Image, box: tuple[int, int, int, int], colour: str) -> bool:
    """True when ``colour`` fills a good part of ``box`` (a piece drawn there)."""
    return _colours(image.crop(box)).get(ImageColor.getrgb(colour), 0) >= 60


def _colours(image: Image.Image) -> dict[object, int]:
    """How many pixels of each colour ``image`` has."""
    return {c: n for n, c in image.getcolors(image.width * image.height) or []}


def test_every_view_renders_with_the_expansion(lwp: GameState) -> None:
    assert body_image(lwp, view="shared").size == (1200, board_layout("shared").height)
    # The Extra Management board is a view of its own, no taller than twice its width.
    works = _png(render(lwp, view="works"))
    assert body_image(lwp, view="works").size == (1200, board_layout(lv.WORKS).height)
    assert works.height <= 2 * works.width
    for cid in lwp.seats:
        board = body_image(lwp, view="company", company=cid, theme="dark")
        assert board.size == (1000, board_layout(lv.COMPANY).height)
    assert _png(render(lwp, view="map")).width == 1200
    full = _png(render(lwp, view="full"))
    # The full board holds the shared boards and the Extra Management board.
    assert full.height >= 60 + board_layout("shared").height + board_layout(lv.WORKS).height


def test_base_games_keep_their_sizes(midgame: GameState) -> None:
    assert body_image(midgame, view="shared").size == (1200, board_layout("shared").height)
    assert body_image(midgame, view="company").size == (1000, board_layout("company").height)


def test_a_built_building_shows_its_owner_at_its_space(lwp: GameState) -> None:
    owner = lwp.seats[0]
    board = lwp.extra["leeghwater"]
    tile = board["buildings"][2]
    board["building_spaces"][tile] = [None, "blocked", owner, None]
    image = body_image(lwp, view="works")
    x0, y0, _x1, y1 = board_layout(lv.WORKS).lists["building_spaces"][2 * 4 + 2]
    cy = (y0 + y1) // 2
    fill = get_theme().company(owner).fill
    assert _has_colour(image, (x0 + 6, cy - 24, x0 + 58, cy + 24), fill)
    # The space beside it is free: no owner's colour there.
    x0, y0, _x1, y1 = board_layout(lv.WORKS).lists["building_spaces"][2 * 4 + 3]
    cy = (y0 + y1) // 2
    assert not _has_colour(image, (x0 + 6, cy - 24, x0 + 58, cy + 24), fill)


def test_engineers_on_an_external_work_space_show(lwp: GameState) -> None:
    who = lwp.seats[1]
    lwp.spaces["external_work_2"] = [[who, 2]]
    image = body_image(lwp, view="works")
    _x0, y0, x1, y1 = board_layout(lv.WORKS).spaces["external_work_2"]
    cy = (y0 + y1) // 2
    fill = get_theme().company(who).fill
    assert _has_colour(image, (x1 - 100, cy - 24, x1 - 40, cy + 24), fill)
    _x0, y0, x1, y1 = board_layout(lv.WORKS).spaces["external_work_1"]
    if not lwp.spaces.get("external_work_1"):
        cy = (y0 + y1) // 2
        assert not _has_colour(image, (x1 - 100, cy - 24, x1 - 40, cy + 24), fill)


def test_the_left_and_right_action_spaces_show_who_used_them(lwp: GameState) -> None:
    first, second = lwp.seats[0], lwp.seats[2]
    tile = lwp.extra["leeghwater"]["buildings"][4]
    lwp.spaces[f"building_{tile}"] = [[first, 1], [second, 2]]
    image = body_image(lwp, view="works")
    actions = board_layout(lv.WORKS).lists["building_actions"][16:20]
    for rect, who in ((actions[0], first), (actions[1], second)):
        _x0, y0, x1, y1 = rect
        cy = (y0 + y1) // 2
        fill = get_theme().company(who).fill
        assert _has_colour(image, (x1 - 100, cy - 24, x1 - 48, cy + 24), fill)


@pytest.fixture
def texts() -> Iterator[list[tuple[str, int]]]:
    """Every text drawn while the test runs (from the recording canvas), with its size."""
    with d.recording() as drawn:
        yield _Sized(drawn)


class _Sized(list):  # type: ignore[type-arg]
    """The recorded texts as (content, size) pairs; ``clear`` forgets those seen so far."""

    def __init__(self, drawn: list[d.DrawnText]) -> None:
        super().__init__()
        self.drawn = drawn

    def __iter__(self) -> Iterator[tuple[str, int]]:  # type: ignore[override]
        return iter([(t.content, t.size) for t in self.drawn])

    def clear(self) -> None:
        self.drawn.clear()


def _works_texts(state: GameState, drawn: list[tuple[str, int]]) -> list[tuple[str, int]]:
    drawn.clear()
    lv.view_background.__wrapped__("works", "light")  # its static text too
    lv.draw_view("works", state, get_theme())
    return list(drawn)


def test_the_offer_and_buildings_are_labelled_by_name(
    lwp: GameState, texts: list[tuple[str, int]]
) -> None:
    board = lwp.extra["leeghwater"]
    board["works"] = ["A3", None, "C5"]
    shown = {t for t, _ in _works_texts(lwp, texts)}
    assert {"A3", "C5", "taken this round"} <= shown
    for tile in board["buildings"]:
        assert lw_tables.BUILDINGS.of(content())[tile].name in shown
    assert {"space 1", "space 3", "use", "blocked"} <= shown
    assert any(t.startswith("piles: A ") for t in shown)
    assert not any("_" in t for t in shown)  # no notation id: names and short forms


def test_external_work_terms_are_short() -> None:
    assert lv.work_text("A3") == "2 mix → 4VP Base P"
    assert lv.work_text("A1") == "1 exc → 3c contract≤4⚡"
    assert lv.work_text("B2") == "4 mix → 2VP 2 Elev."
    for work in lw_tables.WORKS.of(content()):
        assert "_" not in lv.work_text(work), work  # every reward has a short form
    for tile in lw_tables.BUILDINGS.of(content()):
        assert "_" not in lv.action_text(tile), tile
    for tile in lw_tables.BUILDINGS.of(content()):
        if lw_tables.BUILDINGS.of(content())[tile].set == "leeghwater":
            assert lv.action_text(tile) in lv.ACTIONS.values()


def test_the_extension_shows_buildings_works_and_special_pieces(
    lwp: GameState, texts: list[tuple[str, int]]
) -> None:
    cid = lwp.seats[0]
    company = lwp.companies[cid]
    board = lwp.extra["leeghwater"]
    tile = board["buildings"][0]
    board["building_spaces"][tile] = [cid, "blocked", None, None]
    company.placed["building"] = 1
    company.extra["external_works"] = ["A2", "B4"]
    company.officer = "tommaso_battista"
    company.extra["architect_out"] = True
    texts.clear()
    image = draw_company(lwp, cid, get_theme())
    shown = [t for t, _ in texts]
    assert "4 left" in shown
    assert set(lw_tables.BUILDINGS.of(content())[tile].name.split()) <= set(shown)  # its cell
    assert "Works done (2): A2 B4" in shown
    assert any(t.startswith("Architect: on a space") for t in shown)
    # The first Building piece has left its cell; the others still show the company's colour.
    cells = board_layout(lv.COMPANY).lists["cells_building"]
    fill = get_theme().company(cid).fill
    assert not _has_colour(image, cells[0], fill)
    assert _has_colour(image, cells[1], fill)


def test_leslies_tile_and_margots_space(lwp: GameState, texts: list[tuple[str, int]]) -> None:
    cid = lwp.seats[1]
    company = lwp.companies[cid]
    company.officer = "leslie_spencer"
    company.tiles = [t for t in company.tiles if t != "leslie_tile"]
    company.wheel[(company.wheel_open + 2) % 6].tiles.append("leslie_tile")
    texts.clear()
    draw_company(lwp, cid, get_theme())
    assert "Leslie's tile: on the wheel, back in 2 turns" in [t for t, _ in texts]
    company.officer = "margot_fouche"
    lwp.spaces["margot"] = [[cid, 1]]
    texts.clear()
    image = draw_company(lwp, cid, get_theme(), highlight={"margot"})
    assert "Margot's tile" in [t for t, _ in texts]
    _x0, y0, x1, y1 = board_layout(lv.COMPANY).rects["special"]
    assert _has_colour(image, (x1 - 56, y0, x1 - 4, y1), get_theme().company(cid).fill)


def test_the_company_key_follows_the_buildings(lwp: GameState) -> None:
    cid = lwp.seats[0]
    before = company_key(lwp, cid)
    other = copy.deepcopy(lwp)
    tile = other.extra["leeghwater"]["buildings"][1]
    other.extra["leeghwater"]["building_spaces"][tile][3] = cid
    assert company_key(other, cid) != before
    other.spaces[f"building_{tile}"] = [[cid, 1]]
    assert company_key(other, cid) != company_key(lwp, cid)


def test_highlights_ring_works_spaces_and_buildings(lwp: GameState) -> None:
    board = lwp.extra["leeghwater"]
    board["works"] = ["A3", "B1", "C2"]
    tile = board["buildings"][0]
    lit = {"external_work_3", "B1", f"{tile}_0", tile}
    plain = body_image(lwp, view="works")
    image = body_image(lwp, view="works", highlight=lit)
    layout = board_layout(lv.WORKS)
    yellow = ImageColor.getrgb(get_theme().colour("highlight"))
    rects = [
        layout.spaces["external_work_3"],
        layout.lists["work_tiles"][1],
        layout.lists["building_spaces"][0],
        layout.lists["building_actions"][len(lwp.spaces.get(f"building_{tile}", []))],
    ]
    for x0, y0, x1, _y1 in rects:
        edge = (x0, y0 - 6, x1, y0 - 1)
        assert yellow in _colours(image.crop(edge))
        assert yellow not in _colours(plain.crop(edge))


def test_the_draft_of_a_leeghwater_game_renders() -> None:
    state = new_game(OPTIONS).state
    assert body_image(state, view="works").height == board_layout(lv.WORKS).height
    assert body_image(state, view="company").height == board_layout(lv.COMPANY).height


@pytest.mark.parametrize("name", [lv.WORKS, lv.COMPANY])
def test_layout_is_inside_below_the_base_view_and_clear(name: str) -> None:
    layout = board_layout(name)
    # The company board's extension goes below the board; the works view is a view of its own.
    base = board_layout("company") if name == lv.COMPANY else _Empty(layout.width)
    assert layout.width == base.width and layout.height > base.height
    boxes = [*layout.spaces.values(), *(r for rects in layout.lists.values() for r in rects)]
    for x0, y0, x1, y1 in [*boxes, *layout.rects.values()]:
        assert 0 <= x0 < x1 <= layout.width and base.height <= y0 < y1 <= layout.height
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


class _Empty:
    """No base view above (the works view starts at the top)."""

    def __init__(self, width: int) -> None:
        self.width, self.height = width, 0


def test_labels_fit_their_spaces() -> None:
    layout = board_layout(lv.WORKS)
    size = get_theme().views["shared"].text["label"]
    x0, _, x1, _ = layout.lists["building_spaces"][0]
    # After the owner's piece, the space's number and its extra credits.
    assert 62 + d.text_width("space 4", size) + 16 + d.text_width("+3c", size) < x1 - x0
    x0, _, x1, _ = layout.spaces["external_work_1"]
    assert x1 - x0 > 48 + 110  # the engineers' pips and two occupants


def test_the_score_sheet_counts_buildings_and_works() -> None:
    game = new_game(GameOptions(players=3, seed=4, setup="full", expansions=("leeghwater",)))
    rng = random.Random(4)
    events = []
    while not game.is_over:
        decision = rng.choice(game.decisions())
        events += game.apply(rng.choice(decision.options).notation, decision.player)
    table = vp_breakdown(game.state, events)
    for cid, rows in table.items():
        assert sum(rows.values()) == game.state.companies[cid].vp
        assert "Other" not in rows
    built = {w for row in game.state.extra["leeghwater"]["building_spaces"].values() for w in row}
    for cid in set(game.state.seats) & built:
        assert table[cid]["Private Buildings"] > 0
    assert _png(render_score_sheet(game.state, events)).width == 1200


def test_describe_names_the_works_and_buildings(lwp: GameState) -> None:
    board = lwp.extra["leeghwater"]
    board["works"] = ["A3", None, "C5"]
    tile = board["buildings"][0]
    board["building_spaces"][tile] = [lwp.seats[0], "blocked", None, None]
    text = describe(lwp)
    assert "External Works: 1 A3 (2 mix → 4VP Base P); 2 taken; 3 C5" in text
    name = lw_tables.BUILDINGS.of(content())[tile].name
    assert f"{name} (space 1 {company_name(lwp.seats[0])})" in text


def test_the_scoreboard_counts_each_companys_buildings() -> None:
    """The expansion's own pieces (each company's five Buildings) are a column of every
    view's scoreboard, explained in the legend."""
    from renderer import header, legend

    state = lv.sample_state()
    columns = {c.heading: c for c in header.columns(state)}
    for cid, company in state.companies.items():
        assert columns["bld"].value(state, cid) == company.placed["building"]
    with d.recording() as texts:
        render(state, view="map")
    board = [t.content for t in texts if t.role == "board"]
    for company in state.companies.values():
        assert str(company.placed["building"]) in board
    explained = {
        e.symbol for _t, entries in legend.legend_sections(("leeghwater",)) for e in entries
    }
    assert "bld" in explained
    assert any(company.placed["building"] for company in state.companies.values())
