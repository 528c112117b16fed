"""Numbered migrations of stored game states (the JSON of `GameState.to_json`).

Each entry upgrades a state dict from schema version N to N + 1. `upgrade` applies every step
from the stored version to `SCHEMA_VERSION`; a state newer than the engine is refused.
Schema 1 is the first released format, so the list is empty today; when the state changes,
add `2: _v1_to_v2` here and a test that upgrades a stored schema-1 fixture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.errors import PositionError
from bot.rules.state import SCHEMA_VERSION

Migration = Callable[[dict[str, Any]], dict[str, Any]]
# target version -> function turning a state of version (target - 1) into one of target.
MIGRATIONS: dict[int, Migration] = {}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Return `data` upgraded to the current schema version."""
    version = int(data.get("schema", 0))
    if version > SCHEMA_VERSION:
        raise PositionError(
            f"this state has schema {version}, newer than this engine's {SCHEMA_VERSION}; "
            "upgrade the bot"
        )
    if version < 1:
        raise PositionError(f"schema {version} is not a stored game state")
    while version < SCHEMA_VERSION:
        version += 1
        data = MIGRATIONS[version](data)
        data["schema"] = version
    return data
