"""Where an automa builds: the placement criteria of its flipped card, then the final tie-break.

`choose_space(game, company, structure, candidates, card)` narrows the legal spaces:

1. Systems first (not for Elevations): if some candidates would complete a dam → conduit →
   automa powerhouse system, only those stay.
2. Powerhouses: one space per basin, the non-red one first (in the map's order).
3. The card's three criteria for the structure (Elevations use the Base list), in order, while
   more than one space is left; a criterion that would leave nothing is ignored.
4. The tie-break: the lowest code at or after the card's start value, cyclically (codes below
   the start value count 30 more). Codes: a dam or powerhouse space is its basin's number, a
   conduit `CnL` is 2n and `CnR` 2n+1. Two dam spaces of one basin left at the end: the lower
   (non-red) one.

Readings where the facts leave a choice (tested in tests/rules/automa/test_criteria.py):

- "a conduit" means a conduit space, built or not, by anyone; "a built conduit" means built.
  So `base_conduit_to_own_powerhouse` keeps basins with a conduit space leading to an automa
  powerhouse, whether that conduit stands yet or not.
- A system is completed with the automa's own or a neutral dam (it produces with both), a
  conduit of any owner and its own powerhouse.
- "Own conduit wins ties" (strongest built conduit): among the spaces whose strongest built
  conduit has the same, highest production, those where such a conduit is the automa's stay.
- `base_most_water_passing`: the drops now on the headstreams flow in a simulation (dams
  catching them as they would); a space scores the drops entering its basin. The highest
  score stays; a tie keeps the spaces on the path of the headstream that comes first in the
  card's headstream order. With no water anywhere every space scores 0 and that order decides.
- Owners of dams and powerhouses (`*_owner_*` criteria): tiers automa, neutral (a neutral dam;
  for powerhouses, a free powerhouse space), opponent, then basins with no dam at all; the
  reverse order puts opponents first and the automa third, empty basins still last.
- `conduit_second_highest_production`: the second-highest distinct production among the
  candidates; with only one production value it leaves nothing and is ignored.
- `powerhouse_feeds_own_dam_first`: water released at a powerhouse passes its own basin's dams
  first (RULINGS 1); spaces whose water meets an automa dam stay, else those whose water meets
  no opponent dam. `powerhouse_not_feeding_opponent_first` asks the second question first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.rules.engine import Game
from bot.rules.state import NEUTRAL
from bot.rules.water import flow_drop

Criterion = Callable[[Game, str, list[str], dict[str, Any]], list[str]]
CODE_WRAP = 30

_CONDUIT_ID = re.compile(r"^C(\d+)([LR])$")


# -- the map, as the criteria read it ----------------------------------------------------------


def basin_of(game: Game, space: str) -> int:
    """The basin of a dam or powerhouse space, or a conduit's source basin."""
    return game.map.basin_of(space)


def dam_owners(game: Game, basin: int) -> set[str]:
    """Owners of the dams built in a basin (company ids, or 'neutral')."""
    return {
        game.state.dams[space].owner
        for space in game.map.basins[basin].dam_spaces
        if space in game.state.dams
    }


def owner_tier(owners: set[str], company: str, *, reverse: bool) -> int:
    """0 best: the automa's, neutral, an opponent's; 3 for nobody's (reverse: opponent first)."""
    opponent = any(owner not in (company, NEUTRAL) for owner in owners)
    order = (
        (opponent, NEUTRAL in owners, company in owners)
        if reverse
        else (company in owners, NEUTRAL in owners, opponent)
    )
    return next((tier for tier, present in enumerate(order) if present), 3)


def usable_dam_in(game: Game, company: str, basin: int) -> bool:
    """True when the basin holds a dam the automa may produce with (its own or neutral)."""
    return bool(dam_owners(game, basin) & {company, NEUTRAL})


def built_conduits_from(game: Game, basin: int) -> list[str]:
    """Conduits built out of a basin (any owner)."""
    return [c for c in game.map.basins[basin].conduit_spaces if c in game.state.conduits]


def reaches_own_powerhouse(game: Game, company: str, conduit: str) -> bool:
    """True when a conduit space ends at a powerhouse of the automa."""
    return any(
        game.state.powerhouses.get(ph) == company
        for ph in game.map.conduit_spaces[conduit].connects_powerhouse_spaces
    )


