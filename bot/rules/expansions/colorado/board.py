"""The Colorado board: its state, setup, counters for the new tiles, and the position table.

State (`state.extra["colorado"]`):
- `sites`: {construction site id: [Bridge tiles still there, in dealt order]};
- `bridges`: {dam space: Bridge tile} (the dam's owner owns the Bridge; a Bridge is not a
  structure piece, reconstructed `bridge_is_structure_piece = false`);
- `settlements`: {settlement space id: the face-up Productive Settlement tile on it}.

Engineers on a Construction Site (`CS_M`, `CS_H`, `CS_P`) or a settlement space (`S_M1`...)
are kept in `state.spaces` like the management board's, so they come back at the end of the
round and an exclusive settlement space is taken for the rest of the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from bot.rules.engine import Game
from bot.rules.errors import PositionError
from bot.rules.prng import SplitMix64
from bot.rules.rulebook import RuleSet
from bot.rules.tasks import Task

#: Its bonus tiles' counts (the package's rule set includes it).
RULES: RuleSet[Game] = RuleSet("colorado.board")

KEY = "colorado"


class ColoradoTask(Task, total=False):
    """A task of Colorado's kinds, with the keys they add to the base game's."""

    #: colorado_copy: the Bridge tiles already copied.
    chosen: list[str]
    #: colorado_settlement: the Productive Settlement type ("A", "B", "C").
    type: str
    #: colorado_segment: the wheel segment that gives machinery back.
    segment: int
    #: colorado_bridge: the area whose dams may take the Bridge (None: any).
    area: str | None
    #: colorado_bridge_on_new_base: the dams built before the reward's Base.
    before: list[str]
    #: reward_build of an elevation: it may lift a Bridge (A7).
    lift_bridge: bool


def colorado_task(entry: Task) -> ColoradoTask:
    """The same task with Colorado's keys in view: Colorado marks some base tasks (an
    elevation that may lift a Bridge)."""
    return cast(ColoradoTask, entry)


def co(game: Game) -> dict[str, Any]:
    """The expansion's part of the state."""
    return cast("dict[str, Any]", game.state.extra[KEY])


def sites(game: Game) -> dict[str, Mapping[str, Any]]:
    """The map's Construction Sites by id, in map order (mountain, hill, plain)."""
    return {row["id"]: row for row in game.map.features["construction_site"]}


def settlement_spaces(game: Game) -> dict[str, Mapping[str, Any]]:
    """The map's settlement spaces by id, in map order."""
    return {row["id"]: row for row in game.map.features["settlement_space"]}


def bridge_tiles(game: Game) -> dict[str, Mapping[str, Any]]:
    """The ten Bridge tiles by id."""
    return {row["id"]: row for row in game.content.of(KEY)["bridge_tile"]}


def settlement_tiles(game: Game) -> dict[str, Mapping[str, Any]]:
    """The 24 Productive Settlement tiles by id."""
    return {row["id"]: row for row in game.content.of(KEY)["settlement_tile"]}


def setup_board(game: Game, rng: SplitMix64) -> None:
    """Rulebook "Setup" (in this draw order, after the base setup and Leeghwater's).

    Settlement tiles: the tiles of type A, then B, then C are shuffled and dealt face up to the
    spaces of that type in map order; the rest go back to the box. Bridge tiles: all ten are
    shuffled and dealt to the sites in map order (4 mountain, 3 hill, 3 plain). With The
    Leeghwater Project, one random tile of each External Work pile A, B, C goes back to the
    box: Leeghwater's setup already turned three tiles of pile A up, and removing a random
    tile from what is left is the same draw as removing it first (any order of a shuffled pile
    is equally likely), so the face-up tiles need not be drawn again.
    """
    state = game.state
    tiles = settlement_tiles(game)
    placed: dict[str, str] = {}
    for kind in ("A", "B", "C"):
        pile = [tile for tile, row in tiles.items() if row["type"] == kind]
        rng.shuffle(pile)
        for space_id, space in settlement_spaces(game).items():
            if space["tile_type"] == kind:
                placed[space_id] = pile.pop(0)
    bridges = list(bridge_tiles(game))
    rng.shuffle(bridges)
    dealt: dict[str, list[str]] = {}
    for site_id, site in sites(game).items():
        count = site["bridge_tiles_at_setup"]
        dealt[site_id], bridges = bridges[:count], bridges[count:]
    state.extra[KEY] = {"sites": dealt, "bridges": {}, "settlements": placed}
    leeghwater = state.extra.get("leeghwater")
    if leeghwater is not None:
        removed = []
        per_pile = game.content.of(KEY)["setup"]["with_leeghwater"][
            "external_works_removed_per_pile"
        ]
        for letter in ("A", "B", "C"):
            tiles_left = leeghwater["work_piles"].get(letter, [])
            for _ in range(per_pile):
                if tiles_left:
                    removed.append(tiles_left.pop(rng.below(len(tiles_left))))
        co(game)["works_removed"] = removed


