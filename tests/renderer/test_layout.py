"""Layout data: every engine id of every map has a place, inside the canvas, without overlaps."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from renderer.fonts import font
from renderer.layout import MAP_LAYOUTS, MapLayout, Rect, feature_view, map_layout
from renderer.theme import get_theme

DATA_DIR = Path(__file__).resolve().parents[2] / "bot" / "rules" / "data"

# The maps' space ids, stated compactly here until the engine's own data
# (bot/rules/data) can be read instead: basins with dams, powerhouses per basin, and the
# headstreams and exits. Ids follow the reference data: D<b>U/L, C<b>L/R, P<b>_<i>.
_SPEC: dict[str, tuple[int, dict[int, int], str, tuple[str, ...]]] = {
    "base": (10, {5: 2, 6: 2, 7: 2, 8: 3, 9: 3, 10: 3, 11: 4, 12: 4}, "ABCD", ("L", "R")),
    "five_player": (
        13,
        {6: 2, 7: 2, 8: 2, 9: 2, 10: 3, 11: 2, 12: 3, 13: 2, 14: 3, 15: 3, 16: 3},
        "ABCDE",
        ("L", "C", "R"),
    ),
    "colorado": (10, {5: 2, 6: 2, 7: 2, 8: 3, 9: 3, 10: 3, 11: 4, 12: 4}, "ABCD", ("L", "R")),
    "nile": (10, {5: 2, 6: 2, 7: 2, 8: 3, 9: 3, 10: 3, 11: 4, 12: 4}, "ABCD", ("L", "R")),
}


def _expected_ids(map_id: str) -> set[str]:
    dam_basins, powerhouses, headstreams, exits = _SPEC[map_id]
    ids = {f"H{h}" for h in headstreams} | {f"EXIT_{e}" for e in exits}
    for b in range(1, dam_basins + 1):
        ids |= {f"D{b}U", f"D{b}L", f"C{b}L", f"C{b}R"}
    for b, n in powerhouses.items():
        ids |= {f"P{b}_{i}" for i in range(n)}
    return ids


def _project_map_ids() -> dict[str, set[str]]:
    """Space ids of each map in the engine's own data files, when they exist."""
    found: dict[str, set[str]] = {}
    for path in sorted(DATA_DIR.glob("*.toml")):
        data = tomllib.loads(path.read_text("utf-8"))
        if "map" not in data or "basin" not in data:
            continue
        ids = set(data["map"].get("headstreams", [])) | set(data["map"].get("exits", []))
        for table in ("dam_space", "conduit_space", "powerhouse_space"):
            ids |= {row["id"] for row in data.get(table, [])}
        found[data["map"]["id"]] = ids
    return found


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(inner: Rect, outer: Rect) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _basin_of(space_id: str) -> int | None:
    m = re.fullmatch(r"[DCP](\d+)(?:[ULR]|_\d+)", space_id)
    return int(m.group(1)) if m else None


@pytest.fixture(params=MAP_LAYOUTS)
def layout(request: pytest.FixtureRequest) -> MapLayout:
    return map_layout(request.param)


def test_layout_covers_exactly_the_maps_ids(layout: MapLayout) -> None:
    assert set(layout.spaces) == _expected_ids(layout.map_id)


def test_layout_covers_the_engine_data_when_present() -> None:
    project = _project_map_ids()
    if not project:
        pytest.skip("bot/rules/data has no map files yet")
    for map_id, ids in project.items():
        if map_id in MAP_LAYOUTS:
            missing = ids - set(map_layout(map_id).spaces)
            assert not missing, f"{map_id}: no position for {sorted(missing)}"


def test_every_basin_has_a_panel(layout: MapLayout) -> None:
    dam_basins, powerhouses, _, _ = _SPEC[layout.map_id]
    assert set(layout.basins) == set(range(1, dam_basins + 1)) | set(powerhouses)


def test_everything_is_inside_the_canvas(layout: MapLayout) -> None:
    canvas = (0, 0, layout.width, layout.height)
    assert layout.width == get_theme().views["map"].width
    for space in layout.spaces.values():
        assert _inside(space.rect, canvas), space.id
        for x, y in space.path:
            assert 0 <= x <= layout.width and 0 <= y <= layout.height, space.id
    for river in layout.rivers:
        for x, y in river.path:
            assert 0 <= x <= layout.width and 0 <= y <= layout.height, river


