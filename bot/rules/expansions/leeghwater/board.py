"""The Extra Management board: its state, setup, round refresh, scoring and position table.

State (`state.extra["leeghwater"]`):
- `work_piles`: {"A": [...], "B": [...], "C": [...]}, top of each pile first;
- `works`: the three face-up External Works by slot (None once taken this round);
- `buildings`: the five Private Building tiles in play, in drawn order;
- `building_spaces`: {tile: [who, who, who, who]} for the four building spaces beside each
  tile, each None (free), "blocked" (a piece of a company not in use; RULINGS 24) or a company.

Per company (`company.extra`): `external_works` (the tiles completed, face down in the supply),
and the officers' data of `officers.py`.

Engineers on the expansion's action spaces are kept in `state.spaces` like the management
board's, so they come back at the end of the round: `external_work_1`..`_3`,
`building_<tile>` (placements in order: the first is the left space, the others the right
ones), `margot` (Margot Fouché's tile) and the Bank (Mahiri's copy of Margot).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from bot.rules.engine import Game
from bot.rules.errors import PositionError
from bot.rules.expansions.leeghwater.tables import BUILDING_SPACES, BUILDINGS, WORKS
from bot.rules.hidden import mix_back
from bot.rules.patent import PILES, SLOTS, draw_tiles
from bot.rules.position import company_tables
from bot.rules.prng import SplitMix64
from bot.rules.rulebook import RuleSet
from bot.rules.state import Company, GameState
from bot.rules.tasks import Task

#: Its bonus tiles' counts (the package's rule set includes it).
RULES: RuleSet[Game] = RuleSet("leeghwater.board")

KEY = "leeghwater"
BLOCKED = "blocked"


class LeeghwaterTask(Task, total=False):
    """A task of Leeghwater's kinds, with the keys they add to the base game's."""

    #: work_payment, loan_work: the External Work's tile slot.
    slot: int
    #: drop_in_dam: neutral dams may take the drop too.
    neutral: bool


def lw(game: Game) -> dict[str, Any]:
    """The expansion's part of the state."""
    return cast("dict[str, Any]", game.state.extra[KEY])


def setup_board(game: Game, rng: SplitMix64) -> None:
    """Rulebook "General Setup" 2, 3 and 5 (in that draw order) and the player-count blocks.

    Draws from the game's PRNG after the base setup: External Work piles A, B, C shuffled
    (in that order); the ten Private Buildings shuffled, the first five in play; then one tile
    drawn out of each Patent Office pile I, II, III (the face-up tiles go back on top of pile
    I first, so the removal happens before they are turned up, as printed) and three tiles
    turned up again. Step 4 (the bonus tiles) is the base setup's draw, with this expansion's
    `content_sets`.
    """
    content = game.content
    state = game.state
    setup = content.of("leeghwater")["setup"]
    # Another expansion's works and buildings (its `set`) join only when it is in play too.
    sets = game.rules.content_sets
    piles: dict[str, list[str]] = {}
    for pile in setup["external_work_piles"]:
        tiles = [w.id for w in WORKS.of(content).values() if w.pile == pile and w.set in sets]
        rng.shuffle(tiles)
        piles[pile] = tiles
    buildings = [b.id for b in BUILDINGS.of(content).values() if b.set in sets]
    rng.shuffle(buildings)
    buildings = buildings[: setup["private_buildings_in_game"]]
    players = state.options.players
    # RULINGS 24: spaces whose min_players exceeds the player count hold a piece of a
    # company not in use. The reference marks only index 1 ("4"): it is blocked at 2 and at
    # 3 players; the printed "3+" marks are not in our data, so nothing more closes at 2.
    row = [
        None if space.min_players <= players else BLOCKED
        for space in BUILDING_SPACES.of(content).values()
    ]
    state.extra[KEY] = {
        "work_piles": piles,
        "works": [],
        "buildings": buildings,
        "building_spaces": {tile: list(row) for tile in buildings},
    }
    lw(game)["works"] = draw_works(game, setup["external_works_face_up"])
    if state.patent_offer:
        first = state.patent_piles[PILES[0]]
        state.patent_piles[PILES[0]] = [t for t in state.patent_offer if t is not None] + first
        removed = []
        for pile in PILES:
            tiles = state.patent_piles[pile]
            for _ in range(setup["advanced_tiles_removed_per_level"]):
                if tiles:
                    removed.append(tiles.pop(rng.below(len(tiles))))
        state.patent_offer = draw_tiles(state, SLOTS)
        state.extra[KEY]["advanced_removed"] = removed


