"""Advanced technology tiles (full game), and the engineer-free use of Anton Krylov's tile.

Each tile builds like a basic tile and adds a special effect when it is used to build
(reference technology_tiles.toml): cost rules are declared with `RULES.tile_cost`, after-build
effects with `RULES.tile_effect`. The two engineer-free tiles (adv_1_powerhouse,
adv_3_base) give a turn action of their own, `build_free`: a construction with that tile and no
engineers on a construction space, usable also when the company has no engineers left (the
tiles' text). A company with no engineers that could still build this way keeps taking turns
until it builds or answers `pass` (it then takes no more turns this round).

Anton's tile (`tile anton_tile adv_2_base`, his ability: `bot.rules.officers`) acts as another
tile on his wheel: what that tile builds, its cost rule, its effect, and — our reading, the
texts being silent — its engineer-free use (here). Anton's tile itself goes onto the wheel; the
copied tile stays where it is.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.construction import can_build, structure_count
from bot.rules.engine import Game
from bot.rules.moves import Move, Word
from bot.rules.options import Option
from bot.rules.rewards import apply_reward, rotate_wheel
from bot.rules.rulebook import RuleSet
from bot.rules.structures import Cost

RULES: RuleSet[Game] = RuleSet("advanced_tiles")

ADVANCED_VP = 3  # the level-3 tiles' "3 VP per ..."
CONDUIT_CAP = 5  # adv_2_conduit: never more than 5 excavators

BUILD_FREE = Word("build_free")
PASS = Word("pass")
RULES.move(Word, "build_free", "pass")


# -- cost rules -----------------------------------------------------------------------------------


def _no_red_fee(
    game: Game, company_id: str, kind: str, space: str, costs: list[Cost]
) -> list[Cost]:
    """adv_1_wild: the red-outlined map space's 3 credits are skipped."""
    return [replace(cost, fee=0) for cost in costs]


def _any_machinery(
    game: Game, company_id: str, kind: str, space: str, costs: list[Cost]
) -> list[Cost]:
    """adv_2_wild: excavators and mixers stand in for each other freely."""
    return [Cost("any", cost.amount + cost.mixers, cost.fee) for cost in costs]


def _conduit_cap(
    game: Game, company_id: str, kind: str, space: str, costs: list[Cost]
) -> list[Cost]:
    """adv_2_conduit: the conduit never costs more than 5 excavators."""
    return [
        Cost(cost.machinery, min(cost.amount, CONDUIT_CAP), cost.fee)
        if cost.machinery == "excavators"
        else cost
        for cost in costs
    ]


def _no_excavators(
    game: Game, company_id: str, kind: str, space: str, costs: list[Cost]
) -> list[Cost]:
    """adv_3_base: no excavators on the wheel; a red outline still costs its credits."""
    return [Cost(cost.machinery, 0, cost.fee) for cost in costs[:1]]


RULES.tile_cost("adv_1_wild", _no_red_fee)
RULES.tile_cost("adv_2_wild", _any_machinery)
RULES.tile_cost("adv_2_conduit", _conduit_cap)
RULES.tile_cost("adv_3_base", _no_excavators)


# -- effects after the build ---------------------------------------------------------------------


def _adv_1_base(game: Game, company_id: str, kind: str, space: str) -> None:
    """Each own dam holding no water gets 1 drop from the supply (the new one included)."""
    for space_id, dam in game.state.dams.items():
        if dam.owner == company_id and dam.water == 0 and game.dam_capacity(space_id) > 0:
            dam.water = 1
            game.emit("drop_added", company_id, 1, "tile:adv_1_base", data={"at": space_id})


def _adv_1_elevation(game: Game, company_id: str, kind: str, space: str) -> None:
    """Turn the wheel 1 segment per Elevation built, this one included."""
    rotate_wheel(
        game, company_id, structure_count(game, company_id, "elevation"), "tile:adv_1_elevation"
    )


def _adv_1_conduit(game: Game, company_id: str, kind: str, space: str) -> None:
    """Credits worth twice the new conduit's production value."""
    value = game.map.conduit_spaces[space].production
    game.gain(company_id, "credits", 2 * value, "tile:adv_1_conduit")


def _adv_2_base(game: Game, company_id: str, kind: str, space: str) -> None:
    """Produce energy equal to the Bases built; it may fulfil one private contract (RULINGS 21)."""
    bases = structure_count(game, company_id, "base")
    apply_reward(game, company_id, {"energy_produced": bases}, "tile:adv_2_base")


def _adv_2_elevation(game: Game, company_id: str, kind: str, space: str) -> None:
    """Fill the dam just raised to capacity with drops from the supply."""
    dam = game.state.dams[space]
    added = max(0, game.dam_capacity(space) - dam.water)
    if added:
        dam.water += added
        game.emit("drop_added", company_id, added, "tile:adv_2_elevation", data={"at": space})


