"""The Discord bot: the command tree, persistent components, the outbox and reminders."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.commands import records
from bot.commands.announce import DiscordAnnouncer
from bot.commands.group import barrage
from bot.commands.lobby import LobbyButton
from bot.commands.mentions import NOBODY
from bot.commands.panel import (
    OptionButton,
    OptionSelect,
    PageButton,
    PlayButton,
    PreviewButton,
    RestartButton,
    reply_error,
)
from bot.commands.ports import Bot
from bot.commands.replies import send
from bot.commands.sync import SyncState, sync_commands
from bot.commands.viewing import PostButton
from bot.service import GameService, OutboxSender
from bot.service.faults import DATABASE_DOWN
from bot.service.outbox import process_owner
from bot.service.records import CHANNEL_DELETED, THREAD_DELETED
from bot.service.reminders import ReminderRunner
from bot.service.timekeeping import ClockRunner
from bot.store import Clock

log = logging.getLogger(__name__)

DYNAMIC_ITEMS = (
    OptionButton,
    OptionSelect,
    PageButton,
    RestartButton,
    PreviewButton,
    PlayButton,
    LobbyButton,
    PostButton,
    *records.DYNAMIC_ITEMS,
)


#: The answer to a click whose component is not on the clicked message.
NOT_ON_MESSAGE = (
    "🧩 That button or menu is not on this message (any more); nothing was done. "
    "Use the buttons the message shows now, or `/barrage play`."
)


def on_its_message(interaction: discord.Interaction) -> bool:
    """Whether the clicked component (custom_id and type) is one the message carries.

    Discord does not check this (its docs ask applications to), and discord.py silently
    ignores such a click, which the user would see as "This interaction failed".
    """
    data: Mapping[str, Any] = interaction.data or {}
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    message = interaction.message
    if message is None:
        return True  # nothing to compare with; the item's own checks still apply
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        stack.extend(getattr(component, "children", ()))
        if getattr(component, "custom_id", None) == custom_id and component.type.value == kind:
            return True
    return False


def intents() -> discord.Intents:
    """The default intents, without any privileged one (members, presences, content)."""
    chosen = discord.Intents.default()
    chosen.members = False
    chosen.presences = False
    chosen.message_content = False
    return chosen


def default_instance(application_id: int | None, options: dict[str, Any]) -> str:
    """The deployment slot of this process: the application and the shards it serves.

    One process runs per application and set of gateway shards, so a start of the same slot
    knows that claims held by an earlier run of it were left by a process that died. (A
    host name would not do: a container re-created at a restart gets a new one.)
    """
    shards = options.get("shard_ids") or (
        [options["shard_id"]] if options.get("shard_id") is not None else None
    )
    served = ",".join(map(str, sorted(shards))) if shards else "all"
    return f"app {application_id or 'unknown'} shards {served}"


class BarrageTree(app_commands.CommandTree["BarrageBot"]):
    """The command tree, with one error handler for every slash command."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Refusals become ephemeral replies; anything else is logged as a bug."""
        await reply_error(interaction, error)


