"""A pending AI turn survives a kill of the bot: the real entry point, `python -m bot`, is
killed (SIGKILL) while its worker process searches the AI's move; started again, it finds the
pending step, thinks again and lands it exactly once, announced once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import FakeDiscord, run_bot_process

from bot.commands import ids
from bot.store import SqliteStore, system_clock
from tests.aiplayer import GATE_ENV

#: A seed whose first turn is seat 2's: the AI moves first.
AI_FIRST = 2


async def ai_commits(db: Path, after: int = 0) -> list[dict]:
    """The computer seats' commits in the game's log (read from the database itself)."""
    store = await SqliteStore.open(db, clock=system_clock)
    try:
        log = await store.read_log(1)
    finally:
        await store.close()
    return [e.record for e in log if e.seq > after and e.record.get("computer")]


async def test_a_kill_during_the_ai_search_lands_its_turn_once_after_the_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db, gate = tmp_path / "games.sqlite3", tmp_path / "gate"
    gate.mkdir()
    config = tmp_path / "config.toml"
    config.write_text(
        f"[discord]\ntest_guild_id = {fake.guild.id}\n"
        f'[database]\npath = "{db}"\n'
        "[backup]\ninterval_hours = 0\n"
        '[ai]\nworkers = 1\ndecider = "tests.aiplayer:gated_decide"\n'
    )
    env = {"BARRAGE_BOT_TOKEN": fake.token, GATE_ENV: str(gate)}
    args = ["-m", "bot", "--config", str(config)]
    async with run_bot_process(fake, args, extra_env=env) as process:
        await fake.wait_for(lambda: fake.guild_commands.get(fake.guild.id), what="command sync")
        lobby = await (
            await fake.alice.slash("barrage new", players=2, ai=1, seed=AI_FIRST)
        ).reply()
        game = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
        await (await fake.alice.click(lobby, ids.lobby_id(game, "start"))).reply()
        for _ in range(400):  # the worker is in the AI's search
            if list(gate.glob("started-*")):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the AI never started thinking:\n{process.text}")
        process.process.kill()
        await process.process.wait()
    assert await ai_commits(db) == []  # killed before its answer landed
    (gate / "open").write_text("")
    async with run_bot_process(fake, args, extra_env=env):
        for _ in range(400):
            if await ai_commits(db):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the AI's turn never landed after the restart")
        told = await fake.wait_for(
            lambda: [
                m for m in fake.channel_messages(fake.general) if "(AI casual) played:" in m.content
            ],
            timeout=15,
            what="the AI's turn told in the channel",
        )
        await asyncio.sleep(1.5)  # a second landing or announcement would come by now
        assert len(await ai_commits(db)) == 1
        told = [
            m for m in fake.channel_messages(fake.general) if "(AI casual) played:" in m.content
        ]
        assert len(told) == 1 and told[0].mentions == [fake.alice.id]
