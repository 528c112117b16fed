"""The Netherlands and the four new officers, and Mahiri Sekibo's copy of each."""

from __future__ import annotations

from bot.rules.contracts import contract_limit
from tests.rules.expansions.leeghwater.helpers import again, apply_all, auto, lwp, total

USED_BUILDINGS = (
    '[leeghwater]\nbuildings = ["energy_relay_field", "cofferdam", "wind_farm", "loan_agency", '
    '"research_lab"]\nbuilt = { energy_relay_field = ["germany"] }\n'
)


# -- Leslie Spencer -----------------------------------------------------------------------------


def test_leslie_puts_the_works_machinery_and_her_tile_on_the_wheel() -> None:
    game = lwp(
        '[leeghwater]\nworks = ["B4", "", ""]\n'
        '[company.germany]\nofficer = "leslie_spencer"\nexcavators = 3\n'
    )
    game.apply("external_work_1", "germany")
    assert game.decision().notations == ["work discard", "work wheel"]
    events = game.apply("work wheel", "germany")
    company = game.state.companies["germany"]
    assert company.excavators == 0 and company.wheel_open == 1
    assert company.wheel[0].tiles == ["leslie_tile"] and company.wheel[0].excavators == 3
    assert total(events, "vp", "external_work:B4") == 5  # the reward after the rotation
    assert company.extra["external_works"] == ["B4"]


def test_leslie_cannot_while_her_tile_is_on_the_wheel() -> None:
    game = lwp(
        '[leeghwater]\nworks = ["B4", "", ""]\n[company.germany]\nofficer = "leslie_spencer"\n'
        'tiles = ["basic_base"]\nwheel = [{ segment = 3, tiles = ["leslie_tile"] }]\n'
    )
    events = game.apply("external_work_1", "germany")
    assert "work discard" in auto(events)
    assert game.state.companies["germany"].excavators == 3


def test_mahiri_copies_leslie_without_the_tile() -> None:
    game = lwp(
        '[leeghwater]\nworks = ["B4", "", ""]\n[company.germany]\nofficer = "mahiri_sekibo"\n'
        '[company.usa]\nofficer = "leslie_spencer"\n'
    )
    apply_all(game, "germany", "mahiri", "copy leslie_spencer", "external_work_1")
    assert game.decision().notations == ["work discard", "work wheel"]
    game.apply("work wheel", "germany")
    company = game.state.companies["germany"]
    assert company.wheel[0].tiles == [] and company.wheel[0].excavators == 3
    assert "copied_officer" not in company.extra


# -- Margot Fouché ------------------------------------------------------------------------------


def test_margot_uses_a_building_twice_in_a_round() -> None:
    game = lwp(USED_BUILDINGS + '[company.germany]\nofficer = "margot_fouche"\n')
    events = game.apply("margot energy_relay_field", "germany")
    assert total(events, "engineers") == -1 and game.state.spaces["margot"] == [["germany", 1]]
    assert game.state.companies["germany"].energy == 4
    game.apply("confirm", "germany")
    game = again(game, "germany")
    notations = game.decision().notations
    assert "use energy_relay_field" in notations and "margot energy_relay_field" not in notations
    game.apply("use energy_relay_field", "germany")
    assert game.state.companies["germany"].energy == 8


def test_mahiri_copies_margot_with_an_engineer_on_the_bank_for_no_credit() -> None:
    game = lwp(
        USED_BUILDINGS + '[company.germany]\nofficer = "mahiri_sekibo"\ncredits = 5\n'
        '[company.usa]\nofficer = "margot_fouche"\n'
    )
    apply_all(game, "germany", "mahiri", "copy margot_fouche")
    events = game.apply("margot_bank energy_relay_field", "germany")
    assert game.state.spaces["bank"] == [["germany", 1]]
    assert total(events, "credits") == -1  # the action's credit; nothing from the Bank
    assert game.state.companies["germany"].energy == 4


# -- Simone Luciani -----------------------------------------------------------------------------

PRODUCTION = (
    '[map]\nD1L = { owner = "germany", level = 2, water = 2 }\nC1R = "germany"\nP5_0 = "germany"\n'
)


def test_simone_holds_four_contracts() -> None:
    game = lwp(
        "[contracts]\ngreen = [200, 201]\n"
        '[company.germany]\nofficer = "simone_luciani"\ncontracts = [1, 2, 3]\n'
    )
    apply_all(game, "germany", "contracts_take1_left", "take 200")
    assert game.decision().kind == "confirm"  # no discard
    assert len(game.state.companies["germany"].contracts) == 4


def test_simone_fulfils_several_contracts_with_one_production() -> None:
    game = lwp(
        '[company.germany]\nofficer = "simone_luciani"\ncontracts = [1, 3, 104]\n' + PRODUCTION
    )
    apply_all(game, "germany", "turbine_zero_left", "produce D1L C1R 2")  # 8 energy
    assert game.decision().notations == ["contract 1", "contract 3", "contract none"]
    game.apply("contract 1", "germany")  # 3 energy: 5 left
    assert game.decision().notations == ["contract 3", "contract none"]
    game.apply("contract 3", "germany")  # 2 energy: 3 left, nothing more fits
    assert game.state.companies["germany"].fulfilled == [1, 3]


def test_others_fulfil_one_contract_per_production() -> None:
    game = lwp("[company.germany]\ncontracts = [1, 3, 104]\n" + PRODUCTION)
    apply_all(game, "germany", "turbine_zero_left", "produce D1L C1R 2", "contract 1")
    assert game.decision().kind == "confirm"


