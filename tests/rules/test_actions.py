"""Scenario tests of actions: construction costs and incomes, contracts, production, abilities."""

from __future__ import annotations

import pytest

from bot.rules import IllegalMove
from bot.rules.position import load_position

TWO = '[game]\nplayers = 2\nturn_order = ["usa", "italy"]\n'


def play(game, player: str, *notations: str) -> list:
    """Apply notations for one player; return all events."""
    events = []
    for notation in notations:
        events += game.apply(notation, player)
    return events


def test_base_in_the_hills_on_a_red_space_costs_4_excavators_and_3_credits() -> None:
    game = load_position(TWO + '[company.usa]\nofficer = "viktor_fiesler"\n')
    usa = game.state.companies["usa"]
    play(game, "usa", "build", "base D5U", "tile basic_base")
    assert (usa.excavators, usa.credits, usa.engineers) == (2, 3, 11)
    segment = usa.wheel[(usa.wheel_open - 1) % 6]
    assert segment.tiles == ["basic_base"] and segment.excavators == 4
    assert game.state.dams["D5U"].owner == "usa"


def test_wilhelm_builds_bases_for_3_excavators_anywhere() -> None:
    game = load_position(TWO)  # the USA's introductory officer is Wilhelm Adler
    play(game, "usa", "build", "base D1L", "tile basic_base")
    assert game.state.companies["usa"].excavators == 3


def test_second_base_uncovers_income_paid_at_once() -> None:
    """Italy's first base income is 3 credits, paid immediately and again every round."""
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\n'
        '[company.italy]\nexcavators = 10\n[map]\nD8U = { owner = "italy", level = 1 }\n'
    )
    events = play(game, "italy", "build", "base D9U", "tile basic_base", "pay 3e")
    credits = [(e.amount, e.source) for e in events if e.kind == "credits"]
    assert credits == [(-3, "red-outline:D9U"), (3, "income:base:2")]


def test_powerhouse_cost_rises_with_each_one_built() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\n'
        '[company.italy]\nmixers = 20\ncredits = 20\n[map]\nP5_0 = "italy"\nP6_0 = "italy"\n'
    )
    options = {o.notation: o.label for o in game.decision().options}
    assert "build" in options
    play(game, "italy", "build")
    labels = {o.notation: o.label for o in game.decision().options}
    assert "4 mixers" in labels["powerhouse P8_0"]  # third powerhouse: 2 + 2
    assert (
        "4 mixers + 3 credits" in labels["powerhouse P8_1"]
        or "red" not in labels["powerhouse P8_1"]
    )


def test_fourth_construction_space_needs_3_engineers_and_3_credits() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\n'
        "[company.italy]\nconstruction_spaces_used = 3\nengineers = 6\ncredits = 10\n"
    )
    play(game, "italy", "build", "conduit C5L", "tile basic_conduit")
    italy = game.state.companies["italy"]
    assert italy.engineers == 3
    assert italy.credits == 7


def test_no_build_offered_when_engineers_are_short() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\n'
        "[company.italy]\nconstruction_spaces_used = 2\nengineers = 2\n"
    )
    assert "build" not in game.decision().notations
    with pytest.raises(IllegalMove, match="needs 3 engineers; you have 2"):
        game.apply("build", "italy")


def test_taking_two_contracts_over_the_limit_forces_a_discard() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\n'
        "[contracts]\ngreen = [200, 201]\ngreen_pile = [202]\nyellow = [300, 301]\nyellow_pile = [302]\n"
        "[company.italy]\ncontracts = [3, 203]\n"
    )
    play(game, "italy", "contracts_take2_left", "take 200", "take 300")
    decision = game.decision()
    assert decision.kind == "discard_contract"
    play(game, "italy", "discard 3")
    assert sorted(game.state.companies["italy"].contracts) == [200, 203, 300]
    # The offer is refilled only at Confirm (hidden information).
    assert game.state.private_offer["green"] == [201]
    events = play(game, "italy", "confirm")
    assert game.state.private_offer["green"] == [201, 202]
    assert game.state.private_offer["yellow"] == [301, 302]
    assert any(e.kind == "turn_end" and e.data["revealed"] == [202, 302] for e in events)


