"""The fake Discord drives the real discord.py client: replies, views, threads, strictness."""

from __future__ import annotations

import asyncio
import io
import sys
import time
from pathlib import Path

import discord
import pytest
import yarl
from fakediscord import (
    API_BASE_VAR,
    GATEWAY_VAR,
    BotProcess,
    FakeDiscord,
    FakeDiscordError,
    apply_endpoint_overrides_from_env,
    run_bot,
    run_bot_process,
)
from fakediscord.payloads import ATTACH_FILES, MANAGE_CHANNELS
from PIL import Image

from .demobot import DemoBot

TESTS_DIR = Path(__file__).resolve().parents[1]


async def test_login_sync_and_gateway(fake: FakeDiscord, bot: DemoBot) -> None:
    """The bot logs in, syncs /demo globally and sees the guild with its members and roles."""
    assert bot.user is not None and bot.user.id == fake.bot.id
    assert bot.application_id == fake.app_id
    assert [c["name"] for c in fake.global_commands] == ["demo", "modtools"]
    assert fake.global_commands[1]["default_member_permissions"] == str(MANAGE_CHANNELS)
    subcommands = {o["name"] for o in fake.global_commands[0]["options"]}
    assert {"card", "slow", "thread", "post", "dm"} <= subcommands
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and guild.get_channel(fake.general.id) is not None
    # Without the members intent only the bot's own member is cached, as on Discord.
    assert [m.id for m in guild.members] == [fake.bot.id]
    carol, dave = await guild.fetch_member(fake.carol.id), await guild.fetch_member(fake.dave.id)
    assert carol.guild_permissions.manage_channels and not dave.guild_permissions.manage_channels
    assert fake.gateway_queries[0]["v"] == "10"
    assert not any(c.status >= 400 for c in fake.calls)


async def test_slash_reply_with_png_mention_and_view(fake: FakeDiscord, bot: DemoBot) -> None:
    """A public reply is recorded with its PNG, mentions and components."""
    invocation = await fake.alice.slash("demo card", colour="teal", size=24, target=fake.bob)
    assert invocation.ack.type == 4
    message = await invocation.reply()
    assert message.content == f"teal card for {fake.bob.mention}"
    assert not message.ephemeral and message in fake.channel_messages()
    image = Image.open(io.BytesIO(message.png))
    assert image.format == "PNG" and image.size == (24, 24)
    assert message.mentions == [fake.bob.id] and fake.bob.pings() == [message]
    assert message.custom_ids == ["demo:count:0", "demo:pick:0"]
    assert message.allowed_mentions is not None
    assert message.allowed_mentions["users"] == [fake.bob.id]
    # The attachment URL is served by the fake, so discord.py can read it back.
    fetched = await bot.get_channel(fake.general.id).fetch_message(message.id)  # type: ignore[union-attr]
    assert await fetched.attachments[0].read() == message.png


async def test_autocomplete_returns_choices(fake: FakeDiscord, bot: DemoBot) -> None:
    """Autocomplete answers with at most 25 choices built from what was typed."""
    choices = await fake.alice.autocomplete("demo card", focused="colour", colour="tom")
    assert choices == [{"name": "Tomato", "value": "tomato"}]
    assert len(await fake.alice.autocomplete("demo card", focused="colour")) == 25


async def test_click_edits_the_ephemeral_message_in_place(fake: FakeDiscord, bot: DemoBot) -> None:
    """A button on an ephemeral reply is answered with UPDATE_MESSAGE (type 7), same message."""
    message = await (await fake.alice.slash("demo card", colour="red", private=True)).reply()
    assert message.ephemeral and fake.alice.ephemerals() == [message]
    assert message not in fake.channel_messages() and fake.bob.ephemerals() == []
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await fake.bob.click(message, "demo:count:0")
    click = await fake.alice.click(message, "demo:count:0")
    assert click.ack.type == 7
    edited = await click.reply()
    assert edited.id == message.id and edited.content == f"{fake.alice.mention} clicked 1"
    assert edited.custom_ids[0] == "demo:count:1" and edited.png == message.png
    again = await (await fake.alice.click(edited, "demo:count:1")).reply()
    assert again.content.endswith("clicked 2")


