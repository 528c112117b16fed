"""A strict fake Discord (REST + gateway on 127.0.0.1) for end-to-end tests of discord.py bots.

Usage in a test::

    async with FakeDiscord() as fake, run_bot(fake, MyBot(guild_ready_timeout=0.05)):
        invocation = await fake.alice.slash("demo hello", name="x")
        message = await invocation.reply()
    fake.check()
"""

from __future__ import annotations

from .env import API_BASE_VAR, GATEWAY_VAR, TOKEN_VAR, apply_endpoint_overrides_from_env
from .errors import FakeDiscordError
from .model import Attachment, Callback, Channel, Guild, InteractionRecord, Message, Role
from .runner import BotProcess, run_bot, run_bot_process
from .server import FakeDiscord
from .users import FakeUser, Invocation

__all__ = [
    "API_BASE_VAR",
    "GATEWAY_VAR",
    "TOKEN_VAR",
    "Attachment",
    "BotProcess",
    "Callback",
    "Channel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeUser",
    "Guild",
    "InteractionRecord",
    "Invocation",
    "Message",
    "Role",
    "apply_endpoint_overrides_from_env",
    "run_bot",
    "run_bot_process",
]
