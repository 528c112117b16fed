"""The full board (palette PNG composed from static backgrounds and drawn patches) shows the state."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageColor

from bot.rules.state import Dam, GameState
from renderer import draw as d
from renderer.background import map_background
from renderer.company_view import company_background, draw_company, half_background, strips
from renderer.expansions import extending, view_height
from renderer.expansions.colorado import sample_state as colorado_state
from renderer.expansions.leeghwater import sample_state as leeghwater_state
from renderer.expansions.nile import sample_state as nile_state
from renderer.layout import board_layout, map_layout
from renderer.map_view import draw_map
from renderer.render import (
    TILE,
    board_ids,
    clear_caches,
    full_places,
    palette,
    render,
    render_image,
)
from renderer.samples import draft_state
from renderer.shared_view import draw_shared, shared_background
from renderer.theme import get_theme
from tests.renderer.conftest import body_image

Rect = tuple[int, int, int, int]


def _full(state: GameState, **kw: object) -> Image.Image:
    image = Image.open(io.BytesIO(render(state, view="full", **kw)))  # type: ignore[arg-type]
    return image.convert("RGB")


def _moved(rect: Rect, at: tuple[int, int], half: bool = False) -> Rect:
    k = 2 if half else 1
    return (at[0] + rect[0] // k, at[1] + rect[1] // k, at[0] + rect[2] // k, at[1] + rect[3] // k)


def _near(image: Image.Image, rect: Rect, colour: str, tolerance: int = 30) -> int:
    """Count pixels within ``tolerance`` of ``colour`` (the palette holds close colours)."""
    r, g, b = ImageColor.getrgb(colour)
    colours = image.crop(rect).getcolors(maxcolors=1 << 20) or []
    return sum(
        n for n, (cr, cg, cb) in colours if abs(cr - r) + abs(cg - g) + abs(cb - b) <= tolerance
    )


def _differs(a: Image.Image, b: Image.Image, rect: Rect) -> bool:
    return ImageChops.difference(a.crop(rect), b.crop(rect)).getbbox() is not None


def test_the_full_board_shows_what_the_state_says(fresh: GameState) -> None:
    clear_caches()
    places = full_places(fresh)
    theme = get_theme()
    before = _full(fresh)
    fresh.dams["D5L"] = Dam(owner="usa", level=1, water=2)
    fresh.spaces["workshop_rotate2_left"] = [["france", 2]]
    fresh.companies["usa"].credits = 17
    fresh.companies["germany"].placed["base"] = 2
    clear_caches()  # cold: nothing drawn before
    with d.recording() as texts:
        after = _full(fresh, highlight=["D9U"])

    dam = _moved(map_layout("base").spaces["D5L"].rect, places["map"])
    assert _near(before, dam, theme.company("usa").fill) == 0
    assert _near(after, dam, theme.company("usa").fill) > 1000
    assert _near(after, dam, theme.colour("water")) > 300
    x0, y0, x1, y1 = _moved(map_layout("base").spaces["D9U"].rect, places["map"])
    ring = (x0 - 8, y0 - 8, x1 + 8, y1 + 8)
    assert _near(after, ring, theme.colour("highlight")) > _near(
        before, ring, theme.colour("highlight")
    )
    shared = board_layout("shared")
    assert _differs(before, after, _moved(shared.spaces["workshop_rotate2_left"], places["shared"]))
    assert not _differs(
        before, after, _moved(shared.spaces["workshop_rotate2_right"], places["shared"])
    )
    company = board_layout("company")
    # The credits are in the scoreboard on top of the full board (drawn once for all boards).
    assert "17" in [t.content for t in texts if t.role == "board"]
    cell = _moved(company.lists["cells_base"][1], places["germany"], half=True)
    assert _near(before, cell, theme.colour("active")) == 0
    assert _near(after, cell, theme.colour("active")) > 40


def _states(midgame: GameState) -> tuple[GameState, ...]:
    """A base game, the draft of a full game, a Leeghwater game (taller shared and boards), a
    Colorado game with Leeghwater and a Nile game (their maps, the boards' expansion strip)."""
    return (
        midgame,
        draft_state(),
        leeghwater_state(),
        colorado_state(setup="full", leeghwater=True),
        nile_state(),
    )


def _lit(state: GameState) -> list[str]:
    """Ids to highlight: base spaces, a contract, and on a Leeghwater board a work and Buildings."""
    lit = ["D5U", "bank", "build", "margot"]
    lit += [str(c) for c in state.private_offer.get("green", [])[:1]]
    board = state.extra.get("leeghwater")
    if board:
        tiles = board["buildings"]
        lit += ["external_work_1", str(board["works"][0]), f"{tiles[0]}_0", tiles[1]]
    colorado = state.extra.get("colorado")
    if colorado:
        lit += ["CS_M", "S_H1", *colorado["bridges"].values()]
    nile = state.extra.get("nile")
    if nile:
        lit += ["IZ_M_A1", "IZ_H_S2", "RS1", nile["zones"]["IZ_P"]["IZ_P_S1"][-1]]
    return lit


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_full_board_is_the_same_drawn_cold_or_from_cached_views(
    midgame: GameState, theme: str
) -> None:
    for state in _states(midgame):
        lit = _lit(state)
        clear_caches()
        cold = render(state, view="full", theme=theme, highlight=lit)
        for view in ("map", "shared"):
            render(state, view=view, theme=theme, highlight=lit)
        assert render(state, view="full", theme=theme, highlight=lit) == cold
        clear_caches()
        rgb = render_image(state, view="full", theme=theme, highlight=lit)
        mapped = rgb.quantize(palette=palette(theme), dither=Image.Dither.NONE)
        decoded = Image.open(io.BytesIO(cold)).convert("RGB")
        assert ImageChops.difference(decoded, mapped.convert("RGB")).getbbox() is None


def _outside(view: Image.Image, background: Image.Image, dirty: list[Rect]) -> Rect | None:
    """Return the box of pixels the view changed outside the tiles of its recorded boxes."""
    diff = ImageChops.difference(view, background).convert("L")
    for box in d.regions(dirty, view.size, TILE):
        diff.paste(0, box)
    return diff.getbbox()


def test_recorded_boxes_cover_every_pixel_a_view_draws(midgame: GameState) -> None:
    theme = get_theme("dark")
    for state in _states(midgame):
        lit = frozenset(_lit(state))
        dirty: list[Rect] = []
        view = draw_map(state, theme, lit, dirty=dirty)
        background = map_background(state.options.map, "dark")
        assert dirty and _outside(view, background, dirty) is None
        dirty = []
        view = draw_shared(state, theme, lit, dirty=dirty)
        options = state.options
        shared = extending(options.expansions, "shared")
        background = shared_background(options.players, options.setup, "dark", shared)
        assert view.size == background.size
        assert _outside(view, background, dirty) is None
        for cid in board_ids(state):
            for half, background in ((False, company_background), (True, half_background)):
                dirty = []
                view = draw_company(state, cid, theme, lit, dirty=dirty, half=half)
                extensions = extending(state.options.expansions, "company")
                static = background(cid, "dark", extensions, strips(state.options))
                assert _outside(view, static, dirty) is None, (cid, half)


def test_the_full_board_holds_the_taller_leeghwater_views() -> None:
    state = leeghwater_state()
    image = _full(state)
    places = full_places(state)
    # The Extra Management board is a view of its own, on the full board under the shared.
    works = body_image(state, view="works")
    assert places["works"][1] >= places["shared"][1] + board_layout("shared").height
    assert image.height >= places["works"][1] + works.height
    tall = view_height("company", state.options) // 2
    assert tall > board_layout("company").height // 2
    seats = board_ids(state)
    for above, below in zip(seats, seats[2:], strict=False):
        assert places[below][1] >= places[above][1] + tall
    assert image.height >= max(places[cid][1] for cid in seats) + tall


def test_regions_are_few_tile_aligned_rectangles_covering_the_boxes() -> None:
    boxes = [(5, 5, 20, 20), (40, 5, 60, 20), (5, 40, 20, 50), (-10, 90, 5, 130)]
    out = d.regions(boxes, (100, 100), 32)
    # Row 0 has two marked tiles, the rows below one each (a box past the edge is clipped).
    assert out == [(0, 0, 64, 32), (0, 32, 32, 100)]
