"""A skipped seat passes its turns for itself, quickly: all its engineers go to the Bank at once."""

from __future__ import annotations

import random

from tests.service.conftest import MakeService
from tests.service.helpers import USERS, actor, random_step, started_game


async def test_a_skipped_seat_banks_all_its_engineers_in_one_turn(
    make_service: MakeService,
) -> None:
    service = await make_service()
    game_id = await started_game(service, 2, seed=11)
    await service.skip_seat(actor(USERS[0], manage=True), 1)
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
