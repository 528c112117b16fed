"""A second, deliberately simple implementation of the automa's turn algorithm, to check the
engine's (bot/rules/automa/turn.py) turn by turn in the random games and in bench/automa.py.

It predicts, from the state before a turn, which of the card's actions the automa does: each
action type's "can it be done" written again in the plainest way (loops over the map and the
supply), the stop rule, and the engineers. Where it needs a rule that is not the turn
algorithm's own (a production's energy, a structure's cost after tile rules) it asks the
engine. Where its answer and the engine's differ, `check_turn` says how.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import Game
from bot.rules.automa.deck import deck_of
from bot.rules.automa.turn import automa_costs, card
from bot.rules.construction import payments, uses_for
from bot.rules.contracts import contract_discount
from bot.rules.engine import AUTOMA_BUDGET
from bot.rules.events import Event
from bot.rules.expansions.leeghwater import tables as lw_tables
from bot.rules.production import production_energy
from bot.rules.water import flow_drop

STOPS = {"produce", "construct", "rotate_wheel", "gain_machinery", "patent", "external_work"}


def next_cards(game: Game, company: str) -> tuple[int, int] | None:
    """(actions card, criteria card) of the automa's next turn, when no reshuffle is due."""
    deck = deck_of(game.state, company)["deck"]
    return (deck[1], deck[0]) if len(deck) >= 3 else None


def _can_produce(game: Game, me: str, action: Mapping[str, Any]) -> bool:
    mine = game.company(me).energy
    others = [game.company(c).energy for c in game.state.seats if c != me]
    if not (mine < 6 * game.state.round or any(e >= mine for e in others)):
        return False
    best = 0
    for dam_id, dam in game.state.dams.items():
        if dam.water == 0 or dam.owner not in (me, "neutral"):
            continue
        for conduit in game.map.basins[game.map.dam_spaces[dam_id].basin].conduit_spaces:
            if conduit not in game.state.conduits:
                continue
            for ph in game.map.conduit_spaces[conduit].connects_powerhouse_spaces:
                if game.state.powerhouses.get(ph) == me:
                    bonus = int(action.get("production_bonus", 0))
                    energy = production_energy(game, me, conduit, dam.water, bonus, second=False)
                    best = max(best, energy)
    if best < 1:
        return False
    discount = contract_discount(game, me)
    level = action["contract_level"]
    return any(
        game.content.contracts[c].energy - discount <= best
        for c in game.state.private_offer.get(level, [])
    )


def _can_place_drops(game: Game, me: str) -> bool:
    for headstream in game.map.headstreams:
        stop = flow_drop(
            game.map,
            game.map.headstream_feeds[headstream],
            game.capacities(),
            game.water_levels(),
        ).stopped_at
        if stop is not None and game.state.dams[stop].owner == me:
            return True
    return False


def _legal_spaces(game: Game, me: str, action: Mapping[str, Any]) -> list[str]:
    kind = action["structure"]
    state = game.state
    if kind == "base":
        mine = {game.map.dam_spaces[d].basin for d, dam in state.dams.items() if dam.owner == me}
        spaces = [
            d.id
            for d in game.map.dam_spaces.values()
            if d.id not in state.dams and d.basin not in mine
        ]
        if action.get("areas"):
            spaces = [s for s in spaces if game.map.dam_spaces[s].area in action["areas"]]
        return spaces
    if kind == "elevation":
        return [d for d, dam in state.dams.items() if dam.owner == me and dam.level < 3]
    if kind == "conduit":
        least = int(action.get("min_conduit_production", 0))
        return [
            c.id
            for c in game.map.conduit_spaces.values()
            if c.id not in state.conduits and c.production >= least
        ]
    if kind == "powerhouse":
        mine = {
            game.map.powerhouse_spaces[p].basin for p, o in state.powerhouses.items() if o == me
        }
        return [
            p.id
            for p in game.map.powerhouse_spaces.values()
            if p.id not in state.powerhouses and p.basin not in mine
        ]
    return []


