"""A seeded mid-game 4-player position: the one shown in docs/, timed by bench/, used in tests."""

from __future__ import annotations

import random

from bot.rules import GameOptions, GameState, new_game


def midgame_state(seed: int = 3, moves_into_round_3: int = 25) -> GameState:
    """Return round 3 of a seeded game played by random legal moves, engineers on the board."""
    game = new_game(GameOptions(players=4, seed=seed))
    # The engine's own PRNG shuffles; this Random only picks moves, so the position is fixed.
    rng = random.Random(1)
    while not game.is_over and game.state.round < 3:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    for _ in range(moves_into_round_3):
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    return game.state
