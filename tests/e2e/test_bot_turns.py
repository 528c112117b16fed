"""Turns through Discord: refusals, races, restarts, reminders, threads and private views."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from fakediscord import FakeDiscord

from bot.commands import ids
from tests.commands.kit import (
    FakeClock,
    barrage_bot,
    option_ids,
    select_of,
    start_game,
    turn_messages,
    wait_turn_message,
)


def play_id(message) -> str:  # type: ignore[no-untyped-def]
    """The Play your turn custom_id on a turn message."""
    return next(c for c in message.custom_ids if c.startswith("brg:play:"))


def first_choice(message) -> tuple[str, str | None]:  # type: ignore[no-untyped-def]
    """A button custom_id on a panel, or the select's id and its first value."""
    buttons = option_ids(message)
    if buttons:
        return buttons[0], None
    select = select_of(message)
    assert select is not None
    return select, message.component(select)["options"][0]["value"]


async def deciding(fake: FakeDiscord, message):  # type: ignore[no-untyped-def]
    """The user the turn message mentions (the only one pinged)."""
    assert len(message.mentions) == 1
    return fake.users[message.mentions[0]]


async def test_wrong_user_stale_click_and_race(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Others are refused privately; of two presses at once one lands; stale clicks move on."""
    fake = fake_discord
    players = [fake.alice, fake.bob]
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        game_id, turn = await start_game(fake, players, seed=5)
        player = await deciding(fake, turn)
        other = next(p for p in players if p is not player)
        assert turn.mentions == [player.id]
        assert turn.png is not None and player.id in turn.notified and other.id not in turn.notified

        # The other player, and a spectator, press Play: refused privately, nothing opens.
        for intruder, why in ((other, "nothing for you to decide"), (fake.dave, "not playing")):
            refusal = await (await intruder.click(turn, play_id(turn))).reply()
            assert refusal.ephemeral and refusal.visible_to == intruder.id
            assert not option_ids(refusal) and select_of(refusal) is None
            assert why in refusal.content

        # The player opens the panel twice (phone and desktop) and presses on both at once.
        panel_a = await (await player.click(turn, play_id(turn))).reply()
        panel_b = await (await player.click(turn, play_id(turn))).reply()
        assert panel_a.ephemeral and "your turn" in panel_a.content
        (cid_a, val_a), (cid_b, val_b) = first_choice(panel_a), first_choice(panel_b)
        press_a = player.select(panel_a, cid_a, [val_a]) if val_a else player.click(panel_a, cid_a)
        press_b = player.select(panel_b, cid_b, [val_b]) if val_b else player.click(panel_b, cid_b)
        results = await asyncio.gather(press_a, press_b)
        replies = [await r.reply() for r in results]
        moved_on = [r for r in replies if "moved on" in r.content]
        assert len(moved_on) == 1, [r.content for r in replies]
        # The loser's panel now shows the current decision, at the new version, ready to use.
        assert option_ids(moved_on[0]) or select_of(moved_on[0])
        assert f":{game_id}:" in first_choice(moved_on[0])[0]
        assert first_choice(moved_on[0])[0] != cid_a


async def test_restart_mid_turn_keeps_old_buttons_working(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A bot restarted mid-turn: the old public button and the open panel still work."""
    fake = fake_discord
    db, clock = tmp_path / "db.sqlite3", FakeClock()
    players = [fake.alice, fake.bob]
    async with barrage_bot(fake, db, clock):
        _, turn = await start_game(fake, players, seed=7)
        player = await deciding(fake, turn)
        panel = await (await player.click(turn, play_id(turn))).reply()
        cid, value = first_choice(panel)
        pressed = player.select(panel, cid, [value]) if value else player.click(panel, cid)
        panel = await (await pressed).reply()
        assert "Done this turn" in panel.content
    # A new process: nothing in memory, only the database.
    async with barrage_bot(fake, db, clock):
        cid, value = first_choice(panel)
        pressed = player.select(panel, cid, [value]) if value else player.click(panel, cid)
        after = await (await pressed).reply()
        assert "moved on" not in after.content and "wrong" not in after.content
        reopened = await (await player.click(turn, play_id(turn))).reply()
        assert "Done this turn" in reopened.content
        restart = next(c for c in reopened.custom_ids if c.startswith("brg:rs:"))
        back = await (await player.click(reopened, restart)).reply()
        assert "restarted" in back.content and "Done this turn" not in back.content


async def test_reminder_after_simulated_time(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Nobody acts for a day: the player whose turn it is gets one ping, nobody else."""
    fake = fake_discord
    clock = FakeClock()
    async with barrage_bot(fake, tmp_path / "db.sqlite3", clock):
        _, turn = await start_game(fake, [fake.alice, fake.bob], seed=3)
        player = await deciding(fake, turn)
        pings_before = len(player.pings())
        clock.advance(hours=23)
        await asyncio.sleep(0.3)
        assert len(player.pings()) == pings_before
        clock.advance(hours=2)
        reminder = await fake.wait_for(
            lambda: len(player.pings()) > pings_before and player.pings()[-1],
            timeout=5,
            what="a reminder ping",
        )
        assert "waiting for you" in reminder.content
        assert reminder.mentions == [player.id]


async def test_a_turn_in_a_thread(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """/barrage new thread:true opens a long-lived thread; a turn is played there."""
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        opened = await (
            await fake.alice.slash("barrage new", players=2, seed=2, thread=True)
        ).reply()
        thread = fake.threads()[-1]
        assert opened.ephemeral and f"opened in {thread.mention}" in opened.content
        assert thread.auto_archive_duration == 10080
        lobby = fake.channel_messages(thread)[-1]
        game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
        await (await fake.bob.click(lobby, ids.lobby_id(game_id, "join"))).reply()
        await (await fake.alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        turn = await wait_turn_message(fake, thread)
        player = await deciding(fake, turn)
        await fake.archive_thread(thread)
        panel = await (await player.click(turn, play_id(turn))).reply()
        while option_ids(panel) or select_of(panel):
            cid, value = first_choice(panel)
            pressed = player.select(panel, cid, [value]) if value else player.click(panel, cid)
            panel = await (await pressed).reply()
        # The next turn message revives the archived thread; the old one lost its button.
        nxt = await wait_turn_message(fake, thread, after=turn.id)
        assert nxt.id > turn.id and not thread.archived
        await fake.wait_for(lambda: not turn_messages(fake, thread)[:-1], what="buttons stripped")


async def test_spectator_views_and_post_to_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Board, company, log and score: private first, then posted on request."""
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        await start_game(fake, [fake.alice, fake.bob], seed=4)
        spectator = fake.dave
        board = await (await spectator.slash("barrage board", view="shared")).reply()
        assert board.ephemeral and board.png is not None
        company = await (await spectator.slash("barrage company", company="italy")).reply()
        assert company.ephemeral
        log = await (await spectator.slash("barrage log")).reply()
        assert log.ephemeral and "Log" in log.content
        score = await (await spectator.slash("barrage score")).reply()
        assert score.ephemeral and "VP" in score.content
        post = next(c for c in board.custom_ids if re.fullmatch(ids.POST_TEMPLATE, c))
        before = len(fake.channel_messages(fake.general))
        posted = await (await spectator.click(board, post)).reply()
        assert not posted.ephemeral and posted.png is not None
        assert f"shared by {spectator.mention}" in posted.content
        assert posted.mentions == [] and posted.notified == []
        assert fake.channel_messages(fake.general)[before:] == [posted]
        helped = await (await spectator.slash("barrage help", topic="company:italy")).reply()
        assert helped.ephemeral and "Italy" in helped.content
        choices = await spectator.autocomplete("barrage help", focused="topic", topic="wilh")
        assert choices == [{"name": "Officer: Wilhelm Adler", "value": "officer:wilhelm_adler"}]
        refusal = await (await spectator.slash("barrage do", moves="bank 1")).reply()
        assert refusal.ephemeral and "not playing" in refusal.content.lower()


async def test_missing_attach_files_is_explained(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Without Attach Files the turn message still comes, saying what is missing."""
    fake = fake_discord
    await fake.set_overwrite(fake.general, fake.bot, deny=1 << 15)  # ATTACH_FILES
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        _, turn = await start_game(fake, [fake.alice, fake.bob], seed=6)
        assert turn.attachments == [] and "Attach Files" in turn.content
        assert turn.custom_ids == [f"brg:play:{turn.custom_ids[0].split(':')[2]}"]


async def test_quiet_hours_make_the_turn_message_silent(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A player in their quiet hours is mentioned without a push notification."""
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        for user in (fake.alice, fake.bob):
            zones = await user.autocomplete(
                "barrage settings", focused="time_zone", time_zone="Europe/Ber"
            )
            assert {"name": "Europe/Berlin", "value": "Europe/Berlin"} in zones
            saved = await (
                await user.slash("barrage settings", quiet_hours="0-23:59", time_zone="UTC")
            ).reply()
            assert saved.ephemeral and "00:00–23:59" in saved.content
        _, turn = await start_game(fake, [fake.alice, fake.bob], seed=8)
        assert turn.silent and turn.notified == [] and len(turn.mentions) == 1
