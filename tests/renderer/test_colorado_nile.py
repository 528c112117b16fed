"""The Colorado Connection and The Nile Affair in the pictures: map features, boards, words."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from types import ModuleType

import pytest
from PIL import Image, ImageColor

from bot.rules.state import GameState
from renderer import draw as d
from renderer.company_view import draw_company, tile_chips
from renderer.describe import describe
from renderer.expansions import colorado as colorado_view
from renderer.expansions import nile as nile_view
from renderer.expansions.colorado import bridge_cost
from renderer.expansions.colorado import sample_state as colorado_state
from renderer.expansions.nile import sample_state as nile_state
from renderer.fonts import font
from renderer.layout import board_layout, feature_view, map_layout
from renderer.map_view import draw_map
from renderer.render import board_ids, render, render_image, views
from renderer.score_sheet import vp_breakdown
from renderer.theme import get_theme
from renderer.words import highlight_ids, tile_name
from tests.renderer.conftest import body_image

Rect = tuple[int, int, int, int]


@pytest.fixture(scope="module")
def colorado() -> GameState:
    return colorado_state()


@pytest.fixture(scope="module")
def nile() -> GameState:
    return nile_state()


def _states() -> Iterator[GameState]:
    yield colorado_state()
    yield colorado_state(setup="full")
    yield colorado_state(setup="full", leeghwater=True)
    yield nile_state()
    yield nile_state(setup="full", leeghwater=True)


def _inside(inner: Rect, outer: Rect) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_view_of_colorado_and_nile_games_renders(theme: str) -> None:
    for state in _states():
        for view in views(state.options):
            assert render(state, view=view, theme=theme)[:4] == b"\x89PNG"
        for cid in board_ids(state):
            image = render_image(state, view="company", company=cid, theme=theme)
            assert image.width == 1000
        assert body_image(state, view="map", theme=theme).size == (
            1200,
            map_layout(state.options.map).height,
        )


def _feature_texts(
    state: GameState, module: ModuleType, view: str
) -> tuple[Image.Image, list[d.DrawnText]]:
    """An expansion's own view (its body, in the feature layout's coordinates) and its texts."""
    with d.recording() as texts:
        image = module.draw_view(view, state, get_theme())
    return image, texts


def _boxes(texts: list[d.DrawnText], content: str) -> list[Rect]:
    return [t.box for t in texts if t.content.startswith(content)]


def test_a_bridge_shows_its_owners_colour_at_its_dam(colorado: GameState) -> None:
    bridges = colorado.extra["colorado"]["bridges"]
    assert bridges, "the sample game should have built a Bridge"
    layout = map_layout("colorado")
    image = body_image(colorado, view="map")
    unbuilt = copy.deepcopy(colorado.extra)
    unbuilt["colorado"]["bridges"] = {}
    plain = body_image(dataclasses.replace(colorado, extra=unbuilt), view="map")
    theme = get_theme()
    for dam, tile in bridges.items():
        basin = next(b for b in layout.basins.values() if _overlap(b.rect, layout.spaces[dam].rect))
        slot = layout.bridges[basin.id]
        owner = theme.company(colorado.dams[dam].owner)
        fill = ImageColor.getrgb(owner.fill)
        colours = dict((c, n) for n, c in image.crop(slot).getcolors(1 << 16) or [])
        assert colours.get(fill, 0) > 500, (dam, tile)
        assert image.crop(slot).tobytes() != plain.crop(slot).tobytes()


def test_settled_spaces_show_the_settler_and_the_tile(colorado: GameState) -> None:
    layout = feature_view(colorado_view.FEATURES)
    settled = {
        space: who[0][0] for space, who in colorado.spaces.items() if space.startswith("S_") and who
    }
    assert settled, "the sample game should have settled somewhere"
    image, texts = _feature_texts(colorado, colorado_view, "sites")
    theme = get_theme()
    for space, who in settled.items():
        fill = ImageColor.getrgb(theme.company(who).fill)
        colours = dict(
            (c, n) for n, c in image.crop(layout.features[space].rect).getcolors(1 << 16)
        )
        assert colours.get(fill, 0) > 100, space
    for space, tile in colorado.extra["colorado"]["settlements"].items():
        assert any(_inside(b, layout.features[space].rect) for b in _boxes(texts, tile)), space
    for site, tiles in colorado.extra["colorado"]["sites"].items():
        rect = layout.features[site].rect
        price = f"next Bridge {bridge_cost(colorado, site)}c"
        assert any(_inside(b, rect) for b in _boxes(texts, price))
        if tiles:
            assert any(_inside(b, rect) for b in _boxes(texts, tiles[0]))


def test_irrigation_tokens_and_users_show_in_their_zone(nile: GameState) -> None:
    layout = feature_view(nile_view.FEATURES)
    image, texts = _feature_texts(nile, nile_view, "irrigation")
    for zone in nile.extra["nile"]["zones"].values():
        for space, stack in zone.items():
            rect = layout.features[space].rect
            shown = stack[-1] if stack else "VP showing"
            candidates = [
                *_boxes(texts, shown),
                *(b for t in texts if "VP" in t.content for b in [t.box]),
            ]
            assert any(_inside(b, rect) for b in candidates), space
    with d.recording() as on_map:
        draw_map(nile, get_theme())
    for hs, token in nile.headstream_tiles.items():
        assert any(_inside(b, layout.features[token].rect) for b in _boxes(texts, hs))
        assert any(_inside(b, map_layout("nile").spaces[hs].rect) for b in _boxes(on_map, token))
    used = [s for s in nile.spaces if s.startswith("IZ_")]
    theme = get_theme()
    for space in used:
        who = nile.spaces[space][0][0]
        fill = ImageColor.getrgb(theme.company(who).fill)
        colours = dict(
            (c, n) for n, c in image.crop(layout.features[space].rect).getcolors(1 << 16)
        )
        assert colours.get(fill, 0) > 100, space


@pytest.mark.parametrize("map_id", ["colorado", "nile"])
def test_feature_boxes_hold_two_lines_and_bridge_slots_are_clear(map_id: str) -> None:
    layout = map_layout(map_id)
    size = get_theme().views["map"].text["small"]
    for feature in feature_view(f"{map_id}_features").features.values():
        assert feature.rect[3] - feature.rect[1] >= 2 * size + 16, feature.id
    others = [s.rect for s in layout.spaces.values()] + [b.badge for b in layout.basins.values()]
    for basin_id, slot in layout.bridges.items():
        assert font(size, "regular").getlength("BR10") <= slot[2] - slot[0] - 4
        assert not any(_overlap(slot, o) for o in others), basin_id
        assert not any(
            _overlap(slot, b.rect) for b in layout.basins.values() if b.id != basin_id
        ), basin_id
        assert any(_inside(slot, band) for band, _ in layout.bands.values()), basin_id
    if map_id == "colorado":
        with_dams = {
            b.id
            for b in layout.basins.values()
            if any(s.kind == "dam" and _overlap(s.rect, b.rect) for s in layout.spaces.values())
        }
        assert set(layout.bridges) == with_dams


def test_many_tiles_in_supply_stay_inside_their_panel(colorado: GameState) -> None:
    cid = colorado.seats[0]
    company = colorado.companies[cid]
    tiles = ["basic_base", "basic_elevation", "basic_conduit", "basic_powerhouse", "basic_wild"]
    tiles += ["adv_2_conduit", "adv_1_wild", "adv_3_elevation"]
    state = dataclasses.replace(
        colorado,
        companies={**colorado.companies, cid: dataclasses.replace(company, tiles=tiles)},
    )
    layout = board_layout("company")
    panel = layout.rects["tiles"]
    with d.recording() as texts:
        draw_company(state, cid, get_theme(), tiles)
    names = {tile_name(t) for t in tiles}
    # Tile names also show on the wheel, above the panel.
    below_wheel = layout.rects["wheel"][3]
    chips = [
        t.box
        for t in texts
        if t.content.split(":")[0].split(" ×")[0] in names and t.box[1] > below_wheel
    ]
    assert len(chips) >= 6
    heading_y = layout.rects["structures"][1]
    for box in chips:
        assert _inside(box, panel), box
        assert box[3] < heading_y
    # Far too many: as many as fit and "+n more", still inside.
    many = tile_chips(tiles * 4, panel, 26)
    assert many[-1][1].startswith("+") or len(many) == len(set(tiles))
    for chip, _label, _tile in many:
        assert _inside(chip, panel)


def test_highlight_ids_name_the_expansion_notations() -> None:
    notations = [
        "site CS_M",
        "bridge BR5 D1L",
        "settle S_M3",
        "irrigate IZ_M_A2",
        "drain D2U",
        "irrigation IM3",
        "activate IM3",
        "copy_bridge BR10",
    ]
    assert {"CS_M", "BR5", "D1L", "S_M3", "IZ_M_A2", "D2U", "IM3", "BR10"} <= highlight_ids(
        notations
    )


def test_describe_and_score_sheet_know_the_expansions(colorado: GameState, nile: GameState) -> None:
    text = describe(colorado)
    assert "Construction Sites:" in text and "Bridges:" in text and "Settlements:" in text
    text = describe(nile)
    assert "Irrigation spaces:" in text and "irrigation: 0 points" in text

    @dataclasses.dataclass
    class Event:
        kind: str
        company: str
        amount: int
        source: str

    # Each game's sheet has the rows its expansions declare.
    cid = nile.seats[0]
    events = [Event("vp", cid, 3, "irrigation:round2"), Event("vp", cid, 2, "irrigation:IM7")]
    rows = vp_breakdown(nile, events)[cid]
    assert rows["Irrigation scoring"] == 3
    assert rows["Irrigation tokens"] == 2
    cid = colorado.seats[0]
    events = [
        Event("vp", cid, 1, "toll:S_M1"),
        Event("vp", cid, 3, "bridge:BR5"),
        Event("vp", cid, 2, "settlement:SB6"),
    ]
    rows = vp_breakdown(colorado, events)[cid]
    assert rows["Bridges"] == 4
    assert rows["Settlements"] == 2
