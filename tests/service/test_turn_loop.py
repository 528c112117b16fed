"""The turn loop over whole games: every step reaches whoever must act next.

60 random complete games through the service with a recording announcer (ten of each mix),
2 to 4 players by seed, some players skipping Confirm, some seats skipped mid-game, with
restarts and undos: after every step the checks of tests/service/turnloop.py hold. The same
checks run over 500 and more games in bench/turn_loop.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.service.turnloop import MIXES, Figures, play_checked, players_for

GAMES_PER_MIX = 10


@pytest.mark.parametrize("mix", list(MIXES))
async def test_every_step_reaches_whoever_must_act(mix: str, tmp_path: Path) -> None:
    total = Figures(games=0)
    for seed in range(1, GAMES_PER_MIX + 1):
        total.add(await play_checked(mix, seed, players_for(seed), tmp_path / f"{seed}.db"))
    assert not total.problems, total.problems
    assert total.clean and total.games == GAMES_PER_MIX
    # The games went through what the loop must handle (so the checks saw something).
    assert total.confirms > 50 * GAMES_PER_MIX and total.commits >= total.confirms
    assert total.forced_turns > 0 and total.skipped_answers > 0
