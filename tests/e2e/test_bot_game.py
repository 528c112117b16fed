"""A whole introductory game played by three fake users through Discord interactions."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

from fakediscord import FakeDiscord

from tests.commands.kit import INTRO_KINDS, Driver, FakeClock, barrage_bot, wait_turn_message

SEED = 2  # a seed whose game visits every kind of decision (checked below)


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
        final = await fake.wait_for(
            lambda: next(
                (m for m in fake.channel_messages(fake.general) if "The game is over" in m.content),
                None,
            ),
            timeout=30,
            what="the final announcement",
        )
        assert final.components == [] or not any("brg:play" in c for c in final.custom_ids)
        score = await bot.service.score(game_id, by_game_id=True)
        assert score.over and [r.rank for r in score.rows] == sorted(r.rank for r in score.rows)
        # The finished game stays viewable by its number.
        shown = await (await fake.dave.slash("barrage score", game=game_id)).reply()
        assert shown.ephemeral and "Final score" in shown.content

        # Every record in the log was produced by one fake-Discord interaction.
        records = await bot.service.store.read_log(game_id)
        by_kind = Counter(r.kind for r in records)
        assert by_kind["join"] == 2 and by_kind["start"] == 1
        assert by_kind["decision"] + by_kind["revert"] == stats.recorded
        # A commit record is written in the same append as the answer that ended a turn.
        for before, entry in itertools.pairwise(records):
            if entry.kind == "commit":
                assert before.kind in ("decision", "start")
        assert len(records) == sum(by_kind.values())
        assert stats.paged_selects >= 1 and stats.page_turns >= 1 and stats.do_commands >= 1
        assert set(stats.kinds) >= INTRO_KINDS, INTRO_KINDS - set(stats.kinds)
