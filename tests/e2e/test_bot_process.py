"""The real entry point, `python -m bot`, as a separate process against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord, run_bot_process


async def test_entry_point_serves_commands_and_syncs_only_on_change(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """It logs in, registers /barrage in the test guild once, and answers a command."""
    fake = fake_discord
    config = tmp_path / "config.toml"
    config.write_text(
        f"[discord]\ntest_guild_id = {fake.guild.id}\n"
        f'[database]\npath = "{tmp_path / "games.sqlite3"}"\n'
        "[backup]\ninterval_hours = 0\n"
    )
    env = {"BARRAGE_BOT_TOKEN": fake.token}
    args = ["-m", "bot", "--config", str(config)]
    async with run_bot_process(fake, args, extra_env=env) as process:
        await fake.wait_for(lambda: fake.guild_commands.get(fake.guild.id), what="command sync")
        reply = await (await fake.alice.slash("barrage help")).reply()
        assert reply.ephemeral and "Play your turn" in reply.content
        lobby = await (await fake.alice.slash("barrage new", players=2)).reply()
        assert "Barrage game #" in lobby.content and "Players (1/2)" in lobby.content
    assert await process.stop() == 0
    assert fake.command_puts == 1
    assert fake.global_commands == []
    # A second start with the same commands does not register them again.
    async with run_bot_process(fake, args, extra_env=env):
        reply = await (await fake.bob.slash("barrage join")).reply()
        assert "joined" in reply.content
    assert fake.command_puts == 1
    assert "Traceback" not in process.text
