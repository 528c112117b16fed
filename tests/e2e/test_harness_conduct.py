"""The fake holds a bot to Discord's conduct: mentions on edits, enforced nonces, deleted
channels, and a deferred reply's fixed visibility."""

from __future__ import annotations

import discord
import pytest
from fakediscord import FakeDiscord

from .demobot import DemoBot, only


def channel_of(bot: DemoBot, fake: FakeDiscord) -> discord.TextChannel:
    """#general as the bot's client sees it."""
    channel = bot.get_channel(fake.general.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_an_edit_without_allowed_mentions_highlights_again(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """Discord keeps no allowed_mentions: an edit is parsed with the defaults, never notifies."""
    general = channel_of(bot, fake)
    sent = await general.send(f"{fake.bob.mention} joined", allowed_mentions=only(None))
    message = fake.messages[sent.id]
    assert message.mentions == [] and message.notified == []
    async with fake.expect_failures("no explicit allowed_mentions"):
        await sent.edit(content=f"{fake.bob.mention} and {fake.carol.mention} joined")
    assert message.mentions == [fake.bob.id, fake.carol.id]  # highlighted again ...
    assert message.notified == [] and fake.bob.pings() == []  # ... without a notification
    await sent.edit(content=f"{fake.bob.mention} left", allowed_mentions=only(None))
    assert message.mentions == []
    await sent.edit(view=None)  # no content: nothing is parsed again
    assert message.mentions == []
    assert fake.mention_problems and "no explicit allowed_mentions" in fake.mention_problems[0]


async def test_broad_allowed_mentions_break_the_policy(fake: FakeDiscord, bot: DemoBot) -> None:
    """Allowing @everyone, roles or every user is refused even when nobody is mentioned."""
    general = channel_of(bot, fake)
    async with fake.expect_failures(r"parses \['everyone', 'roles'\]"):
        await general.send("hello", allowed_mentions=discord.AllowedMentions(users=False))
    async with fake.expect_failures(r"parses \['users'\]"):
        await general.send(
            "hello",
            allowed_mentions=discord.AllowedMentions.none().merge(
                discord.AllowedMentions(users=True)
            ),
        )
    await general.send(
        f"{fake.bob.mention} only", allowed_mentions=only(discord.Object(fake.bob.id))
    )
    assert fake.last_message().notified == [fake.bob.id]


async def test_an_enforced_nonce_is_remembered_for_120_seconds(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """Within the window a repeat returns the first message; after it, a duplicate is posted."""
    now = [1000.0]
    fake.clock = lambda: now[0]
    general = channel_of(bot, fake)
    first = await general.send("turn 1", nonce="brg1", allowed_mentions=only(None))
    now[0] += 119.0
    again = await general.send("turn 1", nonce="brg1", allowed_mentions=only(None))
    assert again.id == first.id and len(fake.channel_messages()) == 1
    assert fake.nonces.deduplicated == 1 and fake.nonces.duplicates == []
    now[0] += 121.0  # 240 s after the first post: forgotten
    late = await general.send("turn 1", nonce="brg1", allowed_mentions=only(None))
    assert late.id != first.id and fake.nonces.duplicates == [late.id]
    with pytest.raises(discord.HTTPException):
        async with fake.expect_failures("too long"):
            await general.send("x", nonce="n" * 26, allowed_mentions=only(None))


async def test_posting_in_a_deleted_channel_is_unknown_channel(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """A deleted channel answers 404 Unknown Channel; the bot is told it is gone."""
    games = bot.get_channel(fake.games.id)
    assert isinstance(games, discord.TextChannel)
    await fake.delete_channel(fake.games)
    await fake.wait_for(lambda: bot.get_channel(fake.games.id) is None, what="CHANNEL_DELETE")
    with pytest.raises(discord.NotFound) as raised:
        await games.send("anyone?", allowed_mentions=only(None))
    assert raised.value.code == 10003


async def test_a_deferred_reply_keeps_its_visibility_until_deleted(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """After an ephemeral defer the first follow-up stays private whatever it asks; once the
    placeholder is deleted, a follow-up is a message of its own."""
    invocation = await fake.alice.slash("demo slow")
    reply = await invocation.reply()
    assert invocation.ack.type == 5 and reply.ephemeral  # "done" asked for no flag
    second = await invocation.followup(1)
    assert not second.ephemeral
    refused = await fake.bob.slash("demo refuse")
    assert refused.ack.type == 5 and not refused.ack.ephemeral
    answer = await refused.followup(0)
    assert answer.content == "refused" and answer.ephemeral and answer.visible_to == fake.bob.id
    assert refused.original is not None and refused.original.deleted
    assert all(m.content != "refused" for m in fake.channel_messages())
