"""The fake's world: guilds, roles, channels, threads, messages and interaction records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .mentions import ROLE_MENTION, USER_MENTION
from .payloads import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    DM,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_NOTIFICATIONS,
    THREAD_TYPES,
    iso_now,
    png_size,
    role_payload,
)

if TYPE_CHECKING:
    from .users import FakeUser


@dataclass
class Role:
    """A guild role; the @everyone role's id equals the guild id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    mentionable: bool = False

    def payload(self) -> dict[str, Any]:
        """Serialise for GUILD_CREATE."""
        return role_payload(
            self.id, self.name, self.permissions, self.position, mentionable=self.mentionable
        )


@dataclass
class Channel:
    """A text channel, thread or DM channel, with the messages posted in it."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 4320
    archive_timestamp: str = field(default_factory=iso_now)
    recipient_id: int | None = None
    messages: list[Message] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread."""
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        """The channel mention."""
        return f"<#{self.id}>"

    def payload(self, bot_user: dict[str, Any] | None = None) -> dict[str, Any]:
        """Serialise as Discord's channel object."""
        if self.type == DM:
            recipients = [bot_user] if bot_user else []
            return {"id": str(self.id), "type": DM, "recipients": recipients, "flags": 0}
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": self.position,
            "permission_overwrites": self.overwrites,
            "nsfw": False,
            "topic": None,
            "rate_limit_per_user": 0,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": str(self.messages[-1].id) if self.messages else None,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=len(self.messages),
                member_count=1,
                thread_metadata={
                    "archived": self.archived,
                    "locked": self.locked,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "invitable": True,
                },
            )
        return data


