"""Rule sets and a game's rule tables: how the base game and expansions hand the engine their rules.

Every rules module owns one `RuleSet` (conventionally `RULES`) and declares into it with
decorators and calls: task kinds (automatic steps and decisions), structure kinds, notation
verbs, turn actions, technology tile effects, reward keys with their wording, bonus counters,
shared data tables (`bot.rules.content.shared.Table`), and hook objects
(`bot.rules.hooks.Hooks`). Declaring touches only that module's own rule set, so importing a
module changes nothing global.

A game's tables (`RuleTables`) are built from the base game's rule sets plus those of its
active expansions (`bot.rules.catalogue.rules_for`), so a game without an expansion never sees
its task kinds, verbs, structures or reward keys. The engine reads everything from
`game.rules`; order is kept (structure kinds and turn actions are offered in the order their
rule sets are combined: the base game's modules first, then each expansion in hook order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from bot.rules.content.shared import Table
from bot.rules.moves import Grammar, Move
from bot.rules.structures import Cost, StructureKind, TileUse
from bot.rules.tasks import Task

if TYPE_CHECKING:
    from bot.rules.hooks import Hooks
    from bot.rules.options import Decision, Option

#: The game the rules are played in: the engine's `Game` (`RULES: RuleSet[Game]`). The tables
#: are generic in it so that this module, below the engine, never imports it.
G = TypeVar("G")
#: A task record: the base game's `Task` or an expansion's extension of it.
TaskT = TypeVar("TaskT", bound=Task)

TaskRun = Callable[[G, Task], None]
TaskOptions = Callable[[G, Task], "list[Option]"]
TaskApply = Callable[[G, Task, Move], None]
TaskPrompt = Callable[[G, Task], str]
TurnLister = Callable[[G, str], "list[Option]"]
TurnPerformer = Callable[[G, str, Move], None]
WhyNot = Callable[[G, str], str]
TileEffect = Callable[[G, str, str, str], None]
TileCosts = Callable[[G, str, str, str, list[Cost]], list[Cost]]
TileUses = Callable[[G, str, str], list[TileUse]]
RewardApply = Callable[[G, str, Any, str, list[Task]], None]
RewardPossible = Callable[[G, str, int], bool]
Explainer = Callable[[G, "Decision", str], str]
BonusCounter = Callable[[G, str], int]


@dataclass(frozen=True, slots=True)
class TaskHandler(Generic[G]):
    """How one kind of task runs (automatic) or asks (decision)."""

    kind: str
    run: TaskRun[G] | None = None
    options: TaskOptions[G] | None = None
    apply: TaskApply[G] | None = None
    prompt: TaskPrompt[G] | None = None
    # Decisions that are never applied automatically even with one option (Confirm).
    always_ask: bool = False

    @property
    def is_decision(self) -> bool:
        """True when this task waits for a player's answer."""
        return self.options is not None


@dataclass(frozen=True, slots=True)
class TurnAction(Generic[G]):
    """A turn action outside the management and company boards (an officer's space...)."""

    name: str
    options: TurnLister[G]
    perform: TurnPerformer[G]


@dataclass(frozen=True, slots=True)
class RewardKey(Generic[G]):
    """A reward or effect key of the data files: its wording, and how it is applied.

    `text` is the wording of option labels and descriptions (`{}` is the value); `short` the
    few characters a picture's box has room for ("" when pictures do not show it). `apply` is
    None for keys applied by the code that reads them (a key that only qualifies another one,
    an action space's own effect). `possible` says whether an action with this effect can be
    performed now with a budget of credits (None: always).
    """

    key: str
    text: str = ""
    short: str = ""
    apply: RewardApply[G] | None = None
    possible: RewardPossible[G] | None = None


