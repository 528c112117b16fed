"""Random games with automa seats: people answer at random, automas by their rules; every
automa turn is checked against the second implementation (`tests.rules.automa.reference`)
and the invariants hold after every answer. Used by tests/rules/automa/test_random_games.py,
bench/soak.py and bench/automa.py."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field

from bot.rules import Game, GameOptions, GameState, new_game
from bot.rules.automa.play import automa_answer, pending_automa
from bot.rules.catalogue import open_game
from bot.rules.replay import replay
from tests.rules.automa.reference import check_turn
from tests.rules.invariants import Ledger, check


@dataclass
class Played:
    """One finished game and what its automas did."""

    game: Game
    options: GameOptions
    log: list[dict] = field(default_factory=list)
    actions: Counter = field(default_factory=Counter)  # action types done
    criteria: Counter = field(default_factory=Counter)  # criteria that narrowed a choice
    turns: int = 0
    problems: list[str] = field(default_factory=list)


def play_game(
    options: GameOptions,
    *,
    check_every: bool = True,
    reference: bool = True,
    replay_sometimes: bool = True,
    seed: int | None = None,
) -> Played:
    """Play a game to its end: people (the first seats) at random, automas by their rules."""
    game = new_game(options)
    ledger = None  # from the end of the draft (the companies exist then)
    rng = random.Random(options.seed * 7919 + 17 if seed is None else seed)
    played = Played(game, options)
    while not game.is_over:
        decision = pending_automa(game)
        if decision is not None:
            option = automa_answer(game, decision)
            before = (
                open_game(game.state.clone(), game.content)
                if reference and decision.kind == "automa_turn"
                else None
            )
        else:
            decisions = game.decisions()
            assert decisions, "a game that is not over must have a pending decision"
            decision = rng.choice(decisions)
            option = rng.choice(decision.options)
            before = None
        events = game.apply(option.notation, decision.player)
        played.log.append(
            {"kind": "decision", "notation": option.notation, "player": decision.player}
        )
        if decision.kind == "automa_turn":
            played.turns += 1
            for event in events:
                if event.kind == "automa_action" and event.company == decision.player:
                    played.actions[event.data["type"]] += 1
                    for name in event.data.get("criteria", ()):
                        played.criteria[name] += 1
            if before is not None:
                found = check_turn(before, game, decision.player, events)
                played.problems += [f"{decision.player}: {p}" for p in found]
        if check_every and ledger is None and game.state.phase != "draft":
            ledger = Ledger.of(game)  # the draft's last answer's events are in the state
        elif ledger is not None:
            ledger.add(events)
            check(game, ledger)
        if replay_sometimes and rng.random() < 0.005:
            data = game.state.to_json()
            assert GameState.from_json(json.loads(json.dumps(data))).to_json() == data
            assert replay(options, played.log).state.to_json() == data
    if ledger is not None:
        check(game, ledger)
    return played
