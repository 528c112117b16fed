"""The test-side API: fake users who run slash commands, autocomplete, click and select."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import FakeDiscordError
from .model import Attachment, Callback, Channel, InteractionRecord, Message, Role
from .payloads import user_payload

if TYPE_CHECKING:
    from .server import FakeDiscord

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
BUTTON, STRING_SELECT = 2, 3
LINK_STYLES = (5, 6)


class FakeUser:
    """A Discord user (a guild member unless made elsewhere) driven by a test."""

    def __init__(self, fake: FakeDiscord, user_id: int, name: str, *, bot: bool = False) -> None:
        """Create the user; FakeDiscord.add_user also makes them a member."""
        self.fake = fake
        self.id = user_id
        self.name = name
        self.bot = bot
        self.accepts_dms = True

    def __repr__(self) -> str:
        """Show name and id."""
        return f"<FakeUser {self.name} {self.id}>"

    @property
    def mention(self) -> str:
        """The user mention as the bot would write it."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The Discord user object."""
        return user_payload(self.id, self.name, bot=self.bot, global_name=self.name.title())

    # ----------------------------------------------------------------- acting

    async def slash(
        self, command: str, /, *, in_channel: Channel | int | None = None, **options: Any
    ) -> Invocation:
        """Run `/command sub ...` with options and wait for the acknowledgement."""
        channel = self.fake.channel(in_channel or self.fake.general)
        data = build_command_data(self.fake, self, channel, command, options, focused=None)
        record = await self.fake.send_interaction(self, channel, 2, data)
        invocation = Invocation(self.fake, record)
        await invocation.acknowledged()
        return invocation

    async def autocomplete(
        self,
        command: str,
        /,
        focused: str,
        *,
        in_channel: Channel | int | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type into option `focused` (its partial text in options) and return the choices."""
        channel = self.fake.channel(in_channel or self.fake.general)
        data = build_command_data(self.fake, self, channel, command, options, focused=focused)
        record = await self.fake.send_interaction(self, channel, 4, data)
        callback = await Invocation(self.fake, record).acknowledged()
        return callback.choices

    async def click(self, message: Message | int, custom_id: str) -> Invocation:
        """Press a button on a message this user can see; wait for the acknowledgement."""
        stored, item = self._component(message, custom_id)
        if item.get("type") != BUTTON or item.get("style") in LINK_STYLES:
            raise FakeDiscordError(f"{custom_id!r} is not a clickable button")
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self._component_interaction(stored, data)

    async def select(self, message: Message | int, custom_id: str, values: list[str]) -> Invocation:
        """Pick values in a string select; wait for the acknowledgement."""
        stored, item = self._component(message, custom_id)
        if item.get("type") != STRING_SELECT:
            raise FakeDiscordError(f"{custom_id!r} is not a string select (only those are faked)")
        allowed = [o["value"] for o in item.get("options", [])]
        low, high = item.get("min_values", 1), item.get("max_values", 1)
        if not set(values) <= set(allowed) or not low <= len(values) <= high:
            raise FakeDiscordError(
                f"values {values} not allowed by {custom_id!r}: {allowed} ({low}..{high})"
            )
        data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": list(values)}
        return await self._component_interaction(stored, data)

    async def forge(
        self,
        message: Message | int,
        custom_id: str,
        *,
        values: list[str] | None = None,
        component_type: int | None = None,
    ) -> Invocation:
        """Send a component interaction with any custom_id and values, as a modified client can.

        Discord's API does not check that a custom_id (or a select value) comes from the
        message it is sent for; its docs ask applications to validate it themselves
        (discord-api-docs #3029; the API-side check of #3207 was reverted in #3408). The
        message must still be one this user can see: Discord sends it in the interaction.
        """
        message_id = message if isinstance(message, int) else message.id
        stored = self.fake.messages.get(message_id)
        if stored is None or not stored.visible_for(self.id):
            raise FakeDiscordError(f"{self.name} cannot see message {message_id}")
        kind = component_type or (STRING_SELECT if values is not None else BUTTON)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        return await self._component_interaction(stored, data)

    async def submit_modal(self, opened: Invocation, values: dict[str, str]) -> Invocation:
        """Fill in and submit the modal the bot opened (callback type 9) with text values."""
        if opened.ack.type != 9 or opened.record.user_id != self.id:
            raise FakeDiscordError(f"interaction {opened.id} did not open a modal for {self.name}")
        modal = opened.ack.data
        inputs = {i["custom_id"]: i for i in _text_inputs(modal.get("components") or [])}
        unknown = set(values) - set(inputs)
        if unknown:
            raise FakeDiscordError(f"modal has no text inputs {sorted(unknown)}: {sorted(inputs)}")
        for custom_id, item in inputs.items():
            text = values.get(custom_id, "")
            if item.get("required", True) and not text:
                raise FakeDiscordError(f"modal input {custom_id!r} is required")
            if text and not item.get("min_length", 0) <= len(text) <= item.get("max_length", 4000):
                raise FakeDiscordError(
                    f"modal input {custom_id!r}: length {len(text)} out of range"
                )
        components = [_submitted(c, values) for c in modal.get("components") or []]
        data = {"custom_id": modal["custom_id"], "components": components}
        channel = self.fake.channels[opened.record.channel_id]
        source = self.fake.messages.get(opened.record.source_message_id or 0)
        record = await self.fake.send_interaction(self, channel, 5, data, message=source)
        invocation = Invocation(self.fake, record, source_edits=source.edits if source else 0)
        await invocation.acknowledged()
        return invocation

    def _component(self, message: Message | int, custom_id: str) -> tuple[Message, dict[str, Any]]:
        """The current state of the message and the enabled component on it."""
        message_id = message if isinstance(message, int) else message.id
        stored = self.fake.messages.get(message_id)
        if stored is None or not stored.visible_for(self.id):
            raise FakeDiscordError(f"{self.name} cannot see message {message_id}")
        try:
            item = stored.component(custom_id)
        except KeyError as error:
            raise FakeDiscordError(str(error)) from None
        if item.get("disabled"):
            raise FakeDiscordError(f"{custom_id!r} is disabled")
        return stored, item

    async def _component_interaction(self, message: Message, data: dict[str, Any]) -> Invocation:
        """Send a component interaction and wait for the acknowledgement."""
        channel = self.fake.channels[message.channel_id]
        record = await self.fake.send_interaction(self, channel, 3, data, message=message)
        invocation = Invocation(self.fake, record, source_edits=message.edits)
        await invocation.acknowledged()
        return invocation

    # ----------------------------------------------------------------- seeing

    def ephemerals(self, channel: Channel | int | None = None) -> list[Message]:
        """Ephemeral messages shown to this user (in one channel, or anywhere), oldest first."""
        wanted = self.fake.channel(channel).id if channel else None
        return [
            m
            for m in sorted(self.fake.messages.values(), key=lambda m: m.id)
            if m.visible_to == self.id and not m.deleted and wanted in (None, m.channel_id)
        ]

    def visible_messages(self, channel: Channel | int | None = None) -> list[Message]:
        """Everything this user sees in a channel: public messages plus their ephemerals."""
        channel = self.fake.channel(channel or self.fake.general)
        return [m for m in channel.messages if m.visible_for(self.id)]

    def dms(self) -> list[Message]:
        """Messages the bot sent this user by DM."""
        return [m for m in self.fake.dm_channel(self).messages if not m.deleted]

    def pings(self) -> list[Message]:
        """Messages that notified this user (mentioned, not silent, not an edit)."""
        return [
            m
            for m in sorted(self.fake.messages.values(), key=lambda m: m.id)
            if self.id in m.notified
        ]


class Invocation:
    """One interaction a fake user started, with helpers to await the bot's answer."""

    def __init__(
        self, fake: FakeDiscord, record: InteractionRecord, *, source_edits: int = 0
    ) -> None:
        """Wrap the fake's record."""
        self.fake = fake
        self.record = record
        self._source_edits = source_edits

    @property
    def id(self) -> int:
        """The interaction id."""
        return self.record.id

    @property
    def ack(self) -> Callback:
        """The accepted callback (raises if there is none yet)."""
        if self.record.ack is None:
            raise FakeDiscordError(f"interaction {self.id} is not acknowledged")
        return self.record.ack

    @property
    def followups(self) -> list[Message]:
        """Follow-up messages (the first after a defer is the original message itself)."""
        return list(self.record.followups)

    @property
    def original(self) -> Message | None:
        """The message @original refers to, if any."""
        return self.fake.messages.get(self.record.original_id or 0)

    async def acknowledged(self, timeout: float = 5.0) -> Callback:
        """Wait for the callback; the fake fails it after 3 s."""
        await self.fake.wait_for(
            lambda: self.record.acknowledged, timeout=timeout, what=f"ack of interaction {self.id}"
        )
        return self.ack

    async def reply(self, timeout: float = 5.0) -> Message:
        """The message the user ends up seeing: the reply, the filled-in defer, or the edit."""
        callback = await self.acknowledged(timeout)
        if callback.type == 4 or callback.type == 7:
            assert callback.message is not None
            return callback.message
        if callback.type == 5:
            return await self.fake.wait_for(
                self._deferred_answer,
                timeout=timeout,
                what=f"the deferred reply of interaction {self.id}",
            )
        if callback.type == 6:
            source = self.fake.messages[self.record.source_message_id or 0]
            return await self.fake.wait_for(
                lambda: (
                    (source if source.edits > self._source_edits else None)
                    or (self.record.followups[-1] if self.record.followups else None)
                ),
                timeout=timeout,
                what=f"the edit after deferring interaction {self.id}",
            )
        raise FakeDiscordError(f"callback type {callback.type} has no message")

    def _deferred_answer(self) -> Message | None:
        """The filled-in placeholder; or, if the bot deleted it, its first follow-up."""
        original = self.original
        if original is None:
            return None
        if original.deleted:
            return self.record.followups[0] if self.record.followups else None
        return None if original.loading else original

    async def followup(self, index: int = 0, timeout: float = 5.0) -> Message:
        """Wait for the index-th follow-up message."""
        return await self.fake.wait_for(
            lambda: len(self.record.followups) > index and self.record.followups[index],
            timeout=timeout,
            what=f"follow-up {index} of interaction {self.id}",
        )


def _text_inputs(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Text inputs of a modal, inside action rows (type 1) or labels (type 18)."""
    found = []
    for item in components:
        if item.get("type") == 1:
            found += _text_inputs(item.get("components") or [])
        elif item.get("type") == 18:
            found += _text_inputs([item["component"]])
        elif item.get("type") == 4:
            found.append(item)
    return found


def _submitted(item: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """The modal-submit shape of one modal component, keeping its nesting."""
    if item.get("type") == 1:
        return {"type": 1, "components": [_submitted(c, values) for c in item["components"]]}
    if item.get("type") == 18:
        return {"type": 18, "component": _submitted(item["component"], values)}
    return {
        "type": item["type"],
        "custom_id": item.get("custom_id"),
        "value": values.get(item.get("custom_id", ""), ""),
    }


def build_command_data(
    fake: FakeDiscord,
    user: FakeUser,
    channel: Channel,
    command: str,
    options: dict[str, Any],
    *,
    focused: str | None,
) -> dict[str, Any]:
    """Build INTERACTION_CREATE `data` from the SYNCED schema; anything unsynced raises."""
    names = command.split()
    guild = fake.guild_of(channel)
    schema = fake.find_command(names[0], guild.id if guild else None)
    if schema is None:
        raise FakeDiscordError(f"/{names[0]} is not a synced command for this channel")
    _check_visible(fake, user, channel, schema)
    data: dict[str, Any] = {"id": schema["id"], "name": schema["name"], "type": 1}
    if schema.get("guild_id"):
        data["guild_id"] = schema["guild_id"]
    level, holder = schema, data
    for name in names[1:]:
        sub = next(
            (o for o in level.get("options") or [] if o["name"] == name and o["type"] in (1, 2)),
            None,
        )
        if sub is None:
            raise FakeDiscordError(f"/{command}: no synced subcommand {name!r}")
        node: dict[str, Any] = {"name": name, "type": sub["type"], "options": []}
        holder.setdefault("options", []).append(node)
        level, holder = sub, node
    params = {o["name"]: o for o in level.get("options") or []}
    if any(o["type"] in (1, 2) for o in params.values()):
        raise FakeDiscordError(f"/{command} needs a subcommand: {sorted(params)}")
    unknown = set(options) - set(params)
    if unknown:
        raise FakeDiscordError(
            f"/{command}: unknown options {sorted(unknown)}; synced: {sorted(params)}"
        )
    if focused is not None:
        if focused not in params or not params[focused].get("autocomplete"):
            raise FakeDiscordError(f"/{command}: option {focused!r} has no autocomplete")
        options.setdefault(focused, "")
    resolved: dict[str, dict[str, Any]] = {}
    values = []
    for name, param in params.items():
        if name not in options:
            if param.get("required") and focused is None:
                raise FakeDiscordError(f"/{command}: required option {name!r} missing")
            continue
        entry: dict[str, Any] = {"name": name, "type": param["type"]}
        if name == focused:
            entry.update(value=str(options[name]), focused=True)
        else:
            entry["value"] = _convert(fake, user, channel, command, param, options[name], resolved)
        values.append(entry)
    holder["options"] = values
    if resolved:
        data["resolved"] = resolved
    return data


def _check_visible(
    fake: FakeDiscord, user: FakeUser, channel: Channel, schema: dict[str, Any]
) -> None:
    """Discord hides commands the member may not use (default permissions, contexts)."""
    guild = fake.guild_of(channel)
    contexts = schema.get("contexts")
    if guild is not None:
        needed = schema.get("default_member_permissions")
        if needed is not None and fake.permissions(user, channel) & int(needed) != int(needed):
            raise FakeDiscordError(f"{user.name} may not use /{schema['name']} (permissions)")
        if contexts is not None and 0 not in contexts:
            raise FakeDiscordError(f"/{schema['name']} is not available in servers")
    elif (contexts is not None and 1 not in contexts) or schema.get("dm_permission") is False:
        raise FakeDiscordError(f"/{schema['name']} is not available in DMs")


def _convert(
    fake: FakeDiscord,
    user: FakeUser,
    channel: Channel,
    command: str,
    param: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
) -> Any:
    """Check a Python value against the option's type and limits; return its JSON value."""
    kind, name = param["type"], param["name"]

    def bad(why: str) -> FakeDiscordError:
        return FakeDiscordError(f"/{command} {name}={value!r}: {why}")

    if kind == STRING:
        if not isinstance(value, str):
            raise bad("not a string")
        if not param.get("min_length", 0) <= len(value) <= param.get("max_length", 6000):
            raise bad("length out of range")
    elif kind in (INTEGER, NUMBER):
        ok = int if kind == INTEGER else (int, float)
        if isinstance(value, bool) or not isinstance(value, ok):
            raise bad("wrong number type")
        low, high = param.get("min_value"), param.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise bad(f"out of range {low}..{high}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise bad("not a boolean")
    elif (
        kind in (USER, MENTIONABLE)
        and isinstance(value, FakeUser | int)
        and not isinstance(value, Role)
    ):
        target = value if isinstance(value, FakeUser) else fake.users[value]
        guild = fake.guild_of(channel)
        resolved.setdefault("users", {})[str(target.id)] = target.payload()
        if guild is not None and target.id in guild.members:
            member = fake.member(target.id, guild, channel=channel)
            member.pop("user")
            resolved.setdefault("members", {})[str(target.id)] = member
        return str(target.id)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    elif kind == CHANNEL:
        target = fake.channel(value)
        types = param.get("channel_types")
        if types and target.type not in types:
            raise bad(f"channel type {target.type} not in {types}")
        data = target.payload()
        data["permissions"] = str(fake.permissions(user, target))
        resolved.setdefault("channels", {})[str(target.id)] = data
        return str(target.id)
    elif kind == ATTACHMENT:
        if isinstance(value, Attachment):
            attachment = value
        elif isinstance(value, tuple) and len(value) == 2:
            attachment = fake.store_attachment(value[0], value[1])
        else:
            raise bad("pass (filename, bytes)")
        resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        return str(attachment.id)
    else:
        raise bad(f"unsupported option type {kind}")
    choices = param.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise bad(f"not one of the choices {[c['value'] for c in choices]}")
    return value
