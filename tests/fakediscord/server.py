"""The fake Discord: REST routes, the gateway websocket and the strictness checks."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import secrets
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import yarl
from aiohttp import web

from . import limits
from .errors import FakeDiscordError
from .mentions import mention_problems
from .model import (
    Attachment,
    Callback,
    Channel,
    Guild,
    InteractionRecord,
    Message,
    Role,
    everyone_role,
)
from .nonces import MAX_NONCE, WINDOW_S, NonceLedger
from .payloads import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EMBED_LINKS,
    EVERYONE_DEFAULT,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    MENTION_EVERYONE,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    application_payload,
    iso_now,
    member_payload,
    png_size,
    shard_of,
    snowflake,
    snowflake_on_shard,
)
from .users import FakeUser

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
ACK_DEADLINE = 3.0
MAX_FILE_SIZE = 10 * 1024 * 1024
MAX_FILES = 10
MAX_REQUEST_SIZE = 25 * 1024 * 1024
# Intents a bot may not use unless enabled in the developer portal: members, presences, content.
PRIVILEGED_INTENTS = {"members": 1 << 1, "presences": 1 << 8, "message_content": 1 << 15}
BOT_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | MANAGE_THREADS
)
# Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


#: How long an interaction's token serves follow-ups and edits (Discord: 15 minutes).
TOKEN_LIFETIME_S = 15 * 60


class ApiError(Exception):
    """A Discord-style JSON error reply; `fail` also fails the test."""

    def __init__(self, status: int, code: int, message: str, *, fail: str | None = None) -> None:
        """Describe the reply."""
        super().__init__(message)
        self.status, self.code, self.message, self.fail = status, code, message, fail


@dataclass
class Call:
    """One REST request the bot made, as recorded by the fake."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: dict[int, tuple[str, bytes]]
    status: int = 0


@dataclass
class GatewaySession:
    """A gateway session; it survives dropped connections so the bot can RESUME it."""

    id: str
    identify: dict[str, Any]
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False
    resumes: int = 0
    heartbeats: int = 0


Handler = Callable[..., Awaitable[Any]]


