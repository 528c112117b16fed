"""The Barrage rules engine: pure, deterministic, no I/O.

Public API:
    new_game(options) -> Game         set up a game (bot.rules.setup)
    Game.decisions() / decision()     what must be decided now
    Game.apply(notation, player)      answer (a notation, an option or a move); returns events
    Game.read(notation) -> Move       the typed move a notation writes (bot.rules.moves)
    replay(options, records)          rebuild a game from its log (bot.rules.replay)
    GameState.to_json / from_json     states of this engine's schema
    load_state(data)                  a stored state of any released schema (bot.rules.migrations)
    open_game(state)                  the game of a state, with its rules (bot.rules.catalogue)
    CATALOGUE                         the expansions: declarations, combinations, rule tables
"""

from __future__ import annotations

from bot.rules.catalogue import CATALOGUE, Catalogue, open_game
from bot.rules.declarations import ExpansionInfo
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
    "CATALOGUE",
    "ENGINE_VERSION",
    "Catalogue",
    "Decision",
    "Event",
    "ExpansionInfo",
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
    "open_game",
]
