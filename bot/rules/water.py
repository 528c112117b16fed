"""The flow of water: where a moving drop stops, and a drop moving in a game.

`flow_drop` and `flow_drops` are pure functions over a `MapData` and the current dam state
(capacity and water per dam space); `flow_one_drop` moves one drop in a game (the only way a
drop moves: from a headstream, released by a production, or placed by a reward) and tells
the hooks which basins it entered.

A drop entering a basin passes the basin's powerhouse spaces, then its upper dam space, then its
lower dam space, stopping at the first BUILT dam (capacity > 0) that still has room
(water < capacity). Unbuilt spaces and full dams let it pass, and it follows the river to the
next basin, until it leaves the map at an exit. Drops move one at a time, so each drop sees the
dams filled by the drops before it (`flow_drops`).

Water released by a production starts in the POWERHOUSE's basin: it passes that basin's dams
(upper, then lower) before flowing downstream (RULINGS 1: powerhouses sit where the river enters
a basin): `flow_drop(map, powerhouse_basin, ...)` (the powerhouse spaces hold no water, so
the drop passing them changes nothing). `basins_entered` still lists the start basin first;
`flow_one_drop(..., released=True)` leaves the release basin out for the USA ability
(RULINGS 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.rules.content import MapData
from bot.rules.hooks import Hooks

if TYPE_CHECKING:
    from bot.rules.engine import Game


@dataclass(frozen=True, slots=True)
class FlowResult:
    """Where one drop went: the dam that caught it, or the exit it left by."""

    stopped_at: str | None
    exit: str | None
    basins_entered: tuple[int, ...]


def flow_drop(
    map: MapData,
    start_basin: int,
    dam_capacity: Mapping[str, int],
    dam_water: Mapping[str, int],
) -> FlowResult:
    """Move one drop that enters `start_basin`; return the dam that catches it or the exit."""
    entered: list[int] = []
    current: int | str = start_basin
    while isinstance(current, int):
        basin = map.basins[current]
        entered.append(current)
        for dam_id in basin.dam_spaces:  # upper first, then lower
            capacity = dam_capacity.get(dam_id, 0)
            if capacity > 0 and dam_water.get(dam_id, 0) < capacity:
                return FlowResult(stopped_at=dam_id, exit=None, basins_entered=tuple(entered))
        current = basin.river_to
    return FlowResult(stopped_at=None, exit=current, basins_entered=tuple(entered))


def flow_drops(
    map: MapData,
    start_basin: int,
    count: int,
    dam_capacity: Mapping[str, int],
    dam_water: Mapping[str, int],
) -> tuple[FlowResult, ...]:
    """Move `count` drops one at a time (on a copy of dam_water); return each drop's result."""
    water = dict(dam_water)
    results = []
    for _ in range(count):
        result = flow_drop(map, start_basin, dam_capacity, water)
        if result.stopped_at is not None:
            water[result.stopped_at] = water.get(result.stopped_at, 0) + 1
        results.append(result)
    return tuple(results)


def flow_one_drop(game: Game, start_basin: int, source: str, *, released: bool = False) -> None:
    """Move one drop entering `start_basin` down the rivers until a dam holds it or it leaves.

    RULINGS 1: a drop released by a production starts at the powerhouse, in that basin, and
    passes that basin's dams first. RULINGS 2: the USA gains 1 energy for each basin the drop
    enters that holds a USA powerhouse (ability active), except the basin of release.
    """
    result = flow_drop(game.map, start_basin, game.capacities(), game.water_levels())
    if result.stopped_at is not None:
        game.state.dams[result.stopped_at].water += 1
    game.emit(
        "water",
        source=source,
        data={
            "from": start_basin,
            "stopped_at": result.stopped_at,
            "exit": result.exit,
            "path": list(result.basins_entered),
        },
    )
    entered = result.basins_entered[1:] if released else result.basins_entered
    for ask in game.hooked(Hooks.drop_flowed):
        ask(game, tuple(entered))


def flow_from_headstream(game: Game, headstream: str, source: str) -> None:
    """A drop leaves a headstream tile and flows at once."""
    flow_one_drop(game, game.map.headstream_feeds[headstream], source)


__all__ = ["FlowResult", "flow_drop", "flow_drops", "flow_from_headstream", "flow_one_drop"]
