"""Seeded random playouts shared by the random-game tests of the base game and every expansion.

Two families, each kept to the seeds and choices its tests were written with:

- `random_full_game` (SplitMix64 among all pending decisions) checks the full game's own
  invariants after every step: no negative resources, VP equal to 10 plus the VP events,
  12 engineers in all;
- `play_ledger_game` (random.Random) checks every ledger invariant of `invariants.check`
  after every step and that a replay of the log reproduces the game.

`first_decision_playout` answers only the first pending decision (the tests that look at
which verbs a game uses, and the replay tests).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable

from bot.rules import Game, GameOptions, GameState, new_game
from bot.rules.events import Event
from bot.rules.prng import SplitMix64
from bot.rules.replay import replay
from tests.rules.invariants import Ledger, check

RESOURCES = ("credits", "excavators", "mixers", "engineers", "vp")


def engineers_out(game: Game, company_id: str) -> int:
    """Engineers on action spaces and on the company board's construction spaces."""
    company = game.company(company_id)
    on_spaces = sum(
        n for space in game.state.spaces.values() for cid, n in space if cid == company_id
    )
    spaces = game.content.common.construction_spaces[: company.construction_spaces_used]
    return on_spaces + sum(space.engineers for space in spaces)


def check_invariants(game: Game, vp_events: dict[str, int]) -> None:
    """No negative resources; VP = 10 + VP events; engineers conserved."""
    for cid, company in game.state.companies.items():
        for resource in RESOURCES:
            assert getattr(company, resource) >= 0, (cid, resource)
        assert company.vp == 10 + vp_events.get(cid, 0), cid
        assert company.engineers + engineers_out(game, cid) == 12, cid


def random_full_game(
    players: int, seed: int, map_id: str = "base", expansions: tuple[str, ...] = ()
) -> Game:
    """Play a full game to its end choosing uniformly among the listed options."""
    game = new_game(
        GameOptions(players=players, setup="full", seed=seed, map=map_id, expansions=expansions)
    )
    rng = SplitMix64(seed * 7919 + players)
    vp_events: dict[str, int] = {}
    steps = 0
    while not game.is_over:
        decisions = game.decisions()
        assert decisions, "no decision pending before the end of the game"
        # The pictures' cheap query of who acts agrees with the decisions.
        assert game.deciders() == [d.player for d in decisions]
        decision = decisions[rng.below(len(decisions))]
        assert decision.options
        option = decision.options[rng.below(len(decision.options))]
        for event in game.apply(option, decision.player):
            if event.kind == "vp":
                vp_events[event.company] = vp_events.get(event.company, 0) + event.amount
        if game.state.phase != "draft":
            check_invariants(game, vp_events)
        steps += 1
        assert steps < 20_000
    return game


def assert_game_ended(game: Game, players: int) -> None:
    """The game ran its five rounds, ranked every player, and survives a JSON round trip."""
    state = game.state
    assert state.finished and state.round == 5
    assert len(state.result["ranking"]) == players
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


def first_decision_playout(
    options: GameOptions, rng_seed: int
) -> tuple[Game, list[tuple[str, str]], list[Event]]:
    """Play to the end answering the first pending decision with a SplitMix64 pick.

    Returns the game, its answers as (player, notation), and every event of the game.
    """
    game = new_game(options)
    rng = SplitMix64(rng_seed)
    log: list[tuple[str, str]] = []
    events: list[Event] = []
    while not game.is_over:
        decision = game.decisions()[0]
        option = decision.options[rng.below(len(decision.options))]
        events += game.apply(option, decision.player)
        log.append((decision.player, option.notation))
    return game, log, events


def verbs_played(games: Iterable[GameOptions]) -> set[str]:
    """The notation verbs answered across these games (each played by `first_decision_playout`
    with its own seed)."""
    seen: set[str] = set()
    for options in games:
        _game, log, _events = first_decision_playout(options, options.seed or 0)
        seen |= {notation.split(" ")[0] for _player, notation in log}
    return seen


def assert_answers_replay(options: GameOptions, rng_seed: int) -> None:
    """Applying a played game's answers to a new game of the same options gives the same state."""
    game, log, _events = first_decision_playout(options, rng_seed)
    again = new_game(options)
    for player, notation in log:
        again.apply(notation, player)
    assert again.state.to_json() == game.state.to_json()


def play_ledger_game(
    options: GameOptions,
    *,
    each_step: Callable[[Game], None] | None = None,
    check_every: bool = True,
    replay_midway: bool = True,
    tiles_by_events: bool = True,
    max_label: int | None = None,
) -> tuple[Game, Counter]:
    """Play one game by random legal answers, checking the engine's contract as it goes.

    After every step (`check_every`) the ledger invariants hold and `each_step` passes; at
    random points (1%) the state survives a JSON round trip and (`replay_midway`) a replay of
    the log reproduces it; at the end the replay reproduces the finished game. A drafted game
    starts its ledger once the draft is over. `tiles_by_events` False takes the tiles held as
    they are (the ledger tracks only the introductory game's tile moves); `max_label` bounds
    every option's label. Returns the game and how often each notation verb was answered.
    """
    game = new_game(options)
    ledger = None if game.state.phase == "draft" else Ledger.of(game)
    rng = random.Random((options.seed or 0) * 7919 + options.players)
    log: list[dict] = []
    verbs: Counter = Counter()
    while not game.is_over:
        decisions = game.decisions()
        assert decisions, "a game that is not over must have a pending decision"
        decision = rng.choice(decisions)
        assert decision.options, "a decision must list at least one option"
        assert len({o.notation.lower() for o in decision.options}) == len(decision.options)
        if max_label is not None:
            for option in decision.options:
                assert len(option.label) <= max_label, option.label
        option = rng.choice(decision.options)
        verbs[option.notation.split(" ")[0]] += 1
        events = game.apply(option.notation, decision.player)
        log.append({"kind": "decision", "notation": option.notation, "player": decision.player})
        if ledger is None:
            if game.state.phase != "draft":
                ledger = _ledger_after_draft(game)
            continue
        ledger.add(events)
        if not tiles_by_events:
            ledger.tiles = {
                c: Counter(x.tiles + x.wheel_tiles()) for c, x in game.state.companies.items()
            }
        if check_every:
            check(game, ledger)
        if each_step is not None:
            each_step(game)
        if rng.random() < 0.01:
            data = game.state.to_json()
            assert GameState.from_json(json.loads(json.dumps(data))).to_json() == data
            if replay_midway:
                assert replay(options, log).state.to_json() == data
    assert ledger is not None
    check(game, ledger)
    assert replay(options, log).state.to_json() == game.state.to_json()
    return game, verbs


def _ledger_after_draft(game: Game) -> Ledger:
    """The ledger of a game whose draft just ended, starting from this state."""
    ledger = Ledger.of(game)
    ledger.energy = Counter({c: x.energy for c, x in game.state.companies.items()})
    for cid, company in game.state.companies.items():
        # Tommaso Battista's Architect is not an engineer: count what is there.
        ledger.start[cid]["engineers"] = company.engineers
    return ledger
