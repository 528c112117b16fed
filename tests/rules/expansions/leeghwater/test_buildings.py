"""Private Buildings: building them, their action spaces, end-game VP and all ten actions."""

from __future__ import annotations

import pytest

from bot.rules import Game, open_game
from bot.rules.expansions.leeghwater.board import final_scoring
from tests.rules.expansions.leeghwater.helpers import apply_all, auto, lwp, total

ALL = [
    "cofferdam",
    "control_station",
    "customer_office",
    "development_office",
    "energy_relay_field",
    "financial_division",
    "loan_agency",
    "research_lab",
    "robot_factory",
    "wind_farm",
]


def built(tile: str, company: str = "", tables: str = "", **game_keys: str) -> Game:
    """Germany has activated `tile` (one of the five in play) and is to act."""
    others = [t for t in ALL if t != tile][:4]
    buildings = ", ".join(f'"{t}"' for t in [tile, *others])
    return lwp(
        f'[leeghwater]\nbuildings = [{buildings}]\nbuilt = {{ {tile} = ["germany"] }}\n'
        f"[company.germany]\ncredits = 10\n{company}" + tables,
        game="".join(f"{k} = {v}\n" for k, v in game_keys.items()),
    )


# -- building them ----------------------------------------------------------------------------


def test_a_building_is_a_construction_with_the_building_tile_and_machinery_on_the_wheel() -> None:
    game = lwp(
        '[leeghwater]\nbuildings = ["cofferdam", "wind_farm", "loan_agency", "research_lab", '
        '"robot_factory"]\n[company.germany]\ntiles = ["basic_building"]\n'
    )
    game.apply("build", "germany")
    notations = game.decision().notations
    # Four tiles are out of reach (costs); Cofferdam (2 exc. + 1 mixer) has 4 free spaces.
    assert [n for n in notations if n.startswith("building cofferdam")] == [
        f"building cofferdam_{i}" for i in range(4)
    ]
    events = game.apply("building cofferdam_2", "germany")  # red-outlined: +3 credits
    assert {"tile basic_building", "pay 2e 1m"} <= set(auto(events))
    company = game.state.companies["germany"]
    assert total(events, "credits") == -3
    assert (company.excavators, company.mixers, company.engineers) == (4, 3, 11)
    assert company.wheel[0].tiles == ["basic_building"] and company.wheel[0].mixers == 1
    assert game.state.extra["leeghwater"]["building_spaces"]["cofferdam"][2] == "germany"
    assert company.placed["building"] == 1
    assert game.decision().kind == "confirm"


def test_one_building_per_tile_and_company() -> None:
    game = built("cofferdam", 'tiles = ["basic_building"]\nexcavators = 10\nmixers = 10\n')
    game.apply("build", "germany")
    assert not any(n.startswith("building cofferdam") for n in game.decision().notations)


def test_every_company_gets_the_basic_tile_and_five_pieces() -> None:
    game = lwp()
    for company in game.state.companies.values():
        assert "basic_building" in company.tiles and company.placed["building"] == 0

    assert game.rules.structures["building"].pieces(game) == 5


@pytest.mark.parametrize(
    ("players", "open_spaces"), [(2, [0, 2, 3]), (3, [0, 2, 3]), (4, [0, 1, 2, 3])]
)
def test_building_spaces_blocked_by_player_count(players: int, open_spaces: list[int]) -> None:
    order = ["germany", "usa", "italy", "france"][:players]
    game = lwp(order=str(order).replace("'", '"'), players=players)
    for row in game.state.extra["leeghwater"]["building_spaces"].values():
        assert [i for i, who in enumerate(row) if who is None] == open_spaces


def test_building_end_game_vp_only_for_who_activated_it() -> None:
    game = built("wind_farm")
    game.state.extra["leeghwater"]["building_spaces"]["cofferdam"][3] = "usa"
    game.events = []
    final_scoring(game)
    vp = {e.company: e.amount for e in game.events if e.kind == "vp"}
    assert vp == {"germany": 5, "usa": 3}


# -- the action spaces --------------------------------------------------------------------------


def test_only_who_activated_it_may_use_it() -> None:
    game = built("financial_division")
    assert "use financial_division" in game.decision("germany").notations
    game.apply("bank", "germany")
    apply_all(game, "germany", "engineers 1", "confirm")
    assert "use financial_division" not in game.decision("usa").notations


def test_first_user_takes_the_left_space_later_users_pay_3_more() -> None:
    game = built(
        "energy_relay_field",
        tables='[leeghwater.used]\nenergy_relay_field = ["usa"]\n',
    )
    events = game.apply("use energy_relay_field", "germany")
    assert total(events, "credits") == -4  # right space: +3; the action itself: 1
    assert game.state.spaces["building_energy_relay_field"] == [["usa", 1], ["germany", 1]]


