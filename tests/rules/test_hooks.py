"""The toy expansion adds an action space, a structure kind and a scoring step via the hooks."""

from __future__ import annotations

import random

from bot.rules import GameOptions, new_game
from bot.rules.position import load_position
from tests.rules import toy as toy_expansion
from tests.rules.toy import TOY_CATALOGUE


def test_toy_action_space_structure_and_scoring() -> None:
    game = load_position(
        '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\nexpansions = ["toy"]\n',
        catalogue=TOY_CATALOGUE,
    )
    assert toy_expansion.YARD in game.decision().notations
    game.apply(toy_expansion.YARD, "italy")
    assert game.decision().kind == "reward_build"
    game.apply("statue S5", "italy")
    game.apply("pose standing", "italy")
    game.apply("confirm", "italy")
    assert game.state.extra["statues"] == {"S5": "italy"}
    assert game.state.companies["italy"].placed["statue"] == 1
    # Play on to the Scoring phase: the statue scores 1 VP.
    rng = random.Random(0)
    while game.state.phase != "end_of_round" and not game.is_over:
        decision = rng.choice(game.decisions())
        events = game.apply(rng.choice(decision.options).notation, decision.player)
        if any(e.source.startswith("toy:statue") for e in events):
            break
    assert any(e.source == "toy:statue:S5" and e.amount == 1 for e in events)


def test_base_games_do_not_see_the_toy() -> None:
    game = new_game(GameOptions(players=2, seed=1))
    assert toy_expansion.YARD not in game.decision().notations
    game.apply("build", game.decision().player) if "build" in game.decision().notations else None
    if game.decision() and game.decision().kind == "build_structure":
        assert not any(n.startswith("statue") for n in game.decision().notations)


def test_random_games_with_the_toy_reach_the_end() -> None:
    for seed in range(5):
        game = new_game(
            GameOptions(players=3, seed=seed, expansions=("toy",)), catalogue=TOY_CATALOGUE
        )
        rng = random.Random(seed)
        while not game.is_over:
            decision = rng.choice(game.decisions())
            game.apply(rng.choice(decision.options).notation, decision.player)
        assert game.state.result["ranking"]


def test_the_products_catalogue_knows_no_toy() -> None:
    from bot.rules import CATALOGUE

    assert "toy" not in CATALOGUE
    assert "toy" in TOY_CATALOGUE
