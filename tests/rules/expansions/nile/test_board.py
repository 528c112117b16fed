"""The Nile Affair: setup, irrigation scoring (the rulebook's worked examples), objective and
bonus tiles."""

from __future__ import annotations

import pytest

from bot.rules import GameOptions, SetupError, new_game
from bot.rules.content import load_content
from bot.rules.expansions.nile.board import irrigation_awards, irrigation_total, objective_count
from bot.rules.flow import bonus_count
from bot.rules.position import load_position
from tests.rules.expansions.leeghwater.helpers import total


def options(seed: int = 1, players: int = 3, **kw: object) -> GameOptions:
    base = {"players": players, "setup": "full", "map": "nile", "expansions": ("nile",)}
    base.update(kw)
    return GameOptions(seed=seed, **base)  # type: ignore[arg-type]


# -- worked examples ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "example", load_content().of("nile")["worked_example"], ids=lambda e: e["id"]
)
def test_worked_examples(example: dict) -> None:
    awards, taker = irrigation_awards(dict(example["totals"]), example["visible_vp"])
    assert awards == dict(example["vp"])
    assert taker == example["takes_round_token"]


def test_all_equal_gives_nothing_and_discards_the_token() -> None:
    assert irrigation_awards({"a": 2, "b": 2, "c": 2}, 5) == ({"a": 0, "b": 0, "c": 0}, None)


def test_tie_for_first_takes_the_second_award_and_keeps_the_normal_second() -> None:
    awards, taker = irrigation_awards({"a": 4, "b": 4, "c": 2, "d": 1}, 5)
    assert taker is None
    assert awards == {"a": 2, "b": 2, "c": 2, "d": -2}


def test_two_companies_the_lower_is_second_and_last() -> None:
    assert irrigation_awards({"a": 3, "b": 1}, 4) == ({"a": 7, "b": 0}, "a")


# -- scoring in the game ----------------------------------------------------------------------------


def scoring_position(extra_usa: str, extra_italy: str, round_: int = 1) -> str:
    return (
        '[game]\nsetup = "full"\nplayers = 2\nmap = "nile"\nexpansions = ["nile"]\n'
        f'turn_order = ["usa", "italy"]\nround = {round_}\nphase = "scoring"\nrun = "phase"\n'
        f"[company.usa]\nextra = {extra_usa}\n[company.italy]\nextra = {extra_italy}\n"
    )


def test_round_scoring_awards_vp_and_the_scoring_token() -> None:
    game = load_position(
        scoring_position('{ irrigation = ["IM2", "IM6"] }', '{ irrigation = ["IP1"] }')
    )
    scored = next(e for e in game.events if e.kind == "irrigation_scoring")
    assert scored.data["totals"] == {"usa": 6, "italy": 1}
    assert scored.data["taker"] == "usa" and scored.data["token"] == "IS1"
    assert total(game.events, "vp", "irrigation:round1") == 3 - 2
    assert [e.company for e in game.events if e.source == "irrigation:round1"] == ["usa", "italy"]
    usa = game.company("usa")
    assert usa.extra["irrigation_scoring"] == ["IS1"]
    assert "IS1" not in game.state.extra["nile"]["scoring_tokens"]
    # IS1's penalty counts from now on: 3 + 3 - 1.
    assert irrigation_total(game, "usa") == 5


def test_ties_discard_the_token() -> None:
    game = load_position(
        scoring_position('{ irrigation = ["IM2"] }', '{ irrigation = ["IH2", "IP1"] }')
    )
    assert game.company("usa").extra["irrigation_scoring"] == []
    assert game.company("italy").extra["irrigation_scoring"] == []
    assert "IS1" not in game.state.extra["nile"]["scoring_tokens"]


# -- setup -------------------------------------------------------------------------------------------


