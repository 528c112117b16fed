"""The evaluation split into named terms, and the automa as the evaluation sees it."""

from __future__ import annotations

import dataclasses

from bot.ai import decide, evaluate
from bot.ai.determinize import copy_game
from bot.ai.evaluate import TERMS, term_scale, worth, worth_terms
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.position import load_position


def played_positions(seed: int) -> list[Game]:
    """A copy of the position after every Confirm of a casual AI against the Medium automa."""
    game = new_game(GameOptions(players=2, seed=seed, setup="intro", automa=(1,)))
    positions = []
    while not game.is_over:
        decision = game.decisions()[0]
        seat = player_seat(game.state, decision.player) or 0
        automa = game.automa_level(decision.player) is not None
        answer = automa_answer(game, decision) if automa else decide(game, seat, "casual", 5)
        notation = answer.notation
        game.apply(notation, decision.player)
        if notation == "confirm":
            positions.append(copy_game(game))
    positions.append(game)
    return positions


def test_worth_is_the_sum_of_its_scaled_terms_over_a_played_game() -> None:
    plain = dataclasses.replace(evaluate.W, fitted=0.0)
    half = dataclasses.replace(evaluate.W, fitted=0.5)
    seen: set[str] = set()
    positions = played_positions(21)
    assert len(positions) > 30  # a whole game: every seat's turns of five rounds
    for game in positions:
        later = evaluate.rounds_after(game)
        for company in game.state.companies:
            terms = worth_terms(game, company)
            assert list(terms) == [t for t in TERMS if t in terms]  # named, in order
            seen.update(terms)
            assert worth(game, company, plain) == sum(terms.values())
            for weights in (evaluate.W, half):
                scaled = sum(term_scale(t, later, weights) * v for t, v in terms.items())
                assert abs(worth(game, company, weights) - scaled) < 1e-9
    # every term shows up in a game (the own-dam and ability terms only when their weight is set)
    off = {"dams"} if not evaluate.W.dam_round else set()
    off |= {"ability"} if not evaluate.W.ability else set()
    assert seen == set(TERMS) - off
    assert worth_terms(positions[-1], "usa") == {"vp": float(positions[-1].company("usa").vp)}


def test_the_term_scales_blend_towards_one() -> None:
    saved = dict(evaluate.TERM_SCALE)
    try:
        evaluate.TERM_SCALE.clear()
        evaluate.TERM_SCALE["systems"] = (0.5, 1.5)
        weights = dataclasses.replace(evaluate.W, fitted=1.0)
        assert term_scale("systems", 0, weights) == 0.5
        assert term_scale("systems", 4, weights) == 1.5  # past the table: its last value
        assert term_scale("vp", 3, weights) == 1.0
        half = dataclasses.replace(weights, fitted=0.5)
        assert term_scale("systems", 0, half) == 0.75
        assert term_scale("systems", 0, dataclasses.replace(weights, fitted=0.0)) == 1.0
    finally:
        evaluate.TERM_SCALE.clear()
        evaluate.TERM_SCALE.update(saved)


# France is the Medium automa, in round 2's actions with 7 energy made: the track pays 3
# credits (4 VP to an automa: it has no credits, each one is 1 VP); it leads the objective
# (basins with one of its dams), first place paying an automa 20 VP, not 15.
AUTOMA = """
[game]
players = 2
seed = 3
round = 2
phase = "actions"
turn_order = ["italy", "france"]
automa = ["medium"]
objective = "basins_with_one"

[company.france]
energy = 7

[map]
D7U = { owner = "france", level = 1 }
"""


def test_the_automa_s_credits_are_vp_and_its_objective_pays_its_own_table() -> None:
    game = load_position(AUTOMA)
    assert game.automa_level("france") is not None and game.automa_level("italy") is None
    credits, vp = game.content.energy_track.credits_for(7)
    assert (credits, vp) == (4, 0)
    exact = dataclasses.replace(evaluate.W, automa_exact=True)
    person = dataclasses.replace(evaluate.W, automa_exact=False)
    seen = worth_terms(game, "france", exact)
    as_person = worth_terms(game, "france", person)
    assert seen["track"] == 4.0
    assert as_person["track"] == 4 * evaluate.REWARD_VALUE["credits"]
    share = evaluate.W.objective_share
    assert seen["objective"] == 20 * share and as_person["objective"] == 15 * share
    # a person's seat is judged the same either way
    assert worth_terms(game, "italy", exact) == worth_terms(game, "italy", person)
