"""The search's fast state copy equals the engine's deep copy and shares nothing with it."""

from __future__ import annotations

import pytest

from bot.ai.determinize import cloned
from bot.rules import GameOptions, new_game
from bot.rules.prng import SplitMix64


@pytest.mark.parametrize(
    "options",
    [
        GameOptions(players=3, seed=2, setup="full", expansions=("leeghwater",), automa=(2,)),
        GameOptions(players=2, seed=3, expansions=("nile",)),
        GameOptions(players=4, seed=4, expansions=("colorado",)),
    ],
)
def test_clone_equals_deepcopy_all_game_long(options: GameOptions) -> None:
    game = new_game(options)
    rng = SplitMix64(options.seed)
    steps = 0
    while not game.is_over:
        if steps % 7 == 0:
            copy = cloned(game.state)
            assert copy.to_json() == game.state.clone().to_json()
            if copy.seats:
                copy.companies[copy.seats[0]].wheel[0].tiles.append("zz-marker")
            copy.stack.append({"kind": "x"})
            copy.extra["x"] = 1
            assert "zz-marker" not in repr(game.state.to_json())
            assert "x" not in game.state.extra and game.state.stack[-1:] != [{"kind": "x"}]
        decisions = game.decisions()
        decision = decisions[rng.below(len(decisions))]
        if game.automa_level(decision.player) is not None:
            from bot.rules.automa.play import automa_answer

            option = automa_answer(game, decision)
        else:
            option = decision.options[rng.below(len(decision.options))]
        game.apply(option.notation, decision.player)
        steps += 1
