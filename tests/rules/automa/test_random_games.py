"""Random games with automas: every setup they may play, invariants after every answer, each
automa turn checked against the second implementation, replay exact. More in bench/soak.py
and bench/automa.py."""

from __future__ import annotations

import pytest

from bot.rules import GameOptions
from bot.rules.replay import replay
from tests.rules.automa.games import play_game

CASES = [
    # (players, automa levels, setup, expansions)
    (2, (0,), "intro", ()),
    (2, (1,), "intro", ()),
    (3, (2, 3), "intro", ()),
    (4, (1, 2, 3), "intro", ()),
    (3, (1, 1), "full", ()),
    (4, (0, 2, 3), "full", ()),
    (2, (3,), "full", ("leeghwater",)),
    (4, (1, 2, 3), "full", ("leeghwater",)),
    (3, (1, 2, 3), "intro", ()),  # automas only
]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize(("players", "levels", "setup", "expansions"), CASES)
def test_random_games_with_automas(players, levels, setup, expansions, seed) -> None:
    options = GameOptions(
        players=players, seed=seed, automa=levels, setup=setup, expansions=expansions
    )
    played = play_game(options)
    game = played.game
    assert game.state.finished and game.state.round == 5
    assert played.problems == []
    assert played.turns > 0
    assert sorted(r["company"] for r in game.state.result["ranking"]) == sorted(game.state.seats)
    assert replay(options, played.log).state.to_json() == game.state.to_json()


def test_automas_use_every_action_type_across_games() -> None:
    seen = set()
    for seed in range(3):
        for levels, expansions in (((1, 2, 3), ("leeghwater",)), ((1, 3), ())):
            options = GameOptions(
                players=len(levels) + 1,
                seed=seed,
                automa=levels,
                setup="full",
                expansions=expansions,
            )
            seen |= set(play_game(options, check_every=False, reference=False).actions)
    assert seen >= {
        "produce",
        "place_drops",
        "construct",
        "external_work",
        "rotate_wheel",
        "gain_machinery",
        "clear_contracts",
        "patent",
    }
