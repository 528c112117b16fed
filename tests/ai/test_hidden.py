"""The computer player never uses what its seat cannot see, and answers the same in every process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.ai import decide
from bot.ai.determinize import determinized
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.prng import SplitMix64

ROOT = Path(__file__).resolve().parents[2]


def advanced(options: GameOptions, steps: int) -> Game:
    """A game some decisions in (every seat answering its first option, automas by rule)."""
    game = new_game(options)
    for _ in range(steps):
        decision = game.decisions()[0]
        if game.automa_level(decision.player) is not None:
            option = automa_answer(game, decision)
        else:
            option = decision.options[-1] if decision.kind == "turn" else decision.options[0]
        game.apply(option.notation, decision.player)
    return game


def with_hidden_reshuffled(game: Game, seed: int) -> Game:
    """The same position with every face-down pile (contracts, Patent Office, automa deck,
    expansions' piles) in another order."""
    other = determinized(game, SplitMix64(seed))
    return other


def ai_seat(game: Game) -> tuple[int, str]:
    decision = next(d for d in game.decisions() if game.automa_level(d.player) is None)
    seat = player_seat(game.state, decision.player)
    assert seat is not None
    return seat, decision.player


def test_positions_differing_only_in_hidden_piles_get_the_same_answer() -> None:
    options = GameOptions(players=2, seed=21, setup="full", expansions=("leeghwater",), automa=(3,))
    game = advanced(options, 12)
    other = with_hidden_reshuffled(game, 99)
    state, changed = game.state, other.state
    assert state.private_piles != changed.private_piles  # the hidden parts really differ
    assert state.patent_piles != changed.patent_piles
    assert state.extra["automa"]["decks"] != changed.extra["automa"]["decks"]
    assert state.extra["leeghwater"]["work_piles"] != changed.extra["leeghwater"]["work_piles"]
    # ... and nothing a seat sees does.
    assert state.private_offer == changed.private_offer
    assert state.patent_offer == changed.patent_offer
    assert state.companies == changed.companies
    seat, _ = ai_seat(game)
    for level in ("casual", "strong"):
        assert decide(game, seat, level, 5) == decide(other, seat, level, 5)


def test_determinization_keeps_what_is_seen_and_never_touches_the_game() -> None:
    options = GameOptions(players=2, seed=4, expansions=("nile",))
    game = advanced(options, 20)
    before = json.dumps(game.state.to_json(), sort_keys=True)
    seat, _ = ai_seat(game)
    decide(game, seat, "strong", 3)
    assert json.dumps(game.state.to_json(), sort_keys=True) == before
    copy = determinized(game, SplitMix64(1))
    for zone, stacks in game.state.extra["nile"]["zones"].items():
        for space, stack in stacks.items():
            mine = copy.state.extra["nile"]["zones"][zone][space]
            assert len(mine) == len(stack) and mine[-1:] == stack[-1:]  # the top stays in view
    assert sorted(map(sorted, game.state.private_piles.values())) == sorted(
        map(sorted, copy.state.private_piles.values())
    )


SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from bot.ai import decide
from tests.ai.test_hidden import advanced, ai_seat
from bot.rules import GameOptions
game = advanced(GameOptions(players=3, seed=8, setup="full", expansions=("colorado",)), 9)
seat, _ = ai_seat(game)
print(json.dumps([decide(game, seat, level, 77).__dict__ for level in ("casual", "strong")]))
"""


def test_the_same_answer_in_processes_with_different_hash_seeds() -> None:
    answers = []
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT.format(root=str(ROOT))],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=True,
        )
        answers.append(out.stdout)
    assert answers[0] == answers[1]
    assert json.loads(answers[0])[0]["notation"]
