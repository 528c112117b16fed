"""The service's narrow ports: the publisher a commit tells, the turn clock and the AI seats
a commit asks, and what the outbox, the reminders and the clock's runner may ask of the games.

A commit's announcement is in the outbox once the store has appended it; the service then
tells its `Publisher`, which wakes whoever delivers announcements. The one in use is a
`Doorbell` handed to both the service and the `OutboxSender` when they are built (nothing
is assigned to either afterwards). Other processes sharing a PostgreSQL store are woken by
the store's own notification instead.

A commit (`Desk.land`, bot/service/core.py) asks the turn clock through `CommitClock` and
hands the AI seats that must decide now to `ComputersDue`; both are given to the desk when
it is built (bot/service/service.py wires them), none is a method a subclass overrides.

The `OutboxSender`, the `ReminderRunner` and the `ClockRunner` see the games only through
`OutboxGames`, `ReminderGames` and `ExpiryGames` (the service provides them), so what they
may do is written here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.service.clock import Turn
    from bot.service.loading import Loaded
    from bot.service.records import ClockRecord
    from bot.service.types import Image, ImageRequest, Line, ServiceConfig
    from bot.store import Deadline, Store, UserSettings


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


class CommitClock(Protocol):
    """What a commit asks of the turn clock (bot/service/timekeeping.py: `Timekeeper`)."""

    async def at_commit(self, loaded: Loaded, *, taken_back: bool) -> ClockRecord | None:
        """The clock after a commit of `loaded`'s step (None in a game without a clock);
        `taken_back`: the commit goes back (an undo, a rewind)."""
        ...

    async def lines(self, after: Loaded) -> list[Line]:
        """The turn message's lines about time: deadlines and time away."""
        ...

    async def first_reminder_due(
        self, loaded: Loaded, user: int, settings: UserSettings, now: int
    ) -> int:
        """When a player's first reminder of a turn is due."""
        ...

    async def landed(self, after: Loaded) -> None:
        """After a commit that announces: write the game's deadlines (the clock's, and a
        pending AI step's that any process may claim)."""
        ...


class ComputersDue(Protocol):
    """Told after every landing: the AI seats that must decide now are to be thought about
    (bot/service/thinking.py: `ComputerTasks`)."""

    def due(self, loaded: Loaded) -> None:
        """Think about `loaded`'s AI steps soon, if an AI seat must decide."""
        ...


class Pictured(Protocol):
    """The pictures an announcement asks for (the service's views)."""

    async def request_picture(self, request: ImageRequest, last: Sequence[Line] = ()) -> Image:
        """The picture an announcement asks for (drawn, or from the cache)."""
        ...


class StillDeciding(Protocol):
    """Who of those pinged still has to decide (the service's desk)."""

    async def still_to_decide(
        self, game_id: int, version: int, users: Sequence[int]
    ) -> tuple[int, ...]:
        """Of `users`, pinged by the commit at `version`, those who have not answered."""
        ...


class LostChannels(Protocol):
    """Ending a game whose channel is gone (the service's moderation)."""

    async def destination_gone(self, channel_id: int, reason: str) -> int | None:
        """End the game of a channel that no longer exists; its number, or None."""
        ...


class OutboxGames(Protocol):
    """What the `OutboxSender` asks of the games (and nothing more): the pictures of an
    announcement, who of those pinged still has to decide, and ending a game whose channel
    is gone."""

    @property
    def views(self) -> Pictured: ...

    @property
    def desk(self) -> StillDeciding: ...

    @property
    def moderation(self) -> LostChannels: ...


class ReminderDesk(StillDeciding, Protocol):
    """What the reminders read of the games (the service's desk)."""

    async def game_for_reminder(self, game_id: int) -> Loaded | None:
        """The loaded game, or None if it is gone."""
        ...

    def users_deciding(self, loaded: Loaded) -> tuple[int, ...]:
        """Users with a pending decision."""
        ...

    def first_reminder_ms(self, loaded: Loaded, settings: UserSettings) -> int:
        """How long a turn may wait before its first reminder."""
        ...

    def repeat_reminder_ms(self, loaded: Loaded, settings: UserSettings) -> int:
        """The time between further reminders."""
        ...


class ReminderClock(Protocol):
    """What the reminders read of the turn clock (the service's timekeeper)."""

    async def away_until(self, user: int) -> int | None:
        """When the user's time away ends, if they are away now."""
        ...

    async def running_clocks(self, loaded: Loaded) -> dict[int, Turn]:
        """Each person with a decision now, and their running clock (a clocked game)."""
        ...

    async def clock_reminder_due(self, loaded: Loaded, user: int, after: int) -> int | None:
        """A clocked game's next reminder of a player after `after` (None without a clock)."""
        ...


class Settled(Protocol):
    """The store and the config a background runner reads beside the games."""

    store: Store
    config: ServiceConfig


class ReminderGames(Settled, Protocol):
    """What the `ReminderRunner` asks of the games (and nothing more)."""

    @property
    def desk(self) -> ReminderDesk: ...

    @property
    def timekeeper(self) -> ReminderClock: ...

    @property
    def moderation(self) -> LostChannels: ...


class Expiries(Protocol):
    """Acting on a claimed deadline (the service's timekeeping)."""

    async def expire(self, deadline: Deadline) -> int | None:
        """Act on a claimed deadline; when to look again, or None."""
        ...


class ExpiryGames(Settled, Protocol):
    """What the `ClockRunner` asks of the games (and nothing more)."""

    @property
    def timekeeping(self) -> Expiries: ...
