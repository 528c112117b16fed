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

    [<expansion>]               # the expansion's own table, named by it (its docstring)

Automa companies (bot/rules/automa) take the last seats:

    [game]
    automa = ["medium", "hard"] # levels of the automa seats (easy, medium, hard, expert)

    [automa]                    # optional: by default the decks are dealt from the seed
    rng = 12345                 # the generator that reshuffles a discard pile
    [automa.france]
    deck = [7, 3, 12]           # top first; its first card's actions come next turn but one
    discard = [1, 2]
    flipped = 5                 # the card whose criteria count now (0: none yet)

An exported position (`export_position`, `dump_position`) states everything, so it also has:

    [game]
    seats = ["italy", "usa", "france"]        # companies by seat (default: the turn order)
    spare_officers = ["viktor_fiesler"]       # full game: Mahiri Sekibo's spare officers

    [company.usa]
    passed = true                # passed on the engineer-free tile action this round
    copied_officer = "..."       # Mahiri Sekibo's copy during her turn
    extra = { ... }              # data an expansion keeps without a table of its own

    [extra]                      # game data an expansion keeps without a table of its own

    [patents]                    # full game: the Patent Office
    offer = ["adv_1_base", "", "adv_2_conduit"]      # by slot ("" = taken this round)
    piles = { I = ["adv_1_elevation"], II = [...], III = [...] }   # top first

    [[history]]                  # per finished round: energy produced, VP after scoring
    round = 1
    energy = { usa = 6, italy = 3 }
    vp = { usa = 14, italy = 11 }

    [draft]                      # full game, while the companies are drafted (export only)
    [result]                     # a finished game: ranking and objective counts (export only)

Structure counts on the company boards are derived from the map. `check_position` refuses a
position that breaks a rule of the game (two bases of one company in a basin, a level-4 dam,
more water than a dam holds, more pieces than a company owns, unknown ids...).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from bot.rules.actions import turn_task
from bot.rules.automa.deck import card_ids, deck_of
from bot.rules.automa.seats import level_name, make_automa, parse_level, seat_level
from bot.rules.catalogue import CATALOGUE, Catalogue
from bot.rules.construction import pieces_by_location
from bot.rules.content import Content
from bot.rules.engine import Game
from bot.rules.errors import PositionError
from bot.rules.officers import MAHIRI_SPACES
from bot.rules.setup import new_game
from bot.rules.state import NEUTRAL, STRUCTURE_KINDS, Company, Dam, GameOptions, WheelSegment

PHASE_TASKS = {
    "income": "round_start",
    "water_flow": "water_flow",
    "scoring": "scoring",
    "end_of_round": "end_of_round",
    "end": "end_game",
}