class BarrageBot(discord.Client):
    """Barrage in Discord: slash commands and buttons over the game service."""

    def __init__(
        self,
        service: GameService,
        *,
        clock: Clock,
        names: records.DiscordNames | None = None,
        sync_policy: str = "on-change",
        test_guild_id: int | None = None,
        sync_state: Path | None = None,
        outbox_interval_s: float | None = None,
        reminder_interval_s: float = 60.0,
        claim_instance: str | None = None,
        **options: Any,
    ) -> None:
        """Build the client; nothing connects until `start`.

        `outbox_interval_s` is the outbox's poll (default: by the store; a store shared by
        several processes wakes them all at each commit, so they poll rarely).

        `claim_instance` names this deployment slot for the outbox's claims (default: the
        application and the shards it serves, known once logged in); a restart of the same
        slot posts at once what its crashed predecessor had claimed.
        """
        options.setdefault("intents", intents())
        # The bot never joins a voice channel: without these discord.py would warn at every
        # start that PyNaCl and davey (voice libraries) are missing, which reads as an error.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # A safety net: every send and edit names whom it pings (bot/commands/mentions.py).
        options.setdefault("allowed_mentions", NOBODY)
        super().__init__(**options)
        self.service = service
        self.clock = clock
        self.tree = BarrageTree(self)
        self.tree.add_command(barrage)
        # The pictures name the players as this server calls them: the service was built
        # with `names` (`build_service`), which this client serves.
        if names is not None:
            names.serve(self)
        self.announcer = DiscordAnnouncer(self)
        self.claim_instance = claim_instance
        self._shard_options = {k: options.get(k) for k in ("shard_id", "shard_ids")}
        # The service rings its doorbell after each commit that announces something: the
        # sender delivers at once instead of at the next poll.
        self.outbox = OutboxSender(
            service.store,
            self.announcer,
            clock,
            service=service,
            owner=process_owner(),
            doorbell=service.publisher,
        )
        self.reminders = ReminderRunner(service, self.announcer, clock)
        self.turn_clock = ClockRunner(service, clock, instance="starting")
        self.sync_policy = sync_policy
        self.test_guild_id = test_guild_id
        self.sync_state = SyncState(sync_state) if sync_state else None
        self.outbox_interval_s = outbox_interval_s
        self.reminder_interval_s = reminder_interval_s
        #: Lobby message ids by game id (in memory: after a restart a typed join or leave
        #: posts a fresh lobby message instead of editing the old one).
        self.lobby_messages: dict[int, int] = {}
        #: True until an interaction has been served: until then every interaction is
        #: acknowledged before any store or renderer work (replies.within_budget).
        self.cold = True
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def setup_hook(self) -> None:
        """Register the persistent components, sync the commands, start the background work."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await sync_commands(
            self.tree,
            policy=self.sync_policy,
            guild_id=self.test_guild_id,
            state=self.sync_state,
        )
        instance = self.claim_instance or default_instance(self.application_id, self._shard_options)
        self.outbox.owner = process_owner(instance)  # the application id is known by now
        self.turn_clock.instance = self.outbox.owner.instance  # one heartbeat per slot
        self._stop.clear()
        self._tasks = [
            asyncio.create_task(
                self.outbox.run(self._stop, interval_s=self.outbox_interval_s), name="outbox"
            ),
            asyncio.create_task(
                self.reminders.run(self._stop, interval_s=self.reminder_interval_s),
                name="reminders",
            ),
            asyncio.create_task(
                self.turn_clock.run(self._stop, interval_s=self.reminder_interval_s),
                name="turn clock",
            ),
            asyncio.create_task(self._backfill_results(), name="results backfill"),
            # AI steps left pending by a stop or by a process whose shards this one took
            # over are thought about again and landed (exactly once: bot/service/thinking.py).
            asyncio.create_task(
                self.service.timekeeping.run_computers(self._stop), name="AI seats"
            ),
        ]

    async def _backfill_results(self) -> None:
        """Give results to games that finished before results were kept (once, at start-up,
        in the background: statistics count them as soon as each is done)."""
        try:
            await self.service.records.backfill_results(stop=self._stop)
        except DATABASE_DOWN:
            log.warning("the results backfill stopped: the database cannot be read now")
        except Exception:
            log.exception("the results backfill failed")

    async def close(self) -> None:
        """Stop the background work (letting a delivery finish), then disconnect."""
        self._stop.set()
        await (
            self.service.computers.stop_computers()
        )  # an AI step not landed is thought about again
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                try:
                    await asyncio.wait_for(task, 10)
                except TimeoutError:
                    log.warning("background task %s did not stop in time", task.get_name())
        self._tasks = []
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Refuse a click on a component its message does not carry (forged or outdated)."""
        if interaction.type is discord.InteractionType.component and not on_its_message(
            interaction
        ):
            await send(interaction, NOT_ON_MESSAGE)

    async def on_ready(self) -> None:
        """Log where the bot is."""
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted (CHANNEL_DELETE): its game, if any, ends.

        discord.py then reports each of the channel's threads it knows as deleted too
        (Discord itself sends nothing for them); a game in a thread it does not know ends
        at the first post there (Unknown Channel).
        """
        await self._destination_gone(channel.id, CHANNEL_DELETED)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (THREAD_DELETE, cached or not): its game, if any, ends."""
        await self._destination_gone(payload.thread_id, THREAD_DELETED)

    async def _destination_gone(self, channel_id: int, reason: str) -> None:
        """Tell the service; it decides whether a game ends."""
        try:
            await self.service.moderation.destination_gone(channel_id, reason)
        except DATABASE_DOWN:
            log.warning(
                "channel %d is gone (%s) but its game cannot be ended now: the database is "
                "down; it ends at the next post there",
                channel_id,
                reason,
            )
        except Exception:
            log.exception("ending the game of deleted channel %d", channel_id)


#: The commands see the client through `ports.Bot`: mypy checks here that it is one.
_IS_A_BOT: type[Bot] = BarrageBot


class ShardedBarrageBot(BarrageBot, discord.AutoShardedClient):
    """The bot serving some of the gateway shards (`shard_ids` of `shard_count`).

    Each process of a sharded bot serves its own shards, all on one PostgreSQL database:
    interactions arrive on the shard of their server, while announcements and reminders
    are posted by whichever process claims them (posting needs no gateway connection).
    """
