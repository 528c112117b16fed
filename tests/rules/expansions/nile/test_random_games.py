"""Seeded random games with The Nile Affair, every ledger invariant checked at every step.

Water conservation counts the drops irrigation takes out of dams (`drop_removed` events).
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.rules import Game, GameOptions
from tests.rules.random_play import assert_game_ended, play_ledger_game

NILE = ("nile",)


def play_nile_game(
    players: int, seed: int, *, setup: str = "full", expansions: tuple[str, ...] = NILE
) -> tuple[Game, Counter]:
    """Play one Nile game by random legal answers; return it and the verbs chosen."""
    options = GameOptions(
        players=players, setup=setup, map="nile", expansions=expansions, seed=seed
    )
    # Full games take advanced tiles (the ledger's tile check is the introductory game's).
    return play_ledger_game(
        options,
        each_step=_check_irrigation,
        replay_midway=False,
        tiles_by_events=False,
        max_label=80,
    )


def _check_irrigation(game: Game) -> None:
    """Irrigation tokens: each held once, turned down only if held, 24 in all."""
    for cid, company in game.state.companies.items():
        held = company.extra["irrigation"]
        assert set(company.extra["irrigation_down"]) <= set(held), cid
        assert len(set(held)) == len(held), cid
    on_board = sum(len(s) for z in game.state.extra["nile"]["zones"].values() for s in z.values())
    taken = sum(len(c.extra["irrigation"]) for c in game.state.companies.values())
    assert on_board + taken == 24, "irrigation tokens not conserved"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_random_nile_game_reaches_the_end(players: int, seed: int) -> None:
    game, _verbs = play_nile_game(players, seed)
    assert_game_ended(game, players)
    # Every scoring token was awarded or discarded.
    assert game.state.extra["nile"]["scoring_tokens"] == []


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_random_nile_game_with_leeghwater(players: int, seed: int) -> None:
    game, _verbs = play_nile_game(players, 100 + seed, expansions=("nile", "leeghwater"))
    assert game.state.finished


@pytest.mark.parametrize("players", [2, 4])
def test_random_introductory_nile_game(players: int) -> None:
    game, _verbs = play_nile_game(players, 7, setup="intro")
    assert game.state.finished


def test_random_games_use_the_expansion() -> None:
    seen: Counter = Counter()
    for seed in range(6):
        _game, verbs = play_nile_game(4, 200 + seed, expansions=("leeghwater", "nile"))
        seen += verbs
    assert {"irrigate", "irrigation", "activate"} <= set(seen)