@dataclass
class RuleSet(Generic[G]):
    """The rules one module (of the base game or of an expansion) adds to the games using it."""

    name: str
    tasks: dict[str, TaskHandler[G]] = field(default_factory=dict)
    structures: dict[str, StructureKind[G]] = field(default_factory=dict)
    # Notation verb -> the kind of move written with it and the regex of its arguments.
    verbs: dict[str, tuple[type[Move], str]] = field(default_factory=dict)
    turn_actions: dict[str, TurnAction[G]] = field(default_factory=dict)
    # Turn verb -> why that action is not available to a company now (illegal-move messages).
    why_not: dict[str, WhyNot[G]] = field(default_factory=dict)
    tile_effects: dict[str, TileEffect[G]] = field(default_factory=dict)
    tile_costs: dict[str, TileCosts[G]] = field(default_factory=dict)
    tile_uses: dict[str, TileUses[G]] = field(default_factory=dict)
    rewards: dict[str, RewardKey[G]] = field(default_factory=dict)
    # Bonus tile -> what a company counts for it (the round's scoring, its pictures).
    bonus_counters: dict[str, BonusCounter[G]] = field(default_factory=dict)
    # Data table name -> the shared table its rows are read into (`bot.rules.content.shared`).
    tables: dict[str, Table[Any, Any]] = field(default_factory=dict)
    hooks: list[type[Hooks[G]]] = field(default_factory=list)
    # Why a well-formed answer is not legal now (the base game declares one).
    explain: Explainer[G] | None = None

    # -- declaring -------------------------------------------------------------------------
    def task(
        self,
        kind: str,
        *,
        options: Callable[[G, TaskT], list[Option]] | None = None,
        prompt: Callable[[G, TaskT], str] | None = None,
        always_ask: bool = False,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorate a task kind's `run` (automatic) or its `apply` (a decision, with `options`).

        The functions take the kind's own task record (`TaskT`); the engine hands each the
        tasks of its kind only, and `apply` the move of one of the options it listed.
        """

        def declare(func: Callable[..., Any]) -> Callable[..., Any]:
            _new(self.tasks, kind, "task kind")
            if options is None:
                self.tasks[kind] = TaskHandler(kind, run=func)
            else:
                # Stored for every task; the engine calls them with their own kind's only.
                self.tasks[kind] = TaskHandler(
                    kind,
                    options=cast("TaskOptions[G]", options),
                    apply=func,
                    prompt=cast("TaskPrompt[G] | None", prompt),
                    always_ask=always_ask,
                )
            return func

        return declare

    def structure(self, kind: StructureKind[G]) -> None:
        """Declare a structure kind (where it stands, what it costs, how it is placed)."""
        _new(self.structures, kind.name, "structure kind")
        self.structures[kind.name] = kind

    def move(self, kind: type[Move], *verbs: str, args: str | None = None) -> None:
        """Add a kind of move to the notation, written with its `verb` (or these `verbs`);
        `args` (by default the kind's) is a regex of the text after the verb."""
        for verb in verbs or (kind.verb,):
            _new(self.verbs, verb, "verb")
            self.verbs[verb] = (kind, kind.args if args is None else args)

    def turn_action(
        self,
        name: str,
        options: TurnLister[G],
        perform: TurnPerformer[G],
        why_not: WhyNot[G] | None = None,
    ) -> None:
        """A kind of turn action, listed after the management board's spaces."""
        _new(self.turn_actions, name, "turn action")
        self.turn_actions[name] = TurnAction(name, options, perform)
        if why_not is not None:
            self.reason(name, why_not)

    def reason(self, verb: str, why_not: WhyNot[G]) -> None:
        """Why the turn action written `verb` is not available now (for illegal-move messages)."""
        _new(self.why_not, verb, "turn verb")
        self.why_not[verb] = why_not

    def tile_effect(self, tile: str, effect: TileEffect[G]) -> None:
        """What a technology tile does after a build with it."""
        _new(self.tile_effects, tile, "tile effect")
        self.tile_effects[tile] = effect

    def tile_cost(self, tile: str, costs: TileCosts[G]) -> None:
        """How a technology tile changes a structure's costs."""
        _new(self.tile_costs, tile, "tile cost")
        self.tile_costs[tile] = costs

    def tile_use(self, tile: str, uses: TileUses[G]) -> None:
        """The ways a tile that acts as other tiles can be used now (Anton Krylov's)."""
        _new(self.tile_uses, tile, "tile use")
        self.tile_uses[tile] = uses

    def reward(
        self,
        key: str,
        text: str = "",
        short: str = "",
        *,
        apply: RewardApply[G] | None = None,
        possible: RewardPossible[G] | None = None,
    ) -> None:
        """Declare a reward key: its wording and how it is applied (see `RewardKey`)."""
        _new(self.rewards, key, "reward key")
        self.rewards[key] = RewardKey(key, text, short, apply, possible)

    def bonus_counter(self, tile: str, count: BonusCounter[G]) -> None:
        """What a company counts for a bonus tile (its VP are that count × the tile's VP)."""
        _new(self.bonus_counters, tile, "bonus counter")
        self.bonus_counters[tile] = count

    def table(self, table: Table[Any, Any]) -> None:
        """A shared table of the data files (`[[name]]` rows of any expansion's data file):
        the catalogue's content reads every file's rows of it (`Table.of(content)`)."""
        _new(self.tables, table.name, "table")
        self.tables[table.name] = table

    def explainer(self, explain: Explainer[G]) -> Explainer[G]:
        """Decorate the function that says why a well-formed answer is not legal now."""
        if self.explain is not None:
            raise ValueError(f"{self.name} declares two explainers")
        self.explain = explain
        return explain

    def hook(self, cls: type[Hooks[G]]) -> type[Hooks[G]]:
        """Class decorator: this `Hooks` subclass is asked at the hook points in every game."""
        self.hooks.append(cls)
        return cls

    def include(self, *others: RuleSet[G]) -> None:
        """Add other rule sets' declarations to this one (a package gathering its modules)."""
        for other in others:
            for name in _TABLES:
                mine, theirs = getattr(self, name), getattr(other, name)
                for key in theirs:
                    _new(mine, key, name)
                mine.update(theirs)
            self.hooks.extend(other.hooks)
            if other.explain is not None:
                self.explainer(other.explain)


_TABLES = (
    "tasks",
    "structures",
    "verbs",
    "turn_actions",
    "why_not",
    "tile_effects",
    "tile_costs",
    "tile_uses",
    "rewards",
    "bonus_counters",
    "tables",
)


def _new(table: Mapping[str, Any], key: str, what: str) -> None:
    if key in table:
        raise ValueError(f"{what} {key!r} is declared twice")


class RuleTables(Generic[G]):
    """The rules of one kind of game: the base game's rule sets and its expansions', combined.

    Tables keep the order of the rule sets (the base game's first), so structure kinds and turn
    actions are offered in that order; hooks too are asked the base game's first (officers,
    company boards), then the expansions' in hook order.
    `foreign` names, for each verb of an expansion this game does not use, that expansion's
    display name (for the message refusing it).
    """

    def __init__(
        self,
        base: Iterable[RuleSet[G]],
        expansions: Iterable[RuleSet[G]] = (),
        *,
        foreign: Mapping[str, str] | None = None,
        content_sets: Iterable[str] = ("base",),
    ) -> None:
        base, expansions = tuple(base), tuple(expansions)
        combined: RuleSet[G] = RuleSet("game")
        for part in (*base, *expansions):
            combined.include(part)
        self.parts = (*base, *expansions)
        self.tasks: Mapping[str, TaskHandler[G]] = MappingProxyType(combined.tasks)
        self.structures: Mapping[str, StructureKind[G]] = MappingProxyType(combined.structures)
        # The notation: each verb's kind of move, and the grammar that reads any answer.
        self.grammar = Grammar(combined.verbs)
        self.verbs: Mapping[str, type[Move]] = MappingProxyType(dict(self.grammar.kinds))
        self.turn_actions: Mapping[str, TurnAction[G]] = MappingProxyType(combined.turn_actions)
        self.why_not: Mapping[str, WhyNot[G]] = MappingProxyType(combined.why_not)
        self.tile_effects: Mapping[str, TileEffect[G]] = MappingProxyType(combined.tile_effects)
        self.tile_costs: Mapping[str, TileCosts[G]] = MappingProxyType(combined.tile_costs)
        self.tile_uses: Mapping[str, TileUses[G]] = MappingProxyType(combined.tile_uses)
        self.rewards: Mapping[str, RewardKey[G]] = MappingProxyType(combined.rewards)
        self.bonus_counters: Mapping[str, BonusCounter[G]] = MappingProxyType(
            combined.bonus_counters
        )
        self.tables: Mapping[str, Table[Any, Any]] = MappingProxyType(combined.tables)
        self.hooks: tuple[type[Hooks[G]], ...] = tuple(combined.hooks)
        self.explain: Explainer[G] | None = combined.explain
        # The data files' `set`s this game draws from ("base" and its expansions').
        self.content_sets: tuple[str, ...] = tuple(content_sets)
        self.foreign: Mapping[str, str] = MappingProxyType(
            {verb: name for verb, name in (foreign or {}).items() if verb not in self.verbs}
        )

    def task(self, kind: str) -> TaskHandler[G]:
        """The handler of a task kind (a KeyError names a kind no rule set of the game has)."""
        try:
            return self.tasks[kind]
        except KeyError:
            raise KeyError(f"task kind {kind!r} is not a rule of this game") from None
