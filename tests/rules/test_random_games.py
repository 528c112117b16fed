"""Seeded random games played to the end through listed options only, with invariants.

After every action the invariants of `invariants.check` must hold; at random points the
state must survive a JSON round trip and a replay of the log must reproduce it exactly.
More games run in `bench/soak.py`.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.rules import Game, GameOptions, GameState, new_game
from bot.rules.replay import replay
from tests.rules.invariants import Ledger, check

GAMES_PER_COUNT = 30


def play_random_game(players: int, seed: int, *, check_every: bool = True) -> Game:
    """Play one game by random legal answers, checking the contract as it goes."""
    options = GameOptions(players=players, seed=seed)
    game = new_game(options)
    ledger = Ledger.of(game)  # the setup's events are already in the state it reads
    rng = random.Random(seed * 7919 + players)
    log: list[dict] = []
    while not game.is_over:
        decisions = game.decisions()
        assert decisions, "a game that is not over must have a pending decision"
        decision = rng.choice(decisions)
        assert decision.options, "a decision must list at least one option"
        assert len({o.notation.lower() for o in decision.options}) == len(decision.options)
        option = rng.choice(decision.options)
        events = game.apply(option.notation, decision.player)
        log.append({"kind": "decision", "notation": option.notation, "player": decision.player})
        ledger.add(events)
        if check_every:
            check(game, ledger)
        if rng.random() < 0.01:
            data = game.state.to_json()
            assert GameState.from_json(json.loads(json.dumps(data))).to_json() == data
            assert replay(options, log).state.to_json() == data
    check(game, ledger)
    ranking = game.state.result["ranking"]
    assert sorted(r["company"] for r in ranking) == sorted(game.state.seats)
    assert replay(options, log).state.to_json() == game.state.to_json()
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(GAMES_PER_COUNT))
def test_random_game_reaches_the_end(players: int, seed: int) -> None:
    game = play_random_game(players, seed)
    assert game.state.round == 5
    assert game.state.phase == "finished"
    assert len(game.state.history) == 5
