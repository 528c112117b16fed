"""Delivering committed announcements: the AnnouncementPort and the OutboxSender.

Every commit wrote its announcement to the outbox in the commit's own transaction; the
sender claims due items (one atomic update, so of several processes one sends each), renders
their images, posts them through the port, records the message id and marks them sent. A
failed post is retried with the store's back-off; items left over by a crash are sent at the
next start-up. Exactly once: a commit writes one outbox row, and a row is marked sent once.
A crash after the port posted but before `mark_sent` would post again after the lease: the
port gets `outbox_id` so that it can deduplicate (Discord: use it as an enforced nonce).
A sender that is cancelled (shut down) or hits an error mid-batch gives back the claims it
did not settle, so that they are due at once rather than when their lease ends; one game's
failed post does not hold up the other games' items of the same batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bot.service.types import Announcement, Image, ImageRequest, ReminderNotice
from bot.store import Clock, OutboxItem, Store

if TYPE_CHECKING:
    from bot.service.service import GameService

log = logging.getLogger(__name__)


@runtime_checkable
class AnnouncementPort(Protocol):
    """Where announcements go (Discord, the console, tests)."""

    async def post(self, announcement: Announcement) -> int:
        """Post an announcement to its channel; return the message id."""
        ...

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Remove the buttons of an earlier announcement (it is out of date now)."""
        ...

    async def remind(self, notice: ReminderNotice) -> None:
        """Deliver a reminder ping (and a DM when `notice.dm`)."""
        ...


class OutboxSender:
    """Posts claimed outbox items through the port, once per commit."""

    def __init__(
        self,
        store: Store,
        port: AnnouncementPort,
        clock: Clock,
        *,
        service: GameService | None = None,
        lease_ms: int = 60_000,
    ) -> None:
        self.store = store
        self.port = port
        self.clock = clock
        self.service = service
        self.lease_ms = lease_ms
        self._wake = asyncio.Event()

    def wake(self) -> None:
        """Deliver soon (called after a commit)."""
        self._wake.set()

    async def run_once(self) -> int:
        """Claim and deliver what is due now; return how many were delivered."""
        delivered = 0
        while True:
            items = await self._claim()
            if not items:
                return delivered
            failed = False
            pending = list(items)
            try:
                while pending:
                    # Each claimed item is a different game's (the store hands out a game's
                    # oldest only), so one game's failure must not hold up the others.
                    ok = await self._deliver(pending[0])
                    pending.pop(0)
                    delivered += ok
                    failed = failed or not ok
            finally:
                # Cancelled or broken mid-batch: give back what was not delivered, or it
                # would wait for its lease to end (forever, under a clock that stands still).
                await self._release(pending)
            if failed:
                return delivered  # the failed items wait for their back-off

    async def _claim(self) -> list[OutboxItem]:
        """Claim due items; a cancellation during the claim gives them back."""
        # The store finishes a transaction even when its caller is cancelled, so a claim
        # can land after we stopped waiting for it: wait for it anyway and release it.
        claim = asyncio.ensure_future(self.store.claim_outbox(lease_ms=self.lease_ms))
        try:
            return await asyncio.shield(claim)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await self._release(await claim)
            raise

    async def _release(self, items: list[OutboxItem]) -> None:
        """Give claims back unsent (they are due again at once)."""
        for item in items:
            assert item.claim is not None
            try:
                await self.store.release_outbox(item.id, item.claim)
            except Exception:  # the lease still ends: the item is only late
                log.exception("could not release the claim on announcement %d", item.id)

    async def _deliver(self, item: OutboxItem) -> bool:
        assert item.claim is not None
        payload = item.payload
        try:
            images = []
            for data in payload.get("images", ()):
                request = ImageRequest.from_json(data)
                if self.service is not None:
                    png = await self.service.render_request(request)
                    name = f"barrage-{request.game_id}-{request.version}-{request.view}.png"
                    images.append(Image(name, png))
            previous = await self.store.last_message_id(item.game_id, before_item=item.id)
            announcement = Announcement(
                outbox_id=item.id,
                game_id=item.game_id,
                version=item.version,
                channel_id=item.channel_id,
                text=str(payload.get("text", "")),
                images=tuple(images),
                mention_user_id=payload.get("mention_user_id"),
                silent=bool(payload.get("silent", False)),
                previous_message_id=previous,
                play_button=bool(payload.get("play_button", True)),
                reason=str(payload.get("reason", "turn")),
            )
            message_id = int(await self.port.post(announcement))
        except Exception as exc:
            due = await self.store.retry_outbox(item.id, item.claim, f"{type(exc).__name__}: {exc}")
            log.warning(
                "announcement %d of game %d failed (%s); retry at %s",
                item.id,
                item.game_id,
                exc,
                due,
            )
            return False
        if not await self.store.mark_sent(item.id, item.claim, message_id):
            log.warning("announcement %d: claim lost after posting message %d", item.id, message_id)
            return False
        if previous is not None:
            try:
                await self.port.strip_buttons(item.channel_id, previous)
            except Exception:  # cosmetic: an old button only answers "the game moved on"
                log.exception("could not strip the buttons of message %d", previous)
        return True

    async def run(self, stop: asyncio.Event, *, interval_s: float = 5.0) -> None:
        """Deliver at start-up, after each wake-up, and every `interval_s`, until `stop`."""
        while not stop.is_set():
            try:
                await self.run_once()
            except Exception:
                log.exception("outbox delivery failed; trying again shortly")
            self._wake.clear()
            waiters = {asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())}
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait(waiters, timeout=interval_s, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
