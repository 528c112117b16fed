"""Stored states of every released schema load through the numbered migrations and play on.

The fixtures (tests/fixtures/states/vN, written once per schema version by `make_states.py`)
are states of golden games (tests/golden) after a step; loaded with `load_state`, the rest of
the golden game must replay from them with the recorded hashes.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from bot.rules import GameOptions, load_state, new_game, open_game
from bot.rules import state as state_module
from bot.rules.errors import PositionError
from bot.rules.migrations import MIGRATIONS, upgrade
from tests.golden import golden

FIXTURES = Path(__file__).parents[1] / "fixtures" / "states"
STATES = sorted(FIXTURES.glob("v*/*.json.gz"))


def _fixture(path: Path) -> dict[str, Any]:
    return json.loads(gzip.decompress(path.read_bytes()))


def test_migrations_are_numbered_without_gaps_up_to_the_schema_version() -> None:
    assert sorted(MIGRATIONS) == list(range(2, state_module.SCHEMA_VERSION + 1))


@pytest.mark.parametrize("version", range(1, state_module.SCHEMA_VERSION + 1))
def test_states_are_kept_for_every_released_schema(version: int) -> None:
    assert len(list((FIXTURES / f"v{version}").glob("*.json.gz"))) >= 8, (
        "run tests/fixtures/states/make_states.py"
    )


@pytest.mark.parametrize("path", STATES, ids=lambda p: f"{p.parent.name}/{p.name[:-8]}")
def test_a_stored_state_loads_and_plays_on_as_recorded(path: Path) -> None:
    fixture = _fixture(path)
    data = golden.load(golden.path_of(fixture["golden"]))
    game = open_game(load_state(fixture["state"]))
    step = fixture["step"]
    # The loaded state shows what the game showed after that step (its events are gone).
    recorded = data["steps"][step - 1][2].split()
    now = golden.step_hashes(game, []).split()
    assert (now[0], now[1]) == (recorded[0], recorded[1]), "position and decisions"
    for index, (player, notation, hashes) in enumerate(data["steps"][step:], step + 1):
        events = game.apply(notation, player)
        assert golden.step_hashes(game, events) == hashes, f"step {index} ({notation!r})"
    assert game.is_over


def test_load_state_leaves_its_input_alone_and_refuses_a_newer_schema() -> None:
    data = new_game(GameOptions(players=2, seed=1)).state.to_json()
    before = json.dumps(data, sort_keys=True)
    assert load_state(data).to_json() == data
    assert json.dumps(data, sort_keys=True) == before
    with pytest.raises(PositionError, match="newer than this engine"):
        load_state({**data, "schema": state_module.SCHEMA_VERSION + 1})
    with pytest.raises(PositionError, match="schema 0 is not a stored game state"):
        upgrade({**data, "schema": 0})


def test_a_future_schema_runs_each_migration_once_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stage schemas 2 and 3 as a release would: the schema-1 fixtures go through both steps."""
    current = state_module.SCHEMA_VERSION
    ran: list[int] = []

    def step(target: int):
        def migrate(data: dict[str, Any]) -> dict[str, Any]:
            assert data["schema"] == target - 1
            ran.append(target)
            return data

        return migrate

    monkeypatch.setattr(state_module, "SCHEMA_VERSION", current + 2)
    monkeypatch.setitem(MIGRATIONS, current + 1, step(current + 1))
    monkeypatch.setitem(MIGRATIONS, current + 2, step(current + 2))
    stored = _fixture(STATES[0])["state"]
    state = load_state(stored)
    assert ran == [current + 1, current + 2]
    assert state.schema == current + 2
    assert stored["schema"] == current  # the stored dict is not touched
    ran.clear()
    load_state(state.to_json())
    assert ran == []  # a state of the current schema is not migrated again
