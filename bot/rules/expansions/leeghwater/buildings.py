"""Private Buildings: the "building" structure kind, its technology tiles, and the actions.

Building (rulebook "Private Buildings"): a construction like any other — engineers on the
company board, a tile that builds Buildings (basic_building, the adv_*_building tiles, a wild
tile) and the machineries on the wheel. The space is `<tile>_<index>`, one of the four building
spaces beside a Private Building tile (`building cofferdam_0`); the cost is the tile's, a
red-outlined space (index 2, 3) adds 3 credits, and a company has at most one Building beside
each tile. Buildings give no income.

Actions (`use cofferdam`): only for companies with a Building beside the tile, once per round
per tile and company; the round's first user takes the left space, later users a right space
(RULINGS 11; the right spaces' costs are the reference's, uncertainty 10). A space is offered
only when its engineers, credits (the space's and the action's own) and action can all be had.

Decisions of ours where the texts are silent:
- adv_1_building's immediate action (no engineers, the action's own credits) does not occupy
  an action space and is not the round's use of that building; it may be declined.
- adv_1_wild (skip a red outline's 3 credits) also skips a red building space's 3 credits;
  adv_2_wild lets the Building's machineries be paid in either kind.
- Research Lab (RULINGS 25): a segment holding at least 2 machineries; the player picks the
  mix of the half (rounded down) taken back. Development Office: any tile on the wheel (Leslie's
  included); its segment's machineries stay.
- Cofferdam: a neutral dam or an own dam with room; the drop does not flow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self, cast

from bot.rules.actions import place_engineers
from bot.rules.engine import Game
from bot.rules.expansions.leeghwater.board import LeeghwaterTask, buildings_of, lw
from bot.rules.expansions.leeghwater.tables import BUILDING_SPACES, BUILDINGS
from bot.rules.expansions.leeghwater.works import loan_possible
from bot.rules.moves import ID, Move, Single
from bot.rules.notation import Structure
from bot.rules.options import Option, counted
from bot.rules.production import can_produce
from bot.rules.rewards import apply_reward
from bot.rules.rulebook import RuleSet
from bot.rules.state import NEUTRAL
from bot.rules.structures import Cost, StructureKind
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("leeghwater.buildings")

MARGOT = "margot_fouche"
MARGOT_SPACE = "margot"


@dataclass(frozen=True, slots=True)
class BuildingAction(Single):
    """A Private Building's action: `use cofferdam` on its own action space, `margot cofferdam`
    on Margot Fouché's tile, `margot_bank cofferdam` on the Bank (Mahiri copying Margot);
    `use none` declines Building I's free use (`tile` None)."""

    args: ClassVar[str] = r"[a-z_]+"
    via: str
    tile: str | None


@dataclass(frozen=True, slots=True)
class DamDrop(Single):
    """`dam D1L`: one drop from the supply straight into that dam; `dam none` places none."""

    verb: ClassVar[str] = "dam"
    args: ClassVar[str] = rf"{ID}|none"
    space: str | None


@dataclass(frozen=True, slots=True)
class Retrieve(Single):
    """`retrieve basic_base`: that tile comes back from the wheel (Development Office)."""

    verb: ClassVar[str] = "retrieve"
    args: ClassVar[str] = r"[a-z0-9_]+"
    tile: str


@dataclass(frozen=True, slots=True)
class Segment(Move):
    """`segment 2 1e1m`: machinery taken back from that wheel segment (Research Lab)."""

    verb: ClassVar[str] = "segment"
    args: ClassVar[str] = r"[0-5] \d+e\d+m"
    index: int
    excavators: int
    mixers: int

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        index, machinery = rest.lower().split(" ")
        excavators, _, mixers = machinery.partition("e")
        return cls(int(index), int(excavators), int(mixers[:-1]))

    @property
    def notation(self) -> str:
        return f"segment {self.index} {self.excavators}e{self.mixers}m"


RULES.move(Structure, "building", args=r"[a-z_]+_[0-3]")
RULES.move(BuildingAction, "use", "margot", "margot_bank")
for _kind in (DamDrop, Retrieve, Segment):
    RULES.move(_kind)


def split_space(space_id: str) -> tuple[str, int]:
    """'cofferdam_2' → ('cofferdam', 2)."""
    tile, _, index = space_id.rpartition("_")
    return tile, int(index)


# -- the structure kind ----------------------------------------------------------------------


def _building_spaces(game: Game, company_id: str, constraint: Task) -> list[str]:
    out: list[str] = []
    board = lw(game)
    # The board's slot order (`buildings`), not the table's key order (a store may reorder it).
    for tile in board["buildings"]:
        row = board["building_spaces"][tile]
        if company_id in row:
            continue  # one Building per tile and company
        out.extend(f"{tile}_{index}" for index, who in enumerate(row) if who is None)
    return out