def test_mahiri_copies_simone_in_the_contract_office_limit_4_until_a_fulfilment() -> None:
    game = lwp(
        "[contracts]\ngreen = [200, 201]\n"
        '[company.germany]\nofficer = "mahiri_sekibo"\ncontracts = [1, 2, 3]\n'
        '[company.usa]\nofficer = "simone_luciani"\n' + PRODUCTION
    )
    apply_all(game, "germany", "mahiri", "copy simone_luciani", "contracts_take1_left", "take 200")
    assert game.decision().kind == "confirm"
    game.apply("confirm", "germany")
    assert len(game.state.companies["germany"].contracts) == 4
    assert contract_limit(game, "germany") == 4  # still, until she fulfils one
    game = again(game, "germany")
    apply_all(game, "germany", "turbine_zero_left", "produce D1L C1R 2", "contract 1")
    assert game.decision().kind == "confirm"  # not copying now: one contract only
    assert contract_limit(game, "germany") == 3


def test_mahiri_copies_simone_in_the_turbine_station() -> None:
    game = lwp(
        '[company.germany]\nofficer = "mahiri_sekibo"\ncontracts = [1, 3]\n'
        '[company.usa]\nofficer = "simone_luciani"\n' + PRODUCTION
    )
    apply_all(game, "germany", "mahiri", "copy simone_luciani", "turbine_zero_left")
    apply_all(game, "germany", "produce D1L C1R 2", "contract 1", "contract 3")
    assert game.state.companies["germany"].fulfilled == [1, 3]


# -- Tommaso Battista ---------------------------------------------------------------------------


def test_tommaso_has_twelve_engineers_one_the_architect() -> None:
    game = lwp('[company.germany]\nofficer = "tommaso_battista"\n')
    assert game.state.companies["germany"].engineers == 12


def test_the_architect_alone_on_a_one_engineer_space_gives_another_turn() -> None:
    game = lwp('[company.germany]\nofficer = "tommaso_battista"\n')
    apply_all(game, "germany", "water_flow1_left", "drops HA")
    assert game.decision().notations == ["architect yes", "architect no"]
    apply_all(game, "germany", "architect yes", "confirm")
    decision = game.decision()
    assert (decision.player, decision.kind) == ("germany", "turn")
    assert game.state.companies["germany"].extra["architect_out"]
    events = game.apply("water_place2_left", "germany")  # the Architect is out: no question
    events += game.apply("drops HA HB", "germany")
    assert game.decision().kind == "confirm"


def test_a_plain_engineer_gives_no_extra_turn() -> None:
    game = lwp('[company.germany]\nofficer = "tommaso_battista"\n')
    apply_all(game, "germany", "water_flow1_left", "drops HA", "architect no", "confirm")
    assert game.decision().player == "usa"


def test_the_architect_with_other_engineers_gives_nothing() -> None:
    game = lwp('[company.germany]\nofficer = "tommaso_battista"\n')
    apply_all(game, "germany", "water_place2_right", "drops HA HB")  # 2 engineers
    assert game.decision().kind == "confirm"
    assert "architect_out" not in game.state.companies["germany"].extra  # plain ones first
    game = lwp('[company.germany]\nofficer = "tommaso_battista"\nengineers = 2\n')
    apply_all(game, "germany", "water_place2_right", "drops HA HB")
    assert game.decision().kind == "confirm"  # the Architect had to go, for nothing
    assert game.state.companies["germany"].extra["architect_out"]


def test_the_last_engineer_is_the_architect() -> None:
    game = lwp('[company.germany]\nofficer = "tommaso_battista"\nengineers = 1\n')
    events = apply_all(game, "germany", "water_flow1_left", "drops HA", "confirm")
    assert any(e.kind == "architect" for e in events)
    assert game.decision().player == "usa"  # the extra turn needs something to do


def test_mahiri_copies_tommaso() -> None:
    game = lwp(
        '[company.germany]\nofficer = "mahiri_sekibo"\n[company.usa]\nofficer = "tommaso_battista"\n'
    )
    apply_all(game, "germany", "mahiri", "copy tommaso_battista", "water_flow1_left", "drops HA")
    apply_all(game, "germany", "architect yes", "confirm")
    assert game.decision().player == "germany"


# -- the Netherlands -----------------------------------------------------------------------------


def test_netherlands_adds_a_drop_to_another_own_dam_after_a_production() -> None:
    game = lwp(
        '[company.netherlands]\nofficer = "wilhelm_adler"\n'
        '[map]\nD1L = { owner = "netherlands", water = 1 }\nD2L = { owner = "netherlands" }\n'
        'D3L = { owner = "neutral" }\nC1R = "netherlands"\nP5_0 = "netherlands"\n'
        'P6_0 = "netherlands"\nP7_0 = "netherlands"\n',
        order='["netherlands", "usa", "italy", "france"]',
    )
    events = game.apply("turbine_zero_left", "netherlands")
    assert "produce D1L C1R 1" in auto(events)
    # Not D1L (just used, though it has room now), not the neutral D3L.
    assert game.decision().notations == ["dam D2L", "dam none"]
    game.apply("dam D2L", "netherlands")
    assert game.state.dams["D2L"].water == 1


def test_netherlands_ability_needs_the_third_powerhouse() -> None:
    game = lwp(
        '[company.netherlands]\nofficer = "wilhelm_adler"\n'
        '[map]\nD1L = { owner = "netherlands", water = 1 }\nD2L = { owner = "netherlands" }\n'
        'C1R = "netherlands"\nP5_0 = "netherlands"\n',
        order='["netherlands", "usa", "italy", "france"]',
    )
    game.apply("turbine_zero_left", "netherlands")
    assert game.decision().kind == "confirm"
