"""A database that cannot be written: every command refuses with one message and changes
nothing, views keep working, the background loops stay quiet, and all recovers by itself."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.service import CannotSave, GameService, OutboxSender
from bot.service.reminders import ReminderRunner
from bot.store import SqliteStore
from bot.store.backup import run_backups
from tests.service.helpers import (
    CHANNEL,
    OTHER_CHANNEL,
    USERS,
    FakeClock,
    RecordingPort,
    actor,
    deciding,
    started_game,
)


def read_only(service: GameService, on: bool) -> asyncio.Future[object]:
    """Switch SQLite's own read-only mode on the service's connection (a read-only disk)."""
    store = service.store
    assert isinstance(store, SqliteStore)
    return store._db.execute(f"PRAGMA query_only = {int(on)}")


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The messages of the ERROR records so far."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_move_on_a_read_only_database_is_refused_and_changes_nothing(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await started_game(service)
    before = await service.store.version(game_id)
    await read_only(service, True)
    for _ in range(4):  # every click gets the same answer; the log gets one line
        user, panel = await deciding(service)
        with pytest.raises(CannotSave) as info:
            await service.moves.play(
                actor(user), [panel.options[0].notation], expected_version=panel.version
            )
        assert str(info.value) == (
            "the bot can't save right now; nothing was changed. Please try again later"
        )
    assert await service.store.version(game_id) == before
    # Everything that only looks still answers.
    assert (await service.views.score(CHANNEL)).rows
    assert await service.views.board_image(CHANNEL, "map")
    assert len(errors(caplog)) == 1 and "read-only" in errors(caplog)[0]
    await read_only(service, False)
    user, panel = await deciding(service)
    outcome = await service.moves.play(
        actor(user), [panel.options[0].notation], expected_version=panel.version
    )
    assert outcome.version > before
    assert len(errors(caplog)) == 1


async def test_every_kind_of_command_refuses_the_same_way(service: GameService) -> None:
    await started_game(service)
    await service.lobby.create_game(actor(USERS[0], channel=OTHER_CHANNEL), players=3, seed=1)
    await read_only(service, True)
    commands = [
        lambda: service.lobby.create_game(actor(USERS[0], channel=OTHER_CHANNEL + 1), players=2),
        lambda: service.lobby.join(actor(USERS[1], channel=OTHER_CHANNEL)),
        lambda: service.moderation.abandon(actor(USERS[0])),
        lambda: service.user_settings.update(USERS[0], time_zone="Europe/Paris"),
    ]
    for command in commands:
        with pytest.raises(CannotSave, match="can't save right now"):
            await command()
    await read_only(service, False)
    assert (await service.user_settings.get(USERS[0])).time_zone != "Europe/Paris"
    assert (await service.store.active_game(CHANNEL)) is not None


async def test_background_loops_stay_quiet_while_the_database_is_down(
    service: GameService, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    await started_game(service)
    await read_only(service, True)
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    reminders = ReminderRunner(service, port, clock)
    stop = asyncio.Event()
    store = service.store
    claims = 0
    real_claim = store.claim_outbox

    async def counting_claim(**kwargs: object) -> object:
        nonlocal claims
        claims += 1
        if claims >= 5:
            stop.set()
        return await real_claim(**kwargs)

    store.claim_outbox = counting_claim  # type: ignore[method-assign]
    await asyncio.wait_for(
        asyncio.gather(sender.run(stop, interval_s=0.001), reminders.run(stop, interval_s=0.001)),
        timeout=30,
    )
    assert claims >= 5
    assert len(errors(caplog)) == 1  # the store's one line, not one per round
    # The database comes back: the start announcement waiting in the outbox goes out.
    await read_only(service, False)
    assert await sender.run_once() >= 1 and port.posted


async def test_backups_to_an_unusable_folder_log_one_line_then_recover(
    service: GameService, tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "backups"
    blocker.write_text("a file where the backup folder should be")
    rounds = 0

    async def sleep(seconds: float) -> None:
        nonlocal rounds
        rounds += 1
        clock.advance(int(seconds * 1000))
        if rounds == 4:
            blocker.unlink()  # the operator fixes it
        if rounds == 6:
            raise asyncio.CancelledError

    store = service.store
    assert isinstance(store, SqliteStore)
    with pytest.raises(asyncio.CancelledError):
        await run_backups(store, blocker, interval_ms=60_000, keep=3, clock=clock, sleep=sleep)
    assert len(errors(caplog)) == 1
    record = next(r for r in caplog.records if r.levelno >= logging.ERROR)
    assert record.exc_info is None and str(blocker) in record.getMessage()
    assert any("works again" in r.getMessage() for r in caplog.records)
    assert len(list(blocker.iterdir())) >= 1
