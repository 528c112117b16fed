"""A tiny discord.py bot that exercises every feature of the fake Discord.

Run as a process with `python -m e2e.demobot` (cwd or PYTHONPATH = tests/) and the
BARRAGE_DISCORD_* variables set.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageColor

log = logging.getLogger("bot.demo")

COLOURS = sorted(ImageColor.colormap)


def render_card(colour: str, size: int) -> bytes:
    """A plain PNG square of one colour."""
    buffer = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(buffer, format="PNG")
    return buffer.getvalue()


class CountButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<n>\d+)"
):
    """A button whose custom_id carries the click count, so it survives restarts."""

    def __init__(self, n: int) -> None:
        """Build the button for count n."""
        super().__init__(
            discord.ui.Button(
                label=f"Clicked {n}", custom_id=f"demo:count:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CountButton:
        """Rebuild from the custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the message in place (callback type 7), keeping its attachment."""
        n = self.n + 1
        await interaction.response.edit_message(
            content=f"{interaction.user.mention} clicked {n}",
            view=card_view(n),
            allowed_mentions=discord.AllowedMentions.none(),  # an edit re-parses mentions
        )


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"demo:pick:(?P<n>\d+)"):
    """A select whose choice is answered ephemerally."""

    def __init__(self, n: int) -> None:
        """Build the select."""
        options = [discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")]
        super().__init__(
            discord.ui.Select(custom_id=f"demo:pick:{n}", options=options, max_values=2)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickSelect:
        """Rebuild from the custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Say what was picked, to the picker only."""
        values = interaction.data.get("values", []) if interaction.data else []
        await interaction.response.send_message(f"picked {', '.join(values)}", ephemeral=True)


def only(user: discord.abc.Snowflake | None) -> discord.AllowedMentions:
    """Allowed mentions for one named user (or nobody): never @everyone or roles."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[user] if user else False
    )


def card_view(n: int) -> discord.ui.View:
    """A stateless view: everything it needs is in its custom_ids."""
    view = discord.ui.View(timeout=None)
    view.add_item(CountButton(n))
    view.add_item(PickSelect(n))
    return view


demo = app_commands.Group(name="demo", description="Commands of the demo bot", guild_only=True)


async def colour_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Colours containing what was typed, 25 at most."""
    found = [c for c in COLOURS if current.lower() in c]
    return [app_commands.Choice(name=c.title(), value=c) for c in found[:25]]


@demo.command(name="card", description="Reply with a PNG card and buttons")
@app_commands.autocomplete(colour=colour_autocomplete)
async def card(
    interaction: discord.Interaction,
    colour: str,
    size: app_commands.Range[int, 8, 64] = 16,
    private: bool = False,
    target: discord.Member | None = None,
) -> None:
    """The main demo: PNG, mention, view."""
    if colour not in COLOURS:
        await interaction.response.send_message(f"unknown colour {colour!r}", ephemeral=True)
        return
    content = f"{colour} card" + (f" for {target.mention}" if target else "")
    await interaction.response.send_message(
        content,
        file=discord.File(
            io.BytesIO(render_card(colour, size)), "card.png", description=f"A {colour} card"
        ),
        view=card_view(0),
        ephemeral=private,
        allowed_mentions=only(target),
    )


@demo.command(name="slow", description="Defer, then follow up")
async def slow(interaction: discord.Interaction, seconds: float = 0.05) -> None:
    """Defer (or not, when seconds is large, to show the deadline), then follow up."""
    if seconds >= 3:
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound:
            log.warning("the interaction expired, as expected")
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await asyncio.sleep(seconds)
    await interaction.followup.send(
        "done",
        file=discord.File(io.BytesIO(render_card("red", 8)), "a.png", description="A red card"),
    )
    await interaction.followup.send("second follow-up", ephemeral=False)
    assert interaction.channel is not None and hasattr(interaction.channel, "send")
    await interaction.channel.send(
        f"{interaction.user.mention} quietly", silent=True, allowed_mentions=only(interaction.user)
    )


@demo.command(name="refuse", description="Defer publicly, then refuse privately")
async def refuse(interaction: discord.Interaction) -> None:
    """A public "thinking" placeholder is removed before a private answer."""
    await interaction.response.defer(thinking=True)
    await interaction.delete_original_response()
    await interaction.followup.send("refused", ephemeral=True)


@demo.command(name="thread", description="Open a game thread")
async def open_thread(interaction: discord.Interaction, name: str) -> None:
    """Post a lobby message, open a thread on it and greet there."""
    await interaction.response.defer(ephemeral=True)
    assert isinstance(interaction.channel, discord.TextChannel)
    lobby = await interaction.channel.send(f"Game {name}")
    thread = await lobby.create_thread(name=name, auto_archive_duration=10080)
    await thread.send("Welcome to the game")
    await interaction.followup.send(f"opened {thread.mention}", ephemeral=True)


@demo.command(name="post", description="Post into a thread, even an archived one")
async def post(
    interaction: discord.Interaction, thread: app_commands.AppCommandThread, text: str
) -> None:
    """Fetch the thread and post in it; `discord.Thread` would fail once it is archived.

    discord.py drops archived threads from its cache, and its `discord.Thread` transformer
    only resolves from the cache; the raw AppCommandThread always works.
    """
    channel = await interaction.client.fetch_channel(thread.id)
    assert isinstance(channel, discord.Thread)
    await channel.send(text)
    await interaction.response.send_message("posted", ephemeral=True)


@demo.command(name="dm", description="Send yourself a DM")
async def dm(interaction: discord.Interaction) -> None:
    """DM the caller."""
    try:
        await interaction.user.send("hello by DM")
    except discord.Forbidden:
        await interaction.response.send_message("your DMs are closed", ephemeral=True)
        return
    await interaction.response.send_message("sent", ephemeral=True)


class RenameModal(discord.ui.Modal, title="Rename the game"):
    """A one-field modal."""

    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="New name", custom_id="demo:name", max_length=40
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Confirm privately."""
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