def test_no_two_spaces_overlap(layout: MapLayout) -> None:
    spaces = list(layout.spaces.values())
    for i, a in enumerate(spaces):
        for b in spaces[i + 1 :]:
            assert not _overlap(a.rect, b.rect), f"{a.id} overlaps {b.id}"
        for basin in layout.basins.values():
            assert not _overlap(a.rect, basin.badge), f"{a.id} covers basin {basin.id}'s number"


def test_spaces_sit_in_their_basin_and_basins_in_their_band(layout: MapLayout) -> None:
    for space in layout.spaces.values():
        basin = _basin_of(space.id)
        if basin is not None:
            assert _inside(space.rect, layout.basins[basin].rect), space.id
    for basin in layout.basins.values():
        band = "plain" if basin.band == "bottom" else basin.band
        assert _inside(basin.rect, layout.bands[band][0]), basin.id


def test_labels_fit_their_spaces(layout: MapLayout) -> None:
    size = get_theme().views["map"].text["label"]
    for space in layout.spaces.values():
        width = font(size, "bold").getlength(space.id)
        assert width <= space.rect[2] - space.rect[0] - 4, space.id
        assert size <= space.rect[3] - space.rect[1], space.id


def test_rivers_leave_every_basin_and_headstream(layout: MapLayout) -> None:
    sources = {r.source for r in layout.rivers}
    headstreams = {s for s, v in layout.spaces.items() if v.kind == "headstream"}
    assert sources == set(layout.basins) | headstreams


def test_conduit_pipes_end_at_their_target_basin(layout: MapLayout) -> None:
    for space in layout.spaces.values():
        if space.kind != "conduit":
            continue
        assert len(space.path) >= 2, space.id
        x, y = space.path[-1]
        hits = [
            b.id for b in layout.basins.values() if b.rect[0] <= x <= b.rect[2] and y == b.rect[1]
        ]
        assert len(hits) == 1, f"{space.id} ends at {(x, y)}, on no single basin's top edge"


# Feature tables of the engine's map data that the map view must place, by layout kind.
FEATURE_TABLES = {
    "construction_site": "construction_site",
    "settlement_space": "settlement",
    "irrigation_zone": "irrigation_zone",
    "irrigation_space": "irrigation_space",
    "irrigation_action_space": "irrigation_action",
    "river_source_token": "river_source",
}


@pytest.mark.parametrize("map_id", ["colorado", "nile"])
def test_expansion_features_each_have_a_labelled_place(map_id: str) -> None:
    """An expansion's features (Construction Sites, settlements, irrigation...) are drawn in
    their own view, each in a box that holds its label."""
    from renderer.content import content

    features = content().maps[map_id].features
    expected = {
        f["id"]: kind for table, kind in FEATURE_TABLES.items() for f in features.get(table, ())
    }
    view = feature_view(f"{map_id}_features")
    # The Nile's view adds a box for the round's irrigation scoring.
    drawn = {k: v.kind for k, v in view.features.items() if v.kind != "irrigation_scoring"}
    assert drawn == expected
    canvas = (0, 0, view.width, view.height)
    size = get_theme().views["map"].text["label"]
    placed = list(view.features.values())
    assert _inside(view.panel, canvas)
    assert view.height <= 2 * view.width
    for i, feature in enumerate(placed):
        assert _inside(feature.rect, view.panel), feature.id
        assert 2 * size <= feature.rect[3] - feature.rect[1]  # a label and a line under it
        for other in placed[i + 1 :]:
            assert not _overlap(feature.rect, other.rect), (feature.id, other.id)


def test_the_nile_course_runs_from_its_headstream_through_its_basins_to_an_exit(
    layout: MapLayout,
) -> None:
    from renderer.content import content

    setup = content().maps[layout.map_id].features.get("map", ({},))[0]
    course = setup.get("nile_course")
    if not course:
        assert not layout.course
        return
    assert len(layout.course) == len(course)
    for point, place in zip(layout.course, course, strict=True):
        rect = layout.basins[place].rect if isinstance(place, int) else layout.spaces[place].rect
        x, y = point
        assert rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3], place
