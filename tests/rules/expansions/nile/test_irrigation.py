"""Scenario tests of The Nile Affair: the irrigation action, activation, every token type,
the Pumping Station, the new contracts and External Works, the river sources."""

from __future__ import annotations

import pytest

from bot.rules import Game, GameOptions, IllegalMove, new_game, open_game
from bot.rules.position import load_position
from tests.rules.expansions.leeghwater.helpers import apply_all, total

ZONES = """
[nile.zones.IZ_M]
IZ_M_S1 = ["IM1", "IM2"]
IZ_M_S2 = ["IM3"]
IZ_M_S3 = []
IZ_M_S4 = []
"""


def nile(tables: str = "", *, expansions: str = '["nile"]', usa: str = "") -> Game:
    """A full 2-player Nile position, USA to act: `usa` adds [company.usa] keys."""
    head = (
        '[game]\nsetup = "full"\nplayers = 2\nmap = "nile"\n'
        f'expansions = {expansions}\nturn_order = ["usa", "italy"]\n'
        f"[company.usa]\ncredits = 10\n{usa}\n"
    )
    return load_position(head + tables)


def notations(game: Game) -> set[str]:
    decision = game.decisions()[0]
    return {option.notation for option in decision.options}


def test_irrigation_takes_an_engineer_a_drop_and_a_token() -> None:
    game = nile('[map]\nD2U = { owner = "usa", level = 1, water = 1 }\n' + ZONES)
    options = notations(game)
    assert {"irrigate IZ_M_A1", "irrigate IZ_M_A2"} <= options
    assert not any(o.startswith("irrigate IZ_H") or o.startswith("irrigate IZ_P") for o in options)
    events = game.apply("irrigate IZ_M_A2", "usa")
    assert total(events, "credits") == -3  # the red space
    assert total(events, "engineers") == -1
    assert [e.data["at"] for e in events if e.kind == "drop_removed"] == ["D2U"]
    assert game.state.dams["D2U"].water == 0
    assert notations(game) == {"irrigation IM2", "irrigation IM3"}
    game.apply("irrigation IM3", "usa")
    usa = game.company("usa")
    assert usa.extra["irrigation"] == ["IM3"]
    assert game.state.extra["nile"]["zones"]["IZ_M"]["IZ_M_S2"] == []
    assert game.state.spaces["IZ_M_A2"] == [["usa", 1]]
    assert "activate IM3" in notations(game)  # beside Confirm


def test_irrigation_needs_an_own_dam_with_water_in_a_connected_basin() -> None:
    tables = (
        "[map]\n"
        'D1U = { owner = "usa", level = 1, water = 1 }\n'  # basin 1: no zone
        'D2L = { owner = "neutral", level = 1, water = 1 }\n'  # neutral dams never
        'D3U = { owner = "usa", level = 1, water = 0 }\n'  # connected but empty
    )
    game = nile(tables + ZONES)
    assert not any(o.startswith("irrigate") for o in notations(game))
    with pytest.raises(IllegalMove, match="own dam holding a drop"):
        game.apply("irrigate IZ_M_A1", "usa")


def test_an_irrigation_space_takes_one_company_per_round() -> None:
    game = nile('[map]\nD2U = { owner = "usa", level = 1, water = 1 }\n' + ZONES)
    game.state.spaces["IZ_M_A1"] = [["italy", 1]]
    game = open_game(game.state)
    options = notations(game)
    assert "irrigate IZ_M_A1" not in options and "irrigate IZ_M_A2" in options


def test_no_irrigation_from_an_empty_zone() -> None:
    empty = "\n".join(f"IZ_M_S{i} = []" for i in range(1, 5))
    game = nile(
        '[map]\nD2U = { owner = "usa", level = 1, water = 1 }\n[nile.zones.IZ_M]\n' + empty + "\n"
    )
    assert not any(o.startswith("irrigate") for o in notations(game))


