"""The base game's executive officers' abilities.

Most base officers bend one rule, through the hook points every game asks (`bot.rules.hooks`;
the engine names no officer): Wilhelm Adler (Base costs) and Jill McDowell (conduits in
mixers) through `structure_costs`, Solomon P. Jordan (credits for machinery) through
`credits_for_machinery`, Viktor Fiesler through `production_energy`, Graziano Del Monte
through `dam_capacity`. Anton Krylov's ability is his tile, which acts as another tile on his
wheel (`RULES.tile_use`; its engineer-free use is `advanced_tiles`'). Each ability
holds for the officer's company and for Mahiri Sekibo while she copies it
(`Game.has_officer_power`).

Mahiri Sekibo (RULINGS 14): her tile has two action spaces, `mahiri` on the turn menu (1
engineer; the second use in a round costs 3 credits more; there is no third). She picks another
officer (`copy viktor_fiesler`): the officers of the other companies and, at 2 or 3 players,
the spare officers drawn at setup, three in all. She has that ability for the rest of the turn
and then takes a normal action; the copy ends when that action is done. Her engineers return
at the end of the round like any others. Copying Anton Krylov gives nothing: his ability lives
in his tile, which she does not own (BGA lists him all the same).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from bot.rules.actions import (
    place_engineers,
    take_action,
    turn_options,
)
from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.moves import ID, Move, Single, Word
from bot.rules.options import Option, counted
from bot.rules.rulebook import RuleSet
from bot.rules.state import NEUTRAL, Dam
from bot.rules.structures import Cost, TileUse
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("officers")

WILHELM_BASE_EXCAVATORS = 3
JILL_MIXERS_PER_PRODUCTION = 1
SOLOMON_CREDITS_PER_MACHINERY = 3
VIKTOR_MINIMUM = 4
GRAZIANO_LEVEL, GRAZIANO_CAPACITY = 3, 4


@RULES.hook
class WilhelmAdler(Hooks["Game"]):
    """Bases cost him 3 excavators in any area (the red-outline fee still applies)."""

    def structure_costs(
        self, game: Game, company_id: str, kind: str, space_id: str, costs: list[Cost]
    ) -> list[Cost]:
        if kind != "base" or not game.has_officer_power(company_id, "wilhelm_adler"):
            return costs
        return [replace(cost, amount=WILHELM_BASE_EXCAVATORS) for cost in costs]


@RULES.hook
class JillMcDowell(Hooks["Game"]):
    """A conduit may cost her 1 concrete mixer per production point instead (never mixed)."""

    def structure_costs(
        self, game: Game, company_id: str, kind: str, space_id: str, costs: list[Cost]
    ) -> list[Cost]:
        if kind != "conduit" or not game.has_officer_power(company_id, "jill_mcdowell"):
            return costs
        production = game.map.conduit_spaces[space_id].production
        return [*costs, Cost("mixers", JILL_MIXERS_PER_PRODUCTION * production, 0)]


@RULES.hook
class SolomonPJordan(Hooks["Game"]):
    """Each machinery a structure needs may be replaced by 3 credits."""

    def credits_for_machinery(self, game: Game, company_id: str) -> int:
        if game.has_officer_power(company_id, "solomon_p_jordan"):
            return SOLOMON_CREDITS_PER_MACHINERY
        return 0


@RULES.hook
class ViktorFiesler(Hooks["Game"]):
    """A production gives at least 4 energy before bonuses (`production.production_energy`)."""

    def production_energy(self, game: Game, company_id: str, energy: int) -> int:
        if game.has_officer_power(company_id, "viktor_fiesler"):
            return max(energy, VIKTOR_MINIMUM)
        return energy


@RULES.hook
class GrazianoDelMonte(Hooks["Game"]):
    """His level-3 dams hold 4 drops."""

    def dam_capacity(self, game: Game, space_id: str, dam: Dam, capacity: int) -> int:
        if (
            dam.owner != NEUTRAL
            and dam.level == GRAZIANO_LEVEL
            and game.has_officer_power(dam.owner, "graziano_del_monte")
        ):
            return GRAZIANO_CAPACITY
        return capacity


def _anton_uses(game: Game, company_id: str, tile_id: str) -> list[TileUse]:
    """Anton Krylov's tile: one use per distinct other tile on his wheel (the copy takes its
    builds, cost rule and effect)."""
    wheel = dict.fromkeys(game.company(company_id).wheel_tiles())
    return [TileUse(tile_id, other) for other in wheel if other != tile_id]


RULES.tile_use("anton_tile", _anton_uses)


MAHIRI = "mahiri_sekibo"
MAHIRI_SPACES = (("mahiri_1", 0), ("mahiri_2", 3))  # (space id, extra credits)

MAHIRI_MOVE = Word("mahiri")


@dataclass(frozen=True, slots=True)
class Copy(Single):
    """`copy viktor_fiesler`: the officer whose ability Mahiri copies."""

    verb: ClassVar[str] = "copy"
    args: ClassVar[str] = ID
    officer: str


RULES.move(Word, "mahiri")
RULES.move(Copy)


def _next_space(game: Game, company_id: str) -> tuple[str, int] | None:
    for space, credits in MAHIRI_SPACES:
        if not any(owner == company_id for owner, _n in game.state.spaces.get(space, [])):
            return space, credits
    return None


def copyable_officers(game: Game, company_id: str) -> list[str]:
    """Officers Mahiri may copy: the other companies' officers and the spares (RULINGS 14)."""
    others = [game.officer_of(cid) for cid in game.state.seats if cid != company_id]
    spares = game.state.extra.get("spare_officers", [])
    return [officer for officer in dict.fromkeys([*others, *spares]) if officer != MAHIRI]


