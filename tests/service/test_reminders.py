"""Reminders: due after the first-reminder hours, repeated after the repeat hours up to the
cap, claimed once, held back in quiet hours, dropped when their channel is gone."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

import pytest

from bot.service import (
    DeliveryFailed,
    DestinationGone,
    GameService,
    OutboxSender,
    ReminderNotice,
    ReminderRunner,
    RendererPool,
    ServiceConfig,
)
from tests.service.conftest import MakeService, fake_png
from tests.service.helpers import (
    CHANNEL,
    GUILD,
    USERS,
    FakeClock,
    RecordingPort,
    actor,
    started_game,
)

HOUR = 3_600_000


async def decider(service: GameService) -> int:
    for user in USERS[:2]:
        if (await service.views.panel(actor(user))).options:
            return user
    raise AssertionError("nobody decides")


def utc_ms(year: int, month: int, day: int, hour: int, minute: int = 0) -> int:
    return int(dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC).timestamp() * 1000)


async def test_reminder_after_the_hours_then_capped(service: GameService, clock: FakeClock) -> None:
    clock.now = utc_ms(2026, 3, 2, 12)
    await started_game(service)
    user = await decider(service)
    await service.user_settings.update(user, reminder_hours=2, dm_opt_in=True)
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
    await service.user_settings.update(
        user, time_zone="Europe/Berlin", quiet_hours=(22 * 60, 7 * 60)
    )
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
    await service.lobby.create_game(actor(USERS[0]), players=2, seed=7)
    await service.lobby.join(actor(USERS[1]))
    for user in USERS[:2]:
        await service.user_settings.update(
            user, time_zone="Europe/Berlin", quiet_hours=(22 * 60, 420)
        )
    await service.lobby.start(actor(USERS[0]))
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


def with_config(service: GameService, clock: FakeClock, **config: float) -> GameService:
    """Another service on the same store, with its own reminder settings."""
    pool = RendererPool(kind="inline", render_fn=fake_png)
    return GameService(
        service.store, clock=clock, renderer_pool=pool, config=ServiceConfig(**config)
    )


async def pings_at(runner: ReminderRunner, clock: FakeClock, hours: list[float]) -> list[float]:
    """Step the clock to each hour (from now) and list the hours at which a ping went out."""
    start, found = clock.now, []
    for hour in hours:
        clock.now = start + round(hour * HOUR)
        found += [hour for _ in await runner.run_once()]
    return found


async def test_further_reminders_follow_the_repeat_hours(
    service: GameService, clock: FakeClock
) -> None:
    service = with_config(service, clock, reminder_hours=24, repeat_hours=6, reminder_cap=3)
    await started_game(service)
    runner = ReminderRunner(service, RecordingPort(), clock)
    steps = [h / 2 for h in range(2 * 60)]  # every half hour for 60 hours
    assert await pings_at(runner, clock, steps) == [24, 30, 36]


async def test_a_fractional_first_reminder_is_honoured(
    service: GameService, clock: FakeClock
) -> None:
    service = with_config(service, clock, reminder_hours=0.75, repeat_hours=0.25, reminder_cap=2)
    await started_game(service)
    runner = ReminderRunner(service, RecordingPort(), clock)
    steps = [m / 60 for m in range(0, 120, 5)]  # every five minutes for two hours
    assert await pings_at(runner, clock, steps) == [0.75, 1.0]


async def test_the_first_ping_after_long_quiet_hours_says_it_is_their_turn(
    make_service: MakeService, clock: FakeClock
) -> None:
    """Quiet hours (9 h) longer than the player's reminder hours (6 h): still "your turn"."""
    service = await make_service()
    clock.now = utc_ms(2026, 7, 1, 21)  # 23:00 in Berlin
    await service.lobby.create_game(actor(USERS[0]), players=2, seed=7)
    await service.lobby.join(actor(USERS[1]))
    for user in USERS[:2]:
        await service.user_settings.update(
            user, time_zone="Europe/Berlin", quiet_hours=(22 * 60, 7 * 60), reminder_hours=6
        )
    await service.lobby.start(actor(USERS[0]))
    runner = ReminderRunner(service, RecordingPort(), clock)
    clock.now = utc_ms(2026, 7, 2, 5)  # 07:00 in Berlin
    (ping,) = await runner.run_once()
    assert ping.reason == "quiet-end" and "it is your turn" in ping.text
    clock.now = utc_ms(2026, 7, 2, 11)  # six hours later
    (reminder,) = await runner.run_once()
    assert reminder.reason == "reminder" and "is waiting for you" in reminder.text
    # The turn's own ping is not a reminder: three reminders follow it (the cap).
    sent = 1
    for hour in range(12, 48):
        clock.now = utc_ms(2026, 7, 2, 0) + hour * HOUR
        sent += len(await runner.run_once())
    assert sent == service.config.reminder_cap


class GonePort(RecordingPort):
    """A port whose channel was deleted."""

    async def remind(self, notice: ReminderNotice) -> None:
        raise DestinationGone(f"channel {notice.channel_id} no longer exists")


async def test_a_reminder_for_a_deleted_channel_ends_the_game_with_one_line(
    service: GameService, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Unknown Channel is Discord's final word: the game ends, its reminders with it."""
    game = await started_game(service)
    runner = ReminderRunner(service, GonePort(), clock)
    clock.advance(25 * HOUR)
    with caplog.at_level(logging.INFO, logger="bot.service"):
        assert await runner.run_once() == []
        for _ in range(5):
            clock.advance(HOUR)
            assert await runner.run_once() == []
    assert await service.store.reminders(game) == []
    assert (await service.store.get_game(game)).status == "abandoned"
    assert [r.getMessage() for r in caplog.records] == [
        f"game #1 of server {GUILD} in channel {CHANNEL} ended as abandoned: "
        "channel unknown to Discord"
    ]
    assert all(r.exc_info is None for r in caplog.records)


@dataclass
class FlakyPort(RecordingPort):
    """A port whose first `outage` reminders fail the way a Discord outage does."""

    outage: int = 1

    async def remind(self, notice: ReminderNotice) -> None:
        if self.outage:
            self.outage -= 1
            raise DeliveryFailed("Discord did not take the reminder: 503")
        await super().remind(notice)


async def test_a_failed_reminder_is_tried_again_after_its_claim_lapses(
    service: GameService, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    await started_game(service)
    port = FlakyPort()
    runner = ReminderRunner(service, port, clock)
    clock.advance(24 * HOUR)
    with caplog.at_level(logging.WARNING, logger="bot.service.reminders"):
        assert await runner.run_once() == []
    assert "trying again later" in caplog.text and "Traceback" not in caplog.text
    clock.advance(60_000)  # the claim's lease
    assert len(await runner.run_once()) == 1


async def test_every_try_of_a_ping_has_the_same_key(service: GameService, clock: FakeClock) -> None:
    """A process that died after pinging, before recording it: the next try is the same ping
    (the platform deduplicates by the key), and the next reminder is another."""
    await started_game(service)
    runner = ReminderRunner(service, RecordingPort(), clock)
    clock.advance(24 * HOUR)
    [(_, first)] = await runner.due_reminders()  # ... and the process dies here
    clock.advance(60_000)  # the claim's lease
    (again,) = await runner.run_once()
    assert first is not None and first.key == again.key != ""
    clock.advance(24 * HOUR)
    (later,) = await runner.run_once()
    assert later.key not in ("", first.key)
