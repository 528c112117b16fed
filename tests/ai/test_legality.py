"""The computer player answers every decision of whole games on every board with a legal option."""

from __future__ import annotations

import pytest

from bot.ai import LEVELS, Advice, decide
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.prng import SplitMix64

SETUPS = [
    GameOptions(players=2, seed=11),
    GameOptions(players=3, seed=12, setup="full"),
    GameOptions(players=2, seed=13, setup="full", expansions=("leeghwater",)),
    GameOptions(players=2, seed=14, expansions=("colorado",)),
    GameOptions(players=3, seed=15, setup="full", expansions=("colorado", "leeghwater")),
    GameOptions(players=2, seed=16, expansions=("nile",)),
    GameOptions(players=2, seed=17, setup="full", expansions=("nile",)),
    GameOptions(players=3, seed=18, automa=(3,)),
]


def play(options: GameOptions, ai_seats: set[int], level: str) -> Game:
    """Play to the end: AI seats by `decide` (its answer checked legal), others at random."""
    game = new_game(options)
    rng = SplitMix64(options.seed)
    while not game.is_over:
        decisions = game.decisions()
        decision = decisions[rng.below(len(decisions))]
        seat = player_seat(game.state, decision.player)
        if game.automa_level(decision.player) is not None:
            notation = automa_answer(game, decision).notation
        elif seat in ai_seats:
            advice = decide(game, seat, level, ai_seed=options.seed + 1)
            assert isinstance(advice, Advice)
            assert decision.find(advice.notation) is not None, (decision.kind, advice.notation)
            assert advice.reason
            notation = advice.notation
        else:
            notation = decision.options[rng.below(len(decision.options))].notation
        game.apply(notation, decision.player)
    return game


@pytest.mark.parametrize(
    "options", SETUPS, ids=lambda o: f"{o.setup}-{'+'.join(o.expansions) or 'base'}-{o.players}"
)
def test_ai_plays_whole_games_legally(options: GameOptions) -> None:
    # the AI in every seat but one person's (and the automas'), the person at random
    game = play(options, set(range(options.players - len(options.automa) - 1)) | {0}, "casual")
    assert game.is_over


def test_unknown_level_is_refused() -> None:
    game = new_game(GameOptions(players=2, seed=1))
    with pytest.raises(ValueError, match="unknown AI level"):
        decide(game, 0, "expert", 1)
    assert LEVELS == ("casual", "strong")


def test_a_seat_without_a_decision_is_refused() -> None:
    game = new_game(GameOptions(players=2, seed=1))
    waiting = next(
        seat
        for seat in range(2)
        if seat not in {player_seat(game.state, d.player) for d in game.decisions()}
    )
    with pytest.raises(ValueError, match="no decision"):
        decide(game, waiting, "casual", 1)
