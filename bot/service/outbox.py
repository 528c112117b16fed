"""Delivering committed announcements: the AnnouncementPort and the OutboxSender."""

from __future__ import annotations

import logging
from typing import Protocol, runtime_checkable

from bot.service.types import Announcement, ReminderNotice
from bot.store import Clock, Store

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
    """Posts claimed outbox items through the port, exactly once per commit."""

    def __init__(self, store: Store, port: AnnouncementPort, clock: Clock, *, service=None):
        self.store = store
        self.port = port
        self.clock = clock
        self.service = service

    async def run_once(self) -> int:
        """Claim and deliver what is due now; return how many were delivered."""
        raise NotImplementedError

    async def run(self, stop, *, interval_s: float = 2.0) -> None:
        """Deliver at start-up and then every `interval_s` until `stop` is set."""
        raise NotImplementedError
