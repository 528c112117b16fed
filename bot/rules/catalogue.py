"""The catalogue of expansions: what each one declares, and the rule tables of a game.

An expansion is a package beside the others in `bot/rules/expansions/` holding an
`expansion.toml` that declares, as data, what it is (`bot.rules.declarations`; the keys are
listed in docs/expansions.md): its name, display name, board, setups, combinations, content
sets, data files, reward keys with their wording, help module and drawing module. Its `RULES`
(a `bot.rules.rulebook.RuleSet`) holds its rules, its `Expansion` hooks included.

The catalogue reads the declarations without importing any expansion's code, and imports a
package when a game uses it or when the content is built (`content()` reads the shared data
tables the expansions' rule sets declare, `RuleSet.table`). A catalogue may be given more
packages (a test's own expansion); `CATALOGUE` is the product's. Everything outside the
expansions' packages learns them here: which there are, their names and boards, which
combine, their rules and content.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from bot.rules.base import BASE_RULES
from bot.rules.content import Content, Table, build_content, load_content, packaged_files
from bot.rules.declarations import (
    ROOT,
    CatalogueError,
    ExpansionInfo,
    discover,
    hook_order,
    read_declaration,
)
from bot.rules.engine import Game
from bot.rules.hooks import Expansion
from bot.rules.rulebook import RuleSet, RuleTables
from bot.rules.state import GameOptions, GameState

SETUP_NAMES = {"intro": "introductory setup", "full": "full game"}


class Catalogue:
    """The expansions a deployment knows, and the rule tables of a game using some of them."""

    def __init__(self, roots: Iterable[str] = (ROOT,), packages: Iterable[str] = ()) -> None:
        self.roots = tuple(roots)
        self.packages = tuple(packages)
        self._tables: dict[tuple[str, ...], RuleTables[Game]] = {}
        self._contents: dict[tuple[int, tuple[str, ...]], tuple[Content, Content]] = {}

    @cached_property
    def expansions(self) -> Mapping[str, ExpansionInfo]:
        """Every expansion's declaration, by name, in hook order."""
        packages = [p for root in self.roots for p in discover(root)] + list(self.packages)
        infos: dict[str, ExpansionInfo] = {}
        for package in packages:
            info = read_declaration(package)
            if info.name in infos:
                raise CatalogueError(f"two expansions are named {info.name!r}")
            infos[info.name] = info
        for info in infos.values():
            for other in (*info.after, *info.excludes):
                if other not in infos:
                    raise CatalogueError(f"{info.name} names an unknown expansion {other!r}")
        order = hook_order(infos, sorted(infos))
        return MappingProxyType({name: infos[name] for name in order})

    def __contains__(self, name: object) -> bool:
        return name in self.expansions

    def info(self, name: str) -> ExpansionInfo:
        """One expansion's declaration (KeyError for an unknown name)."""
        try:
            return self.expansions[name]
        except KeyError:
            known = ", ".join(sorted(self.expansions)) or "none"
            raise KeyError(f"unknown expansion {name!r} (known: {known})") from None

    def display_name(self, name: str) -> str:
        """What players read for an expansion."""
        return self.info(name).display_name

    def set_name(self, content_set: str) -> str:
        """The display name of the expansion a content set belongs to ("" for the base game's)."""
        for info in self.expansions.values():
            if content_set == info.name or content_set in info.content_sets:
                return info.display_name
        return ""

    def hook_order(self, names: Iterable[str]) -> tuple[str, ...]:
        """The names in the catalogue's order, each after those it declares `after`."""
        wanted = set(names)
        return tuple(name for name in self.expansions if name in wanted)

    def content_sets(self, names: Iterable[str]) -> tuple[str, ...]:
        """The content sets a game with these expansions draws from: "base" and theirs."""
        sets = ["base"]
        for name in self.hook_order(names):
            sets.extend(self.info(name).content_sets)
        return tuple(dict.fromkeys(sets))

    def own_map(self, names: Iterable[str]) -> str:
        """The board one of these expansions is played on ("" when none has its own)."""
        for name in self.hook_order(names):
            if self.info(name).map:
                return self.info(name).map
        return ""

    def refuse(self, options: GameOptions) -> str | None:
        """Why these options' expansions cannot be played together so; None when they can."""
        for name in options.expansions:
            if name not in self.expansions:
                known = ", ".join(sorted(self.expansions)) or "none"
                return f"unknown expansion {name!r} (known: {known})"
        for name in self.hook_order(options.expansions):
            info = self.info(name)
            if options.setup not in info.setups:
                return (
                    f"{info.display_name} is played with the {SETUP_NAMES[info.setups[0]]} "
                    f"only (setup={info.setups[0]!r}), not with the "
                    f"{SETUP_NAMES.get(options.setup, options.setup)}"
                )
            if info.map and options.map != info.map:
                return (
                    f"{info.display_name} is played on its own map (map={info.map!r}), "
                    f"not on {options.map!r}"
                )
            for other in options.expansions:
                if other in info.excludes or name in self.info(other).excludes:
                    return f"{info.display_name} cannot be combined with {self.display_name(other)}"
            reason = self.hooks_class(name)().refuse(options)
            if reason:
                return reason
        return None

    def combinations(
        self, options: GameOptions | None = None, limit: int | None = None
    ) -> list[tuple[str, ...]]:
        """The sets of expansions that may be played together, the empty one first: with
        `options` (their setup, players, automas...), those `refuse` lets these options play
        on their expansions' board; without, those whose declarations agree. At most `limit`.

        Found by extending each allowed set with one expansion more, in the catalogue's order;
        a refused set is never extended (a refusal holds for every set that contains it), and
        the search stops at `limit`, so the work follows what is listed, never 2^n sets.
        """
        combos: list[tuple[str, ...]] = [()]
        for name in self.expansions:
            for combo in list(combos):
                if limit is not None and len(combos) >= limit:
                    return combos
                candidate = (*combo, name)
                if self._allowed(candidate, options):
                    combos.append(candidate)
        return combos

    def _allowed(self, names: tuple[str, ...], options: GameOptions | None) -> bool:
        """Whether this set may be played (see `combinations`); its last name is the new one."""
        *others, name = names
        if not all(self._compatible(name, other) for other in others):
            return False
        if options is None:
            return True
        # As a new game is set up: an expansion's own board replaces the standard one only.
        board = options.map if options.map != "base" else self.own_map(names) or "base"
        return self.refuse(replace(options, expansions=names, map=board)) is None

    def _compatible(self, one: str, other: str) -> bool:
        first, second = self.info(one), self.info(other)
        if one in second.excludes or other in first.excludes:
            return False
        if first.map and second.map:
            return False
        return bool(set(first.setups) & set(second.setups))

    # -- content and rules -----------------------------------------------------------------
    @cached_property
    def _content(self) -> Content:
        infos = tuple(self.expansions.values())
        tables = self.tables()
        if self.roots == (ROOT,) and not self.packages:
            return load_content(tables=tables)  # the product's, loaded once per process
        return build_content(packaged_files(infos), infos, tables)

    def content(self) -> Content:
        """The content of the base game and every expansion of this catalogue (each one's
        components marked with its set, so a game draws only those of its expansions), with
        the shared tables their rule sets declare (`tables`)."""
        return self._content

    def tables(self) -> tuple[Table[Any, Any], ...]:
        """The shared data tables every expansion's rules declare (`RuleSet.table`), in the
        catalogue's order (each package is imported now)."""
        return tuple(
            table for name in self.expansions for table in self.rule_set(name).tables.values()
        )

    def rule_set(self, name: str) -> RuleSet[Game]:
        """An expansion's rules (its package is imported now)."""
        module = importlib.import_module(self.info(name).package)
        rules = getattr(module, "RULES", None)
        if not isinstance(rules, RuleSet):
            raise CatalogueError(f"{self.info(name).package} has no RULES rule set")
        return rules

    def hooks_class(self, name: str) -> type[Expansion[Game]]:
        """An expansion's own hooks class (the `Expansion` subclass of its rule set)."""
        found = [cls for cls in self.rule_set(name).hooks if issubclass(cls, Expansion)]
        if len(found) != 1 or found[0].name != name:
            raise CatalogueError(f"{name}'s RULES must declare one Expansion named {name!r}")
        return found[0]

    def rules(self, names: Iterable[str]) -> RuleTables[Game]:
        """The rule tables of a game with these expansions: the base game's, then theirs."""
        order = self.hook_order(names)
        tables = self._tables.get(order)
        if tables is None:
            foreign = {
                verb: self.display_name(other)
                for other in self.expansions
                if other not in order
                for verb in self._verbs_of(other)
            }
            tables = RuleTables(
                BASE_RULES,
                [self.rule_set(name) for name in order],
                foreign=foreign,
                content_sets=self.content_sets(order),
            )
            self._tables[order] = tables
        return tables

    def _verbs_of(self, name: str) -> list[str]:
        rules = self.rule_set(name)
        return [*rules.verbs, *rules.turn_actions, *rules.why_not]

    def game_content(self, content: Content, names: Iterable[str]) -> Content:
        """The content of a game with these expansions (each one's `extend_content`), cached.

        Extending a game's content again gives itself (a game made from `new_game`'s content).
        """
        order = self.hook_order(names)
        cached = self._contents.get((id(content), order))
        if cached is not None and cached[0] is content:
            return cached[1]
        for name in order:
            for table in self.rule_set(name).tables.values():
                if table.name not in content.tables:
                    raise CatalogueError(
                        f"{name} needs the table [[{table.name}]], which this content was built "
                        "without (a game's content is its catalogue's: Catalogue.content())"
                    )
        extended = content
        for name in order:
            extended = self.hooks_class(name)().extend_content(extended)
        self._contents[(id(content), order)] = (content, extended)
        self._contents[(id(extended), order)] = (extended, extended)
        return extended


CATALOGUE = Catalogue()


def open_game(
    state: GameState, content: Content | None = None, catalogue: Catalogue | None = None
) -> Game:
    """The game of a state, with the rules and content of its expansions."""
    catalogue = catalogue or CATALOGUE
    names = state.options.expansions
    content = catalogue.game_content(content or catalogue.content(), names)
    return Game(state, content, catalogue.rules(names))
