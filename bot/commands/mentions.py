"""Allowed mentions for everything the bot sends or edits: nobody unless named.

Discord keeps no allowed mentions with a message: every send and every edit of a message's
text is parsed again, and without explicit allowed mentions an edit would highlight everyone
it names (a lobby's players, a turn message's player) once more. So each send and edit says
whom it may ping; the client's default (`NOBODY`) covers anything that forgets. Never
@everyone, @here or roles.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

#: Ping nobody: the default for replies, edits, lobbies and posted views.
NOBODY = discord.AllowedMentions.none()


def pinging(user_ids: Iterable[int | None]) -> discord.AllowedMentions:
    """Allowed mentions for exactly these users (none when empty)."""
    users = [discord.Object(u) for u in dict.fromkeys(u for u in user_ids if u)]
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=users or False
    )
