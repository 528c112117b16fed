"""Explanations of well-formed but illegal moves, as specifically as the engine can say."""

from __future__ import annotations

from bot.rules.actions import spaces_in_play
from bot.rules.content import company_name
from bot.rules.engine import Game
from bot.rules.moves import Move
from bot.rules.notation import Fulfil, Produce, Structure
from bot.rules.options import Decision, counted, machinery_text
from bot.rules.rulebook import RuleSet
from bot.rules.wording import space_name

RULES: RuleSet[Game] = RuleSet("illegal")

#: The base game's structure kinds, whose placement rules are explained here.
BASE_KINDS = ("base", "elevation", "conduit", "powerhouse")


@RULES.explainer
def explain_illegal(game: Game, decision: Decision, move: Move, text: str) -> str:
    """Why a well-formed answer (`move`, written `text`) is not legal now, as specifically as
    the engine can say."""
    verb = move.word
    verbs = {option.move.word for option in decision.options}
    intro = f"'{text}' is not legal now"
    reasons = game.rules.why_not
    turn_verb = verb in ("build", "bank") or verb in reasons or verb not in game.rules.verbs
    if decision.kind == "turn" and turn_verb:
        reason = _explain_turn(game, decision.player, verb)
        if reason:
            return f"{intro}: {reason}"
    elif isinstance(move, Structure) and verb in BASE_KINDS and verb in verbs:
        return f"{intro}: {_explain_placement(game, decision.player, move)}"
    elif isinstance(move, Produce) and verb in verbs:
        return f"{intro}: {_explain_production(game, decision.player, move)}"
    elif isinstance(move, Fulfil) and verb in verbs:
        asked = text.partition(" ")[2]  # as written, quoted back
        return f"{intro}: contract {asked} is not one you can fulfil with this energy"
    if verb not in verbs:
        sample = ", ".join(f"`{option.notation}`" for option in decision.options[:4])
        more = "…" if len(decision.options) > 4 else ""
        return f"{intro}: the question is “{decision.prompt}”; answer with e.g. {sample}{more}"
    sample = ", ".join(f"`{option.notation}`" for option in decision.options[:6])
    return f"{intro}: it is not among the {len(decision.options)} legal options ({sample}…)"


def _explain_turn(game: Game, company_id: str, verb: str) -> str:
    company = game.company(company_id)
    if verb in game.rules.why_not:
        return game.rules.why_not[verb](game, company_id)
    if verb == "build":
        spaces = game.content.common.construction_spaces
        used = company.construction_spaces_used
        if used >= len(spaces):
            return "all four construction spaces of your board are used this round"
        next_space = spaces[used]
        if company.engineers < next_space.engineers:
            return f"the next construction space needs {counted(next_space.engineers, 'engineer')}; you have {company.engineers}"
        if company.credits < next_space.extra_credits:
            return f"the next construction space costs {counted(next_space.extra_credits, 'credit')}; you have {company.credits}"
        return "you cannot pay for any structure on any free space with the tiles in your supply"
    if verb == "bank":
        return "you have no engineers left"
    try:
        space = game.content.space(verb)
    except KeyError:
        return f"there is no action space '{verb}'"
    name = space_name(space.id, game.content)
    if space not in spaces_in_play(game):
        if space.not_in_introductory_game and game.state.options.setup == "intro":
            return f"{name} is not used in the introductory game"
        return f"{name} needs {space.min_companies} companies; this game has {game.state.options.players}"
    if space.exclusive and game.state.spaces.get(space.id):
        who = game.state.spaces[space.id][0][0]
        return f"{name} is already taken this round (by {company_name(who)})"
    if company.engineers < space.engineers:
        return f"{name} needs {counted(space.engineers, 'engineer')}; you have {company.engineers}"
    cost = space.extra_credits + space.action_cost
    if company.credits < cost:
        return f"{name} costs {counted(cost, 'credit')}; you have {company.credits}"
    effect = space.effect
    if "produce" in effect:
        return "you have no dam with water connected by a conduit to a powerhouse of yours that would produce at least 1 energy"
    if "take_private_contracts" in effect:
        return "there are no private contracts to take"
    return "its action cannot be performed now"


def _explain_placement(game: Game, company_id: str, move: Structure) -> str:
    kind, space_id = move.kind, (move.space or "none").upper()
    try:
        game.map.space(space_id)
    except KeyError:
        return f"there is no space {space_id} on this map"
    state = game.state
    if kind == "base":
        if space_id not in game.map.dam_spaces:
            return f"{space_id} is not a dam space"
        if space_id in state.dams:
            return f"{space_id} already holds a dam"
        basin = game.map.dam_spaces[space_id].basin
        if any(
            game.map.dam_spaces[s].basin == basin and d.owner == company_id
            for s, d in state.dams.items()
        ):
            return f"you already have a Base in basin {basin}"
    elif kind == "elevation":
        dam = state.dams.get(space_id)
        if dam is None or dam.owner != company_id:
            return f"an Elevation goes on one of your own dams; {space_id} is not yours"
        if dam.level >= 3:
            return f"the dam on {space_id} is already level 3"
    elif kind == "conduit":
        if space_id not in game.map.conduit_spaces:
            return f"{space_id} is not a conduit space"
        if space_id in state.conduits:
            return f"{space_id} already holds a conduit"
    elif kind == "powerhouse":
        if space_id not in game.map.powerhouse_spaces:
            return f"{space_id} is not a powerhouse space"
        if space_id in state.powerhouses:
            return f"{space_id} already holds a powerhouse"
        basin = game.map.powerhouse_spaces[space_id].basin
        if any(
            game.map.powerhouse_spaces[s].basin == basin and o == company_id
            for s, o in state.powerhouses.items()
        ):
            return f"you already have a Powerhouse in basin {basin}"
    company = game.company(company_id)
    if company.placed.get(kind, 0) >= game.content.common.pieces.get(kind, 0):
        return f"you have no {kind} pieces left"
    return (
        f"you cannot pay for a {kind} on {space_id} "
        f"(you have {machinery_text(company.excavators, company.mixers, company.credits)}) "
        "or have no technology tile for it"
    )


def _explain_production(game: Game, company_id: str, move: Produce) -> str:
    if move.dam is None:
        return "write it as 'produce <dam> <conduit> <drops>'"
    dam_id, conduit_id, drops = move.dam.upper(), move.conduit.upper(), move.drops
    dam = game.state.dams.get(dam_id)
    if dam is None:
        return f"there is no dam on {dam_id}"
    if dam.owner not in (company_id, "neutral"):
        return f"the dam on {dam_id} belongs to {company_name(dam.owner)}; use your own or a neutral dam"
    if dam.water < drops:
        return f"the dam on {dam_id} holds {counted(dam.water, 'drop')}, not {drops}"
    if conduit_id not in game.state.conduits:
        return f"there is no conduit built on {conduit_id}"
    conduit = game.map.conduit_spaces[conduit_id]
    if conduit.from_basin != game.map.dam_spaces[dam_id].basin:
        return f"conduit {conduit_id} does not start in the basin of {dam_id}"
    if not any(
        game.state.powerhouses.get(p) == company_id for p in conduit.connects_powerhouse_spaces
    ):
        return f"you have no powerhouse at the end of {conduit_id} (basin {conduit.to_basin})"
    return "that production is not possible (energy below 1, or you cannot pay the conduit's owner)"
