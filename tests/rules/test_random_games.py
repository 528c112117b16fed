"""Seeded random games played to the end through listed options only, with invariants.

After every action the invariants of `invariants.check` must hold; at random points the
state must survive a JSON round trip and a replay of the log must reproduce it exactly.
More games run in `bench/soak.py`.
"""

from __future__ import annotations

import pytest

from bot.rules import Game, GameOptions
from tests.rules.random_play import play_ledger_game

GAMES_PER_COUNT = 30


def play_random_game(players: int, seed: int, *, check_every: bool = True) -> Game:
    """Play one game by random legal answers, checking the contract as it goes."""
    game, _verbs = play_ledger_game(
        GameOptions(players=players, seed=seed), check_every=check_every
    )
    ranking = game.state.result["ranking"]
    assert sorted(r["company"] for r in ranking) == sorted(game.state.seats)
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(GAMES_PER_COUNT))
def test_random_game_reaches_the_end(players: int, seed: int) -> None:
    game = play_random_game(players, seed)
    assert game.state.round == 5
    assert game.state.phase == "finished"
    assert len(game.state.history) == 5