def test_a_building_action_once_per_round() -> None:
    game = built("energy_relay_field")
    events = game.apply("use energy_relay_field", "germany")
    assert total(events, "credits") == -1  # left space: the action's own credit only
    game.apply("confirm", "germany")
    game.state.current = "germany"
    game.state.stack[-1] = {"kind": "turn", "player": "germany"}
    game = open_game(game.state)
    assert "use energy_relay_field" not in game.decision("germany").notations


# -- the ten actions ----------------------------------------------------------------------------


def test_cofferdam_puts_a_drop_into_a_neutral_or_own_dam_with_room() -> None:
    game = built(
        "cofferdam",
        tables='[map]\nD1L = { owner = "neutral", level = 1 }\n'
        'D5U = { owner = "germany", level = 1, water = 1 }\nD6U = { owner = "usa" }\n',
    )
    game.apply("use cofferdam", "germany")
    assert game.decision().notations == ["dam D1L", "dam none"]  # D5U is full, D6U not ours
    game.apply("dam D1L", "germany")
    assert game.state.dams["D1L"].water == 1


def test_control_station_produces_with_plus_3() -> None:
    game = built(
        "control_station",
        "excavators = 8\nmixers = 8\n",
        tables='[map]\nD1L = { owner = "germany", water = 1 }\nC1R = "germany"\nP5_0 = "germany"\n',
    )
    events = game.apply("use control_station", "germany")
    assert "produce D1L C1R 1" in auto(events)
    assert game.state.companies["germany"].energy == 4 + 3


def test_customer_office_fulfils_a_contract_for_3_credits() -> None:
    game = built("customer_office", "contracts = [104]\n")
    events = game.apply("use customer_office", "germany")
    assert total(events, "credits") == -3
    events = game.apply("contract 104", "germany")
    assert total(events, "vp", "contract:104") == 12


def test_development_office_takes_a_tile_back_leaving_its_machinery() -> None:
    game = built(
        "development_office",
        'tiles = ["basic_conduit"]\nwheel = [{ segment = 2, tiles = ["basic_base"], excavators = 4 }]\n',
    )
    events = game.apply("use development_office", "germany")
    assert "retrieve basic_base" in auto(events)
    company = game.state.companies["germany"]
    assert "basic_base" in company.tiles and company.wheel[2].excavators == 4
    assert company.wheel[2].tiles == []


def test_energy_relay_field_moves_the_marker_4_for_1_credit() -> None:
    game = built("energy_relay_field", "contracts = [3]\n")
    events = game.apply("use energy_relay_field", "germany")
    assert game.state.companies["germany"].energy == 4 and total(events, "credits") == -1
    assert game.decision().kind == "confirm"  # never fulfils a contract


def test_financial_division_gives_5_credits_its_right_spaces_need_2_engineers() -> None:
    game = built("financial_division", tables='[leeghwater.used]\nfinancial_division = ["usa"]\n')
    events = game.apply("use financial_division", "germany")
    assert total(events, "credits") == 5 and total(events, "engineers") == -2


def test_loan_agency_completes_an_external_work_for_2_credits_per_machinery() -> None:
    game = built("loan_agency")
    game.state.extra["leeghwater"]["works"] = ["A3", None, "C5"]
    game.state.companies["germany"].credits = 9
    game = open_game(game.state)
    events = game.apply("use loan_agency", "germany")
    assert "loan A3" in auto(events)  # the only one: C5 (5 machineries) costs 10, too much
    company = game.state.companies["germany"]
    assert total(events, "credits") == -4 and total(events, "vp") == 4
    assert company.extra["external_works"] == ["A3"] and company.mixers == 4
    assert game.decision().kind == "reward_build"  # the free base in the plains


def test_research_lab_takes_back_half_a_segment_rounded_down() -> None:
    game = built(
        "research_lab", "wheel = [{ segment = 3, tiles = [], excavators = 3, mixers = 2 }]\n"
    )
    game.apply("use research_lab", "germany")
    assert game.decision().notations == ["segment 3 2e0m", "segment 3 1e1m", "segment 3 0e2m"]
    game.apply("segment 3 1e1m", "germany")
    company = game.state.companies["germany"]
    assert (company.excavators, company.mixers) == (7, 5)
    assert (company.wheel[3].excavators, company.wheel[3].mixers) == (2, 1)


def test_robot_factory_gives_2_machineries_for_1_credit() -> None:
    game = built("robot_factory")
    events = game.apply("use robot_factory", "germany")
    assert total(events, "credits") == -1
    game.apply("machines 0e2m", "germany")
    assert game.state.companies["germany"].mixers == 6


def test_wind_farm_produces_5_energy_that_may_fulfil_a_private_contract() -> None:
    game = built("wind_farm", "contracts = [3, 104]\n")
    events = game.apply("use wind_farm", "germany")
    assert total(events, "credits") == -2 and game.state.companies["germany"].energy == 5
    assert game.decision().notations == ["contract 3", "contract none"]


def test_an_action_that_cannot_be_performed_is_not_offered() -> None:
    game = built("customer_office", "contracts = []\n")
    assert "use customer_office" not in game.decision("germany").notations
    game = built("research_lab")
    assert "use research_lab" not in game.decision("germany").notations
