"""The base game's company boards' special abilities, active from the 3rd powerhouse built.

Each is a hook like any expansion's (`bot.rules.hooks`): the USA's energy when a drop flows
past its powerhouses (`drop_flowed`), Italy's 3 energy and Germany's second production after a
production (`after_production`), France's 3 energy less for a production's contract
(`contract_discount`, RULINGS 10).
"""

from __future__ import annotations

from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.rulebook import RuleSet
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("companies")
ITALY_ENERGY = 3
FRANCE_DISCOUNT = 3


def has_ability(game: Game, company_id: str, ability: str) -> bool:
    """True when the company's board has this ability and it is unlocked."""
    return game.content.companies[company_id].ability_key == ability and game.ability_active(
        company_id
    )


@RULES.hook
class UnitedStates(Hooks["Game"]):
    """1 energy for each basin a drop enters that holds one of the USA's powerhouses."""

    def drop_flowed(self, game: Game, entered: tuple[int, ...]) -> None:
        for company_id in game.state.turn_order:
            if not has_ability(game, company_id, "usa_flow_energy"):
                continue
            for basin in entered:
                spaces = game.map.basins[basin].powerhouse_spaces
                if any(game.state.powerhouses.get(space) == company_id for space in spaces):
                    game.add_energy(company_id, 1, "ability:usa")


@RULES.hook
class Italy(Hooks["Game"]):
    """3 energy after each production (they never count toward that production's contract)."""

    def after_production(self, game: Game, company_id: str, entry: Task) -> None:
        if has_ability(game, company_id, "italy_plus3_energy"):
            game.add_energy(company_id, ITALY_ENERGY, "ability:italy")


@RULES.hook
class Germany(Hooks["Game"]):
    """A second production after the first, with another powerhouse and no bonus."""

    def after_production(self, game: Game, company_id: str, entry: Task) -> None:
        if entry["second"] or not has_ability(game, company_id, "germany_second_production"):
            return
        game.push(
            {
                "kind": "produce",
                "player": company_id,
                "second": True,
                "bonus": 0,
                "exclude": entry["powerhouse"],
                "source": "ability:germany",
            }
        )


@RULES.hook
class France(Hooks["Game"]):
    """A contract needs 3 energy less when fulfilled by a production (RULINGS 10)."""

    def contract_discount(self, game: Game, company_id: str) -> int:
        return FRANCE_DISCOUNT if has_ability(game, company_id, "france_contract_minus3") else 0