def test_setup_deals_the_zones_and_scoring_tokens() -> None:
    game = new_game(options())
    state = game.state
    tokens = {row["id"]: row for row in game.content.of("nile")["irrigation_token"]}
    zones = state.extra["nile"]["zones"]
    assert set(zones) == {"IZ_M", "IZ_H", "IZ_P"}
    for zid, spaces in zones.items():
        assert len(spaces) == 4 and all(len(stack) == 2 for stack in spaces.values())
        assert {tokens[t]["zone"] for stack in spaces.values() for t in stack} == {zid}
    assert state.extra["nile"]["scoring_tokens"] == ["IS1", "IS2", "IS3", "IS4", "IS5"]
    assert set(state.headstream_tiles.values()) <= {f"RS{i}" for i in range(1, 9)}


def test_setup_pools_take_the_nile_contracts_bonus_and_objective() -> None:
    contracts, bonus, objectives = set(), set(), set()
    for seed in range(30):
        state = new_game(options(seed)).state
        for level in ("green", "yellow", "red"):
            contracts |= set(state.private_offer[level]) | set(state.private_piles[level])
        bonus |= set(state.bonus_tiles)
        objectives.add(state.objective)
    assert {216, 316, 416} <= contracts
    assert "irrigation_tokens" in bonus
    assert "dams_on_irrigated_basins" in objectives


def test_base_games_are_unchanged() -> None:
    state = new_game(GameOptions(players=3, setup="full", seed=4)).state
    piles = [c for level in ("green", "yellow", "red") for c in state.private_piles[level]]
    assert not {216, 316, 416} & set(piles)
    assert all(isinstance(t, int) for t in state.headstream_tiles.values())


def test_the_map_and_the_expansion_go_together() -> None:
    # The expansion declares its board: a game left on the default map is set up on it.
    assert new_game(options(map="base")).state.options.map == "nile"
    with pytest.raises(SetupError, match="map='nile'"):
        new_game(GameOptions(players=4, map="five_player", expansions=("nile",)))
    with pytest.raises(SetupError, match="expansion this game does not use"):
        new_game(GameOptions(players=3, setup="full", map="nile", seed=1))


def test_with_leeghwater_one_work_of_each_pile_leaves_and_the_pumping_station_may_come() -> None:
    seen_pump = False
    for seed in range(12):
        game = new_game(options(seed, expansions=("nile", "leeghwater")))
        board = game.state.extra["leeghwater"]
        removed = game.state.extra["nile"]["works_removed"]
        assert sorted(w[0] for w in removed) == ["A", "B", "C"]
        every = [w for p in board["work_piles"].values() for w in p] + board["works"] + removed
        assert {"A7", "B7", "C7"} <= set(every)
        assert len(every) == 18
        seen_pump |= "pumping_station" in board["buildings"]
    assert seen_pump


def test_hook_order_does_not_depend_on_the_order_of_expansions() -> None:
    one = new_game(options(5, expansions=("nile", "leeghwater"))).state
    two = new_game(options(5, expansions=("leeghwater", "nile"))).state
    assert one.extra == two.extra


# -- objective and bonus tiles ----------------------------------------------------------------------


def test_objective_counts_bases_and_elevations_in_connected_basins() -> None:
    game = load_position(
        '[game]\nsetup = "full"\nplayers = 2\nmap = "nile"\nexpansions = ["nile"]\n'
        'turn_order = ["usa", "italy"]\n[map]\n'
        'D2U = { owner = "usa", level = 3 }\nD1U = { owner = "usa", level = 2 }\n'
        'D9U = { owner = "usa", level = 1 }\n'
    )
    assert objective_count(game, "dams_on_irrigated_basins", "usa") == 4
    assert objective_count(game, "dams_on_irrigated_basins", "italy") == 0
    assert objective_count(game, "connected_systems", "usa") is None


def test_bonus_tile_counts_every_token_held() -> None:
    game = load_position(
        '[game]\nsetup = "full"\nplayers = 2\nmap = "nile"\nexpansions = ["nile"]\n'
        'turn_order = ["usa", "italy"]\n'
        '[company.usa]\nextra = { irrigation = ["IM2", "IH2"], irrigation_down = ["IM2"] }\n'
    )
    assert bonus_count(game, "usa", "irrigation_tokens") == 2
