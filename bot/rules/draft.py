"""The full game's player setup (rulebook "Full Game Player Setup"): the draft.

At setup the engine draws, in this order: as many company boards as players, as many
executive officers (paired with the boards in drawn order), as many starting contracts, the
first player to pick (a seat), and — for Mahiri Sekibo at 2 or 3 players — the spare officers
(the next officers of the shuffled pile, so that with the other companies' officers three are
on offer; RULINGS 14, reference officers.toml).

Then, from the first picker clockwise (seat order), each player picks a company/officer pair
(`pick usa`) and then a starting contract (`start 3`); the last picker's choices are forced and
applied automatically. Turn order is the reverse of picking order. Before a player has picked,
decisions name them by seat: `seat0`, `seat1`, ... (0-based, the order players sat down).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.rules.automa.seats import make_automa, seat_level
from bot.rules.content import Content
from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.moves import ID, Single
from bot.rules.options import Option
from bot.rules.prng import SplitMix64
from bot.rules.rewards import describe_reward
from bot.rules.rulebook import RuleSet
from bot.rules.state import Company, GameState
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("draft")

MAHIRI = "mahiri_sekibo"
MAHIRI_CHOICES = 3  # officers Mahiri can copy (RULINGS 14)
TILES = ("basic_base", "basic_elevation", "basic_conduit", "basic_powerhouse")


@dataclass(frozen=True, slots=True)
class Pick(Single):
    """`pick usa`: the company/officer pair of that company board."""

    verb: ClassVar[str] = "pick"
    args: ClassVar[str] = ID
    company: str
    # The officer paired with it (not written: the draft's pairs say it).
    officer: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Start(Single):
    """`start 3`: the starting contract of that id."""

    verb: ClassVar[str] = "start"
    args: ClassVar[str] = r"\d+"
    contract: int


RULES.move(Pick)
RULES.move(Start)


def seat_player(seat: int) -> str:
    """How a decision names a seat whose company is not yet chosen."""
    return f"seat{seat}"


def deal_draft(
    state: GameState, content: Content, rng: SplitMix64, sets: tuple[str, ...] = ("base",)
) -> None:
    """Draw boards, officers, starting contracts, the first picker and Mahiri's spares.

    `sets`: the content sets in play (an expansion's boards and officers join the pools).
    """
    players = state.options.players
    boards = [company.id for company in content.companies.values() if company.set in sets]
    rng.shuffle(boards)
    officers = [
        officer.id
        for officer in content.officers.values()
        if officer.set in sets and officer.implemented != "never"
    ]
    rng.shuffle(officers)
    starting = [c.id for c in content.contracts_of_kind("starting") if c.set == "base"]
    rng.shuffle(starting)
    first = rng.below(players)
    state.extra["draft"] = {
        "pairs": [
            [board, officer] for board, officer in zip(boards, officers[:players], strict=False)
        ],
        "starting": starting[:players],
        "order": [(first + offset) % players for offset in range(players)],
        "picks": [],
    }
    # Spare officers: what follows the dealt ones in the shuffled pile (none at 4 players).
    spares = max(0, MAHIRI_CHOICES - (players - 1))
    state.extra["spare_officers"] = officers[players : players + spares]
    state.phase = "draft"


def start_draft(game: Game) -> None:
    """Schedule the first pick (on top of the first round's start)."""
    order = game.state.extra["draft"]["order"]
    game.push({"kind": "draft_pick", "player": seat_player(order[0]), "seat": order[0]})


def _pick_options(game: Game, entry: Task) -> list[Option]:
    out = []
    for board, officer in game.state.extra["draft"]["pairs"]:
        company = game.content.companies[board]
        label = f"{company.name} with {game.content.officers[officer].name}"
        out.append(
            Option(
                Pick(board, officer),
                label,
                group="draft",
                description=game.content.officers[officer].summary,
            )
        )
    return out


@RULES.task(
    "draft_pick",
    options=_pick_options,
    prompt=lambda g, e: "Choose your company and executive officer",
)
def _draft_pick(game: Game, entry: Task, move: Pick) -> None:
    draft = game.state.extra["draft"]
    pair = [move.company, move.officer]
    draft["pairs"].remove(pair)
    game.emit("draft_pick", entry["player"], data={"company": pair[0], "officer": pair[1]})
    if game.automa_level(entry["player"]) is not None:
        _picked(game, entry["seat"], pair, None)  # an automa plays without a starting contract
        return
    game.push(
        {"kind": "draft_start", "player": entry["player"], "seat": entry["seat"], "pair": pair}
    )


def _start_options(game: Game, entry: Task) -> list[Option]:
    out = []
    for contract_id in game.state.extra["draft"]["starting"]:
        contract = game.content.contracts[contract_id]
        out.append(
            Option(
                Start(contract_id),
                f"Starting contract {contract_id} ({contract.energy} energy): "
                + describe_reward(contract.reward, game.content),
                group="draft",
            )
        )
    return out


@RULES.task(
    "draft_start", options=_start_options, prompt=lambda g, e: "Choose your starting contract"
)
def _draft_start(game: Game, entry: Task, move: Start) -> None:
    state = game.state
    draft = state.extra["draft"]
    contract_id = move.contract
    draft["starting"].remove(contract_id)
    game.emit("draft_start", entry["player"], data={"contract": contract_id})
    _picked(game, entry["seat"], entry["pair"], contract_id)


def _picked(game: Game, seat: int, pair: list[str], contract_id: int | None) -> None:
    """Record a seat's pick; the next picker's turn, or the companies once all have picked."""
    state = game.state
    draft = state.extra["draft"]
    draft["picks"].append([seat, *pair, contract_id])
    if len(draft["picks"]) < len(draft["order"]):
        seat = draft["order"][len(draft["picks"])]
        game.push({"kind": "draft_pick", "player": seat_player(seat), "seat": seat})
        return
    seat_companies(game, draft["picks"])


def seat_companies(game: Game, picks: list[list[Any]]) -> None:
    """Create the companies picked; turn order is the reverse of picking order."""
    state = game.state
    content = game.content
    companies = {}
    for seat, board, officer_id, contract_id in picks:
        officer = content.officers[officer_id]
        start = officer.starting_resources
        company = Company(
            id=board,
            seat=seat,
            officer=officer_id,
            credits=start.get("credits", 6),
            excavators=start.get("excavators", 6),
            mixers=start.get("mixers", 4),
            engineers=start.get("engineers", 12),
            vp=content.common.starting_vp,
            # The full game has no wild basic tile (rulebook "Full Game Player Setup").
            tiles=[*TILES, *officer.special_tiles],
            contracts=[] if contract_id is None else [contract_id],
        )
        level = seat_level(state.options, seat)
        if level is not None:
            make_automa(
                company, level, dict(content.common.starting_resources), officer.special_tiles
            )
        companies[seat] = company
        for ask in game.hooked(Hooks.new_company):
            ask(game, company)
    state.companies = {companies[seat].id: companies[seat] for seat in sorted(companies)}
    state.seats = list(state.companies)
    state.turn_order = [board for _seat, board, _officer, _contract in reversed(picks)]
    state.phase = "income"
    game.emit("turn_order", data={"order": list(state.turn_order)})
