"""The systems outlook, computed from its per-map table, equals its plain definition.

`systems_outlook` reads a table of the map kept per process and judges each conduit once (the
powerhouse with the most pieces built counts), because it is a large part of the search's
CPU. `plain_outlook` below is the definition it replaced: every dam space, conduit and
powerhouse space, with `dam_drops` for the water. Both are compared on positions of random
games on every board, where structures of every company, neutral dams and water stand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.ai import evaluate
from bot.ai.evaluate import COMPLETE, Weights, dam_drops, systems_outlook
from bot.rules import Game, GameOptions, new_game
from bot.rules.prng import SplitMix64
from bot.rules.production import company_bonus
from bot.rules.state import NEUTRAL

BOARDS: dict[str, dict[str, Any]] = {
    "base": dict(setup="full"),
    "leeghwater": dict(setup="full", expansions=("leeghwater",)),
    "colorado": dict(setup="intro", expansions=("colorado",)),
    "nile": dict(setup="intro", expansions=("nile",)),
}
VARIANTS = (
    evaluate.W,
    replace(evaluate.W, neutral_share=0.8),
    replace(evaluate.W, upstream_catch=1.0, water_per_headstream=0.85),
)


def plain_outlook(game: Game, company_id: str, weights: Weights) -> tuple[list[float], int]:
    """The outlook as first defined: each system (dam space, conduit, powerhouse space)."""
    state = game.state
    bonus = company_bonus(game, company_id)
    outlook: list[float] = []
    now = 0
    for dam_space, space in game.map.dam_spaces.items():
        dam = state.dams.get(dam_space)
        if dam is not None and dam.owner not in (company_id, NEUTRAL):
            continue
        have_dam = 0 if dam is None else 1
        drops = dam_drops(game, dam_space, dam, weights)
        best = 0.0
        for conduit_space in game.map.basins[space.basin].conduit_spaces:
            conduit = game.map.conduit_spaces[conduit_space]
            conduit_owner = state.conduits.get(conduit_space)
            for powerhouse in conduit.connects_powerhouse_spaces:
                owner = state.powerhouses.get(powerhouse)
                if owner is not None and owner != company_id:
                    continue
                pieces = have_dam + (conduit_owner is not None) + (owner == company_id)
                energy = drops * conduit.production + (bonus if drops else 0)
                best = max(best, COMPLETE[pieces] * energy)
                if pieces == 3 and dam is not None and dam.water:
                    now = max(now, dam.water * conduit.production + bonus)
        if best:
            outlook.append(best)
    outlook.sort(reverse=True)
    return outlook, now


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_the_outlook_equals_its_plain_definition_in_random_games(board: str) -> None:
    game = new_game(GameOptions(players=3, seed=11, **BOARDS[board]))
    rng = SplitMix64(11)
    compared = produced = 0
    while not game.is_over:
        decision = game.decisions()[0]
        option = decision.options[rng.below(len(decision.options))]
        game.apply(option.notation, decision.player)
        if game.state.decisions % 3:
            continue
        for company_id in game.state.companies:
            for weights in VARIANTS:
                found = systems_outlook(game, company_id, weights)
                assert found == plain_outlook(game, company_id, weights)
                compared += 1
                produced += found[1] > 0
    # The positions reached complete systems with water held, not only empty boards.
    assert compared > 300
    assert produced > 0
