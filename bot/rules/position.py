"""Positions: a human-readable TOML format that states a mid-game position (like chess's FEN).

Scenario tests are written in it, and a position can be loaded, checked, and run one action
or one phase from. Everything not stated takes the value of a fresh introductory game set up
with the stated seed (so a short position still has piles, tiles and contracts to draw).

    [game]
    players = 3                 # 2..4
    setup = "intro"             # "intro" or "full"
    map = "base"
    seed = 1
    round = 2                   # 1..5
    phase = "actions"           # income | actions | water_flow | scoring | end_of_round | end
    turn_order = ["usa", "italy", "france"]   # companies in play, first to act first
    current = "usa"             # actions phase: whose turn it is (default: first in order)
    run = "phase"               # "phase": run only this phase; "on" (default): keep going
    bonus_tiles = ["bases", "conduits", "powerhouses", "elevations", "contracts"]
    objective = "basins_with_one"
    national_contracts = [102, 104]
    headstream_tiles = { HA = 1, HB = 2, HC = 3, HD = 4 }
    headstream_water = { HA = 2 }

    [contracts]                 # the face-up private offer (and, optionally, the piles)
    green = [200, 201]
    green_pile = [202, 203]     # top of the pile first

    [company.usa]               # every field optional; defaults as at setup
    officer = "wilhelm_adler"
    credits = 6
    excavators = 6
    mixers = 4
    engineers = 12              # in the supply
    vp = 10
    energy = 0                  # produced this round
    tiles = ["basic_base", "basic_elevation", "basic_conduit", "basic_powerhouse", "basic_wild"]
    contracts = [1]             # face up
    fulfilled = []
    construction_spaces_used = 0
    wheel_open = 0
    wheel = [{ segment = 1, tiles = ["basic_base"], excavators = 4 }]  # segment index 0..5

    [map]                       # structures on the map; neutral dams replace the seed's
    D5U = { owner = "usa", level = 2, water = 1 }
    D1L = { owner = "neutral", level = 1, water = 1 }
    C1L = "usa"
    P8_0 = "usa"

    [spaces]                    # engineers on management spaces this round
    turbine_plus2_left = [["italy", 2]]

    [<expansion>]               # e.g. [leeghwater]: the expansion's own table (its docstring)

Structure counts on the company boards are derived from the map. `check_position` refuses a
position that breaks a rule of the game (two bases of one company in a basin, a level-4 dam,
more water than a dam holds, more pieces than a company owns, unknown ids...).
"""

from __future__ import annotations

import tomllib
from typing import Any

from bot.rules.construction import pieces_by_location
from bot.rules.content import Content, load_content
from bot.rules.engine import Game
from bot.rules.errors import PositionError
from bot.rules.setup import new_game
from bot.rules.state import NEUTRAL, STRUCTURE_KINDS, Dam, GameOptions, WheelSegment

PHASE_TASKS = {
    "income": "round_start",
    "water_flow": "water_flow",
    "scoring": "scoring",
    "end_of_round": "end_of_round",
    "end": "end_game",
}


