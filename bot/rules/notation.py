"""The text notation: its grammar, and explanations for well-formed but illegal moves.

Grammar (one verb, then its arguments; ids as in the data files, case-insensitive):

| notation | meaning |
|---|---|
| `build` | take the next construction space of your company board |
| `<space id>` e.g. `turbine_plus2_left` | place engineers on that management space |
| `bank`, then `engineers 3` | put engineers on the Bank |
| `base D5U`, `elevation D5U`, `conduit C1L`, `powerhouse P5_0` | what to build and where (`… none` declines a free one) |
| `tile basic_base` | the technology tile to build with |
| `tile anton_tile adv_2_base` | Anton Krylov's tile, imitating a tile on his wheel |
| `pay 4e`, `pay 2m`, `pay 1e 9c` | the payment: excavators, mixers, credits instead of machinery |
| `produce D1L C1L 2` | two drops from dam D1L through conduit C1L (`produce none` declines) |
| `contract 201` / `contract none` | fulfil a contract, or none |
| `take 201`, `discard 201` | take a face-up private contract; discard one over the limit |
| `drops HA HB` / `drops none` | water drops placed on headstreams, in order |
| `machines 1e0m` | machinery of your choice: 1 excavator, 0 mixers |
| `confirm` | end your turn |
| `pick usa`, `start 3` | full-game draft: a company/officer pair, then a starting contract |
| `patent_1` … `patent_3`; `patent 2` | Patent Office spaces; a free tile's slot (a reward) |
| `build_free`, `pass` | build with an engineer-free tile; stop acting with no engineers left |
| `mahiri`, then `copy viktor_fiesler` | Mahiri's action space: copy an officer, then act |

Expansions add their own verbs with `register_verb` (listed in the docstrings of
`bot.rules.expansions.leeghwater`, `bot.rules.expansions.nile` and
`bot.rules.expansions.colorado`).

Notation is a stored format: once released, the parser keeps accepting every form above.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.rules.errors import MalformedNotation

if TYPE_CHECKING:
    from bot.rules.engine import Game
    from bot.rules.options import Decision

_ID = r"[A-Za-z0-9_]+"
VERBS: dict[str, re.Pattern[str]] = {}


def register_verb(verb: str, arguments: str) -> None:
    """Add a verb to the grammar; `arguments` is a regex for the text after the verb."""
    VERBS[verb] = re.compile(arguments, re.IGNORECASE)


for _verb, _args in {
    "build": r"",
    "bank": r"",
    "confirm": r"",
    "engineers": r"\d{1,2}",
    "base": rf"{_ID}",
    "elevation": rf"{_ID}",
    "conduit": rf"{_ID}",
    "powerhouse": rf"{_ID}",
    "tile": rf"{_ID}( {_ID})?",
    "pay": r"(\d+[emc])( \d+[emc]){0,2}|0",
    "produce": rf"{_ID} {_ID} \d{{1,2}}|none",
    "contract": r"\d+|none",
    "take": r"\d+",
    "discard": r"\d+",
    "drops": rf"{_ID}( {_ID})*|none",
    "machines": r"\d+e\d+m",
}.items():
    register_verb(_verb, _args)

_SPACE_ID = re.compile(r"[a-z][a-z0-9_]*$")


def check_syntax(text: str) -> None:
    """Raise MalformedNotation unless `text` is a notation of the grammar."""
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    pattern = VERBS.get(verb)
    if pattern is None:
        if not rest and _SPACE_ID.match(verb):
            return  # an action space id (management board or an expansion's)
        known = ", ".join(sorted(VERBS))
        raise MalformedNotation(
            f"'{text}' is not a move: it should start with an action space id or one of: {known}"
        )
    if not pattern.fullmatch(rest):
        example = {
            "pay": "pay 4e",
            "produce": "produce D1L C1L 2",
            "drops": "drops HA HB",
            "machines": "machines 1e1m",
            "engineers": "engineers 3",
        }.get(verb, f"{verb} …")
        raise MalformedNotation(f"'{text}' is malformed: '{verb}' is written like '{example}'")


def explain_illegal(game: Game, decision: Decision, text: str) -> str:
    """Why a well-formed notation is not legal now, as specifically as the engine can say."""
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    verbs = {option.notation.split(" ")[0].lower() for option in decision.options}
    intro = f"'{text}' is not legal now"
    from bot.rules.actions import TURN_ACTION_REASONS

    turn_verb = verb in ("build", "bank") or verb in TURN_ACTION_REASONS or verb not in VERBS
    if decision.kind == "turn" and turn_verb:
        reason = _explain_turn(game, decision.player, verb)
        if reason:
            return f"{intro}: {reason}"
    elif verb in ("base", "elevation", "conduit", "powerhouse") and verb in verbs:
        return f"{intro}: {_explain_placement(game, decision.player, verb, rest)}"
    elif verb == "produce" and "produce" in verbs:
        return f"{intro}: {_explain_production(game, decision.player, rest)}"
    elif verb == "contract" and "contract" in verbs:
        return f"{intro}: contract {rest} is not one you can fulfil with this energy"
    if verb not in verbs:
        sample = ", ".join(option.notation for option in decision.options[:4])
        more = "…" if len(decision.options) > 4 else ""
        return f"{intro}: the question is “{decision.prompt}”; answer with e.g. {sample}{more}"
    sample = ", ".join(option.notation for option in decision.options[:6])
    return f"{intro}: it is not among the {len(decision.options)} legal options ({sample}…)"


def _explain_turn(game: Game, company_id: str, verb: str) -> str:
    from bot.rules.actions import TURN_ACTION_REASONS, spaces_in_play

    company = game.company(company_id)
    if verb in TURN_ACTION_REASONS:
        return TURN_ACTION_REASONS[verb](game, company_id)
    if verb == "build":
        spaces = game.content.common.construction_spaces
        used = company.construction_spaces_used
        if used >= len(spaces):
            return "all four construction spaces of your board are used this round"
        space = spaces[used]
        if company.engineers < space.engineers:
            return f"the next construction space needs {space.engineers} engineers; you have {company.engineers}"
        if company.credits < space.extra_credits:
            return f"the next construction space costs {space.extra_credits} credits; you have {company.credits}"
        return "you cannot pay for any structure on any free space with the tiles in your supply"
    if verb == "bank":
        return "you have no engineers left"
    try:
        space = game.content.space(verb)
    except KeyError:
        return f"there is no action space '{verb}'"
    if space not in spaces_in_play(game):
        if space.not_in_introductory_game and game.state.options.setup == "intro":
            return f"{verb} is not used in the introductory game"
        return f"{verb} needs {space.min_companies} companies; this game has {game.state.options.players}"
    if space.exclusive and game.state.spaces.get(space.id):
        who = game.state.spaces[space.id][0][0]
        return f"{verb} is already taken this round (by {who})"
    if company.engineers < space.engineers:
        return f"{verb} needs {space.engineers} engineers; you have {company.engineers}"
    cost = space.extra_credits + space.action_cost
    if company.credits < cost:
        return f"{verb} costs {cost} credits; you have {company.credits}"
    effect = space.effect
    if "produce" in effect:
        return "you have no dam with water connected by a conduit to a powerhouse of yours that would produce at least 1 energy"
    if "take_private_contracts" in effect:
        return "there are no private contracts to take"
    return "its action cannot be performed now"


def _explain_placement(game: Game, company_id: str, kind: str, space_id: str) -> str:
    space_id = space_id.upper()
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
        f"(you have {company.excavators} excavators, {company.mixers} mixers, {company.credits} credits) "
        "or have no technology tile for it"
    )


def _explain_production(game: Game, company_id: str, rest: str) -> str:
    parts = rest.split(" ")
    if len(parts) != 3:
        return "write it as 'produce <dam> <conduit> <drops>'"
    dam_id, conduit_id, drops = parts[0].upper(), parts[1].upper(), int(parts[2])
    dam = game.state.dams.get(dam_id)
    if dam is None:
        return f"there is no dam on {dam_id}"
    if dam.owner not in (company_id, "neutral"):
        return f"the dam on {dam_id} belongs to {dam.owner}; use your own or a neutral dam"
    if dam.water < drops:
        return f"the dam on {dam_id} holds {dam.water} drop(s), not {drops}"
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
