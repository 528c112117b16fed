"""The Patent Office: taking a tile, its refresh at the end of each round, the free-tile reward."""

from __future__ import annotations

from bot.rules import open_game
from bot.rules.patent import draw_tiles, refresh_patent_office
from bot.rules.prng import SplitMix64
from bot.rules.rewards import apply_reward

from .full_helpers import drafted, play, prepare, total


def test_patent_action_takes_the_slot_tile() -> None:
    game = drafted(4, seed=3)
    cid = game.state.turn_order[0]
    game = prepare(game, cid, credits=7, tiles=["basic_base"])
    tile = game.state.patent_offer[1]
    events = play(game, "patent_2")
    company = game.company(cid)
    assert company.tiles == ["basic_base", tile]
    assert (company.credits, company.engineers) == (2, 10)
    assert total(events, "credits", "space:patent_2") == -5
    assert game.state.patent_offer[1] is None
    assert game.state.spaces["patent_2"] == [[cid, 2]]
    # The tile is usable at once (this round): listed for a build in a later turn.
    play(game, "confirm")


def test_patent_spaces_need_five_credits_and_a_tile() -> None:
    game = drafted(4, seed=3)
    cid = game.state.turn_order[0]
    game = prepare(game, cid, credits=4)
    assert not any(n.startswith("patent_") for n in game.decision().notations)
    game = prepare(game, cid, credits=5)
    game.state.patent_offer[0] = None
    game = open_game(game.state, game.content)
    notations = game.decision().notations
    assert "patent_1" not in notations and "patent_2" in notations and "patent_3" in notations


def test_not_in_the_introductory_game() -> None:
    from bot.rules import GameOptions, new_game

    game = new_game(GameOptions(players=4, seed=3))
    assert game.state.patent_offer == []
    assert not any(n.startswith("patent_") for n in game.decision().notations)


def test_refresh_discards_leftovers_and_draws_from_i_then_ii_then_iii() -> None:
    game = drafted(2, seed=6)
    state = game.state
    piles = {name: list(pile) for name, pile in state.patent_piles.items()}
    left = state.patent_offer[2]
    state.patent_offer[0] = state.patent_offer[1] = None  # two taken this round
    refresh_patent_office(game)
    assert state.patent_offer == [piles["I"][0], piles["I"][1], piles["II"][0]]
    assert left not in state.patent_offer and left not in state.patent_piles["I"]
    refresh_patent_office(game)
    assert state.patent_offer == piles["II"][1:4]
    refresh_patent_office(game)
    assert state.patent_offer == [piles["II"][4], piles["III"][0], piles["III"][1]]
    refresh_patent_office(game)
    assert state.patent_offer == [piles["III"][2], piles["III"][3], piles["III"][4]]
    assert draw_tiles(state, 2) == [None, None]


def test_refresh_happens_at_the_end_of_round_one() -> None:
    game = drafted(2, seed=9)
    piles = {name: list(pile) for name, pile in game.state.patent_piles.items()}
    rng = SplitMix64(1)
    while game.state.round == 1:
        decision = game.decisions()[0]
        game.apply(decision.options[rng.below(len(decision.options))], decision.player)
    assert game.state.patent_offer == [piles["I"][0], piles["I"][1], piles["II"][0]]


def test_free_advanced_tile_reward() -> None:
    game = drafted(4, seed=3)
    cid = game.state.turn_order[0]
    tile = game.state.patent_offer[2]
    credits = game.company(cid).credits
    apply_reward(game, cid, {"advanced_technology_tile": 1}, "test")
    game.advance()
    assert game.decision().kind == "take_patent_free"
    play(game, "patent 3")
    assert tile in game.company(cid).tiles
    assert game.company(cid).credits == credits
    assert game.state.patent_offer[2] is None
