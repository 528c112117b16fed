"""A stored state plays on the same whatever order its JSON objects' keys come back in.

A store may reorder a snapshot's keys (PostgreSQL's jsonb sorts them by length, then bytes), so
option lists, events and texts must follow the map, the seats and the boards, never the order
in which a table was filled. Checked on one golden game of every expansion mix.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.rules import GameState, new_game, open_game
from bot.rules.engine import Game
from tests.golden import golden

GAMES = ["intro-3p", "full-4p", "leeghwater-3p", "five-player-map-leeghwater-4p"]
GAMES += ["colorado-leeghwater-3p", "colorado-intro-2p", "nile-leeghwater-3p", "nile-full-4p"]
EVERY = 5  # steps between two reordered copies


def reordered(value: Any, *, reverse: bool) -> Any:
    """`value` with every object's keys in jsonb's order (length, then bytes), or reversed."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()), reverse=reverse)
        return {key: reordered(value[key], reverse=reverse) for key in keys}
    if isinstance(value, list):
        return [reordered(item, reverse=reverse) for item in value]
    return value


def test_reordering_changes_the_key_order() -> None:
    data = {"bb": 1, "a": {"c": 2, "ab": 3}}
    assert list(reordered(data, reverse=False)) == ["a", "bb"]
    assert list(reordered(data, reverse=True)["a"]) == ["ab", "c"]


def _copy(game: Game, *, reverse: bool) -> Game:
    """The game loaded back from its state's JSON with the keys reordered."""
    text = json.dumps(reordered(game.state.to_json(), reverse=reverse))
    return open_game(GameState.from_json(json.loads(text)))


@pytest.mark.parametrize("name", GAMES)
def test_a_state_with_reordered_keys_plays_on_the_same(name: str) -> None:
    data = golden.load(golden.path_of(name))
    live = new_game(golden.options_of(data))
    for index, (player, notation, _) in enumerate(data["steps"]):
        copies = []
        if index % EVERY == 0:
            for reverse in (False, True):
                copy = _copy(live, reverse=reverse)
                where = (
                    f"{name} before step {index + 1}, keys {'reversed' if reverse else 'sorted'}"
                )
                assert golden.step_hashes(copy, []) == golden.step_hashes(live, []), where
                copies.append((where, copy, copy.apply(notation, player)))
        events = golden.step_hashes(live, live.apply(notation, player))
        for where, copy, copy_events in copies:
            assert golden.step_hashes(copy, copy_events) == events, f"{where}: {notation!r}"
