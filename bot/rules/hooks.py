"""Hook points: where the engine asks the base game's officers and companies and the expansions.

A `Hooks` subclass overrides the hooks it needs; a rule set declares it (`RuleSet.hook`) and
every game using that rule set gets an instance in `game.hooks`, asked at these points. The
base game's officers and company boards are hooks like any expansion's (`bot.rules.officers`,
`bot.rules.companies`): the engine core names no officer and no company. An expansion's own
hooks class is an `Expansion` (a `Hooks` with a name and the position table). The base game's
hooks are asked first, then the expansions', in hook order. The engine asks a hook point
through the method itself, never its name: `for income in game.hooked(Hooks.income):
income(game, company_id, queue)` calls every hook that overrides it, and mypy checks the call
against the signature below.

| hook | called when |
|---|---|
| `setup(game, rng)` | after the base setup's draws (draw order is part of the engine version) |
| `new_company(game, company)` | a company is created (draft, introductory deal, position) |
| `load_position(game, section)` | a position is loaded: the expansion's own `[<name>]` table |
| `action_spaces(game)` | a position names where engineers stand: the ids of the expansion's own action spaces |
| `export_position(game)` | a position is exported: that table, stating all the expansion's state (per company under `company`) |
| `turn_options(game, company)` / `perform_turn_option(...)` | listing and taking a turn's actions (new action spaces) |
| `action_possible`, `perform_effect`, `apply_reward_part` | new effect and reward keys |
| `tile_builds`, `dam_capacity`, `contract_limit` | officer and tile effects that bend base rules |
| `structure_costs` | the ways to pay for a structure (Wilhelm Adler's Bases, Jill McDowell's conduits) |
| `credits_for_machinery` | credits that may replace each machinery of a cost (Solomon P. Jordan) |
| `production_energy` | a production's energy before bonuses (Viktor Fiesler's minimum) |
| `drop_flowed` | a drop flowed through basins (the USA's energy) |
| `contract_discount` | a production's contract needs less energy (France) |
| `structure_spaces` | where a structure kind may go, narrowed (e.g. no Elevation on a dam with a Bridge) |
| `after_production`, `income`, `extra_turn` | ability hooks in the flow of a round |
| `river_sources(game)` | each round, after the headstream tiles' drops are placed (extra drops) |
| `confirm_options(game, entry)` / `perform_confirm_option(...)` | free actions offered beside Confirm, after the turn's main action |
| `engineers_placed` | engineers go onto an action space (officers who care which pieces they are) |
| `contract_fulfilled` | a contract was fulfilled by a `fulfil_contract` decision |
| `copy_ends` | Mahiri Sekibo's copy of an officer ends (end of her turn's action) |
| `round_scoring`, `end_of_round`, `final_scoring`, `objective_count` | scoring steps |
| `automa_action(game, company, action, turn)` | an automa card's action the base game does not perform (External Works, buildings) |
| `automa_answer(game, decision)` | how an automa answers a decision of this expansion's |
| `redraw_hidden(game, state, rng)` | a computer player's search re-draws the face-down parts of a copy of the state (`bot.ai.determinize`) |

Everything else an expansion adds is declared in its rule set (`bot.rules.rulebook`): task
kinds, structure kinds, notation verbs, turn actions, tile effects, reward keys with their
wording. What it is (name, display name, board, combinations, setups) is data, its package's
`expansion.toml` (`bot.rules.catalogue`). See docs/expansions.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from bot.rules.content import Content, ManagementSpace
    from bot.rules.moves import Move
    from bot.rules.options import Decision, Option
    from bot.rules.prng import SplitMix64
    from bot.rules.state import Company, Dam, GameOptions, GameState
    from bot.rules.structures import Cost
    from bot.rules.tasks import Task

#: The game the hooks are asked in: the engine's `Game` (`class Mine(Hooks["Game"])`). The
#: hooks are generic in it so that this module, below the engine, never imports it.
G = TypeVar("G")


class Hooks(Generic[G]):
    """Base class: every hook does nothing, so a subclass overrides only what it needs."""

    def new_company(self, game: G, company: Company) -> None:
        """A company was just created: add the expansion's pieces, tiles and data."""

    def engineers_placed(
        self, game: G, company_id: str, space_id: str, count: int, printed: int
    ) -> None:
        """`count` engineers went onto `space_id`, which prints `printed` (0: any number)."""

    def contract_fulfilled(self, game: G, company_id: str, contract_id: int, entry: Task) -> None:
        """A `fulfil_contract` decision (`entry`) fulfilled this contract."""

    def copy_ends(self, game: G, company_id: str, officer: str) -> None:
        """Mahiri Sekibo's copy of `officer` ends (it lasted her turn's action)."""

    def setup(self, game: G, rng: SplitMix64) -> None:
        """Add the expansion's components to a new game."""

    def redraw_hidden(self, game: G, state: GameState, rng: SplitMix64) -> None:
        """Re-draw at random, in `state` (a copy of `game`'s state that a seat searches), the
        face-down parts this rule set adds, consistently with what every seat sees."""

    def turn_options(self, game: G, company_id: str) -> list[Option]:
        """Extra actions a player may take on their turn."""
        return []

    def perform_turn_option(self, game: G, company_id: str, move: Move) -> bool:
        """Perform the move of an action listed by `turn_options`; True when handled."""
        return False

    def action_possible(
        self, game: G, company_id: str, space: ManagementSpace, budget: int
    ) -> bool | None:
        """Whether a space's action can be performed; None when this expansion has no say."""
        return None

    def perform_effect(self, game: G, company_id: str, effect: Any, source: str) -> bool:
        """Perform an action-space effect the base game does not know; True when handled."""
        return False

    def apply_reward_part(
        self, game: G, company_id: str, key: str, value: Any, source: str, tasks: list[Task]
    ) -> bool:
        """Apply one reward key the base game does not know; True when handled."""
        return False

    def tile_builds(self, game: G, company_id: str, tile_id: str, builds: set[str]) -> set[str]:
        """The structure kinds a tile can build (e.g. a tile that copies another)."""
        return builds

    def dam_capacity(self, game: G, space_id: str, dam: Dam, capacity: int) -> int:
        """A dam's capacity after this hook's effects."""
        return capacity

    def structure_costs(
        self, game: G, company_id: str, kind: str, space_id: str, costs: list[Cost]
    ) -> list[Cost]:
        """The ways to pay for a structure of `kind` on `space_id` (by default those given)."""
        return costs

    def credits_for_machinery(self, game: G, company_id: str) -> int:
        """Credits that may replace each machinery of a structure's cost (0: none may)."""
        return 0

    def production_energy(self, game: G, company_id: str, energy: int) -> int:
        """A production's energy (drops × value) before the space's and the board's bonus."""
        return energy

    def structure_spaces(
        self, game: G, company_id: str, kind: str, constraint: Task, spaces: list[str]
    ) -> list[str]:
        """The spaces where this structure kind may go now (by default those given)."""
        return spaces

    def contract_limit(self, game: G, company_id: str, limit: int) -> int:
        """How many face-up contracts a company may hold."""
        return limit

    def drop_flowed(self, game: G, entered: tuple[int, ...]) -> None:
        """A drop flowed through these basins (the one it started in excluded when released
        from a dam)."""

    def contract_discount(self, game: G, company_id: str) -> int:
        """Energy a production needs less to fulfil a contract (0: none)."""
        return 0

    def after_production(self, game: G, company_id: str, entry: Task) -> None:
        """Effects that follow a production (company abilities)."""

    def income(self, game: G, company_id: str, queue: list[Task]) -> None:
        """Extra income; choices go into `queue` (asked simultaneously)."""

    def extra_turn(self, game: G, company_id: str) -> bool:
        """True when the player who just confirmed takes another turn (pushes it itself)."""
        return False

    def river_sources(self, game: G) -> None:
        """Income phase: the headstream tiles' drops are placed; add the expansion's own."""

    def confirm_options(self, game: G, entry: Task) -> list[Option]:
        """Free actions offered beside Confirm (`entry` is the confirm task of the turn)."""
        return []

    def perform_confirm_option(self, game: G, entry: Task, move: Move) -> bool:
        """Perform the move of an option of `confirm_options` (Confirm is asked again after);
        True when handled. `entry` is the turn's confirm task, already back on the stack."""
        return False

    def round_scoring(self, game: G) -> None:
        """Extra steps of the Scoring phase."""

    def end_of_round(self, game: G) -> None:
        """Extra steps of the End of Round phase (refreshing offers...)."""

    def final_scoring(self, game: G) -> None:
        """Extra end-of-game scoring (before water in dams)."""

    def objective_count(self, game: G, objective: str, company_id: str) -> int | None:
        """Count for an objective tile this expansion adds; None when not its tile."""
        return None

    def automa_action(
        self, game: G, company_id: str, action: Mapping[str, Any], turn: Any
    ) -> bool | None:
        """An automa card's action (`bot.rules.automa.turn.AutomaTurn` `turn`): None when not
        this hook's to perform, False when it cannot be done now, True once done."""
        return None

    def automa_answer(self, game: G, decision: Decision) -> Option | None:
        """The option an automa picks for a decision this hook knows; None when not its."""
        return None