@demo.command(name="rename", description="Opens a modal")
async def rename(interaction: discord.Interaction) -> None:
    """Answer with a modal (callback type 9)."""
    await interaction.response.send_modal(RenameModal())


@demo.command(name="emojis", description="Calls a route the fake does not implement")
async def emojis(interaction: discord.Interaction) -> None:
    """Used by the unknown-route test."""
    assert interaction.guild is not None
    try:
        found = await interaction.guild.fetch_emojis()
    except discord.NotFound:
        found = []
    await interaction.response.send_message(f"{len(found)} emojis", ephemeral=True)


@demo.command(name="early", description="Follows up before acknowledging")
async def early(interaction: discord.Interaction) -> None:
    """A bug on purpose: a follow-up before the response."""
    try:
        await interaction.followup.send("too early")
    except discord.NotFound:
        log.warning("follow-up refused, as expected")
    await interaction.response.send_message("ok", ephemeral=True)


@demo.command(name="long", description="Replies with too much text")
async def long(interaction: discord.Interaction) -> None:
    """A bug on purpose: 2001 characters."""
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException:
        log.warning("refused, as expected")


@demo.command(name="boom", description="Raises")
async def boom(interaction: discord.Interaction) -> None:
    """A bug on purpose: discord.py logs it at ERROR level."""
    raise RuntimeError("boom")


@app_commands.command(name="modtools", description="Needs Manage Channels")
@app_commands.guild_only()
# Discord only honours default permissions on top-level commands, not on subcommands.
@app_commands.default_permissions(manage_channels=True)
async def modtools(interaction: discord.Interaction) -> None:
    """Visible only to members with Manage Channels."""
    await interaction.response.send_message("admin ok", ephemeral=True)


class DemoBot(commands.Bot):
    """The demo bot; it syncs globally in setup_hook."""

    def __init__(self) -> None:
        """Default intents only; a short guild_ready_timeout keeps tests fast."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
        )

    async def setup_hook(self) -> None:
        """Register the persistent items and sync the commands."""
        self.add_dynamic_items(CountButton, PickSelect)
        self.tree.add_command(demo)
        self.tree.add_command(modtools)
        await self.tree.sync()

    async def on_ready(self) -> None:
        """Say so (the subprocess test reads it)."""
        log.info("demo bot ready as %s", self.user)


def main() -> None:
    """Entry point of the demo bot process."""
    from fakediscord import TOKEN_VAR, apply_endpoint_overrides_from_env

    apply_endpoint_overrides_from_env()
    logging.basicConfig(level=logging.INFO)
    DemoBot().run(os.environ[TOKEN_VAR], log_handler=None)


if __name__ == "__main__":
    main()
