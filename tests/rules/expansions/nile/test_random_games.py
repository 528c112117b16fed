"""Seeded random games with The Nile Affair, every ledger invariant checked at every step.

Water conservation counts the drops irrigation takes out of dams (`drop_removed` events).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.rules import Game, GameOptions, GameState, new_game
from bot.rules.replay import replay
from tests.rules.invariants import Ledger, check

NILE = ("nile",)


def play_nile_game(
    players: int, seed: int, *, setup: str = "full", expansions: tuple[str, ...] = NILE
) -> tuple[Game, Counter]:
    """Play one Nile game by random legal answers; return it and the verbs chosen."""
    options = GameOptions(
        players=players, setup=setup, map="nile", expansions=expansions, seed=seed
    )
    game = new_game(options)
    ledger = None if game.state.phase == "draft" else Ledger.of(game)
    rng = random.Random(seed * 7919 + players)
    log: list[dict] = []
    verbs: Counter = Counter()
    while not game.is_over:
        decisions = game.decisions()
        assert decisions, "a game that is not over must have a pending decision"
        decision = rng.choice(decisions)
        assert decision.options
        assert len({o.notation.lower() for o in decision.options}) == len(decision.options)
        for option in decision.options:
            assert len(option.label) <= 80, option.label
        option = rng.choice(decision.options)
        verbs[option.notation.split(" ")[0]] += 1
        events = game.apply(option.notation, decision.player)
        log.append({"kind": "decision", "notation": option.notation, "player": decision.player})
        if ledger is None:
            if game.state.phase != "draft":
                # The draft is over: the ledger starts from this state (its events included).
                ledger = Ledger.of(game)
                ledger.energy = Counter({c: x.energy for c, x in game.state.companies.items()})
                for cid, company in game.state.companies.items():
                    # Tommaso Battista's Architect is not an engineer: count what is there.
                    ledger.start[cid]["engineers"] = company.engineers
            continue
        ledger.add(events)
        # Full games take advanced tiles (the ledger's tile check is the introductory game's).
        ledger.tiles = {
            c: Counter(x.tiles + x.wheel_tiles()) for c, x in game.state.companies.items()
        }
        check(game, ledger)
        for cid, company in game.state.companies.items():
            held = company.extra["irrigation"]
            assert set(company.extra["irrigation_down"]) <= set(held), cid
            assert len(set(held)) == len(held), cid
        on_board = sum(
            len(s) for z in game.state.extra["nile"]["zones"].values() for s in z.values()
        )
        taken = sum(len(c.extra["irrigation"]) for c in game.state.companies.values())
        assert on_board + taken == 24, "irrigation tokens not conserved"
        if rng.random() < 0.01:
            data = game.state.to_json()
            assert GameState.from_json(json.loads(json.dumps(data))).to_json() == data
    assert ledger is not None
    check(game, ledger)
    assert replay(options, log).state.to_json() == game.state.to_json()
    return game, verbs


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_random_nile_game_reaches_the_end(players: int, seed: int) -> None:
    game, _verbs = play_nile_game(players, seed)
    state = game.state
    assert state.finished and state.round == 5
    assert len(state.result["ranking"]) == players
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
    # Every scoring token was awarded or discarded.
    assert state.extra["nile"]["scoring_tokens"] == []


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
