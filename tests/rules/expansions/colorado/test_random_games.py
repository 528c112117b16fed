"""Seeded random full games with The Colorado Connection, invariants checked at every step."""

from __future__ import annotations

import pytest

from bot.rules import Game, GameOptions
from tests.rules.random_play import (
    assert_answers_replay,
    assert_game_ended,
    random_full_game,
    verbs_played,
)

CO = ("colorado",)


def _check_end(game: Game, players: int) -> None:
    assert_game_ended(game, players)
    state = game.state
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
    seen = verbs_played(
        GameOptions(players=4, setup="full", seed=seed, expansions=("colorado", "leeghwater"))
        for seed in range(8)
    )
    assert {"site", "bridge", "settle"} <= seen


def test_replaying_a_colorado_game_gives_the_same_state() -> None:
    assert_answers_replay(GameOptions(players=3, setup="full", seed=41, expansions=CO), 9)
