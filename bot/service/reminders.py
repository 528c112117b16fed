"""Reminders: who must be pinged now, claimed atomically so that one process sends each.

Schedules are written by the service at each commit (one per player who must decide, due
after the player's reminder hours, or at the end of their quiet hours when the turn
announcement went out silently). The runner claims due schedules, checks that the player
still has to decide, postpones a reminder that falls in the player's quiet hours to their
end, delivers it through the port, and schedules the next one until the repeat cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.service import quiet
from bot.service.types import ReminderNotice
from bot.store import Clock, Reminder

if TYPE_CHECKING:
    from bot.service.outbox import AnnouncementPort
    from bot.service.service import GameService

log = logging.getLogger(__name__)

HOUR_MS = 3_600_000


class ReminderRunner:
    """Claims due reminders and delivers them through the port."""

    def __init__(self, service: GameService, port: AnnouncementPort, clock: Clock) -> None:
        self.service = service
        self.store = service.store
        self.port = port
        self.clock = clock

    async def due_reminders(self) -> list[tuple[Reminder, ReminderNotice | None]]:
        """Claim what is due now; a None notice means "drop or postpone, send nothing"."""
        out = []
        for reminder in await self.store.claim_reminders():
            out.append((reminder, await self._notice(reminder)))
        return out

    async def _notice(self, reminder: Reminder) -> ReminderNotice | None:
        loaded = await self.service.game_for_reminder(reminder.game_id)
        if loaded is None or reminder.user_id not in self.service.users_deciding(loaded):
            await self.store.reminder_sent(reminder, next_due_at=None)
            return None
        settings = await self.store.get_user_settings(reminder.user_id)
        now = self.clock()
        if quiet.in_quiet_hours(settings, now):
            # Postponed, not sent: the count stays, the claim is voided by the new schedule.
            await self.store.set_reminder(
                reminder.game_id,
                reminder.user_id,
                quiet.quiet_end(settings, now),
                sent_count=reminder.sent_count,
            )
            return None
        first = reminder.sent_count == 0 and reminder.last_sent_at is None
        hours = self.service.reminder_hours(loaded, settings)
        reason = (
            "quiet-end" if first and now - loaded.meta.updated_at < hours * HOUR_MS else "reminder"
        )
        text = (
            f"<@{reminder.user_id}>, it is your turn in game #{loaded.meta.number}."
            if reason == "quiet-end"
            else f"<@{reminder.user_id}>, game #{loaded.meta.number} is waiting for you."
        )
        return ReminderNotice(
            game_id=loaded.meta.id,
            guild_id=loaded.meta.guild_id,
            channel_id=loaded.meta.channel_id,
            user_id=reminder.user_id,
            text=text,
            dm=settings.dm_opt_in,
            reason=reason,
            sent_count=reminder.sent_count + 1,
        )

    async def run_once(self) -> list[ReminderNotice]:
        """Deliver every due reminder; return what was delivered."""
        sent = []
        for reminder, notice in await self.due_reminders():
            if notice is None:
                continue
            try:
                await self.port.remind(notice)
            except Exception:
                log.exception(
                    "reminder for user %d in game %d failed", notice.user_id, notice.game_id
                )
                continue  # the claim lapses and the next runner tries again
            loaded = await self.service.game_for_reminder(reminder.game_id)
            next_due = None
            cap = self.service.config.reminder_cap
            if loaded is not None and notice.sent_count < cap:
                settings = await self.store.get_user_settings(reminder.user_id)
                hours = self.service.reminder_hours(loaded, settings)
                next_due = quiet.not_quiet(settings, self.clock() + hours * HOUR_MS)
            await self.store.reminder_sent(reminder, next_due_at=next_due)
            sent.append(notice)
        return sent

    async def run(self, stop: asyncio.Event, *, interval_s: float = 60.0) -> None:
        """Check every `interval_s` until `stop` is set."""
        while not stop.is_set():
            try:
                await self.run_once()
            except Exception:
                log.exception("reminders failed; trying again later")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), interval_s)