def building_space_text(game: Game, space_id: str) -> str:
    """A building space as players read it: 'Cofferdam, space 3 (red)'."""
    tile, index = split_space(space_id)
    red = ", red" if BUILDING_SPACES.of(game.content)[index].red_outline else ""
    return f"{BUILDINGS.of(game.content)[tile].name}, space {index + 1}{red}"


def _building_costs(game: Game, company_id: str, space_id: str) -> list[Cost]:
    tile, index = split_space(space_id)
    cost = BUILDINGS.of(game.content)[tile].cost
    fee = BUILDING_SPACES.of(game.content)[index].extra_credits
    excavators, mixers = cost.get("excavators", 0), cost.get("mixers", 0)
    if not excavators:
        return [Cost("mixers", mixers, fee)]
    return [Cost("excavators", excavators, fee, mixers=mixers)]


def _place_building(game: Game, company_id: str, space_id: str) -> None:
    tile, index = split_space(space_id)
    lw(game)["building_spaces"][tile][index] = company_id


RULES.structure(
    StructureKind(
        "building",
        _building_spaces,
        _building_costs,
        _place_building,
        lambda game: game.content.of("leeghwater")["setup"]["building_pieces_per_company"],
        space_text=lambda game, space: building_space_text(game, space),
    )
)


# -- the three advanced Building tiles ------------------------------------------------------


def _one_kind_only(
    game: Game, company_id: str, kind: str, space: str, costs: list[Cost]
) -> list[Cost]:
    """adv_2_building: pay only one of the two machinery kinds (a one-kind cost is free)."""
    out = []
    for cost in costs:
        if cost.mixers:
            out += [
                Cost("excavators", cost.amount, cost.fee),
                Cost("mixers", cost.mixers, cost.fee),
            ]
        else:
            out.append(Cost(cost.machinery, 0, cost.fee))
    return out


def _adv_1_building(game: Game, company_id: str, kind: str, space: str) -> None:
    """Use the action of the building just activated now, without engineers."""
    tile, _index = split_space(space)
    building = BUILDINGS.of(game.content)[tile]
    if effect_possible(game, company_id, tile, game.company(company_id).credits):
        game.push({"kind": "building_now", "player": company_id, "tile": tile})
    else:
        game.emit("skipped", company_id, text=f"{building.name}'s action is not possible now")


def _adv_3_building(game: Game, company_id: str, kind: str, space: str) -> None:
    """Score the building's end-game VP now as well."""
    tile, _index = split_space(space)
    game.gain(company_id, "vp", BUILDINGS.of(game.content)[tile].vp, "tile:adv_3_building")


RULES.tile_cost("adv_2_building", _one_kind_only)
RULES.tile_effect("adv_1_building", _adv_1_building)
RULES.tile_effect("adv_3_building", _adv_3_building)


def _now_options(game: Game, entry: Task) -> list[Option]:
    building = BUILDINGS.of(game.content)[entry["tile"]]
    return [
        Option(
            BuildingAction("use", entry["tile"]),
            f"{building.name}: {building.action_text}",
            group="tiles",
        ),
        Option(BuildingAction("use", None), "Do not use it now", group="tiles"),
    ]


@RULES.task(
    "building_now",
    options=_now_options,
    prompt=lambda g, e: "Building I: use the Building's action now (no engineers)?",
)
def _building_now(game: Game, entry: Task, move: BuildingAction) -> None:
    if move.tile is not None:
        perform_effect(game, entry["player"], entry["tile"], "tile:adv_1_building")


# -- the actions -------------------------------------------------------------------------------


def action_cost(game: Game, tile: str) -> int:
    """Credits the action itself shows (besides a right space's credits)."""
    return cast("int", BUILDINGS.of(game.content)[tile].action_effect.get("action_cost_credits", 0))


def effect_possible(game: Game, company_id: str, tile: str, budget: int) -> bool:
    """True when the building's action can be performed with `budget` credits."""
    effect = BUILDINGS.of(game.content)[tile].action_effect
    budget -= effect.get("action_cost_credits", 0)
    company = game.company(company_id)
    if budget < 0:
        return False
    # Another expansion's Private Building says itself whether its action can be performed
    # (its reward key's `possible`); keys not declared so, nor checked below, always can.
    for key in effect:
        declared = game.rules.rewards.get(key)
        if declared is not None and declared.possible is not None:
            return declared.possible(game, company_id, budget)
    if "place_drop_in_dam" in effect:
        return bool(drop_targets(game, company_id, neutral=True, exclude=None))
    if "produce" in effect:
        return can_produce(game, company_id, effect.get("production_bonus", 0), budget)
    if "fulfill_any_contract" in effect:
        return bool(company.contracts)
    if "retrieve_tile_from_wheel" in effect:
        return bool(company.wheel_tiles())
    if "retrieve_half_machinery_from_segment" in effect:
        return any(s.excavators + s.mixers >= 2 for s in company.wheel)
    if "external_work_for_credits" in effect:
        return loan_possible(game, budget, effect["credits_per_machinery"])
    return True