def bot_token(user_id: int) -> str:
    """A token of Discord's shape for the bot user `user_id` (random, so never a real one)."""
    head = base64.urlsafe_b64encode(str(user_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(5)}.{secrets.token_urlsafe(28)}"


class FakeDiscord:
    """A strict fake Discord on 127.0.0.1 that the real discord.py client talks to."""

    def __init__(
        self,
        *,
        token: str | None = None,
        ack_deadline: float = ACK_DEADLINE,
        heartbeat_interval_ms: int = 41250,
        privileged_intents: frozenset[str] = frozenset(),
        error_loggers: tuple[str, ...] = ("discord", "bot"),
        clock: Callable[[], float] | None = None,
        strict_mentions: bool = True,
        require_alt_text: bool = True,
    ) -> None:
        """Build the default world: one guild, two text channels, five members and the bot.

        `require_alt_text` fails the test on a picture (PNG or GIF) the bot uploads without a
        description (its alt text): the project's rule, stricter than Discord. Either way a
        description over 1,024 characters is refused, as Discord refuses it.

        `clock` (seconds) is the fake's time for nonces; it defaults to the event loop's.
        `strict_mentions` fails the test on a send or edit whose mentions are left to
        Discord's defaults or allowed too broadly (see mentions.py); the problems are
        recorded in `mention_problems` either way. The bot's token is shaped like Discord's
        (its id in base64, a time part, a random part): the bot refuses anything else.
        """
        self.ack_deadline = ack_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        self.error_loggers = error_loggers
        self.port = 0
        self.app_id = snowflake()
        self.token = token or bot_token(self.app_id)
        self.bot = FakeUser(self, self.app_id, "Barrage Bot", bot=True)
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_puts = 0
        self.calls: list[Call] = []
        self.unhandled: list[str] = []
        self.failures: list[str] = []
        self.expected_failures: list[str] = []
        #: Waiting helpers raise a recorded failure at once (a test stops at its first
        #: problem). A bench that counts problems turns this off and collects them with
        #: `take_failures`: one late acknowledgement must not fail every later wait.
        self.fail_fast = True
        self.interactions: list[InteractionRecord] = []
        self.clock = clock
        self.nonces = NonceLedger(self.now, WINDOW_S)
        self.strict_mentions = strict_mentions
        self.require_alt_text = require_alt_text
        self.mention_problems: list[str] = []
        self.sessions: list[GatewaySession] = []
        self.gateway_queries: list[dict[str, str]] = []
        self._by_token: dict[str, InteractionRecord] = {}
        #: Interactions whose expired token the bot used (each refused with 401).
        self.expired_tokens: list[InteractionRecord] = []
        self._expected: list[re.Pattern[str]] = []
        self._waiters: set[asyncio.Future[None]] = set()
        self._timers: list[asyncio.TimerHandle] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._saved_endpoints: tuple[str, yarl.URL] | None = None
        self._log_bridge = _ErrorLogBridge(self)
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._add_routes()
        self.owner = self.add_user("owner")
        self.guild = self.add_guild("Barrage Club", owner=self.owner)
        self.general = self.add_channel("general")
        self.games = self.add_channel("games")
        self.moderator_role = self.add_role("Moderator", MANAGE_CHANNELS | MANAGE_THREADS)
        self.alice = self.add_user("alice")
        self.bob = self.add_user("bob")
        self.carol = self.add_user("carol", roles=[self.moderator_role])
        self.dave = self.add_user("dave")

    # ----------------------------------------------------------------- world building

    def add_guild(
        self, name: str, *, owner: FakeUser, shard: tuple[int, int] | None = None
    ) -> Guild:
        """Create a guild the bot is in, with @everyone and the bot's own role; with
        `shard` = (shard id, shard count) its id falls on that gateway shard."""
        guild_id = snowflake() if shard is None else snowflake_on_shard(*shard)
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild.id] = everyone_role(guild.id, EVERYONE_DEFAULT)
        bot_role = Role(id=snowflake(), name=self.bot.name, permissions=BOT_PERMISSIONS, position=1)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = [bot_role.id]
        guild.members[owner.id] = []
        self.guilds[guild.id] = guild
        return guild

    def add_role(
        self, name: str, permissions: int, *, guild: Guild | None = None, mentionable: bool = False
    ) -> Role:
        """Create a role in a guild (the default guild unless given)."""
        guild = guild or self.guild
        role = Role(snowflake(), name, permissions, len(guild.roles), mentionable=mentionable)
        guild.roles[role.id] = role
        return role

    def add_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        """Create a text channel."""
        guild = guild or self.guild
        channel = Channel(
            id=snowflake(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_user(
        self, name: str, *, roles: list[Role] | None = None, guild: Guild | None = None
    ) -> FakeUser:
        """Create a user who is a member of the guild (the default guild unless given)."""
        user = FakeUser(self, snowflake(), name)
        self.users[user.id] = user
        target = guild or getattr(self, "guild", None)
        if target is not None:
            target.members[user.id] = [r.id for r in roles or []]
        return user

    def user(self, name: str) -> FakeUser:
        """The user with this name; a new member of the default guild if there is none."""
        for user in self.users.values():
            if user.name == name:
                return user
        return self.add_user(name)

    def channel(self, channel: Channel | int) -> Channel:
        """Resolve a channel or channel id."""
        return channel if isinstance(channel, Channel) else self.channels[channel]

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel belongs to."""
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def parent_of(self, channel: Channel) -> Channel | None:
        """A thread's parent channel."""
        return self.channels.get(channel.parent_id) if channel.parent_id else None

    def permissions(self, user: FakeUser | int, channel: Channel | int) -> int:
        """Computed permissions of a user in a channel."""
        channel = self.channel(channel)
        guild = self.guild_of(channel)
        user_id = user if isinstance(user, int) else user.id
        if guild is None:
            return SEND_MESSAGES | VIEW_CHANNEL | ATTACH_FILES | EMBED_LINKS | READ_MESSAGE_HISTORY
        return guild.channel_permissions(user_id, channel, self.parent_of(channel))

    async def set_overwrite(
        self, channel: Channel, target: FakeUser | Role, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a permission overwrite on a channel and tell the bot (CHANNEL_UPDATE)."""
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites = [o for o in channel.overwrites if int(o["id"]) != target.id]
        channel.overwrites.append(
            {"id": str(target.id), "type": kind, "allow": str(allow), "deny": str(deny)}
        )
        await self.dispatch("CHANNEL_UPDATE", channel.payload())

    async def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive a thread, as Discord does after inactivity, and tell the bot."""
        thread.archived, thread.locked = True, locked
        thread.archive_timestamp = iso_now()
        await self.dispatch("THREAD_UPDATE", thread.payload())

    def now(self) -> float:
        """The fake's time in seconds: the injected clock, else the event loop's."""
        if self.clock is not None:
            return self.clock()
        return asyncio.get_running_loop().time()

    async def delete_channel(self, channel: Channel) -> None:
        """Delete a channel (and its threads) or a thread, and tell the bot as Discord does.

        A deleted thread is one THREAD_DELETE carrying only id, guild_id, parent_id and
        type. A deleted channel is one CHANNEL_DELETE with the whole channel object; its
        threads go with it and Discord sends no THREAD_DELETE for them (the client must
        drop them itself, as discord.py does for the threads it knows).
        """
        for thread in [c for c in self.channels.values() if c.parent_id == channel.id]:
            self._forget_channel(thread)
        self._forget_channel(channel)
        data = channel.payload()
        if channel.is_thread:
            data = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
        await self.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", data)

    def _forget_channel(self, channel: Channel) -> None:
        """Remove a channel or thread: posting there is then 404 Unknown Channel."""
        self.channels.pop(channel.id, None)
        guild = self.guild_of(channel)
        if guild is not None and channel.id in guild.channel_ids:
            guild.channel_ids.remove(channel.id)

    # ----------------------------------------------------------------- reading the record

    def channel_messages(self, channel: Channel | int | None = None) -> list[Message]:
        """Messages everyone can see in a channel (the default: #general), oldest first."""
        channel = self.channel(channel or self.general)
        return [m for m in channel.messages if not m.deleted and m.visible_to is None]

    def last_message(self, channel: Channel | int | None = None) -> Message:
        """The newest public message in a channel."""
        messages = self.channel_messages(channel)
        if not messages:
            raise AssertionError("no message in the channel")
        return messages[-1]

    def threads(self) -> list[Channel]:
        """Every thread, oldest first."""
        return [c for c in self.channels.values() if c.is_thread]

    def mention_users(self) -> dict[int, dict[str, Any]]:
        """User objects by id, for message payloads."""
        return {u.id: u.payload() for u in self.users.values()}

    def message_payload(self, message: Message) -> dict[str, Any]:
        """Serialise a stored message."""
        return message.payload(self.mention_users())

    # ----------------------------------------------------------------- strictness

    def fail(self, reason: str) -> None:
        """Record a strictness failure; waiting helpers raise it at once, teardown too."""
        if any(p.search(reason) for p in self._expected):
            self.expected_failures.append(reason)
        else:
            self.failures.append(reason)
            _log.debug("fake discord failure: %s", reason)
        self._notify_threadsafe()

    def _check_mentions(self, data: dict[str, Any], where: str) -> None:
        """Record (and with strict_mentions, fail on) a body that breaks the mention policy."""
        for problem in mention_problems(data):
            text = f"{where}: {problem}: {str(data.get('content'))[:120]!r}"
            self.mention_problems.append(text)
            if self.strict_mentions:
                self.fail(f"mentions: {text}")

    def take_failures(self) -> list[str]:
        """Return and clear the recorded failures (for tests that provoke them)."""
        taken = self.failures + self.unhandled
        self.failures.clear()
        self.unhandled.clear()
        return taken

    @contextlib.asynccontextmanager
    async def expect_failures(self, *patterns: str, timeout: float = 5.0) -> AsyncIterator[None]:
        """Expect failures matching each regex (searched) inside the block; absorb them."""
        compiled = [re.compile(p) for p in patterns]
        self._expected.extend(compiled)
        start = len(self.expected_failures)
        try:
            yield
            await self.wait_for(
                lambda: all(
                    any(p.search(f) for f in self.expected_failures[start:]) for p in compiled
                ),
                timeout=timeout,
                what=f"expected failures {patterns}",
            )
        finally:
            for pattern in compiled:
                self._expected.remove(pattern)

    def check(self) -> None:
        """Raise if anything failed; called at teardown."""
        problems = [f"unknown route: {u}" for u in self.unhandled] + self.failures
        if problems:
            raise FakeDiscordError("fake Discord saw problems:\n- " + "\n- ".join(problems))

    def _raise_failures(self) -> None:
        """Raise at once when a failure is pending (unless `fail_fast` is off)."""
        if self.fail_fast and (self.failures or self.unhandled):
            self.check()

    def _notify_threadsafe(self) -> None:
        """Wake waiters, also when called from a logging call in another thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._changed()
        else:
            loop.call_soon_threadsafe(self._changed)

    def _changed(self) -> None:
        """Wake every waiter so it re-checks its condition."""
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = 5.0,
        what: str = "a condition",
        check_failures: bool = True,
    ) -> Any:
        """Wait until predicate() is truthy and return it; raise on any failure or timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if check_failures:
                self._raise_failures()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordError(f"timed out after {timeout} s waiting for {what}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            # Also poll, so predicates about the bot's own state (not the fake's) work too.
            await asyncio.wait({waiter}, timeout=min(remaining, 0.01))

    # ----------------------------------------------------------------- lifecycle

    @property
    def api_base(self) -> str:
        """What Route.BASE must be."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """What DiscordWebSocket.DEFAULT_GATEWAY must be."""
        return f"ws://127.0.0.1:{self.port}/gateway/"

    def env(self) -> dict[str, str]:
        """Environment variables pointing a bot process at this fake."""
        from .env import API_BASE_VAR, GATEWAY_VAR, TOKEN_VAR

        return {API_BASE_VAR: self.api_base, GATEWAY_VAR: self.gateway_url, TOKEN_VAR: self.token}

    async def start(self) -> None:
        """Listen on an ephemeral port of 127.0.0.1."""
        self._loop = asyncio.get_running_loop()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_get("/attachments/{aid}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Close every gateway connection and the server; deadlines stop being checked."""
        for timer in self._timers:
            timer.cancel()
        for session in self.sessions:
            if session.ws is not None and not session.ws.closed:
                await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def patch_discord_py(self) -> None:
        """Point discord.py's REST base and gateway URL at this fake (undo: restore_discord_py)."""
        self._saved_endpoints = (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        )
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def restore_discord_py(self) -> None:
        """Undo patch_discord_py."""
        if self._saved_endpoints is not None:
            base, gateway = self._saved_endpoints
            discord.http.Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
            self._saved_endpoints = None

    async def __aenter__(self) -> FakeDiscord:
        """Start, patch discord.py and capture the bot's ERROR logs."""
        await self.start()
        self.patch_discord_py()
        for name in self.error_loggers:
            logging.getLogger(name).addHandler(self._log_bridge)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        """Undo everything __aenter__ did."""
        for name in self.error_loggers:
            logging.getLogger(name).removeHandler(self._log_bridge)
        self.restore_discord_py()
        await self.stop()

    # ----------------------------------------------------------------- gateway

    def live_sessions(self) -> list[GatewaySession]:
        """Sessions that receive events (connected, or dropped but resumable)."""
        return [s for s in self.sessions if not s.ended]

    @staticmethod
    def serves(session: GatewaySession, guild_id: int | None) -> bool:
        """Whether a session receives a guild's events: an unsharded session every guild's,
        a sharded one those of its shard (events outside any guild go to shard 0)."""
        shard = session.identify.get("shard")
        if not shard:
            return True
        shard_id, count = shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))

    def connected_sessions(self) -> list[GatewaySession]:
        """The live sessions with an open connection (one per shard of a sharded bot)."""
        return [s for s in self.live_sessions() if s.ws is not None and not s.ws.closed]

    def connected(self) -> bool:
        """Whether a bot session is currently connected."""
        return any(s.ws is not None and not s.ws.closed for s in self.live_sessions())

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Wait until a bot has identified or resumed."""
        await self.wait_for(self.connected, timeout=timeout, what="a bot gateway session")

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a DISPATCH to every live session that serves the event's guild (queued for
        dropped ones); return how many."""
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        sessions = [s for s in self.live_sessions() if self.serves(s, guild_id)]
        for session in sessions:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.backlog.append(frame)
            del session.backlog[:-1000]
            if session.ws is not None and not session.ws.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await session.ws.send_str(json.dumps(frame))
        return len(sessions)

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection with a resumable code; the bot should RESUME."""
        for session in self.live_sessions():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close(code=code)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """One websocket connection: HELLO, heartbeats, IDENTIFY/RESUME, op 8."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        await ws.send_str(
            json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        )
        session: GatewaySession | None = None
        close_code: int | None = None
        try:
            while True:
                msg = await ws.receive()
                if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING):
                    # The client's own code; ws.close_code may later hold its reply's code.
                    close_code = msg.data
                    break
                if msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:
                    if session is not None:
                        session.heartbeats += 1
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    session = await self._identify(ws, d)
                elif op == 6:
                    session = await self._resume(ws, d)
                elif op == 8:
                    await self._request_members(ws, session, d)
                elif op not in (3, 4):
                    self.fail(f"gateway: unexpected op {op}: {frame}")
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
                # A close with 1000/1001 ends the session; anything else may RESUME. (discord.py
                # 2.7.1 with this aiohttp actually sends 4000 even from Client.close().)
                if close_code in (1000, 1001):
                    session.ended = True
            self._notify_threadsafe()
        return ws

    async def _identify(
        self, ws: web.WebSocketResponse, d: dict[str, Any]
    ) -> GatewaySession | None:
        """Answer IDENTIFY with READY and one GUILD_CREATE per guild."""
        if d.get("token") not in (self.token, f"Bot {self.token}"):
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = int(d.get("intents", 0))
        denied = [n for n, bit in PRIVILEGED_INTENTS.items() if intents & bit]
        denied = [n for n in denied if n not in self.privileged_intents]
        if denied:
            self.fail(f"gateway: bot asked for privileged intents {denied}")
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        shard = d.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            self.fail(f"gateway: invalid shard {shard!r} in IDENTIFY")
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        # A fresh IDENTIFY means the disconnected sessions of its shard were abandoned.
        for old in self.sessions:
            if old.ws is None and old.identify.get("shard") == shard:
                old.ended = True
        session = GatewaySession(id=secrets.token_hex(16), identify=d, ws=ws)
        served = [g for g in self.guilds.values() if self.serves(session, g.id)]
        self.sessions.append(session)
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url.rstrip("/"),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in served],
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if d.get("shard"):
            ready["shard"] = d["shard"]
        await self._send_to(session, "READY", ready)
        for guild in served:
            members_intent = bool(intents & PRIVILEGED_INTENTS["members"])
            payload = self.guild_payload(guild, all_members=members_intent)
            await self._send_to(session, "GUILD_CREATE", payload)
        self._notify_threadsafe()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        """Replay missed events and send RESUMED, or invalidate an unknown session."""
        session = next((s for s in self.live_sessions() if s.id == d.get("session_id")), None)
        if session is None or d.get("token") not in (self.token, f"Bot {self.token}"):
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        session.ws = ws
        session.resumes += 1
        for frame in session.backlog:
            if frame["s"] > int(d.get("seq") or 0):
                await ws.send_str(json.dumps(frame))
        await self._send_to(session, "RESUMED", {})
        self._notify_threadsafe()
        return session

    async def _request_members(
        self, ws: web.WebSocketResponse, session: GatewaySession | None, d: dict[str, Any]
    ) -> None:
        """Answer op 8 with a single GUILD_MEMBERS_CHUNK."""
        guild = self.guilds.get(int(d.get("guild_id", 0)))
        if session is None or guild is None:
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [self.member(u, guild) for u in guild.members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await self._send_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send_to(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        """Send one DISPATCH to one session."""
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append(frame)
        if session.ws is not None:
            await session.ws.send_str(json.dumps(frame))

    def member(self, user_id: int, guild: Guild, *, channel: Channel | None = None) -> dict:
        """A member object; with a channel it carries the computed permissions."""
        perms = self.permissions(user_id, channel) if channel else None
        return member_payload(
            self.users[user_id].payload(), guild.members[user_id], permissions=perms
        )

    def guild_payload(self, guild: Guild, *, all_members: bool = True) -> dict[str, Any]:
        """GUILD_CREATE data: roles, channels, active threads and members.

        Without the members intent Discord sends only the bot's own member.
        """
        member_ids = list(guild.members) if all_members else [self.bot.id]
        channels = [self.channels[c] for c in guild.channel_ids]
        active = [c for c in self.channels.values() if c.guild_id == guild.id and c.is_thread]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(guild.members),
            "roles": [r.payload() for r in guild.roles.values()],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [t.payload() for t in active if not t.archived],
            "members": [self.member(u, guild) for u in member_ids],
            "features": [],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "afk_timeout": 300,
            "joined_at": "2024-01-01T00:00:00+00:00",
        }

    # ----------------------------------------------------------------- REST plumbing

    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        """Register a REST route; {name} segments become handler keyword arguments."""
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern)
        self._routes.append((method, re.compile(API_PREFIX + regex), handler, auth))

    def _add_routes(self) -> None:
        """Every REST route the fake implements; anything else is a recorded 404."""
        r = self._route
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway)
        r("GET", "/users/@me", self._get_me)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/{app}/commands", self._get_commands)
        r("PUT", "/applications/{app}/commands", self._put_commands)
        r("GET", "/applications/{app}/guilds/{gid}/commands", self._get_commands)
        r("PUT", "/applications/{app}/guilds/{gid}/commands", self._put_commands)
        r("POST", "/interactions/{iid}/{token}/callback", self._callback, auth=False)
        r("POST", "/webhooks/{app}/{token}", self._followup, auth=False)
        r("GET", "/webhooks/{app}/{token}/messages/{mid}", self._get_webhook_message, auth=False)
        r("PATCH", "/webhooks/{app}/{token}/messages/{mid}", self._edit_webhook_message, auth=False)
        r(
            "DELETE",
            "/webhooks/{app}/{token}/messages/{mid}",
            self._delete_webhook_message,
            auth=False,
        )
        r("GET", "/channels/{cid}", self._get_channel)
        r("PATCH", "/channels/{cid}", self._edit_channel)
        r("GET", "/channels/{cid}/messages", self._history)
        r("POST", "/channels/{cid}/messages", self._post_message)
        r("GET", "/channels/{cid}/messages/{mid}", self._get_message)
        r("PATCH", "/channels/{cid}/messages/{mid}", self._edit_message)
        r("DELETE", "/channels/{cid}/messages/{mid}", self._delete_message)
        r("POST", "/channels/{cid}/messages/{mid}/threads", self._thread_from_message)
        r("POST", "/channels/{cid}/threads", self._thread_without_message)
        r("PUT", "/channels/{cid}/thread-members/@me", self._no_content)
        r("DELETE", "/channels/{cid}/thread-members/@me", self._no_content)
        r("POST", "/users/@me/channels", self._open_dm)
        r("GET", "/users/{uid}", self._get_user)
        r("GET", "/guilds/{gid}", self._get_guild)
        r("GET", "/guilds/{gid}/channels", self._get_guild_channels)
        r("GET", "/guilds/{gid}/members/{uid}", self._get_member)

    async def _rest(self, request: web.Request) -> web.Response:
        """Route a REST request, record it, and never answer 5xx (discord.py would retry)."""
        body, files = await self._read_body(request)
        call = Call(request.method, request.path, dict(request.query), body, files)
        self.calls.append(call)
        for method, pattern, handler, auth in self._routes:
            match = pattern.fullmatch(request.path)
            if match is None or method != request.method:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return self._reply(call, 401, {"message": "401: Unauthorized", "code": 0})
            try:
                result = await handler(call, **match.groupdict())
            except ApiError as error:
                if error.fail:
                    self.fail(error.fail)
                return self._reply(
                    call, error.status, {"message": error.message, "code": error.code}
                )
            except Exception:
                self.fail(
                    f"fake crashed on {request.method} {request.path}:\n{traceback.format_exc()}"
                )
                return self._reply(call, 400, {"message": "fake crashed", "code": 0})
            finally:
                self._notify_threadsafe()
            return self._reply(call, 204 if result is None else 200, result)
        self.unhandled.append(f"{request.method} {request.path}")
        self._notify_threadsafe()
        return self._reply(call, 404, {"message": "404: Not Found", "code": 0})

    @staticmethod
    def _reply(call: Call, status: int, payload: Any) -> web.Response:
        """A JSON reply whose Content-Type is exactly application/json (discord.py checks it)."""
        call.status = status
        if status == 204:
            return web.Response(status=204)
        return web.Response(
            status=status, body=json.dumps(payload).encode(), content_type="application/json"
        )

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, dict[int, tuple[str, bytes]]]:
        """Read a JSON body or a multipart one (payload_json plus files[N])."""
        files: dict[int, tuple[str, bytes]] = {}
        if request.content_type.startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, aiohttp.BodyPartReader)
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(await part.text())
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    files[int(m.group(1))] = (part.filename or "file", bytes(await part.read()))
            return body, files
        raw = await request.read()
        return (json.loads(raw) if raw else None), files

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        """Serve an attachment's bytes so Attachment.read() works."""
        attachment = self.attachments.get(int(request.match_info["aid"]))
        if attachment is None:
            self.unhandled.append(f"GET {request.path}")
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type)

    # ----------------------------------------------------------------- login, users, guilds

    async def _get_gateway(self, call: Call) -> dict[str, Any]:
        """GET /gateway and /gateway/bot (only sharded clients ask)."""
        return {
            "url": self.gateway_url.rstrip("/"),
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, call: Call) -> dict[str, Any]:
        """The bot user."""
        return {**self.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0}

    async def _get_application(self, call: Call) -> dict[str, Any]:
        """The application (discord.py reads the application id from it)."""
        return application_payload(self.app_id, self.bot.payload(), self.owner.payload())

    async def _get_user(self, call: Call, uid: str) -> dict[str, Any]:
        """GET /users/{id}."""
        user = self.users.get(int(uid)) if uid.isdigit() else None
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return user.payload()

    def _guild(self, gid: str) -> Guild:
        """The guild or a 404."""
        guild = self.guilds.get(int(gid)) if gid.isdigit() else None
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, call: Call, gid: str) -> dict[str, Any]:
        """GET /guilds/{id}."""
        data = self.guild_payload(self._guild(gid))
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            data.pop(key)
        return data

    async def _get_guild_channels(self, call: Call, gid: str) -> list[dict[str, Any]]:
        """GET /guilds/{id}/channels."""
        guild = self._guild(gid)
        return [self.channels[c].payload() for c in guild.channel_ids]

    async def _get_member(self, call: Call, gid: str, uid: str) -> dict[str, Any]:
        """GET /guilds/{id}/members/{user}."""
        guild = self._guild(gid)
        if not uid.isdigit() or int(uid) not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return self.member(int(uid), guild)

    async def _open_dm(self, call: Call) -> dict[str, Any]:
        """POST /users/@me/channels: one DM channel per user."""
        user_id = int(call.body["recipient_id"])
        if user_id not in self.users:
            raise ApiError(404, 10013, "Unknown User")
        channel = self.dm_channel(self.users[user_id])
        data = channel.payload(self.users[user_id].payload())
        return data

    def dm_channel(self, user: FakeUser) -> Channel:
        """The bot's DM channel with a user (created on first use)."""
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient_id == user.id:
                return channel
        channel = Channel(id=snowflake(), type=DM, name="", recipient_id=user.id)
        self.channels[channel.id] = channel
        return channel

    async def _no_content(self, call: Call, cid: str) -> None:
        """Joining or leaving a thread: accepted, nothing to model."""
        self._channel(cid)

    # ----------------------------------------------------------------- commands

    def _check_app(self, app: str) -> None:
        """Command routes must use our application id."""
        if app != str(self.app_id):
            raise ApiError(404, 10002, "Unknown Application", fail=f"wrong application id {app}")

    async def _get_commands(self, call: Call, app: str, gid: str | None = None) -> list[dict]:
        """GET the synced commands."""
        self._check_app(app)
        if gid is not None:
            return self.guild_commands.get(self._guild(gid).id, [])
        return self.global_commands

    async def _put_commands(self, call: Call, app: str, gid: str | None = None) -> list[dict]:
        """Bulk-overwrite commands; ids stay stable per name as on Discord."""
        self._check_app(app)
        guild_id = self._guild(gid).id if gid is not None else None
        commands = call.body or []
        errors = _command_errors(commands)
        if errors:
            raise ApiError(
                400, 50035, "Invalid Form Body", fail="command sync: " + "; ".join(errors)
            )
        old = {
            c["name"]: c
            for c in (self.guild_commands.get(guild_id, []) if guild_id else self.global_commands)
        }
        stored = []
        for command in commands:
            previous = old.get(command["name"])
            if command.get("default_member_permissions") is not None:
                # Discord returns permission bit sets as strings.
                command = {
                    **command,
                    "default_member_permissions": str(command["default_member_permissions"]),
                }
            entry = {
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **command,
                "id": previous["id"] if previous else str(snowflake()),
                "application_id": str(self.app_id),
                "version": str(snowflake()),
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_puts += 1
        return stored

    def find_command(self, name: str, guild_id: int | None) -> dict[str, Any] | None:
        """A synced command by top-level name: guild commands first, then global ones."""
        for command in [*self.guild_commands.get(guild_id or 0, []), *self.global_commands]:
            if command["name"] == name and command.get("type", 1) == 1:
                return command
        return None

    # ----------------------------------------------------------------- interactions

    async def send_interaction(
        self,
        user: FakeUser,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        *,
        message: Message | None = None,
    ) -> InteractionRecord:
        """Dispatch INTERACTION_CREATE to the bot and start the 3-second clock."""
        if not self.live_sessions():
            raise FakeDiscordError("no bot is connected to the fake gateway")
        guild = self.guild_of(channel)
        record = InteractionRecord(
            id=snowflake(),
            token=secrets.token_urlsafe(24),
            type=kind,
            user_id=user.id,
            channel_id=channel.id,
            payload={},
            created_at=asyncio.get_running_loop().time(),
            source_message_id=message.id if message else None,
            born=self.now(),
        )
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "token": record.token,
            "version": 1,
            "locale": "en-US",
            "attachment_size_limit": MAX_FILE_SIZE,
            "app_permissions": str(self.permissions(self.bot, channel)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
            "context": 0 if guild else 1,
        }
        channel_data = channel.payload(user.payload())
        channel_data["permissions"] = str(self.permissions(user, channel))
        payload["channel"] = channel_data
        payload["channel_id"] = str(channel.id)
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = self.member(user.id, guild, channel=channel)
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = self.message_payload(message)
        record.payload = payload
        self.interactions.append(record)
        self._by_token[record.token] = record
        self._timers.append(
            asyncio.get_running_loop().call_later(
                self.ack_deadline, self._check_acknowledged, record
            )
        )
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    def _check_acknowledged(self, record: InteractionRecord) -> None:
        """Fail when the bot let the 3-second deadline pass."""
        if not record.acknowledged:
            record.late = True
            self.fail(
                f"interaction {record.id} ({_describe(record)}) was not acknowledged within "
                f"{self.ack_deadline:g} s"
            )

    def interaction(self, token: str) -> InteractionRecord:
        """The interaction a webhook token belongs to, or a failing 404; a token older than
        15 minutes on the fake's clock is refused as Discord does (401, Invalid Webhook
        Token), and counted in `expired_tokens`."""
        record = self._by_token.get(token)
        if record is None:
            raise ApiError(
                404, 10015, "Unknown Webhook", fail=f"unknown interaction token {token[:8]}…"
            )
        if self.now() - record.born > TOKEN_LIFETIME_S:
            self.expired_tokens.append(record)
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return record

    async def _callback(self, call: Call, iid: str, token: str) -> dict[str, Any]:
        """POST /interactions/{id}/{token}/callback: the acknowledgement."""
        record = self._by_token.get(token)
        if record is None or str(record.id) != iid:
            raise ApiError(
                404, 10062, "Unknown interaction", fail=f"callback for unknown interaction {iid}"
            )
        body = call.body or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        files = {name: blob for name, blob in call.files.values()}
        now = asyncio.get_running_loop().time()
        callback = Callback(type=kind, data=data, files=files, at=now, status=400)
        record.callbacks.append(callback)
        what = f"interaction {record.id} ({_describe(record)})"
        if record.acknowledged:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                fail=f"{what} acknowledged twice",
            )
        elapsed = now - record.created_at
        if elapsed > self.ack_deadline:
            callback.status = 404
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                fail=f"{what} answered after {elapsed:.2f} s (late)",
            )
        if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
            raise ApiError(
                400, 50035, "Invalid Form Body", fail=f"{what}: callback type {kind} not allowed"
            )
        errors = self._callback_errors(kind, data, call.files)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", fail=f"{what}: " + "; ".join(errors))
        callback.status = 200
        result: dict[str, Any] = {"interaction": {"id": str(record.id), "type": record.type}}
        if kind in (4, 5):
            message = self._interaction_message(record, data, call.files, loading=kind == 5)
            record.original_id = message.id
            callback.message = message
            result["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=kind == 5,
                response_message_ephemeral=message.ephemeral,
            )
            result["resource"] = {"type": kind, "message": self.message_payload(message)}
        elif kind in (6, 7):
            source = self.messages[record.source_message_id or 0]
            record.original_id = source.id
            if kind == 7:
                await self._apply_edit(source, data, call.files, default_users_only=True)
                callback.message = source
                result["interaction"]["response_message_id"] = str(source.id)
                result["resource"] = {"type": 7, "message": self.message_payload(source)}
        return result

    def _callback_errors(self, kind: int, data: dict[str, Any], files: dict) -> list[str]:
        """Limits that apply to a callback's data."""
        if kind in (4, 7):
            return limits.message_errors(data) + _file_errors(files)
        if kind == 5 and int(data.get("flags") or 0) & ~FLAG_EPHEMERAL:
            return ["a deferred response may only carry the EPHEMERAL flag"]
        if kind == 8:
            return limits.choice_errors(list(data.get("choices") or []))
        if kind == 9:
            return limits.modal_errors(data)
        return []

    def _interaction_message(
        self, record: InteractionRecord, data: dict[str, Any], files: dict, *, loading: bool
    ) -> Message:
        """Create the message a type 4 or 5 callback shows."""
        flags = int(data.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS)
        if loading:
            flags = (flags & FLAG_EPHEMERAL) | FLAG_LOADING
            data = {}
        message = self._new_message(
            record.channel_id,
            data,
            files,
            flags=flags,
            visible_to=record.user_id if flags & FLAG_EPHEMERAL else None,
            webhook=True,
            msg_type=20 if record.type == 2 else 0,
        )
        message.interaction_id = record.id
        return message

    # ----------------------------------------------------------------- webhooks (follow-ups)

    async def _followup(self, call: Call, app: str, token: str) -> dict[str, Any]:
        """POST /webhooks/{app}/{token}: a follow-up; the first after a defer fills the original."""
        self._check_app(app)
        record = self.interaction(token)
        what = f"interaction {record.id} ({_describe(record)})"
        if not record.acknowledged:
            raise ApiError(
                404, 10015, "Unknown Webhook", fail=f"{what}: follow-up before acknowledging"
            )
        data = call.body or {}
        _check_body(data, call.files, what)
        original = self.messages.get(record.original_id or 0)
        ack = record.ack
        if (
            ack is not None
            and ack.type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first follow-up after a deferred reply replaces the "thinking" message,
            # keeping the defer's visibility; as an edit, it notifies nobody.
            await self._apply_edit(original, data, call.files, default_users_only=True)
            original.flags &= ~FLAG_LOADING
            record.followups.append(original)
            return self.message_payload(original)
        flags = int(data.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS)
        message = self._new_message(
            record.channel_id,
            data,
            call.files,
            flags=flags,
            visible_to=record.user_id if flags & FLAG_EPHEMERAL else None,
            webhook=True,
        )
        message.interaction_id = record.id
        record.followups.append(message)
        return self.message_payload(message)

    def _webhook_message(self, record: InteractionRecord, mid: str) -> Message:
        """@original or a follow-up of this interaction."""
        if mid == "@original":
            if not record.acknowledged or record.original_id is None:
                raise ApiError(
                    404,
                    10008,
                    "Unknown Message",
                    fail=f"@original of unanswered interaction {record.id}",
                )
            message = self.messages[record.original_id]
        else:
            message = self.messages.get(int(mid)) if mid.isdigit() else None
            if message is None or (
                message not in record.followups and message.id != record.original_id
            ):
                raise ApiError(404, 10008, "Unknown Message")
        if message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_webhook_message(self, call: Call, app: str, token: str, mid: str) -> dict:
        """GET @original or a follow-up."""
        self._check_app(app)
        return self.message_payload(self._webhook_message(self.interaction(token), mid))

    async def _edit_webhook_message(self, call: Call, app: str, token: str, mid: str) -> dict:
        """PATCH @original or a follow-up (edits notify nobody)."""
        self._check_app(app)
        record = self.interaction(token)
        message = self._webhook_message(record, mid)
        data = call.body or {}
        _check_body(data, call.files, f"edit of interaction {record.id}")
        await self._apply_edit(message, data, call.files, default_users_only=True)
        message.flags &= ~FLAG_LOADING
        return self.message_payload(message)

    async def _delete_webhook_message(self, call: Call, app: str, token: str, mid: str) -> None:
        """DELETE @original or a follow-up."""
        self._check_app(app)
        message = self._webhook_message(self.interaction(token), mid)
        await self._delete(message)

    # ----------------------------------------------------------------- channels and messages

    def _channel(self, cid: str) -> Channel:
        """The channel or a 404."""
        channel = self.channels.get(int(cid)) if cid.isdigit() else None
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _require(self, channel: Channel, needed: int, what: str) -> None:
        """403 Missing Permissions unless the bot has every bit of `needed` in the channel."""
        have = self.permissions(self.bot, channel)
        if have & needed != needed:
            missing = [discord.Permissions(bit) for bit in _bits(needed & ~have)]
            names = [name for p in missing for name, on in p if on]
            _log.debug("bot lacks %s to %s in #%s", names, what, channel.name)
            raise ApiError(403, 50013, "Missing Permissions")

    async def _get_channel(self, call: Call, cid: str) -> dict[str, Any]:
        """GET /channels/{id}."""
        channel = self._channel(cid)
        recipient = self.users.get(channel.recipient_id or 0)
        return channel.payload(recipient.payload() if recipient else None)

    async def _edit_channel(self, call: Call, cid: str) -> dict[str, Any]:
        """PATCH /channels/{id}: rename, or archive/unarchive/lock a thread."""
        channel = self._channel(cid)
        body = call.body or {}
        if "locked" in body or (
            "archived" in body and body["archived"] and channel.owner_id != self.bot.id
        ):
            self._require(channel, MANAGE_THREADS, "lock or archive a thread")
        elif set(body) - {"archived", "auto_archive_duration"}:
            needed = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
            self._require(channel, needed, "edit a channel")
        if channel.is_thread and channel.locked and body.get("archived") is False:
            self._require(channel, MANAGE_THREADS, "unarchive a locked thread")
        if (
            "auto_archive_duration" in body
            and body["auto_archive_duration"] not in limits.AUTO_ARCHIVE_DURATIONS
        ):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                fail=f"auto_archive_duration {body['auto_archive_duration']}",
            )
        for key in ("name", "archived", "locked", "auto_archive_duration"):
            if key in body:
                setattr(channel, key, body[key])
        if "archived" in body:
            channel.archive_timestamp = iso_now()
        await self.dispatch(
            "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.payload()
        )
        return channel.payload()

    async def _history(self, call: Call, cid: str) -> list[dict[str, Any]]:
        """GET /channels/{id}/messages, newest first."""
        channel = self._channel(cid)
        self._require(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY, "read history")
        messages = [m for m in channel.messages if not m.deleted and m.visible_to is None]
        if "before" in call.query:
            messages = [m for m in messages if m.id < int(call.query["before"])]
        if "after" in call.query:
            messages = [m for m in messages if m.id > int(call.query["after"])]
        limit = int(call.query.get("limit", 50))
        return [self.message_payload(m) for m in reversed(messages)][:limit]

    async def _post_message(self, call: Call, cid: str) -> dict[str, Any]:
        """POST /channels/{id}/messages, unarchiving a thread as Discord does."""
        channel = self._channel(cid)
        data = call.body or {}
        if channel.type == DM:
            user = self.users[channel.recipient_id or 0]
            if not user.accepts_dms:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        else:
            send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
            needed = VIEW_CHANNEL | send | (ATTACH_FILES if call.files else 0)
            self._require(channel, needed, "post")
            if channel.is_thread and channel.archived:
                if channel.locked:
                    self._require(channel, MANAGE_THREADS, "post in a locked thread")
                channel.archived = False
                channel.archive_timestamp = iso_now()
                await self.dispatch("THREAD_UPDATE", channel.payload())
        _check_body(data, call.files, f"message in #{channel.name}")
        nonce = data.get("nonce")
        if nonce is not None and len(str(nonce)) > MAX_NONCE:
            raise ApiError(400, 50035, "Invalid Form Body", fail=f"nonce {nonce!r} too long")
        if nonce is not None and data.get("enforce_nonce"):
            earlier = self.nonces.earlier(self.bot.id, str(nonce))
            if earlier is not None:
                return self.message_payload(self.messages[earlier])
        flags = int(data.get("flags") or 0) & FLAG_SUPPRESS_NOTIFICATIONS
        message = self._new_message(
            channel.id,
            data,
            call.files,
            flags=flags,
            msg_type=19 if data.get("message_reference") else 0,
        )
        if nonce is not None and data.get("enforce_nonce"):
            self.nonces.record(self.bot.id, str(nonce), message.id)
        await self.dispatch("MESSAGE_CREATE", self.message_payload(message))
        return self.message_payload(message)

    def _message(self, channel: Channel, mid: str) -> Message:
        """A public message of the channel, or a 404 (ephemeral ones cannot be fetched)."""
        message = self.messages.get(int(mid)) if mid.isdigit() else None
        if (
            message is None
            or message.channel_id != channel.id
            or message.deleted
            or message.ephemeral
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, call: Call, cid: str, mid: str) -> dict[str, Any]:
        """GET /channels/{id}/messages/{id}."""
        channel = self._channel(cid)
        self._require(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY, "read a message")
        return self.message_payload(self._message(channel, mid))

    async def _edit_message(self, call: Call, cid: str, mid: str) -> dict[str, Any]:
        """PATCH /channels/{id}/messages/{id}; only the bot's own messages."""
        channel = self._channel(cid)
        message = self._message(channel, mid)
        if int(message.author["id"]) != self.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        data = call.body or {}
        _check_body(data, call.files, f"edit in #{channel.name}")
        await self._apply_edit(message, data, call.files, default_users_only=False)
        return self.message_payload(message)

    async def _delete_message(self, call: Call, cid: str, mid: str) -> None:
        """DELETE /channels/{id}/messages/{id}."""
        channel = self._channel(cid)
        message = self._message(channel, mid)
        if int(message.author["id"]) != self.bot.id:
            self._require(channel, MANAGE_MESSAGES, "delete a message")
        await self._delete(message)

    async def _delete(self, message: Message) -> None:
        """Mark a message deleted and tell the bot."""
        message.deleted = True
        if message.visible_to is None:
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            await self.dispatch("MESSAGE_DELETE", data)

    def _new_message(
        self,
        channel_id: int,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes]],
        *,
        flags: int,
        visible_to: int | None = None,
        webhook: bool = False,
        msg_type: int = 0,
    ) -> Message:
        """Store a new message from a create payload and compute who it notifies."""
        channel = self.channels[channel_id]
        self._check_mentions(data, f"message in #{channel.name or 'DM'}")
        message = Message(
            id=snowflake(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author=self.bot.payload(),
            content=data.get("content") or "",
            flags=flags,
            components=list(data.get("components") or []),
            embeds=list(data.get("embeds") or []),
            attachments=self._new_attachments(channel_id, data.get("attachments"), files),
            allowed_mentions=data.get("allowed_mentions"),
            visible_to=visible_to,
            webhook_id=self.app_id if webhook else None,
            type=msg_type,
        )
        guild = self.guild_of(channel)
        message.recompute_mentions(guild, default_users_only=webhook)
        if not message.silent and not message.ephemeral and not message.loading:
            message.notified = self._notified(message, guild)
        self.messages[message.id] = message
        channel.messages.append(message)
        self._changed()
        return message

    def _notified(self, message: Message, guild: Guild | None) -> list[int]:
        """Users who get a notification: mentioned users, role members, @everyone."""
        notified = set(message.mentions)
        if guild is not None:
            for user_id, roles in guild.members.items():
                if set(roles) & set(message.mention_roles):
                    notified.add(user_id)
            if (
                message.mention_everyone
                and self.permissions(self.bot, message.channel_id) & MENTION_EVERYONE
            ):
                notified.update(guild.members)
        notified.discard(self.bot.id)
        return sorted(notified)

    def _new_attachments(
        self,
        channel_id: int,
        entries: list[dict[str, Any]] | None,
        files: dict[int, tuple[str, bytes]],
    ) -> list[Attachment]:
        """Attachments for the uploaded files; `entries` refer to files[N] by id N."""
        if entries is None:
            entries = [{"id": n} for n in sorted(files)]
        result = []
        for entry in entries:
            index = int(entry["id"])
            if index not in files:
                continue
            filename, blob = files[index]
            described = entry.get("description")
            picture = png_size(blob) or blob[:6] in (b"GIF87a", b"GIF89a")
            if self.require_alt_text and picture and not described:
                name = entry.get("filename") or filename
                self.failures.append(f"picture {name!r} posted without alt text (a description)")
            result.append(self.store_attachment(entry.get("filename") or filename, blob, described))
        return result

    def store_attachment(
        self, filename: str, blob: bytes, description: str | None = None
    ) -> Attachment:
        """Store bytes and return an attachment served by the fake (with its alt text)."""
        aid = snowflake()
        content_type = "image/png" if png_size(blob) else "application/octet-stream"
        if blob[:6] in (b"GIF87a", b"GIF89a"):
            content_type = "image/gif"
        if filename.endswith(".json"):
            content_type = "application/json"
        url = f"http://127.0.0.1:{self.port}/attachments/{aid}/{filename}"
        attachment = Attachment(aid, filename, blob, url, content_type, description)
        self.attachments[aid] = attachment
        return attachment

    async def _apply_edit(
        self,
        message: Message,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes]],
        *,
        default_users_only: bool,
    ) -> None:
        """Apply an edit payload: only the fields present change; listed attachments are kept.

        New content is parsed for mentions again, with this request's allowed_mentions or the
        defaults (Discord keeps no allowed_mentions); an edit highlights but never notifies.
        """
        self._check_mentions(data, f"edit of message {message.id}")
        if "content" in data:
            message.content = data["content"] or ""
            message.allowed_mentions = data.get("allowed_mentions")
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        if "components" in data:
            message.components = list(data["components"] or [])
        if "attachments" in data:
            entries = data["attachments"] or []
            keep = {int(e["id"]) for e in entries if int(e["id"]) in self.attachments}
            kept = [a for a in message.attachments if a.id in keep]
            new_entries = [e for e in entries if int(e["id"]) not in self.attachments]
            message.attachments = kept + self._new_attachments(
                message.channel_id, new_entries, files
            )
        elif files:
            message.attachments += self._new_attachments(message.channel_id, None, files)
        if "content" in data:
            guild = self.guilds.get(message.guild_id or 0)
            message.recompute_mentions(guild, default_users_only=default_users_only)
        message.edits += 1
        message.edited_timestamp = iso_now()
        self._changed()
        if message.visible_to is None and not message.loading:
            await self.dispatch("MESSAGE_UPDATE", self.message_payload(message))

    # ----------------------------------------------------------------- threads

    async def _thread_from_message(self, call: Call, cid: str, mid: str) -> dict[str, Any]:
        """POST /channels/{id}/messages/{id}/threads: the thread's id is the message's id."""
        channel = self._channel(cid)
        message = self._message(channel, mid)
        if channel.type != GUILD_TEXT:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                fail="thread in a non-text channel",
            )
        if any(c.id == message.id for c in self.threads()):
            raise ApiError(400, 160004, "A thread has already been created for this message")
        self._require(channel, VIEW_CHANNEL | CREATE_PUBLIC_THREADS, "create a thread")
        return await self._create_thread(
            channel, call.body or {}, thread_id=message.id, kind=PUBLIC_THREAD
        )

    async def _thread_without_message(self, call: Call, cid: str) -> dict[str, Any]:
        """POST /channels/{id}/threads."""
        channel = self._channel(cid)
        body = call.body or {}
        kind = int(body.get("type", PRIVATE_THREAD))
        if channel.type != GUILD_TEXT or kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise ApiError(
                400, 50024, "Cannot execute action on this channel type", fail=f"thread type {kind}"
            )
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        self._require(channel, VIEW_CHANNEL | needed, "create a thread")
        return await self._create_thread(channel, body, thread_id=snowflake(), kind=kind)

    async def _create_thread(
        self, parent: Channel, body: dict[str, Any], *, thread_id: int, kind: int
    ) -> dict[str, Any]:
        """Validate, store and announce a new thread."""
        name = body.get("name") or ""
        duration = body.get("auto_archive_duration", 4320)
        if not 1 <= len(name) <= 100 or duration not in limits.AUTO_ARCHIVE_DURATIONS:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                fail=f"thread name {name!r} / auto_archive_duration {duration}",
            )
        thread = Channel(
            id=thread_id,
            type=kind,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot.id,
            auto_archive_duration=duration,
        )
        self.channels[thread.id] = thread
        payload = thread.payload()
        await self.dispatch("THREAD_CREATE", {**payload, "newly_created": True})
        return payload


