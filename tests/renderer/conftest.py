"""Game positions for renderer tests: a fresh game and a seeded mid-game 4-player position."""

from __future__ import annotations

import functools
import random

import pytest

from bot.rules import GameOptions, GameState, new_game


@functools.cache
def _midgame_json() -> dict:
    game = new_game(GameOptions(players=4, seed=3))
    rng = random.Random(1)
    while not game.is_over and game.state.round < 3:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    for _ in range(25):
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    return game.state.to_json()


@pytest.fixture
def fresh() -> GameState:
    """A new 4-player introductory game, ready to be edited into a position."""
    return new_game(GameOptions(players=4, seed=3)).state


@pytest.fixture
def midgame() -> GameState:
    """Round 3 of a seeded random 4-player game, engineers on the board."""
    return GameState.from_json(_midgame_json())
