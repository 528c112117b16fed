"""The effects of Bridge tiles, Productive Settlement tiles, and Colorado's reward keys.

A tile's effect is an action-space effect (`bot.rules.actions.perform_effect`: a production, drops
on headstreams, private contracts, the wheel), else a reward (`apply_reward`), whose Colorado
keys land in `apply_reward_part` here. Choices become tasks:

- `copy_bridge BR5`: the effect of one of your Bridge tiles (settlement SA5; contract 315 asks
  twice, for two different tiles);
- `settlement S_H3`: the effect of a face-up settlement tile of a type (contract 415, External
  Work B6, the Heliport), chosen among the tiles on the map (open question's reading: the
  space stays free for others, no engineers, no tolls);
- `machines 1e0m`: which machinery comes back from a wheel segment holding both kinds (SA4).

Decisions where the texts are silent:
- SA4 "take 1 Machinery back from each segment": segments holding one kind give it back at
  once; a segment holding both asks which.
- SC5 "you can place 1 Water Drop in each of your Dams that can hold it": every own dam with
  room gets one, without asking (a drop in an own dam never hurts its owner).
- SC6, SC8, SB2, SC1 count after the action's tolls are paid (the effect follows the payment).
- SA7 and SA3 and BR8 only move the Energy marker (they do not fulfil a contract, open
  question's reading); SB8 (3 per Powerhouse) may fulfil one, as the text says.
- Copying a Bridge with fewer own Bridges than asked gives nothing (open question's reading).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from bot.rules.actions import perform_effect
from bot.rules.construction import can_build, structure_count
from bot.rules.engine import Game
from bot.rules.expansions.colorado.board import (
    ColoradoTask,
    bridges_of,
    co,
    settlement_spaces,
    settlement_tiles,
)
from bot.rules.flow import ENERGY_CAP
from bot.rules.moves import Single
from bot.rules.notation import Machines
from bot.rules.options import Option, counted
from bot.rules.production import can_produce
from bot.rules.rewards import (
    dam_owner_water,
    describe_reward,
    produce_energy,
    reward_contract,
    reward_drops,
)
from bot.rules.rulebook import RuleSet
from bot.rules.state import NEUTRAL
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("colorado.effects")


@dataclass(frozen=True, slots=True)
class CopyBridge(Single):
    """`copy_bridge BR3`: the effect of that own Bridge tile."""

    verb: ClassVar[str] = "copy_bridge"
    args: ClassVar[str] = r"BR\d{1,2}"
    tile: str


@dataclass(frozen=True, slots=True)
class SettlementBonus(Single):
    """`settlement S_M1`: the bonus of the tile on that Productive Settlement, without going."""

    verb: ClassVar[str] = "settlement"
    args: ClassVar[str] = r"S_[MHP]\d"
    space: str
    # The settlement tile lying there (not written: the board says it).
    tile: str = field(default="", compare=False)


RULES.move(CopyBridge)
RULES.move(SettlementBonus)


def tile_effect(game: Game, tile: str) -> Mapping[str, Any]:
    """The effect of a Bridge or settlement tile."""
    for table in ("bridge_tile", "settlement_tile"):
        for row in game.content.of("colorado")[table]:
            if row["id"] == tile:
                return cast("Mapping[str, Any]", row["effect"])
    raise KeyError(tile)


def effect_possible(game: Game, company_id: str, effect: Mapping[str, Any], budget: int) -> bool:
    """Whether an action's effect can be started (as a management space's must be).

    Only effects that are an action of their own are checked: a production, a construction,
    a conduit build, fulfilling a contract of a colour. The others may give nothing.
    """
    company = game.company(company_id)
    if "produce" in effect:
        return can_produce(game, company_id, effect.get("production_bonus", 0), budget)
    if "construction_action_without_engineers" in effect:
        return can_build(game, company_id, budget)
    if "fulfill_contract_of_level" in effect:
        level = effect["fulfill_contract_of_level"]
        return any(game.content.contracts[c].kind == level for c in company.contracts)
    if "build_conduit_max_production" in effect:
        limit = effect["build_conduit_max_production"]
        if company.placed.get("conduit", 0) >= game.content.common.pieces["conduit"]:
            return False
        return any(
            space.id not in game.state.conduits and space.production <= limit
            for space in game.map.conduit_spaces.values()
        )
    return True


def perform_tile(game: Game, company_id: str, tile: str, source: str) -> None:
    """Take the effect of a Bridge or settlement tile."""
    game.emit("tile_effect", company_id, source=source, data={"tile": tile})
    perform_effect(game, company_id, dict(tile_effect(game, tile)), source)


# -- reward keys -----------------------------------------------------------------------------


def own_dams(game: Game, company_id: str) -> list[str]:
    """The company's dam spaces."""
    return [space for space, dam in game.state.dams.items() if dam.owner == company_id]


