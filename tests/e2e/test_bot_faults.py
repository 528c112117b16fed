"""Faults through Discord: a database that cannot be written (a clear private refusal, one log
line, and the same click working once the disk does), and a picture that cannot be drawn (the
turn goes out at once without it, and gets it when it can be drawn)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord

from bot.service.outbox import PICTURE_MISSING
from bot.store import SqliteStore
from tests.commands.kit import (
    Driver,
    FakeClock,
    barrage_bot,
    option_ids,
    select_of,
    start_game,
    wait_turn_message,
)
from tests.e2e.test_bot_turns import deciding, first_choice, play_id

NOT_SAVED = (
    "💾 Not saved: the bot can't save right now; nothing was changed. Please try again later"
)


async def test_a_click_on_a_read_only_database_is_refused_privately_then_works(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        game_id, turn = await start_game(fake, [fake.alice, fake.bob], seed=5)
        player = await deciding(fake, turn)
        store = bot.service.store
        assert isinstance(store, SqliteStore)
        version = await store.version(game_id)
        # The one ERROR line the store logs when the outage starts, and no other.
        async with fake.expect_failures(r"saving to database .* read-only"):
            await store._db.execute("PRAGMA query_only = 1")  # as a read-only disk does
            panel = await (await player.click(turn, play_id(turn))).reply()  # reading works
            assert option_ids(panel) or select_of(panel)
            for _ in range(3):
                cid, value = first_choice(panel)
                press = player.select(panel, cid, [value]) if value else player.click(panel, cid)
                refusal = await (await press).reply()
                assert refusal.ephemeral and refusal.visible_to == player.id
                assert refusal.content == NOT_SAVED
        assert fake.take_failures() == []
        assert await store.version(game_id) == version
        # Space (or write access) is back: the same button on the same panel now plays.
        await store._db.execute("PRAGMA query_only = 0")
        cid, value = first_choice(panel)
        press = player.select(panel, cid, [value]) if value else player.click(panel, cid)
        moved = await (await press).reply()
        assert "Not saved" not in moved.content
        assert await store.version(game_id) > version


async def test_a_turn_whose_picture_fails_goes_out_at_once_and_gets_it_later(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        pool = bot.service.renderer_pool
        draw = pool.render_fn
        broken = [True]  # the first picture fails, as a renderer fault would

        def flaky(state: Any, view: str, company: str | None, theme: str) -> bytes:
            if broken and broken.pop():
                raise RuntimeError("the renderer broke")
            return draw(state, view, company, theme)

        pool.render_fn = flaky
        bot.outbox.picture_retries_s = (0.0,)
        async with fake.expect_failures(r"the map picture of game \d+ at version \d+ could not"):
            game_id, turn = await start_game(fake, [fake.alice, fake.bob], seed=5)
            # Text, ping and buttons at once, saying that the picture is missing.
            assert PICTURE_MISSING in turn.content
            player = await deciding(fake, turn)
            assert turn.notified == [player.id] and play_id(turn) in turn.custom_ids
            # The picture follows: the same message gets it and loses the note, pinging nobody.
            await fake.wait_for(lambda: turn.attachments, what="the picture added later")
        assert turn.png and PICTURE_MISSING not in turn.content
        assert turn.notified == [player.id] and play_id(turn) in turn.custom_ids
        # The turn plays on from that message.
        panel = await (await player.click(turn, play_id(turn))).reply()
        assert option_ids(panel) or select_of(panel)
        assert await bot.service.store.version(game_id) >= 1


async def test_a_renderer_that_always_fails_still_lets_the_game_go_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:

        def broken(state: Any, view: str, company: str | None, theme: str) -> bytes:
            raise RuntimeError("the renderer broke")

        bot.service.renderer_pool.render_fn = broken
        bot.outbox.picture_retries_s = (0.0, 0.0)
        async with fake.expect_failures(r"picture of game", r"picture of game"):
            _, turn = await start_game(fake, [fake.alice, fake.bob], seed=5)
            assert PICTURE_MISSING in turn.content and not turn.attachments
            assert await Driver(fake, bot, [fake.alice, fake.bob], seed=5).play_turn(
                typed_share=0, restart_share=0
            )
            after = await wait_turn_message(fake, after=turn.id)
            await bot.outbox.settle_pictures()
        # Each message says, and goes on saying, that its picture could not be drawn.
        assert PICTURE_MISSING in after.content and not after.attachments
        assert PICTURE_MISSING in turn.content and not turn.attachments
