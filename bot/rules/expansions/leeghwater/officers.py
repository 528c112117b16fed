"""The Netherlands' ability, Tommaso Battista's Architect and Simone Luciani's contracts.

(Leslie Spencer lives in `works.py`, Margot Fouché in `buildings.py`; Mahiri Sekibo copies
each of them through `has_officer_power` / `copied_officer`, RULINGS 14.)

Netherlands (RULINGS 15): once its ability is active (3rd powerhouse), after each production
it may put 1 drop from the supply into one of its own dams with room, never a neutral dam and
never the dam just used (`dam D5U` / `dam none`). Germany-like second productions do not exist
for it; productions from a tile or a Private Building count like any production.

Tommaso Battista (RULINGS 13): the Architect is one of his 12 engineers (`architect_out` in
`company.extra` while it stands on a space; it comes back at the end of the round). When he
places exactly one engineer on a space that prints exactly one (a construction space, an
action space, a Private Building's space; never the Bank) and the Architect is in his supply,
he is asked `architect yes` (it is the Architect: another turn after Confirm) or `architect
no`. Decisions of ours: the question comes after the action is performed; with several
engineers, or on the Bank, plain engineers are used first and the Architect only when no
plain engineer is left (placing it there gives nothing, so this choice is made in his favour);
his last engineer, being the Architect, gives the extra turn at once when it qualifies.
Mahiri copying Tommaso: any engineer she places alone on a one-engineer space during that
turn's action may serve as the Architect (same question). The extra turn is taken only when
the company can act.

Simone Luciani: 4 face-up contracts (officers.toml, read by the base game); one production
action may fulfil several contracts whose total requirement its energy covers (RULINGS 17):
after each contract fulfilled by a production, another is offered with the energy left.
France's −3 lowers each contract's requirement (our reading). Mahiri copying Simone: the
limit is 4 during the copied action and stays 4 afterwards, while she holds more than 3
contracts, until she fulfils one; a copied production may fulfil several contracts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from bot.rules.actions import can_act
from bot.rules.contracts import contract_discount
from bot.rules.engine import Game
from bot.rules.expansions.leeghwater.buildings import drop_task
from bot.rules.moves import Move
from bot.rules.options import Option
from bot.rules.rulebook import RuleSet
from bot.rules.state import Company
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("leeghwater.officers")

TOMMASO = "tommaso_battista"
SIMONE = "simone_luciani"
NETHERLANDS = "netherlands_refill_dam"
SIMONE_LIMIT = 4


@dataclass(frozen=True, slots=True)
class Architect(Move):
    """`architect yes`: the engineer placed was the Architect; `architect no`: a plain one."""

    verb: ClassVar[str] = "architect"
    args: ClassVar[str] = r"yes|no"
    was: bool

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        return cls(rest.lower() == "yes")

    @property
    def notation(self) -> str:
        return f"architect {'yes' if self.was else 'no'}"


RULES.move(Architect)


def new_company(game: Game, company: Company) -> None:
    """Tommaso's Architect counts among his 12 engineers (officers.toml: 11 + the Architect)."""
    start = game.content.officers[company.officer].starting_resources
    if "architect" in start and company.engineers == start.get("engineers", 12):
        company.engineers += start["architect"]


# -- Netherlands ------------------------------------------------------------------------------


def after_production(game: Game, company_id: str, entry: Task) -> None:
    """RULINGS 15: 1 drop into another own dam with room."""
    if game.content.companies[company_id].ability_key != NETHERLANDS:
        return
    if not game.ability_active(company_id):
        return
    game.push(
        drop_task(company_id, neutral=False, exclude=entry.get("dam"), source="ability:netherlands")
    )


# -- Tommaso's Architect ------------------------------------------------------------------------


def engineers_placed(game: Game, company_id: str, count: int, printed: int) -> None:
    """Whether the engineers just placed include the Architect (see the module docstring)."""
    company = game.company(company_id)
    single = count == 1 and printed == 1
    if company.officer == TOMMASO:
        if company.extra.get("architect_out"):
            return
        plain_before = company.engineers + count - 1  # the supply before, minus the Architect
        forced = count > plain_before
        if forced:
            company.extra["architect_out"] = True
            if single:
                grant_extra_turn(game, company_id)
        elif single:
            game.push({"kind": "architect", "player": company_id})
    elif company.extra.get("copied_officer") == TOMMASO and single:
        game.push({"kind": "architect", "player": company_id})


def grant_extra_turn(game: Game, company_id: str) -> None:
    """The Architect's turn: taken after this turn's Confirm."""
    game.company(company_id).extra["extra_turn"] = True
    game.emit("architect", company_id, source="officer:tommaso_battista")


def _architect_options(game: Game, entry: Task) -> list[Option]:
    return [
        Option(Architect(True), "It was the Architect: take another turn", group="officer"),
        Option(Architect(False), "It was a plain engineer", group="officer"),
    ]


@RULES.task(
    "architect",
    options=_architect_options,
    prompt=lambda g, e: "Was the engineer you placed the Architect?",
)
def _architect(game: Game, entry: Task, move: Architect) -> None:
    if not move.was:
        return
    company = game.company(entry["player"])
    if company.officer == TOMMASO:
        company.extra["architect_out"] = True
    grant_extra_turn(game, entry["player"])


def extra_turn(game: Game, company_id: str | None) -> bool:
    """After Confirm: the Architect's extra turn, when the company can still act."""
    if company_id is None or not game.company(company_id).extra.pop("extra_turn", False):
        return False
    if not can_act(game, company_id):
        return False
    game.state.current = company_id
    game.push({"kind": "turn", "player": company_id})
    return True


def end_of_round(game: Game) -> None:
    """The Architect comes back with the other engineers."""
    for company_id in game.state.seats:
        game.company(company_id).extra.pop("architect_out", None)


# -- Simone Luciani -----------------------------------------------------------------------------


def contract_limit(game: Game, company_id: str, limit: int) -> int:
    """Mahiri's copy of Simone: 4 during the copy, and after it until a contract is fulfilled."""
    company = game.company(company_id)
    if company.extra.get("copied_officer") == SIMONE:
        return max(limit, SIMONE_LIMIT)
    if company.extra.get("simone_until") == len(company.fulfilled):
        return max(limit, SIMONE_LIMIT)
    return limit


def copy_ends(game: Game, company_id: str, officer: str) -> None:
    """Keep Mahiri's 4th contract until she fulfils one."""
    company = game.company(company_id)
    if officer == SIMONE and len(company.contracts) > 3:
        company.extra["simone_until"] = len(company.fulfilled)


def contract_fulfilled(game: Game, company_id: str, contract_id: int, entry: Task) -> None:
    """Simone: a production's energy left over may fulfil another contract."""
    if not entry.get("production") or not game.has_officer_power(company_id, SIMONE):
        return
    discount = contract_discount(game, company_id)
    need = max(0, game.content.contracts[contract_id].energy - discount)
    game.push({**entry, "energy": entry["energy"] - need})
