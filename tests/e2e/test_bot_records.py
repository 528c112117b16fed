"""Records through Discord: /barrage stats, /barrage history (opening a finished game with its
score sheet, charts and export file) and replays, against the fake Discord."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
import sqlite3
from pathlib import Path

from fakediscord import FakeDiscord, Message
from PIL import Image

from bot.commands import records
from bot.service import Actor, GameService, RendererPool
from bot.store import GameResult, SeatResult, open_store
from tests.commands.kit import FakeClock, barrage_bot


async def finish_a_game(fake: FakeDiscord, db: Path, clock: FakeClock) -> int:
    """Alice and Bob play a game to its end in #general (through the service, before the bot
    starts: the Discord side of playing is tested elsewhere); return its number."""
    store = await open_store(db, clock=clock)
    service = GameService(store, clock=clock, renderer_pool=RendererPool(kind="inline"))
    guild, channel = fake.guild.id, fake.channel(fake.general).id
    users = (fake.alice.id, fake.bob.id)
    at = {u: Actor(u, guild, channel, True) for u in users}
    outcome = await service.lobby.create_game(at[users[0]], players=2, seed=5)
    await service.lobby.join(at[users[1]])
    await service.lobby.start(at[users[0]])
    rng = random.Random(5)
    while (await store.get_game(outcome.game_id)).status == "active":
        for user in users:
            panel = await service.views.panel(at[user])
            if panel.options:
                choice = rng.choice(panel.options).notation
                await service.moves.play(at[user], [choice], expected_version=panel.version)
                clock.advance(ms=60_000)
                break
    # Another server's finished game: it never counts here.
    other = await store.create_game(
        guild_id=guild + 1, channel_id=1, creator_id=users[0], options={"players": 2}, seed=1,
        engine_version="0.1.0", seats=list(users),
    )  # fmt: skip
    seats = tuple(
        SeatResult(i, u, c, "wilhelm_adler", 99, 1 + i, {"start": 99}, ())
        for i, (u, c) in enumerate(zip(users, ("usa", "italy"), strict=True))
    )
    await store.append(
        other.id, 0, [{"kind": "commit"}], result=GameResult(2, "intro", "base", (), 5, seats)
    )
    number = (await store.get_game(outcome.game_id)).number
    await store.close()
    return number


def forget_results(db: Path, guild_id: int) -> int:
    """Drop the results of one server's games (the other server's are kept); return how many."""
    con = sqlite3.connect(db)
    with con:
        games = "SELECT id FROM games WHERE guild_id = ?"
        guild = (guild_id,)
        con.execute(f"DELETE FROM result_seats WHERE game_id IN ({games})", guild)
        dropped = con.execute(f"DELETE FROM results WHERE game_id IN ({games})", guild).rowcount
    con.close()
    return dropped


def attachment_names(message: Message) -> list[str]:
    return [a.filename for a in message.attachments]


async def test_stats_history_and_replay(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    clock = FakeClock()
    db = tmp_path / "db.sqlite3"
    number = await finish_a_game(fake, db, clock)
    assert forget_results(db, fake.guild.id) == 1  # as if it finished before results were kept
    async with barrage_bot(fake, db, clock) as bot:
        # The start-up backfill gives it its results from its log, in the background.
        for _ in range(200):
            if not await bot.service.store.games_without_results():
                break
            await asyncio.sleep(0.1)
        assert not await bot.service.store.games_without_results()

        # The final message tells each person's rating change: two newcomers, one winning
        # (34 and −18: tests/service/test_ratings.py works it out by hand).
        final = await fake.wait_for(
            lambda: next(
                (m for m in fake.channel_messages(fake.general) if "The game is over" in m.content),
                None,
            ),
            timeout=120,  # the sender posts every turn's announcement first
            what="the final announcement",
        )
        won = re.search(r"\n1\. \w+ \(<@(\d+)>\): \d+ VP · rating 34 \(\+34\)\n", final.content)
        lost = re.search(r"\n2\. \w+ \(<@(\d+)>\): \d+ VP · rating −18 \(−18\)", final.content)
        assert won is not None and lost is not None, final.content
        winner, loser = int(won[1]), int(lost[1])
        assert {winner, loser} == {alice.id, bob.id}

        # The server's statistics, privately, with a leaderboard picture.
        answer = await (await carol.slash("barrage stats", min_games=1)).reply(timeout=20)
        assert answer.ephemeral
        assert "1 game played here: 1 finished" in answer.content
        assert alice.mention in answer.content and bob.mention in answer.content
        assert f"1. <@{winner}>: rating 34, 1 game, 1 win (100%)" in answer.content
        assert f"2. <@{loser}>: rating −18, 1 game, 0 wins (0%)" in answer.content
        assert attachment_names(answer) == ["leaderboard.png"]
        picture = Image.open(io.BytesIO(answer.attachments[0].data))
        assert picture.width == 1200 and picture.mode == "P"
        [post] = [c for c in answer.custom_ids if c.startswith("brg:st:")]
        assert re.fullmatch(records.STATS_POST_TEMPLATE, post)
        posted = await (await carol.click(answer, post)).reply(timeout=20)
        assert not posted.ephemeral and f"shared by {carol.mention}" in posted.content
        assert not posted.notified  # naming the players pings nobody

        # Filters: no 3-player game here; the other server's game never counts.
        empty = await (await carol.slash("barrage stats", players=3)).reply(timeout=20)
        assert "No finished game to count yet." in empty.content and not empty.attachments

        # One player's record.
        record = await (await carol.slash("barrage stats", player=bob)).reply(timeout=20)
        assert bob.mention in record.content and "1 game" in record.content
        assert f"#{number} (" in record.content

        # The history: a page, a menu opening the game with its score sheet, charts, export.
        page = await (await carol.slash("barrage history")).reply(timeout=20)
        assert page.ephemeral and f"#{number} (" in page.content
        [menu] = [c for c in page.custom_ids if c.startswith("brg:ho:")]
        opened = await (await carol.select(page, menu, [str(number)])).reply(timeout=30)
        assert opened.ephemeral and f"**Game #{number}**" in opened.content
        assert attachment_names(opened) == [
            f"game-{number}-score.png",
            f"game-{number}-charts.png",
            f"barrage-game-{number}.json",
        ]
        doc = json.loads(opened.attachments[2].data)
        assert doc["source_game_number"] == number and doc["status"] == "finished"
        buttons = [c for c in opened.custom_ids if c.startswith("brg:ar:")]
        assert buttons == [
            f"brg:ar:{number}:round",
            f"brg:ar:{number}:turn",
            f"brg:ar:{number}:post",
        ]

        # Its replay, posted to the channel: an animated GIF under the attachment limit.
        replay = await (await carol.click(opened, buttons[0])).reply(timeout=60)
        assert not replay.ephemeral and f"Replay of game #{number}" in replay.content
        [gif] = replay.attachments
        assert gif.content_type == "image/gif" and len(gif.data) <= 8 * 1024 * 1024
        animation = Image.open(io.BytesIO(gif.data))
        assert animation.n_frames == 6 and animation.info["loop"] == 0

        # A replay without a number: the last game finished in this channel.
        again = await (await alice.slash("barrage history", replay="one frame per round")).reply(
            timeout=60
        )
        assert again.attachments[0].data == gif.data  # drawn once, cached

        # Another server's game number is not a game of this server.
        refused = await (await carol.slash("barrage history", game=number + 1)).reply(timeout=20)
        assert refused.ephemeral and f"no game #{number + 1} in this server" in refused.content
