"""A game whose channel or thread Discord deleted ends as abandoned, with the reason kept.

The Discord layer calls `destination_gone` on CHANNEL_DELETE / THREAD_DELETE; the outbox and
the reminders call it on Unknown Channel. Transient failures never end a game.
"""

from __future__ import annotations

import logging
import random

import pytest

from bot.service import (
    Announcement,
    DeliveryFailed,
    GameService,
    ImportRefused,
    OutboxSender,
    ReminderNotice,
    ReminderRunner,
)
from bot.service.records import CHANNEL_DELETED, THREAD_DELETED, BrokenLog, scan
from bot.store import LogEntry
from tests.service.helpers import (
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    SPECTATOR,
    USERS,
    FakeClock,
    RecordingPort,
    actor,
    random_step,
    started_game,
)

HOUR = 3_600_000


async def test_a_deleted_channel_ends_its_game_as_abandoned_with_the_reason(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    game = await started_game(service)
    assert await service.store.reminders(game) != []
    with caplog.at_level(logging.INFO, logger="bot"):
        assert await service.moderation.destination_gone(CHANNEL, CHANNEL_DELETED) == 1
    meta = await service.store.get_game(game)
    assert meta.status == "abandoned" and meta.ended_at is not None
    last = (await service.store.read_log(game))[-1]
    assert last.record == {"kind": "abandon", "reason": "channel deleted"}
    assert await service.store.reminders(game) == []
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (
            logging.INFO,
            f"game #1 of server {GUILD} in channel {CHANNEL} ended as abandoned: channel deleted",
        )
    ]
    # No longer counted as running anywhere.
    assert await service.views.my_games(GUILD, USERS[0]) == []
    assert await service.store.active_game(CHANNEL) is None


async def test_the_channel_is_free_again_and_the_game_still_loads(
    service: GameService,
) -> None:
    """The abandoned game's views still work by id; a new game may open in a recreated
    channel with the same id (Discord never reuses ids, but nothing here depends on it)."""
    game = await started_game(service)
    await service.moderation.destination_gone(CHANNEL, THREAD_DELETED)
    score = await service.views.score(game, by_game_id=True)
    assert score.game_id == game
    outcome = await service.lobby.create_game(actor(USERS[0]), players=2, seed=1)
    assert outcome.game_id != game


