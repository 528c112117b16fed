"""The buttons that look and read the same wherever they stand: page turns and Post to channel."""

from __future__ import annotations

from typing import Any

import discord


def page_button(
    custom_id: str, label: str, *, enabled: bool = True, row: int | None = None
) -> discord.ui.Button[Any]:
    """A grey button turning a paged list (the decision panel's select, the history)."""
    return discord.ui.Button(
        label=label,
        style=discord.ButtonStyle.secondary,
        custom_id=custom_id,
        disabled=not enabled,
        row=row,
    )


def post_button(custom_id: str) -> discord.ui.Button[Any]:
    """A Post to channel button (a private answer shown to everyone)."""
    return discord.ui.Button(
        label="Post to channel",
        emoji="📣",
        style=discord.ButtonStyle.secondary,
        custom_id=custom_id,
    )
