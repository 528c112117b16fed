"""Advanced technology tiles: each tile's cost rule and effect, the engineer-free builds, Anton."""

from __future__ import annotations

from bot.rules import Game
from bot.rules.state import Dam

from .full_helpers import own_dam, play, prepare, scenario, total

ALL_BASIC = ["basic_base", "basic_elevation", "basic_conduit", "basic_powerhouse"]


def first(game: Game) -> str:
    """The company whose turn it is at the start of round 1."""
    return game.state.turn_order[0]


def test_adv_1_base_adds_a_drop_to_each_empty_own_dam() -> None:
    game = scenario()
    cid = first(game)
    own_dam(game, cid, "D5L")
    own_dam(game, cid, "D6L", water=1)
    game.state.dams["D7L"] = Dam(owner="neutral", level=2, water=0)
    game = prepare(game, cid, tiles=["adv_1_base"])
    play(game, "build", "base D8L", "tile adv_1_base", "pay 3e")
    dams = game.state.dams
    water = [dams[space].water for space in ("D8L", "D5L", "D6L", "D7L")]
    assert water == [1, 1, 1, 0]


def test_adv_1_elevation_turns_the_wheel_per_elevation() -> None:
    game = scenario()
    cid = first(game)
    own_dam(game, cid, "D5L")
    own_dam(game, cid, "D6L", level=3)  # two elevations already
    game = prepare(game, cid, tiles=["adv_1_elevation"])
    events = play(game, "build", "elevation D5L", "tile adv_1_elevation", "pay 3m")
    rotations = [e.amount for e in events if e.kind == "wheel_rotate"]
    assert rotations == [1, 3]  # the build's own turn, then 3 elevations built
    assert game.company(cid).wheel_open == 4


def test_adv_1_conduit_pays_twice_the_value() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_1_conduit"], credits=0)
    events = play(game, "build", "conduit C1R", "tile adv_1_conduit", "pay 8e")
    assert total(events, "credits", "tile:adv_1_conduit") == 8
    assert game.company(cid).credits == 8


def test_adv_1_powerhouse_builds_without_engineers() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_1_powerhouse", "basic_base"], engineers=0)
    assert game.decision().notations == ["build_free", "pass"]
    play(game, "build_free", "powerhouse P5_1", "pay 2m")
    company = game.company(cid)
    assert company.engineers == 0 and company.construction_spaces_used == 0
    assert game.state.powerhouses["P5_1"] == cid
    assert company.credits == 27  # the red outline still costs 3
    assert company.mixers == 8


def test_engineer_free_build_with_engineers_keeps_the_construction_spaces() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_1_powerhouse", "basic_base"])
    assert "build_free" in game.decision().notations
    play(game, "build_free")
    # Only engineer-free tiles build this way: no Base (basic_base) is offered.
    assert all(n.startswith("powerhouse ") for n in game.decision().notations)
    play(game, "powerhouse P5_0", "pay 2m")
    company = game.company(cid)
    assert (company.engineers, company.construction_spaces_used) == (12, 0)


def test_a_company_without_engineers_keeps_its_turns_until_it_passes() -> None:
    game = scenario(players=2)
    a, b = game.state.turn_order
    game.company(b).engineers = 0
    game.company(b).tiles.append("adv_3_base")
    game = prepare(game, a, engineers=1)
    play(game, "bank", "confirm")
    # a has no engineers and no free tile; b has no engineers but an engineer-free tile.
    decision = game.decision()
    assert decision.player == b
    assert decision.notations == ["build_free", "pass"]
    play(game, "pass", "confirm")
    assert game.state.round == 2  # nobody could act any more: round 1 ended


def test_adv_1_wild_builds_anything_and_skips_the_red_outline() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_1_wild"])
    structures = game.decision()  # the turn
    assert "build" in structures.notations
    play(game, "build", "base D5U", "pay 4e")
    assert game.company(cid).credits == 30
    assert game.state.dams["D5U"].owner == cid


def test_adv_2_base_produces_energy_per_base_and_may_fulfil_a_contract() -> None:
    game = scenario()
    cid = first(game)
    own_dam(game, cid, "D6L")
    game.company(cid).contracts = [202]
    game = prepare(game, cid, tiles=["adv_2_base"])
    events = play(game, "build", "base D5L", "tile adv_2_base", "pay 4e", "contract 202")
    assert total(events, "energy", "tile:adv_2_base") == 2
    assert total(events, "credits", "contract:202") == 5
    assert game.company(cid).fulfilled == [202]


def test_adv_2_elevation_fills_the_dam() -> None:
    game = scenario()
    cid = first(game)
    own_dam(game, cid, "D5L", level=2, water=1)
    game = prepare(game, cid, tiles=["adv_2_elevation"])
    play(game, "build", "elevation D5L", "tile adv_2_elevation", "pay 3m")
    assert (game.state.dams["D5L"].level, game.state.dams["D5L"].water) == (3, 3)


def test_adv_2_elevation_with_graziano_fills_four() -> None:
    game = scenario()
    cid = first(game)
    game.company(cid).officer = "graziano_del_monte"
    own_dam(game, cid, "D5L", level=2)
    game = prepare(game, cid, tiles=["adv_2_elevation"])
    play(game, "build", "elevation D5L", "tile adv_2_elevation", "pay 3m")
    assert game.state.dams["D5L"].water == 4


