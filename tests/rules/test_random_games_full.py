"""Seeded random full games through listed options only, with invariants checked at every step."""

from __future__ import annotations

import pytest

from bot.rules import GameOptions
from tests.rules.random_play import (
    assert_answers_replay,
    assert_game_ended,
    first_decision_playout,
    random_full_game,
)

__all__ = ["random_full_game"]  # bench/soak.py plays it from here

SEEDS = range(10)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_full_game_reaches_the_end(players: int, seed: int) -> None:
    game = random_full_game(players, seed)
    assert_game_ended(game, players)


@pytest.mark.parametrize("seed", range(3))
def test_random_four_player_game_on_the_five_player_map(seed: int) -> None:
    game = random_full_game(4, seed, "five_player")
    assert game.state.finished


def test_random_games_use_the_full_game_features() -> None:
    """Across a few games the Patent Office, advanced tiles and officers' actions are used."""
    seen: set[str] = set()
    for seed in range(6):
        _game, log, events = first_decision_playout(
            GameOptions(players=4, setup="full", seed=seed), seed
        )
        seen |= {notation.split(" ")[0] for _player, notation in log}
        seen |= {event.source for event in events if event.source.startswith("tile:")}
    assert {"patent_1", "patent_2", "patent_3", "pick", "start"} <= seen
    assert any(s.startswith("tile:adv_") for s in seen)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replaying_the_answers_gives_the_same_state(players: int) -> None:
    assert_answers_replay(GameOptions(players=players, setup="full", seed=100 + players), players)
