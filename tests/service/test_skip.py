"""A skipped seat passes its turns for itself, quickly: all its engineers go to the Bank at once."""

from __future__ import annotations

import random

from bot.service import OutboxSender
from tests.service.conftest import MakeService
from tests.service.helpers import (
    USERS,
    FakeClock,
    RecordingPort,
    actor,
    play_policy,
    random_step,
    started_game,
)


async def test_a_skipped_seat_banks_all_its_engineers_in_one_turn(
    make_service: MakeService,
) -> None:
    service = await make_service()
    game_id = await started_game(service, 2, seed=11)
    await service.moderation.skip_seat(actor(USERS[0], manage=True), 1)
    rng = random.Random(4)
    for _ in range(60):
        if not await random_step(service, rng, 1, game_id):
            break
        records = [entry.record for entry in await service.store.read_log(game_id)]
        banked = [
            r["notation"]
            for r in records
            if r.get("auto") and r["notation"].startswith("engineers")
        ]
        if banked:
            assert banked[0] == "engineers 12"  # the whole supply, not one engineer a turn
            return
    raise AssertionError("the skipped seat never reached the Bank")


async def test_skipping_during_someone_elses_turn_keeps_their_turn_open(
    make_service: MakeService, clock: FakeClock
) -> None:
    """The player in the middle of their turn keeps it (nothing is committed for them), the
    skip is announced without pinging them again, and the game reads the same from the store."""
    service = await make_service()
    game_id = await started_game(service, 3, seed=5)
    loaded = await play_policy(service, game_id, 5, lambda game: bool(game.tail))
    busy = service.desk.users_deciding(loaded)[0]
    await OutboxSender(service.store, RecordingPort(), clock, service=service).run_once()
    seat = next(i for i, user in enumerate(loaded.seats) if user != busy)
    outcome = await service.moderation.skip_seat(actor(USERS[0], manage=True), seat)
    assert outcome.announced
    after = await service.desk.game_for_reminder(game_id)
    assert after is not None and after.tail == loaded.tail  # the turn in progress stays
    port = RecordingPort()
    await OutboxSender(service.store, port, clock, service=service).run_once()
    [skipped] = port.posted
    assert "will pass every turn" in skipped.text and skipped.waiting_for == (busy,)
    assert busy not in skipped.mentions  # already told when their turn began
    fresh = await (await make_service()).desk.game_for_reminder(game_id)
    assert fresh is not None and fresh.chain == after.chain and fresh.version == after.version
    commits = len(after.commits)
    await play_policy(service, game_id, 5, lambda game: len(game.commits) > commits)
    assert await service.views.log_lines(game_id, 5, by_game_id=True)