def _mahiri_options(game: Game, company_id: str) -> list[Option]:
    company = game.company(company_id)
    if company.officer != MAHIRI:
        return []
    space = _next_space(game, company_id)
    # One engineer for the copy, at least one more for the normal action that follows.
    if space is None or company.engineers < 2 or company.credits < space[1]:
        return []
    if not copyable_officers(game, company_id):
        return []
    fee = f", {counted(space[1], 'credit')}" if space[1] else ""
    return [
        Option(
            MAHIRI_MOVE,
            f"Mahiri: copy another officer's ability this turn, then act (1 eng.{fee})",
            group="Executive officer",
        )
    ]


def _mahiri(game: Game, company_id: str, move: Move) -> None:
    space = _next_space(game, company_id)
    assert space is not None
    space_id, credits = space
    place_engineers(game, company_id, space_id, 1, f"officer:{space_id}")
    game.gain(company_id, "credits", -credits, f"officer:{space_id}")
    game.push(
        {"kind": "mahiri_copy", "player": company_id},
        {"kind": "turn_after_copy", "player": company_id},
        {"kind": "mahiri_end", "player": company_id},
    )


RULES.turn_action("mahiri", _mahiri_options, _mahiri)


def _why_not_mahiri(game: Game, company_id: str) -> str:
    company = game.company(company_id)
    if company.officer != MAHIRI:
        return "only Mahiri Sekibo's company has that action space"
    space = _next_space(game, company_id)
    if space is None:
        return "both of Mahiri's action spaces are used this round"
    if company.engineers < 2:
        return "Mahiri needs 1 engineer to copy and 1 more for the action that follows"
    return f"the second use costs {counted(space[1], 'credit')}; you have {company.credits}"


RULES.reason("mahiri", _why_not_mahiri)


def _copy_options(game: Game, entry: Task) -> list[Option]:
    out = []
    for officer_id in copyable_officers(game, entry["player"]):
        officer = game.content.officers[officer_id]
        out.append(
            Option(
                Copy(officer_id),
                f"Copy {officer.name}",
                group="Executive officer",
                description=officer.summary,
            )
        )
    return out


@RULES.task(
    "mahiri_copy", options=_copy_options, prompt=lambda g, e: "Which officer's ability do you copy?"
)
def _mahiri_copy(game: Game, entry: Task, move: Copy) -> None:
    game.company(entry["player"]).extra["copied_officer"] = move.officer
    game.emit(
        "officer_copied", entry["player"], source="officer:mahiri", data={"officer": move.officer}
    )


def _after_copy_options(game: Game, entry: Task) -> list[Option]:
    return [option for option in turn_options(game, entry["player"]) if option.move != MAHIRI_MOVE]


@RULES.task(
    "turn_after_copy",
    options=_after_copy_options,
    prompt=lambda g, e: "Now take your action (with the copied ability)",
)
def _turn_after_copy(game: Game, entry: Task, move: Move) -> None:
    take_action(game, entry["player"], move)


@RULES.task("mahiri_end")
def _mahiri_end(game: Game, entry: Task) -> None:
    """The copy lasts for the rest of the turn only."""
    officer = game.company(entry["player"]).extra.pop("copied_officer", None)
    if officer:
        for ask in game.hooked(Hooks.copy_ends):
            ask(game, entry["player"], officer)
