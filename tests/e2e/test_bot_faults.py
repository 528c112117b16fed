"""A database that cannot be written, through Discord: a clear private refusal, one log line,
and the same click working once the disk does."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord

from bot.store import SqliteStore
from tests.commands.kit import FakeClock, barrage_bot, option_ids, select_of, start_game
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
