"""Every base executive officer in a scenario: set up, mutate, play notations, check numbers."""

from __future__ import annotations

from bot.rules.water import flow_from_headstream

from .full_helpers import own_dam, play, prepare, scenario, total


def officers(game, **by_company: str) -> None:
    """Set officers of companies."""
    for company_id, officer in by_company.items():
        game.company(company_id).officer = officer


def test_graziano_level_three_dams_hold_four() -> None:
    game = scenario()
    a, b = game.state.turn_order[:2]
    officers(game, **{a: "graziano_del_monte", b: "wilhelm_adler"})
    own_dam(game, a, "D1L", level=3, water=3)
    own_dam(game, b, "D2L", level=3, water=3)
    own_dam(game, a, "D3L", level=2, water=2)
    assert game.dam_capacity("D1L") == 4 and game.dam_capacity("D2L") == 3
    assert game.dam_capacity("D3L") == 2  # lower levels as usual
    flow_from_headstream(game, "HA", "test")
    flow_from_headstream(game, "HB", "test")
    assert game.state.dams["D1L"].water == 4
    assert game.state.dams["D2L"].water == 3  # full: the drop went on


def test_wilhelm_bases_cost_three_excavators_anywhere() -> None:
    game = scenario()
    cid = game.state.turn_order[0]
    officers(game, **{cid: "wilhelm_adler"})
    game = prepare(game, cid, tiles=["basic_base"], excavators=3)
    play(game, "build", "base D1U", "pay 3e")
    company = game.company(cid)
    assert company.excavators == 0
    assert company.credits == 27  # the red outline still costs 3


def test_jill_pays_a_conduit_in_mixers() -> None:
    game = scenario()
    cid = game.state.turn_order[0]
    officers(game, **{cid: "jill_mcdowell"})
    game = prepare(game, cid, tiles=["basic_conduit"], excavators=8, mixers=4)
    play(game, "build", "conduit C1R")
    assert game.decision().notations == ["pay 8e", "pay 4m"]
    play(game, "pay 4m")
    company = game.company(cid)
    assert (company.excavators, company.mixers) == (8, 0)


def test_solomon_pays_credits_for_machinery() -> None:
    game = scenario()
    cid = game.state.turn_order[0]
    officers(game, **{cid: "solomon_p_jordan"})
    game = prepare(game, cid, tiles=["basic_base"], excavators=1, credits=12)
    play(game, "build", "base D5L")
    assert game.decision().notations == ["pay 1e 9c", "pay 12c"]
    play(game, "pay 1e 9c")
    company = game.company(cid)
    assert (company.excavators, company.credits) == (0, 3)
    segment = company.wheel[(company.wheel_open - 1) % 6]
    assert segment.excavators == 1  # the credits went to the supply, not onto the wheel


def test_viktor_counts_a_small_production_as_four() -> None:
    game = scenario()
    cid = game.state.turn_order[0]
    officers(game, **{cid: "viktor_fiesler"})
    own_dam(game, cid, "D8L", water=1)
    game.state.conduits["C8R"] = cid  # basin 8 -> 9, value 2
    game.state.powerhouses["P9_0"] = cid
    game.company(cid).placed.update(conduit=1, powerhouse=1)
    game = prepare(game, cid)
    events = play(game, "turbine_minus2_left", "produce D8L C8R 1")
    assert total(events, "energy") == 4 - 2  # minimum 4, then the malus


def test_anton_starts_with_his_tile_and_copies_effects() -> None:
    # The copy itself is covered in test_advanced_tiles (adv_1_conduit, adv_3_base via build_free).
    game = scenario()
    cid = game.state.turn_order[0]
    officers(game, **{cid: "anton_krylov"})
    game = prepare(game, cid, tiles=["anton_tile", "basic_base"], excavators=4)
    game.company(cid).wheel[1].tiles.append("adv_3_powerhouse")
    game.state.powerhouses["P6_0"] = cid
    game.company(cid).placed["powerhouse"] = 1
    events = play(game, "build", "powerhouse P5_0", "tile anton_tile adv_3_powerhouse", "pay 3m")
    assert total(events, "vp", "tile:adv_3_powerhouse") == 6


