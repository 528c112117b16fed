"""What the adapters ask of the Discord client that runs them: a port below every command module.

The client (`bot.commands.client.BarrageBot`) imports the command modules to register them, so
they must not import it back: they name this protocol instead, and the client is checked
against it where it is defined.
"""

from __future__ import annotations

from typing import Protocol

import discord

from bot.service import GameService


class Bot(Protocol):
    """The client as a command sees it: the service and the lobby messages it keeps (the
    service itself tells the outbox of each announcement it commits)."""

    service: GameService
    #: Lobby message ids by game id.
    lobby_messages: dict[int, int]

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable:
        """A channel to send to or edit in, by id."""
