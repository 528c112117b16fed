"""External Works: machineries from the supply, the immediate reward, each special reward."""

from __future__ import annotations

import pytest

from bot.rules import Game
from bot.rules.catalogue import CATALOGUE
from bot.rules.expansions.leeghwater import tables as lw_tables
from tests.rules.expansions.leeghwater.helpers import apply_all, auto, lwp, total

WORKS = sorted(
    w.id for w in lw_tables.WORKS.of(CATALOGUE.content()).values() if w.set == "leeghwater"
)


def work_position(work: str, company: str = "", tables: str = "") -> Game:
    """Germany (Jill McDowell) to act, with `work` face up in slot 1 (8 of each machinery)."""
    fields = {"excavators": "8", "mixers": "8", "credits": "10"}
    for line in company.splitlines():
        key, _, value = line.partition(" = ")
        fields[key] = value
    body = "".join(f"{key} = {value}\n" for key, value in fields.items())
    return lwp(f'[leeghwater]\nworks = ["{work}", "", ""]\n[company.germany]\n{body}' + tables)


@pytest.mark.parametrize("work", WORKS)
def test_each_external_work_takes_machinery_to_the_general_supply_and_rewards(work: str) -> None:
    tile = lw_tables.WORKS.of(CATALOGUE.content())[work]
    game = work_position(work)
    events = game.apply("external_work_1", "germany")
    assert "work discard" in auto(events)  # not Leslie: the only way to pay
    company = game.state.companies["germany"]
    reward = tile.reward
    assert company.excavators == 8 - tile.cost.get("excavators", 0)
    assert company.mixers == 8 - tile.cost.get("mixers", 0) + reward.get("mixers", 0)
    assert company.engineers == 10
    assert game.state.spaces["external_work_1"] == [["germany", 2]]
    assert total(events, "vp", f"external_work:{work}") == reward.get("vp", 0)
    assert total(events, "credits", f"external_work:{work}") == reward.get("credits", 0)
    assert total(events, "energy", f"external_work:{work}") == reward.get(
        "energy", reward.get("energy_produced", 0)
    )
    assert company.extra["external_works"] == [work]
    assert game.state.extra["leeghwater"]["works"] == [None, None, None]
    assert all(segment.is_empty() for segment in company.wheel)  # never from the wheel


def test_machinery_on_the_wheel_does_not_count() -> None:
    game = work_position(
        "B4", "excavators = 2\nwheel = [{ segment = 1, tiles = [], excavators = 4 }]\n"
    )
    assert "external_work_1" not in game.decision("germany").notations
    game = work_position("B4", "excavators = 3\n")
    assert "external_work_1" in game.decision("germany").notations


def test_a_space_needs_two_engineers_and_a_face_up_tile() -> None:
    game = work_position("A2", "engineers = 1\n")
    assert "external_work_1" not in game.decision("germany").notations
    game = work_position("A2")
    assert "external_work_2" not in game.decision("germany").notations  # slot 2 is empty


def test_fulfil_a_contract_of_at_most_4_energy() -> None:
    game = work_position("A1", "contracts = [4, 100]\n")  # 4 energy; 13 energy
    game.apply("external_work_1", "germany")
    assert game.decision().notations == ["contract 4", "contract none"]
    events = game.apply("contract 4", "germany")
    assert 4 in game.state.companies["germany"].fulfilled
    assert total(events, "credits", "contract:4") == 2  # 4 energy → 2 credits + 1 machinery
    assert game.decision().kind == "machinery_choice"


def test_fulfil_any_contract_without_producing() -> None:
    game = work_position("C3", "excavators = 6\ncontracts = [104]\n")
    game.apply("external_work_1", "germany")
    events = game.apply("contract 104", "germany")
    assert total(events, "vp", "contract:104") == 12
    assert game.state.companies["germany"].energy == 0


def test_free_advanced_technology_tile() -> None:
    game = work_position("A5")
    offer = list(game.state.patent_offer)
    game.apply("external_work_1", "germany")
    assert game.decision().kind == "take_patent_free"
    events = game.apply("patent 2", "germany")
    assert offer[1] in game.state.companies["germany"].tiles
    assert total(events, "credits") == 0  # no Patent Office price
    assert game.state.companies["germany"].engineers == 10  # only the work's engineers


def test_free_powerhouse_pays_3_credits_on_a_red_space() -> None:
    game = work_position("A4")
    game.apply("external_work_1", "germany")
    decision = game.decision()
    assert decision.kind == "reward_build" and "powerhouse none" in decision.notations
    events = game.apply("powerhouse P5_1", "germany")  # red outline
    assert total(events, "credits", "red-outline") == -3
    company = game.state.companies["germany"]
    assert game.state.powerhouses["P5_1"] == "germany"
    assert company.mixers == 7 and company.tiles.count("basic_powerhouse") == 1  # none used


def test_free_base_only_in_the_plains() -> None:
    game = work_position("A3")
    game.apply("external_work_1", "germany")
    spaces = {n.split(" ")[1] for n in game.decision().notations} - {"none"}
    assert spaces == {"D8U", "D8L", "D9U", "D9L", "D10U", "D10L"} - set(game.state.dams)
    game.state.dams.clear()
    events = game.apply("base D8U", "germany")  # red: 3 credits
    assert total(events, "credits", "red-outline") == -3
    assert game.state.dams["D8U"].owner == "germany"


def test_free_conduit_of_value_4_or_less() -> None:
    game = work_position("B3")
    game.apply("external_work_1", "germany")
    spaces = {n.split(" ")[1] for n in game.decision().notations} - {"none"}
    values = {CATALOGUE.content().maps["base"].conduit_spaces[s].production for s in spaces}
    assert max(values) == 4 and "C1L" not in spaces  # C1L has value 5
    events = game.apply("conduit C1R", "germany")
    assert game.state.conduits["C1R"] == "germany" and total(events, "credits") == 0


def test_two_free_elevations_on_one_or_two_dams_never_past_level_3() -> None:
    game = work_position("B2", tables='[map]\nD5U = { owner = "germany", level = 2 }\n')
    game.apply("external_work_1", "germany")
    apply_all(game, "germany", "elevation D5U")
    # D5U is level 3 now: the second Elevation has nowhere to go and is skipped.
    assert game.state.dams["D5U"].level == 3
    assert game.decision().kind == "confirm"
    game = work_position(
        "B2",
        tables='[map]\nD5U = { owner = "germany", level = 1 }\nD1L = { owner = "germany" }\n',
    )
    game.apply("external_work_1", "germany")
    apply_all(game, "germany", "elevation D5U", "elevation D1L")
    assert (game.state.dams["D5U"].level, game.state.dams["D1L"].level) == (2, 2)


def test_works_refresh_each_round_from_pile_a_then_b() -> None:
    game = lwp(
        '[leeghwater]\nworks = ["A1", "", "A3"]\n'
        'work_piles = { A = ["A4"], B = ["B1", "B2", "B3"], C = ["C1"] }\n',
        game='phase = "end_of_round"\nrun = "phase"\n',
    )
    board = game.state.extra["leeghwater"]
    assert board["works"] == ["A4", "B1", "B2"]
    assert board["work_piles"]["B"] == ["B3"]