def apply_reward_part(
    game: Game, company_id: str, key: str, value: Any, source: str, tasks: list[Task]
) -> bool:
    """Apply one Colorado reward key; True when it is one."""
    company = game.company(company_id)
    if key == "water_drops_flowing_up_to":
        tasks.append(reward_drops(company_id, value, True, source))
    elif key == "take_back_machinery_per_wheel_segment":
        _take_back(game, company_id, value, source, tasks)
    elif key == "copy_own_bridge_effect":
        if len(bridges_of(game, company_id)) < value:
            game.emit(
                "skipped",
                company_id,
                text=f"fewer than {counted(value, 'own Bridge tile')} to copy",
            )
        else:
            tasks.append(
                ColoradoTask(
                    kind="colorado_copy",
                    player=company_id,
                    remaining=value,
                    chosen=[],
                    source=source,
                )
            )
    elif key == "fulfill_contract_of_level":
        tasks.append(reward_contract(company_id, source, level=value))
    elif key == "vp_per_fulfilled_contract":
        game.gain(company_id, "vp", value * len(company.fulfilled), source)
    elif key == "vp_per_energy_section_reached":
        energy = min(company.energy, ENERGY_CAP)
        starts = game.content.energy_track.bonus_section_min_energy
        game.gain(company_id, "vp", value * sum(1 for s in starts if energy >= s), source)
    elif key == "energy_per_own_conduit_production":
        total = sum(
            game.map.conduit_spaces[space].production
            for space, owner in game.state.conduits.items()
            if owner == company_id
        )
        game.add_energy(company_id, value * total, source)
    elif key == "credits_per_drop_in_own_dams":
        game.gain(company_id, "credits", value * dam_owner_water(game, company_id), source)
    elif key == "vp_per_own_bridge":
        game.gain(company_id, "vp", value * len(bridges_of(game, company_id)), source)
    elif key == "energy_produced_per_own_powerhouse":
        energy = value * structure_count(game, company_id, "powerhouse")
        if energy:
            produce_energy(game, company_id, energy, source, tasks)
    elif key == "construction_action_without_engineers":
        tasks.append({"kind": "build_structure", "player": company_id, "mode": "construction"})
    elif key == "drop_in_each_own_dam":
        for space in own_dams(game, company_id):
            if game.state.dams[space].owner == NEUTRAL:
                continue
            room = game.dam_capacity(space) - game.state.dams[space].water
            added = min(value, room)
            if added > 0:
                game.state.dams[space].water += added
                game.emit("drop_added", company_id, added, source, data={"at": space})
    elif key == "vp_per_credits_in_supply":
        game.gain(company_id, "vp", company.credits // value, source)
    elif key == "vp_per_machineries_in_supply":
        game.gain(company_id, "vp", (company.excavators + company.mixers) // value, source)
    elif key == "settlement_bonus_of_type":
        tasks.append(
            ColoradoTask(kind="colorado_settlement", player=company_id, type=value, source=source)
        )
    else:
        return False
    return True


# -- SA4: one machinery back from each segment -------------------------------------------------


def _take_back(game: Game, company_id: str, per: int, source: str, tasks: list[Task]) -> None:
    company = game.company(company_id)
    for index, segment in enumerate(company.wheel):
        if segment.excavators and segment.mixers:
            tasks.append(
                ColoradoTask(
                    kind="colorado_segment", player=company_id, segment=index, n=per, source=source
                )
            )
            continue
        excavators = min(per, segment.excavators)
        mixers = min(per, segment.mixers)
        if excavators or mixers:
            _return(game, company_id, index, excavators, mixers, source)


def _return(
    game: Game, company_id: str, index: int, excavators: int, mixers: int, source: str
) -> None:
    company = game.company(company_id)
    segment = company.wheel[index]
    segment.excavators -= excavators
    segment.mixers -= mixers
    company.excavators += excavators
    company.mixers += mixers
    game.emit(
        "wheel_return",
        company_id,
        source=source,
        data={"tiles": [], "excavators": excavators, "mixers": mixers},
    )


def _segment_options(game: Game, entry: ColoradoTask) -> list[Option]:
    segment = game.company(entry["player"]).wheel[entry["segment"]]
    out = []
    for excavators in range(entry["n"], -1, -1):
        mixers = entry["n"] - excavators
        if excavators <= segment.excavators and mixers <= segment.mixers:
            out.append(
                Option(
                    Machines(excavators, mixers),
                    f"Segment {entry['segment']}: take back {counted(excavators, 'excavator')}, "
                    f"{counted(mixers, 'mixer')}",
                    group="wheel",
                )
            )
    return out


@RULES.task(
    "colorado_segment",
    options=_segment_options,
    prompt=lambda g, e: f"Which machinery comes back from wheel segment {e['segment']}?",
)
def _segment(game: Game, entry: ColoradoTask, move: Machines) -> None:
    _return(game, entry["player"], entry["segment"], move.excavators, move.mixers, entry["source"])


# -- copying an own Bridge tile's effect ---------------------------------------------------------


def _copy_options(game: Game, entry: ColoradoTask) -> list[Option]:
    out = []
    for space, tile in bridges_of(game, entry["player"]).items():
        if tile in entry["chosen"]:
            continue
        out.append(
            Option(
                CopyBridge(tile),
                f"Effect of Bridge {tile} (on {space}): {describe_reward(tile_effect(game, tile), game.content)}",
                group="Bridges",
            )
        )
    return out


@RULES.task(
    "colorado_copy",
    options=_copy_options,
    prompt=lambda g, e: "Take the effect of which of your Bridge tiles?",
)
def _copy(game: Game, entry: ColoradoTask, move: CopyBridge) -> None:
    tile = move.tile
    if entry["remaining"] > 1:
        again: ColoradoTask = {
            **entry,
            "remaining": entry["remaining"] - 1,
            "chosen": [*entry["chosen"], tile],
        }
        game.push(again)
    perform_tile(game, entry["player"], tile, entry["source"])


# -- a settlement tile's bonus without going there -------------------------------------------------


def _settlement_options(game: Game, entry: ColoradoTask) -> list[Option]:
    tiles = settlement_tiles(game)
    out = []
    for space_id in settlement_spaces(game):
        tile = co(game)["settlements"].get(space_id)
        if tile is None or tiles[tile]["type"] != entry["type"]:
            continue
        out.append(
            Option(
                SettlementBonus(space_id, tile),
                f"Bonus of {space_id} ({tile}): {describe_reward(tiles[tile]['effect'], game.content)}",
                group="Settlements",
            )
        )
    return out


@RULES.task(
    "colorado_settlement",
    options=_settlement_options,
    prompt=lambda g, e: f"Take the bonus of which type {e['type']} Productive Settlement?",
)
def _settlement(game: Game, entry: ColoradoTask, move: SettlementBonus) -> None:
    perform_tile(game, entry["player"], move.tile, entry["source"])
