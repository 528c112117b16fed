"""Complete games through the service with scripted random players."""

from __future__ import annotations

import random

import pytest

from bot.service import GameService, OutboxSender
from bot.service.outbox import PANEL_EDITABLE_MS
from tests.service.helpers import (
    CHANNEL,
    USERS,
    FakeClock,
    RecordingPort,
    random_step,
    started_game,
)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
async def test_complete_game(
    service: GameService, clock: FakeClock, players: int, seed: int
) -> None:
    game_id = await started_game(service, players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while await random_step(service, rng, players, game_id):
        clock.advance(60_000)
        steps += 1
        assert steps < 5000
    meta = await service.store.get_game(game_id)
    assert meta.status == "finished"
    score = await service.views.score(game_id, by_game_id=True)
    assert score.over
    assert [row.rank for row in score.rows] == sorted(row.rank for row in score.rows)
    assert {row.user_id for row in score.rows} == set(USERS[:players])
    for row in score.rows:
        assert sum(vp for _, vp in row.breakdown) == row.vp

    # Every commit wrote exactly one announcement; delivering twice posts nothing more.
    log = await service.store.read_log(game_id)
    commits = [e for e in log if e.kind == "commit"]
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    assert await sender.run_once() == len(commits)
    assert await sender.run_once() == 0
    assert [a.version for a in port.posted] == [e.seq for e in commits]
    assert port.posted[-1].reason == "end" and not port.posted[-1].play_button
    # The final message pings every player once, names the winner and attaches the score
    # sheet before the board.
    final = port.posted[-1]
    assert sorted(final.mentions) == sorted(USERS[:players]) and not final.waiting_for
    assert "The game is over." in final.text and ("wins" in final.text or "share" in final.text)
    assert [i.filename.rsplit("-", 1)[-1] for i in final.images] == ["score.png", "map.png"]
    # Each other announcement pings exactly who must act next (seated players), but not the
    # player whose own answer committed it: their panel went on to their next decision;
    # unless it is posted once that panel can no longer be edited (here, all at the end).
    handed_back = late = 0
    for announcement, commit in zip(port.posted[:-1], commits, strict=False):
        actor = commit.record["user"] if commit.record["reason"] in ("turn", "choice") else None
        if clock() - commit.created_at >= PANEL_EDITABLE_MS:
            late += actor in announcement.waiting_for
            actor = None
        assert len(set(announcement.mentions)) == len(announcement.mentions)
        assert set(announcement.mentions) == {u for u in announcement.waiting_for if u != actor}
        handed_back += actor in announcement.waiting_for
        assert set(announcement.mentions) <= set(USERS[:players])
    assert handed_back + late  # every seed hands a player their own next decision at least once
    assert port.stripped == [a_id for a_id in range(900_001, 900_000 + len(commits))]
    assert await service.store.active_game(CHANNEL) is None


async def test_full_setup_starts_with_the_draft(service: GameService) -> None:
    await started_game(service, 2, setup="full")
    from tests.service.helpers import actor

    panels = [await service.views.panel(actor(u)) for u in USERS[:2]]
    assert any(p.options for p in panels)
    deciding = next(p for p in panels if p.options)
    assert deciding.company is not None and deciding.company.startswith("seat")
