"""Water flow over a map: where a moving drop stops.

Pure functions over a `MapData` and the current dam state (capacity and water per dam space).

A drop entering a basin passes the basin's powerhouse spaces, then its upper dam space, then its
lower dam space, stopping at the first BUILT dam (capacity > 0) that still has room
(water < capacity). Unbuilt spaces and full dams let it pass, and it follows the river to the
next basin, until it leaves the map at an exit. Drops move one at a time, so each drop sees the
dams filled by the drops before it (`flow_drops`).

Water released by a production starts in the POWERHOUSE's basin: it passes that basin's dams
(upper, then lower) before flowing downstream (RULINGS 1: powerhouses sit where the river enters
a basin). Call `flow_drop(map, powerhouse_basin, ..., skip_powerhouses_of_first=True)`; the
powerhouse spaces never hold water, so the flag only records that the drop did not *enter*
that basin. `basins_entered` still lists the start basin first; the engine uses it for the USA
ability and must itself leave out the release basin of a production (RULINGS 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.rules.content import MapData


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
    *,
    skip_powerhouses_of_first: bool = False,
) -> FlowResult:
    """Move one drop that enters `start_basin`; return the dam that catches it or the exit."""
    # skip_powerhouses_of_first is accepted for callers' clarity: powerhouse spaces hold no
    # water, so passing them changes nothing in where the drop stops.
    del skip_powerhouses_of_first
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
    *,
    skip_powerhouses_of_first: bool = False,
) -> tuple[FlowResult, ...]:
    """Move `count` drops one at a time (on a copy of dam_water); return each drop's result."""
    water = dict(dam_water)
    results = []
    for _ in range(count):
        result = flow_drop(
            map,
            start_basin,
            dam_capacity,
            water,
            skip_powerhouses_of_first=skip_powerhouses_of_first,
        )
        if result.stopped_at is not None:
            water[result.stopped_at] = water.get(result.stopped_at, 0) + 1
        results.append(result)
    return tuple(results)


__all__ = ["FlowResult", "flow_drop", "flow_drops"]
