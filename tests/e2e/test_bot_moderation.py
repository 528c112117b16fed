"""Lobby, moderation and moving games through Discord: replace, skip, rewind, abandon, undo,
export and import, each by a fake-Discord interaction."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fakediscord import FakeDiscord, FakeUser, Message

from bot.commands import ids
from tests.commands.kit import (
    Driver,
    FakeClock,
    barrage_bot,
    start_game,
    turn_messages,
    wait_turn_message,
)


def lobby_players(message: Message) -> list[int]:
    """User ids listed on the lobby message, in seat order."""
    return [int(u) for u in re.findall(r"^\d+\. <@(\d+)>", message.content, re.MULTILINE)]


async def announcement(fake: FakeDiscord, needle: str, channel: object = None) -> Message:
    """The public message (posted by the outbox) that contains `needle`."""
    return await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.channel_messages(channel or fake.general)
                if not m.ephemeral and needle in m.content
            ),
            None,
        ),
        timeout=10,
        what=f"an announcement with {needle!r}",
    )


async def test_lobby_message_lists_players_after_each_join_and_leave(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Buttons and typed commands both edit the one lobby message in place."""
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        lobby = await (await alice.slash("barrage new", players=3, seed=4)).reply()
        game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
        assert lobby_players(lobby) == [alice.id] and "(1/3)" in lobby.content
        await (await bob.click(lobby, ids.lobby_id(game_id, "join"))).reply()
        assert lobby_players(lobby) == [alice.id, bob.id]  # the same message, edited
        typed = await (await carol.slash("barrage join")).reply()
        assert not typed.ephemeral and carol.mention in typed.content
        await fake.wait_for(lambda: lobby_players(lobby) == [alice.id, bob.id, carol.id])
        assert "(3/3)" in lobby.content and ids.lobby_id(game_id, "start") in lobby.custom_ids
        await (await bob.slash("barrage leave")).reply()
        await fake.wait_for(lambda: lobby_players(lobby) == [alice.id, carol.id])
        await (await bob.click(lobby, ids.lobby_id(game_id, "join"))).reply()
        assert lobby_players(lobby) == [alice.id, carol.id, bob.id]
        await (await alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        assert lobby.components == [] and "The game begins" in lobby.content


async def play_turns(driver: Driver, n: int) -> None:
    """n whole turns (each to its Confirm) through the panel."""
    for _ in range(n):
        assert await driver.play_turn(typed_share=0, restart_share=0)


async def deciding_user(fake: FakeDiscord) -> FakeUser:
    """Whom the newest turn message pings."""
    turn = await wait_turn_message(fake)
    return fake.users[turn.mentions[0]]


async def test_undo_rewind_replace_and_abandon(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The moderation commands through Discord, each announced in the channel."""
    fake = fake_discord
    alice, bob, carol, dave = fake.alice, fake.bob, fake.carol, fake.dave
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        game_id, _ = await start_game(fake, [alice, bob], seed=6)
        driver = Driver(fake, bot, [alice, bob], seed=6)
        await play_turns(driver, 1)
        records = await bot.service.store.read_log(game_id)
        last_user = next(r.record["user"] for r in reversed(records) if r.kind == "commit")
        player = fake.users[last_user]

        # Undo: the player who just confirmed takes the turn back, before anyone acts.
        undone = await (await player.slash("barrage undo")).reply()
        assert undone.ephemeral and "took back" in undone.content
        assert "Turn confirmed" not in undone.content
        await announcement(fake, "took back their last turn")
        await play_turns(driver, 3)

        # Rewind: a moderator picks the turn from autocomplete labels, not raw numbers.
        choices = await carol.autocomplete("barrage rewind", focused="version", version="")
        assert choices and all(
            re.fullmatch(r"Round \d+, .+'s turn \(v\d+\)", c["name"]) for c in choices
        )
        assert [c["value"] for c in choices] == sorted((c["value"] for c in choices), reverse=True)
        target = choices[-1]
        narrowed = await carol.autocomplete(
            "barrage rewind", focused="version", version=f"v{target['value']})"
        )
        assert [c["value"] for c in narrowed] == [target["value"]]
        refused = await (await bob.slash("barrage rewind", version=target["value"])).reply()
        assert refused.ephemeral and "Not allowed" in refused.content
        rewound = await (await carol.slash("barrage rewind", version=target["value"])).reply()
        assert "rewound the game to version" in rewound.content
        await announcement(fake, "rewound the game")
        meta = await bot.service.store.get_game(game_id)
        assert (await bot.service.store.read_log(game_id))[-2].record == {
            "kind": "revert",
            "to": target["value"],
        } or meta.version > target["value"]

        # Replace: dave takes over bob's seat; bob's buttons no longer answer for him.
        replaced = await (await carol.slash("barrage replace", player=bob, new_player=dave)).reply()
        assert replaced.ephemeral
        await announcement(fake, f"{dave.mention} takes over")
        assert (await bot.service.store.get_game(game_id)).player_ids == (alice.id, dave.id)
        turn = turn_messages(fake)[-1]
        play = next(c for c in turn.custom_ids if c.startswith("brg:play:"))
        refusal = await (await bob.click(turn, play)).reply()
        assert "not playing" in refusal.content.lower() or "not" in refusal.content

        # Abandon: only with confirm; the game ends without a result and its log stays.
        kept = await (await alice.slash("barrage abandon", confirm=False)).reply()
        assert "Nothing changed" in kept.content
        ended = await (await alice.slash("barrage abandon", confirm=True)).reply()
        assert "abandoned" in ended.content
        await announcement(fake, "was abandoned")
        assert (await bot.service.store.get_game(game_id)).status == "abandoned"
        gone = await (await alice.slash("barrage play")).reply()
        assert "No game here" in gone.content
        board = await (await dave.slash("barrage log", game=game_id)).reply()
        assert board.ephemeral and "Log" in board.content


async def test_skip_lets_a_vanished_seat_pass(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A moderator skips a seat: it is announced and the seat's decisions answer themselves."""
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        game_id, _ = await start_game(fake, [alice, bob], seed=6)
        driver = Driver(fake, bot, [alice, bob], seed=6)
        await play_turns(driver, 2)
        refused = await (await fake.dave.slash("barrage skip", player=bob)).reply()
        assert "Not allowed" in refused.content
        await (await carol.slash("barrage skip", player=bob)).reply()
        await announcement(fake, "will pass every turn")
        found = await driver.deciding_user()
        assert found is not None and found[0] is alice
        await play_turns(driver, 1)
        records = await bot.service.store.read_log(game_id)
        assert any(r.record.get("auto") == "skipped seat" for r in records)


async def test_export_then_import_into_another_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Export gives a JSON attachment; a moderator imports it elsewhere and play continues."""
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        game_id, _ = await start_game(fake, [alice, bob], seed=8)
        driver = Driver(fake, bot, [alice, bob], seed=8)
        await play_turns(driver, 2)
        exported = await (await fake.dave.slash("barrage export")).reply()
        assert exported.ephemeral
        [attachment] = exported.attachments
        assert attachment.filename == "barrage-game-1.json"  # the game's number in the server
        doc = json.loads(attachment.data)
        assert doc["source_game_number"] == 1 and doc["log"]
        assert "source_game_id" not in doc  # players never see the store's ids

        data = attachment.data
        refused = await (
            await bob.slash("barrage import", in_channel=fake.games, file=("game.json", data))
        ).reply()
        assert "Not allowed" in refused.content
        junk = await (
            await carol.slash("barrage import", in_channel=fake.games, file=("x.json", b"{no"))
        ).reply()
        assert "Import refused" in junk.content
        live = await (
            await carol.slash("barrage import", in_channel=fake.games, file=("game.json", data))
        ).reply()
        assert f"still active in <#{fake.general.id}> (game #1)" in live.content
        await (await alice.slash("barrage abandon", confirm=True)).reply()
        imported = await (
            await carol.slash("barrage import", in_channel=fake.games, file=("game.json", data))
        ).reply()
        assert "Game imported as #2" in imported.content
        new_id = await bot.service.desk.game_id_of(fake.guild.id, 2)
        assert new_id != game_id
        turn = await wait_turn_message(fake, fake.games)
        assert turn.png is not None
        # The imported game is at the same position and goes on in its new channel.
        old = await bot.service.views.score(game_id, by_game_id=True)
        new = await bot.service.views.score(new_id, by_game_id=True)
        assert [(r.company, r.vp) for r in old.rows] == [(r.company, r.vp) for r in new.rows]
        there = Driver(fake, bot, [alice, bob], seed=8, channel=fake.games)
        assert await there.play_turn(typed_share=0, restart_share=0)
