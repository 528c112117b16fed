"""The engine: a game state plus the machinery that turns answers into state changes.

How the flow works. The state holds a stack of pending *tasks* (dicts typed by the record
`bot.rules.tasks.Task`, which an expansion extends; top last). A task is either automatic (it
runs and may push more tasks) or a decision (it lists options for one player and waits).
`Game.apply` checks an answer against the current decision's legal options, applies it, then
advances: automatic tasks run, decisions with exactly one option are applied
automatically (logged with `auto`), until a real choice is needed or the game ends. Because
tasks are data in the state, a stored state continues exactly where it stopped, and a replay of
the answers reproduces it.

The rules come from outside: a game is made with its rule tables (`bot.rules.rulebook`: task
kinds, structure kinds, verbs, reward keys...) built from the base game and its expansions by
`bot.rules.catalogue`, and asks its hooks (`bot.rules.hooks`) at the hook points. Make a game
from a state with `bot.rules.games.open_game`, which knows where the rules are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from bot.rules.automa.seats import economy, player_level
from bot.rules.content import Content, MapData
from bot.rules.errors import GameOver, IllegalMove, MalformedNotation, NotYourDecision
from bot.rules.events import Event
from bot.rules.hooks import Expansion, Hooks
from bot.rules.moves import Move
from bot.rules.options import Decision, Option, normalize
from bot.rules.rulebook import RuleTables
from bot.rules.state import Company, GameState
from bot.rules.tasks import Task

ENGINE_VERSION = "0.1.0"

# What an automa may spend: it never pays credits, so any price is within reach.
AUTOMA_BUDGET = 10**6

P = ParamSpec("P")
R = TypeVar("R")


MapRanks = tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int]]
_MAP_RANKS: dict[int, tuple[MapData, MapRanks]] = {}


def _ranks(spaces: Iterable[str]) -> dict[str, int]:
    """Each space's index in `spaces`."""
    return {space: index for index, space in enumerate(spaces)}


def _map_ranks(game_map: MapData) -> MapRanks:
    """The ranks of the map's dam, conduit, powerhouse and headstream spaces, kept per map
    object (a game is opened for every option the AI tries, and a map never changes)."""
    known = _MAP_RANKS.get(id(game_map))
    if known is not None and known[0] is game_map:
        return known[1]
    ranks = (
        _ranks(game_map.dam_spaces),
        _ranks(game_map.conduit_spaces),
        _ranks(game_map.powerhouse_spaces),
        _ranks(game_map.headstreams),
    )
    _MAP_RANKS[id(game_map)] = (game_map, ranks)  # the map kept, so its id is never reused
    return ranks


def _in_order(table: dict[str, Any], rank: dict[str, int]) -> dict[str, Any]:
    """`table` with its keys in the order of `rank` (keys not in it last, sorted)."""
    last = -1
    for key in table:  # most often already in order: the table itself, without sorting
        index = rank.get(key)
        if index is None or index <= last:
            break
        last = index
    else:
        return table
    keys = sorted(table, key=lambda key: (key not in rank, rank.get(key, 0), key))
    if keys == list(table):
        return table
    return {key: table[key] for key in keys}