class _ErrorLogBridge(logging.Handler):
    """Turns an ERROR record from the bot's loggers into an immediate fake failure."""

    def __init__(self, fake: FakeDiscord) -> None:
        """Attach to a fake."""
        super().__init__(level=logging.ERROR)
        self.fake = fake
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        """Record the formatted message with its traceback."""
        self.fake.fail(f"ERROR logged by the bot: {self.format(record)}")


def _describe(record: InteractionRecord) -> str:
    """A short human description of an interaction for failure messages."""
    data = record.payload.get("data") or {}
    if record.type in (2, 4):
        parts = [data.get("name", "?")]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            parts.append(options[0]["name"])
            options = options[0].get("options") or []
        kind = "autocomplete" if record.type == 4 else "slash"
        return f"{kind} /{' '.join(parts)}"
    kind = "modal" if record.type == 5 else "component"
    return f"{kind} {data.get('custom_id')!r}"


def _check_body(data: dict[str, Any], files: dict[int, tuple[str, bytes]], where: str) -> None:
    """Refuse (and fail the test on) a message body that breaks Discord's limits."""
    errors = limits.message_errors(data) + _file_errors(files)
    if errors:
        raise ApiError(400, 50035, "Invalid Form Body", fail=f"{where}: " + "; ".join(errors))