def perform_effect(game: Game, company_id: str, tile: str, source: str) -> None:
    """Pay the action's own credits and perform it."""
    effect: dict[str, Any] = dict(BUILDINGS.of(game.content)[tile].action_effect)
    game.gain(company_id, "credits", -effect.pop("action_cost_credits", 0), source)
    game.emit("building_action", company_id, source=source, data={"building": tile})
    if "place_drop_in_dam" in effect:
        game.push(drop_task(company_id, neutral=True, exclude=None, source=source))
    elif "produce" in effect:
        game.push(
            {
                "kind": "produce",
                "player": company_id,
                "bonus": effect.get("production_bonus", 0),
                "second": False,
                "source": source,
            }
        )
    elif "retrieve_tile_from_wheel" in effect:
        game.push({"kind": "retrieve_tile", "player": company_id, "source": source})
    elif "retrieve_half_machinery_from_segment" in effect:
        game.push({"kind": "research_lab", "player": company_id, "source": source})
    elif "external_work_for_credits" in effect:
        game.push(
            {"kind": "loan_work", "player": company_id, "per": effect["credits_per_machinery"]}
        )
    else:
        apply_reward(game, company_id, effect, source)


def _used_tile(game: Game, company_id: str, tile: str) -> bool:
    return any(who == company_id for who, _n in game.state.spaces.get(f"building_{tile}", []))


def action_options(game: Game, company_id: str) -> list[Option]:
    """`use <tile>` for each activated building whose action space the company can take."""
    company = game.company(company_id)
    out = []
    for tile in buildings_of(game, company_id):
        if _used_tile(game, company_id, tile):
            continue
        building = BUILDINGS.of(game.content)[tile]
        taken = len(game.state.spaces.get(f"building_{tile}", []))
        if taken >= len(building.action_spaces):
            continue
        space = building.action_spaces[taken]
        budget = company.credits - space.extra_credits
        if company.engineers < space.engineers or not effect_possible(
            game, company_id, tile, budget
        ):
            continue
        side = "left" if taken == 0 else "right"
        cost = space.extra_credits + action_cost(game, tile)
        costs = f"{space.engineers} eng." + (f", {counted(cost, 'credit')}" if cost else "")
        out.append(
            Option(
                BuildingAction("use", tile),
                f"{building.name} ({side}, {costs}): {building.action_text}",
                group="Private Buildings",
            )
        )
    if company.officer == MARGOT and not game.state.spaces.get(MARGOT_SPACE):
        out += _margot_options(game, company_id, "margot")
    elif company.extra.get("copied_officer") == MARGOT:
        out += _margot_options(game, company_id, "margot_bank")
    return out


def _margot_options(game: Game, company_id: str, verb: str) -> list[Option]:
    """Margot's own space (1 engineer), or Mahiri's copy: 1 engineer on the Bank, no credit."""
    company = game.company(company_id)
    if company.engineers < 1:
        return []
    where = "Margot's tile" if verb == "margot" else "the Bank (no credit)"
    out = []
    for tile in buildings_of(game, company_id):
        if not effect_possible(game, company_id, tile, company.credits):
            continue
        building = BUILDINGS.of(game.content)[tile]
        cost = action_cost(game, tile)
        costs = "1 eng." + (f", {counted(cost, 'credit')}" if cost else "")
        out.append(
            Option(
                BuildingAction(verb, tile),
                f"{building.name} via {where} ({costs}): {building.action_text}",
                group="Executive officer",
            )
        )
    return out


def perform_action(game: Game, company_id: str, move: BuildingAction) -> None:
    """Place the engineers for a building action (`use`, `margot`, `margot_bank`) and act."""
    tile, how = move.tile, move.via
    assert tile is not None, "a turn's building action names its building"
    source = f"building:{tile}"
    if how == "use":
        building = BUILDINGS.of(game.content)[tile]
        space_id = f"building_{tile}"
        taken = len(game.state.spaces.get(space_id, []))
        space = building.action_spaces[taken]
        place_engineers(game, company_id, space_id, space.engineers, f"space:{space_id}")
        game.gain(company_id, "credits", -space.extra_credits, f"space:{space_id}")
    elif how == "margot":
        place_engineers(game, company_id, MARGOT_SPACE, 1, "officer:margot_fouche")
    else:
        bank = next(s for s in game.content.management_spaces if s.engineers == 0)
        place_engineers(game, company_id, bank.id, 1, "officer:margot_fouche", printed=0)
    perform_effect(game, company_id, tile, source)