def completes_system(game: Game, company: str, structure: str, space: str) -> bool:
    """Whether building here would give the automa a dam → conduit → own powerhouse system."""
    conduits = game.map.conduit_spaces
    if structure == "base":
        return any(
            reaches_own_powerhouse(game, company, c)
            for c in built_conduits_from(game, basin_of(game, space))
        )
    if structure == "conduit":
        return usable_dam_in(game, company, conduits[space].from_basin) and reaches_own_powerhouse(
            game, company, space
        )
    if structure == "powerhouse":
        return any(
            c in game.state.conduits and usable_dam_in(game, company, conduits[c].from_basin)
            for c in game.map.powerhouse_spaces[space].fed_by_conduits
        )
    return False


def code(game: Game, space: str) -> int:
    """A space's tie-break code: basin number, or 2n / 2n+1 for conduit nL / nR."""
    found = _CONDUIT_ID.match(space)
    if space in game.map.conduit_spaces and found:
        return 2 * int(found.group(1)) + (found.group(2) == "R")
    return basin_of(game, space)


def conduit_code(text: str) -> int:
    """The code of a conduit tie-break start ('1L' → 2, '10R' → 21)."""
    return 2 * int(text[:-1]) + (text[-1] == "R")


def release_path(game: Game, basin: int) -> tuple[int, ...]:
    """Basins whose dams water released in `basin` passes: that basin, then downstream."""
    return (basin, *game.map.downstream(basin))


def dams_met(game: Game, basin: int) -> set[str]:
    """Owners of the dams on the path of water released at a powerhouse of `basin`."""
    return {owner for b in release_path(game, basin) for owner in dam_owners(game, b)}


def simulated_passing(game: Game, order: Sequence[str]) -> dict[int, int]:
    """Drops entering each basin if the water on the headstreams flowed now (card order)."""
    water = game.water_levels()
    capacity = game.capacities()
    passing: dict[int, int] = {}
    for headstream in order:
        for _ in range(game.state.headstream_water.get(headstream, 0)):
            result = flow_drop(game.map, game.map.headstream_feeds[headstream], capacity, water)
            if result.stopped_at is not None:
                water[result.stopped_at] = water.get(result.stopped_at, 0) + 1
            for basin in result.basins_entered:
                passing[basin] = passing.get(basin, 0) + 1
    return passing


def headstream_order(game: Game, card: Mapping[str, Any]) -> list[str]:
    """The card's headstream order, on this map (headstreams it does not name follow)."""
    named = [h for h in card["headstream_order"] if h in game.map.headstreams]
    return named + [h for h in game.map.headstreams if h not in named]


# -- the criteria ---------------------------------------------------------------------------


def _best(spaces: list[str], score: Callable[[str], Any]) -> list[str]:
    """The spaces with the highest score (None scores are left out)."""
    scored = [(score(space), space) for space in spaces]
    values = [value for value, _space in scored if value is not None]
    if not values:
        return []
    top = max(values)
    return [space for value, space in scored if value == top]


def _strongest_built(
    game: Game, company: str, spaces: list[str], conduits_of: Callable[[str], Iterable[str]]
) -> list[str]:
    def strongest(space: str) -> tuple[int, bool] | None:
        built = [c for c in conduits_of(space) if c in game.state.conduits]
        if not built:
            return None
        top = max(game.map.conduit_spaces[c].production for c in built)
        own = any(
            game.state.conduits[c] == company and game.map.conduit_spaces[c].production == top
            for c in built
        )
        return (top, own)

    return _best(spaces, strongest)


