"""How automa companies play The Leeghwater Project (the base game asks through the
`automa_action` hook; bot/rules/automa gives the turn).

- `external_work` (slot_order): the first slot in the card's order holding a tile whose
  machineries the automa has in its supply; its engineers (the card's count) go on that slot's
  External Work space, it discards the machineries and completes the work (reward at once; any
  choice in it is answered as the automa answers every reward).
- `construct` a `building` (building_choice): `first_available` builds on the lowest-numbered
  Building tile (the board's order) with a free space it may use, `last_available` on the
  highest, on that tile's first free space; the cost, the tile (the highest-level one that
  builds it) and the machinery as for any automa construction. The automa never activates a
  Private Building's own action (the cards have no such action).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.actions import place_engineers
from bot.rules.automa.turn import AutomaTurn, build, construct_spaces, tile_words
from bot.rules.engine import Game
from bot.rules.expansions.leeghwater.board import lw
from bot.rules.expansions.leeghwater.buildings import split_space
from bot.rules.expansions.leeghwater.tables import BUILDINGS, WORK_SPACES
from bot.rules.expansions.leeghwater.works import complete_work, work_cost, work_text


def external_work(game: Game, turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Complete the first External Work of the card's slot order it can pay for."""
    company = game.company(turn.company)
    for slot in action["slot_order"]:
        space = next(s for s in WORK_SPACES.of(game.content).values() if s.tile_slot == slot)
        work = lw(game)["works"][slot - 1]
        if work is None or game.state.spaces.get(space.id):
            continue
        excavators, mixers = work_cost(game, work)
        if company.excavators < excavators or company.mixers < mixers:
            continue
        engineers = min(int(action["engineers"]), company.engineers)
        source = f"external_work:{work}"
        place_engineers(game, turn.company, space.id, engineers, f"space:{space.id}")
        turn.pay_vp(action, "automa:external_work")
        text = work_text(game, work)
        game.gain(turn.company, "excavators", -excavators, source)
        game.gain(turn.company, "mixers", -mixers, source)
        complete_work(game, turn.company, slot, source)
        turn.report(action, f"completed the External Work {text}", slot=slot)
        return True
    return False


def building_name(game: Game, tile: str) -> str:
    """A Private Building's name ('loan_agency' -> 'Loan Agency')."""
    found = BUILDINGS.of(game.content).get(tile)
    return found.name if found is not None else "Private Building"


def building(game: Game, turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Build a Building on the first (or last) Building tile with a space it may use."""
    plans = construct_spaces(game, turn.company, turn.level, action)
    if not plans:
        return False
    order = {tile: index for index, tile in enumerate(lw(game)["buildings"])}

    def rank(space: str) -> tuple[int, int]:
        tile, index = split_space(space)
        first = action.get("building_choice", "first_available") == "first_available"
        return (order[tile] if first else -order[tile], index)

    space = min(plans, key=rank)
    build(turn, action, "building", space, plans[space])
    turn.report(
        action,
        f"built a Building on the {building_name(game, split_space(space)[0])} tile with its "
        f"{tile_words(game, plans[space][0].tile)}",
        structure="building",
        space=space,
        criteria=[action.get("building_choice", "first_available")],
    )
    return True


def automa_action(game: Game, action: Mapping[str, Any], turn: AutomaTurn) -> bool | None:
    """The Leeghwater Project's automa actions; None for the others."""
    if action["type"] == "external_work":
        return external_work(game, turn, action)
    if action["type"] == "construct" and action.get("structure") == "building":
        return building(game, turn, action)
    return None