async def test_select_answers_ephemerally(fake: FakeDiscord, bot: DemoBot) -> None:
    """Picking values in a select reaches the DynamicItem and gets an ephemeral reply."""
    message = await (await fake.bob.slash("demo card", colour="blue")).reply()
    reply = await (await fake.carol.select(message, "demo:pick:0", ["green", "blue"])).reply()
    assert reply.content == "picked green, blue" and reply.visible_to == fake.carol.id
    with pytest.raises(FakeDiscordError, match="not allowed"):
        await fake.carol.select(message, "demo:pick:0", ["purple"])


async def test_modal_submit(fake: FakeDiscord, bot: DemoBot) -> None:
    """A command opening a modal (type 9), then the user submitting it (interaction type 5)."""
    opened = await fake.dave.slash("demo rename")
    assert opened.ack.type == 9 and opened.ack.data["title"] == "Rename the game"
    with pytest.raises(FakeDiscordError, match="length 41"):
        await fake.dave.submit_modal(opened, {"demo:name": "x" * 41})
    submitted = await fake.dave.submit_modal(opened, {"demo:name": "Dam"})
    assert (await submitted.reply()).content == "renamed to Dam"


async def test_two_users_click_at_once(fake: FakeDiscord, bot: DemoBot) -> None:
    """Two clicks on the same public message at the same moment are both acknowledged."""
    message = await (await fake.alice.slash("demo card", colour="gold")).reply()
    first, second = await asyncio.gather(
        fake.alice.click(message, "demo:count:0"), fake.bob.click(message, "demo:count:0")
    )
    assert first.ack.type == second.ack.type == 7
    assert message.edits == 2


async def test_defer_then_follow_ups(fake: FakeDiscord, bot: DemoBot) -> None:
    """The first follow-up fills the ephemeral "thinking" message; later ones are new."""
    invocation = await fake.alice.slash("demo slow")
    assert invocation.ack.type == 5 and invocation.ack.ephemeral
    reply = await invocation.reply()
    assert reply.content == "done" and reply.ephemeral and not reply.loading
    assert Image.open(io.BytesIO(reply.png)).size == (8, 8)
    second = await invocation.followup(1)
    assert second.content == "second follow-up" and not second.ephemeral
    notice = await fake.wait_for(
        lambda: fake.channel_messages()[-1].webhook_id is None and fake.last_message()
    )
    assert notice.mentions == [fake.alice.id] and notice.silent and fake.alice.pings() == []


async def test_thread_post_unarchives(fake: FakeDiscord, bot: DemoBot) -> None:
    """The bot opens a thread with the longest auto-archive; its post revives it once archived."""
    opened = await (await fake.alice.slash("demo thread", name="Game 1")).reply()
    [thread] = fake.threads()
    assert opened.content == f"opened {thread.mention}" and opened.ephemeral
    assert thread.auto_archive_duration == 10080 and thread.parent_id == fake.general.id
    assert [m.content for m in fake.channel_messages(thread)] == ["Welcome to the game"]
    await fake.archive_thread(thread)
    await fake.bob.slash("demo post", thread=thread, text="your turn")
    assert not thread.archived
    assert fake.last_message(thread).content == "your turn"


async def test_permissions_commands_and_dms(fake: FakeDiscord, bot: DemoBot) -> None:
    """default_member_permissions hides a command; DMs work unless the user closed them."""
    with pytest.raises(FakeDiscordError, match="may not use"):
        await fake.dave.slash("modtools")
    assert (await (await fake.carol.slash("modtools")).reply()).content == "admin ok"
    await fake.alice.slash("demo dm")
    assert [m.content for m in fake.alice.dms()] == ["hello by DM"]
    fake.bob.accepts_dms = False
    assert (await (await fake.bob.slash("demo dm")).reply()).content == "your DMs are closed"


