"""The evaluation's judgements that the search relies on, checked on stated positions."""

from __future__ import annotations

from bot.ai import decide
from bot.ai.evaluate import margin
from bot.ai.search import seat_decision
from bot.rules.engine import Game
from bot.rules.options import Decision
from bot.rules.position import load_position

# Italy holds contract 204 (2 energy: 3 credits, 2 drops later) and a dam of 3 drops: one drop
# through C7R (3) on the +2 space makes 5 energy, and the two left would reach the contract
# again — which made holding it look better than fulfilling it. USA has no excavators: else
# its cheapest reply in the search builds a base under the contract's drops, a real gift that
# made the two options a tie (0.1 VP) once drops on the headstreams counted (`waiting`).
POSITION = """
[game]
players = 2
seed = 3
round = 2
phase = "actions"
turn_order = ["italy", "usa"]
current = "italy"

[company.italy]
contracts = [204]

[company.usa]
excavators = 0

[map]
D7U = { owner = "italy", level = 3, water = 3 }
C7R = "italy"
P12_0 = "italy"
"""

PRODUCE = ("turbine_plus2_left", "produce D7U C7R 1")


def _at_contract() -> tuple[Game, int, Decision]:
    game = load_position(POSITION)
    seat = game.state.companies["italy"].seat
    for notation in PRODUCE:
        decision = seat_decision(game, seat)
        assert decision is not None and decision.find(notation) is not None, decision
        game.apply(notation, decision.player)
    decision = seat_decision(game, seat)
    assert decision is not None and decision.kind == "fulfil_contract"
    assert decision.find("contract 204") is not None and decision.find("contract none")
    return game, seat, decision


def test_a_contract_it_can_fulfil_is_fulfilled_at_every_level() -> None:
    for level in ("casual", "strong"):
        game, seat, _ = _at_contract()
        assert decide(game, seat, level, ai_seed=7).notation == "contract 204", level


def test_holding_a_contract_is_worth_less_than_fulfilling_it() -> None:
    _, _, decision = _at_contract()
    values = {}
    for notation in ("contract 204", "contract none"):
        trial = load_position(POSITION)
        for step in (*PRODUCE, notation):
            trial.apply(step, decision.player)
        values[notation] = margin(trial, "italy")
    assert values["contract 204"] > values["contract none"]
