"""Export and import (replayed before acceptance), and a log that no longer replays."""

from __future__ import annotations

import random

import pytest

from bot.service import GameService, ImportRefused
from tests.service.helpers import OTHER_CHANNEL, SPECTATOR, USERS, actor, random_step, started_game


async def test_export_import_round_trip(service: GameService) -> None:
    game_id = await started_game(service, seed=12)
    rng = random.Random(12)
    for _ in range(30):
        await random_step(service, rng, 2, game_id)
    doc = await service.moving.export_game(actor(USERS[0]))
    await service.moderation.abandon(actor(USERS[0]))  # one live copy: the original ends first
    outcome = await service.moving.import_game(
        actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True), doc
    )
    assert outcome.committed
    original = await service.views.score(game_id, by_game_id=True)
    copy = await service.views.score(outcome.game_id, by_game_id=True)
    assert [r.vp for r in copy.rows] == [r.vp for r in original.rows]


async def test_import_refuses_a_log_that_does_not_replay(service: GameService) -> None:
    game_id = await started_game(service, seed=12)
    doc = await service.moving.export_game(actor(USERS[0]))
    doc["log"].append(
        {
            **doc["log"][-1],
            "seq": len(doc["log"]) + 1,
            "kind": "decision",
            "record": {"kind": "decision", "notation": "fly", "player": "usa"},
        }
    )
    with pytest.raises(ImportRefused):
        await service.moving.import_game(actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True), doc)
    assert game_id


async def test_a_log_that_no_longer_replays_continues_from_the_snapshot_and_is_flagged(
    service: GameService,
) -> None:
    game_id = await started_game(service, seed=12)
    meta = await service.store.get_game(game_id)
    # A decision the engine refuses (as after an incompatible upgrade), after the last commit.
    await service.store.append(
        game_id, meta.version, [{"kind": "decision", "notation": "fly", "player": "seat0"}]
    )
    service.desk.cache.clear()  # as a fresh process would
    deciding = [await service.views.panel(actor(u)) for u in USERS[:2]]
    assert all(p.flag for p in deciding)
    assert any(p.options for p in deciding)
    log = await service.store.read_log(game_id)
    assert log[-1].kind == "flag"
