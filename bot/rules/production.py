"""Production (rulebook "Turbine Station"): dam → conduit → own powerhouse, energy, contracts.

A production uses a dam holding water (own or neutral), a built conduit of any owner leaving
that dam's basin, and the producer's own powerhouse at the conduit's end. A company has at most
one powerhouse per basin, so the dam and conduit fix the powerhouse; the notation is
`produce D1L C1L 2` (two drops from D1L through C1L).

After a production, in this order (RULINGS 3): energy; the released drops flow from the
powerhouse's basin (RULINGS 1); the conduit's owner is paid; at most one contract; then the
company ability (Italy's +3, Germany's second production).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.content import company_name
from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.notation import Produce
from bot.rules.options import Option, counted
from bot.rules.rulebook import RuleSet
from bot.rules.state import NEUTRAL
from bot.rules.tasks import Task
from bot.rules.water import flow_one_drop

RULES: RuleSet[Game] = RuleSet("production")

VIKTOR_MINIMUM = 4


@dataclass(frozen=True, slots=True)
class System:
    """A dam, a conduit from its basin, and the producer's powerhouse at the conduit's end."""

    dam: str
    conduit: str
    powerhouse: str


def company_bonus(game: Game, company_id: str) -> int:
    """The permanent production bonus from the powerhouse row (+1 after 2, +3 after 4); none
    for an Easy automa."""
    if not game.automa_has(company_id, "incomes_from"):
        return 0
    built = game.company(company_id).placed["powerhouse"]
    return sum(
        value
        for after, value in game.content.common.powerhouse_bonus_after.items()
        if built >= after
    )


def systems(game: Game, company_id: str, *, exclude_powerhouse: str | None = None) -> list[System]:
    """Every production system the company can use now."""
    out = []
    state = game.state
    for dam_space, dam in state.dams.items():
        if dam.water < 1 or dam.owner not in (company_id, NEUTRAL):
            continue
        basin = game.map.basins[game.map.dam_spaces[dam_space].basin]
        for conduit_space in basin.conduit_spaces:
            if conduit_space not in state.conduits:
                continue
            conduit = game.map.conduit_spaces[conduit_space]
            for powerhouse in conduit.connects_powerhouse_spaces:
                if (
                    state.powerhouses.get(powerhouse) == company_id
                    and powerhouse != exclude_powerhouse
                ):
                    out.append(System(dam_space, conduit_space, powerhouse))
    return out


def production_energy(
    game: Game, company_id: str, conduit: str, drops: int, bonus: int, *, second: bool
) -> int:
    """Energy of one production: drops × value (Viktor: at least 4), + space and board bonus.

    RULINGS 8: this is also the energy that counts for a contract. RULINGS 9: Germany's second
    production applies neither the space's bonus nor the board's. Viktor's minimum is not a
    bonus, so it applies to Germany's second production too (the rulebook says only that no
    bonus or malus applies; the reference notes BGA differs).
    """
    energy = drops * game.map.conduit_spaces[conduit].production
    for bend in game.hooked(Hooks.production_energy):
        energy = bend(game, company_id, energy)
    if not second:
        energy += bonus + company_bonus(game, company_id)
    return energy


def _production_options(game: Game, entry: Task) -> list[Option]:
    company_id = entry["player"]
    second = entry.get("second", False)
    bonus = entry.get("bonus", 0)
    credits = entry.get("budget", game.budget(company_id))
    options = []
    for system in systems(game, company_id, exclude_powerhouse=entry.get("exclude")):
        owner = game.state.conduits[system.conduit]
        water = game.state.dams[system.dam].water
        for drops in range(1, water + 1):
            if owner != company_id and drops > credits:
                break  # 1 credit per drop to the conduit's owner
            energy = production_energy(
                game, company_id, system.conduit, drops, bonus, second=second
            )
            if energy < 1:
                continue
            fee = (
                f", pay {company_name(owner)} {counted(drops, 'credit')}"
                if owner != company_id
                else ""
            )
            label = (
                f"{counted(drops, 'drop')} {system.dam}→{system.conduit}→"
                f"{system.powerhouse}: {energy} energy{fee}"
            )
            options.append(
                Option(
                    Produce(system.dam, system.conduit, drops, system.powerhouse, energy),
                    label,
                    group="production",
                )
            )
    if second and options:
        options.append(Option(Produce(None), "No second production", group="production"))
    elif entry.get("optional") and options:
        options.append(Option(Produce(None), "Do not produce", group="production"))
    return options


def can_produce(game: Game, company_id: str, bonus: int, budget: int) -> bool:
    """True when a production with this bonus/malus would yield at least 1 energy."""
    entry: Task = {"kind": "produce", "player": company_id, "bonus": bonus, "budget": budget}
    return bool(_production_options(game, entry))


def _production_prompt(game: Game, entry: Task) -> str:
    if entry.get("second"):
        return "Germany: a second production with another powerhouse (no bonus)?"
    bonus = entry.get("bonus", 0)
    return f"Produce energy (action bonus {bonus:+d})"


def release_production(
    game: Game, company_id: str, system: System, drops: int, energy: int, source: str
) -> None:
    """A production's effects: the drops leave the dam for `energy`, flow on from the
    powerhouse, and a conduit of another company earns its owner the fee and the VP."""
    game.state.dams[system.dam].water -= drops
    game.add_energy(company_id, energy, source)
    game.emit(
        "production",
        company_id,
        energy,
        source,
        data={
            "dam": system.dam,
            "conduit": system.conduit,
            "powerhouse": system.powerhouse,
            "drops": drops,
        },
    )
    basin = game.map.powerhouse_spaces[system.powerhouse].basin
    for _ in range(drops):
        flow_one_drop(game, basin, "released", released=True)
    owner = game.state.conduits[system.conduit]
    if owner != company_id:
        game.gain(company_id, "credits", -drops, f"conduit-fee:{system.conduit}")
        game.gain(owner, "credits", drops, f"conduit-fee:{system.conduit}")
        game.gain(owner, "vp", drops, f"conduit-use:{system.conduit}")


@RULES.task("produce", options=_production_options, prompt=_production_prompt)
def _produce(game: Game, entry: Task, move: Produce) -> None:
    if move.dam is None:
        return  # declined Germany's second production
    company_id = entry["player"]
    energy = move.energy
    source = "production:second" if entry.get("second") else f"production:{entry.get('source', '')}"
    release_production(
        game,
        company_id,
        System(move.dam, move.conduit, move.powerhouse),
        move.drops,
        energy,
        source,
    )
    game.push(
        {
            "kind": "fulfil_contract",
            "player": company_id,
            "energy": energy,
            "production": True,
            "national": True,
            "source": source,
        },
        {
            "kind": "after_production",
            "player": company_id,
            "second": entry.get("second", False),
            "powerhouse": move.powerhouse,
            "dam": move.dam,
        },
    )


@RULES.task("after_production")
def _after_production(game: Game, entry: Task) -> None:
    """The company abilities that follow a production (active from the 3rd powerhouse)."""
    company_id = entry["player"]
    for ask in game.hooked(Hooks.after_production):
        ask(game, company_id, entry)
