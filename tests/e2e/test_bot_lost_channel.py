"""A game whose channel or thread is deleted ends, through the real discord.py client.

The fake sends what Discord sends: CHANNEL_DELETE with the channel object, THREAD_DELETE
with id, guild_id, parent_id and type, nothing for the threads of a deleted channel; and
answers a post in a deleted channel with 404 Unknown Channel (10003).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from fakediscord import FakeDiscord
from fakediscord.payloads import SEND_MESSAGES

from bot.service import ServiceConfig
from bot.store import Store
from tests.commands.kit import Driver, FakeClock, barrage_bot, start_game, wait_turn_message
from tests.e2e.test_bot_reminders import game_in_a_thread

#: First reminder after 1.5 h.
CONFIG = ServiceConfig(reminder_hours=1.5, repeat_hours=6, reminder_cap=2)


def ended_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The service's lines saying a game ended because its place is gone."""
    return [r.getMessage() for r in caplog.records if "ended as abandoned" in r.getMessage()]


async def test_deleting_a_games_channel_ends_it_and_it_can_be_imported_elsewhere(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        game_id, _ = await start_game(fake, [alice, bob], seed=8, channel=fake.games)
        driver = Driver(fake, bot, [alice, bob], seed=8, channel=fake.games)
        assert await driver.play_turn(typed_share=0, restart_share=0)
        exported = await (await alice.slash("barrage export", in_channel=fake.games)).reply()
        data = exported.attachments[0].data
        live = await (
            await carol.slash("barrage import", in_channel=fake.general, file=("g.json", data))
        ).reply()
        assert "still active" in live.content

        store = bot.service.store
        with caplog.at_level(logging.INFO, logger="bot"):
            await fake.delete_channel(fake.games)
            await fake.wait_for(
                lambda: ended_lines(caplog), what="the game ended for its deleted channel"
            )
            # An announcement on its way meets Unknown Channel, or is dropped unsent.
            await eventually(lambda: _no_pending_post(store, game_id), what="the outbox emptied")
        assert ended_lines(caplog) == [
            f"game #1 of server {fake.guild.id} in channel {fake.games.id} ended as "
            "abandoned: channel deleted"
        ]
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
        meta = await store.get_game(game_id)
        assert meta.status == "abandoned"
        log = await store.read_log(game_id)
        assert log[-1].record == {"kind": "abandon", "reason": "channel deleted"}
        assert await store.reminders(game_id) == []
        games = await (await alice.slash("barrage games")).reply()
        assert "no games" in games.content  # no longer listed as running

        imported = await (
            await carol.slash("barrage import", in_channel=fake.general, file=("g.json", data))
        ).reply()
        assert "Game imported as #2" in imported.content
        new_id = await bot.service.desk.game_id_of(fake.guild.id, 2)
        assert (await store.get_game(new_id)).status == "active"
        await wait_turn_message(fake, fake.general)
        there = Driver(fake, bot, [alice, bob], seed=8, channel=fake.general)
        assert await there.play_turn(typed_share=0, restart_share=0)


async def test_a_deleted_thread_ends_its_game_which_its_players_export_by_number(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """After THREAD_DELETE the game is exported by its number from another channel and
    continues where it stood when imported there."""
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        thread, turn = await game_in_a_thread(fake, [fake.alice, fake.bob])
        game_id = int(next(c for c in turn.custom_ids if c.startswith("brg:play:")).split(":")[2])
        store = bot.service.store
        await fake.delete_channel(thread)
        await eventually(lambda: _status(store, game_id, "abandoned"), what="the game ended")
        log = await store.read_log(game_id)
        assert log[-1].record == {"kind": "abandon", "reason": "thread deleted"}
        exported = await (await fake.bob.slash("barrage export", game=1)).reply()
        doc = json.loads(exported.attachments[0].data)
        assert doc["source_game_number"] == 1 and doc["status"] == "abandoned"
        imported = await (
            await fake.carol.slash(
                "barrage import",
                in_channel=fake.games,
                file=("g.json", exported.attachments[0].data),
            )
        ).reply()
        assert "Game imported as #2" in imported.content
        new_id = await bot.service.desk.game_id_of(fake.guild.id, 2)
        assert (await store.get_game(new_id)).status == "active"
        await wait_turn_message(fake, fake.games)


async def test_deleting_the_channel_of_a_games_thread_ends_that_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Discord sends only CHANNEL_DELETE; the client drops the threads it knew."""
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        thread, turn = await game_in_a_thread(fake, [fake.alice, fake.bob])
        game_id = int(next(c for c in turn.custom_ids if c.startswith("brg:play:")).split(":")[2])
        parent = fake.parent_of(thread)
        assert parent is not None
        await fake.delete_channel(parent)
        await eventually(
            lambda: _status(bot.service.store, game_id, "abandoned"), what="the game ended"
        )
        log = await bot.service.store.read_log(game_id)
        assert log[-1].record == {"kind": "abandon", "reason": "thread deleted"}


async def test_a_channel_deleted_while_the_bot_was_away_ends_the_game_at_the_next_post(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """No event reached the bot; the reminder's Unknown Channel (10003) is final."""
    fake = fake_discord
    clock, db = FakeClock(), tmp_path / "db.sqlite3"
    async with barrage_bot(fake, db, clock, service_config=CONFIG) as bot:
        game_id, _ = await start_game(fake, [fake.alice, fake.bob], seed=3, channel=fake.games)
    await fake.delete_channel(fake.games)  # nobody connected to tell
    async with barrage_bot(fake, db, clock, service_config=CONFIG) as bot:
        store = bot.service.store
        assert (await store.get_game(game_id)).status == "active"
        with caplog.at_level(logging.INFO, logger="bot"):
            clock.advance(hours=2)  # the first reminder is due
            await fake.wait_for(lambda: ended_lines(caplog), what="the game ended")
        assert ended_lines(caplog) == [
            f"game #1 of server {fake.guild.id} in channel {fake.games.id} ended as "
            "abandoned: channel unknown to Discord"
        ]
        assert (await store.get_game(game_id)).status == "abandoned"
        assert await store.reminders(game_id) == []


async def test_a_channel_the_bot_may_not_post_in_keeps_its_game(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """403 Missing Permissions is not Unknown Channel: the game stays live and its
    announcement waits to be retried."""
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        game_id, _ = await start_game(fake, [fake.alice, fake.bob], seed=3, channel=fake.games)
        await fake.set_overwrite(fake.games, fake.bot, deny=SEND_MESSAGES)
        driver = Driver(fake, bot, [fake.alice, fake.bob], seed=3, channel=fake.games)
        with caplog.at_level(logging.INFO, logger="bot"):
            await driver.play_turn(typed_share=0, restart_share=0)
            await fake.wait_for(
                lambda: "cannot post in channel" in caplog.text, what="a refused post"
            )
        store = bot.service.store
        assert (await store.get_game(game_id)).status == "active"
        assert await store.pending_outbox(game_id) != []
        assert ended_lines(caplog) == []


async def eventually(check: Callable[[], Awaitable[bool]], *, what: str) -> None:
    """Poll an asynchronous check (of the bot's store) for up to 10 s."""
    for _ in range(1000):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def _status(store: Store, game_id: int, status: str) -> bool:
    return (await store.get_game(game_id)).status == status


async def _no_pending_post(store: Store, game_id: int) -> bool:
    return not await store.pending_outbox(game_id)