def draw_works(game: Game, count: int) -> list[str | None]:
    """Take `count` External Works from pile A, then B, then C (None when all are empty)."""
    piles = lw(game)["work_piles"]
    out: list[str | None] = []
    for _ in range(count):
        pile = next((piles[p] for p in ("A", "B", "C") if piles.get(p)), None)
        out.append(pile.pop(0) if pile else None)
    return out


def refresh_works(game: Game) -> None:
    """End of round: the face-up External Works left go back to the box; three new ones."""
    board = lw(game)
    discarded = [w for w in board["works"] if w is not None]
    board["works"] = draw_works(
        game, game.content.of("leeghwater")["setup"]["external_works_discard_and_draw"]
    )
    game.emit("works_refresh", data={"discarded": discarded, "offer": list(board["works"])})


def new_company(game: Game, company: Company) -> None:
    """Rulebook "Choosing the Companies" 3-5: the board extension's five Building pieces (a
    count, `placed["building"]`) and the basic Building tile."""
    tile = game.content.of("leeghwater")["setup"]["basic_tile_added"]
    if tile not in company.tiles:
        company.tiles.append(tile)
    company.placed.setdefault("building", 0)
    company.extra.setdefault("external_works", [])


def buildings_of(game: Game, company_id: str) -> list[str]:
    """The Private Building tiles this company has activated (a Building beside them)."""
    spaces = lw(game)["building_spaces"]
    return [tile for tile in lw(game)["buildings"] if company_id in spaces[tile]]


RULES.bonus_counter(
    "external_works", lambda g, c: len(g.company(c).extra.get("external_works", []))
)
RULES.bonus_counter("buildings", lambda g, c: len(buildings_of(g, c)))


def final_scoring(game: Game) -> None:
    """Rulebook "End of the Game": each activated Private Building's VP."""
    for company_id in game.state.seats:
        for tile in buildings_of(game, company_id):
            vp = BUILDINGS.of(game.content)[tile].vp
            game.gain(company_id, "vp", vp, f"end:building:{tile}")


def load_position(game: Game, section: Mapping[str, Any]) -> None:
    """The position's `[leeghwater]` table.

        [leeghwater]
        works = ["A1", "B2", ""]          # face-up External Works by slot ("" = taken)
        work_piles = { A = ["A3"], B = [], C = ["C1"] }
        buildings = ["cofferdam", "wind_farm", "loan_agency", "research_lab", "robot_factory"]
        built = { cofferdam = ["usa", "", "italy"] }   # companies on building spaces 0..3
        used = { cofferdam = ["italy"] }               # action users this round, in order
        advanced_removed = ["adv_2_base"]              # Patent Office tiles out of the game

        [leeghwater.company.usa]
        external_works = ["A2"]      # completed (also `[company.X] extra = {...}`)
        architect_out = true         # Tommaso's Architect is on a space (officers.py)
        extra_turn = true            # Tommaso takes another turn after Confirm
        simone_limit = true          # Mahiri keeps Simone's 4 contracts until she fulfils one

    A blocked building space (RULINGS 24) may be stated as "blocked" where the player count
    blocks it. The export (`export_position`) states `used` in the base `[spaces]` table.
    """
    content = game.content
    board = lw(game)
    unknown = set(section) - {
        "works",
        "work_piles",
        "buildings",
        "built",
        "used",
        "advanced_removed",
        "company",
    }
    if unknown:
        raise PositionError(f"[leeghwater] has unknown keys: {', '.join(sorted(unknown))}")
    if "works" in section:
        works = [w or None for w in section["works"]]
        if len(works) != SLOTS:
            raise PositionError("[leeghwater] works lists the three slots")
        board["works"] = works
    if "work_piles" in section:
        board["work_piles"] = {p: list(section["work_piles"].get(p, [])) for p in "ABC"}
    for work in [*board["works"], *(w for p in board["work_piles"].values() for w in p)]:
        if work is not None and work not in WORKS.of(content):
            raise PositionError(f"[leeghwater] unknown External Work {work!r}")
    if "buildings" in section:
        tiles = list(section["buildings"])
        for tile in tiles:
            if tile not in BUILDINGS.of(content):
                raise PositionError(f"[leeghwater] unknown Private Building {tile!r}")
        old = next(iter(board["building_spaces"].values()))
        row = [BLOCKED if who == BLOCKED else None for who in old]
        board["buildings"] = tiles
        board["building_spaces"] = {tile: list(row) for tile in tiles}
    for tile, who in section.get("built", {}).items():
        if tile not in board["building_spaces"]:
            raise PositionError(f"[leeghwater] built: {tile!r} is not a building in play")
        row = board["building_spaces"][tile]
        for index, company_id in enumerate(who):
            if not company_id:
                continue
            if company_id == BLOCKED:
                if row[index] != BLOCKED:
                    raise PositionError(
                        f"[leeghwater] built: {tile} space {index} is not blocked at "
                        f"{game.state.options.players} players"
                    )
                continue
            if company_id not in game.state.companies:
                raise PositionError(f"[leeghwater] built: {company_id!r} is not in the game")
            if row[index] is not None:
                raise PositionError(f"[leeghwater] built: {tile} space {index} is {row[index]}")
            if company_id in row:
                raise PositionError(f"[leeghwater] built: {company_id} has two Buildings at {tile}")
            row[index] = company_id
    for company_id in game.state.seats:
        game.company(company_id).placed["building"] = len(buildings_of(game, company_id))
    for tile, users in section.get("used", {}).items():
        if tile not in board["building_spaces"]:
            raise PositionError(f"[leeghwater] used: {tile!r} is not a building in play")
        spaces = BUILDINGS.of(content)[tile].action_spaces
        game.state.spaces[f"building_{tile}"] = [
            [company_id, spaces[index].engineers] for index, company_id in enumerate(users)
        ]
    if "advanced_removed" in section:
        board["advanced_removed"] = [str(tile) for tile in section["advanced_removed"]]
    for company, fields in company_tables(game, KEY, section, COMPANY_FIELDS):
        extra = company.extra
        for key, value in fields.items():
            if key == "external_works":
                extra[key] = [str(work) for work in value]
            elif key == "simone_limit":
                # Kept as the fulfilled count it lasts until (officers.contract_limit).
                if value:
                    extra["simone_until"] = len(company.fulfilled)
                else:
                    extra.pop("simone_until", None)
            elif value:
                extra[key] = True
            else:
                extra.pop(key, None)


