"""The Barrage rules engine: pure, deterministic, no I/O.

Public API:
    new_game(options) -> Game         set up a game (bot.rules.setup)
    Game.decisions() / decision()     what must be decided now
    Game.apply(notation, player)      answer; returns events
    replay(options, records)          rebuild a game from its log (bot.rules.replay)
    GameState.to_json / from_json     states of this engine's schema
    load_state(data)                  a stored state of any released schema (bot.rules.migrations)
"""

from __future__ import annotations

# Importing these modules registers their task kinds with the engine.
# Importing the expansions registers them (`bot.rules.hooks.EXPANSIONS`).
from bot.rules import (  # noqa: F401
    actions,
    advanced_tiles,
    construction,
    draft,
    expansions,
    flow,
    officers,
    patent,
    production,
    rewards,
)
from bot.rules.engine import ENGINE_VERSION, Game
from bot.rules.errors import (
    GameOver,
    IllegalMove,
    MalformedNotation,
    NotYourDecision,
    PositionError,
    RuleError,
)
from bot.rules.events import Event
from bot.rules.migrations import load_state
from bot.rules.options import Decision, Option
from bot.rules.setup import SetupError, new_game
from bot.rules.state import GameOptions, GameState

__all__ = [
    "ENGINE_VERSION",
    "Decision",
    "Event",
    "Game",
    "GameOptions",
    "GameOver",
    "GameState",
    "IllegalMove",
    "MalformedNotation",
    "NotYourDecision",
    "Option",
    "PositionError",
    "RuleError",
    "SetupError",
    "load_state",
    "new_game",
]