PRODUCTION = (
    '[game]\nplayers = 2\nturn_order = ["{first}", "{second}"]\n'
    "[map]\n"
    'D1L = {{ owner = "neutral", level = 1, water = 1 }}\n'
    'D1U = {{ owner = "{first}", level = 2, water = 2 }}\n'
    'C1L = "{conduit}"\n'
    'P8_0 = "{first}"\n'
)


def production_game(first: str, second: str, conduit: str, extra: str = ""):
    return load_position(PRODUCTION.format(first=first, second=second, conduit=conduit) + extra)


def test_production_energy_bonus_and_foreign_conduit_fee() -> None:
    """2 drops × value 5 + 2 = 12 energy; the conduit's owner gets 2 credits and 2 VP."""
    game = production_game("italy", "usa", "usa")
    events = play(game, "italy", "turbine_plus2_left", "produce D1U C1L 2")
    italy, usa = game.state.companies["italy"], game.state.companies["usa"]
    assert italy.energy == 12
    assert italy.credits == 4 and usa.credits == 8 and usa.vp == 12
    # The drops flow from the powerhouse's basin (8): D8 has no dam, so they leave the map.
    flows = [e.data for e in events if e.kind == "water"]
    assert [f["path"][0] for f in flows] == [8, 8]
    assert game.state.dams["D1U"].water == 0


def test_production_below_1_energy_is_not_offered() -> None:
    game = production_game("italy", "usa", "italy")
    game.state.dams["D1U"].water = 0
    game.state.conduits["C1L"] = "italy"
    # Only the neutral dam's drop remains: 1 × 5 - 2 = 3, still fine; a -2 space is offered.
    assert "turbine_minus2_left" in game.decision().notations


def test_viktor_counts_at_least_4_before_the_bonus() -> None:
    # France's introductory officer is Viktor; C2L (value 1) runs from basin 2 to basin 6.
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["france", "usa"]\n'
        '[map]\nD2U = { owner = "france", level = 1, water = 1 }\nC2L = "france"\nP6_0 = "france"\n'
    )
    assert game.map.conduit_spaces["C2L"].production < 4
    play(game, "france", "turbine_minus2_left", "produce D2U C2L 1")
    assert game.state.companies["france"].energy == 4 - 2


def test_contract_fulfilled_with_the_energy_of_one_production() -> None:
    game = production_game("italy", "usa", "italy", "[company.italy]\ncontracts = [3, 400]\n")
    play(game, "italy", "turbine_zero_left", "produce D1U C1L 1")
    decision = game.decision()
    assert decision.kind == "fulfil_contract"
    assert "contract 3" in decision.notations  # needs 2 energy; 5 produced
    red = game.content.contracts[400].energy
    assert ("contract 400" in decision.notations) == (red <= 5)
    play(game, "italy", "contract 3")
    italy = game.state.companies["italy"]
    assert italy.fulfilled == [3] and italy.credits == 9


def test_national_contract_needs_the_production_energy() -> None:
    game = production_game("italy", "usa", "italy")
    game.state.national_offer = [102]  # 14 energy
    game.state.dams["D1U"].level = 3
    game.state.dams["D1U"].water = 3
    game._decisions = None
    play(game, "italy", "turbine_plus2_left", "produce D1U C1L 3")  # 15 + 2 = 17
    assert "contract 102" in game.decision().notations
    play(game, "italy", "contract 102")
    assert game.state.national_offer == []
    assert game.state.companies["italy"].vp == 18