def _can_construct(game: Game, me: str, level: int, action: Mapping[str, Any]) -> bool:
    kind = action["structure"]
    if kind == "building":
        if kind not in game.rules.structures:
            return False
        spaces = game.rules.structures[kind].spaces(game, me, {})
    else:
        spaces = _legal_spaces(game, me, action)
    if game.company(me).placed.get(kind, 0) >= game.rules.structures[kind].pieces(game):
        return False
    # Which tiles build what (an officer's imitating tile...) is the engine's tile rule.
    uses = [
        use.acts_as
        for use in uses_for(game, me, kind)
        if game.content.tiles[use.tile].kind != "special" or level >= 3
    ]
    for space in spaces:
        for tile in uses:
            for cost in automa_costs(game, me, level, kind, space, tile):
                if payments(game, me, cost, AUTOMA_BUDGET, rate=0):
                    return True
    return False


def _can_external_work(game: Game, me: str, action: Mapping[str, Any]) -> bool:
    board = game.state.extra.get("leeghwater")
    if board is None:
        return False
    company = game.company(me)
    for space in lw_tables.WORK_SPACES.of(game.content).values():
        work = board["works"][space.tile_slot - 1]
        if work is None or game.state.spaces.get(space.id):
            continue
        cost = lw_tables.WORKS.of(game.content)[work].cost
        if company.excavators >= cost.get("excavators", 0) and company.mixers >= cost.get(
            "mixers", 0
        ):
            return True
    return False


def can_do(game: Game, me: str, level: int, action: Mapping[str, Any]) -> bool:
    """Whether the automa can do this card action now (the plain reading)."""
    kind = action["type"]
    if kind == "produce":
        return _can_produce(game, me, action)
    if kind == "place_drops":
        return _can_place_drops(game, me)
    if kind == "construct":
        return _can_construct(game, me, level, action)
    if kind == "external_work":
        return _can_external_work(game, me, action)
    if kind == "rotate_wheel":
        return any(not s.is_empty() for s in game.company(me).wheel)
    if kind == "gain_machinery":
        return not (action.get("not_in_last_round") and game.state.round == 5)
    if kind == "clear_contracts":
        return bool(game.state.private_offer.get(action["contract_level"]))
    if kind == "patent":
        return any(
            t is not None and game.content.tiles[t].builds in (action["structure"], "any")
            for t in game.state.patent_offer
        )
    return kind == "gain_vp"


def predict(game: Game, me: str, actions_card: int) -> tuple[list[str], int]:
    """The action types the automa will do with this card, and the engineers it will place,
    when the actions do not change each other's possibility (see `check_turn`)."""
    level = game.automa_level(me)
    assert level is not None
    left = game.company(me).engineers
    out, placed = [], 0
    for action in card(actions_card)["actions"]:
        if left < 1:
            break
        if can_do(game, me, level, action):
            used = min(int(action["engineers"]), left)
            left -= used
            placed += used
            out.append(action["type"])
            if action["type"] in STOPS:
                break
    return out, placed


def check_turn(before: Game, after: Game, me: str, events: list[Event]) -> list[str]:
    """Differences between the engine's turn (events, state after) and the prediction made
    on the state before it; [] when they agree."""
    cards = next_cards(before, me)
    flip = next(e for e in events if e.kind == "automa_card")
    if cards is not None and (flip.data["actions"], flip.data["criteria"]) != cards:
        return [f"cards {flip.data['actions']}/{flip.data['criteria']} instead of {cards}"]
    done = [e.data["type"] for e in events if e.kind == "automa_action" and e.company == me]
    done = [d for d in done if d != "pass"]
    expected, placed = predict(before, me, flip.data["actions"])
    # Clearing contracts changes which contracts are face up later in the turn (never
    # anything else a later action asks), so the prediction re-reads them after it.
    problems = []
    if done != expected:
        problems.append(f"card {flip.data['actions']}: did {done}, expected {expected}")
    spent = before.company(me).engineers - after.company(me).engineers
    if not problems and spent != placed and after.state.round == before.state.round:
        problems.append(f"placed {spent} engineers, expected {placed}")
    return problems
