"""The AnnouncementPort for Discord: turn messages, stripped buttons, reminder pings."""

from __future__ import annotations

import hashlib
import io
import logging
from typing import Any

import aiohttp
import discord

from bot.commands.mentions import NOBODY, pinging
from bot.commands.panel import play_view
from bot.commands.replies import MAX_MESSAGE, mention, say, split_message
from bot.service import Announcement, DeliveryFailed, DestinationGone, ReminderNotice
from bot.service.types import named_users

log = logging.getLogger(__name__)

MISSING_ATTACH = (
    "⚠️ I lack the **Attach Files** permission in this channel, so the board picture is "
    "missing. A moderator can allow it in the channel's settings."
)
#: Discord's error code for "Missing Permissions".
MISSING_PERMISSIONS = 50013
#: Discord's error code for "Unknown Channel": the channel or thread no longer exists. The
#: only answer taken as final; 403 Missing Access, 5xx and timeouts are tried again.
UNKNOWN_CHANNEL = 10003


def turn_parts(text: str, *, attach_note: bool = False) -> list[str]:
    """A turn message's text as whole messages, the last (the turn message itself) with room
    for the missing-permission note, so that adding it later never cuts the text."""
    parts = split_message(text, MAX_MESSAGE - len(MISSING_ATTACH) - 1)
    if attach_note:
        parts[-1] = f"{parts[-1]}\n{MISSING_ATTACH}"
    return parts


class MissingPermission(Exception):
    """The bot may not post in a game's channel; the outbox retries later."""


def nonce_of(notice: ReminderNotice) -> str | None:
    """An enforced nonce (at most 25 characters) that is the same for every try of a ping."""
    if not notice.key:
        return None
    return "brm" + hashlib.sha1(notice.key.encode()).hexdigest()[:20]


