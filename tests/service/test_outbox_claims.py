"""The outbox sender never leaves a claim behind while it lives (the clock here never moves).

A claim that is neither marked sent nor retried would wait out its 60 s lease; under a test
clock that does not move, forever. These cover the ways that could happen: a cancellation
during the post, a failure of the store's bookkeeping, and the rest of a claimed batch after
one item failed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import pytest

from bot.service import Announcement, DestinationGone, GameService, OutboxSender
from tests.service.conftest import MakeService
from tests.service.helpers import CHANNEL, GUILD, USERS, FakeClock, RecordingPort, actor


async def games_in_channels(service: GameService, channels: list[int]) -> list[int]:
    """A started two-player game in each channel; each has its start announcement pending."""
    ids = []
    for channel in channels:
        outcome = await service.lobby.create_game(
            actor(USERS[0], channel=channel), players=2, seed=3
        )
        await service.lobby.join(actor(USERS[1], channel=channel))
        await service.lobby.start(actor(USERS[0], channel=channel))
        ids.append(outcome.game_id)
    return ids


@dataclass
class HangingPort(RecordingPort):
    """Posts hang (until cancelled) for the first `hang` calls."""

    hang: int = 0
    entered: asyncio.Event | None = None

    async def post(self, announcement: Announcement) -> int:
        if self.hang:
            self.hang -= 1
            assert self.entered is not None
            self.entered.set()
            await asyncio.Event().wait()  # never set: only a cancellation ends this
        return await super().post(announcement)


async def test_cancelled_mid_post_gives_every_claim_back(
    make_service: MakeService, clock: FakeClock
) -> None:
    service = await make_service()
    games = await games_in_channels(service, [CHANNEL, CHANNEL + 1, CHANNEL + 2])
    port = HangingPort(hang=1, entered=asyncio.Event())
    sender = OutboxSender(service.store, port, clock, service=service)
    task = asyncio.create_task(sender.run_once())
    await port.entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The clock has not moved: without the release, all three would wait for their lease.
    pending = [item for g in games for item in await service.store.pending_outbox(g)]
    assert len(pending) == 3 and all(item.attempts == 0 for item in pending)
    assert await sender.run_once() == 3
    assert sorted(a.game_id for a in port.posted) == games


async def test_a_failed_post_does_not_hold_up_other_games(
    make_service: MakeService, clock: FakeClock
) -> None:
    service = await make_service()
    games = await games_in_channels(service, [CHANNEL, CHANNEL + 1, CHANNEL + 2])
    port = RecordingPort(fail=1)
    sender = OutboxSender(service.store, port, clock, service=service)
    # The first game's post fails (it backs off); the other two go out in the same run.
    assert await sender.run_once() == 2
    assert sorted(a.game_id for a in port.posted) == games[1:]
    [waiting] = await service.store.pending_outbox(games[0])
    assert waiting.attempts == 1 and waiting.claim is None


class FailingMarkStore:
    """A store whose mark_sent fails once (e.g. the disk was briefly full)."""

    def __init__(self, store: object) -> None:
        self._store = store
        self.failures = 1

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def mark_sent(self, item_id: int, claim: str, message_id: int) -> bool:
        if self.failures:
            self.failures -= 1
            raise OSError("disk full")
        return await self._store.mark_sent(item_id, claim, message_id)  # type: ignore[attr-defined]


async def test_failed_bookkeeping_releases_the_claim(
    make_service: MakeService, clock: FakeClock
) -> None:
    service = await make_service()
    [game] = await games_in_channels(service, [CHANNEL])
    port = RecordingPort()
    store = FailingMarkStore(service.store)
    sender = OutboxSender(store, port, clock, service=service)  # type: ignore[arg-type]
    with pytest.raises(OSError):
        await sender.run_once()
    # Posted, but not recorded: it goes out again (with the same outbox id, which Discord's
    # enforced nonce turns into the same message) instead of stalling.
    assert await sender.run_once() == 1
    assert [a.outbox_id for a in port.posted] == [port.posted[0].outbox_id] * 2
    assert await service.store.pending_outbox(game) == []


@dataclass
class GonePort(RecordingPort):
    """A port whose channels were deleted."""

    async def post(self, announcement: Announcement) -> int:
        raise DestinationGone(f"channel {announcement.channel_id} no longer exists")


async def test_an_announcement_for_a_deleted_channel_is_given_up_with_one_line(
    make_service: MakeService, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Unknown Channel when posting: the announcement is given up and the game ends."""
    service = await make_service()
    [game] = await games_in_channels(service, [CHANNEL])
    sender = OutboxSender(service.store, GonePort(), clock, service=service)
    with caplog.at_level(logging.INFO, logger="bot"):
        assert await sender.run_once() == 0
        clock.advance(24 * 3_600_000)
        assert await sender.run_once() == 0  # nothing left to try
    assert await service.store.pending_outbox(game) == []
    assert (await service.store.get_game(game)).status == "abandoned"
    assert [r.getMessage() for r in caplog.records] == [
        f"game #1 of server {GUILD} in channel {CHANNEL} ended as abandoned: "
        "channel unknown to Discord"
    ]


async def test_an_announcement_without_a_service_is_given_up_with_one_warning(
    make_service: MakeService, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A sender with nobody to tell about the lost channel only gives the item up."""
    service = await make_service()
    [game] = await games_in_channels(service, [CHANNEL])
    sender = OutboxSender(service.store, GonePort(), clock)
    with caplog.at_level(logging.INFO, logger="bot"):
        assert await sender.run_once() == 0
    assert await service.store.pending_outbox(game) == []
    assert [r.getMessage() for r in caplog.records] == [
        f"announcement 1 of game {game} given up: channel {CHANNEL} no longer exists"
    ]