def base_strongest_built_conduit(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Basins whose built conduit has the highest production (own conduit wins ties)."""
    return _strongest_built(
        game, company, spaces, lambda s: game.map.basins[basin_of(game, s)].conduit_spaces
    )


def base_conduit_to_own_powerhouse(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Basins with a conduit (space) leading to an automa powerhouse."""
    return [
        s
        for s in spaces
        if any(
            reaches_own_powerhouse(game, company, c)
            for c in game.map.basins[basin_of(game, s)].conduit_spaces
        )
    ]


def base_most_water_passing(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Spaces the most drops would pass in a simulated flow (tie: headstream order)."""
    order = headstream_order(game, card)
    passing = simulated_passing(game, order)
    most = _best(spaces, lambda s: passing.get(basin_of(game, s), 0))

    def first_headstream(space: str) -> int | None:
        basin = basin_of(game, space)
        ranks = [i for i, h in enumerate(order) if basin in game.map.path_from_headstream(h)]
        return -min(ranks) if ranks else None

    return _best(most, first_headstream) or most


def base_red_outlined_space(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Upper (red-outlined) dam spaces."""
    return [s for s in spaces if game.map.dam_spaces[s].red_outline]


def base_downstream_of_built_powerhouse(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Spaces reached by water leaving any built powerhouse."""
    reached = {
        b
        for ph in game.state.powerhouses
        for b in release_path(game, game.map.powerhouse_spaces[ph].basin)
    }
    return [s for s in spaces if basin_of(game, s) in reached]


def base_conduit_to_own_dam_basin(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Basins with a conduit toward a basin holding an automa dam; else toward a basin with
    no opponent dam."""

    def targets(space: str) -> list[int]:
        return [
            game.map.conduit_spaces[c].to_basin
            for c in game.map.basins[basin_of(game, space)].conduit_spaces
        ]

    own = [s for s in spaces if any(company in dam_owners(game, t) for t in targets(s))]
    if own:
        return own
    return [
        s
        for s in spaces
        if any(
            not (dam_owners(game, t) - {company, NEUTRAL}) and game.map.basins[t].dam_spaces
            for t in targets(s)
        )
    ]


def _production_rank(game: Game, spaces: list[str], rank: int) -> list[str]:
    values = sorted({game.map.conduit_spaces[s].production for s in spaces}, reverse=True)
    if len(values) <= rank:
        return []
    return [s for s in spaces if game.map.conduit_spaces[s].production == values[rank]]


def conduit_highest_production(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Conduits of the highest production."""
    return _production_rank(game, spaces, 0)


def conduit_second_highest_production(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Conduits of the second-highest production."""
    return _production_rank(game, spaces, 1)


def _tiered(spaces: list[str], tier: Callable[[str], int]) -> list[str]:
    best = min(tier(s) for s in spaces)
    return [s for s in spaces if tier(s) == best]


def _conduit_dam_owner(reverse: bool) -> Criterion:
    def criterion(game: Game, company: str, spaces: list[str], card: dict[str, Any]) -> list[str]:
        return _tiered(
            spaces,
            lambda s: owner_tier(
                dam_owners(game, game.map.conduit_spaces[s].from_basin), company, reverse=reverse
            ),
        )

    criterion.__doc__ = "Conduits by the owner of their basin's dams."
    return criterion


def _conduit_powerhouse_owner(reverse: bool) -> Criterion:
    def criterion(game: Game, company: str, spaces: list[str], card: dict[str, Any]) -> list[str]:
        def owners(space: str) -> set[str]:
            out = set()
            for ph in game.map.conduit_spaces[space].connects_powerhouse_spaces:
                out.add(game.state.powerhouses.get(ph, NEUTRAL))
            return out

        return _tiered(spaces, lambda s: owner_tier(owners(s), company, reverse=reverse))

    criterion.__doc__ = "Conduits by the owner of the powerhouses they reach."
    return criterion


def powerhouse_strongest_built_conduit(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Powerhouse spaces fed by the highest built conduit (own wins ties)."""
    return _strongest_built(
        game, company, spaces, lambda s: game.map.powerhouse_spaces[s].fed_by_conduits
    )


def powerhouse_reached_from_own_dam(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Powerhouse spaces reached by a conduit (space) from a basin holding an automa dam."""
    return [
        s
        for s in spaces
        if any(
            company in dam_owners(game, game.map.conduit_spaces[c].from_basin)
            for c in game.map.powerhouse_spaces[s].fed_by_conduits
        )
    ]


def powerhouse_in_plains(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Powerhouse spaces in the plains."""
    return [s for s in spaces if game.map.area_of(s) == "plain"]


def _powerhouse_in_basin(basin: int) -> Criterion:
    def criterion(game: Game, company: str, spaces: list[str], card: dict[str, Any]) -> list[str]:
        return [s for s in spaces if game.map.powerhouse_spaces[s].basin == basin]

    criterion.__doc__ = f"Powerhouse spaces in basin {basin}."
    return criterion


def _feeds(game: Game, company: str, space: str) -> tuple[bool, bool]:
    owners = dams_met(game, game.map.powerhouse_spaces[space].basin)
    return company in owners, bool(owners - {company, NEUTRAL})


def powerhouse_feeds_own_dam_first(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Spaces whose outflow reaches an automa dam; else spaces reaching no opponent dam."""
    own = [s for s in spaces if _feeds(game, company, s)[0]]
    return own or [s for s in spaces if not _feeds(game, company, s)[1]]


def powerhouse_not_feeding_opponent_first(
    game: Game, company: str, spaces: list[str], card: dict[str, Any]
) -> list[str]:
    """Spaces reaching no opponent dam; else spaces whose outflow reaches an automa dam."""
    free = [s for s in spaces if not _feeds(game, company, s)[1]]
    return free or [s for s in spaces if _feeds(game, company, s)[0]]


CRITERIA: dict[str, Criterion] = {
    "base_strongest_built_conduit": base_strongest_built_conduit,
    "base_conduit_to_own_powerhouse": base_conduit_to_own_powerhouse,
    "base_most_water_passing": base_most_water_passing,
    "base_red_outlined_space": base_red_outlined_space,
    "base_downstream_of_built_powerhouse": base_downstream_of_built_powerhouse,
    "base_conduit_to_own_dam_basin": base_conduit_to_own_dam_basin,
    "conduit_highest_production": conduit_highest_production,
    "conduit_second_highest_production": conduit_second_highest_production,
    "conduit_dam_owner_own_first": _conduit_dam_owner(reverse=False),
    "conduit_dam_owner_opponent_first": _conduit_dam_owner(reverse=True),
    "conduit_powerhouse_owner_own_first": _conduit_powerhouse_owner(reverse=False),
    "conduit_powerhouse_owner_opponent_first": _conduit_powerhouse_owner(reverse=True),
    "powerhouse_strongest_built_conduit": powerhouse_strongest_built_conduit,
    "powerhouse_reached_from_own_dam": powerhouse_reached_from_own_dam,
    "powerhouse_in_plains": powerhouse_in_plains,
    "powerhouse_in_basin_5": _powerhouse_in_basin(5),
    "powerhouse_in_basin_6": _powerhouse_in_basin(6),
    "powerhouse_in_basin_7": _powerhouse_in_basin(7),
    "powerhouse_feeds_own_dam_first": powerhouse_feeds_own_dam_first,
    "powerhouse_not_feeding_opponent_first": powerhouse_not_feeding_opponent_first,
}


# -- choosing -------------------------------------------------------------------------------


def criteria_of(card: dict[str, Any], structure: str) -> tuple[list[str], int]:
    """The card's criteria for a structure and its tie-break start code."""
    if structure in ("base", "elevation"):
        return list(card["criteria_base"]), int(card["tiebreak_base_from_basin"])
    if structure == "conduit":
        return list(card["criteria_conduit"]), conduit_code(card["tiebreak_conduit_from"])
    return list(card["criteria_powerhouse"]), int(card["tiebreak_powerhouse_from_basin"])


def one_per_basin(game: Game, spaces: list[str]) -> list[str]:
    """Powerhouse spaces: one per basin, the first non-red one (else the first)."""
    chosen: dict[int, str] = {}
    for space in spaces:
        basin = game.map.powerhouse_spaces[space].basin
        current = chosen.get(basin)
        if current is None or (
            game.map.powerhouse_spaces[current].red_outline
            and not game.map.powerhouse_spaces[space].red_outline
        ):
            chosen[basin] = space
    return [s for s in spaces if s in chosen.values()]


def tie_break(game: Game, spaces: list[str], start: int) -> str:
    """The lowest code at or after `start`, cyclically; a basin's lower dam space first."""

    def key(space: str) -> tuple[int, int]:
        value = code(game, space)
        lower_first = 0
        if space in game.map.dam_spaces:
            lower_first = 0 if game.map.dam_spaces[space].position == "lower" else 1
        return (value if value >= start else value + CODE_WRAP, lower_first)

    return min(spaces, key=key)


def choose_space(
    game: Game,
    company: str,
    structure: str,
    candidates: list[str],
    card: dict[str, Any],
    fired: list[str] | None = None,
) -> str | None:
    """The space the automa builds on among `candidates` (None when there is none).

    `fired` (optional) collects the names of the steps that narrowed the choice, for the
    coverage the bench prints.
    """
    spaces = list(dict.fromkeys(candidates))
    if not spaces:
        return None
    trace = fired if fired is not None else []
    if structure != "elevation":
        complete = [s for s in spaces if completes_system(game, company, structure, s)]
        if complete:
            if len(complete) < len(spaces):
                trace.append("completes_system")
            spaces = complete
    if structure == "powerhouse":
        spaces = one_per_basin(game, spaces)
    names, start = criteria_of(card, structure)
    for name in names:
        if len(spaces) <= 1:
            break
        kept = CRITERIA[name](game, company, spaces, card)
        if kept:
            if len(kept) < len(spaces):
                trace.append(name)
            spaces = kept
    if len(spaces) > 1:
        trace.append("tie_break")
    return tie_break(game, spaces, start)
