"""Seeded random full games with The Colorado Connection, invariants checked at every step."""

from __future__ import annotations

import pytest

from bot.rules import GameOptions, GameState, new_game
from bot.rules.prng import SplitMix64
from tests.rules.test_random_games_full import random_full_game

CO = ("colorado",)


def _check_end(game, players: int) -> None:
    state = game.state
    assert state.finished and state.round == 5
    assert len(state.result["ranking"]) == players
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
    board = state.extra["colorado"]
    basins = [game.map.dam_spaces[space].basin for space in board["bridges"]]
    assert len(basins) == len(set(basins))  # one Bridge per basin
    for space in board["bridges"]:
        assert state.dams[space].owner in state.companies
    assert len(board["bridges"]) + sum(len(t) for t in board["sites"].values()) == 10


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_random_colorado_game_reaches_the_end(players: int, seed: int) -> None:
    game = random_full_game(players, seed, expansions=CO)
    _check_end(game, players)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_colorado_and_leeghwater_game_reaches_the_end(players: int, seed: int) -> None:
    game = random_full_game(players, seed, expansions=("leeghwater", "colorado"))
    _check_end(game, players)


def test_random_games_use_the_expansion() -> None:
    seen: set[str] = set()
    for seed in range(8):
        game = new_game(
            GameOptions(players=4, setup="full", seed=seed, expansions=("colorado", "leeghwater"))
        )
        rng = SplitMix64(seed)
        while not game.is_over:
            decision = game.decisions()[0]
            option = decision.options[rng.below(len(decision.options))]
            seen.add(option.notation.split(" ")[0])
            game.apply(option, decision.player)
    assert {"site", "bridge", "settle"} <= seen


def test_replaying_a_colorado_game_gives_the_same_state() -> None:
    options = GameOptions(players=3, setup="full", seed=41, expansions=CO)
    game = new_game(options)
    rng = SplitMix64(9)
    log = []
    while not game.is_over:
        decision = game.decisions()[0]
        option = decision.options[rng.below(len(decision.options))]
        game.apply(option, decision.player)
        log.append((decision.player, option.notation))
    again = new_game(options)
    for player, notation in log:
        again.apply(notation, player)
    assert again.state.to_json() == game.state.to_json()
