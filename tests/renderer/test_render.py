"""Rendered views decode at their expected size and show what the state says."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageColor

from bot.rules.state import Dam, GameState
from renderer import legend
from renderer.describe import describe
from renderer.layout import board_layout, map_layout
from renderer.render import render, render_image
from renderer.theme import PARTIAL_VIEWS, THEMES, get_theme
from renderer.words import highlight_ids
from tests.renderer.conftest import body_image, body_top

Rect = tuple[int, int, int, int]


def _decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def _differs(a: Image.Image, b: Image.Image, rect: Rect) -> bool:
    return ImageChops.difference(a.crop(rect), b.crop(rect)).getbbox() is not None


def _count(image: Image.Image, rect: Rect, colour: str) -> int:
    rgb = ImageColor.getrgb(colour)
    colours = image.crop(rect).convert("RGB").getcolors(maxcolors=1 << 20) or []
    return sum(n for n, c in colours if c == rgb)


EXPECTED_SIZE = {
    "map": (map_layout("base").width, map_layout("base").height),
    "shared": (board_layout("shared").width, board_layout("shared").height),
    "company": (board_layout("company").width, board_layout("company").height),
}


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("view", PARTIAL_VIEWS)
def test_partial_views_decode_with_the_layout_size(
    midgame: GameState, view: str, theme: str
) -> None:
    image = _decode(render(midgame, view=view, theme=theme))
    assert image.format == "PNG"
    width, body = EXPECTED_SIZE[view]
    top = body_top(midgame, view, theme)
    key = legend.key_height(view, (), theme) if legend.keyed(view, ()) else 0
    assert image.size == (width, top + body + key)  # the header, the body, the key
    assert image.size[0] == get_theme(theme).views[view].width
    # A palette image without a transparent index: opaque on Discord's light and dark themes.
    assert image.mode == "P" and "transparency" not in image.info


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_full_view_holds_map_and_shared_side_by_side(midgame: GameState, theme: str) -> None:
    image = _decode(render(midgame, view="full", theme=theme))
    assert image.width == EXPECTED_SIZE["map"][0] + 16 + EXPECTED_SIZE["shared"][0]
    assert image.height >= EXPECTED_SIZE["shared"][1]
    # A palette image (see render.palette) without a transparent index is still opaque.
    assert image.mode in ("RGB", "P") and "transparency" not in image.info


def test_render_does_not_change_the_state(midgame: GameState) -> None:
    before = midgame.to_json()
    for view in ("map", "shared", "company", "full"):
        render(midgame, view=view, highlight={"D5U", "bank"})
    assert midgame.to_json() == before


def test_unknown_view_and_company_are_refused(fresh: GameState) -> None:
    with pytest.raises(ValueError, match="'board'"):
        render(fresh, view="board")
    with pytest.raises(ValueError, match="'spain'"):
        render(fresh, view="company", company="spain")


def _centre_band(rect: Rect) -> Rect:
    x0, y0, x1, y1 = rect
    return (x0 + 6, y0 + 6, x1 - 6, y1 - 6)


def test_a_base_shows_its_owner_colour_on_its_space(fresh: GameState) -> None:
    rect = map_layout("base").spaces["D5L"].rect
    empty = body_image(fresh, view="map")
    fresh.dams["D5L"] = Dam(owner="usa", level=1, water=0)
    built = body_image(fresh, view="map")
    usa = get_theme().company("usa").fill
    assert _count(empty, _centre_band(rect), usa) == 0
    assert _count(built, _centre_band(rect), usa) > 1000


def test_a_dam_holding_two_drops_shows_2(fresh: GameState) -> None:
    rect = map_layout("base").spaces["D5U"].rect
    fresh.dams["D5U"] = Dam(owner="usa", level=2, water=0)
    dry = body_image(fresh, view="map")
    fresh.dams["D5U"] = Dam(owner="usa", level=2, water=2)
    wet = body_image(fresh, view="map")
    fresh.dams["D5U"] = Dam(owner="usa", level=2, water=1)
    one = body_image(fresh, view="map")
    water = get_theme().colour("water")
    assert _count(dry, rect, water) == 0
    assert _count(wet, rect, water) > 300
    # The number itself is drawn: one drop and two drops differ inside the drop mark.
    assert _differs(wet, one, rect)


def test_dam_level_changes_the_space(fresh: GameState) -> None:
    rect = map_layout("base").spaces["D1L"].rect
    fresh.dams["D1L"] = Dam(owner="italy", level=1)
    low = body_image(fresh, view="map")
    fresh.dams["D1L"] = Dam(owner="italy", level=3)
    assert _differs(low, body_image(fresh, view="map"), rect)


def test_neutral_dam_is_grey(fresh: GameState) -> None:
    rect = map_layout("base").spaces["D8L"].rect
    fresh.dams["D8L"] = Dam(owner="neutral", level=3, water=3)
    image = body_image(fresh, view="map")
    assert _count(image, _centre_band(rect), get_theme().colour("neutral")) > 800


def test_conduit_and_powerhouse_show_their_owner(fresh: GameState) -> None:
    layout = map_layout("base")
    fresh.conduits["C7L"] = "italy"
    fresh.powerhouses["P9_0"] = "italy"
    image = body_image(fresh, view="map")
    italy = get_theme().company("italy").fill
    assert _count(image, _centre_band(layout.spaces["C7L"].rect), italy) > 800
    assert _count(image, _centre_band(layout.spaces["P9_0"].rect), italy) > 500


def test_red_outline_is_kept_on_a_built_space(fresh: GameState) -> None:
    x0, y0, x1, _ = map_layout("base").spaces["D5U"].rect
    fresh.dams["D5U"] = Dam(owner="germany", level=1)
    image = body_image(fresh, view="map")
    red = ImageColor.getrgb(get_theme().colour("red outline"))
    assert image.getpixel(((x0 + x1) // 2, y0 + 2)) == red


def test_headstream_drops_are_shown(fresh: GameState) -> None:
    rect = map_layout("base").spaces["HA"].rect
    fresh.headstream_water["HA"] = 0
    dry = body_image(fresh, view="map")
    fresh.headstream_water["HA"] = 2
    wet = body_image(fresh, view="map")
    assert _count(dry, rect, get_theme().colour("water")) == 0
    assert _count(wet, rect, get_theme().colour("water")) > 300


@pytest.mark.parametrize(("view", "space_id"), [("map", "D9U"), ("shared", "bank")])
def test_highlight_marks_the_space(fresh: GameState, view: str, space_id: str) -> None:
    layout = map_layout("base").spaces if view == "map" else board_layout("shared").spaces
    rect = layout[space_id] if view == "shared" else layout[space_id].rect
    x0, y0, x1, y1 = rect
    ring = (x0 - 8, y0 - 8, x1 + 8, y1 + 8)
    plain = body_image(fresh, view=view)
    lit = body_image(fresh, view=view, highlight=[space_id])
    assert (
        _count(lit, ring, get_theme().colour("highlight"))
        > _count(plain, ring, get_theme().colour("highlight")) + 200
    )


def test_engineers_on_a_management_space_show_there(fresh: GameState) -> None:
    rect = board_layout("shared").spaces["workshop_rotate2_left"]
    before = body_image(fresh, view="shared")
    fresh.spaces["workshop_rotate2_left"] = [["france", 2]]
    after = body_image(fresh, view="shared")
    assert _differs(before, after, rect)
    other = board_layout("shared").spaces["workshop_rotate2_right"]
    assert not _differs(before, after, other)


def test_energy_marker_moves_with_energy(fresh: GameState) -> None:
    x0, y0, x1, _ = board_layout("shared").rects["energy_track"]
    above = (x0, y0 - 180, x1, y0)
    before = body_image(fresh, view="shared")
    fresh.companies["usa"].energy = 12
    after = body_image(fresh, view="shared")
    usa = get_theme().company("usa").fill
    cell = (x1 - x0) / 31
    at12 = (int(x0 + 12 * cell), y0 - 60, int(x0 + 13 * cell), y0)
    assert _count(before, at12, usa) == 0
    assert _count(after, at12, usa) > 100
    assert _differs(before, after, above)


def test_contract_offer_and_highlight(midgame: GameState) -> None:
    contract = midgame.private_offer["green"][0]
    rect = board_layout("shared").lists["private_green"][0]
    plain = body_image(midgame, view="shared")
    lit = body_image(midgame, view="shared", highlight=[str(contract)])
    assert _differs(plain, lit, (rect[0] - 8, rect[1] - 8, rect[2] + 8, rect[3] + 8))


def test_company_view_shows_resources_and_wheel(fresh: GameState) -> None:
    from renderer import draw as d

    layout = board_layout("company")
    before = body_image(fresh, view="company", company="usa")
    fresh.companies["usa"].credits = 17
    fresh.companies["usa"].wheel[1].excavators = 3
    with d.recording() as texts:
        after = body_image(fresh, view="company", company="usa")
    # The resources are in the scoreboard on top of every view, the wheel on the board.
    assert "17" in [t.content for t in texts if t.role == "board"]
    assert _differs(before, after, layout.lists["wheel_segments"][1])  # open is 0: +1 is next
    assert not _differs(before, after, layout.lists["wheel_segments"][2])


def test_company_view_shows_an_uncovered_income(fresh: GameState) -> None:
    cell = board_layout("company").lists["cells_base"][1]
    before = body_image(fresh, view="company", company="germany")
    fresh.companies["germany"].placed["base"] = 2
    after = body_image(fresh, view="company", company="germany")
    active = get_theme().colour("active")
    assert _count(before, cell, active) == 0
    assert _count(after, cell, active) > 200


def test_company_view_defaults_to_the_player_to_act(midgame: GameState) -> None:
    assert midgame.current
    default = body_image(midgame, view="company")
    assert not _differs(
        default,
        body_image(midgame, view="company", company=midgame.current),
        (0, 0, *default.size),
    )


def test_highlight_ids_from_option_notations() -> None:
    ids = highlight_ids(
        ["base D5U", "take 210", "bank", "produce D1L C1L 2", "tile basic_base", "drops HA HB"]
    )
    assert ids >= {"D5U", "210", "bank", "D1L", "C1L", "basic_base", "HA", "HB"}
    assert "2" not in ids


def test_describe_says_what_the_state_says(fresh: GameState) -> None:
    fresh.dams["D5U"] = Dam(owner="usa", level=2, water=2)
    fresh.headstream_water["HB"] = 3
    text = describe(fresh)
    assert f"Round {fresh.round} of 5" in text
    assert "D5U USA level 2 holding 2 drops" in text
    assert "HB tile" in text and "3 drops waiting" in text
    for company in fresh.companies.values():
        assert f"{company.vp} VP" in text
    assert "Turn order:" in text


def test_board_layouts_place_every_management_space_inside_the_canvas() -> None:
    from bot.rules.content import load_content

    layout = board_layout("shared")
    rects = list(layout.spaces.values())
    for space in load_content().management_spaces:
        x0, y0, x1, y1 = layout.spaces[space.id]
        assert 0 <= x0 < x1 <= layout.width and 0 <= y0 < y1 <= layout.height, space.id
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    for name in ("shared", "company"):
        board = board_layout(name)
        for rect in [*board.rects.values(), *(r for rs in board.lists.values() for r in rs)]:
            assert 0 <= rect[0] < rect[2] <= board.width and 0 <= rect[1] < rect[3] <= board.height


def test_full_board_composed_from_cached_parts_matches_a_fresh_drawing(midgame: GameState) -> None:
    from renderer.render import clear_caches, palette

    for view in ("map", "shared"):
        render(midgame, view=view)
    composed = _decode(render(midgame, view="full")).convert("RGB")
    clear_caches()
    fresh = render_image(midgame, view="full").quantize(
        palette=palette("light"), dither=Image.Dither.NONE
    )
    assert ImageChops.difference(composed, fresh.convert("RGB")).getbbox() is None


def test_a_rendered_view_follows_the_state_and_callers_cannot_spoil_the_cache(
    fresh: GameState,
) -> None:
    first = body_image(fresh, view="map")
    first.paste("#ff00ff", (0, 0, 400, 400))  # the caller owns its copy
    again = body_image(fresh, view="map")
    assert again.getpixel((10, 10)) != (255, 0, 255)
    fresh.dams["D5U"] = Dam(owner="usa")
    assert _differs(again, body_image(fresh, view="map"), map_layout("base").spaces["D5U"].rect)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_income_text_fits_its_structure_cell(theme: str) -> None:
    from renderer import draw as d
    from renderer.company_view import CELL_PADDING, KINDS, cell_lines, incomes_of
    from renderer.content import content

    size = get_theme(theme).views["company"].text["small"]
    layout = board_layout("company")
    for company_id in content().companies:
        for (kind, n), label in incomes_of(company_id).items():
            x0, y0, x1, y1 = layout.lists[f"cells_{kind}"][n - 1]
            assert kind in KINDS
            for weight in ("regular", "bold"):  # covered and uncovered
                lines = cell_lines(label, size, x1 - x0 - CELL_PADDING, weight)
                assert " ".join(lines) == label, (company_id, kind, n, lines)
                assert all(d.text_width(ln, size, weight) <= x1 - x0 - CELL_PADDING for ln in lines)
                assert len(lines) * (size + 2) <= y1 - y0


@pytest.mark.parametrize("map_id", ["base", "five_player", "colorado", "nile"])
def test_the_map_view_draws_a_state_on_every_map(map_id: str) -> None:
    from bot.rules import GameOptions, new_game
    from renderer.content import content

    if map_id in ("base", "five_player"):
        state = new_game(GameOptions(players=4, seed=2, map=map_id)).state
    else:
        # Colorado and the Nile have no rules in the engine yet: a base game moved onto them.
        state = new_game(GameOptions(players=4, seed=2)).state
        state.options.map = map_id
    layout = map_layout(map_id)
    dam = sorted(content().maps[map_id].dam_spaces)[0]
    empty = body_image(state, view="map")
    assert empty.size == (layout.width, layout.height)
    state.dams[dam] = Dam(owner="italy", level=2, water=1)
    built = body_image(state, view="map")
    fill = get_theme().company("italy").fill
    assert _count(built, _centre_band(layout.spaces[dam].rect), fill) > 500
    assert _count(empty, _centre_band(layout.spaces[dam].rect), fill) == 0


@pytest.mark.parametrize("view", ["map", "shared"])
def test_highlight_rings_are_drawn_in_a_fixed_order(
    midgame: GameState, view: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where two rings overlap the one drawn last is on top: they are drawn in sorted order,
    not in a set's, which follows the process's string hash."""
    from renderer import draw as d

    if view == "map":
        spaces = {k: v.rect for k, v in map_layout(midgame.options.map).spaces.items()}
    else:
        spaces = dict(board_layout("shared").spaces)
    ids = sorted(spaces)[:6]
    drawn: list[object] = []
    ring = d.ring

    def noting(draw: object, rect: object, *args: object, **kw: object) -> None:
        drawn.append(rect)
        ring(draw, rect, *args, **kw)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(d, "ring", noting)
    render(midgame, view=view, highlight=list(reversed(ids)))
    rects = [spaces[i] for i in ids]
    assert [r for r in drawn if r in rects] == rects