@dataclass
class Guild:
    """A server with roles, channels and the members' role lists."""

    id: int
    name: str
    roles: dict[int, Role] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    members: dict[int, list[int]] = field(default_factory=dict)
    owner_id: int = 0

    def base_permissions(self, user_id: int) -> int:
        """Guild-wide permissions of a member: @everyone plus their roles."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.roles[self.id].permissions
        for role_id in self.members.get(user_id, []):
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def channel_permissions(self, user_id: int, channel: Channel, parent: Channel | None) -> int:
        """Apply the channel's overwrites (a thread uses its parent's) the way Discord does."""
        perms = self.base_permissions(user_id)
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        overwrites = {int(o["id"]): o for o in (parent or channel).overwrites}
        everyone = overwrites.get(self.id)
        if everyone:
            perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
        allow = deny = 0
        for role_id in self.members.get(user_id, []):
            if role_id in overwrites:
                allow |= int(overwrites[role_id]["allow"])
                deny |= int(overwrites[role_id]["deny"])
        perms = (perms & ~deny) | allow
        own = overwrites.get(user_id)
        if own and own.get("type") == 1:
            perms = (perms & ~int(own["deny"])) | int(own["allow"])
        return perms


@dataclass
class Attachment:
    """A file stored by the fake and served back at `url`."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str = "application/octet-stream"
    #: The alt text the upload gave it (Discord's attachment description; None: none given).
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        """Serialise as Discord's attachment object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        size = png_size(self.data)
        if size:
            data["width"], data["height"] = size
        return data


@dataclass
class Message:
    """A message as the fake stores it; read by tests through these fields and helpers."""

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    flags: int = 0
    components: list[dict[str, Any]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    mentions: list[int] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    notified: list[int] = field(default_factory=list)
    visible_to: int | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        """Whether only `visible_to` can see it."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def silent(self) -> bool:
        """Whether it was sent with SUPPRESS_NOTIFICATIONS (@silent)."""
        return bool(self.flags & FLAG_SUPPRESS_NOTIFICATIONS)

    @property
    def loading(self) -> bool:
        """Whether it is still a deferred "thinking" placeholder."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def png(self) -> bytes:
        """The bytes of the first PNG attachment; raises when there is none."""
        for attachment in self.attachments:
            if png_size(attachment.data):
                return attachment.data
        raise AssertionError(f"message {self.id} has no PNG attachment")

    def attachment(self, filename: str) -> Attachment:
        """The attachment with this file name."""
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        raise KeyError(f"{filename!r} not in {[a.filename for a in self.attachments]}")

    def all_components(self) -> list[dict[str, Any]]:
        """Buttons and selects, row by row."""
        return [item for row in self.components for item in row.get("components", [])]

    @property
    def custom_ids(self) -> list[str]:
        """Every custom_id on the message, in order."""
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any]:
        """The button or select with this custom_id."""
        for item in self.all_components():
            if item.get("custom_id") == custom_id:
                return item
        raise KeyError(f"custom_id {custom_id!r} not on message; it has {self.custom_ids}")

    def visible_for(self, user_id: int) -> bool:
        """Whether this user can see the message."""
        return not self.deleted and (self.visible_to is None or self.visible_to == user_id)

    def mentioned(self, user: FakeUser | int) -> bool:
        """Whether the message mentions (highlights) this user."""
        return (user if isinstance(user, int) else user.id) in self.mentions

    def recompute_mentions(self, guild: Guild | None, *, default_users_only: bool) -> None:
        """Compute mentions from content and the request's allowed_mentions, as Discord does
        (see mentions.py: an edit without allowed_mentions is parsed with the defaults)."""
        rules = self.allowed_mentions
        if rules is None:
            # Interactions and webhooks parse only user mentions by default; bots parse all.
            rules = {"parse": ["users"] if default_users_only else ["users", "roles", "everyone"]}
        parse = set(rules.get("parse") or [])
        # allowed_mentions.users arrives as JSON ints from discord.py, roles too.
        allowed_users = {int(u) for u in rules.get("users") or []}
        allowed_roles = {int(r) for r in rules.get("roles") or []}
        users = [int(u) for u in USER_MENTION.findall(self.content)]
        roles = [int(r) for r in ROLE_MENTION.findall(self.content)]
        self.mentions = list(
            dict.fromkeys(u for u in users if "users" in parse or u in allowed_users)
        )
        known_roles = guild.roles if guild else {}
        self.mention_roles = list(
            dict.fromkeys(
                r for r in roles if r in known_roles and ("roles" in parse or r in allowed_roles)
            )
        )
        self.mention_everyone = "everyone" in parse and (
            "@everyone" in self.content or "@here" in self.content
        )

    def payload(self, mention_users: dict[int, dict[str, Any]]) -> dict[str, Any]:
        """Serialise as Discord's message object; `mention_users` maps ids to user objects."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [mention_users[u] for u in self.mentions if u in mention_users],
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "flags": self.flags,
            "pinned": False,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data


@dataclass
class Callback:
    """One interaction callback POSTed by the bot, accepted or rejected."""

    type: int
    data: dict[str, Any]
    files: dict[str, bytes]
    at: float
    status: int
    message: Message | None = None

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8)."""
        return list(self.data.get("choices") or [])

    @property
    def ephemeral(self) -> bool:
        """Whether the callback asked for an ephemeral message."""
        return bool(int(self.data.get("flags") or 0) & FLAG_EPHEMERAL)


@dataclass
class InteractionRecord:
    """Everything known about one interaction the fake sent and how the bot answered it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    payload: dict[str, Any]
    created_at: float
    source_message_id: int | None = None
    #: When its token was issued, on the fake's clock (`FakeDiscord.now`): it expires
    #: `TOKEN_LIFETIME_S` later.
    born: float = 0.0
    callbacks: list[Callback] = field(default_factory=list)
    original_id: int | None = None
    followups: list[Message] = field(default_factory=list)
    late: bool = False

    @property
    def ack(self) -> Callback | None:
        """The accepted acknowledgement, if any."""
        accepted = [c for c in self.callbacks if c.status < 300]
        return accepted[0] if accepted else None

    @property
    def acknowledged(self) -> bool:
        """Whether a callback was accepted."""
        return self.ack is not None


def everyone_role(guild_id: int, permissions: int) -> Role:
    """The @everyone role of a guild."""
    return Role(id=guild_id, name="@everyone", permissions=permissions, position=0)
