"""Claims the OutboxSender takes are always settled: sent, retried or given back at once
(the cases found with the Leeghwater work: a failed batch, a cancelled claim)."""

from __future__ import annotations

import asyncio

from bot.service import Announcement, GameService, OutboxSender
from tests.service.helpers import (
    CHANNEL,
    OTHER_CHANNEL,
    USERS,
    FakeClock,
    RecordingPort,
    actor,
)


async def two_games(service: GameService) -> None:
    """Two started games in two channels: each has one announcement (its start) to post."""
    for channel in (CHANNEL, OTHER_CHANNEL):
        await service.lobby.create_game(actor(USERS[0], channel=channel), players=2, seed=3)
        await service.lobby.join(actor(USERS[1], channel=channel))
        await service.lobby.start(actor(USERS[0], channel=channel))


class BlockingPort(RecordingPort):
    """A port whose first post hangs until the test cancels the sender."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()

    async def post(self, announcement: Announcement) -> int:
        self.entered.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_one_games_failure_does_not_hold_up_another_game(
    service: GameService, clock: FakeClock
) -> None:
    """Both start announcements are claimed in one batch; the first post fails."""
    await two_games(service)
    port = RecordingPort(fail=1)
    sender = OutboxSender(service.store, port, clock, service=service)
    # The clock stands still: a claim left behind would wait for its lease forever.
    assert await sender.run_once() == 1
    assert [a.channel_id for a in port.posted] == [OTHER_CHANNEL]
    assert await sender.run_once() == 0  # the failed one waits for its back-off only
    clock.advance(10 * 60_000)
    assert await sender.run_once() == 1
    assert {a.channel_id for a in port.posted} == {CHANNEL, OTHER_CHANNEL}


async def test_a_cancelled_sender_gives_its_claims_back(
    service: GameService, clock: FakeClock
) -> None:
    """Cancelled mid-post (shutdown), the sender releases the batch; no lease to wait for."""
    await two_games(service)
    blocking = BlockingPort()
    stuck = OutboxSender(service.store, blocking, clock, service=service)
    task = asyncio.ensure_future(stuck.run_once())
    await asyncio.wait_for(blocking.entered.wait(), 10)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    assert await sender.run_once() == 2  # at once, without moving the clock
    for game_id in {a.game_id for a in port.posted}:
        assert await service.store.pending_outbox(game_id) == []


async def test_a_claim_that_lands_after_cancellation_is_given_back(
    service: GameService, clock: FakeClock
) -> None:
    """The store finishes a claim its caller stopped waiting for; the sender releases it."""
    await two_games(service)
    first = RecordingPort()
    sender = OutboxSender(service.store, first, clock, service=service)
    task = asyncio.ensure_future(sender.run_once())
    await asyncio.sleep(0)  # the claim's transaction has started
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    port = RecordingPort()
    again = OutboxSender(service.store, port, clock, service=service)
    assert await again.run_once() + len(first.posted) == 2
