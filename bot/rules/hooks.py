"""Hook points for expansions. The base game calls these; it never knows an expansion's details.

An expansion is a subclass of `Expansion` registered under a name with `register_expansion`;
a game created with that name in `GameOptions.expansions` gets an instance in `Game.expansions`
and the engine calls its hooks at these points:

| hook | called when |
|---|---|
| `content_sets` (class attribute) | the base setup's pools (company boards, officers, bonus, objective and advanced tiles, contracts) also draw the content of these sets; a map whose `set` is one of them may be played |
| `setup_after` (class attribute) | other expansions whose hooks (setup first) run before this one's when both are used |
| `extend_content(content)` (classmethod) | the game's content gains the expansion's tables (contracts, works, tiles); `game_content` |
| `refuse(options)` | checking a new game's options: a reason to refuse them, or None |
| `setup(game, rng)` | after the base setup's draws (draw order is part of the engine version) |
| `new_company(game, company)` | a company is created (draft, introductory deal, position) |
| `load_position(game, section)` | a position is loaded: the expansion's own `[<name>]` table |
| `action_spaces(game)` | a position names where engineers stand: the ids of the expansion's own action spaces |
| `export_position(game)` | a position is exported: that table, stating all the expansion's state (per company under `company`) |
| `turn_options(game, company)` / `perform_turn_option(...)` | listing and taking a turn's actions (new action spaces) |
| `action_possible`, `perform_effect`, `apply_reward_part` | new effect and reward keys |
| `tile_builds`, `dam_capacity`, `contract_limit` | officer and tile effects that bend base rules |
| `structure_spaces` | where a structure kind may go, narrowed (e.g. no Elevation on a dam with a Bridge) |
| `after_production`, `income`, `extra_turn` | ability hooks in the flow of a round |
| `river_sources(game)` | each round, after the headstream tiles' drops are placed (extra drops) |
| `confirm_options(game, entry)` / `perform_confirm_option(...)` | free actions offered beside Confirm, after the turn's main action |
| `engineers_placed` | engineers go onto an action space (officers who care which pieces they are) |
| `contract_fulfilled` | a contract was fulfilled by a `fulfil_contract` decision |
| `copy_ends` | Mahiri Sekibo's copy of an officer ends (end of her turn's action) |
| `round_scoring`, `end_of_round`, `final_scoring`, `objective_count` | scoring steps |
| `map` (class attribute) | the map the expansion is played on: a game left on map "base" gets it |

Expansions are set up and asked in the order they are registered, whatever order
`GameOptions.expansions` names them in; an expansion that builds on another's components
(Colorado's Heliport on Leeghwater's board) imports that expansion first, so it is registered
first and its setup has run.

Other extension points, which are registries rather than methods:
- new task kinds (decisions or automatic steps): `bot.rules.engine.task`;
- new structure kinds: `bot.rules.construction.register_structure`;
- technology tile effects: `bot.rules.construction.TILE_EFFECTS`;
- notation namespaces (new verbs): `bot.rules.notation.register_verb`;
- map features: `MapData.features` carries each map's extra tables (bridges, construction
  sites, settlement roads, river-source tokens, irrigation zones) for expansions to read.

The toy expansion in `tests/rules/toy_expansion.py` proves these points by adding an action
space, a structure kind and a scoring step without editing a base module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.rules.content import Content, ManagementSpace
    from bot.rules.engine import Game, Task
    from bot.rules.options import Option
    from bot.rules.prng import SplitMix64
    from bot.rules.state import Company, Dam, GameOptions


class Expansion:
    """Base class: every hook does nothing, so an expansion overrides only what it needs."""

    name = ""
    # Content sets (the data files' `set`) whose boards, officers, bonus and advanced tiles join
    # the base game's pools in a game with this expansion.
    content_sets: tuple[str, ...] = ()
    # Expansions whose hooks run before this one's when a game uses both (setup order).
    setup_after: tuple[str, ...] = ()
    # `company.extra` keys this expansion keeps (its `export_position` states them).
    company_extra: tuple[str, ...] = ()

    @classmethod
    def extend_content(cls, content: Content) -> Content:
        """The content of a game with this expansion (new contracts, works, tiles...)."""
        return content

    # The map this expansion is played on ("" when it uses whatever map the game chose).
    map = ""

    @classmethod
    def refuse(cls, options: GameOptions) -> str | None:
        """Why a game with these options cannot use this expansion; None when it can."""
        return None

    def new_company(self, game: Game, company: Company) -> None:
        """A company was just created: add the expansion's pieces, tiles and data."""

    def load_position(self, game: Game, section: Mapping[str, Any]) -> None:
        """Apply the position's `[<expansion name>]` table (after the base position is set)."""

    def action_spaces(self, game: Game) -> Iterable[str]:
        """The ids of this expansion's action spaces (where `state.spaces` may hold engineers)."""
        return ()

    def export_position(self, game: Game) -> dict[str, Any]:
        """The `[<expansion name>]` table stating all of this expansion's state, which
        `load_position` accepts; per-company data under `company = { <id> = {...} }`."""
        return {}

    def engineers_placed(
        self, game: Game, company_id: str, space_id: str, count: int, printed: int
    ) -> None:
        """`count` engineers went onto `space_id`, which prints `printed` (0: any number)."""

    def contract_fulfilled(
        self, game: Game, company_id: str, contract_id: int, entry: Task
    ) -> None:
        """A `fulfil_contract` decision (`entry`) fulfilled this contract."""

    def copy_ends(self, game: Game, company_id: str, officer: str) -> None:
        """Mahiri Sekibo's copy of `officer` ends (it lasted her turn's action)."""

    def setup(self, game: Game, rng: SplitMix64) -> None:
        """Add the expansion's components to a new game."""

    def turn_options(self, game: Game, company_id: str) -> list[Option]:
        """Extra actions a player may take on their turn."""
        return []

    def perform_turn_option(self, game: Game, company_id: str, option: Option) -> bool:
        """Perform an action listed by `turn_options`; True when handled."""
        return False

    def action_possible(
        self, game: Game, company_id: str, space: ManagementSpace, budget: int
    ) -> bool | None:
        """Whether a space's action can be performed; None when this expansion has no say."""
        return None

    def perform_effect(self, game: Game, company_id: str, effect: Any, source: str) -> bool:
        """Perform an action-space effect the base game does not know; True when handled."""
        return False

    def apply_reward_part(
        self, game: Game, company_id: str, key: str, value: Any, source: str, tasks: list[Task]
    ) -> bool:
        """Apply one reward key the base game does not know; True when handled."""
        return False

    def tile_builds(self, game: Game, company_id: str, tile_id: str, builds: set[str]) -> set[str]:
        """The structure kinds a tile can build (e.g. a tile that copies another)."""
        return builds

    def dam_capacity(self, game: Game, space_id: str, dam: Dam, capacity: int) -> int:
        """A dam's capacity after this expansion's effects."""
        return capacity

    def structure_spaces(
        self, game: Game, company_id: str, kind: str, constraint: Task, spaces: list[str]
    ) -> list[str]:
        """The spaces where this structure kind may go now (by default those given)."""
        return spaces

    def contract_limit(self, game: Game, company_id: str, limit: int) -> int:
        """How many face-up contracts a company may hold."""
        return limit

    def after_production(self, game: Game, company_id: str, entry: Task) -> None:
        """Effects that follow a production (company abilities)."""

    def income(self, game: Game, company_id: str, queue: list[Task]) -> None:
        """Extra income; choices go into `queue` (asked simultaneously)."""

    def extra_turn(self, game: Game, company_id: str) -> bool:
        """True when the player who just confirmed takes another turn (pushes it itself)."""
        return False

    def river_sources(self, game: Game) -> None:
        """Income phase: the headstream tiles' drops are placed; add the expansion's own."""

    def confirm_options(self, game: Game, entry: Task) -> list[Option]:
        """Free actions offered beside Confirm (`entry` is the confirm task of the turn)."""
        return []

    def perform_confirm_option(self, game: Game, entry: Task, option: Option) -> bool:
        """Perform an option of `confirm_options` (Confirm is asked again after); True when
        handled. `entry` is the turn's confirm task, already back on the stack."""
        return False

    def round_scoring(self, game: Game) -> None:
        """Extra steps of the Scoring phase."""

    def end_of_round(self, game: Game) -> None:
        """Extra steps of the End of Round phase (refreshing offers...)."""

    def final_scoring(self, game: Game) -> None:
        """Extra end-of-game scoring (before water in dams)."""

    def objective_count(self, game: Game, objective: str, company_id: str) -> int | None:
        """Count for an objective tile this expansion adds; None when not its tile."""
        return None


