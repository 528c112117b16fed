"""Every listed option round-trips through its notation; bad input is refused, state unchanged."""

from __future__ import annotations

import random

import pytest

from bot.rules import (
    GameOptions,
    IllegalMove,
    MalformedNotation,
    NotYourDecision,
    new_game,
    open_game,
)
from bot.rules.errors import GameOver, RuleError
from bot.rules.options import LABEL_MAX
from bot.rules.position import load_position


def walk_game(seed: int, players: int):
    """Yield (game, decision) at every decision of a random game."""
    game = new_game(GameOptions(players=players, seed=seed))
    rng = random.Random(seed)
    while not game.is_over:
        decision = rng.choice(game.decisions())
        yield game, decision
        game.apply(rng.choice(decision.options).notation, decision.player)


@pytest.mark.parametrize("seed", range(4))
def test_every_option_round_trips_and_applies(seed: int) -> None:
    for game, decision in walk_game(seed, 2 + seed % 3):
        for option in decision.options:
            assert len(option.label) <= LABEL_MAX
            # Parsing the notation (in any case, with stray spaces) finds the same option.
            assert game.parse(option.notation, decision.player) is option
            assert game.parse(f"  {option.notation.upper()} ", decision.player) is option
        # Every option applies cleanly on a copy.
        sample = random.Random(seed).sample(decision.options, min(3, len(decision.options)))
        for option in sample:
            clone = game.state.clone()

            open_game(clone, game.content).apply(option.notation, decision.player)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly to the moon",
        "pay four",
        "produce D1L",
        "drops",
        "machines 2",
        "contract x",
        "?!",
    ],
)
def test_malformed_notation_is_refused_with_the_input_quoted(text: str) -> None:
    game = new_game(GameOptions(players=3, seed=1))
    before = game.state.to_json()
    decision = game.decision()
    with pytest.raises(MalformedNotation) as error:
        game.apply(text, decision.player)
    if text.strip():
        assert text.strip() in str(error.value)
    assert game.state.to_json() == before


def test_illegal_moves_say_why_and_change_nothing() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\n'
        '[company.italy]\ncredits = 1\n[spaces]\nwater_place2_left = [["usa", 1]]\n'
        '[map]\nD5U = { owner = "usa", level = 1 }\n'
    )
    before = game.state.to_json()
    cases = {
        "water_place2_left": "already taken this round (by USA)",
        "workshop_rotate3_left": "costs 5 credits; you have 1",
        "turbine_plus2_left": "no dam with water",
        "nowhere_space": "no action space 'nowhere_space'",
        "patent_1": "not used in the introductory game",
        "turbine_plus1_left": "needs 4 companies",
        "take 201": "the question is",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMove, match=None) as error:
            game.apply(text, "italy")
        assert reason in str(error.value), (text, str(error.value))
        assert text in str(error.value)
    game.apply("build", "italy")
    with pytest.raises(IllegalMove, match="already holds a dam"):
        game.apply("base D5U", "italy")
    with pytest.raises(IllegalMove, match="no space D99U"):
        game.apply("base D99U", "italy")
    assert game.state.to_json() != before  # 'build' itself applied
    assert game.state.turn_open


def test_answering_for_someone_else_is_refused() -> None:
    game = new_game(GameOptions(players=3, seed=2))
    decision = game.decision()
    other = next(c for c in game.state.seats if c != decision.player)
    before = game.state.to_json()
    with pytest.raises(NotYourDecision, match=f"not {other}'s decision"):
        game.apply(decision.options[0].notation, other)
    assert game.state.to_json() == before


def test_game_over_refuses_everything() -> None:
    game = new_game(GameOptions(players=2, seed=3))
    rng = random.Random(3)
    while not game.is_over:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    with pytest.raises(GameOver):
        game.apply("confirm", "usa")
    assert issubclass(GameOver, RuleError)
