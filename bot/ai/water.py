"""The water forecast: the drops each dam space will receive in the production rounds to come.

The headstream tiles lie face up (public), so the drops each headstream adds in rounds 1 to 4
are known; they flow after the round's actions (Water Flow) and are produced in the next
round. The forecast runs each of those flows down the rivers as the engine does (one drop at a
time, headstreams left to right, upper dam before lower, a full dam passed), so a dam below
another company's dam gets only what that dam lets through, and two dams of one basin share
its water instead of each counting all of it.

Between flows, a dam that someone can produce from, or that a company owns (it builds the rest
of its system to use it), is taken as emptied by a production; any other dam keeps its water
and fills. The first flow meets the dams as they are now: water held at the Water Flow makes
the drops that reach a full dam pass by.

`forecast` gives, per production round still to come, what each built dam catches and how many
drops reach each dam space (for a dam not yet built there, or elevations not yet built).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.engine import Game
from bot.rules.state import NEUTRAL

BEFORE_FLOW = ("draft", "income", "actions", "water_flow")


@dataclass(frozen=True, slots=True)
class Forecast:
    """Per production round still to come (one per flow), the drops caught and reaching."""

    caught: tuple[dict[str, int], ...]  # per built dam space: drops it holds for that round
    reach: tuple[dict[str, int], ...]  # per dam space: drops arriving there in that flow
    spilled: dict[str, int]  # per built dam: drops of the coming flow passing it full (held)
    natural: dict[str, int]  # per dam space: drops that would pass it over all flows, no dams

    @property
    def rounds(self) -> int:
        """How many production rounds the forecast covers."""
        return len(self.caught)


def flows(game: Game) -> list[dict[str, int]]:
    """The drops on each headstream at each Water Flow still to come that feeds a later
    production round (the current round's first, while it has not flowed)."""
    state = game.state
    tiles = {tile.id: tile.drops_per_round for tile in game.content.headstream_tiles}
    rounds = game.content.costs.rounds
    out: list[dict[str, int]] = []
    if state.round >= rounds:
        return out  # the last round's flow feeds no production
    if state.phase in BEFORE_FLOW:
        now = dict(state.headstream_water)
        if state.phase in ("draft", "income"):  # the round's drops may not be placed yet
            for headstream, tile_id in state.headstream_tiles.items():
                table = tiles.get(tile_id, ())
                if state.round <= len(table):
                    now[headstream] = max(now.get(headstream, 0), table[state.round - 1])
        out.append(now)
    else:
        out.append({})  # this round flowed: the dams hold next round's water already
    for later in range(state.round + 1, rounds):
        drops: dict[str, int] = {}
        for headstream, tile_id in state.headstream_tiles.items():
            table = tiles.get(tile_id, ())
            if later <= len(table) and table[later - 1]:
                drops[headstream] = table[later - 1]
        out.append(drops)
    return out


def used_dams(game: Game) -> set[str]:
    """Built dams emptied between flows: owned by a company, or with a complete system."""
    state = game.state
    game_map = game.map
    used = {space for space, dam in state.dams.items() if dam.owner != NEUTRAL}
    for space in state.dams:
        if space in used:
            continue
        basin = game_map.basins[game_map.dam_spaces[space].basin]
        for conduit_space in basin.conduit_spaces:
            if conduit_space not in state.conduits:
                continue
            conduit = game_map.conduit_spaces[conduit_space]
            if any(p in state.powerhouses for p in conduit.connects_powerhouse_spaces):
                used.add(space)
                break
    return used


def forecast(game: Game) -> Forecast:
    """Run the Water Flows still to come over the dams (see the module docstring)."""
    state = game.state
    game_map = game.map
    capacity = game.capacities()
    water = game.water_levels()
    used = used_dams(game)
    caught_rounds: list[dict[str, int]] = []
    reach_rounds: list[dict[str, int]] = []
    spilled: dict[str, int] = {}
    natural: dict[str, int] = {}
    for index, drops in enumerate(flows(game)):
        if index:
            water = {space: 0 if space in used else held for space, held in water.items()}
        caught: dict[str, int] = {}
        if state.phase not in BEFORE_FLOW and not index:
            caught = {space: held for space, held in water.items() if held}
        reach: dict[str, int] = {}
        for headstream in game_map.headstreams:
            along: int | str = game_map.headstream_feeds[headstream]
            while isinstance(along, int) and drops.get(headstream, 0):
                for space in game_map.basins[along].dam_spaces:
                    natural[space] = natural.get(space, 0) + drops[headstream]
                along = game_map.basins[along].river_to
            for _ in range(drops.get(headstream, 0)):
                current: int | str = game_map.headstream_feeds[headstream]
                while isinstance(current, int):
                    basin = game_map.basins[current]
                    stopped = False
                    for space in basin.dam_spaces:  # upper first, then lower
                        reach[space] = reach.get(space, 0) + 1
                        room = capacity.get(space, 0) - water.get(space, 0)
                        if room > 0:
                            water[space] = water.get(space, 0) + 1
                            caught[space] = caught.get(space, 0) + 1
                            stopped = True
                            break
                        if not index and space in capacity and space in used:
                            spilled[space] = spilled.get(space, 0) + 1
                    if stopped:
                        break
                    current = basin.river_to
        caught_rounds.append(caught)
        reach_rounds.append(reach)
    if state.phase not in BEFORE_FLOW:
        spilled = {}  # the round flowed: nothing held now meets its water
    return Forecast(tuple(caught_rounds), tuple(reach_rounds), spilled, natural)


__all__ = ["Forecast", "flows", "forecast", "used_dams"]