class DiscordAnnouncer:
    """Posts the service's announcements and reminders through a discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        """Keep the client (its connection is used lazily, when posting)."""
        self.client = client

    def _channel(self, channel_id: int) -> discord.abc.Messageable:
        """The channel from the cache, or a partial one (e.g. an archived thread)."""
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self.client.get_partial_messageable(channel_id)

    def _may_attach(self, channel: discord.abc.Messageable) -> bool:
        """Whether the bot may attach files there (True when unknown: Discord decides)."""
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            me = channel.guild.me
            if me is not None:
                return channel.permissions_for(me).attach_files
        return True

    async def post(self, announcement: Announcement) -> int:
        """Post a turn message; it pings only whoever must act next, silently in quiet hours."""
        channel = self._channel(announcement.channel_id)
        files = attachments(announcement)
        unattached = bool(files) and not self._may_attach(channel)
        if unattached:
            files = []
        *leading, text = turn_parts(say(announcement.lines), attach_note=unattached)
        view = play_view(announcement.game_id) if announcement.play_button else None
        kwargs: dict[str, Any] = {
            "allowed_mentions": pinging(announcement.mentions),
            "silent": announcement.silent,
            # Exactly once across a crash between this post and mark_sent: discord.py 2.7.1
            # sends `enforce_nonce: true` with every nonce (http.handle_message_parameters),
            # so Discord answers a repeated post with the same nonce by returning the first
            # message instead of posting again. Discord only remembers nonces for a few
            # minutes; the next start of this instance re-posts a crashed run's claims at
            # once (OutboxSender.recover), well inside that window. Only a crash followed by
            # minutes of downtime (or a peer waiting out the lease) can still post twice:
            # at-least-once is the guarantee, the nonce makes a repeat rare.
            "nonce": f"brg{announcement.outbox_id}"[:25],
        }
        if view is not None:
            kwargs["view"] = view
        # A text over Discord's limit goes out as whole messages, never cut: the leading parts
        # first (pinging nobody, each with its own nonce), then the turn message itself with
        # the last part (which names who acts next), its pictures and its button.
        try:
            for index, part in enumerate(leading):
                nonce = f"brg{announcement.outbox_id}p{index}"[:25]
                await channel.send(part, allowed_mentions=NOBODY, nonce=nonce)
            message = await channel.send(text, files=files, **kwargs)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL:
                raise  # not Discord's word that the channel is gone: the outbox tries again
            # Deleted with its game in it; no later try can succeed.
            raise DestinationGone(f"channel {announcement.channel_id} no longer exists") from None
        except discord.Forbidden as exc:
            if files and exc.code == MISSING_PERMISSIONS:
                # Probably Attach Files (the cache may not know): post without the picture.
                message = await self._send_or_explain(channel, f"{text}\n{MISSING_ATTACH}", kwargs)
            else:
                raise self._missing(announcement.channel_id, exc) from None
        return message.id

    async def _send_or_explain(
        self, channel: discord.abc.Messageable, text: str, kwargs: dict
    ) -> discord.Message:
        """Send text only; a refusal now means the bot may not post at all."""
        try:
            return await channel.send(text, **kwargs)  # turn_parts left room for the note
        except discord.Forbidden as exc:
            raise self._missing(getattr(channel, "id", 0), exc) from None

    def _missing(self, channel_id: int, exc: discord.Forbidden) -> MissingPermission:
        """Log clearly (not as a bug) and build the error the outbox retries on."""
        log.warning(
            "cannot post in channel %d: %s (the bot needs View Channel, Send Messages, "
            "Send Messages in Threads and Attach Files there)",
            channel_id,
            exc.text or exc,
        )
        return MissingPermission(f"missing permission in channel {channel_id}: {exc.text}")

    async def add_pictures(self, announcement: Announcement, message_id: int) -> None:
        """Give a turn message that went out without its pictures its text and pictures now
        (its buttons are left as they are; an edit pings nobody)."""
        channel = self._channel(announcement.channel_id)
        # The turn message holds the last part of a long text (`post`).
        files = attachments(announcement)
        unattached = not self._may_attach(channel)
        if unattached:
            files = []
        text = turn_parts(say(announcement.lines), attach_note=unattached)[-1]
        # Every channel a game is played in (text channel, thread, partial) has this method.
        message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]  # see above
        try:
            await message.edit(content=text, attachments=files, allowed_mentions=NOBODY)
        except discord.NotFound:
            log.info("turn message %d in channel %d is gone", message_id, announcement.channel_id)

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Remove the Play button from an earlier turn message."""
        channel = self._channel(channel_id)
        # Every channel a game is played in (text channel, thread, partial) has this method.
        message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]  # see above
        try:
            await message.edit(view=None, allowed_mentions=NOBODY)
        except discord.NotFound:
            log.info("turn message %d in channel %d is gone", message_id, channel_id)
        except discord.Forbidden as exc:
            log.warning("cannot edit message %d in channel %d: %s", message_id, channel_id, exc)

    async def remind(self, notice: ReminderNotice) -> None:
        """Ping the player in the game's channel, and by DM when they asked for it."""
        channel = self._channel(notice.channel_id)
        text = say(notice.lines)
        if notice.user_id not in named_users(notice.lines):
            text = f"{mention(notice.user_id)} {text}"
        nonce = nonce_of(notice)
        # A long reminder goes out as whole messages (the first pings), never cut.
        try:
            for index, part in enumerate(split_message(text)):
                # No nonce (a ping without a key) is discord.py's own default: none sent.
                once: dict[str, Any] = {"nonce": f"{nonce}{index or ''}"} if nonce else {}
                ping = pinging([notice.user_id]) if index == 0 else NOBODY
                await channel.send(part, allowed_mentions=ping, **once)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL:
                raise DeliveryFailed(f"Discord did not take the reminder: {exc}") from None
            # The channel or thread was deleted; nothing will ever arrive.
            raise DestinationGone(f"channel {notice.channel_id} no longer exists") from None
        except discord.Forbidden as exc:
            # Logged as a warning by _missing; a reminder is not worth an error report.
            self._missing(notice.channel_id, exc)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            raise DeliveryFailed(f"Discord did not take the reminder: {exc}") from None
        if notice.dm:
            await self._dm(notice)

    async def _dm(self, notice: ReminderNotice) -> None:
        """A DM copy of the reminder (people may close their DMs: that is fine)."""
        try:
            user = self.client.get_user(notice.user_id) or await self.client.fetch_user(
                notice.user_id
            )
            link = f"https://discord.com/channels/{notice.guild_id}/{notice.channel_id}"
            for part in split_message(f"{say(notice.lines)}\n{link}"):
                await user.send(part, allowed_mentions=NOBODY)  # the DM itself notifies
        except discord.HTTPException as exc:
            log.info("no DM reminder for user %d: %s", notice.user_id, exc)


def attachments(announcement: Announcement) -> list[discord.File]:
    """An announcement's pictures as Discord attachments, each with its alt text."""
    return [
        discord.File(io.BytesIO(i.data), i.filename, description=i.description)
        for i in announcement.images
    ]
