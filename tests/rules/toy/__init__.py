"""A toy expansion, for tests only: proves the hook points without editing a base module.

A package like any expansion (`expansion.toml` and `RULES`); tests find it through
`TOY_CATALOGUE`, the product's expansions plus this package.

It adds an action space (the Statue Yard: 1 engineer and 1 credit), a structure kind (a
statue on a basin's statue spot `S<basin>`, built free from the yard) and a scoring step
(1 VP per statue in every Scoring phase).
"""

from __future__ import annotations

from bot.rules.catalogue import ROOT, Catalogue
from bot.rules.construction import Cost, StructureKind
from bot.rules.engine import Game
from bot.rules.hooks import Expansion
from bot.rules.options import Option
from bot.rules.rulebook import RuleSet

RULES = RuleSet("toy")

YARD = "toy_statue_yard"


def _statue_spaces(game: Game, company_id: str, constraint: dict) -> list[str]:
    taken = game.state.extra.get("statues", {})
    return [f"S{basin}" for basin in game.map.basins if f"S{basin}" not in taken]


def _place_statue(game: Game, company_id: str, space: str) -> None:
    game.state.extra.setdefault("statues", {})[space] = company_id


RULES.structure(
    StructureKind(
        "statue",
        _statue_spaces,
        lambda game, company_id, space: [Cost("excavators", 1, 0)],
        _place_statue,
        lambda game: 2,
        expansion="toy",
    )
)
RULES.verb("statue", r"S\d+|none")


@RULES.hook
class ToyExpansion(Expansion):
    """Statues: an action space, a structure kind and a scoring step."""

    name = "toy"

    def turn_options(self, game: Game, company_id: str) -> list[Option]:
        company = game.company(company_id)
        if game.state.spaces.get(YARD) or company.engineers < 1 or company.credits < 1:
            return []
        if company.placed.get("statue", 0) >= 2:
            return []
        return [Option(YARD, "Statue Yard: build a statue (1 eng., 1 credit)", group="Toy")]

    def perform_turn_option(self, game: Game, company_id: str, option: Option) -> bool:
        if option.notation != YARD:
            return False
        game.gain(company_id, "engineers", -1, f"space:{YARD}")
        game.state.spaces.setdefault(YARD, []).append([company_id, 1])
        game.gain(company_id, "credits", -1, f"space:{YARD}")
        game.push(
            {"kind": "reward_build", "player": company_id, "structure": "statue", "source": YARD}
        )
        return True

    def round_scoring(self, game: Game) -> None:
        for space, owner in sorted(game.state.extra.get("statues", {}).items()):
            game.gain(owner, "vp", 1, f"toy:statue:{space}")


#: The product's expansions and the toy (a test's catalogue; the product's knows no toy).
TOY_CATALOGUE = Catalogue(roots=(ROOT,), packages=(__name__,))