async def test_a_channel_without_a_game_in_progress_changes_nothing(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    game = await started_game(service)
    with caplog.at_level(logging.INFO, logger="bot"):
        assert await service.moderation.destination_gone(OTHER_CHANNEL, CHANNEL_DELETED) is None
        await service.moderation.abandon(actor(USERS[0]))
        version = (await service.store.get_game(game)).version
        # Told again (a second event, or a post after the event): nothing more happens.
        assert await service.moderation.destination_gone(CHANNEL, CHANNEL_DELETED) is None
    assert (await service.store.get_game(game)).version == version
    assert caplog.records == []


async def test_a_lobby_in_a_deleted_thread_ends_too(service: GameService) -> None:
    outcome = await service.lobby.create_game(actor(USERS[0]), players=3, seed=2)
    await service.lobby.join(actor(USERS[1]))
    assert await service.moderation.destination_gone(CHANNEL, THREAD_DELETED) == 1
    assert (await service.store.get_game(outcome.game_id)).status == "abandoned"


async def test_its_unsent_announcements_are_dropped_but_a_members_abandon_is_announced(
    service: GameService, clock: FakeClock
) -> None:
    gone = await started_game(service)  # its start announcement is still unsent
    other = await service.lobby.create_game(
        actor(USERS[0], channel=OTHER_CHANNEL), players=2, seed=4
    )
    await service.lobby.join(actor(USERS[1], channel=OTHER_CHANNEL))
    await service.lobby.start(actor(USERS[0], channel=OTHER_CHANNEL))
    await service.moderation.abandon(actor(USERS[0], channel=OTHER_CHANNEL))
    assert await service.store.pending_outbox(gone) != []
    await service.moderation.destination_gone(CHANNEL, CHANNEL_DELETED)
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    await sender.run_once()
    await sender.run_once()
    assert await service.store.pending_outbox(gone) == []
    assert {a.game_id for a in port.posted} == {other.game_id}
    assert port.posted[-1].reason == "abandon"


async def test_a_transient_failure_never_ends_the_game(
    service: GameService, clock: FakeClock
) -> None:
    """5xx, time-outs and missing access (the port's DeliveryFailed or any other error) are
    retried; only DestinationGone (Unknown Channel) ends a game."""
    game = await started_game(service)

    class DownPort(RecordingPort):
        async def post(self, announcement: Announcement) -> int:
            raise ConnectionError("503 Service Unavailable")

        async def remind(self, notice: ReminderNotice) -> None:
            raise DeliveryFailed("Discord did not take the reminder: 403 Missing Access")

    sender = OutboxSender(service.store, DownPort(), clock, service=service)
    assert await sender.run_once() == 0
    runner = ReminderRunner(service, DownPort(), clock)
    clock.advance(25 * HOUR)
    await runner.run_once()
    meta = await service.store.get_game(game)
    assert meta.status == "active"
    assert await service.store.pending_outbox(game) != []
    assert await service.store.reminders(game) != []


async def test_an_export_made_before_the_deletion_is_accepted_elsewhere_afterwards(
    service: GameService,
) -> None:
    game = await started_game(service, seed=12)
    rng = random.Random(12)
    for _ in range(10):
        await random_step(service, rng, 2, game)
    doc = await service.moving.export_game(actor(USERS[0]))
    elsewhere = actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True)
    with pytest.raises(ImportRefused, match="still active"):
        await service.moving.import_game(elsewhere, doc)
    await service.moderation.destination_gone(CHANNEL, CHANNEL_DELETED)
    outcome = await service.moving.import_game(elsewhere, doc)
    assert outcome.committed
    assert (await service.store.get_game(outcome.game_id)).status == "active"


async def test_its_players_export_it_by_number_and_continue_it_elsewhere(
    service: GameService,
) -> None:
    """The game as it stood when its channel went: the bot's abandonment is left out on
    import (the players lost the place, not the game)."""
    game = await started_game(service, seed=12)
    rng = random.Random(5)
    for _ in range(10):
        await random_step(service, rng, 2, game)
    before = await service.views.score(game, by_game_id=True)
    await service.moderation.destination_gone(CHANNEL, CHANNEL_DELETED)
    doc = await service.moving.export_game(actor(USERS[1], channel=OTHER_CHANNEL), number=1)
    assert doc["status"] == "abandoned" and doc["source_game_number"] == 1
    assert doc["log"][-1]["record"] == {"kind": "abandon", "reason": "channel deleted"}
    outcome = await service.moving.import_game(
        actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True), doc
    )
    assert outcome.committed
    meta = await service.store.get_game(outcome.game_id)
    assert meta.status == "active" and meta.ended_at is None
    after = await service.views.score(outcome.game_id, by_game_id=True)
    assert [r.vp for r in after.rows] == [r.vp for r in before.rows]
    assert (await service.views.panel(actor(USERS[0], channel=OTHER_CHANNEL))) is not None


async def test_a_game_a_member_abandoned_is_imported_abandoned_as_before(
    service: GameService,
) -> None:
    await started_game(service, seed=12)
    await service.moderation.abandon(actor(USERS[0]))
    doc = await service.moving.export_game(actor(USERS[0]), number=1)
    outcome = await service.moving.import_game(
        actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True), doc
    )
    assert (await service.store.get_game(outcome.game_id)).status == "abandoned"


async def test_an_abandon_record_names_who_or_why(service: GameService) -> None:
    game = await started_game(service)
    meta = await service.store.get_game(game)
    log = list(await service.store.read_log(game))
    bare = LogEntry(game, len(log) + 1, "abandon", {"kind": "abandon"}, 0)
    with pytest.raises(BrokenLog, match="neither who abandoned"):
        scan(meta, [*log, bare])
    why = LogEntry(game, len(log) + 1, "abandon", {"kind": "abandon", "reason": "x"}, 0)
    assert scan(meta, [*log, why]).abandoned
