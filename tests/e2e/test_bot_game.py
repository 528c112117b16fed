"""A whole introductory game played by three fake users through Discord interactions."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord

from tests.commands.kit import INTRO_KINDS, Driver, FakeClock, barrage_bot, wait_turn_message

SEED = 11


async def test_three_players_play_a_whole_game(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Create, join, start, play to the final score; every log record came from Discord."""
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        created = await alice.slash("barrage new", players=3, seed=SEED)
        lobby = await created.reply()
        assert not lobby.ephemeral
        game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
        for user in (bob, carol):
            joined = await (await user.click(lobby, f"brg:lb:{game_id}:join")).reply()
            assert f"<@{user.id}>" in joined.content
        started = await (await alice.click(lobby, f"brg:lb:{game_id}:start")).reply()
        assert started.components == []
        first = await wait_turn_message(fake)
        assert first.png is not None and len(first.mentions) == 1

        driver = Driver(fake, bot, [alice, bob, carol], seed=SEED)
        turns = 0
        while await driver.play_turn():
            turns += 1
        stats = driver.stats
        import time
        t0 = time.monotonic()
        print("PENDING", len(await bot.service.store.pending_outbox(game_id)))
        import asyncio
        await asyncio.sleep(3)
        for t in bot._tasks:
            c = t.get_coro()
            while c is not None:
                fr = getattr(c, "cr_frame", None) or getattr(c, "gi_frame", None)
                print("  ", getattr(c, "__qualname__", c), fr and fr.f_lineno, fr and fr.f_code.co_filename)
                c = getattr(c, "cr_await", None) or getattr(c, "gi_yieldfrom", None)
        final = await fake.wait_for(
            lambda: next(
                (m for m in fake.channel_messages(fake.general) if "The game is over" in m.content),
                None,
            ),
            timeout=60,
            what="the final announcement",
        )
        print("FINAL after", time.monotonic() - t0)
        assert final.components == [] or not any("brg:play" in c for c in final.custom_ids)
        score = await bot.service.score(game_id, by_game_id=True)
        assert score.over and [r.rank for r in score.rows] == sorted(r.rank for r in score.rows)

        # Every record in the log was produced by one fake-Discord interaction.
        records = await bot.service.store.read_log(game_id)
        lobby_records = 3  # two joins and the start (creating writes no record)
        assert len(records) == lobby_records + stats.recorded
        assert stats.paged_selects >= 1 and stats.page_turns >= 1 and stats.do_commands >= 1
        assert set(stats.kinds) >= INTRO_KINDS, INTRO_KINDS - set(stats.kinds)
        print(f"{turns} turns, {stats}")

