"""Construction Sites and Bridges: cost, placement rules, each Bridge tile, reward Bridges."""

from __future__ import annotations

import pytest

from bot.rules.construction import structure_spaces
from bot.rules.contracts import fulfil_contract
from bot.rules.expansions.colorado.board import bridge_cost
from bot.rules.expansions.leeghwater import tables as lw_tables
from bot.rules.flow import bonus_count, objective_counts
from bot.rules.rewards import apply_reward
from bot.rules.state import NEUTRAL, Dam
from tests.rules.expansions.colorado.helpers import board, bridged, drafted_colorado, ready
from tests.rules.full_helpers import own_dam, play, total


def _game():
    game = drafted_colorado()
    a, b = game.state.seats[:2]
    return game, a, b


def test_worked_example_bridge_cost_and_no_elevation_afterwards() -> None:
    """Rulebook: one Bridge already built in the Mountains (red's); green pays 1 + 2 = 3."""
    game, green, red = _game()
    bridged(game, red, "D1L", "BR1")
    board(game)["sites"]["CS_M"] = ["BR5", "BR2", "BR3"]
    own_dam(game, green, "D2L")
    game = ready(game, green, credits=10)
    site = game.decision().find("site CS_M")
    assert site is not None and "3 credits" in site.label
    events = play(game, "site CS_M", "bridge BR5 D2L")
    assert total(events, "credits", "space:CS_M") == -3
    assert total(events, "vp") == 3
    assert board(game)["bridges"]["D2L"] == "BR5"
    assert board(game)["sites"]["CS_M"] == ["BR2", "BR3"]
    elevation = game.rules.structures["elevation"]
    assert "D2L" not in structure_spaces(game, green, elevation, {})
    assert "D2L" in structure_spaces(game, green, elevation, {"lift_bridge": True})


def test_cost_sequence_1_3_5_7() -> None:
    game, _a, b = _game()
    costs = [bridge_cost(game, "CS_M")]
    for space, tile in (("D1L", "BR1"), ("D2L", "BR2"), ("D3L", "BR3")):
        bridged(game, b, space, tile)
        costs.append(bridge_cost(game, "CS_M"))
    assert costs == [1, 3, 5, 7]
    assert bridge_cost(game, "CS_H") == 1


def test_only_own_dams_of_the_area_in_a_basin_without_a_bridge() -> None:
    game, a, b = _game()
    board(game)["sites"]["CS_M"] = ["BR5"]
    own_dam(game, a, "D1L")  # basin 1: b's Bridge is there
    bridged(game, b, "D1U", "BR1")
    own_dam(game, b, "D2L")  # an opponent's dam
    game.state.dams["D3L"] = Dam(owner=NEUTRAL, level=1, water=1)
    own_dam(game, a, "D5L")  # hill
    game = ready(game, a)
    notations = game.decision().notations
    assert "site CS_M" not in notations
    assert "site CS_H" in notations
    own_dam(game, a, "D4U")
    game = ready(game, a)
    events = play(game, "site CS_M")  # one tile, one dam: placed without asking
    assert next(e.data["notation"] for e in events if e.kind == "auto") == "bridge BR5 D4U"
    assert board(game)["bridges"] == {"D1U": "BR1", "D4U": "BR5"}


def test_no_site_without_tiles_credits_or_engineers() -> None:
    game, a, _b = _game()
    own_dam(game, a, "D1L")
    board(game)["sites"]["CS_M"] = []
    assert "site CS_M" not in ready(game, a).decision().notations
    board(game)["sites"]["CS_M"] = ["BR2"]
    assert "site CS_M" not in ready(game, a, credits=0).decision().notations
    assert "site CS_M" in ready(game, a, credits=1).decision().notations


def _system(game, company_id: str) -> None:
    """A production system: own dam D2L with water, conduit C2L, powerhouse P5_0."""
    game.state.dams["D2L"].water = 1
    game.state.conduits["C2L"] = company_id
    game.state.powerhouses["P5_0"] = company_id
    game.company(company_id).placed["conduit"] += 1
    game.company(company_id).placed["powerhouse"] += 1