def test_italy_ability_adds_3_energy_that_does_not_count_for_contracts() -> None:
    extra = '"P5_0" = "italy"\n"P6_0" = "italy"\n'
    game = production_game("italy", "usa", "italy", extra)
    play(game, "italy", "turbine_zero_left", "produce D1U C1L 1")
    assert game.decision().kind == "fulfil_contract"
    prompt = game.decision().prompt
    assert "6 energy" in prompt  # 5 + 1 board bonus (2+ powerhouses); Italy's +3 not included
    play(game, "italy", "contract none")
    assert game.state.companies["italy"].energy == 6 + 3


def test_usa_gains_energy_for_drops_entering_basins_with_its_powerhouses() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["usa", "italy"]\nphase = "water_flow"\nrun = "phase"\n'
        "headstream_water = { HA = 2 }\n"
        '[map]\nP8_0 = "usa"\nP5_0 = "usa"\nP6_0 = "usa"\n'
    )
    # HA → basin 1 → basin 8 (a USA powerhouse) → 11: two drops, 1 energy each.
    assert game.state.companies["usa"].energy == 2


def test_germany_may_produce_a_second_time_with_another_powerhouse() -> None:
    extra = '"P5_0" = "germany"\n"P6_0" = "germany"\n"C1R" = "germany"\n'
    game = production_game("germany", "usa", "germany", extra)
    play(game, "germany", "turbine_zero_left", "produce D1U C1L 1", "contract none")
    decision = game.decision()
    assert decision.kind == "produce" and "produce none" in decision.notations
    assert all("C1L" not in n for n in decision.notations if n != "produce none")


def test_france_fulfils_contracts_needing_3_more_than_produced() -> None:
    extra = '"P5_0" = "france"\n"P6_0" = "france"\n[company.france]\ncontracts = [4]\n'
    game = production_game("france", "usa", "france", extra)
    game.state.conduits["C1L"] = "france"
    # Value 5 conduit, -2 malus, +1 board bonus: 4 energy; Viktor also applies (minimum 4).
    play(game, "france", "turbine_minus2_left", "produce D1U C1L 1")
    assert "contract 4" in game.decision().notations


def test_solomon_may_pay_machinery_with_3_credits_each() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\n[company.italy]\ncredits = 9\nexcavators = 1\n'
    )
    play(game, "italy", "build", "base D8L", "tile basic_base")
    assert game.decision().kind == "build_pay"
    assert "pay 1e 6c" in game.decision().notations
    play(game, "italy", "pay 1e 6c")
    assert game.state.companies["italy"].credits == 3


def test_jill_may_pay_a_conduit_with_mixers() -> None:
    game = load_position('[game]\nplayers = 2\nturn_order = ["germany", "usa"]\n')
    play(game, "germany", "build", "conduit C5L", "tile basic_conduit")
    notations = game.decision().notations
    value = game.map.conduit_spaces["C5L"].production
    assert f"pay {2 * value}e" in notations or 2 * value > 6
    assert f"pay {value}m" in notations


def test_income_choices_are_asked_of_everyone_at_once() -> None:
    """RULINGS 29: both players choose in any order; answers apply in turn order."""
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["france", "usa"]\nphase = "income"\nround = 2\n'
        '[map]\nD5U = { owner = "usa", level = 2 }\nD6U = { owner = "usa", level = 2 }\n'
        'D7U = { owner = "france", level = 1 }\nD8U = { owner = "france", level = 1 }\n'
    )
    decisions = game.decisions()
    assert {d.player for d in decisions} == {"france", "usa"}
    assert all(d.simultaneous for d in decisions)
    game.apply("machines 0e1m", "usa")  # the later player may answer first
    assert game.state.companies["usa"].mixers == 4  # not applied until everyone answered
    events = game.apply("machines 1e0m", "france")
    order = [e.company for e in events if e.kind in ("excavators", "mixers") and e.amount > 0]
    assert order[:2] == ["france", "usa"]
    assert game.state.companies["usa"].mixers == 5
    assert game.state.companies["france"].excavators == 7
    assert game.decision().kind == "turn"
