"""Reminders: who must be pinged now, claimed atomically so that one process sends each.

Schedules are written by the service at each commit, one per player who must decide: due
after the player's first-reminder time, or at the end of their quiet hours when the turn
announcement went out silently (then the first ping is the turn's own: "it is your turn").
The runner claims due schedules, checks that the player still has to decide, postpones a
reminder while the player is away or in their quiet hours to their end, delivers it through the port,
and schedules the next one after the repeat time, until the cap; in a clocked game the next
one comes at the clock's next point (bot/service/timekeeping.py: half the allowance, the
bank, an hour before the time runs out; then, a `wait` game, every repeat time). A reminder whose channel or
thread no longer exists is dropped with one log line.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.service import quiet
from bot.service.faults import every
from bot.service.outbox import DeliveryFailed, DestinationGone
from bot.service.ports import ReminderGames
from bot.service.records import CHANNEL_UNKNOWN
from bot.service.types import Line, ReminderNotice, TimeRef, UserRef
from bot.store import TURN_PING, Clock, Reminder

if TYPE_CHECKING:
    from bot.service.outbox import AnnouncementPort

log = logging.getLogger(__name__)


class ReminderRunner:
    """Claims due reminders and delivers them through the port."""

    def __init__(self, service: ReminderGames, port: AnnouncementPort, clock: Clock) -> None:
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

    async def _postpone(self, reminder: Reminder, due_at: int) -> None:
        """Move a reminder to `due_at`, not sent: its count stays, and the new schedule voids
        the claim on the old one."""
        await self.store.set_reminder(
            reminder.game_id,
            reminder.user_id,
            due_at,
            sent_count=reminder.sent_count,
            kind=reminder.kind,
        )

    async def _notice(self, reminder: Reminder) -> ReminderNotice | None:
        loaded = await self.service.desk.game_for_reminder(reminder.game_id)
        if loaded is None or reminder.user_id not in self.service.desk.users_deciding(loaded):
            await self.store.reminder_sent(reminder, next_due_at=None)
            return None
        settings = await self.store.get_user_settings(reminder.user_id)
        now = self.clock()
        back = await self.service.timekeeper.away_until(reminder.user_id)
        if back is not None:
            # Away: no reminder until the player is back (the clock stops meanwhile too).
            await self._postpone(reminder, quiet.not_quiet(settings, back))
            return None
        if quiet.in_quiet_hours(settings, now):
            await self._postpone(reminder, quiet.quiet_end(settings, now))
            return None
        game, user = loaded.meta.id, reminder.user_id
        number = loaded.meta.number
        if _is_turn_ping(reminder):
            reason, words = "quiet-end", f", it is your turn in game #{number}"
        else:
            reason, words = "reminder", f", game #{number} is waiting for you"
        turn = (await self.service.timekeeper.running_clocks(loaded)).get(user)
        ending = (
            ("; your time runs out ", TimeRef(turn.deadline()), ".")
            if turn is not None and turn.deadline() > now
            else (".",)
        )
        return ReminderNotice(
            game_id=game,
            guild_id=loaded.meta.guild_id,
            channel_id=loaded.meta.channel_id,
            user_id=user,
            lines=(Line.of(UserRef(user), words, *ending),),
            dm=settings.dm_opt_in,
            reason=reason,
            sent_count=reminder.sent_count + 1,
            key=f"{game}:{user}:{reminder.due_at}:{reminder.sent_count}",
        )

    async def run_once(self) -> list[ReminderNotice]:
        """Deliver every due reminder; return what was delivered."""
        sent = []
        for reminder, notice in await self.due_reminders():
            if notice is None:
                continue
            sent_at = self.clock()  # the next one counts from now, however long delivery takes
            try:
                await self.port.remind(notice)
            except DestinationGone as gone:
                await self._drop(reminder, notice, gone)
                continue
            except DeliveryFailed as exc:
                # The claim lapses and a later pass tries again (after the claim's lease).
                log.warning(
                    "reminder for user %d in game %d failed (%s); trying again later",
                    notice.user_id,
                    notice.game_id,
                    exc,
                )
                continue
            except Exception:
                log.exception("reminder for user %d in game %d", notice.user_id, notice.game_id)
                continue
            next_due = await self._next_due(reminder, sent_at)
            await self.store.reminder_sent(reminder, next_due_at=next_due)
            sent.append(notice)
        return sent

    async def _next_due(self, reminder: Reminder, sent_at: int) -> int | None:
        """When to ping again after this one (sent at `sent_at`), or None at the cap."""
        loaded = await self.service.desk.game_for_reminder(reminder.game_id)
        if loaded is not None:
            # A clocked game's reminders follow the clock (half, bank, an hour before).
            clocked = await self.service.timekeeper.clock_reminder_due(
                loaded, reminder.user_id, sent_at
            )
            if clocked is not None:
                return clocked
        turn_ping = _is_turn_ping(reminder)
        # The turn's own ping is not a reminder: it does not count against the cap.
        cap = self.service.config.reminder_cap + (1 if reminder.kind == TURN_PING else 0)
        if loaded is None or reminder.sent_count + 1 >= cap:
            return None
        settings = await self.store.get_user_settings(reminder.user_id)
        if turn_ping:  # the player learns of the turn now: the first reminder counts from here
            wait = self.service.desk.first_reminder_ms(loaded, settings)
        else:
            wait = self.service.desk.repeat_reminder_ms(loaded, settings)
        return quiet.not_quiet(settings, sent_at + wait)

    async def _drop(
        self, reminder: Reminder, notice: ReminderNotice, gone: DestinationGone
    ) -> None:
        """Give up the game's reminders: there is nowhere to post them any more. The game
        in that channel ends (its reminders go with it; the service logs it)."""
        if (
            await self.service.moderation.destination_gone(notice.channel_id, CHANNEL_UNKNOWN)
            is None
        ):
            log.warning("dropping the reminders of game %d: %s", reminder.game_id, gone)
        await self.store.clear_reminders(reminder.game_id)

    async def run(self, stop: asyncio.Event, *, interval_s: float = 60.0) -> None:
        """Check every `interval_s` until `stop` is set."""
        await every(interval_s, stop, self.run_once, "reminders", log)


def _is_turn_ping(reminder: Reminder) -> bool:
    """Whether this ping is the turn's own (the first after a silent announcement)."""
    return reminder.kind == TURN_PING and reminder.sent_count == 0