def mahiri_game(players: int = 4):
    """A game where the first company has Mahiri and the others known officers."""
    game = scenario(players=players)
    order = game.state.turn_order
    others = ["wilhelm_adler", "viktor_fiesler", "solomon_p_jordan"]
    officers(game, **{order[0]: "mahiri_sekibo"})
    officers(game, **dict(zip(order[1:], others, strict=False)))
    return game, order[0]


def test_mahiri_copies_for_the_rest_of_the_turn_then_acts() -> None:
    game, cid = mahiri_game()
    game = prepare(game, cid, tiles=["basic_base"], excavators=3)
    assert "mahiri" in game.decision().notations
    play(game, "mahiri")
    copy = game.decision()
    assert sorted(copy.notations) == [
        "copy solomon_p_jordan",
        "copy viktor_fiesler",
        "copy wilhelm_adler",
    ]
    play(game, "copy wilhelm_adler")
    assert game.decision().kind == "turn_after_copy"
    assert "mahiri" not in game.decision().notations
    play(game, "build", "base D1L", "pay 3e")
    company = game.company(cid)
    assert company.excavators == 0  # Wilhelm's 3 in the mountains
    assert company.engineers == 12 - 1 - 1
    assert "copied_officer" not in company.extra  # the copy ended with the action
    assert game.state.spaces["mahiri_1"] == [[cid, 1]]
    play(game, "confirm")


def test_mahiri_second_use_costs_three_and_there_is_no_third() -> None:
    game, cid = mahiri_game()
    game.state.spaces["mahiri_1"] = [[cid, 1]]
    game = prepare(game, cid, credits=3, engineers=5)
    events = play(game, "mahiri", "copy viktor_fiesler", "bank", "engineers 1")
    assert total(events, "credits", "officer:mahiri_2") == -3
    assert game.company(cid).credits == 1
    game.state.stack[-1] = {"kind": "turn", "player": cid}  # her next turn
    game = prepare(game, cid, credits=10, engineers=5)
    assert "mahiri" not in game.decision().notations


def test_mahiri_needs_three_credits_for_the_second_use_and_two_engineers() -> None:
    game, cid = mahiri_game()
    game.state.spaces["mahiri_1"] = [[cid, 1]]
    game = prepare(game, cid, credits=2)
    assert "mahiri" not in game.decision().notations
    game = prepare(game, cid, credits=3, engineers=1)
    assert "mahiri" not in game.decision().notations


def test_mahiri_at_two_players_copies_the_spare_officers() -> None:
    game, cid = mahiri_game(players=2)
    other = next(c for c in game.state.seats if c != cid)
    game.state.extra["spare_officers"] = ["graziano_del_monte", "jill_mcdowell"]
    game = prepare(game, cid)
    play(game, "mahiri")
    assert game.decision().notations == [
        f"copy {game.officer_of(other)}",
        "copy graziano_del_monte",
        "copy jill_mcdowell",
    ]


def test_mahiri_copying_viktor_and_her_engineers_come_back() -> None:
    game, cid = mahiri_game()
    own_dam(game, cid, "D8L", water=1)
    game.state.conduits["C8R"] = cid
    game.state.powerhouses["P9_0"] = cid
    game.company(cid).placed.update(conduit=1, powerhouse=1)
    game = prepare(game, cid)
    events = play(game, "mahiri", "copy viktor_fiesler", "turbine_zero_left", "produce D8L C8R 1")
    assert total(events, "energy", "production") == 4
    assert game.company(cid).engineers == 12 - 1 - 2
    play(game, "contract none", "confirm")
    game.rules.tasks["end_of_round"].run(game, {"kind": "end_of_round"})
    assert game.company(cid).engineers == 12


def test_illegal_full_game_actions_are_explained() -> None:
    import pytest

    from bot.rules import IllegalMove

    game, cid = mahiri_game()
    game.state.spaces["mahiri_1"] = [[cid, 1]]
    game = prepare(game, cid, credits=2)
    with pytest.raises(IllegalMove, match="second use costs 3 credits; you have 2"):
        game.apply("mahiri")
    with pytest.raises(IllegalMove, match="no engineer-free tile"):
        game.apply("build_free")
    other = game.state.turn_order[1]
    game = prepare(game, other)
    with pytest.raises(IllegalMove, match="only Mahiri Sekibo"):
        game.apply("mahiri")
