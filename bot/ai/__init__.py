"""The computer player: answers any decision a person meets with one of the engine's options.

Public API (the service runs it in worker processes):

    LEVELS                                 the levels, weakest first
    decide(game, player, level, ai_seed)   the option the seat `player` plays now, as `Advice`

`player` is a seat number (0-based, `Company.seat`; before the full game's draft seats a
company, decisions name it `seatN`). `ai_seed` is drawn by the service when the game is created
(never the setup seed, which fixes the hidden draws). `decide` never changes `game`: it works
on copies of the state. It is pure: no clock, no global random, no I/O; its randomness comes
from `ai_seed` and the public history through the engine's SplitMix64, and its budget is
counted in work, never in time, so the same game, seat, level and seed give the same answer
in any process.

This first version is a one-ply greedy player (each option applied on a copy, the position
after it scored by `bot.ai.evaluate`); the search replaces it.
"""

from __future__ import annotations

from bot.ai.advice import LEVELS, Advice
from bot.ai.search import choose
from bot.rules.engine import Game

__all__ = ["LEVELS", "Advice", "decide"]


def decide(game: Game, player: int, level: str, ai_seed: int) -> Advice:
    """The option seat `player` plays now at `level` (ValueError if it has no decision)."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    return choose(game, player, level, ai_seed)