async def test_missing_attach_files_is_a_403(fake: FakeDiscord, bot: DemoBot) -> None:
    """A channel overwrite denying Attach Files makes the fake refuse uploads with 403."""
    await fake.set_overwrite(fake.general, fake.bot, deny=ATTACH_FILES)
    channel = bot.get_channel(fake.general.id)
    assert isinstance(channel, discord.TextChannel)
    # Gateway events reach the bot asynchronously; wait until it has seen the overwrite.
    await fake.wait_for(lambda: not channel.permissions_for(channel.guild.me).attach_files)
    with pytest.raises(discord.Forbidden):
        await channel.send(file=discord.File(io.BytesIO(b"x"), "x.txt"))


async def test_persistent_view_survives_a_restart(fake: FakeDiscord) -> None:
    """Buttons posted by one client keep working for a fresh client on the same fake."""
    async with run_bot(fake, DemoBot()):
        message = await (await fake.alice.slash("demo card", colour="navy")).reply()
    await fake.wait_for(lambda: not fake.connected(), what="the first bot to disconnect")
    async with run_bot(fake, DemoBot()):
        edited = await (await fake.alice.click(message, "demo:count:0")).reply()
    assert edited.content.endswith("clicked 1")
    assert [s.ended for s in fake.sessions] == [True, False]
    assert fake.command_puts == 2 and len(fake.global_commands) == 2


async def test_gateway_drop_resumes() -> None:
    """After the fake drops the socket with 4000 the bot RESUMEs the same session."""
    async with FakeDiscord(heartbeat_interval_ms=50) as fake, run_bot(fake, DemoBot()):
        await asyncio.sleep(0.2)
        [session] = fake.sessions
        assert session.heartbeats >= 2
        await fake.drop_gateway(4000)
        await fake.wait_for(lambda: session.resumes == 1 and fake.connected())
        assert len(fake.sessions) == 1
        assert await (await fake.carol.slash("modtools", in_channel=fake.games)).reply()
    fake.check()


async def test_bot_process_output_is_drained_past_a_line_longer_than_64_kib() -> None:
    """A long line must not stop the draining: the bot's next write would block for good."""
    script = "import sys; print('x' * 200_000); [print('line', i) for i in range(20_000)]"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    bot = BotProcess(process)
    assert await asyncio.wait_for(process.wait(), 60) == 0
    await bot.stop()
    assert bot.output[0] == "x" * 200_000
    assert bot.output[-1] == "line 19999" and len(bot.output) == 20_001


async def test_a_bench_counts_failures_without_failing_later_waits(fake: FakeDiscord) -> None:
    """With fail_fast off, a recorded problem is collected once and later waits go on."""
    fake.fail_fast = False
    fake.fail("interaction 1 was not acknowledged within 30 s")
    assert await fake.wait_for(lambda: True, what="anything")
    assert fake.take_failures() == ["interaction 1 was not acknowledged within 30 s"]
    fake.fail_fast = True
    fake.fail("a second problem")
    with pytest.raises(FakeDiscordError, match="a second problem"):
        await fake.wait_for(lambda: True)
    fake.take_failures()


# ----------------------------------------------------------------------- strictness


async def test_unsynced_command_or_option_raises(fake: FakeDiscord, bot: DemoBot) -> None:
    """Only synced commands and options can be invoked."""
    with pytest.raises(FakeDiscordError, match="not a synced command"):
        await fake.alice.slash("barrage new", players=3)
    with pytest.raises(FakeDiscordError, match="no synced subcommand"):
        await fake.alice.slash("demo nope")
    with pytest.raises(FakeDiscordError, match="unknown options"):
        await fake.alice.slash("demo card", colour="red", players=3)
    with pytest.raises(FakeDiscordError, match="out of range"):
        await fake.alice.slash("demo card", colour="red", size=65)
    with pytest.raises(FakeDiscordError, match="required option"):
        await fake.alice.slash("demo card")


