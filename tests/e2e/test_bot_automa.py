"""Automa companies through Discord: `/barrage new automa:`, the lobby's automa buttons, and a
solo game whose turn messages tell the automas' turns and ping the person only when her own
Confirm did not hand her the next turn (at the start and the end)."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord

from bot.commands import ids
from bot.commands.panel import HANDED_BACK_NOTE
from tests.commands.kit import (
    Driver,
    FakeClock,
    barrage_bot,
    option_ids,
    select_of,
    turn_messages,
    wait_turn_message,
)


async def test_lobby_buttons_add_and_remove_automas(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        lobby = await (
            await alice.slash("barrage new", players=3, seed=4, automa=1, automa_level="hard")
        ).reply()
        game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
        assert "(2/3)" in lobby.content and "Automa (hard)" in lobby.content
        assert ids.lobby_id(game_id, "bot_add") in lobby.custom_ids
        refused = await (await bob.click(lobby, ids.lobby_id(game_id, "bot_add"))).reply()
        assert refused.ephemeral and "creator" in refused.content
        await (await alice.click(lobby, ids.lobby_id(game_id, "bot_add"))).reply()
        await fake.wait_for(lambda: lobby.content.count("Automa (hard)") == 2)
        assert "(3/3)" in lobby.content
        await (await alice.click(lobby, ids.lobby_id(game_id, "bot_remove"))).reply()
        await fake.wait_for(lambda: lobby.content.count("Automa (hard)") == 1)
        await (await bob.click(lobby, ids.lobby_id(game_id, "join"))).reply()
        await (await alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        assert "(automa, hard)" in lobby.content and lobby.components == []


async def test_a_solo_game_tells_the_automa_turns_and_pings_only_the_person(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.alice
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        lobby = await (await alice.slash("barrage new", players=3, seed=9, automa=2)).reply()
        game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
        await (await alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        first = await wait_turn_message(fake)
        assert first.mentions == [alice.id]
        driver = Driver(fake, bot, [alice], seed=9)
        # One turn through the panel, up to its Confirm.
        message = await driver.open_panel(alice)
        while True:
            panel = await driver.panel_of(alice)
            assert panel is not None
            if panel.kind == "confirm":
                break
            message = await driver.answer(alice, message, panel.options[0].notation)
        confirmed = await driver.answer(alice, message, "confirm")
        told = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in turn_messages(fake)
                    if "(automa) played:" in m.content and m.id != first.id
                ),
                None,
            ),
            timeout=10,
            what="a turn message telling the automas' turns",
        )
        # The channel sees the turn; Alice, whose panel went on to her next turn, is named
        # in it but not pinged again.
        assert "played card" not in told.content and f"<@{alice.id}>" in told.content
        assert told.notified == [] and told.png is not None
        assert HANDED_BACK_NOTE in confirmed.content and (
            option_ids(confirmed) or select_of(confirmed)
        )
        undo = await (await alice.slash("barrage undo")).reply()
        assert undo.ephemeral and "the automa played right after it" in undo.content
        # The rest of the game: the person is the only one ever pinged.
        for _ in range(500):
            if not await driver.play_turn(typed_share=0.1, restart_share=0.02):
                break

        def public() -> list:
            return [m for m in fake.channel_messages(fake.general) if not m.ephemeral]

        await fake.wait_for(
            lambda: any("The game is over." in m.content for m in public()),
            timeout=10,
            what="the final message",
        )
        assert all(set(m.mentions) <= {alice.id} for m in public())
        # Pinged twice in the whole game: for her first turn and for the final result; every
        # turn in between was handed back to her open panel by her own Confirm.
        pings = alice.pings()
        assert len(pings) == 2, [m.content[:80] for m in pings]
        assert pings[0].id == first.id and "The game is over." in pings[-1].content
