"""Numbered migrations of stored game states (the JSON of `GameState.to_json`).

Each entry upgrades a state dict from schema version N to N + 1. `upgrade` applies every step
from the stored version to `SCHEMA_VERSION`; a state newer than the engine is refused.
Schema 1 is the first released format, so the list is empty today; when the state changes,
add `2: _v1_to_v2` here, bump `state.SCHEMA_VERSION`, and the committed schema-1 states
(`tests/fixtures/states`) and stores (`tests/fixtures/store/games-*.sqlite3`) must still load
and play on as recorded.

`load_state` is the one way stored states come back (snapshots, imports, render requests).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from bot.rules import state as state_module
from bot.rules.errors import PositionError
from bot.rules.state import GameState

Migration = Callable[[dict[str, Any]], dict[str, Any]]
# target version -> function turning a state of version (target - 1) into one of target.
MIGRATIONS: dict[int, Migration] = {}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Return `data` upgraded to the current schema version."""
    version = int(data.get("schema", 0))
    current = state_module.SCHEMA_VERSION  # read at call time: tests stage a future schema
    if version > current:
        raise PositionError(
            f"this state has schema {version}, newer than this engine's {current}; upgrade the bot"
        )
    if version < 1:
        raise PositionError(f"schema {version} is not a stored game state")
    while version < current:
        version += 1
        data = MIGRATIONS[version](data)
        data["schema"] = version
    return data


def load_state(data: Mapping[str, Any]) -> GameState:
    """A stored state of any released schema, upgraded and loaded (the input is not changed)."""
    if data.get("schema") == state_module.SCHEMA_VERSION:
        return GameState.from_json(dict(data))  # from_json copies what it keeps
    return GameState.from_json(upgrade(copy.deepcopy(dict(data))))
