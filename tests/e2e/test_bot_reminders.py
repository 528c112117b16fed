"""Reminders through Discord over days of fake time: quiet hours, DMs, restarts, threads."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest
from fakediscord import FakeDiscord, FakeUser

from bot.commands import ids
from bot.service import ServiceConfig
from tests.commands.kit import FakeClock, barrage_bot, wait_turn_message

#: First reminder after 1.5 h, then every 6 h, two reminders at most.
CONFIG = ServiceConfig(reminder_hours=1.5, repeat_hours=6, reminder_cap=2)


async def game_in_a_thread(fake: FakeDiscord, players: list[FakeUser]):  # type: ignore[no-untyped-def]
    """`/barrage new thread:true`, the others join, the creator starts: (thread, turn message)."""
    await (await players[0].slash("barrage new", players=len(players), seed=2, thread=True)).reply()
    thread = fake.threads()[-1]
    lobby = fake.channel_messages(thread)[-1]
    game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
    for user in players[1:]:
        await (await user.click(lobby, ids.lobby_id(game_id, "join"))).reply()
    await (await players[0].click(lobby, ids.lobby_id(game_id, "start"))).reply()
    return thread, await wait_turn_message(fake, thread)


async def test_a_turn_is_pinged_after_quiet_hours_then_reminded(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Silent at midnight, "your turn" at 08:00 (in the archived thread, and by DM, after a
    restart), reminders 1.5 h later and every 6 h after, then no more."""
    fake = fake_discord
    db, clock = tmp_path / "db.sqlite3", FakeClock()  # 2026-01-01 00:00 UTC
    players = [fake.alice, fake.bob]
    async with barrage_bot(fake, db, clock, service_config=CONFIG):
        for user in players:
            await (
                await user.slash("barrage settings", quiet_hours="0-8", time_zone="UTC", dm=True)
            ).reply()
        thread, turn = await game_in_a_thread(fake, players)
        [player] = [fake.users[u] for u in turn.mentions]
        assert turn.silent and turn.notified == []
        await fake.archive_thread(thread)

    def pings() -> list[str]:
        return [m.content for m in player.pings() if m.channel_id == thread.id]

    async with barrage_bot(fake, db, clock, service_config=CONFIG):  # a restart at night
        clock.advance(hours=7.9)
        await asyncio.sleep(0.3)
        assert pings() == [] and player.dms() == []
        clock.advance(hours=0.1)  # 08:00: the quiet hours are over
        await fake.wait_for(lambda: pings(), what="the turn's ping")
        assert "it is your turn" in pings()[0] and not thread.archived
        await fake.wait_for(lambda: player.dms(), what="the DM")
        assert "it is your turn" in player.dms()[0].content
        assert f"/channels/{fake.guild.id}/{thread.id}" in player.dms()[0].content
        clock.advance(hours=1.4)
        await asyncio.sleep(0.3)
        assert len(pings()) == 1
        clock.advance(hours=0.1)  # 1.5 h after the ping: the first reminder
        await fake.wait_for(lambda: len(pings()) == 2, what="the first reminder")
        assert "is waiting for you" in pings()[1]
        clock.advance(hours=6)  # the repeat time
        await fake.wait_for(lambda: len(pings()) == 3, what="the second reminder")
        clock.advance(hours=30)  # the cap: two reminders after the turn's own ping
        await asyncio.sleep(0.3)
        assert len(pings()) == 3
        other = next(u for u in players if u is not player)
        assert other.pings() == [] and other.dms() == []


async def test_a_deleted_thread_ends_its_game_and_nothing_more_is_tried_there(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """THREAD_DELETE ends the game (tests/e2e/test_bot_lost_channel.py): its reminders go
    at once, and an announcement still waiting for the thread is dropped unsent. No retries,
    no traceback: one log line."""
    fake = fake_discord
    clock, db = FakeClock(), tmp_path / "db.sqlite3"
    async with barrage_bot(fake, db, clock, service_config=CONFIG) as bot:
        thread, turn = await game_in_a_thread(fake, [fake.alice, fake.bob])
        game_id = int(next(c for c in turn.custom_ids if c.startswith("brg:play:")).split(":")[2])
        posted = len(fake.calls)
        with caplog.at_level(logging.INFO, logger="bot"):
            await fake.delete_channel(thread)
            await fake.wait_for(lambda: "ended as abandoned" in caplog.text, what="the game ended")
            assert await bot.service.store.reminders(game_id) == []
            for _ in range(3):
                clock.advance(hours=6)
                await asyncio.sleep(0.2)
            # The start's announcement, as if it had been committed just before the deletion.
            await asyncio.to_thread(mark_every_announcement_unsent, db)
            bot.outbox.wake()
            for _ in range(500):
                if not await bot.service.store.pending_outbox(game_id):
                    break
                await asyncio.sleep(0.01)
        assert await bot.service.store.pending_outbox(game_id) == []
        assert not [c for c in fake.calls[posted:] if str(thread.id) in c.path]
        lines = [r for r in caplog.records if r.name.startswith("bot")]
        assert [r.levelno for r in lines] == [logging.INFO]
        assert lines[0].exc_info is None and str(thread.id) in lines[0].getMessage()


def mark_every_announcement_unsent(db: Path) -> None:
    """Set every announcement back to unsent, through a connection of our own.

    Run it in a thread: waiting for the write lock on the event loop would stop the bot's
    transaction that holds the lock from ever committing ("database is locked" after the
    busy timeout).
    """
    con = sqlite3.connect(db, timeout=60)
    try:
        con.execute("UPDATE outbox SET sent_at = NULL, message_id = NULL")
        con.commit()
    finally:
        con.close()