EXPANSIONS: dict[str, type[Expansion]] = {}


def register_expansion(cls: type[Expansion]) -> type[Expansion]:
    """Class decorator: make an expansion available to `GameOptions.expansions`."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} needs a name")
    EXPANSIONS[cls.name] = cls
    return cls


def content_sets(names: Iterable[str]) -> tuple[str, ...]:
    """The content sets a game with these expansions draws from: "base" and theirs."""
    sets = ["base"]
    for name in names:
        sets.extend(EXPANSIONS[name].content_sets)
    return tuple(dict.fromkeys(sets))


def hook_order(names: Iterable[str]) -> tuple[str, ...]:
    """The names in the order given, except that an expansion follows its `setup_after`."""
    out: list[str] = []
    pending = list(dict.fromkeys(names))
    while pending:
        for name in pending:
            if not any(other in pending for other in EXPANSIONS[name].setup_after):
                out.append(name)
                pending.remove(name)
                break
        else:
            raise ValueError(f"expansions wait for each other: {pending}")
    return tuple(out)


def active_expansions(names: Iterable[str]) -> tuple[Expansion, ...]:
    """Instances of the named expansions, in hook order (`hook_order`)."""
    return tuple(EXPANSIONS[name]() for name in hook_order(names))


_CONTENT_CACHE: dict[tuple[int, tuple[str, ...]], tuple[Content, Content]] = {}


def game_content(content: Content, names: Iterable[str]) -> Content:
    """The content of a game with these expansions: each one's `extend_content`, cached."""
    order = hook_order(names)
    key = (id(content), order)
    cached = _CONTENT_CACHE.get(key)
    if cached is not None and cached[0] is content:
        return cached[1]
    extended = content
    for name in order:
        extended = EXPANSIONS[name].extend_content(extended)
    _CONTENT_CACHE[key] = (content, extended)
    # Extending an extended content again gives itself (a Game built from new_game's content).
    _CONTENT_CACHE[(id(extended), order)] = (extended, extended)
    return extended