def load_position(
    text: str, content: Content | None = None, catalogue: Catalogue | None = None
) -> Game:
    """Parse, check and set up a position; the game is advanced to its first decision."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PositionError(f"the position is not valid TOML: {error}") from error
    return position_from_dict(data, content, catalogue)


def position_from_dict(
    data: dict[str, Any], content: Content | None = None, catalogue: Catalogue | None = None
) -> Game:
    """Build a game from parsed position data."""
    content = content or (catalogue or CATALOGUE).content()
    meta = dict(data.get("game", {}))
    order = list(meta.get("turn_order", []))
    players = int(meta.get("players", len(order) or 2))
    options = GameOptions(
        players=players,
        setup=str(meta.get("setup", "intro")),
        map=str(meta.get("map", "base")),
        expansions=tuple(meta.get("expansions", ())),
        seed=int(meta.get("seed", 0)),
        automa=_automa_levels(meta.get("automa", ())),
    )
    game = new_game(options, content, catalogue)
    state = game.state
    state.stack.clear()
    state.decisions = 0
    if "round" in meta:
        state.round = int(meta["round"])
    if "spare_officers" in meta:
        state.extra["spare_officers"] = [str(officer) for officer in meta["spare_officers"]]
    if order:
        seats = [str(c) for c in meta.get("seats", order)]
        if sorted(seats) != sorted(order):
            raise PositionError("seats and turn_order must name the same companies")
        _set_companies(game, seats, data.get("company", {}))
        state.turn_order = list(order)
    else:
        for company_id, fields in data.get("company", {}).items():
            if company_id not in state.companies:
                raise PositionError(
                    f"[company.{company_id}] is not in this game ({', '.join(state.seats)})"
                )
            _apply_company_fields(game, company_id, fields)
    for key, attr in (
        ("bonus_tiles", "bonus_tiles"),
        ("national_contracts", "national_offer"),
    ):
        if key in meta:
            setattr(state, attr, list(meta[key]))
    if "objective" in meta:
        state.objective = str(meta["objective"])
    if "headstream_tiles" in meta:
        known = {tile.id for tile in game.content.headstream_tiles}
        for headstream, tile in meta["headstream_tiles"].items():
            if tile not in known or headstream not in game.map.headstreams:
                raise PositionError(
                    f"headstream_tiles: {headstream} = {tile!r} is not a tile on a headstream"
                )
        state.headstream_tiles = dict(meta["headstream_tiles"])
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
    check_spaces(game)
    if "patents" in data:
        _set_patents(game, data["patents"])
    if "history" in data:
        state.history = [_history_row(row) for row in data["history"]]
    state.extra.update(data.get("extra", {}))
    if "automa" in data:
        _set_automa(game, data["automa"])
    sections = {"game", "contracts", "company", "map", "spaces", "patents", "history", "extra"}
    sections.add("automa")
    for name in set(data) - sections:
        if name in ("draft", "result"):
            raise PositionError(
                f"[{name}] is only exported: a position loads between the draft and the end"
            )
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
            state.stack.append(turn_task(game, current))
    elif phase in PHASE_TASKS:
        state.phase = phase
        state.stack.append({"kind": PHASE_TASKS[phase], "stop": stop})
    else:
        raise PositionError(f"unknown phase {phase!r}; phases: actions, {', '.join(PHASE_TASKS)}")
    game.advance()
    return game


def _set_companies(game: Game, order: list[str], fields_by_company: dict[str, Any]) -> None:
    """Replace the dealt companies with the ones the position names, seated in `order`."""
    state = game.state
    content = game.content
    if len(order) != state.options.players:
        raise PositionError(
            f"turn_order names {len(order)} companies but players = {state.options.players}"
        )
    matchups = {m.company: m for m in content.introductory_matchups}

    state.companies.clear()
    state.seats.clear()
    for seat, company_id in enumerate(order):
        if company_id not in content.companies:
            raise PositionError(f"unknown company {company_id!r} in turn_order")
        fields = fields_by_company.get(company_id, {})
        matchup = matchups.get(company_id)
        officer = fields.get("officer") or (matchup.officer if matchup else None)
        if officer is None or officer not in content.officers:
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
        level = seat_level(state.options, seat)
        if level is not None:
            make_automa(
                company,
                level,
                dict(content.common.starting_resources),
                list(content.officers[officer].special_tiles),
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


def _automa_levels(value: Any) -> tuple[int, ...]:
    """`[game] automa`: the automa seats' levels, by name or number."""
    try:
        return tuple(parse_level(level) for level in value)
    except (TypeError, ValueError) as error:
        raise PositionError(f"[game] automa: {error}") from error