def test_activation_before_the_main_action() -> None:
    game = nile(usa='extra = { irrigation = ["IM2"] }')
    events = game.apply("activate IM2", "usa")
    assert total(events, "credits", "irrigation:IM2") == 5
    decision = game.decisions()[0]
    assert decision.kind == "nile_main"
    assert not any(o.notation.startswith("activate") for o in decision.options)
    apply_all(game, "usa", "bank", "engineers 1")
    assert notations(game) == {"confirm"}  # once per turn
    assert game.company("usa").extra["irrigation_down"] == ["IM2"]


def test_activation_after_the_main_action_then_confirm() -> None:
    game = nile(usa='extra = { irrigation = ["IM2", "IH2"] }')
    apply_all(game, "usa", "bank", "engineers 1")
    assert notations(game) == {"confirm", "activate IM2", "activate IH2"}
    events = game.apply("activate IH2", "usa")
    assert total(events, "credits", "irrigation:IH2") == 4
    assert notations(game) == {"confirm"}
    game.apply("confirm", "usa")
    assert game.decisions()[0].player == "italy"


def test_face_down_tokens_cannot_be_activated() -> None:
    game = nile(usa='extra = { irrigation = ["IM2"], irrigation_down = ["IM2"] }')
    assert "activate IM2" not in notations(game)


def test_no_activation_without_engineers_before_the_main_action() -> None:
    game = nile(usa='engineers = 0\nextra = { irrigation = ["IM2"] }')
    assert game.decisions()[0].player == "italy"


@pytest.mark.parametrize(
    ("token", "kind", "amount"),
    [
        ("IP1", "excavators", 2),
        ("IM1", "mixers", 2),
        ("IP2", "credits", 3),
        ("IH2", "credits", 4),
        ("IM2", "credits", 5),
        ("IM6", "energy", 5),
        ("IH7", "vp", 3),
        ("IP4", "wheel_rotate", 1),
        ("IM4", "wheel_rotate", 2),
    ],
)
def test_plain_token_effects(token: str, kind: str, amount: int) -> None:
    game = nile(usa=f'extra = {{ irrigation = ["{token}"] }}')
    events = game.apply(f"activate {token}", "usa")
    assert total(events, kind, f"irrigation:{token}") == amount


def test_machinery_token_of_the_hills() -> None:
    game = nile(usa='extra = { irrigation = ["IH1"] }')
    events = game.apply("activate IH1", "usa")
    assert total(events, "excavators") == 1 and total(events, "mixers") == 1


def test_water_token_places_flowing_drops() -> None:
    game = nile(usa='extra = { irrigation = ["IM3"] }')
    game.apply("activate IM3", "usa")
    decision = game.decisions()[0]
    assert decision.kind == "place_drops"
    assert "drops HB HB HB" in {o.notation for o in decision.options}
    events = game.apply("drops HB HB HB", "usa")
    assert sum(1 for e in events if e.kind == "water") == 3


def test_contract_token_fulfils_a_small_own_contract_then_contract_216_choice() -> None:
    game = nile(
        ZONES + '[company.usa.extra]\nirrigation = ["IP5"]\n',
        usa="contracts = [216, 300]",
    )
    game.apply("activate IP5", "usa")
    # IP5: own face-up contract of 4 energy or less, no energy needed (300 needs more).
    assert notations(game) == {"contract 216", "contract none"}
    game.apply("contract 216", "usa")
    options = notations(game)
    assert options == {"choose 1", "choose 2"}
    game.apply("choose 1", "usa")
    decision = game.decisions()[0]
    assert decision.kind == "nile_take"
    zones = game.state.extra["nile"]["zones"]
    plain = {f"irrigation {s[-1]}" for s in zones["IZ_P"].values() if s}
    assert {o.notation for o in decision.options} == plain


def test_contract_vp_alternative() -> None:
    game = nile(usa='contracts = [416]\nextra = { irrigation = ["IM5"] }')
    # IM5 fulfils up to 6 energy: 416 needs 8.
    game.apply("activate IM5", "usa")
    assert game.decisions()[0].kind == "nile_main"


