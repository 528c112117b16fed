"""The lobby message: who has joined, with Join, Leave, Start, Add/Remove automa and Add/Remove
AI buttons."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.commands import ids
from bot.commands.actor import actor_of
from bot.commands.mentions import NOBODY
from bot.commands.panel import bot_of, reply_error
from bot.commands.replies import say, send, within_budget
from bot.service import GameService, Outcome
from bot.service.clock import clock_text
from bot.service.lobby import expansions_text

log = logging.getLogger(__name__)

_LABELS = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
    "bot_add": ("Add automa", discord.ButtonStyle.secondary),
    "bot_remove": ("Remove automa", discord.ButtonStyle.secondary),
    "ai_add": ("Add AI", discord.ButtonStyle.secondary),
    "ai_remove": ("Remove AI", discord.ButtonStyle.secondary),
}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LOBBY_TEMPLATE):
    """Join, Leave, Start, Add or Remove automa or AI: ``brg:lb:{game}:{action}``."""

    def __init__(self, game_id: int, action: str) -> None:
        """Build the button."""
        label, style = _LABELS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=ids.lobby_id(game_id, action))
        )
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Do the lobby action and update the lobby message in place."""
        service = bot_of(interaction).service
        actor = actor_of(interaction)
        action = {
            "join": service.lobby.join,
            "leave": service.lobby.leave,
            "start": service.lobby.start,
            "bot_add": service.lobby.add_automa,
            "bot_remove": service.lobby.remove_automa,
            "ai_add": service.lobby.add_ai,
            "ai_remove": service.lobby.remove_ai,
        }
        try:
            outcome = await within_budget(
                interaction, action[self.action](actor, expected_game=self.game_id), update=True
            )
            await show_lobby_outcome(interaction, outcome, self.action)
        except Exception as error:
            await reply_error(interaction, error)


def lobby_view(game_id: int) -> discord.ui.View:
    """The lobby buttons."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start", "ai_add", "ai_remove", "bot_add", "bot_remove"):
        view.add_item(LobbyButton(game_id, action))
    return view


async def lobby_text(service: GameService, game_id: int, news: str = "") -> str:
    """The lobby message: the game's options and everyone who has joined, in seat order."""
    meta = await service.store.get_game(game_id)
    size = int(meta.options.get("players", 4))
    setup = meta.options.get("setup", "intro")
    players = meta.player_ids or (meta.creator_id,)
    automas = await service.lobby.lobby_automas(game_id)
    ais = await service.lobby.lobby_ais(game_id)
    extras = expansions_text(meta.options.get("expansions", ()))
    hints = ", hints on" if meta.options.get("hints") else ""
    clock = clock_text(
        str(meta.options.get("clock", "none")), str(meta.options.get("timeout", "wait"))
    )
    lines = [
        f"**Barrage game #{meta.number}**: {size} players, {setup} setup{extras}{hints}{clock}."
    ]
    if news:
        lines.append(news)
    lines.append(f"Players ({len(players) + len(ais) + len(automas)}/{size}):")
    for seat, user in enumerate(players, 1):
        lines.append(f"{seat}. <@{user}>" + (" (creator)" if user == meta.creator_id else ""))
    for seat, ai_level in enumerate(ais, len(players) + 1):
        lines.append(f"{seat}. AI ({ai_level}), plays by the full rules")
    for seat, level in enumerate(automas, len(players) + len(ais) + 1):
        lines.append(f"{seat}. Automa ({level}), plays by its cards")
    lines.append(
        "Join with the button; the creator (or a moderator) adds or removes AI players and "
        "automas and starts the game."
    )
    return "\n".join(lines)  # whole: `send` splits a long one, the view on the last


def remember_lobby(interaction: discord.Interaction, game_id: int, message_id: int) -> None:
    """Note which message is the game's lobby, so a typed join or leave can edit it."""
    lobbies = bot_of(interaction).lobby_messages
    lobbies[game_id] = message_id
    while len(lobbies) > 1000:  # lobbies are short-lived; forget the oldest
        lobbies.pop(next(iter(lobbies)))


async def show_lobby_outcome(
    interaction: discord.Interaction, outcome: Outcome, action: str
) -> None:
    """Edit the lobby message: the new player list, or the started game without buttons."""
    bot = bot_of(interaction)
    if action == "start":
        # After the start, the turn announcements take over; the lobby keeps no buttons.
        bot.lobby_messages.pop(outcome.game_id, None)
        await send(interaction, say(outcome.lines), view=None, update=True)
        return
    if interaction.message is not None:
        remember_lobby(interaction, outcome.game_id, interaction.message.id)
    text = await lobby_text(bot.service, outcome.game_id, say(outcome.lines))
    await send(interaction, text, view=lobby_view(outcome.game_id), update=True)


async def refresh_lobby(interaction: discord.Interaction, outcome: Outcome) -> bool:
    """After a typed join or leave: edit the lobby message in place (False if unknown)."""
    bot = bot_of(interaction)
    message_id = bot.lobby_messages.get(outcome.game_id)
    if message_id is None or interaction.channel_id is None:
        return False
    text = await lobby_text(bot.service, outcome.game_id)
    message = bot.get_partial_messageable(interaction.channel_id).get_partial_message(message_id)
    try:
        # Without NOBODY the edit would highlight every player listed again.
        await message.edit(content=text, view=lobby_view(outcome.game_id), allowed_mentions=NOBODY)
    except discord.HTTPException as exc:  # deleted, or no longer editable: post a new one
        log.info("lobby message %d of game %d: %s", message_id, outcome.game_id, exc)
        bot.lobby_messages.pop(outcome.game_id, None)
        return False
    return True