# -- drops straight into a dam (Cofferdam, the Netherlands) ---------------------------------------


def drop_targets(game: Game, company_id: str, *, neutral: bool, exclude: str | None) -> list[str]:
    """Dams that may take a drop: own (and neutral when allowed) dams with room."""
    out = []
    for space_id, dam in game.state.dams.items():
        if space_id == exclude or dam.water >= game.dam_capacity(space_id):
            continue
        if dam.owner == company_id or (neutral and dam.owner == NEUTRAL):
            out.append(space_id)
    return out


def drop_task(
    company_id: str, *, neutral: bool, exclude: str | None, source: str
) -> LeeghwaterTask:
    """A `drop_in_dam` decision."""
    return {
        "kind": "drop_in_dam",
        "player": company_id,
        "neutral": neutral,
        "exclude": exclude,
        "source": source,
    }


def _drop_options(game: Game, entry: LeeghwaterTask) -> list[Option]:
    targets = drop_targets(
        game, entry["player"], neutral=entry["neutral"], exclude=entry.get("exclude")
    )
    out = []
    for space_id in targets:
        dam = game.state.dams[space_id]
        whose = "neutral" if dam.owner == NEUTRAL else "your"
        out.append(
            Option(
                DamDrop(space_id),
                f"1 drop into {whose} dam {space_id} ({dam.water}/{game.dam_capacity(space_id)})",
                group="water",
            )
        )
    if out:
        out.append(Option(DamDrop(None), "Place no drop", group="water"))
    return out


@RULES.task(
    "drop_in_dam",
    options=_drop_options,
    prompt=lambda g, e: "Put 1 water drop from the supply straight into a dam?",
)
def _drop_in_dam(game: Game, entry: LeeghwaterTask, move: DamDrop) -> None:
    space_id = move.space
    if space_id is None:
        return
    game.state.dams[space_id].water += 1
    game.emit("drop_added", entry["player"], 1, entry["source"], data={"at": space_id})


# -- Development Office and Research Lab ------------------------------------------------------------


def _retrieve_options(game: Game, entry: Task) -> list[Option]:
    return [
        Option(
            Retrieve(tile),
            f"Take {game.content.tiles[tile].name} back from your wheel",
            group="wheel",
        )
        for tile in dict.fromkeys(game.company(entry["player"]).wheel_tiles())
    ]


@RULES.task(
    "retrieve_tile",
    options=_retrieve_options,
    prompt=lambda g, e: "Development Office: which tile comes back from your wheel?",
)
def _retrieve_tile(game: Game, entry: Task, move: Retrieve) -> None:
    company = game.company(entry["player"])
    tile = move.tile
    for segment in company.wheel:
        if tile in segment.tiles:
            segment.tiles.remove(tile)
            break
    company.tiles.append(tile)
    game.emit("tile_back", entry["player"], source=entry["source"], data={"tile": tile})


def _lab_options(game: Game, entry: Task) -> list[Option]:
    out = []
    for index, segment in enumerate(game.company(entry["player"]).wheel):
        half = (segment.excavators + segment.mixers) // 2
        if not half:
            continue
        for excavators in range(min(half, segment.excavators), -1, -1):
            mixers = half - excavators
            if mixers > segment.mixers:
                break
            out.append(
                Option(
                    Segment(index, excavators, mixers),
                    f"Segment {index}: take back {counted(excavators, 'excavator')}, "
                    f"{counted(mixers, 'mixer')}",
                    group="wheel",
                )
            )
    return out


@RULES.task(
    "research_lab",
    options=_lab_options,
    prompt=lambda g, e: "Research Lab: take back half of one wheel segment's machineries",
)
def _research_lab(game: Game, entry: Task, move: Segment) -> None:
    company = game.company(entry["player"])
    segment = company.wheel[move.index]
    excavators, mixers = move.excavators, move.mixers
    segment.excavators -= excavators
    segment.mixers -= mixers
    company.excavators += excavators
    company.mixers += mixers
    game.emit(
        "wheel_return",
        entry["player"],
        source=entry["source"],
        data={"tiles": [], "excavators": excavators, "mixers": mixers},
    )