# -- bridges -------------------------------------------------------------------------------


def bridge_owner(game: Game, dam_space: str) -> str:
    """The company whose dam carries this Bridge."""
    return game.state.dams[dam_space].owner


def bridges_of(game: Game, company_id: str) -> dict[str, str]:
    """{dam space: Bridge tile} of this company's Bridges."""
    return {
        space: tile
        for space, tile in co(game)["bridges"].items()
        if bridge_owner(game, space) == company_id
    }


def bridge_in_basin(game: Game, basin: int) -> str | None:
    """The dam space of the Bridge in this basin (at most one), or None."""
    for space in co(game)["bridges"]:
        if game.map.dam_spaces[space].basin == basin:
            return cast("str | None", space)
    return None


def built_at(game: Game, site_id: str) -> int:
    """Bridges already built from this site (its area's Bridges, rewards' free ones included)."""
    area = sites(game)[site_id]["area"]
    return sum(1 for space in co(game)["bridges"] if game.map.area_of(space) == area)


def site_of_area(game: Game, area: str) -> str:
    """The Construction Site of an area."""
    return next(site_id for site_id, row in sites(game).items() if row["area"] == area)


def bridge_cost(game: Game, site_id: str) -> int:
    """Credits for the next Bridge here: the printed sequence (1, 3, 5, 7: 1 + 2 per Bridge)."""
    sequence = sites(game)[site_id]["bridge_cost_sequence"]
    built = built_at(game, site_id)
    return cast("int", sequence[min(built, len(sequence) - 1)])


RULES.bonus_counter("bridges", lambda g, c: len(bridges_of(g, c)))


def dams_with_bridge(game: Game, company_id: str) -> int:
    """The objective tile's count: Bases and Elevations of the company's dams with a Bridge."""
    return sum(game.state.dams[space].level for space in bridges_of(game, company_id))


# -- the position table --------------------------------------------------------------------


def load_position(game: Game, section: Mapping[str, Any]) -> None:
    """The position's `[colorado]` table.

    [colorado]
    sites = { CS_M = ["BR1", "BR2"], CS_H = [], CS_P = ["BR3"] }   # tiles still there
    bridges = { D1L = "BR5" }          # Bridges on dams (the dam must be a company's)
    settlements = { S_M1 = "SA3" }     # face-up tiles (unnamed spaces keep the seed's)
    works_removed = ["B2"]             # with Leeghwater: External Works out of the game
    """
    board = co(game)
    unknown = set(section) - {"sites", "bridges", "settlements", "works_removed"}
    if unknown:
        raise PositionError(f"[colorado] has unknown keys: {', '.join(sorted(unknown))}")
    known_sites = sites(game)
    for site_id, tiles in section.get("sites", {}).items():
        if site_id not in known_sites:
            raise PositionError(f"[colorado] sites: {site_id!r} is not a Construction Site")
        for tile in tiles:
            if tile not in bridge_tiles(game):
                raise PositionError(f"[colorado] sites: unknown Bridge tile {tile!r}")
        board["sites"][site_id] = list(tiles)
    if "bridges" in section:
        board["bridges"] = {}
        for space, tile in section["bridges"].items():
            dam = game.state.dams.get(space)
            if dam is None or dam.owner not in game.state.companies:
                raise PositionError(f"[colorado] bridges: {space} is not a company's dam")
            if tile not in bridge_tiles(game):
                raise PositionError(f"[colorado] bridges: unknown Bridge tile {tile!r}")
            if bridge_in_basin(game, game.map.dam_spaces[space].basin) is not None:
                raise PositionError(f"[colorado] bridges: two Bridges in the basin of {space}")
            board["bridges"][space] = tile
    for space, tile in section.get("settlements", {}).items():
        if space not in settlement_spaces(game):
            raise PositionError(f"[colorado] settlements: {space!r} is not a settlement space")
        if tile not in settlement_tiles(game):
            raise PositionError(f"[colorado] settlements: unknown tile {tile!r}")
        board["settlements"][space] = tile
    if "works_removed" in section:
        board["works_removed"] = [str(work) for work in section["works_removed"]]


def export_position(game: Game) -> dict[str, Any]:
    """The `[colorado]` table stating the Construction Sites, Bridges and settlements."""
    board = co(game)
    out: dict[str, Any] = {
        "sites": {site: list(tiles) for site, tiles in board["sites"].items()},
        "bridges": dict(board["bridges"]),
        "settlements": dict(board["settlements"]),
    }
    if "works_removed" in board:
        out["works_removed"] = list(board["works_removed"])
    return out
