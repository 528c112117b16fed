"""Run the Discord bot until asked to stop: build the service, log in, connect, shut down."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.commands.client import BarrageBot, ShardedBarrageBot
from bot.commands.endpoints import apply_endpoint_overrides
from bot.commands.records import DiscordNames
from bot.config import ENV_TOKEN, Config
from bot.service import GameService, ServiceConfig
from bot.service.images import RendererPool
from bot.store import Clock, Store, system_clock

log = logging.getLogger(__name__)


def build_service(
    config: Config, store: Store, clock: Clock, names: DiscordNames | None = None
) -> GameService:
    """The game service with the configured reminders and renderer; its pictures name the
    players by `names` (served by the client made after it)."""
    service_config = ServiceConfig(
        reminder_hours=config.reminders.first_after_hours,
        repeat_hours=config.reminders.repeat_every_hours,
        reminder_cap=1 + config.reminders.max_repeats,
        image_cache_size=config.render.cache_size,
        extra={
            "ai_workers": max(1, config.ai.workers),
            "ai_workers_kind": "process" if config.ai.workers else "thread",
            "ai_decider": config.ai.decider,
        },
    )
    pool = RendererPool(
        kind="thread" if config.render.workers else "inline",
        workers=max(1, config.render.workers),
        cache_size=config.render.cache_size,
    )
    return GameService(
        store, clock=clock, renderer_pool=pool, config=service_config, people_namer=names
    )


#: Where the hash of the last command registration is kept when the database is a server's.
SERVER_SYNC_STATE = Path("barrage-commands.json")


def sync_state_path(config: Config) -> Path:
    """Where the hash of the last command registration is kept (next to an SQLite file, or
    in the working directory)."""
    if config.database.url is not None:
        return SERVER_SYNC_STATE
    database = Path(config.database.path)
    return database.with_name(database.name + ".commands.json")


def sync_policy(config: Config) -> str:
    """The command sync policy of this process: of several, only the one serving shard 0
    registers the commands (they are the same for every shard)."""
    shards = config.discord.served_shards()
    if shards is not None and 0 not in shards and config.discord.sync_commands != "never":
        log.info("slash commands are registered by the process serving shard 0")
        return "never"
    return config.discord.sync_commands


def shard_options(config: Config) -> dict[str, Any]:
    """discord.py's sharding options for the shards this process serves (none if unsharded)."""
    shards = config.discord.served_shards()
    if shards is None:
        return {}
    return {"shard_ids": list(shards), "shard_count": config.discord.shard_count}


async def run_discord(
    config: Config, store: Store, stop: asyncio.Event, *, clock: Clock = system_clock
) -> int:
    """Log in, sync the commands if needed, stay connected until `stop`; 0 on a clean stop."""
    apply_endpoint_overrides()
    names = DiscordNames()
    service = build_service(config, store, clock, names)
    options = shard_options(config)
    client = (ShardedBarrageBot if options else BarrageBot)(
        service,
        clock=clock,
        names=names,
        sync_policy=sync_policy(config),
        test_guild_id=config.discord.test_guild_id,
        sync_state=sync_state_path(config),
        **options,
    )
    if options:
        log.info("serving gateway shards %s of %s", options["shard_ids"], options["shard_count"])
    try:
        async with client:
            try:
                await client.login(config.discord.token.reveal())
            except discord.LoginFailure:
                log.error("Discord refused the bot token (from %s or discord.token)", ENV_TOKEN)
                return 1
            except (aiohttp.ClientError, OSError) as exc:
                log.error("cannot reach Discord: %s", exc)
                return 1
            connection = asyncio.create_task(client.connect(reconnect=True), name="gateway")
            stopping = asyncio.create_task(stop.wait(), name="stop")
            await asyncio.wait({connection, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            await client.close()
            await end_gateway(connection)
    finally:
        service.renderer_pool.close()
    log.info("disconnected from Discord")
    return 0


async def end_gateway(connection: asyncio.Task[None]) -> None:
    """Stop the gateway task of a closed client; re-raise a failure of its own.

    discord.py's `connect` returns once the client is closed, but only when it next
    looks: while Discord cannot be reached it sleeps between attempts to connect again,
    for up to 2**10 s (17 minutes) after many failures, and a stop would wait that long.
    So a task still running after the close is cancelled. A gateway failure (e.g.
    PrivilegedIntentsRequired) that ended it first is raised; a close is normal.
    """
    if not connection.done():
        connection.cancel()
        await asyncio.wait({connection})
    if not connection.cancelled():
        connection.result()
