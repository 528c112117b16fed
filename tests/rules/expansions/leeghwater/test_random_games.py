"""Seeded random full games with The Leeghwater Project, invariants checked at every step."""

from __future__ import annotations

import pytest

from bot.rules import GameOptions
from tests.rules.random_play import (
    assert_answers_replay,
    assert_game_ended,
    random_full_game,
    verbs_played,
)

LWP = ("leeghwater",)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(10))
def test_random_leeghwater_game_reaches_the_end(players: int, seed: int) -> None:
    game = random_full_game(players, seed, expansions=LWP)
    assert_game_ended(game, players)
    for company in game.state.companies.values():
        assert company.placed["building"] <= 5


def test_random_games_use_the_expansion() -> None:
    seen = verbs_played(
        GameOptions(players=4, setup="full", seed=seed, expansions=LWP) for seed in range(8)
    )
    assert {"external_work_1", "building", "use", "work"} <= seen


def test_replaying_a_leeghwater_game_gives_the_same_state() -> None:
    assert_answers_replay(GameOptions(players=3, setup="full", seed=77, expansions=LWP), 5)
