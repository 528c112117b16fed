"""The Leeghwater Project's setup: the option, the Extra Management board, the pools."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.rules import GameOptions, SetupError, new_game
from bot.rules.catalogue import CATALOGUE
from bot.rules.content import load_content
from bot.rules.expansions.leeghwater import tables as lw_tables
from tests.rules.full_helpers import drafted

LWP = ("leeghwater",)


def lwp_game(players: int = 4, seed: int = 1):
    return new_game(GameOptions(players=players, setup="full", expansions=LWP, seed=seed))


def test_the_introductory_setup_is_refused() -> None:
    with pytest.raises(SetupError, match="full game only"):
        new_game(GameOptions(players=3, setup="intro", expansions=LWP))


def test_external_works_three_face_up_from_pile_a() -> None:
    board = lwp_game().state.extra["leeghwater"]
    assert len(board["works"]) == 3 and all(w.startswith("A") for w in board["works"])
    assert [len(board["work_piles"][p]) for p in "ABC"] == [2, 5, 5]


def test_five_of_the_ten_private_buildings() -> None:
    seen = Counter()
    for seed in range(20):
        buildings = lwp_game(seed=seed).state.extra["leeghwater"]["buildings"]
        assert len(set(buildings)) == 5
        seen.update(buildings)
    every = lw_tables.BUILDINGS.of(CATALOGUE.content()).values()
    assert set(seen) == {b.id for b in every if b.set == "leeghwater"}


def test_advanced_tiles_one_removed_per_level_new_tiles_in_the_piles() -> None:
    content = load_content()
    game = lwp_game()
    state = game.state
    removed = state.extra["leeghwater"]["advanced_removed"]
    assert sorted(content.tiles[t].level for t in removed) == [1, 2, 3]
    in_play = [t for t in state.patent_offer if t] + [
        t for p in state.patent_piles.values() for t in p
    ]
    advanced = [t.id for t in content.tiles.values() if t.kind == "advanced" and t.set != "other"]
    assert sorted(in_play + removed) == sorted(
        t for t in advanced if content.tiles[t].set in ("base", "leeghwater")
    )
    assert all(content.tiles[t].level == 1 for t in state.patent_offer)


def test_new_bonus_tiles_netherlands_and_officers_join_the_draws() -> None:
    bonus, boards, officers = Counter(), Counter(), Counter()
    for seed in range(40):
        state = lwp_game(seed=seed).state
        bonus.update(state.bonus_tiles)
        for board, officer in state.extra["draft"]["pairs"]:
            boards[board] += 1
            officers[officer] += 1
    assert {"external_works", "buildings"} <= set(bonus)
    assert "netherlands" in boards
    assert {"leslie_spencer", "margot_fouche", "simone_luciani", "tommaso_battista"} <= set(
        officers
    )
    assert not {"elon_audia", "wu_fang"} & set(officers)


def test_base_games_do_not_change() -> None:
    base = new_game(GameOptions(players=4, setup="full", seed=1)).state
    assert "leeghwater" not in base.extra
    assert {b for b, _o in base.extra["draft"]["pairs"]} <= {"usa", "germany", "italy", "france"}


def test_every_drafted_company_gets_the_building_tile() -> None:
    game = new_game(GameOptions(players=3, setup="full", expansions=LWP, seed=5))
    while game.state.phase == "draft":
        decision = game.decision()
        game.apply(decision.options[0], decision.player)
    for company in game.state.companies.values():
        assert "basic_building" in company.tiles
        assert company.placed["building"] == 0
        assert company.engineers == 12  # Tommaso's Architect included


def test_bonus_tiles_count_works_and_buildings() -> None:
    from bot.rules.flow import bonus_count

    game = drafted()
    # A game without Leeghwater has no counter of its tiles: its rule set brings them.
    assert "buildings" not in game.rules.bonus_counters
    game = lwp_game()
    while game.state.phase == "draft":
        decision = game.decision()
        game.apply(decision.options[0], decision.player)
    cid = game.state.seats[0]
    game.company(cid).extra["external_works"] = ["A1", "B2"]
    tile = game.state.extra["leeghwater"]["buildings"][0]
    game.state.extra["leeghwater"]["building_spaces"][tile][0] = cid
    assert bonus_count(game, cid, "external_works") == 2
    assert bonus_count(game, cid, "buildings") == 1


def test_illegal_moves_say_why() -> None:
    from bot.rules import IllegalMove
    from bot.rules.position import load_position
    from tests.rules.expansions.leeghwater.helpers import lwp

    game = lwp('[leeghwater]\nworks = ["A1", "", "A3"]\n')
    with pytest.raises(IllegalMove, match="slot 2 is taken"):
        game.apply("external_work_2", "germany")
    with pytest.raises(IllegalMove, match="activated"):
        game.apply("use cofferdam", "germany")
    base = load_position('[game]\nplayers = 2\nturn_order = ["usa", "italy"]\n')
    with pytest.raises(IllegalMove, match="does not use"):
        base.apply("external_work_1", "usa")