class Game:
    """A game in progress: state, content, and the decision/option/apply contract."""

    def __init__(self, state: GameState, content: Content, rules: RuleTables[Game]) -> None:
        """`content` is the game's (its expansions' content joined), `rules` its rule tables."""
        self.state = state
        self.content = content
        self.rules = rules
        self.map: MapData = self.content.maps[state.options.map]
        self.events: list[Event] = []
        self._decisions: list[Decision] | None = None
        self.hooks: tuple[Hooks[Game], ...] = tuple(cls() for cls in rules.hooks)
        # The expansions' own hooks, in hook order (their position tables, their state).
        self.expansions: tuple[Expansion[Game], ...] = tuple(
            hook for hook in self.hooks if isinstance(hook, Expansion)
        )
        self._hooked: dict[Callable[..., Any], tuple[Callable[..., Any], ...]] = {}
        self.keep_map_order()

    def hooked(self, point: Callable[Concatenate[Hooks[Game], P], R]) -> tuple[Callable[P, R], ...]:
        """The hooks that implement this hook point (a `Hooks` method, e.g. `Hooks.income`),
        bound, in order (the others do nothing there): what the engine calls in its busiest
        loops. mypy checks each call against the hook's signature."""
        found = self._hooked.get(point)
        if found is None:
            name = point.__name__
            found = tuple(
                getattr(hook, name) for hook in self.hooks if getattr(type(hook), name) is not point
            )
            self._hooked[point] = found
        return cast("tuple[Callable[P, R], ...]", found)

    def keep_map_order(self) -> None:
        """Hold the built structures (dams, conduits, powerhouses) and headstreams in the map's
        order, and the companies in seat order.

        Options and events over built structures follow these tables' order, so it must not
        depend on the order things were built in, nor on a store keeping a snapshot's JSON key
        order (PostgreSQL's jsonb reorders keys). Called when a game is made from a state and
        after every placement.
        """
        state = self.state
        dams, conduits, powerhouses, headstreams = _map_ranks(self.map)
        state.dams = _in_order(state.dams, dams)
        state.conduits = _in_order(state.conduits, conduits)
        state.powerhouses = _in_order(state.powerhouses, powerhouses)
        state.headstream_tiles = _in_order(state.headstream_tiles, headstreams)
        state.headstream_water = _in_order(state.headstream_water, headstreams)
        state.companies = _in_order(state.companies, _ranks(state.seats))

    # -- queries -----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once final scoring is done."""
        return self.state.finished

    def decisions(self) -> list[Decision]:
        """The pending decisions: one, or one per player while they act simultaneously."""
        if self._decisions is None:
            self._decisions = self._compute_decisions()
        return self._decisions

    def deciders(self) -> list[str]:
        """The players of the pending decisions, in `decisions`' order, without working out
        their options (`decisions` lists every legal option, which costs a millisecond or
        more: a picture only needs who acts)."""
        stack = self.state.stack
        if not stack:
            return []
        top = stack[-1]
        if top["kind"] == "simultaneous":
            queues = (top["pending"].get(company_id) for company_id in self.state.turn_order)
            return [queue[0]["player"] for queue in queues if queue]
        if not self.rules.tasks[top["kind"]].is_decision:
            return []
        return [top["player"]]

    def decision(self, player: str | None = None) -> Decision | None:
        """The pending decision (of `player`, when several players may act)."""
        for decision in self.decisions():
            if player is None or decision.player == player:
                return decision
        return None

    @property
    def turn_in_progress(self) -> bool:
        """True while a player's turn has started and awaits Confirm."""
        return self.state.turn_open

    def company(self, company_id: str) -> Company:
        """Return one company's state."""
        return self.state.companies[company_id]

    def officer_of(self, company_id: str) -> str:
        """The executive officer of a company."""
        return self.state.companies[company_id].officer

    def automa_level(self, player: str | None) -> int | None:
        """The level of the automa playing this company (or draft seat); None for a person."""
        return player_level(self.state, player)

    def automa_has(self, company_id: str, threshold: str) -> bool:
        """False for an automa below the level that `threshold` names (an `Economy` field such
        as "officer_ability_from"); True for people and for automas at or above it."""
        level = self.automa_level(company_id)
        return level is None or level >= getattr(economy(), threshold)

    def has_officer_power(self, company_id: str, officer: str) -> bool:
        """True when the company may use this officer's ability now (own officer or a copy);
        an automa uses its officer's ability at the Expert level only."""
        company = self.state.companies[company_id]
        if not self.automa_has(company_id, "officer_ability_from"):
            return False
        return company.officer == officer or company.extra.get("copied_officer") == officer

    def ability_active(self, company_id: str) -> bool:
        """True once the company board's special ability is unlocked (3rd powerhouse); an
        automa has it from the Hard level on."""
        company = self.state.companies[company_id]
        if not self.automa_has(company_id, "company_ability_from"):
            return False
        return company.placed["powerhouse"] >= self.content.common.ability_after_powerhouses

    def budget(self, company_id: str) -> int:
        """Credits the company may spend: an automa never pays credits (unlimited)."""
        if self.automa_level(company_id) is not None:
            return AUTOMA_BUDGET
        return self.state.companies[company_id].credits

    # -- answering -----------------------------------------------------------------------
    def parse(self, notation: str | Option | Move, player: str | None = None) -> Option:
        """Return the legal option for `notation` (a text, an option or a move), or raise a
        specific RuleError."""
        return self._legal(notation, player)[1]

    def read(self, notation: str) -> Move:
        """The move `notation` writes in this game's grammar (MalformedNotation when none;
        IllegalMove when it is an expansion's this game does not use)."""
        text = normalize(notation)
        if not text:
            raise MalformedNotation("an empty notation is not a move; choose one of the options")
        verb = text.partition(" ")[0].lower()
        if verb in self.rules.foreign:
            raise IllegalMove(
                f"'{text}' belongs to {self.rules.foreign[verb]}, which this game does not use"
            )
        return self.rules.grammar.parse(text)

    def _legal(self, answer: str | Option | Move, player: str | None) -> tuple[Decision, Option]:
        """The pending decision `answer` answers and its legal option, or a specific RuleError.

        A text is read once (`read`: a typed move, or why it is none); an option or a move is
        looked up by its notation. Either way the option found is the decision's own, whose
        move the handler receives (with what its listing knew).
        """
        text = answer if isinstance(answer, str) else answer.notation
        if self.state.finished:
            raise GameOver(f"'{text}' cannot be played: the game is over")
        if isinstance(answer, str):
            text = normalize(text)
            move = self.read(text)
        else:
            move = answer.move if isinstance(answer, Option) else answer
        decisions = self.decisions()
        decision: Decision | None
        if player is None:
            if len(decisions) != 1:
                names = ", ".join(d.player for d in decisions)
                raise NotYourDecision(
                    f"'{text}': several players decide now ({names}); say which player answers"
                )
            decision = decisions[0]
        else:
            decision = self.decision(player)
            if decision is None:
                waiting = ", ".join(sorted({d.player for d in decisions})) or "nobody"
                raise NotYourDecision(
                    f"'{text}': it is not {player}'s decision now (waiting for {waiting})"
                )
        option = decision.find(text)
        if option is None:
            explain = self.rules.explain
            reason = (
                explain(self, decision, move, text) if explain else f"'{text}' is not legal now"
            )
            raise IllegalMove(reason)
        return decision, option

    def apply(self, notation: str | Option | Move, player: str | None = None) -> list[Event]:
        """Apply one answer (its notation, a listed option or a move); return the events it
        caused (automatic follow-ups included)."""
        decision, option = self._legal(notation, player)
        self.events = []
        self._answer(decision, option)
        self.state.decisions += 1
        self._advance()
        return self.events

    def advance(self) -> list[Event]:
        """Run automatic tasks until a decision is pending (used after setup and loading)."""
        self.events = []
        self._advance()
        return self.events

    # -- the loop ------------------------------------------------------------------------
    def _compute_decisions(self) -> list[Decision]:
        stack = self.state.stack
        if not stack:
            return []
        top = stack[-1]
        if top["kind"] == "simultaneous":
            out = []
            for company_id in self.state.turn_order:
                queue = top["pending"].get(company_id) or []
                if queue:
                    out.append(self._decision_for(queue[0], simultaneous=True))
            return out
        handler = self.rules.tasks[top["kind"]]
        if not handler.is_decision:
            return []
        return [self._decision_for(top)]

    def _decision_for(self, entry: Task, *, simultaneous: bool = False) -> Decision:
        handler = self.rules.tasks[entry["kind"]]
        assert handler.options is not None
        options = handler.options(self, entry)
        prompt = handler.prompt(self, entry) if handler.prompt else entry["kind"]
        return Decision(
            player=entry["player"],
            kind=entry["kind"],
            prompt=prompt,
            options=tuple(options),
            simultaneous=simultaneous,
        )

    def _answer(self, decision: Decision, option: Option) -> None:
        self._decisions = None
        top = self.state.stack[-1]
        if top["kind"] == "simultaneous":
            queue = top["pending"][decision.player]
            entry = queue.pop(0)
            top["answers"].append([decision.player, entry, option.notation])
            self.emit(
                "answer", decision.player, text=option.full_text, data={"notation": option.notation}
            )
            return
        entry = self.state.stack.pop()
        handler = self.rules.tasks[entry["kind"]]
        assert handler.apply is not None
        self.emit(
            "answer", decision.player, text=option.full_text, data={"notation": option.notation}
        )
        handler.apply(self, entry, option.move)

    def _advance(self) -> None:
        stack = self.state.stack
        while stack and not self.state.finished:
            self._decisions = None
            top = stack[-1]
            if top["kind"] == "simultaneous":
                if self._advance_simultaneous(top):
                    continue
                return
            handler = self.rules.tasks[top["kind"]]
            if not handler.is_decision:
                stack.pop()
                assert handler.run is not None
                handler.run(self, top)
                continue
            decision = self._decision_for(top)
            if not decision.options:
                # Nothing is possible (e.g. a reward build with no free space): skip it.
                stack.pop()
                self.emit(
                    "skipped", top.get("player"), text=f"nothing was possible ({decision.prompt})"
                )
                continue
            if len(decision.options) == 1 and not handler.always_ask:
                stack.pop()
                option = decision.options[0]
                self.emit(
                    "auto",
                    decision.player,
                    text=option.full_text,
                    data={"notation": option.notation},
                )
                assert handler.apply is not None
                handler.apply(self, top, option.move)
                continue
            self._decisions = [decision]
            return
        self._decisions = None

    def _advance_simultaneous(self, top: Task) -> bool:
        """Auto-answer single-option entries; when all are answered, apply them in turn order."""
        for company_id in self.state.turn_order:
            queue = top["pending"].get(company_id) or []
            while queue:
                decision = self._decision_for(queue[0], simultaneous=True)
                if len(decision.options) > 1:
                    break
                entry = queue.pop(0)
                if decision.options:
                    option = decision.options[0]
                    self.emit(
                        "auto",
                        company_id,
                        text=option.full_text,
                        data={"notation": option.notation},
                    )
                    top["answers"].append([company_id, entry, option.notation])
        if any(top["pending"].get(c) for c in self.state.turn_order):
            return False
        self.state.stack.pop()
        order = {company_id: index for index, company_id in enumerate(self.state.turn_order)}
        answers = sorted(top["answers"], key=lambda answer: order[answer[0]])
        for company_id, entry, notation in reversed(answers):
            self.push(
                {"kind": "answered", "player": company_id, "entry": entry, "notation": notation}
            )
        return True

    # -- helpers for task handlers ---------------------------------------------------------
    def push(self, *tasks: Task) -> None:
        """Schedule tasks so that the first one given runs first."""
        for entry in reversed(tasks):
            self.state.stack.append(entry)

    def chain(self, entry: Task, follower: Task) -> None:
        """Schedule the task that naturally follows `entry`, unless `entry` asked to stop.

        Positions run a single phase by pushing its task with `"stop": True`.
        """
        if not entry.get("stop"):
            self.push(follower)

    def emit(
        self,
        kind: str,
        company: str | None = None,
        amount: int = 0,
        source: str = "",
        text: str = "",
        data: dict[str, Any] | None = None,
    ) -> None:
        """Record an event."""
        self.events.append(Event(kind, company, amount, source, text, data or {}))

    def gain(self, company_id: str, resource: str, amount: int, source: str) -> int:
        """Change one counter of a company (credits, vp, excavators, mixers, engineers).

        VP never go below zero (the track has no negative spaces); the event records the
        change actually made, so VP always equal the starting VP plus the sum of VP events.
        An automa has no credits: it pays none, and each credit it would gain is 1 VP.
        """
        if amount == 0:
            return 0
        if resource == "credits" and self.automa_level(company_id) is not None:
            if amount < 0:
                return 0
            resource = "vp"
        company = self.state.companies[company_id]
        before = getattr(company, resource)
        after = before + amount
        if after < 0:
            if resource != "vp":
                raise AssertionError(f"{company_id} would have {after} {resource}")
            after = 0
        setattr(company, resource, after)
        change = after - before
        if change:
            self.emit(resource, company_id, change, source)
        return cast("int", change)

    def add_energy(self, company_id: str, amount: int, source: str) -> None:
        """Advance a company's Energy marker."""
        if amount <= 0:
            return
        self.state.companies[company_id].energy += amount
        self.emit("energy", company_id, amount, source)

    def dam_capacity(self, space_id: str) -> int:
        """How many drops the dam on this space holds (0 when no dam is built)."""
        dam = self.state.dams.get(space_id)
        if dam is None:
            return 0
        capacity = dam.level
        for bend in self.hooked(Hooks.dam_capacity):
            capacity = bend(self, space_id, dam, capacity)
        return capacity

    def capacities(self) -> dict[str, int]:
        """Capacity of every built dam."""
        return {space: self.dam_capacity(space) for space in self.state.dams}

    def water_levels(self) -> dict[str, int]:
        """Water held by every built dam."""
        return {space: dam.water for space, dam in self.state.dams.items()}

    def companies_in_order(self) -> list[str]:
        """Company ids in current turn order."""
        return list(self.state.turn_order)

    def reward_parts(self, reward: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
        """A reward's entries: plain gains first, then the rest in printed order."""
        plain = ("credits", "vp", "excavators", "mixers", "energy")
        yield from ((key, reward[key]) for key in plain if key in reward)
        yield from ((key, value) for key, value in reward.items() if key not in plain)
