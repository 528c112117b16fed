"""Every contract reward (starting, national, green, yellow, red), bonus and objective tile."""

from __future__ import annotations

import pytest

from bot.rules.content import load_content
from bot.rules.flow import bonus_reward, objective_awards, objective_counts
from bot.rules.state import Dam

from .full_helpers import own_dam, play, prepare, scenario, total

CONTENT = load_content()
CONTRACTS = sorted(c.id for c in CONTENT.contracts.values() if c.set == "base")
BUILD_KEYS = {
    "build_base_in_areas": "base",
    "build_conduit_max_production": "conduit",
    "build_powerhouse": "powerhouse",
    "build_elevation": "elevation",
}


def resolve_follow_ups(game, cid) -> list:
    """Answer the reward's decisions with their first option (most drops, all excavators...)."""
    events = []
    while game.decision().kind != "confirm":
        decision = game.decision()
        assert decision.player == cid
        events += game.apply(decision.options[0], cid)
    return events


@pytest.mark.parametrize("contract_id", CONTRACTS)
def test_contract_reward(contract_id: int) -> None:
    contract = CONTENT.contracts[contract_id]
    game = scenario()
    cid = game.state.turn_order[0]
    company = game.company(cid)
    # A production of 3 drops × 5 = 15 energy: enough for every contract.
    own_dam(game, cid, "D1L", level=3, water=3)
    own_dam(game, cid, "D5L")  # room for reward elevations
    game.state.conduits["C1L"] = cid
    game.state.powerhouses["P8_0"] = cid
    company.placed.update(conduit=1, powerhouse=1)
    if contract.kind == "national":
        company.contracts = []
        game.state.national_offer = [contract_id]
    else:
        company.contracts = [contract_id]
    game = prepare(game, cid)
    before = {r: getattr(company, r) for r in ("credits", "vp", "excavators", "mixers")}
    events = play(game, "turbine_zero_left", "produce D1L C1L 3", f"contract {contract_id}")
    events += resolve_follow_ups(game, cid)
    source = f"contract:{contract_id}"
    reward = contract.reward
    assert company.fulfilled == [contract_id]
    assert contract_id not in company.contracts + game.state.national_offer
    for resource in ("credits", "vp", "mixers"):
        assert total(events, resource, source) == reward.get(resource, 0), resource
    # The first machinery option is all excavators.
    expected = reward.get("excavators", 0) + reward.get("machinery_choice", 0)
    assert total(events, "excavators", source) == expected
    assert total(events, "energy", source) == reward.get("energy", 0)
    rotations = sum(e.amount for e in events if e.kind == "wheel_rotate" and e.source == source)
    assert rotations == reward.get("rotate_wheel", 0)
    flowing = [e for e in events if e.kind == "water" and e.source == source]
    assert len(flowing) == reward.get("water_drops_flowing", 0)
    placed = [e for e in events if e.kind == "drop_placed" and e.source == source]
    assert len(placed) == reward.get("water_drops_delayed", 0)
    built = [e.data["structure"] for e in events if e.kind == "build"]
    expected_builds = []
    for key, kind in BUILD_KEYS.items():
        if key in reward:
            count = reward[key] if key == "build_elevation" else 1
            expected_builds += [kind] * count
    assert sorted(built) == sorted(expected_builds)
    # Every VP change is accounted for (D1L and D5L hold the only own water).
    assert company.vp - before["vp"] == total(events, "vp")


def test_reward_build_respects_its_limits() -> None:
    from bot.rules.rewards import apply_reward

    game = scenario()
    cid = game.state.turn_order[0]

    apply_reward(game, cid, {"build_conduit_max_production": 2}, "test")
    game.advance()
    decision = game.decision()
    spaces = [o.move.space for o in decision.options if getattr(o.move, "space", None)]
    assert spaces and all(game.map.conduit_spaces[s].production <= 2 for s in spaces)
    assert "conduit none" in decision.notations


