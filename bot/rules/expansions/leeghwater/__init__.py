"""The Leeghwater Project (`GameOptions(setup="full", expansions=("leeghwater",))`).

Everything comes through the engine's hook points (`bot.rules.hooks`); the base game knows
none of it. Modules: `board` (setup, the Extra Management board's state, round refresh, end
scoring, the position table), `works` (External Works, Leslie Spencer, the Loan Agency),
`buildings` (the "building" structure kind, its tiles, the ten Private Buildings' actions,
Margot Fouché), `officers` (the Netherlands, Tommaso Battista, Simone Luciani), `automa`
(how automa companies take External Works and build Buildings).

Setup (rulebook "General Setup", "Choosing the Companies"): the expansion's content set adds
the Netherlands board, the four officers (drafted with the base ones; Mahiri's spares come
from the same pile), the two bonus tiles (drawn with the six base ones) and the three
advanced tiles to the base setup's pools; `board.setup_board` documents its own draws. Every
company gets the basic Building tile and five Building pieces. Not with the introductory
setup (rulebook "Introduction"): refused with a SetupError.

Notation (see each module): `external_work_1`..`_3`, `work discard|wheel`, `loan A3`,
`building cofferdam_0`, `use cofferdam` / `use none`, `margot cofferdam`, `margot_bank
cofferdam`, `dam D5U` / `dam none`, `retrieve adv_1_base`, `segment 2 1e1m`, `architect
yes|no`.

Decisions where the texts are silent (besides those in the modules' docstrings):
- RULINGS 24: at 2 and at 3 players the building space marked for 4 players (index 1 beside
  every tile, the reference's data) is blocked; nothing else is blocked at 2 players, because
  the "3+" marks are not in our data.
- The External Works piles run out after 15 tiles; an empty slot is then left empty.
- The three External Works spaces each take one company per round (the tile is taken).
- The bonus tile "external_works" counts every External Work completed, Loan Agency ones
  included; "buildings" counts the Private Buildings activated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.catalogue import CATALOGUE
from bot.rules.engine import Game
from bot.rules.expansions.leeghwater import automa, board, buildings, officers, works
from bot.rules.expansions.leeghwater.tables import BUILDINGS, TABLES, WORK_SPACES
from bot.rules.hooks import Expansion
from bot.rules.moves import Move, Space
from bot.rules.options import Option
from bot.rules.prng import SplitMix64
from bot.rules.rulebook import RuleSet
from bot.rules.state import Company, GameState
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("leeghwater")
RULES.include(works.RULES, buildings.RULES, officers.RULES, board.RULES)
for _table in TABLES:
    RULES.table(_table)


@RULES.hook
class Leeghwater(Expansion["Game"]):
    """The Leeghwater Project."""

    name = board.KEY
    company_extra = board.COMPANY_EXTRA

    def automa_action(
        self, game: Game, company_id: str, action: Mapping[str, Any], turn: Any
    ) -> bool | None:
        """External Works and Buildings for automa companies (`automa`)."""
        return automa.automa_action(game, action, turn)

    def company_summary(self, state: GameState, company: str) -> str:
        """The Leeghwater Project's part: Private Buildings activated and External Works done."""
        table = state.extra.get(self.name)
        if not isinstance(table, dict):
            return ""
        buildings = BUILDINGS.of(CATALOGUE.content())
        mine = [
            buildings[tile].name if tile in buildings else tile
            for tile, who in table.get("building_spaces", {}).items()
            if company in who
        ]
        works = state.companies[company].extra.get("external_works", [])
        return (
            f"; Private Buildings: {', '.join(mine) or 'none'}; "
            f"External Works: {', '.join(works) or 'none'}"
        )

    def setup(self, game: Game, rng: SplitMix64) -> None:
        board.setup_board(game, rng)

    def redraw_hidden(self, game: Game, state: GameState, rng: SplitMix64) -> None:
        board.redraw_hidden(game, state, self.name, rng)

    def new_company(self, game: Game, company: Company) -> None:
        board.new_company(game, company)
        officers.new_company(game, company)

    def load_position(self, game: Game, section: Mapping[str, Any]) -> None:
        board.load_position(game, section)

    def export_position(self, game: Game) -> dict[str, Any]:
        return board.export_position(game)

    def action_spaces(self, game: Game) -> list[str]:
        return [
            *(space.id for space in WORK_SPACES.of(game.content).values()),
            *(f"building_{tile}" for tile in board.lw(game)["buildings"]),
            buildings.MARGOT_SPACE,
        ]

    def turn_options(self, game: Game, company_id: str) -> list[Option]:
        return works.work_options(game, company_id) + buildings.action_options(game, company_id)

    def perform_turn_option(self, game: Game, company_id: str, move: Move) -> bool:
        if isinstance(move, Space):
            return works.perform_work(game, company_id, move.space)
        if isinstance(move, buildings.BuildingAction):
            buildings.perform_action(game, company_id, move)
            return True
        return False

    def engineers_placed(
        self, game: Game, company_id: str, space_id: str, count: int, printed: int
    ) -> None:
        officers.engineers_placed(game, company_id, count, printed)

    def contract_limit(self, game: Game, company_id: str, limit: int) -> int:
        return officers.contract_limit(game, company_id, limit)

    def contract_fulfilled(
        self, game: Game, company_id: str, contract_id: int, entry: Task
    ) -> None:
        officers.contract_fulfilled(game, company_id, contract_id, entry)

    def copy_ends(self, game: Game, company_id: str, officer: str) -> None:
        officers.copy_ends(game, company_id, officer)

    def after_production(self, game: Game, company_id: str, entry: Task) -> None:
        officers.after_production(game, company_id, entry)

    def extra_turn(self, game: Game, company_id: str) -> bool:
        return officers.extra_turn(game, company_id)

    def end_of_round(self, game: Game) -> None:
        board.refresh_works(game)
        officers.end_of_round(game)

    def final_scoring(self, game: Game) -> None:
        board.final_scoring(game)


def _work_reason(slot: int) -> Callable[[Game, str], str]:
    def reason(game: Game, company_id: str) -> str:
        work = game.state.extra[board.KEY]["works"][slot - 1]
        if work is None:
            return f"the External Work of slot {slot} is taken this round"
        return (
            f"External Work {works.work_text(game, work)} needs 2 engineers and its "
            "machineries in your supply (the wheel's do not count)"
        )

    return reason


for _slot in (1, 2, 3):
    RULES.reason(f"external_work_{_slot}", _work_reason(_slot))
RULES.reason(
    "use",
    lambda game, company_id: (
        "you may use only a Private Building you have activated, once per round, when its "
        "space's engineers and credits and its action can all be had"
    ),
)
RULES.reason(
    "margot",
    lambda game, company_id: (
        "Margot Fouché's space (1 engineer, once per round) runs the action of a Private "
        "Building you activated, when that action can be performed"
    ),
)
RULES.reason(
    "margot_bank",
    lambda game, company_id: "only Mahiri Sekibo copying Margot Fouché may do this",
)