async def test_double_acknowledgement_fails(fake: FakeDiscord) -> None:
    """Two clients answering one interaction: the fake refuses the second and fails the test."""
    async with run_bot(fake, DemoBot()), run_bot(fake, DemoBot()):
        with pytest.raises(FakeDiscordError, match="acknowledged twice"):
            await fake.carol.slash("modtools", in_channel=fake.games)
            await fake.wait_for(lambda: False, timeout=2, what="the second acknowledgement")
        # The second client's HTTPException is then logged at ERROR by discord.py.
        await fake.wait_for(lambda: len(fake.failures) == 2, check_failures=False)
        record = fake.interactions[-1]
        assert [c.status for c in record.callbacks] == [200, 400]
        assert "ERROR logged by the bot" in fake.take_failures()[1]


async def test_unknown_route_fails_at_once(fake: FakeDiscord, bot: DemoBot) -> None:
    """A route the fake lacks is a 404 to the bot and an immediate failure for the test."""
    with pytest.raises(FakeDiscordError, match=r"unknown route: GET /api/v10/guilds/\d+/emojis"):
        await fake.alice.slash("demo emojis")
    # Let the bot finish answering before the fake shuts down.
    await fake.wait_for(lambda: fake.interactions[-1].acknowledged, check_failures=False)
    assert fake.take_failures() == [f"GET /api/v10/guilds/{fake.guild.id}/emojis"]


async def test_late_reply_fails(fake: FakeDiscord, bot: DemoBot) -> None:
    """No acknowledgement within 3 s fails the wait at 3 s; the late callback is refused."""
    started = time.monotonic()
    with pytest.raises(FakeDiscordError, match="not acknowledged within 3 s"):
        await fake.alice.slash("demo slow", seconds=3.2)
    assert 2.9 < time.monotonic() - started < 3.2
    record = fake.interactions[-1]
    fake.take_failures()
    async with fake.expect_failures(r"answered after 3\.\d+ s"):
        pass
    assert record.callbacks[0].status == 404 and not record.acknowledged


async def test_follow_up_before_ack_and_too_long_content_fail(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """A follow-up before the response, and content over 2000 characters, both fail."""
    async with fake.expect_failures(r"follow-up before acknowledging"):
        await fake.alice.slash("demo early")
    with pytest.raises(FakeDiscordError, match="content is 2001 characters"):
        await fake.alice.slash("demo long")
    fake.take_failures()


async def test_error_log_fails_at_once(fake: FakeDiscord, bot: DemoBot) -> None:
    """A command raising is logged by discord.py at ERROR: the wait fails well before 3 s."""
    started = time.monotonic()
    with pytest.raises(FakeDiscordError, match=r"ERROR logged by the bot.*boom"):
        await fake.alice.slash("demo boom")
    assert time.monotonic() - started < 1
    fake.take_failures()


async def test_bot_as_separate_process(fake: FakeDiscord) -> None:
    """The demo bot runs as its own process, pointed at the fake by environment variables."""
    extra = {"PYTHONPATH": str(TESTS_DIR)}
    async with run_bot_process(fake, ["-m", "e2e.demobot"], extra_env=extra, cwd=TESTS_DIR) as bot:
        assert fake.sessions[0].identify["token"] == fake.token
        message = await (await fake.alice.slash("demo card", colour="olive")).reply(timeout=10)
        assert message.content == "olive card" and message.png
        await fake.wait_for(lambda: "demo bot ready as Barrage Bot" in bot.text)


def test_apply_endpoint_overrides_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The env override sets Route.BASE and DEFAULT_GATEWAY, and does nothing when unset."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    assert not apply_endpoint_overrides_from_env({})
    env = {API_BASE_VAR: "http://127.0.0.1:9/api/v10", GATEWAY_VAR: "ws://127.0.0.1:9/gateway/"}
    assert apply_endpoint_overrides_from_env(env)
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
    assert yarl.URL("ws://127.0.0.1:9/gateway/") == gateway.DEFAULT_GATEWAY