def test_adv_2_conduit_costs_at_most_five_excavators() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_2_conduit"], excavators=5)
    play(game, "build", "conduit C1L", "tile adv_2_conduit", "pay 5e")
    assert game.state.conduits["C1L"] == cid
    assert game.company(cid).excavators == 0


def test_adv_2_powerhouse_offers_a_production_with_plus_two() -> None:
    game = scenario()
    cid = first(game)
    own_dam(game, cid, "D1L", water=2)
    game.state.conduits["C1R"] = cid
    game.company(cid).placed["conduit"] = 1
    game = prepare(game, cid, tiles=["adv_2_powerhouse"])
    play(game, "build", "powerhouse P5_0", "pay 2m")
    decision = game.decision()
    assert decision.kind == "produce"
    assert "produce none" in decision.notations
    events = play(game, "produce D1L C1R 1")
    assert total(events, "energy") == 4 + 2


def test_adv_2_wild_mixes_machinery() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_2_wild"], excavators=1, mixers=5)
    play(game, "build", "base D5L")
    assert game.decision().notations == ["pay 1e 3m", "pay 4m"]
    play(game, "pay 1e 3m")
    company = game.company(cid)
    assert (company.excavators, company.mixers) == (0, 2)


def test_adv_3_base_is_engineer_free_and_needs_no_excavators() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_3_base"], excavators=0, engineers=0)
    play(game, "build_free", "base D5U", "pay 0")
    company = game.company(cid)
    assert company.credits == 27  # the red outline's 3 credits are still due
    assert game.state.dams["D5U"].owner == cid
    assert company.wheel[company.wheel_open - 1].tiles == ["adv_3_base"]


def test_adv_3_elevation_scores_per_raised_dam() -> None:
    game = scenario()
    cid = first(game)
    own_dam(game, cid, "D5L", level=2)
    own_dam(game, cid, "D6L")
    own_dam(game, cid, "D7L")
    game = prepare(game, cid, tiles=["adv_3_elevation"])
    events = play(game, "build", "elevation D6L", "tile adv_3_elevation", "pay 3m")
    assert total(events, "vp", "tile:adv_3_elevation") == 6


def test_adv_3_conduit_produces_twice_the_value() -> None:
    game = scenario()
    cid = first(game)
    game.company(cid).contracts = [209]  # green, 3 energy: 4 VP + 2 credits
    game = prepare(game, cid, tiles=["adv_3_conduit"])
    events = play(game, "build", "conduit C1R", "tile adv_3_conduit", "pay 8e", "contract 209")
    assert total(events, "energy", "tile:adv_3_conduit") == 8
    assert total(events, "vp", "contract:209") == 4


def test_adv_3_powerhouse_scores_per_powerhouse() -> None:
    game = scenario()
    cid = first(game)
    game.state.powerhouses["P6_0"] = cid
    game.company(cid).placed["powerhouse"] = 1
    game = prepare(game, cid, tiles=["adv_3_powerhouse"])
    events = play(game, "build", "powerhouse P5_0", "tile adv_3_powerhouse", "pay 3m")
    assert total(events, "vp", "tile:adv_3_powerhouse") == 6


def test_adv_3_wild_scores_per_advanced_tile_owned() -> None:
    game = scenario()
    cid = first(game)
    game = prepare(game, cid, tiles=["adv_3_wild", "adv_1_base", "basic_base"])
    game.company(cid).wheel[3].tiles.append("adv_2_base")
    events = play(game, "build", "conduit C1R", "tile adv_3_wild", "pay 8e")
    assert total(events, "vp", "tile:adv_3_wild") == 9  # adv_1_base, adv_2_base, itself


def test_anton_copies_a_tile_on_his_wheel() -> None:
    game = scenario()
    cid = first(game)
    game.company(cid).officer = "anton_krylov"
    game = prepare(game, cid, tiles=["anton_tile", "basic_base"], credits=0)
    company = game.company(cid)
    company.wheel[2].tiles.append("adv_1_conduit")
    events = play(game, "build", "conduit C1R", "tile anton_tile adv_1_conduit", "pay 8e")
    assert total(events, "credits", "tile:adv_1_conduit") == 8
    assert company.wheel[0].tiles == ["anton_tile"]
    assert company.wheel[2].tiles == ["adv_1_conduit"]


def test_anton_copies_the_engineer_free_use() -> None:
    game = scenario()
    cid = first(game)
    game.company(cid).officer = "anton_krylov"
    game = prepare(game, cid, tiles=["anton_tile"], engineers=0)
    game.company(cid).wheel[4].tiles.append("adv_3_base")
    game = prepare(game, cid, tiles=["anton_tile"], engineers=0)
    play(game, "build_free", "base D5L", "pay 0")
    assert game.state.dams["D5L"].owner == cid
    assert game.company(cid).excavators == 10


def test_anton_without_wheel_tiles_cannot_use_his_tile() -> None:
    game = scenario()
    cid = first(game)
    game.company(cid).officer = "anton_krylov"
    game = prepare(game, cid, tiles=["anton_tile"])
    assert "build" not in game.decision().notations


def test_advanced_tiles_bonus_counts_supply_and_wheel() -> None:
    from bot.rules.flow import bonus_count

    game = scenario()
    cid = first(game)
    company = game.company(cid)
    company.tiles = [*ALL_BASIC, "anton_tile", "adv_1_base", "adv_2_wild"]
    company.wheel[1].tiles = ["adv_3_elevation", "basic_conduit"]
    assert bonus_count(game, cid, "advanced_tiles") == 3
