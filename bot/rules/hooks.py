"""Hook points for expansions. The base game calls these; it never knows an expansion's details.

An expansion is a subclass of `Expansion` registered under a name with `register_expansion`;
a game created with that name in `GameOptions.expansions` gets an instance in `Game.expansions`
and the engine calls its hooks at these points:

| hook | called when |
|---|---|
| `setup(game, rng)` | after the base setup's draws (draw order is part of the engine version) |
| `turn_options(game, company)` / `perform_turn_option(...)` | listing and taking a turn's actions (new action spaces) |
| `action_possible`, `perform_effect`, `apply_reward_part` | new effect and reward keys |
| `tile_builds`, `dam_capacity`, `contract_limit` | officer and tile effects that bend base rules |
| `after_production`, `income`, `extra_turn` | ability hooks in the flow of a round |
| `round_scoring`, `end_of_round`, `final_scoring`, `objective_count` | scoring steps |

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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.rules.content import ManagementSpace
    from bot.rules.engine import Game, Task
    from bot.rules.options import Option
    from bot.rules.prng import SplitMix64
    from bot.rules.state import Dam


class Expansion:
    """Base class: every hook does nothing, so an expansion overrides only what it needs."""

    name = ""

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


def active_expansions(names: Iterable[str]) -> tuple[Expansion, ...]:
    """Instances of the named expansions, in the order given."""
    return tuple(EXPANSIONS[name]() for name in names)