# tile -> (resource changes besides the site's 1 credit, or the decision that follows)
TILES = {
    "BR1": ("wheel_rotate", 2),
    "BR2": ("credits", 5 - 1),
    "BR3": ("excavators", 2),
    "BR4": ("production", 1),  # the only system (1 drop, D2L→C2L→P5_0), applied at once
    "BR5": ("vp", 3),
    "BR6": ("decision", "place_drops"),
    "BR7": ("mixers", 1),
    "BR8": ("energy", 5),
    "BR9": ("decision", "place_drops"),
    "BR10": ("decision", "take_contract"),
}


@pytest.mark.parametrize("tile", sorted(TILES))
def test_each_bridge_tile_gives_its_bonus(tile: str) -> None:
    game, a, _b = _game()
    board(game)["sites"]["CS_M"] = [tile]
    own_dam(game, a, "D2L")
    _system(game, a)
    game = ready(game, a)
    events = play(game, "site CS_M", f"bridge {tile} D2L")
    kind, expected = TILES[tile]
    if kind == "decision":
        assert game.decision().kind == expected
        if tile == "BR6":
            assert "drops none" in game.decision().notations
    elif kind == "production":
        assert sum(1 for e in events if e.kind == "production") == expected
    else:
        assert total(events, kind) == expected
    if tile == "BR7":
        assert total(events, "credits") == 2 - 1


def test_free_bridge_contract_215_any_area_and_may_be_declined() -> None:
    game, a, _b = _game()
    own_dam(game, a, "D2L")
    own_dam(game, a, "D8L")
    game = ready(game, a)
    game.company(a).contracts.append(215)
    fulfil_contract(game, a, 215)
    game.advance()
    notations = game.decision().notations
    assert "bridge none" in notations
    assert any(n.endswith(" D2L") for n in notations) and any(n.endswith(" D8L") for n in notations)
    site_tile = board(game)["sites"]["CS_P"][0]
    credits = game.company(a).credits
    play(game, f"bridge {site_tile} D8L")
    assert board(game)["bridges"]["D8L"] == site_tile
    assert bridge_cost(game, "CS_P") == 3  # a free Bridge still counts for the site
    assert game.company(a).credits >= credits


def test_external_work_a6_builds_a_base_and_a_bridge_on_it() -> None:
    game, a, _b = _game()
    game = ready(game, a)
    apply_reward(game, a, lw_tables.WORKS.of(game.content)["A6"].reward, "external_work:A6")
    game.advance()
    assert game.decision().kind == "reward_build"
    play(game, "base D3U")
    decision = game.decision()
    assert decision.kind == "colorado_bridge"
    assert all(n.endswith(" D3U") for n in decision.notations)
    play(game, decision.notations[0])
    assert "D3U" in board(game)["bridges"]


def test_external_work_c6_elevation_lifts_the_bridge() -> None:
    game, a, _b = _game()
    bridged(game, a, "D1L", "BR1")
    game = ready(game, a)
    apply_reward(game, a, lw_tables.WORKS.of(game.content)["C6"].reward, "external_work:C6")
    game.advance()
    assert "elevation D1L" in game.decision().notations
    events = play(game, "elevation D1L")
    assert game.state.dams["D1L"].level == 2 and board(game)["bridges"]["D1L"] == "BR1"
    assert total(events, "vp") == 0  # the 7 VP came with apply_reward


def test_bonus_tile_and_objective_count_bridges() -> None:
    game, a, b = _game()
    bridged(game, a, "D1L", "BR1", level=3)
    bridged(game, a, "D5L", "BR2", level=1)
    bridged(game, b, "D8L", "BR3", level=2)
    assert bonus_count(game, a, "bridges") == 2
    assert game.content.bonus_tiles["bridges"].vp_each == 5
    counts = objective_counts(game, "dams_with_bridge")
    assert counts[a] == 4 and counts[b] == 2
