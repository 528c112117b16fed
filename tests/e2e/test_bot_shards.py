"""Two `python -m bot` processes, gateway shards 0 and 1 of 2, on one PostgreSQL database."""

from __future__ import annotations

import contextlib
from pathlib import Path

from fakediscord import FakeDiscord, run_bot_process
from fakediscord.model import Message
from fakediscord.payloads import png_size, shard_of


def _has_picture(message: Message) -> bool:
    """Whether a message carries a board picture (a turn's announcement does)."""
    return any(png_size(a.data) for a in message.attachments)


def _config(tmp_path: Path, url: str, shard: int) -> Path:
    """The settings file of the process serving `shard` of 2."""
    path = tmp_path / f"shard{shard}.toml"
    path.write_text(
        f"[discord]\nshard_count = 2\nshard_ids = [{shard}]\n"
        f"[database]\nurl = '{url}'\n"
        "[backup]\ninterval_hours = 0\n"
    )
    return path


async def test_each_process_serves_its_shards_guilds_and_every_turn_is_announced_once(
    fake_discord: FakeDiscord, tmp_path: Path, postgres_url: str
) -> None:
    fake = fake_discord
    guilds = [fake.add_guild(f"Club {i}", owner=fake.owner, shard=(i, 2)) for i in range(2)]
    channels = []
    for guild in guilds:
        for user in (fake.alice, fake.bob):
            guild.members[user.id] = []
        channels.append(fake.add_channel("barrage", guild=guild))
    assert [shard_of(g.id, 2) for g in guilds] == [0, 1]

    env = {"BARRAGE_BOT_TOKEN": fake.token}
    async with contextlib.AsyncExitStack() as stack:
        processes = [
            await stack.enter_async_context(
                run_bot_process(
                    fake,
                    ["-m", "bot", "--config", str(_config(tmp_path, postgres_url, shard))],
                    extra_env=env,
                    cwd=tmp_path,
                )
            )
            for shard in range(2)
        ]
        await fake.wait_for(
            lambda: len(fake.connected_sessions()) == 2, what="both shards connected"
        )
        await fake.wait_for(lambda: fake.global_commands, what="the command registration")
        sessions = {s.identify["shard"][0]: s for s in fake.connected_sessions()}
        assert sorted(sessions) == [0, 1]

        for number, channel in enumerate(channels):
            lobby = await (
                await fake.alice.slash("barrage new", players=2, in_channel=channel)
            ).reply()
            # Numbers count per server: each server's first game is #1, whichever process.
            assert "Barrage game #1" in lobby.content, lobby.content
            game = next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2]
            await (await fake.bob.click(lobby, f"brg:lb:{game}:join")).reply()
            await (await fake.alice.click(lobby, f"brg:lb:{game}:start")).reply()
            await fake.wait_for(
                lambda channel=channel: any(
                    _has_picture(m) for m in fake.channel_messages(channel)
                ),
                what=f"the first turn's announcement in server {number}",
            )

        for shard, session in sessions.items():
            # Each process got only its own server's interactions (and its guild only).
            seen = {
                int(frame["d"]["guild_id"])
                for frame in session.backlog
                if frame["t"] == "INTERACTION_CREATE"
            }
            assert seen == {guilds[shard].id}, (shard, seen)
            created = {
                int(frame["d"]["id"]) for frame in session.backlog if frame["t"] == "GUILD_CREATE"
            }
            assert guilds[shard].id in created and guilds[1 - shard].id not in created
        for channel in channels:
            turns = [m for m in fake.channel_messages(channel) if _has_picture(m)]
            assert len(turns) == 1, [m.content for m in turns]
        for process in processes:
            assert await process.stop() == 0
    # Only the process serving shard 0 registered the commands.
    assert fake.command_puts == 1
    assert all("Traceback" not in p.text for p in processes)