def _adv_2_powerhouse(game: Game, company_id: str, kind: str, space: str) -> None:
    """A production with +2 using any own powerhouse, at no extra cost; it may be declined."""
    game.push(
        {
            "kind": "produce",
            "player": company_id,
            "bonus": 2,
            "second": False,
            "optional": True,
            "source": "tile:adv_2_powerhouse",
        }
    )


def _adv_3_elevation(game: Game, company_id: str, kind: str, space: str) -> None:
    """3 VP per own dam at level 2 or higher."""
    dams = sum(1 for dam in game.state.dams.values() if dam.owner == company_id and dam.level >= 2)
    game.gain(company_id, "vp", ADVANCED_VP * dams, "tile:adv_3_elevation")


def _adv_3_conduit(game: Game, company_id: str, kind: str, space: str) -> None:
    """Produce twice the new conduit's value; it may fulfil one private contract."""
    value = 2 * game.map.conduit_spaces[space].production
    apply_reward(game, company_id, {"energy_produced": value}, "tile:adv_3_conduit")


def _adv_3_powerhouse(game: Game, company_id: str, kind: str, space: str) -> None:
    """3 VP per Powerhouse built, this one included."""
    count = structure_count(game, company_id, "powerhouse")
    game.gain(company_id, "vp", ADVANCED_VP * count, "tile:adv_3_powerhouse")


def advanced_tiles_owned(game: Game, company_id: str) -> int:
    """Advanced tiles in the supply and on the wheel (officers' tiles are not advanced)."""
    company = game.company(company_id)
    return sum(
        1
        for tile in company.tiles + company.wheel_tiles()
        if game.content.tiles[tile].kind == "advanced"
    )


def _adv_3_wild(game: Game, company_id: str, kind: str, space: str) -> None:
    """3 VP per advanced tile owned, this one included (it is on the wheel now)."""
    count = advanced_tiles_owned(game, company_id)
    game.gain(company_id, "vp", ADVANCED_VP * count, "tile:adv_3_wild")


RULES.tile_effect("adv_1_base", _adv_1_base)
RULES.tile_effect("adv_1_elevation", _adv_1_elevation)
RULES.tile_effect("adv_1_conduit", _adv_1_conduit)
RULES.tile_effect("adv_2_base", _adv_2_base)
RULES.tile_effect("adv_2_elevation", _adv_2_elevation)
RULES.tile_effect("adv_2_powerhouse", _adv_2_powerhouse)
RULES.tile_effect("adv_3_elevation", _adv_3_elevation)
RULES.tile_effect("adv_3_conduit", _adv_3_conduit)
RULES.tile_effect("adv_3_powerhouse", _adv_3_powerhouse)
RULES.tile_effect("adv_3_wild", _adv_3_wild)


# -- the engineer-free build ----------------------------------------------------------------------


def _has_free_tile(game: Game, company_id: str) -> bool:
    company = game.company(company_id)
    tiles = game.content.tiles
    if any(tiles[tile].engineer_free for tile in company.tiles):
        return True
    return "anton_tile" in company.tiles and any(
        tiles[tile].engineer_free for tile in company.wheel_tiles()
    )


def _free_build_options(game: Game, company_id: str) -> list[Option]:
    company = game.company(company_id)
    if company.extra.get("passed_round") == game.state.round or not _has_free_tile(
        game, company_id
    ):
        return []
    if not can_build(game, company_id, company.credits, free_only=True):
        return []
    return [
        Option(
            BUILD_FREE,
            "Build with an engineer-free tile (no construction space, no engineers)",
            group="Company board",
        )
    ]


def _free_build(game: Game, company_id: str, move: Move) -> None:
    game.push({"kind": "build_structure", "player": company_id, "mode": "free", "free": True})


def _pass_options(game: Game, company_id: str) -> list[Option]:
    """Passing, offered beside an engineer-free build to a company with no engineers left."""
    if game.company(company_id).engineers or not _free_build_options(game, company_id):
        return []
    return [Option(PASS, "Pass: take no more actions this round", group="turn")]


def _pass(game: Game, company_id: str, move: Move) -> None:
    game.company(company_id).extra["passed_round"] = game.state.round
    game.emit("pass", company_id)


RULES.turn_action("build_free", _free_build_options, _free_build)
RULES.turn_action("pass", _pass_options, _pass)


def _why_not_free(game: Game, company_id: str) -> str:
    if game.company(company_id).extra.get("passed_round") == game.state.round:
        return "you have passed for this round"
    if not _has_free_tile(game, company_id):
        return "you have no engineer-free tile (adv_1_powerhouse, adv_3_base) in your supply"
    return "your engineer-free tile cannot build anywhere you can pay for now"


RULES.reason("build_free", _why_not_free)
RULES.reason(
    "pass",
    lambda game, company_id: (
        "passing is for a company with no engineers left that could still build without them"
    ),
)
