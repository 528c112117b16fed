"""The Leeghwater technology tiles: basic_building (see the buildings tests), the three
advanced Building tiles, and Leslie Spencer's tile (see the officers tests)."""

from __future__ import annotations

from tests.rules.expansions.leeghwater.helpers import again, apply_all, auto, lwp, total

IN_PLAY = (
    '[leeghwater]\nbuildings = ["cofferdam", "wind_farm", "robot_factory", "research_lab", '
    '"loan_agency"]\n'
)


def with_tile(tile: str, tables: str = "") -> object:
    """Germany holds only `tile`, with plenty of machinery and credits."""
    return lwp(
        IN_PLAY + f'[company.germany]\ntiles = ["{tile}"]\nexcavators = 10\nmixers = 10\n'
        "credits = 10\n" + tables
    )


def test_adv_1_building_uses_the_new_buildings_action_at_once_without_engineers() -> None:
    game = with_tile("adv_1_building", '[map]\nD1L = { owner = "neutral", level = 2 }\n')
    events = apply_all(game, "germany", "build", "building cofferdam_0")
    assert "tile adv_1_building" in auto(events)
    assert game.decision().notations == ["use cofferdam", "use none"]
    apply_all(game, "germany", "use cofferdam", "dam D1L")
    assert game.state.dams["D1L"].water == 1
    assert "building_cofferdam" not in game.state.spaces  # no action space taken
    game.apply("confirm", "germany")
    game = again(game, "germany")
    assert "use cofferdam" in game.decision().notations  # not this round's use


def test_adv_1_building_pays_the_actions_own_credits() -> None:
    game = with_tile("adv_1_building")
    apply_all(game, "germany", "build", "building robot_factory_0")
    events = game.apply("use robot_factory", "germany")
    assert total(events, "credits") == -1 and game.decision().kind == "machinery_choice"


def test_adv_2_building_pays_only_one_machinery_kind() -> None:
    game = with_tile("adv_2_building")
    apply_all(game, "germany", "build", "building robot_factory_0")  # 1 excavator + 5 mixers
    assert game.decision().notations == ["pay 1e", "pay 5m"]
    game.apply("pay 1e", "germany")
    company = game.state.companies["germany"]
    assert (company.excavators, company.mixers) == (9, 10)


def test_adv_3_building_scores_the_buildings_vp_now() -> None:
    game = with_tile("adv_3_building")
    events = apply_all(game, "germany", "build", "building wind_farm_0")
    assert total(events, "vp", "tile:adv_3_building") == 5


def test_a_wild_tile_builds_a_building_too() -> None:
    game = with_tile("adv_2_wild")
    apply_all(game, "germany", "build", "building cofferdam_0")
    assert "pay 3e" in game.decision().notations and "pay 3m" in game.decision().notations


def test_solomon_may_pay_a_buildings_machinery_in_credits() -> None:
    game = lwp(
        IN_PLAY + '[company.germany]\nofficer = "solomon_p_jordan"\ntiles = ["basic_building"]\n'
        "excavators = 1\nmixers = 1\ncredits = 10\n"
    )
    apply_all(game, "germany", "build", "building cofferdam_0")  # 2 exc. + 1 mixer
    assert game.decision().notations == ["pay 1e 1m 3c", "pay 1e 6c", "pay 1m 6c", "pay 9c"]