def _file_errors(files: dict[int, tuple[str, bytes]]) -> list[str]:
    """Uploads above the default 10 MiB limit per file, more than 10 files, or more than the
    25 MiB a request may carry."""
    errors = [
        f"{name} is {len(blob)} bytes (max {MAX_FILE_SIZE})"
        for name, blob in files.values()
        if len(blob) > MAX_FILE_SIZE
    ]
    if len(files) > MAX_FILES:
        errors.append(f"{len(files)} files (max {MAX_FILES})")
    total = sum(len(blob) for _, blob in files.values())
    if total > MAX_REQUEST_SIZE:
        errors.append(f"the files add up to {total} bytes (a request carries {MAX_REQUEST_SIZE})")
    return errors


def _bits(value: int) -> list[int]:
    """Single-bit masks set in value."""
    return [1 << i for i in range(value.bit_length()) if value >> i & 1]


def _command_errors(commands: list[dict[str, Any]]) -> list[str]:
    """Discord's registration limits for a bulk overwrite."""
    errors = []
    if len(commands) > 100:
        errors.append(f"{len(commands)} commands (max 100)")
    for command in commands:
        errors += _option_errors(command, command.get("name", "?"), top=True)
    return errors


def _option_errors(item: dict[str, Any], path: str, *, top: bool = False) -> list[str]:
    """Names, descriptions and counts of a command or option, recursively."""
    errors = []
    name = item.get("name", "")
    if not _COMMAND_NAME.fullmatch(name) or name != name.lower():
        errors.append(f"{path}: invalid name {name!r}")
    chat_input = item.get("type", 1) == 1 if top else True
    if chat_input and not 1 <= len(item.get("description", "")) <= 100:
        errors.append(f"{path}: description must be 1..100 characters")
    options = item.get("options") or []
    if len(options) > 25:
        errors.append(f"{path}: {len(options)} options (max 25)")
    if len(item.get("choices") or []) > 25:
        errors.append(f"{path}: more than 25 choices")
    for option in options:
        errors += _option_errors(option, f"{path} {option.get('name', '?')}")
    return errors
