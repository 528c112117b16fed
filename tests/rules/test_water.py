"""Water flow over every map (bot.rules.water)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.content import MapData, load_content
from bot.rules.water import FlowResult, flow_drop, flow_drops

MAP_IDS = ("base", "five_player", "colorado", "nile")


def game_map(map_id: str) -> MapData:
    """A packaged map."""
    return load_content().maps[map_id]


def test_rulebook_water_flow_example() -> None:
    """base-game.txt, Water Flow: drops 1-5 end where the rulebook says.

    Equivalent position on the base map: HA feeds basin 1 (a full level-1 mountain dam, the
    neutral D1L) and then basin 8 (a level-3 plains dam D8L holding 2). HB feeds basin 2 (a
    level-2 mountain dam D2U holding 1) and then basin 5 (an empty level-1 upper hills dam D5U
    and the level-2 neutral D5L holding its 1 setup drop).
    """
    m = game_map("base")
    capacity = {"D1L": 1, "D8L": 3, "D2U": 2, "D5U": 1, "D5L": 2}
    water = {"D1L": 1, "D8L": 2, "D2U": 1, "D5U": 0, "D5L": 1}

    # Drops 1 and 2 pass the full mountain dam; 1 is caught in the plains, 2 leaves the map.
    first = flow_drops(m, m.headstream_feeds["HA"], 2, capacity, water)
    assert [r.stopped_at for r in first] == ["D8L", None]
    assert first[1].exit == "EXIT_L"
    assert first[0].basins_entered == (1, 8)
    assert first[1].basins_entered == (1, 8, 11)
    water["D8L"] += 1

    # Drop 3 fills the mountain level-2 dam, 4 the upper hills dam, 5 the lower neutral dam.
    second = flow_drops(m, m.headstream_feeds["HB"], 3, capacity, water)
    assert [r.stopped_at for r in second] == ["D2U", "D5U", "D5L"]
    assert [r.basins_entered for r in second] == [(2,), (2, 5), (2, 5)]


def test_released_water_starts_in_powerhouse_basin() -> None:
    """RULINGS 1: water released at a powerhouse passes that basin's own dams first."""
    m = game_map("base")
    result = flow_drop(m, 5, {"D5U": 1}, {})
    assert result == FlowResult(stopped_at="D5U", exit=None, basins_entered=(5,))


def test_flow_drops_does_not_change_the_input() -> None:
    """flow_drops works on a copy: each drop sees earlier drops, the caller's mapping is kept."""
    m = game_map("base")
    water = {"D1U": 0}
    results = flow_drops(m, 1, 2, {"D1U": 1}, water)
    assert [r.stopped_at for r in results] == ["D1U", None]
    assert water == {"D1U": 0}


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_every_headstream_reaches_an_exit(map_id: str) -> None:
    """With no dams built, a drop from each headstream leaves by an exit along its path."""
    m = game_map(map_id)
    for hs in m.headstreams:
        result = flow_drops(m, m.headstream_feeds[hs], 1, {}, {})[0]
        assert result.stopped_at is None
        assert result.exit in m.exits
        assert result.basins_entered == m.path_from_headstream(hs)
        assert result.exit == m.exit_of(m.headstream_feeds[hs])


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_every_basin_reaches_an_exit(map_id: str) -> None:
    """downstream() of every basin ends at a basin whose river leaves the map."""
    m = game_map(map_id)
    for basin_id, basin in m.basins.items():
        path = (basin_id, *m.downstream(basin_id))
        assert len(set(path)) == len(path)
        assert m.basins[path[-1]].river_to in m.exits
        if isinstance(basin.river_to, int):
            assert m.downstream(basin_id)[0] == basin.river_to


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_dams_catch_pass_and_fill(map_id: str) -> None:
    """On each dam space: an empty built dam catches, a full one passes, unbuilt spaces pass."""
    m = game_map(map_id)
    for dam in m.dam_spaces.values():
        basin = m.basins[dam.basin]
        # Empty built dam catches the drop.
        assert flow_drop(m, dam.basin, {dam.id: 1}, {}).stopped_at == dam.id
        # Full dam lets it pass to the exit (nothing else built).
        full = flow_drop(m, dam.basin, {dam.id: 2}, {dam.id: 2})
        assert full.stopped_at is None
        assert full.exit == m.exit_of(dam.basin)
        # Unbuilt space: capacity 0 (or absent) passes even if water is recorded.
        assert flow_drop(m, dam.basin, {dam.id: 0}, {}).stopped_at is None
        # Upper catches before lower.
        upper, lower = basin.dam_spaces
        both = {upper: 1, lower: 1}
        drops = flow_drops(m, dam.basin, 3, both, {})
        assert [d.stopped_at for d in drops] == [upper, lower, None]


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_downstream_dam_catches_overflow(map_id: str) -> None:
    """A drop passing a full dam is caught by the next built dam downstream."""
    m = game_map(map_id)
    for basin_id in m.basins:
        below = [b for b in m.downstream(basin_id) if m.basins[b].dam_spaces]
        if not m.basins[basin_id].dam_spaces or not below:
            continue
        here = m.basins[basin_id].dam_spaces[0]
        there = m.basins[below[0]].dam_spaces[1]
        result = flow_drop(m, basin_id, {here: 1, there: 3}, {here: 1, there: 2})
        assert result.stopped_at == there
        assert result.basins_entered[-1] == below[0]


@st.composite
def positions(draw: st.DrawFn) -> tuple[MapData, dict[str, int], dict[str, int], int, int]:
    """A map, dam capacities and water, a start basin and a number of drops."""
    m = game_map(draw(st.sampled_from(MAP_IDS)))
    capacity: dict[str, int] = {}
    water: dict[str, int] = {}
    for dam_id in m.dam_spaces:
        cap = draw(st.integers(0, 4))
        capacity[dam_id] = cap
        water[dam_id] = draw(st.integers(0, cap)) if cap else 0
    start = draw(st.sampled_from(sorted(m.basins)))
    return m, capacity, water, start, draw(st.integers(0, 12))


@settings(deadline=None, max_examples=150)
@given(positions())
def test_water_is_conserved(
    position: tuple[MapData, dict[str, int], dict[str, int], int, int],
) -> None:
    """Every drop sent is either caught by a dam with room or leaves by an exit."""
    m, capacity, water, start, count = position
    results = flow_drops(m, start, count, capacity, water)
    caught = [r.stopped_at for r in results if r.stopped_at is not None]
    exited = [r.exit for r in results if r.stopped_at is None]
    assert len(caught) + len(exited) == count
    assert all(e in m.exits for e in exited)
    after = dict(water)
    for dam_id in caught:
        after[dam_id] += 1
    assert all(after[d] <= capacity[d] for d in capacity)
    # A drop only leaves the map when every built dam on its path is full.
    path = (start, *m.downstream(start))
    for r in results:
        assert r.basins_entered[0] == start
    if exited:
        for basin_id in path:
            for dam_id in m.basins[basin_id].dam_spaces:
                assert after[dam_id] == capacity[dam_id]