def test_private_contract_token_takes_contracts() -> None:
    game = nile(usa='extra = { irrigation = ["IM8"] }')
    game.apply("activate IM8", "usa")
    assert game.decisions()[0].kind == "take_contract"


def test_river_sources_and_the_nile_headwaters() -> None:
    game = new_game(GameOptions(players=2, setup="intro", map="nile", expansions=("nile",), seed=3))
    state = game.state
    assert set(state.headstream_tiles.values()) <= {f"RS{i}" for i in range(1, 9)}
    sources = {row["id"]: row for row in game.map.features["river_source_token"]}
    for headstream, tile in state.headstream_tiles.items():
        expected = sources[tile]["drops_per_round"][0] + (2 if headstream == "HB" else 0)
        assert state.headstream_water[headstream] == expected, headstream


def test_no_extra_drops_in_round_5() -> None:
    game = nile()
    game.state.round = 5
    before = dict(game.state.headstream_water)
    from bot.rules.expansions.nile.board import river_sources

    river_sources(game)
    assert game.state.headstream_water == before


# -- with The Leeghwater Project ----------------------------------------------------------------

LWP = '["leeghwater", "nile"]'
PUMP = """
[leeghwater]
buildings = ["pumping_station", "cofferdam", "wind_farm", "loan_agency", "research_lab"]
built = { pumping_station = ["usa"] }
"""


def test_pumping_station_irrigates_twice_from_any_dam() -> None:
    game = nile(
        '[map]\nD7U = { owner = "usa", level = 2, water = 2 }\n' + ZONES + PUMP,
        expansions=LWP,
    )
    assert "use pumping_station" in notations(game)
    events = game.apply("use pumping_station", "usa")
    assert total(events, "engineers") == -2
    assert game.state.dams["D7U"].water == 1  # the only dam: drained automatically
    options = notations(game)
    assert "irrigation IM2" in options and any(o.startswith("irrigation IP") for o in options)
    game.apply("irrigation IM2", "usa")
    assert notations(game) == {"drain D7U", "drain none"}
    game.apply("drain D7U", "usa")
    game.apply("irrigation IM1", "usa")
    assert game.state.dams["D7U"].water == 0
    assert game.company("usa").extra["irrigation"] == ["IM2", "IM1"]


def test_pumping_station_needs_a_dam_with_water() -> None:
    game = nile('[map]\nD7U = { owner = "usa", level = 2, water = 0 }\n' + PUMP, expansions=LWP)
    assert "use pumping_station" not in notations(game)


def works(slot1: str) -> str:
    return f'\n[leeghwater]\nworks = ["{slot1}", "", ""]\n'


def test_external_work_a7_gives_drops_and_a_permanent_bonus() -> None:
    game = nile(works("A7"), expansions=LWP, usa="mixers = 4")
    game.apply("external_work_1", "usa")
    assert game.company("usa").extra["irrigation_bonus"] == 2
    assert game.decisions()[0].kind == "place_drops"
    from bot.rules.expansions.nile.board import irrigation_total

    assert irrigation_total(game, "usa") == 2


def test_external_work_b7_flips_used_tokens() -> None:
    game = nile(
        works("B7") + '[company.usa.extra]\nirrigation = ["IM2", "IH2", "IP2"]\n'
        'irrigation_down = ["IM2", "IH2", "IP2"]\n',
        expansions=LWP,
        usa="mixers = 4\nexcavators = 4",
    )
    events = game.apply("external_work_1", "usa")
    assert total(events, "energy") == 4
    assert "flip none" in notations(game)
    apply_all(game, "usa", "flip IM2", "flip IP2")
    assert game.company("usa").extra["irrigation_down"] == ["IH2"]
    assert "activate IM2" in notations(game)


def test_external_work_c7_scores_visible_irrigation_vp() -> None:
    game = nile(works("C7") + ZONES, expansions=LWP, usa="mixers = 4\nexcavators = 6")
    events = game.apply("external_work_1", "usa")
    # IZ_M_S3 and S4 are empty: 2 + 2 VP on the reconstructed board.
    assert total(events, "vp", "external_work:C7") == 3 + 4
