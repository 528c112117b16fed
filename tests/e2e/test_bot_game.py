"""A whole introductory game played by three fake users through Discord interactions."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.payloads import png_size

from bot.service.text import company_name
from tests.commands.kit import INTRO_KINDS, Driver, FakeClock, barrage_bot, wait_turn_message

SEED = 6  # a seed whose game visits every kind of decision (checked below)


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
        # Every picture carries alt text (the fake fails a test on one without): the map's
        # says what it shows, whose turn it is and each company's score.
        alt = first.attachments[0].description or ""
        assert alt.startswith("Barrage game") and "the map" in alt and len(alt) <= 1024
        assert "to play" in alt and alt.count(" VP") == 3

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
            timeout=90,  # the final commit renders two pictures; a loaded CI box is slow
            what="the final announcement",
        )
        assert final.components == [] or not any("brg:play" in c for c in final.custom_ids)
        score = await bot.service.views.score(game_id, by_game_id=True)
        assert score.over and [r.rank for r in score.rows] == sorted(r.rank for r in score.rows)
        # The final message tells the last move, names the winner and the ranking, pings
        # every player once and attaches the score sheet before the board.
        assert "played:" in final.content and "Final ranking:" in final.content
        winner = next(r for r in score.rows if r.rank == 1)
        assert f"1. {company_name(winner.company)} (<@{winner.user_id}>)" in final.content
        assert sorted(final.mentions) == sorted(u.id for u in (alice, bob, carol))
        assert all(final.content.count(f"<@{u.id}>") == 1 for u in (alice, bob, carol))
        names = [a.filename for a in final.attachments]
        assert len(names) == 2 and names[0].endswith("-score.png") and png_size(final.png)
        sheet_alt, board_alt = (a.description or "" for a in final.attachments)
        assert "final score sheet" in sheet_alt and "Game over: 1. " in sheet_alt
        assert "Last turn:" in board_alt and all(len(a) <= 1024 for a in (sheet_alt, board_alt))
        # The finished game stays viewable by its number, and in its channel until a new
        # game starts there.
        shown = await (await fake.dave.slash("barrage score", game=game_id)).reply()
        assert shown.ephemeral and "Final score" in shown.content
        here = await (await fake.dave.slash("barrage score")).reply()
        assert "Final score" in here.content and company_name(winner.company) in here.content
        board = await (await fake.dave.slash("barrage board")).reply()
        assert board.png is not None and "round" in board.content
        log = await (await fake.dave.slash("barrage log")).reply()
        assert log.content.startswith("**Log**") and "No game" not in log.content

        # Every record in the log was produced by one fake-Discord interaction.
        records = await bot.service.store.read_log(game_id)
        by_kind = Counter(r.kind for r in records)
        assert by_kind["join"] == 2 and by_kind["start"] == 1
        # (Forced turns, confirmed on their player's behalf, are marked `auto`.)
        answered = sum(1 for r in records if r.kind == "decision" and not r.record.get("auto"))
        assert answered + by_kind["revert"] == stats.recorded
        # A commit record is written in the same append as the answer that ended a turn.
        for before, entry in itertools.pairwise(records):
            if entry.kind == "commit":
                assert before.kind in ("decision", "start")
        assert len(records) == sum(by_kind.values())
        # One turn message per commit, in order; none pings the player whose own answer
        # committed it (their panel went on to their next decision), and every other
        # player who must act next is pinged.
        posted = [
            m
            for m in fake.channel_messages(fake.general)
            if not m.ephemeral and m.attachments and m.id > lobby.id
        ]
        commits = [r for r in records if r.kind == "commit"]
        assert len(posted) == len(commits)
        handed_back = pings = 0
        for message, commit in zip(posted[:-1], commits, strict=False):
            own = commit.record["reason"] in ("turn", "choice")
            actor = commit.record["user"] if own else None
            named = {int(u) for u in re.findall(r"<@(\d+)>", message.content.splitlines()[-1])}
            assert actor not in message.notified
            assert set(message.notified) == named - {actor}
            handed_back += actor in named
            pings += len(message.notified)
        assert handed_back > 0 and pings > len(posted) // 2
        assert stats.paged_selects >= 1 and stats.page_turns >= 1 and stats.do_commands >= 1
        assert set(stats.kinds) >= INTRO_KINDS, INTRO_KINDS - set(stats.kinds)
