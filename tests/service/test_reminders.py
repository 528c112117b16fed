"""Reminders: due after the player's hours, claimed once, held back in quiet hours."""

from __future__ import annotations

import datetime as dt

from bot.service import GameService, OutboxSender, ReminderRunner
from tests.service.conftest import MakeService
from tests.service.helpers import USERS, FakeClock, RecordingPort, actor, started_game

HOUR = 3_600_000


async def decider(service: GameService) -> int:
    for user in USERS[:2]:
        if (await service.panel(actor(user))).options:
            return user
    raise AssertionError("nobody decides")


def utc_ms(year: int, month: int, day: int, hour: int, minute: int = 0) -> int:
    return int(dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC).timestamp() * 1000)


async def test_reminder_after_the_hours_then_capped(service: GameService, clock: FakeClock) -> None:
    clock.now = utc_ms(2026, 3, 2, 12)
    await started_game(service)
    user = await decider(service)
    await service.update_settings(user, reminder_hours=2, dm_opt_in=True)
    port = RecordingPort()
    runner = ReminderRunner(service, port, clock)
    assert await runner.run_once() == []
    clock.advance(24 * HOUR)  # the game default (24 h) was scheduled at the start
    (notice,) = await runner.run_once()
    assert notice.user_id == user and notice.dm
    sent = 1
    for _ in range(10):
        clock.advance(2 * HOUR)
        sent += len(await runner.run_once())
    assert sent == service.config.reminder_cap


async def test_reminder_due_in_quiet_hours_waits(service: GameService, clock: FakeClock) -> None:
    clock.now = utc_ms(2026, 3, 2, 22, 30)  # 23:30 in Berlin (UTC+1 before the switch)
    await started_game(service)
    user = await decider(service)
    # Quiet hours are set after the start: the 24 h reminder was scheduled for 23:30 Berlin.
    await service.update_settings(user, time_zone="Europe/Berlin", quiet_hours=(22 * 60, 7 * 60))
    runner = ReminderRunner(service, RecordingPort(), clock)
    clock.now = utc_ms(2026, 3, 3, 22, 30)  # due, but quiet
    assert await runner.run_once() == []
    clock.now = utc_ms(2026, 3, 4, 5, 59)  # 06:59 in Berlin
    assert await runner.run_once() == []
    clock.now = utc_ms(2026, 3, 4, 6)  # 07:00 in Berlin: quiet hours are over
    (notice,) = await runner.run_once()
    assert notice.user_id == user


async def test_turn_announced_in_quiet_hours_is_silent_and_the_ping_follows(
    make_service: MakeService, clock: FakeClock
) -> None:
    service = await make_service()
    clock.now = utc_ms(2026, 7, 1, 21)  # 23:00 in Berlin (summer time)
    await service.create_game(actor(USERS[0]), players=2, seed=7)
    await service.join(actor(USERS[1]))
    for user in USERS[:2]:
        await service.update_settings(user, time_zone="Europe/Berlin", quiet_hours=(22 * 60, 420))
    await service.start(actor(USERS[0]))
    port = RecordingPort()
    await OutboxSender(service.store, port, clock, service=service).run_once()
    assert port.posted[0].silent and port.posted[0].mention_user_id is not None
    runner = ReminderRunner(service, port, clock)
    clock.now = utc_ms(2026, 7, 2, 4, 59)  # 06:59 in Berlin
    assert await runner.run_once() == []
    clock.now = utc_ms(2026, 7, 2, 5)
    (notice,) = await runner.run_once()
    assert notice.user_id == port.posted[0].mention_user_id and notice.reason == "quiet-end"


async def test_two_runners_send_each_reminder_once(
    make_service: MakeService, clock: FakeClock
) -> None:
    first, second = await make_service(), await make_service()
    await started_game(first)
    clock.advance(25 * HOUR)
    a, b = RecordingPort(), RecordingPort()
    sent = await ReminderRunner(first, a, clock).run_once()
    sent += await ReminderRunner(second, b, clock).run_once()
    assert len(sent) == 1 and len(a.reminders) + len(b.reminders) == 1
