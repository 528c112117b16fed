"""Snowflakes, permission bits and small JSON builders shared by the fake Discord."""

from __future__ import annotations

import datetime as dt
import itertools
import time
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (Discord "Permissions" topic); only those the fake reasons about.
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

# What @everyone may do in a freshly made server, roughly Discord's defaults.
EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
)

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})

_counter = itertools.count()
_last_snowflake = 0


def snowflake() -> int:
    """Return a new, strictly increasing snowflake whose timestamp is now."""
    global _last_snowflake
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    value = max((ms << 22) | (next(_counter) & 0xFFF), _last_snowflake + 1)
    _last_snowflake = value
    return value


def shard_of(guild_id: int, shard_count: int) -> int:
    """The gateway shard that receives a guild's events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A new snowflake, as `snowflake()`, that as a guild id falls on the given shard.

    Its timestamp is moved up to `shard_count - 1` ms ahead, since the shard follows it.
    """
    global _last_snowflake
    value = snowflake()
    ms = (value >> 22) + (shard_id - (value >> 22)) % shard_count
    if ms != value >> 22:
        value = ms << 22
        _last_snowflake = value
    return value


def iso_now() -> str:
    """Return the current UTC time as Discord's ISO 8601 timestamp."""
    return dt.datetime.now(dt.UTC).isoformat()


def user_payload(
    user_id: int, name: str, *, bot: bool = False, global_name: str | None = None
) -> dict[str, Any]:
    """Build a Discord user object."""
    return {
        "id": str(user_id),
        "username": name,
        "global_name": global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


def member_payload(
    user: dict[str, Any], role_ids: list[int], *, permissions: int | None = None
) -> dict[str, Any]:
    """Build a guild member object; `permissions` is only set inside interactions."""
    data: dict[str, Any] = {
        "user": user,
        "roles": [str(r) for r in role_ids],
        "nick": None,
        "avatar": None,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(
    role_id: int, name: str, permissions: int, position: int, *, mentionable: bool = False
) -> dict[str, Any]:
    """Build a role object."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": mentionable,
        "flags": 0,
    }


def application_payload(app_id: int, bot_user: dict[str, Any], owner: dict[str, Any]) -> dict:
    """Build what GET /oauth2/applications/@me returns (the fields AppInfo requires)."""
    return {
        "id": str(app_id),
        "name": bot_user["username"],
        "description": "fake application",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": owner,
        "verify_key": "0" * 64,
        "flags": 0,
        "bot": bot_user,
    }


def png_size(data: bytes) -> tuple[int, int] | None:
    """Read width and height from a PNG header, or None when it is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
