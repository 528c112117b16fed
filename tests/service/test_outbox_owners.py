"""Outbox claims name their owner: a crashed run's claims come back at the next start of its
instance, a live sender renews its leases so that no peer ever takes them (clock injected)."""

from __future__ import annotations

import asyncio
import contextlib

from bot.service import Announcement, GameService, OutboxSender
from bot.service.outbox import process_owner
from bot.store import ClaimOwner
from tests.service.conftest import MakeService
from tests.service.helpers import USERS, FakeClock, RecordingPort, actor


async def a_started_game(service: GameService) -> int:
    """A started two-player game; its start announcement waits in the outbox."""
    outcome = await service.lobby.create_game(actor(USERS[0]), players=2, seed=3)
    await service.lobby.join(actor(USERS[1]))
    await service.lobby.start(actor(USERS[0]))
    return outcome.game_id


class SlowPort(RecordingPort):
    """A port whose posts wait until the test lets them finish."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()
        self.finish = asyncio.Event()

    async def post(self, announcement: Announcement) -> int:
        self.entered.set()
        await self.finish.wait()
        return await super().post(announcement)


@contextlib.asynccontextmanager
async def running(sender: OutboxSender):  # type: ignore[no-untyped-def]
    """Run the sender's loop (recovery, deliveries, renewals) for the block's duration."""
    stop = asyncio.Event()
    task = asyncio.create_task(sender.run(stop, interval_s=0.01))
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)


async def test_the_next_run_posts_what_a_crashed_run_held_at_once(
    service: GameService, clock: FakeClock
) -> None:
    game = await a_started_game(service)
    # The crashed run claimed the announcement and died before posting or releasing it.
    [held] = await service.store.claim_outbox(owner=ClaimOwner("host-a", "run-1"))
    port = RecordingPort()
    sender = OutboxSender(
        service.store, port, clock, service=service, owner=ClaimOwner("host-a", "run-2")
    )
    async with running(sender):  # the clock never moves: no lease runs out
        await asyncio.wait_for(_until(lambda: port.posted), 5)
    assert [a.outbox_id for a in port.posted] == [held.id]
    assert port.posted[0].game_id == game
    assert await service.store.pending_outbox(game) == []


async def test_a_peer_waits_for_the_lease_of_a_dead_owner(
    service: GameService, clock: FakeClock
) -> None:
    game = await a_started_game(service)
    port = RecordingPort()
    peer = OutboxSender(service.store, port, clock, service=service, owner=process_owner("host-b"))
    dead = ClaimOwner("host-a", "run-1")
    await service.store.claim_outbox(owner=dead, lease_ms=peer.lease_ms)
    await peer.recover()  # another instance: nothing of host-a's is taken back
    assert await peer.run_once() == 0
    clock.advance(peer.lease_ms)
    assert await peer.run_once() == 1
    assert [a.game_id for a in port.posted] == [game]


async def test_a_live_sender_keeps_its_claim_however_long_it_posts(
    make_service: MakeService, clock: FakeClock
) -> None:
    service = await make_service()
    game = await a_started_game(service)
    slow = SlowPort()
    owner = process_owner("host-a")
    sender = OutboxSender(
        service.store, slow, clock, service=service, owner=owner, renew_every_s=0.01
    )
    peer_port = RecordingPort()
    other = await make_service()  # another process on the same database
    peer = OutboxSender(other.store, peer_port, clock, service=other, owner=process_owner("host-b"))
    async with running(sender):
        await asyncio.wait_for(slow.entered.wait(), 5)
        for _ in range(12):  # two minutes of a post that hangs
            clock.advance(10_000)
            await asyncio.sleep(0.05)  # the sender's own loop renews (every 10 ms here)
            assert await peer.run_once() == 0
        slow.finish.set()
        await asyncio.wait_for(_until(lambda: slow.posted), 5)
    assert peer_port.posted == [] and [a.game_id for a in slow.posted] == [game]
    assert await service.store.pending_outbox(game) == []


def test_each_process_is_its_own_run_of_the_host_instance() -> None:
    first, second = process_owner(), process_owner()
    assert first.instance == second.instance and first.run != second.run
    assert process_owner("shards-0-3").instance == "shards-0-3"


async def _until(predicate) -> None:  # type: ignore[no-untyped-def]
    """Poll until the predicate holds."""
    while not predicate():
        await asyncio.sleep(0.01)