# The `[leeghwater.company.X]` fields; `company.extra` keys of the board and the officers.
COMPANY_FIELDS = ("external_works", "architect_out", "extra_turn", "simone_limit")
COMPANY_EXTRA = ("external_works", "architect_out", "extra_turn", "simone_until")


def export_position(game: Game) -> dict[str, Any]:
    """The `[leeghwater]` table stating the board and each company's data (`load_position`)."""
    board = lw(game)
    out: dict[str, Any] = {
        "works": [work or "" for work in board["works"]],
        "work_piles": {pile: list(board["work_piles"].get(pile, [])) for pile in "ABC"},
        "buildings": list(board["buildings"]),
        "built": {
            tile: [who or "" for who in row] for tile, row in board["building_spaces"].items()
        },
    }
    if "advanced_removed" in board:
        out["advanced_removed"] = list(board["advanced_removed"])
    out["company"] = {}
    for company_id in game.state.seats:
        extra = game.company(company_id).extra
        fields: dict[str, Any] = {"external_works": list(extra.get("external_works", []))}
        for key in ("architect_out", "extra_turn"):
            if extra.get(key):
                fields[key] = True
        if extra.get("simone_until") == len(game.company(company_id).fulfilled):
            fields["simone_limit"] = True
        out["company"][company_id] = fields
    return out


def redraw_hidden(game: Game, state: GameState, key: str, rng: SplitMix64) -> None:
    """Re-draw this expansion's face-down parts of `state` (a copy a seat searches): the
    advanced tiles it put back in the box at setup are unknown, so they are shuffled into the
    Patent Office piles of their level and as many come out again; the External Work piles
    likewise with the works another expansion returned to the box (its `works_removed`)."""
    own = state.extra.get(key)
    if not own:
        return
    removed = list(own.get("advanced_removed", []))
    if state.patent_piles and removed:
        tiles = game.content.tiles
        levels = {name: index for index, name in enumerate(PILES, start=1)}

        def pile_of_tile(tile: str) -> str | None:
            level = getattr(tiles.get(tile), "level", None)
            return next((name for name, lv in levels.items() if lv == level), None)

        own["advanced_removed"] = mix_back(state.patent_piles, removed, pile_of_tile, rng)
    works = own.get("work_piles")
    if not works:
        return
    # Which sections returned works to the box: any expansion's table with `works_removed`.
    owners = sorted(
        name
        for name, section in state.extra.items()
        if isinstance(section, dict) and "works_removed" in section
    )
    out_of_box = [w for name in owners for w in state.extra[name]["works_removed"]]
    pile_by_work = {work: pile for pile, items in works.items() for work in items}
    catalogue = WORKS.of(game.content)
    for work in out_of_box:
        pile_by_work[work] = getattr(catalogue.get(work), "pile", None)
    back = mix_back(works, out_of_box, pile_by_work.get, rng)
    for name in owners:
        mine = state.extra[name]["works_removed"]
        state.extra[name]["works_removed"], back = back[: len(mine)], back[len(mine) :]
