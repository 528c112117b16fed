"""Computer seats: automa companies and AI players, and the one way the service asks them.

A seat is played by a person, by an automa (the engine's card-driven opponent, always one of
the last seats) or by the AI (`bot.ai`: the full rules, any seat). `ComputerSeat` (`bot.rules.computers`)
says which computer plays a seat and at what level; `Loaded.computer_of` finds it for an engine player.

Every computer answer goes through `computer_answer`: it is the seat's answer to one pending
decision, logged as a decision record with `auto` naming the seat's kind (`automa`, or
`ai:<level>`) and no user — so replay, export, import and rewind never run a computer again.
An automa answers in microseconds, so `answer_on_behalf` (bot/service/turns.py) asks it in the
landing that makes its decision due; the AI searches for up to seconds, so its answers are
asked in a worker process (`ai_decide`, below, run by bot/service/thinking.py) and landed like
any player's input, against the version they were computed for.
"""

from __future__ import annotations

import importlib
import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.rules import Decision, Game, Option
from bot.rules.computers import AI_LEVELS, AI_PREFIX, ComputerSeat

#: The level of hints (RULINGS: a hint is the strong level's move).
HINT_LEVEL = "strong"
#: The decider the workers call unless a test or bench names another ("module:function").
DEFAULT_DECIDER = "bot.ai:decide"


def ai_level_of(auto: str | None) -> str | None:
    """The AI level named by a decision record's `auto`, or None for anything else."""
    if auto and auto.startswith(AI_PREFIX):
        return auto[len(AI_PREFIX) :]
    return None


def parse_ai_level(text: str) -> str:
    """An AI level by name; ValueError naming the levels otherwise."""
    level = str(text).strip().lower()
    if level not in AI_LEVELS:
        raise ValueError(f"AI level {text!r} is not one of {', '.join(AI_LEVELS)}")
    return level


def automa_now(game: Game) -> tuple[Decision, Option] | None:
    """A pending automa decision and its answer (the automa's rules), or None."""
    from bot.rules.automa.play import automa_answer, pending_automa

    decision = pending_automa(game)
    if decision is None:
        return None
    return decision, automa_answer(game, decision)


# -- in a worker process ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Thought:
    """A worker's answer: the move, why, and what it cost there."""

    notation: str
    expected_margin: float
    runner_up: str | None
    margin_over_runner_up: float | None
    reason: str
    #: Worker CPU seconds (`time.process_time()`) this decision took.
    cpu_s: float
    #: The worker's peak resident memory so far, in MB.
    rss_mb: float
    pid: int


_DECIDERS: dict[str, Callable[..., Any]] = {}


def _decider(path: str) -> Callable[..., Any]:
    found = _DECIDERS.get(path)
    if found is None:
        module, _, name = path.partition(":")
        found = getattr(importlib.import_module(module), name)
        _DECIDERS[path] = found
    return found


def ai_decide(
    state_json: dict[str, Any], player: str, level: str, ai_seed: int, decider: str
) -> Thought:
    """The AI's answer to `player`'s pending decision in this state (run in a worker)."""
    from bot.rules import load_state, open_game

    game = open_game(load_state(state_json))
    start = time.process_time()
    advice = _decider(decider)(game, seat_of(game, player), level, ai_seed)
    cpu = time.process_time() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return Thought(
        advice.notation,
        float(advice.expected_margin),
        advice.runner_up,
        None if advice.margin_over_runner_up is None else float(advice.margin_over_runner_up),
        str(advice.reason),
        cpu,
        rss,
        os.getpid(),
    )


def seat_of(game: Game, player: str) -> int:
    """The seat number (`bot.ai.decide`'s `player`) of an engine player id ("seatN" in the
    draft, else a company)."""
    if player.startswith("seat") and player[4:].isdigit():
        return int(player[4:])
    return game.state.companies[player].seat


def player_at(game: Game, seat: int) -> str:
    """The engine player id at a seat: its company, or "seatN" before companies are dealt."""
    seats = game.state.seats
    return seats[seat] if seat < len(seats) and seats[seat] else f"seat{seat}"


def worker_ready() -> int:
    """Import what a worker needs before its first decision; its pid."""
    from bot import rules  # noqa: F401

    return os.getpid()


__all__ = [
    "AI_LEVELS",
    "AI_PREFIX",
    "DEFAULT_DECIDER",
    "HINT_LEVEL",
    "ComputerSeat",
    "Thought",
    "ai_decide",
    "ai_level_of",
    "automa_now",
    "parse_ai_level",
]