def _set_automa(game: Game, section: dict[str, Any]) -> None:
    """The `[automa]` table: each automa's deck, discard pile and flipped card, and `rng`."""
    state = game.state
    if not state.options.automa:
        raise PositionError("[automa] needs automa seats: [game] automa = [levels]")
    cards = set(card_ids())
    for key, value in section.items():
        if key == "rng":
            state.extra["automa"]["rng"] = int(value)
            continue
        if key not in state.companies or game.automa_level(key) is None:
            raise PositionError(f"[automa.{key}] is not an automa company of this game")
        deck = deck_of(state, key)
        for pile in ("deck", "discard"):
            if pile in value:
                deck[pile] = [int(c) for c in value[pile]]
        if "flipped" in value:
            deck["flipped"] = int(value["flipped"]) or None
        held = [*deck["deck"], *deck["discard"]] + ([deck["flipped"]] if deck["flipped"] else [])
        if sorted(held) != sorted(cards):
            raise PositionError(
                f"[automa.{key}]: deck, discard and flipped must hold each of the "
                f"{len(cards)} cards once"
            )


def _export_automa(game: Game) -> dict[str, Any]:
    """The `[automa]` table of an exported position."""
    table = game.state.extra["automa"]
    out: dict[str, Any] = {"rng": int(table["rng"])}
    for company_id in game.state.seats:
        if game.automa_level(company_id) is not None:
            deck = deck_of(game.state, company_id)
            out[company_id] = {
                "deck": list(deck["deck"]),
                "discard": list(deck["discard"]),
                "flipped": deck["flipped"] or 0,
            }
    return out


def _set_patents(game: Game, section: dict[str, Any]) -> None:
    """The `[patents]` table: the Patent Office's face-up slots and piles."""
    state = game.state
    if not state.patent_offer:
        raise PositionError("[patents] needs the full setup (the Patent Office is in play)")
    unknown = set(section) - {"offer", "piles"}
    if unknown:
        raise PositionError(f"[patents] has unknown keys: {', '.join(sorted(unknown))}")
    if "offer" in section:
        offer = [str(tile) or None for tile in section["offer"]]
        if len(offer) != len(state.patent_offer):
            raise PositionError(f"[patents] offer lists the {len(state.patent_offer)} slots")
        state.patent_offer = offer
    if "piles" in section:
        piles = section["piles"]
        unknown = set(piles) - set(state.patent_piles)
        if unknown:
            raise PositionError(f"[patents] piles: unknown piles {', '.join(sorted(unknown))}")
        state.patent_piles = {
            pile: [str(t) for t in piles.get(pile, [])] for pile in state.patent_piles
        }
    for tile in [*state.patent_offer, *(t for pile in state.patent_piles.values() for t in pile)]:
        if tile is not None and tile not in game.content.tiles:
            raise PositionError(f"[patents] unknown technology tile {tile!r}")


def _history_row(row: dict[str, Any]) -> dict[str, Any]:
    """One `[[history]]` row: a finished round's energy and VP by company."""
    try:
        return {
            "round": int(row["round"]),
            "energy": {str(c): int(n) for c, n in row["energy"].items()},
            "vp": {str(c): int(n) for c, n in row["vp"].items()},
        }
    except (KeyError, AttributeError, TypeError, ValueError):
        raise PositionError(
            f"[[history]] rows need round, energy = {{company = n}} and vp = {{company = n}}, not {row!r}"
        ) from None


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
        elif key == "passed":
            # Stored as the round of the pass: a pass of an earlier round has lapsed.
            if value:
                company.extra["passed_round"] = game.state.round
            else:
                company.extra.pop("passed_round", None)
        elif key == "copied_officer":
            company.extra["copied_officer"] = str(value)
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
    game.keep_map_order()


def company_tables(
    game: Game, table: str, section: Mapping[str, Any], fields: Iterable[str]
) -> Iterator[tuple[Company, Mapping[str, Any]]]:
    """An expansion's `[<table>.company.<id>]` tables, checked: (company, its fields)."""
    allowed = set(fields)
    for company_id, values in section.get("company", {}).items():
        if company_id not in game.state.companies:
            raise PositionError(f"[{table}.company.{company_id}] is not in this game")
        unknown = set(values) - allowed
        if unknown:
            raise PositionError(
                f"[{table}.company.{company_id}] has unknown keys: {', '.join(sorted(unknown))}"
            )
        yield game.company(company_id), values


