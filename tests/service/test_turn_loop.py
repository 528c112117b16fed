"""The turn loop over whole games: every step reaches whoever must act next.

68 random complete games through the service with a recording announcer (ten of each mix,
four of each mix with automa companies),
2 to 4 players by seed, some players skipping Confirm, some seats skipped mid-game, with
restarts and undos: after every step the checks of tests/service/turnloop.py hold. The same
checks run over 500 and more games in bench/turn_loop.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.service.turnloop import MIXES, Figures, play_checked, players_for

GAMES_PER_MIX = 10
AUTOMA_GAMES = 4  # games with automas are longer (more turns each): fewer of them


@pytest.mark.parametrize("mix", list(MIXES))
async def test_every_step_reaches_whoever_must_act(mix: str, tmp_path: Path) -> None:
    total = Figures(games=0)
    games = AUTOMA_GAMES if "automa" in mix else GAMES_PER_MIX
    for seed in range(1, games + 1):
        total.add(await play_checked(mix, seed, players_for(seed), tmp_path / f"{seed}.db"))
    assert not total.problems, total.problems
    assert total.clean and total.games == games
    # The games went through what the loop must handle (so the checks saw something).
    assert total.confirms > 20 * games and total.commits >= total.confirms
    if "automa" in mix:
        assert total.automa_answers > 20 * games
    else:
        assert total.forced_turns > 0 and total.skipped_answers > 0


@pytest.mark.parametrize("mix", ["intro", "automa", "full+leeghwater"])
async def test_every_step_reaches_whoever_must_act_with_absences_and_clocks(
    mix: str, tmp_path: Path
) -> None:
    """Clocked games (each timeout policy) whose players are absent now and then: the same
    checks hold after every expiry, and every game ends."""
    total = Figures(games=0)
    for seed in range(1, 7):
        db = tmp_path / f"{seed}.db"
        total.add(await play_checked(mix, seed, players_for(seed), db, absences=True))
    assert not total.problems, total.problems
    assert total.clean and total.games == 6 and total.unended == 0
    assert total.absences > 10 and total.expiries > 0
