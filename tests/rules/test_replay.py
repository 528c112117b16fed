"""Replay: (options, log) reproduces the state; reverts restart turns; the PRNG is fixed."""

from __future__ import annotations

import json

from bot.rules import GameOptions, GameState, new_game
from bot.rules.prng import SplitMix64
from bot.rules.replay import effective_decisions, replay


def test_splitmix64_outputs_are_fixed_forever() -> None:
    # Changing these values would change every stored game: they are part of the format.
    rng = SplitMix64(1234567)
    assert [rng.next64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]
    items = list(range(10))
    SplitMix64(42).shuffle(items)
    assert items == [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]


def test_same_seed_same_setup_different_seed_different_setup() -> None:
    a = new_game(GameOptions(players=4, seed=99)).state.to_json()
    b = new_game(GameOptions(players=4, seed=99)).state.to_json()
    c = new_game(GameOptions(players=4, seed=100)).state.to_json()
    assert a == b
    assert a != c


def test_revert_restarts_a_turn() -> None:
    options = GameOptions(players=2, seed=5)
    game = new_game(options)
    player = game.decision().player
    start = game.state.to_json()
    log = [{"kind": "decision", "notation": "bank", "player": player}]
    game.apply("bank", player)
    log.append({"kind": "decision", "notation": "engineers 2", "player": player})
    log.append({"kind": "revert", "to": 0})
    assert replay(options, log).state.to_json() == start
    assert effective_decisions(log) == []
    # A revert to 1 keeps the first answer only.
    log.append({"kind": "revert", "to": 1})
    assert [r["notation"] for r in effective_decisions(log)] == ["bank"]


def test_state_json_round_trip_is_exact() -> None:
    game = new_game(GameOptions(players=3, seed=8))
    data = json.loads(json.dumps(game.state.to_json()))
    assert GameState.from_json(data).to_json() == game.state.to_json()


def test_state_migrations_refuse_newer_and_keep_current() -> None:
    import pytest

    from bot.rules.errors import PositionError
    from bot.rules.migrations import upgrade

    data = new_game(GameOptions(players=2, seed=1)).state.to_json()
    assert upgrade(dict(data)) == data
    with pytest.raises(PositionError, match="newer than this engine"):
        upgrade({**data, "schema": data["schema"] + 1})
