"""The lobby message: who has joined, with Join, Leave and Start buttons."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.commands import ids
from bot.commands.actor import actor_of
from bot.commands.panel import bot_of
from bot.commands.replies import reply_error, send, within_budget
from bot.service import Outcome

_LABELS = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LOBBY_TEMPLATE):
    """Join, Leave or Start: ``brg:lb:{game}:{action}``."""

    def __init__(self, game_id: int, action: str) -> None:
        """Build the button."""
        label, style = _LABELS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=ids.lobby_id(game_id, action))
        )
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> LobbyButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Do the lobby action and update the lobby message in place."""
        service = bot_of(interaction).service
        actor = actor_of(interaction)
        action = {"join": service.join, "leave": service.leave, "start": service.start}
        try:
            outcome = await within_budget(interaction, action[self.action](actor), update=True)
            await show_lobby_outcome(interaction, outcome, self.action)
        except Exception as error:
            await reply_error(interaction, error)


def lobby_view(game_id: int) -> discord.ui.View:
    """The three lobby buttons."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start"):
        view.add_item(LobbyButton(game_id, action))
    return view


async def show_lobby_outcome(
    interaction: discord.Interaction, outcome: Outcome, action: str
) -> None:
    """Edit the lobby message: the new player list, or the started game without buttons."""
    bot_of(interaction).kick_outbox()
    # After the start, the turn announcements take over; the lobby keeps no buttons.
    view = None if action == "start" else lobby_view(outcome.game_id)
    await send(interaction, outcome.text, view=view, update=True)