def test_a_picture_over_the_largest_png_is_compressed_harder_to_the_same_pixels(
    midgame: GameState, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    rendering = importlib.import_module("renderer.render")
    png = render(midgame, view="map")
    image = Image.open(io.BytesIO(png))
    image.load()
    monkeypatch.setattr(rendering, "LARGEST_PNG", len(png) - 1)
    harder = rendering.encode(image)
    assert len(harder) < len(png)
    again = Image.open(io.BytesIO(harder))
    again.load()
    assert again.tobytes() == image.tobytes() and again.getpalette() == image.getpalette()
    monkeypatch.setattr(rendering, "LARGEST_PNG", 1)  # nothing fits: the hardest is given
    assert len(rendering.encode(image)) <= len(harder)


def test_a_warmed_game_maps_no_board_background_again() -> None:
    import importlib

    from bot.rules import GameOptions, new_game

    rendering = importlib.import_module("renderer.render")
    options = GameOptions(players=4, seed=9, setup="full", expansions=("leeghwater", "colorado"))
    game = new_game(options)
    while not game.state.companies:  # past the draft: the company boards are seated
        decision = game.decisions()[0]
        game.apply(decision.options[0].notation, decision.player)
    rendering.forget_pictures()
    rendering.warm_game(game.state.options)
    warmed = set(rendering._ON_PALETTE.items)
    for view in rendering.views(options):
        render(game.state, view=view)
    for cid in rendering.board_ids(game.state):
        render(game.state, view="company", company=cid)
    added = {key[1].__name__ for key in set(rendering._ON_PALETTE.items) - warmed}
    # What is left is drawn per picture's header and key, not a board.
    assert added <= {"_blank", "_caption", "key_strip"}, added
