"""Game positions for renderer tests: a fresh game and a seeded mid-game 4-player position."""

from __future__ import annotations

import functools

import pytest

from bot.rules import GameOptions, GameState, new_game
from renderer.samples import midgame_state


@functools.cache
def _midgame_json() -> dict:
    return midgame_state().to_json()


@pytest.fixture
def fresh() -> GameState:
    """A new 4-player introductory game, ready to be edited into a position."""
    return new_game(GameOptions(players=4, seed=3)).state


@pytest.fixture
def midgame() -> GameState:
    """Round 3 of a seeded random 4-player game, engineers on the board."""
    return GameState.from_json(_midgame_json())
