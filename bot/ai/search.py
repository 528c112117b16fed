"""Choosing a move: each legal option tried on a copy and the positions compared."""

from __future__ import annotations

from bot.ai.advice import Advice
from bot.ai.evaluate import margin
from bot.rules.automa.seats import player_seat
from bot.rules.catalogue import open_game
from bot.rules.engine import Game
from bot.rules.options import Decision


def seat_decision(game: Game, seat: int) -> Decision:
    """The pending decision of this seat (ValueError when it has none)."""
    for decision in game.decisions():
        if player_seat(game.state, decision.player) == seat:
            return decision
    raise ValueError(f"seat {seat} has no decision to make now")


def copy_game(game: Game) -> Game:
    """An independent game of a copy of the state (the original is never touched)."""
    return open_game(game.state.clone(), game.content)


def choose(game: Game, seat: int, level: str, ai_seed: int) -> Advice:
    """One-ply greedy: the option whose resulting position has the best margin."""
    decision = seat_decision(game, seat)
    company = decision.player
    scored: list[tuple[float, int]] = []
    for index, option in enumerate(decision.options):
        if len(decision.options) == 1:
            scored.append((0.0, index))
            break
        trial = copy_game(game)
        trial.apply(option.notation, company)
        who = company if company in trial.state.companies else None
        scored.append((margin(trial, who) if who else 0.0, index))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    best_value, best = scored[0]
    option = decision.options[best]
    runner = decision.options[scored[1][1]] if len(scored) > 1 else None
    return Advice(
        notation=option.notation,
        expected_margin=best_value,
        runner_up=runner.notation if runner else None,
        margin_over_runner_up=best_value - scored[1][0] if runner else None,
        reason=f"{option.label}: it looks best now.",
    )
