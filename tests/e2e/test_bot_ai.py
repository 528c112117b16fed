"""AI seats through Discord: `/barrage new ai:`, the lobby's AI buttons, a game against the AI
(its steps told in words, only the person pinged), undo across the AI's turns, a moderator's
`/barrage replace ai:` and `/barrage play` taking the seat back, and `/barrage hint`.

The AI is bot.ai at its casual level (a small budget keeps CI fast)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

from fakediscord import FakeDiscord, Message

from bot.commands import ids
from bot.commands.client import BarrageBot
from bot.service import ServiceConfig
from tests.commands import kit


def config(kind: str = "thread") -> ServiceConfig:
    """Daily reminders (none fire in these tests) and the AI's workers of this kind."""
    return ServiceConfig(reminder_hours=24, reminder_cap=2, extra={"ai_workers_kind": kind})


def ai_bot(
    fake: FakeDiscord, tmp_path: Path, kind: str = "thread"
) -> contextlib.AbstractAsyncContextManager[BarrageBot]:
    """The bot on a fresh database, its AI's workers of this kind."""
    return kit.barrage_bot(
        fake, tmp_path / "db.sqlite3", kit.FakeClock(), service_config=config(kind)
    )


def lobby_game(lobby: Message) -> int:
    return int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])


async def until_a_person_decides(driver: kit.Driver) -> bool:
    """Wait while the AI thinks; True when a person must decide, False once the game is over."""
    for _ in range(400):
        found = await driver.deciding_user()
        if found is not None:
            return True
        meta = await driver.bot.service.store.active_game(driver.channel.id)
        if meta is None:
            return False
        await asyncio.sleep(0.05)
    raise AssertionError("nobody was asked to decide: the AI's step never landed")


async def test_lobby_buttons_add_and_remove_ai_players_and_a_game_tells_the_ai_turns(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with ai_bot(fake, tmp_path, "process") as bot:
        lobby = await (
            await alice.slash("barrage new", players=3, seed=4, ai=1, ai_level="casual")
        ).reply()
        game_id = lobby_game(lobby)
        assert "(2/3)" in lobby.content and "AI (casual)" in lobby.content
        refused = await (await bob.click(lobby, ids.lobby_id(game_id, "ai_add"))).reply()
        assert refused.ephemeral and "creator" in refused.content
        await kit.add_and_remove_computer(fake, lobby, alice, game_id, "ai", "AI (casual)")
        await (await alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        assert "(AI, casual)" in lobby.content and lobby.components == []
        await kit.wait_turn_message(fake)
        driver = kit.Driver(fake, bot, [alice], seed=4)
        for _ in range(8):
            assert await until_a_person_decides(driver)
            await driver.play_turn(typed_share=0, restart_share=0)
        told = await fake.wait_for(
            lambda: next(
                (m for m in kit.turn_messages(fake) if "(AI casual) played:" in m.content), None
            ),
            timeout=20,
            what="a turn message telling the AI's turn",
        )
        assert told.mentions in ([], [alice.id])
        public = [m for m in fake.channel_messages(fake.general) if not m.ephemeral]
        assert all(set(m.mentions) <= {alice.id} for m in public)
        # The workers are processes apart from the bot's.
        pids = {pid for *_, pid in bot.service.thinker.costs}
        assert pids and os.getpid() not in pids


async def test_undo_takes_back_the_ai_turns_and_a_hint_is_private(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.alice
    async with ai_bot(fake, tmp_path) as bot:
        lobby = await (
            await alice.slash("barrage new", players=2, seed=6, ai=1, hints=True)
        ).reply()
        assert "hints on" in lobby.content
        await (await alice.click(lobby, ids.lobby_id(lobby_game(lobby), "start"))).reply()
        await kit.wait_turn_message(fake)
        driver = kit.Driver(fake, bot, [alice], seed=6)
        assert await until_a_person_decides(driver)
        # The hint is a real strong search in a worker: on a loaded machine it takes seconds.
        hint = await (await alice.slash("barrage hint")).reply(timeout=60)
        assert hint.ephemeral and hint.visible_to == alice.id and "Hint for" in hint.content
        for _ in range(40):
            assert await until_a_person_decides(driver)
            await driver.play_turn(typed_share=0, restart_share=0)
            assert await until_a_person_decides(driver)
            panel = await driver.panel_of(alice)
            if panel is not None and panel.can_undo:
                break
        else:
            raise AssertionError("no turn could be undone")
        undo = await (await alice.slash("barrage undo")).reply()
        assert "took back their last turn" in undo.content or not undo.ephemeral
        await fake.wait_for(
            lambda: any(
                "took back their last turn and the computer seats' turns after it" in m.content
                for m in fake.channel_messages(fake.general)
            ),
            timeout=10,
            what="the undo's announcement",
        )


async def test_a_moderator_lets_the_ai_play_a_seat_and_play_takes_it_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with ai_bot(fake, tmp_path) as bot:
        lobby = await (await alice.slash("barrage new", players=2, seed=8)).reply()
        game_id = lobby_game(lobby)
        await (await bob.click(lobby, ids.lobby_id(game_id, "join"))).reply()
        await (await alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        await kit.wait_turn_message(fake)
        neither = await (await alice.slash("barrage replace", player=bob.id)).reply()
        assert neither.ephemeral and "either the member" in neither.content
        await (await alice.slash("barrage replace", player=bob.id, ai="casual")).reply()
        await fake.wait_for(
            lambda: any(
                "The AI (casual) plays" in m.content for m in fake.channel_messages(fake.general)
            ),
            timeout=10,
            what="the replacement's announcement",
        )
        driver = kit.Driver(fake, bot, [alice, bob], seed=8)
        for _ in range(4):
            assert await until_a_person_decides(driver)
            found = await driver.deciding_user()
            assert found is not None and found[0] is alice  # the AI plays bob's seat
            await driver.play_turn(typed_share=0, restart_share=0)
        await (await bob.slash("barrage play")).reply()
        await fake.wait_for(
            lambda: any(
                "back from the AI" in m.content for m in fake.channel_messages(fake.general)
            ),
            timeout=10,
            what="the taking back's announcement",
        )
        log = await bot.service.store.read_log(game_id)
        kinds = [e.record["kind"] for e in log]
        assert "ai_seat" in kinds and "ai_release" in kinds
        played = [e.record for e in log if e.record.get("auto") == "ai:casual"]
        assert played and all(r["user"] is None for r in played)
