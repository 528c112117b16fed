"""Hostile clicks through Discord: forged ids, another game's panel, another server's games,
ids with numbers past 64 bits."""

from __future__ import annotations

from pathlib import Path

import discord
from fakediscord import FakeDiscord

from bot.commands import ids, records
from bot.commands.client import NOT_ON_MESSAGE
from bot.store import ANY_GAME
from tests.commands.kit import FakeClock, actor, barrage_bot, start_game, turn_messages


async def test_a_forged_component_id_is_refused_and_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        game_id, turn = await start_game(fake, [fake.alice, fake.bob], seed=5)
        version = await bot.service.store.version(game_id)
        panel = None
        for user in (fake.alice, fake.bob):
            opened = await (await user.click(turn, ids.play_id(game_id))).reply()
            if any(c.startswith(("brg:o:", "brg:s:", "brg:h:")) for c in opened.custom_ids):
                panel, player = opened, user
        assert panel is not None
        for forged in (
            ids.option_id(game_id, version, "pass"),
            ids.option_id(game_id + 1, version, "pass"),
            ids.option_id(2**64 + 1, 10**30, "pass"),
            ids.restart_id(game_id, version),
            ids.post_id(game_id, "b_moon"),
            "brg:zz:1",
            "",
        ):
            reply = await (await player.forge(panel, forged)).reply()
            assert reply.content == NOT_ON_MESSAGE, forged
        assert await bot.service.store.version(game_id) == version


async def test_a_panel_left_from_an_abandoned_game_cannot_play_in_the_new_one(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        old_id, turn = await start_game(fake, [alice, bob], seed=5)
        panels = {}
        for user in (alice, bob):
            panels[user.id] = await (await user.click(turn, ids.play_id(old_id))).reply()
        await (await carol.slash("barrage abandon", confirm=True)).reply()
        new_id, _ = await start_game(fake, [alice, bob], seed=5)  # the same options again
        version = await bot.service.store.version(new_id)
        for user in (alice, bob):
            old = panels[user.id]
            options = [c for c in old.custom_ids if c.startswith("brg:o:")]
            if options:  # the player who had a decision then (the answer replaces the panel)
                reply = await (await user.click(old, options[0])).reply()
                assert "🔀 Another game" in reply.content
                assert "belongs to another game" in reply.content
        # The public button of the old game's turn message (if it still has one).
        for message in turn_messages(fake):
            if ids.play_id(old_id) in message.custom_ids:
                reply = await (await alice.click(message, ids.play_id(old_id))).reply()
                assert "belongs to another game" in reply.content
        assert await bot.service.store.version(new_id) == version


async def test_game_numbers_belong_to_their_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    erin = fake.add_user("erin", guild=None)
    other = fake.add_guild("Other Club", owner=erin)
    elsewhere = fake.add_channel("elsewhere", guild=other)
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        ours, _ = await start_game(fake, [fake.alice, fake.bob], seed=5)
        await (await fake.alice.slash("barrage abandon", confirm=True)).reply()
        # The other server has no game #1: our game #1 is not theirs to see.
        reply = await (await erin.slash("barrage score", in_channel=elsewhere, game=1)).reply()
        assert "There is no game #1 in this server" in reply.content
        assert not reply.attachments and not reply.custom_ids
        # Ours still answers here, with a Post button naming our game only.
        shown = await (await fake.dave.slash("barrage score", game=1)).reply()
        assert shown.custom_ids == [ids.post_id(ours, "score")]
        meta = await bot.service.store.get_game(ours)
        assert meta.number == 1 and actor(fake, fake.dave).guild_id == meta.guild_id


async def test_history_ids_past_64_bits_are_refused_plainly(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        # Buttons as an old or altered page could carry them, on a message of the bot's own.
        view = discord.ui.View(timeout=None)
        view.add_item(records.HistoryPageButton(ANY_GAME, 0, 2**64 + 1, "Older ▶"))
        view.add_item(records.HistoryPageButton(ANY_GAME, 2**64 + 1, 2, "◀ Newer"))
        view.add_item(records.HistoryOpenSelect(ANY_GAME, 0, 2**64 + 1))
        sent = await bot.get_partial_messageable(fake.general.id).send("History", view=view)
        older, newer, menu = fake.messages[sent.id].custom_ids
        reply = await (await fake.alice.click(sent.id, older)).reply()
        assert reply.ephemeral and reply.content.endswith("the history's pages go up to 100,000.")
        reply = await (await fake.alice.click(sent.id, newer)).reply()
        assert reply.ephemeral and reply.content.endswith("There is no such player.")
        forged = str(2**64 + 1)
        reply = await (await fake.alice.forge(sent.id, menu, values=[forged])).reply()
        assert reply.ephemeral and f"There is no game #{forged} in this server" in reply.content
        assert fake.take_failures() == []