def load_position(text: str, content: Content | None = None) -> Game:
    """Parse, check and set up a position; the game is advanced to its first decision."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PositionError(f"the position is not valid TOML: {error}") from error
    return position_from_dict(data, content)


def position_from_dict(data: dict[str, Any], content: Content | None = None) -> Game:
    """Build a game from parsed position data."""
    content = content or load_content()
    meta = dict(data.get("game", {}))
    order = list(meta.get("turn_order", []))
    players = int(meta.get("players", len(order) or 2))
    options = GameOptions(
        players=players,
        setup=str(meta.get("setup", "intro")),
        map=str(meta.get("map", "base")),
        expansions=tuple(meta.get("expansions", ())),
        seed=int(meta.get("seed", 0)),
    )
    game = new_game(options, content)
    state = game.state
    state.stack.clear()
    state.decisions = 0
    if order:
        _set_companies(game, order, data.get("company", {}))
    else:
        for company_id, fields in data.get("company", {}).items():
            if company_id not in state.companies:
                raise PositionError(
                    f"[company.{company_id}] is not in this game ({', '.join(state.seats)})"
                )
            _apply_company_fields(game, company_id, fields)
    for key in ("round",):
        if key in meta:
            state.round = int(meta[key])
    for key, attr in (
        ("bonus_tiles", "bonus_tiles"),
        ("national_contracts", "national_offer"),
    ):
        if key in meta:
            setattr(state, attr, list(meta[key]))
    if "objective" in meta:
        state.objective = str(meta["objective"])
    if "headstream_tiles" in meta:
        state.headstream_tiles = {k: int(v) for k, v in meta["headstream_tiles"].items()}
    if "headstream_water" in meta:
        state.headstream_water = dict.fromkeys(game.map.headstreams, 0)
        state.headstream_water.update({k: int(v) for k, v in meta["headstream_water"].items()})
    for level in ("green", "yellow", "red"):
        section = data.get("contracts", {})
        if level in section:
            state.private_offer[level] = list(section[level])
        if f"{level}_pile" in section:
            state.private_piles[level] = list(section[f"{level}_pile"])
    if "map" in data:
        _set_map(game, data["map"])
    for space_id, placements in data.get("spaces", {}).items():
        state.spaces[space_id] = [[str(c), int(n)] for c, n in placements]
    for company_id in state.seats:
        counts = dict.fromkeys(STRUCTURE_KINDS, 0)
        for kind, _basin, _space in pieces_by_location(game, company_id):
            counts[kind] += 1
        state.companies[company_id].placed.update(counts)
    check_position(game)
    for expansion in game.expansions:
        expansion.load_position(game, data.get(expansion.name, {}))
    for name in set(data) - {"game", "contracts", "company", "map", "spaces"}:
        if name not in state.options.expansions:
            raise PositionError(f"[{name}] is not a section of a position of this game")
    phase = str(meta.get("phase", "actions"))
    stop = meta.get("run", "on") == "phase"
    if phase == "actions":
        state.phase = "actions"
        current = meta.get("current") or next(
            (c for c in state.turn_order if state.companies[c].engineers > 0), None
        )
        if current is None:
            state.stack.append({"kind": "water_flow", "stop": stop})
        else:
            state.current = current
            state.stack.append({"kind": "turn", "player": current})
    elif phase in PHASE_TASKS:
        state.phase = phase
        state.stack.append({"kind": PHASE_TASKS[phase], "stop": stop})
    else:
        raise PositionError(f"unknown phase {phase!r}; phases: actions, {', '.join(PHASE_TASKS)}")
    game.advance()
    return game


def _set_companies(game: Game, order: list[str], fields_by_company: dict[str, Any]) -> None:
    """Replace the dealt companies with the ones the position names, in its turn order."""
    state = game.state
    content = game.content
    if len(order) != state.options.players:
        raise PositionError(
            f"turn_order names {len(order)} companies but players = {state.options.players}"
        )
    matchups = {m.company: m for m in content.introductory_matchups}
    from bot.rules.state import Company

    state.companies.clear()
    state.seats.clear()
    for seat, company_id in enumerate(order):
        if company_id not in content.companies:
            raise PositionError(f"unknown company {company_id!r} in turn_order")
        fields = fields_by_company.get(company_id, {})
        matchup = matchups.get(company_id)
        officer = fields.get("officer") or (matchup.officer if matchup else None)
        if officer not in content.officers:
            raise PositionError(f"[company.{company_id}] needs a known officer, not {officer!r}")
        start = content.officers[officer].starting_resources
        tiles = ["basic_base", "basic_elevation", "basic_conduit", "basic_powerhouse"]
        if state.options.setup == "intro":
            tiles.append("basic_wild")
        company = Company(
            id=company_id,
            seat=seat,
            officer=officer,
            credits=start.get("credits", 6),
            excavators=start.get("excavators", 6),
            mixers=start.get("mixers", 4),
            engineers=start.get("engineers", 12),
            vp=content.common.starting_vp,
            tiles=tiles + list(content.officers[officer].special_tiles),
            contracts=[matchup.starting_contract] if matchup else [],
        )
        state.companies[company_id] = company
        state.seats.append(company_id)
        for expansion in game.expansions:
            expansion.new_company(game, company)
        _apply_company_fields(game, company_id, fields)
    for company_id in fields_by_company:
        if company_id not in order:
            raise PositionError(f"[company.{company_id}] is not in turn_order")
    state.turn_order = list(order)


_INT_FIELDS = (
    "credits",
    "excavators",
    "mixers",
    "engineers",
    "vp",
    "energy",
    "construction_spaces_used",
    "wheel_open",
)


def _apply_company_fields(game: Game, company_id: str, fields: dict[str, Any]) -> None:
    company = game.state.companies[company_id]
    for key, value in fields.items():
        if key in _INT_FIELDS:
            setattr(company, key, int(value))
        elif key in ("tiles", "contracts", "fulfilled"):
            setattr(company, key, list(value))
        elif key == "wheel":
            company.wheel = [WheelSegment() for _ in range(game.content.costs.wheel_segments)]
            for segment in value:
                index = int(segment["segment"])
                company.wheel[index] = WheelSegment(
                    tiles=list(segment.get("tiles", [])),
                    excavators=int(segment.get("excavators", 0)),
                    mixers=int(segment.get("mixers", 0)),
                )
        elif key == "officer":
            company.officer = str(value)
        elif key == "extra":
            company.extra.update(value)
        else:
            raise PositionError(f"[company.{company_id}] has an unknown field {key!r}")


def _set_map(game: Game, section: dict[str, Any]) -> None:
    state = game.state
    if any(isinstance(v, dict) and v.get("owner") == NEUTRAL for v in section.values()):
        state.dams = {k: d for k, d in state.dams.items() if d.owner != NEUTRAL}
    for space_id, value in section.items():
        if space_id in game.map.dam_spaces:
            if not isinstance(value, dict):
                raise PositionError(
                    f"[map] {space_id} needs {{ owner = ..., level = ..., water = ... }}"
                )
            state.dams[space_id] = Dam(
                owner=str(value["owner"]),
                level=int(value.get("level", 1)),
                water=int(value.get("water", 0)),
            )
        elif space_id in game.map.conduit_spaces:
            state.conduits[space_id] = str(value)
        elif space_id in game.map.powerhouse_spaces:
            state.powerhouses[space_id] = str(value)
        else:
            raise PositionError(f"[map] {space_id} is not a space of the {game.map.id} map")


def check_position(game: Game) -> None:
    """Raise PositionError when the position breaks a rule of the game."""
    state = game.state
    content = game.content
    owners = set(state.seats) | {NEUTRAL}
    for space_id, dam in state.dams.items():
        if dam.owner not in owners:
            raise PositionError(f"dam {space_id} belongs to {dam.owner!r}, who is not in the game")
        if not 1 <= dam.level <= 3:
            raise PositionError(f"dam {space_id} has level {dam.level}; levels are 1 to 3")
        if not 0 <= dam.water <= game.dam_capacity(space_id):
            raise PositionError(
                f"dam {space_id} holds {dam.water} drops but its capacity is {game.dam_capacity(space_id)}"
            )
    for table, name in ((state.conduits, "conduit"), (state.powerhouses, "powerhouse")):
        for space_id, owner in table.items():
            if owner not in state.seats:
                raise PositionError(
                    f"{name} {space_id} belongs to {owner!r}, who is not in the game"
                )
    for company_id in state.seats:
        company = state.companies[company_id]
        seen: dict[tuple[str, int], str] = {}
        for kind, basin, space in pieces_by_location(game, company_id):
            if kind in ("base", "powerhouse"):
                if (kind, basin) in seen:
                    raise PositionError(
                        f"{company_id} has two {kind}s in basin {basin} ({seen[kind, basin]}, {space})"
                    )
                seen[kind, basin] = space
        for kind in STRUCTURE_KINDS:
            if company.placed[kind] > content.common.pieces[kind]:
                raise PositionError(
                    f"{company_id} has {company.placed[kind]} {kind}s; a company owns {content.common.pieces[kind]}"
                )
        for tile in company.tiles + company.wheel_tiles():
            if tile not in content.tiles:
                raise PositionError(f"{company_id} has an unknown technology tile {tile!r}")
        for contract in company.contracts + company.fulfilled:
            if contract not in content.contracts:
                raise PositionError(f"{company_id} has an unknown contract {contract!r}")
        for key in ("credits", "excavators", "mixers", "engineers", "vp", "energy"):
            if getattr(company, key) < 0:
                raise PositionError(f"{company_id} has negative {key}")
    for space_id, placements in state.spaces.items():
        try:
            content.space(space_id)
        except KeyError:
            raise PositionError(f"[spaces] {space_id} is not a management space") from None
        for company_id, _count in placements:
            if company_id not in state.seats:
                raise PositionError(f"[spaces] {space_id}: {company_id!r} is not in the game")
    for tile in state.bonus_tiles:
        if tile not in content.bonus_tiles:
            raise PositionError(f"unknown bonus tile {tile!r}")
    if state.objective not in content.objective_tiles:
        raise PositionError(f"unknown objective tile {state.objective!r}")
    if not 1 <= state.round <= content.costs.rounds:
        raise PositionError(f"round {state.round} is not between 1 and {content.costs.rounds}")