def action_space_ids(game: Game) -> set[str]:
    """Every space engineers may stand on: the management board's, Mahiri Sekibo's, and the
    expansions' own."""
    ids = {space.id for space in game.content.management_spaces}
    ids.update(space for space, _credits in MAHIRI_SPACES)
    for expansion in game.expansions:
        ids.update(expansion.action_spaces(game))
    return ids


def check_spaces(game: Game) -> None:
    """Raise PositionError when engineers stand on an unknown space or belong to nobody."""
    state = game.state
    known = action_space_ids(game)
    for space_id, placements in state.spaces.items():
        if space_id not in known:
            raise PositionError(f"[spaces] {space_id} is not an action space of this game")
        for company_id, _count in placements:
            if company_id not in state.seats:
                raise PositionError(f"[spaces] {space_id}: {company_id!r} is not in the game")


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
    for tile in state.bonus_tiles:
        if tile not in content.bonus_tiles:
            raise PositionError(f"unknown bonus tile {tile!r}")
    if state.objective not in content.objective_tiles:
        raise PositionError(f"unknown objective tile {state.objective!r}")
    if not 1 <= state.round <= content.costs.rounds:
        raise PositionError(f"round {state.round} is not between 1 and {content.costs.rounds}")


# -- export ---------------------------------------------------------------------------------

# `state.extra` keys of the base game (the draft and Mahiri's spares); expansions keep theirs
# under their own name.
_BASE_EXTRA = ("draft", "spare_officers", "automa")
# `company.extra` keys the base game exports as named fields.
_BASE_COMPANY_EXTRA = ("passed_round", "copied_officer")


def export_position(game: Game) -> dict[str, Any]:
    """State the game as a position: everything a player can see or that decides what follows.

    The export names facts, not how the state keeps them (a pass is `passed = true` this
    round; a taken slot is ""), and lists piles top first. At the start of a player's turn
    `position_from_dict` loads it back into a game that plays on identically; the golden games
    (tests/golden) hash it after every decision. The engine's internal task stack and counters
    are not part of it: the pending decisions say what is asked now.
    """
    state = game.state
    options = state.options
    meta: dict[str, Any] = {
        "players": options.players,
        "setup": options.setup,
        "map": options.map,
        "expansions": list(options.expansions),
        "seed": options.seed,
        "round": state.round,
        "phase": state.phase,
        "seats": list(state.seats),
        "turn_order": list(state.turn_order),
        "bonus_tiles": list(state.bonus_tiles),
        "objective": state.objective,
        "national_contracts": list(state.national_offer),
        "headstream_tiles": dict(state.headstream_tiles),
        "headstream_water": dict(state.headstream_water),
    }
    if options.automa:
        meta["automa"] = [level_name(level) for level in options.automa]
    if state.current is not None:
        meta["current"] = state.current
    if "spare_officers" in state.extra:
        meta["spare_officers"] = list(state.extra["spare_officers"])
    out: dict[str, Any] = {"game": meta, "contracts": {}}
    for level in sorted(set(state.private_offer) | set(state.private_piles)):
        out["contracts"][level] = list(state.private_offer.get(level, []))
        out["contracts"][f"{level}_pile"] = list(state.private_piles.get(level, []))
    tables = {expansion.name: expansion.export_position(game) for expansion in game.expansions}
    claimed = {key for expansion in game.expansions for key in expansion.company_extra}
    out["company"] = {
        company_id: _export_company(game, company, claimed)
        for company_id, company in state.companies.items()
    }
    out["map"] = _export_map(state)
    out["spaces"] = {
        space_id: [[str(owner), int(count)] for owner, count in placements]
        for space_id, placements in state.spaces.items()
        if placements
    }
    if state.patent_offer or state.patent_piles:
        out["patents"] = {
            "offer": [tile or "" for tile in state.patent_offer],
            "piles": {pile: list(tiles) for pile, tiles in state.patent_piles.items()},
        }
    if state.history:
        out["history"] = [_history_row(row) for row in state.history]
    if state.phase == "draft" and "draft" in state.extra:
        draft = state.extra["draft"]
        out["draft"] = {
            "pairs": [list(pair) for pair in draft["pairs"]],
            "starting": list(draft["starting"]),
            "order": list(draft["order"]),
            "picks": [list(pick) for pick in draft["picks"]],
        }
    if state.finished:
        out["result"] = state.result
    if options.automa and "automa" in state.extra:
        out["automa"] = _export_automa(game)
    for name, table in tables.items():
        if table:
            out[name] = table
    names = {expansion.name for expansion in game.expansions}
    rest = {k: v for k, v in state.extra.items() if k not in _BASE_EXTRA and k not in names}
    if rest:
        out["extra"] = rest
    return out