# -- bonus tiles ------------------------------------------------------------------------------


def bonus_position():
    game = scenario()
    cid = game.state.turn_order[0]
    company = game.company(cid)
    company.fulfilled = [1, 201, 100]
    company.placed.update(base=2, elevation=3, conduit=1, powerhouse=4)
    company.tiles = ["basic_base", "adv_1_base", "anton_tile"]
    company.wheel[2].tiles = ["adv_3_wild"]
    return game, cid


@pytest.mark.parametrize(
    ("tile", "count"),
    [
        ("contracts", 3),
        ("bases", 2),
        ("elevations", 3),
        ("conduits", 1),
        ("powerhouses", 4),
        ("advanced_tiles", 2),
    ],
)
def test_bonus_tile_counting(tile: str, count: int) -> None:
    game, cid = bonus_position()
    each = CONTENT.bonus_tiles[tile].vp_each
    game.company(cid).energy = 6
    assert bonus_reward(game, cid, tile)[0] == count * each  # round 1, first section reached
    game.state.round = 3
    assert bonus_reward(game, cid, tile)[0] == max(0, count * each - 8)  # two sections behind
    game.company(cid).energy = 18
    assert bonus_reward(game, cid, tile)[0] == count * each
    game.company(cid).energy = 5
    assert bonus_reward(game, cid, tile)[0] == 0


def test_bonus_tile_scored_in_the_scoring_phase() -> None:
    game, cid = bonus_position()
    game.state.bonus_tiles[0] = "advanced_tiles"
    game.company(cid).energy = 7
    game.events = []
    game.rules.tasks["scoring"].run(game, {"kind": "scoring"})
    assert total(game.events, "vp", "bonus:advanced_tiles") == 2 * 4


# -- objective tiles ----------------------------------------------------------------------------


def objective_position():
    game = scenario()
    a = game.state.turn_order[0]
    game.state.dams["D1U"] = Dam(owner=a, level=2)  # red, mountain: base + elevation
    game.state.dams["D5L"] = Dam(owner=a, level=1)  # hill
    game.state.conduits["C1R"] = a  # from basin 1 (mountain) to basin 5
    game.state.powerhouses["P5_0"] = a  # hill, not red
    game.state.powerhouses["P8_2"] = a  # plain, red
    return game, a


@pytest.mark.parametrize(
    ("objective", "count"),
    [
        ("red_outlined_spaces", 2),
        ("most_in_one_area", 3),
        ("fewest_in_one_area", 1),
        ("connected_systems", 1),
        ("basins_with_one", 3),
        ("basins_with_three", 1),
    ],
)
def test_objective_counting(objective: str, count: int) -> None:
    game, a = objective_position()
    counts = objective_counts(game, objective)
    assert counts[a] == count
    assert all(n == 0 for cid, n in counts.items() if cid != a)
    awards = objective_awards(counts, CONTENT.objective_vp_by_place)
    assert awards[a] == 15
    # Three tied for 2nd-4th share 10 + 5 + 0 (RULINGS 7).
    assert all(vp == 5 for cid, vp in awards.items() if cid != a)


def test_connected_systems_needs_own_conduit_and_own_powerhouse() -> None:
    game, a = objective_position()
    b = game.state.turn_order[1]
    own_dam(game, b, "D2L")
    game.state.conduits["C2L"] = a  # not b's
    game.state.powerhouses["P6_0"] = b
    assert objective_counts(game, "connected_systems")[b] == 0
    game.state.conduits["C2L"] = b
    assert objective_counts(game, "connected_systems")[b] == 1


def test_objective_scored_at_the_end() -> None:
    game, a = objective_position()
    game.state.objective = "basins_with_one"
    game.events = []
    game.rules.tasks["end_game"].run(game, {"kind": "end_game"})
    scored = {e.company: e.amount for e in game.events if e.source == "objective:basins_with_one"}
    assert scored == {cid: 15 if cid == a else 5 for cid in game.state.seats}
    assert game.state.finished
