"""A stand-in AI for the service's tests: `decide` with bot.ai's signature, instant and
deterministic (a seeded pick among the engine's options), so the tests check the plumbing of
AI seats and CI stays fast. The real AI's own tests are in tests/ai."""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

from bot.rules import Game
from bot.service.computer import player_at

#: The decider name the service is told to use in tests ("module:function").
DECIDER = "tests.aiplayer:decide"


@dataclass(frozen=True)
class Advice:
    """As bot.ai.Advice."""

    notation: str
    expected_margin: float
    runner_up: str | None
    margin_over_runner_up: float | None
    reason: str


def decide(game: Game, seat: int, level: str, ai_seed: int) -> Advice:
    """A seeded pick: Confirm when offered, else an option drawn from the state's round,
    the seat and the seed (never the clock or the hash seed)."""
    player = player_at(game, seat)
    decision = game.decision(player)
    assert decision is not None, f"{player} has no decision"
    notations = decision.notations
    if "confirm" in notations:
        choice = "confirm"
    else:
        rng = random.Random(f"{ai_seed}:{player}:{level}:{game.state.round}:{len(notations)}")
        choice = rng.choice(notations)
    others = [n for n in notations if n != choice]
    return Advice(
        choice,
        1.5,
        others[0] if others else None,
        0.5 if others else None,
        "it keeps the most energy for the next production",
    )


#: Where `gated_decide` keeps its marks (a folder; the test sets it in the bot's environment).
GATE_ENV = "BARRAGE_TEST_AI_GATE"
_PARENT = os.getppid()


def gated_decide(game: Game, seat: int, level: str, ai_seed: int) -> Advice:
    """`decide`, once the test opens the gate: a search that lasts until the test says so.

    It marks the folder named by $BARRAGE_TEST_AI_GATE with `started-<pid>` and waits for an
    `open` file there; orphaned (its bot was killed), the worker exits at once.
    """
    gate = Path(os.environ[GATE_ENV])
    (gate / f"started-{os.getpid()}").write_text(str(seat))
    while not (gate / "open").exists():
        if os.getppid() != _PARENT:
            os._exit(0)  # the bot that asked is gone: nobody waits for this answer
        time.sleep(0.05)
    return decide(game, seat, level, ai_seed)