def _export_company(game: Game, company: Company, claimed: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "officer": company.officer,
        **{key: int(getattr(company, key)) for key in _INT_FIELDS},
        "tiles": list(company.tiles),
        "contracts": list(company.contracts),
        "fulfilled": list(company.fulfilled),
        "wheel": [
            {
                "segment": index,
                "tiles": list(segment.tiles),
                "excavators": segment.excavators,
                "mixers": segment.mixers,
            }
            for index, segment in enumerate(company.wheel)
            if not segment.is_empty()
        ],
    }
    if company.extra.get("passed_round") == game.state.round:
        out["passed"] = True
    if company.extra.get("copied_officer"):
        out["copied_officer"] = company.extra["copied_officer"]
    rest = {
        key: value
        for key, value in company.extra.items()
        if key not in _BASE_COMPANY_EXTRA and key not in claimed
    }
    if rest:
        out["extra"] = rest
    return out


def _export_map(state: Any) -> dict[str, Any]:
    # In the order built (neutral dams first): options over built structures follow it, and
    # loading the position keeps the table's order. Hashes sort keys, so they do not see it.
    out: dict[str, Any] = {
        space_id: {"owner": dam.owner, "level": dam.level, "water": dam.water}
        for space_id, dam in state.dams.items()
    }
    out.update(state.conduits)
    out.update(state.powerhouses)
    return out


def dump_position(game: Game) -> str:
    """The exported position as TOML text (for bug reports and scenario tests)."""
    return toml_text(export_position(game))


def toml_text(data: dict[str, Any]) -> str:
    """Write a position dict as TOML: a table per section, `[company.<id>]` per company."""
    lines: list[str] = []
    for name, value in data.items():
        if isinstance(value, list):
            for row in value:
                lines += ["", f"[[{_toml_key(name)}]]"]
                lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in row.items()]
        elif name == "company":
            for company_id, fields in value.items():
                _toml_table(lines, [name, company_id], fields)
        else:
            _toml_table(lines, [name], value)
    return "\n".join(lines).lstrip("\n") + "\n"


def _toml_table(lines: list[str], path: list[str], table: dict[str, Any]) -> None:
    # An expansion's `company` table (a table per company) gets a header per company.
    inline = {k: v for k, v in table.items() if not _is_table_of_tables(k, v)}
    lines += ["", "[" + ".".join(_toml_key(p) for p in path) + "]"]
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in inline.items()]
    for key, value in table.items():
        if key not in inline:
            for sub, fields in value.items():
                _toml_table(lines, [*path, key, sub], fields)


def _is_table_of_tables(key: str, value: Any) -> bool:
    return (
        key == "company"
        and isinstance(value, dict)
        and all(isinstance(v, dict) for v in value.values())
    )


def _toml_key(key: Any) -> str:
    text = str(key)
    if text and all(c.isascii() and (c.isalnum() or c in "_-") for c in text):
        return text
    return _toml_value(text)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
        )
    if value is None:
        raise ValueError('TOML has no null: a position states an empty slot as ""')
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