class Expansion(Hooks[G]):
    """An expansion's own hooks: a `Hooks` that also states its part of a position.

    `name` is the expansion's name (its `expansion.toml`), the key of its `[<name>]` position
    table and of `state.extra`; `company_extra` the `company.extra` keys it keeps.
    """

    name = ""
    # `company.extra` keys this expansion keeps (its `export_position` states them).
    company_extra: tuple[str, ...] = ()

    def extend_content(self, content: Content) -> Content:
        """The content of a game with this expansion (new contracts, works, tiles...)."""
        return content

    def company_summary(self, state: GameState, company: str) -> str:
        """This expansion's part of a company's summary in words ("; Bridges: BR5 on D2L"),
        appended to the service's (plain text); "" when it has nothing to say."""
        return ""

    def refuse(self, options: GameOptions) -> str | None:
        """Why a game with these options cannot use this expansion, beyond what its
        `expansion.toml` declares; None when it can."""
        return None

    def load_position(self, game: G, section: Mapping[str, Any]) -> None:
        """Apply the position's `[<expansion name>]` table (after the base position is set)."""

    def action_spaces(self, game: G) -> Iterable[str]:
        """The ids of this expansion's action spaces (where `state.spaces` may hold engineers)."""
        return ()

    def export_position(self, game: G) -> dict[str, Any]:
        """The `[<expansion name>]` table stating all of this expansion's state, which
        `load_position` accepts; per-company data under `company = { <id> = {...} }`."""
        return {}
