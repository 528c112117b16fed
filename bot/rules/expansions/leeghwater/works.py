"""External Works (rulebook "External Works"), Leslie Spencer's wheel and the Loan Agency.

`external_work_2` places 2 engineers on the space of the second face-up tile; then `work
discard` pays its machineries from the personal supply to the general supply (never from the
wheel), or — Leslie Spencer with her tile in her supply, or Mahiri copying her — `work wheel`
puts them (and Leslie's tile) in the open segment and turns the wheel one segment (RULINGS 20:
what comes back returns before the reward). The tile goes face down to the company's supply
and its reward is taken at once; special rewards are the base game's reward tasks (RULINGS 26:
no engineers, tile or machinery; 3 credits on a red Base or Powerhouse space; RULINGS 28: they
may be declined). A space is offered only when its machineries are in the supply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from bot.rules.actions import place_engineers
from bot.rules.construction import load_wheel
from bot.rules.engine import Game
from bot.rules.expansions.leeghwater.board import LeeghwaterTask, lw
from bot.rules.expansions.leeghwater.tables import WORK_SPACES, WORKS
from bot.rules.moves import Single, Space
from bot.rules.options import Option, machinery_text
from bot.rules.rewards import apply_reward, describe_reward, rotate_wheel
from bot.rules.rulebook import RuleSet

RULES: RuleSet[Game] = RuleSet("leeghwater.works")

LESLIE = "leslie_spencer"
LESLIE_TILE = "leslie_tile"


@dataclass(frozen=True, slots=True)
class WorkPayment(Single):
    """`work discard`: the External Work's machineries go to the supply; `work wheel` puts
    them on the wheel (Leslie Spencer)."""

    verb: ClassVar[str] = "work"
    args: ClassVar[str] = r"discard|wheel"
    how: str


@dataclass(frozen=True, slots=True)
class Loan(Single):
    """`loan A1`: the Loan Agency completes that External Work for credits."""

    verb: ClassVar[str] = "loan"
    args: ClassVar[str] = r"[A-Ca-c]\d"
    work: str
    # Its slot and price when offered (not written: the listing worked them out).
    slot: int = field(default=0, compare=False)
    price: int = field(default=0, compare=False)


WHEEL = WorkPayment("wheel")
RULES.move(WorkPayment)
RULES.move(Loan)


def work_cost(game: Game, work_id: str) -> tuple[int, int]:
    """(excavators, mixers) shown on an External Work tile."""
    cost = WORKS.of(game.content)[work_id].cost
    return cost.get("excavators", 0), cost.get("mixers", 0)


def work_text(game: Game, work_id: str) -> str:
    """E.g. 'A3: 2 mixers → 4 VP, free base in plain'."""
    excavators, mixers = work_cost(game, work_id)
    reward = describe_reward(WORKS.of(game.content)[work_id].reward, game.content)
    return f"{work_id}: {machinery_text(excavators, mixers)} → {reward}"


def work_options(game: Game, company_id: str) -> list[Option]:
    """The External Work spaces the company can use now."""
    company = game.company(company_id)
    out = []
    for space in WORK_SPACES.of(game.content).values():
        work = lw(game)["works"][space.tile_slot - 1]
        if work is None or game.state.spaces.get(space.id) or company.engineers < space.engineers:
            continue
        excavators, mixers = work_cost(game, work)
        if company.excavators < excavators or company.mixers < mixers:
            continue
        out.append(
            Option(
                Space(space.id),
                f"External Work {work_text(game, work)} ({space.engineers} eng.)",
                group="External Works",
            )
        )
    return out


def perform_work(game: Game, company_id: str, space_id: str) -> bool:
    """Place the engineers on this External Work space (payment follows); False when it is no
    External Work's space."""
    space = next((s for s in WORK_SPACES.of(game.content).values() if s.id == space_id), None)
    if space is None:
        return False
    slot = space.tile_slot
    place_engineers(game, company_id, space.id, space.engineers, f"space:{space.id}")
    game.push(LeeghwaterTask(kind="work_payment", player=company_id, slot=slot))
    return True


