"""Who is acting: an Actor for the service, built from a discord.py interaction."""

from __future__ import annotations

import discord

from bot.service import Actor


def can_manage(interaction: discord.Interaction) -> bool:
    """Manage Channels on the channel, or Manage Threads when the game lives in a thread."""
    permissions = interaction.permissions
    if permissions.manage_channels:
        return True
    return isinstance(interaction.channel, discord.Thread) and permissions.manage_threads


def actor_of(interaction: discord.Interaction, *, channel_id: int | None = None) -> Actor:
    """The Actor for an interaction (commands are guild-only, so there is a guild)."""
    return Actor(
        user_id=interaction.user.id,
        guild_id=interaction.guild_id or 0,
        channel_id=channel_id or interaction.channel_id or 0,
        can_manage=can_manage(interaction),
    )
