"""The Colorado Connection's setup: the map, the tiles on it, the new pools, with Leeghwater."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.rules import GameOptions, SetupError, new_game
from bot.rules.expansions.colorado.board import settlement_tiles

CO = ("colorado",)


def _game(seed: int = 1, players: int = 3, expansions: tuple[str, ...] = CO, **kw):
    return new_game(
        GameOptions(players=players, setup="full", seed=seed, expansions=expansions, **kw)
    )


def test_the_expansion_puts_the_game_on_its_map() -> None:
    game = _game()
    assert game.state.options.map == "colorado" and game.map.id == "colorado"
    assert _game(map="colorado").state.options.map == "colorado"
    with pytest.raises(SetupError, match="own map"):
        _game(players=4, map="five_player")
    with pytest.raises(SetupError, match="colorado expansion"):
        _game(expansions=(), map="colorado")


def test_settlement_and_bridge_tiles_dealt_face_up() -> None:
    game = _game()
    board = game.state.extra["colorado"]
    tiles = settlement_tiles(game)
    spaces = {row["id"]: row for row in game.map.features["settlement_space"]}
    assert set(board["settlements"]) == set(spaces)
    assert len(set(board["settlements"].values())) == 10
    for space, tile in board["settlements"].items():
        assert tiles[tile]["type"] == spaces[space]["tile_type"]
    assert {site: len(t) for site, t in board["sites"].items()} == {"CS_M": 4, "CS_H": 3, "CS_P": 3}
    dealt = [t for tiles_ in board["sites"].values() for t in tiles_]
    assert sorted(dealt) == sorted(f"BR{i}" for i in range(1, 11))
    assert board["bridges"] == {}


def test_new_bonus_objective_and_contracts_join_the_pools() -> None:
    bonus, objectives, contracts = Counter(), Counter(), Counter()
    for seed in range(30):
        state = _game(seed).state
        bonus.update(state.bonus_tiles)
        objectives[state.objective] += 1
        for level in ("green", "yellow", "red"):
            contracts.update(state.private_offer[level] + state.private_piles[level])
    assert bonus["bridges"] > 0 and objectives["dams_with_bridge"] > 0
    assert contracts[215] == contracts[315] == contracts[415] == 30
    base = new_game(GameOptions(players=3, setup="full", seed=1)).state
    assert 215 not in base.private_piles["green"] + base.private_offer["green"]


def test_with_leeghwater_heliport_and_external_works() -> None:
    seen_buildings, seen_works = Counter(), Counter()
    for seed in range(20):
        state = _game(seed, expansions=("leeghwater", "colorado")).state
        lw = state.extra["leeghwater"]
        seen_buildings.update(lw["buildings"])
        removed = state.extra["colorado"]["works_removed"]
        assert sorted(w[0] for w in removed) == ["A", "B", "C"]
        left = [w for w in lw["works"] if w] + [w for p in lw["work_piles"].values() for w in p]
        assert len(left) == 18 - 3 and not set(left) & set(removed)
        seen_works.update(left)
    assert seen_buildings["heliport"] > 0
    assert seen_works["A6"] and seen_works["B6"] and seen_works["C6"]
    alone = new_game(GameOptions(players=3, setup="full", seed=1, expansions=("leeghwater",)))
    assert "heliport" not in alone.state.extra["leeghwater"]["buildings"]
    piles = alone.state.extra["leeghwater"]["work_piles"]
    assert not {"A6", "B6", "C6"} & {w for p in piles.values() for w in p}


def test_expansion_order_does_not_matter() -> None:
    one = _game(5, expansions=("colorado", "leeghwater")).state.to_json()
    two = _game(5, expansions=("leeghwater", "colorado")).state.to_json()
    one["options"]["expansions"] = two["options"]["expansions"]
    assert one == two


def test_introductory_setup_leaves_the_bridges_bonus_tile_out() -> None:
    for seed in range(10):
        game = new_game(GameOptions(players=2, seed=seed, expansions=CO))
        assert "bridges" not in game.state.bonus_tiles
        assert game.map.id == "colorado"


def test_position_table_and_illegal_move_reasons() -> None:
    from bot.rules import IllegalMove
    from bot.rules.position import load_position

    game = load_position(
        '[game]\nsetup = "full"\nplayers = 2\nexpansions = ["colorado"]\n'
        'turn_order = ["usa", "italy"]\n'
        '[map]\nD1L = { owner = "usa", level = 1, water = 0 }\n'
        '[colorado]\nsites = { CS_M = ["BR5"] }\nbridges = { D1L = "BR1" }\n'
        'settlements = { S_M1 = "SB7" }\n'
    )
    board = game.state.extra["colorado"]
    assert board["bridges"] == {"D1L": "BR1"} and board["sites"]["CS_M"] == ["BR5"]
    assert board["settlements"]["S_M1"] == "SB7"
    with pytest.raises(IllegalMove, match="Bridge"):
        game.apply("site CS_H", "usa")
    plain = new_game(GameOptions(players=2, setup="full", seed=1))
    while plain.state.phase == "draft":
        decision = plain.decision()
        plain.apply(decision.options[0], decision.player)
    with pytest.raises(IllegalMove, match="Colorado Connection"):
        plain.apply("settle S_M1", plain.decision().player)
