"""The service's narrow ports beside the store and the clock: the publisher a commit tells.

A commit's announcement is in the outbox once the store has appended it; the service then
tells its `Publisher`, which wakes whoever delivers announcements. The one in use is a
`Doorbell` handed to both the service and the `OutboxSender` when they are built (nothing
is assigned to either afterwards). Other processes sharing a PostgreSQL store are woken by
the store's own notification instead.
"""

from __future__ import annotations

import asyncio
from typing import Protocol


class Publisher(Protocol):
    """Told after a commit that put announcements in the outbox."""

    def publish(self) -> None:
        """There are announcements to deliver now."""
        ...


class Doorbell:
    """A publisher the outbox waits on: each `publish` rings it until the sender wakes."""

    def __init__(self) -> None:
        """A bell nobody has rung."""
        self.rung = asyncio.Event()

    def publish(self) -> None:
        """Ring: the sender delivers soon instead of at its next poll."""
        self.rung.set()
