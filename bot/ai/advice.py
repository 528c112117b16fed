"""What the computer player answers: the move, what it expects of it, and why."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Advice:
    """The move chosen for a seat, with what the search expects of it."""

    notation: str  # the chosen option's notation (one of game.decisions() options for `player`)
    expected_margin: float  # estimated final VP margin for `player` of this move (vs best opponent)
    runner_up: str | None  # next-best option's notation, if any
    margin_over_runner_up: float | None  # expected VP of chosen minus runner-up
    reason: str  # one short sentence in words for a player (no internal ids)