def can_use_wheel(game: Game, company_id: str) -> bool:
    """Leslie with her tile in the supply, or Mahiri copying Leslie (no tile needed)."""
    company = game.company(company_id)
    if company.officer == LESLIE:
        return LESLIE_TILE in company.tiles
    return company.extra.get("copied_officer") == LESLIE


def _payment_options(game: Game, entry: LeeghwaterTask) -> list[Option]:
    work = lw(game)["works"][entry["slot"] - 1]
    excavators, mixers = work_cost(game, work)
    what = machinery_text(excavators, mixers)
    out = [
        Option(
            WorkPayment("discard"), f"Discard {what} to the general supply", group="External Works"
        )
    ]
    if can_use_wheel(game, entry["player"]):
        tile = " with Leslie's tile" if game.company(entry["player"]).officer == LESLIE else ""
        out.append(
            Option(
                WHEEL,
                f"Put {what}{tile} on your wheel and turn it 1 (Leslie Spencer)",
                group="External Works",
            )
        )
    return out


@RULES.task(
    "work_payment",
    options=_payment_options,
    prompt=lambda g, e: "How do you give the External Work's machineries?",
)
def _work_payment(game: Game, entry: LeeghwaterTask, move: WorkPayment) -> None:
    company_id = entry["player"]
    company = game.company(company_id)
    work = lw(game)["works"][entry["slot"] - 1]
    excavators, mixers = work_cost(game, work)
    source = f"external_work:{work}"
    if move == WHEEL:
        tile = LESLIE_TILE if company.officer == LESLIE else None
        load_wheel(game, company_id, tile, excavators, mixers, source)
        rotate_wheel(game, company_id, 1, "officer:leslie_spencer")
    else:
        game.gain(company_id, "excavators", -excavators, source)
        game.gain(company_id, "mixers", -mixers, source)
    complete_work(game, company_id, entry["slot"], source)


def complete_work(game: Game, company_id: str, slot: int, source: str) -> None:
    """Take the tile of `slot` face down into the supply and apply its reward."""
    board = lw(game)
    work = board["works"][slot - 1]
    board["works"][slot - 1] = None
    game.company(company_id).extra.setdefault("external_works", []).append(work)
    game.emit("external_work", company_id, source=source, data={"work": work, "slot": slot})
    apply_reward(game, company_id, WORKS.of(game.content)[work].reward, source)


# -- the Loan Agency's action ------------------------------------------------------------------


def loan_price(game: Game, work_id: str, per: int) -> int:
    """Credits the Loan Agency asks for an External Work: `per` per machinery shown."""
    return per * sum(work_cost(game, work_id))


def loan_possible(game: Game, budget: int, per: int) -> bool:
    """True when a face-up External Work can be paid with `budget` credits."""
    return any(w and loan_price(game, w, per) <= budget for w in lw(game)["works"])


def _loan_options(game: Game, entry: LeeghwaterTask) -> list[Option]:
    credits = game.company(entry["player"]).credits
    out = []
    for slot, work in enumerate(lw(game)["works"], start=1):
        if work is None:
            continue
        price = loan_price(game, work, entry["per"])
        if price > credits:
            continue
        reward = describe_reward(WORKS.of(game.content)[work].reward, game.content)
        out.append(
            Option(
                Loan(work, slot, price),
                f"Complete {work} for {price} credits → {reward}",
                group="External Works",
            )
        )
    return out


@RULES.task(
    "loan_work",
    options=_loan_options,
    prompt=lambda g, e: "Loan Agency: which External Work do you complete with credits?",
)
def _loan_work(game: Game, entry: LeeghwaterTask, move: Loan) -> None:
    source = "building:loan_agency"
    game.gain(entry["player"], "credits", -move.price, source)
    complete_work(game, entry["player"], move.slot, source)
