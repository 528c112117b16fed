"""Helpers for the bot's end-to-end tests: a seeded bot on a fake Discord, players who play.

Every game action a test takes goes through a fake-Discord interaction (slash commands,
autocomplete, buttons, selects). The test reads the service only to decide which option to
aim for and to check the results, never to act.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeUser, Message, run_bot

from bot.commands import ids
from bot.commands.client import BarrageBot
from bot.commands.panel import HANDED_BACK_NOTE
from bot.commands.records import DiscordNames
from bot.rules import RuleError
from bot.service import Actor, GameService, NoGameHere, PanelView, ServiceConfig
from bot.service.images import RendererPool
from bot.service.loading import copy_game, load
from bot.store import Store, open_store

HOUR_MS = 3_600_000
#: Decision kinds an introductory game can ask (single-option decisions are automatic).
INTRO_KINDS = frozenset(
    {
        "turn", "bank", "build_structure", "build_tile", "build_pay", "place_drops",
        "take_contract", "discard_contract", "fulfil_contract", "machinery_choice",
        "produce", "reward_build", "confirm",
    }
)  # fmt: skip
#: Weights that make a random player visit the rarer decisions (production, contracts).
GROUP_WEIGHTS = {"Turbine Station": 6, "Contract Office": 3, "Machinery Shop": 2}


class FakeClock:
    """Milliseconds that move only when a test says so."""

    def __init__(self, start: int = 1_767_225_600_000) -> None:  # 2026-01-01 00:00 UTC
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, *, hours: float = 0, ms: int = 0) -> None:
        """Move time forward."""
        self.now += int(hours * HOUR_MS) + ms


@contextlib.asynccontextmanager
async def barrage_bot(
    fake: FakeDiscord,
    db: Path,
    clock: FakeClock,
    *,
    wrap_store: Callable[[Store], Store] | None = None,
    service_config: ServiceConfig | None = None,
    **options: Any,
) -> AsyncIterator[BarrageBot]:
    """A BarrageBot on a fresh (or existing) database, logged in to the fake and ready.

    `wrap_store` puts a test's stand-in (e.g. a store that blocks) between service and store;
    the service's reminders are daily, twice at most, unless `service_config` says otherwise.
    """
    store = await open_store(db, clock=clock)
    names = DiscordNames()
    service = GameService(
        wrap_store(store) if wrap_store else store,
        clock=clock,
        renderer_pool=RendererPool(kind="thread", workers=2, cache_size=16),
        config=service_config or ServiceConfig(reminder_hours=24, reminder_cap=2),
        people_namer=names,
    )
    options.setdefault("sync_policy", "always")
    options.setdefault("outbox_interval_s", 0.2)
    options.setdefault("reminder_interval_s", 0.05)
    bot = BarrageBot(service, clock=clock, names=names, guild_ready_timeout=0.05, **options)
    try:
        async with run_bot(fake, bot):
            yield bot
    finally:
        service.renderer_pool.close()
        await store.close()


def actor(fake: FakeDiscord, user: FakeUser, channel: Any = None) -> Actor:
    """The service's view of a fake user in a channel (for read-only checks)."""
    ch = fake.channel(channel or fake.general)
    return Actor(user.id, fake.guild.id, ch.id)


def option_ids(message: Message) -> list[str]:
    """custom_ids of the option buttons on a panel."""
    return [c for c in message.custom_ids if re.fullmatch(ids.OPTION_TEMPLATE, c)]


def select_of(message: Message) -> str | None:
    """The custom_id of the panel's select, if it has one."""
    return next((c for c in message.custom_ids if re.fullmatch(ids.SELECT_TEMPLATE, c)), None)


def turn_messages(fake: FakeDiscord, channel: Any = None) -> list[Message]:
    """Public messages that carry a Play your turn button now."""
    return [
        m
        for m in fake.channel_messages(channel or fake.general)
        if not m.ephemeral and any(c.startswith("brg:play:") for c in m.custom_ids)
    ]


async def wait_turn_message(fake: FakeDiscord, channel: Any = None, after: int = 0) -> Message:
    """The newest turn message with an id above `after` (the outbox posts it)."""
    return await fake.wait_for(
        lambda: next((m for m in reversed(turn_messages(fake, channel)) if m.id > after), None),
        timeout=10,
        what="a turn message",
    )


async def start_game(
    fake: FakeDiscord, players: list[FakeUser], *, seed: int, channel: Any = None, **options: Any
) -> tuple[int, Message]:
    """The first player creates a game, the others join by button, the creator starts it.

    Returns the game id and the first turn message.
    """
    ch = fake.channel(channel or fake.general)
    creator = players[0]
    lobby = await (
        await creator.slash(
            "barrage new", in_channel=ch, players=len(players), seed=seed, **options
        )
    ).reply()
    game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
    for user in players[1:]:
        await (await user.click(lobby, ids.lobby_id(game_id, "join"))).reply()
    await (await creator.click(lobby, ids.lobby_id(game_id, "start"))).reply()
    return game_id, await wait_turn_message(fake, ch)


@dataclass
class Stats:
    """What a driven game went through."""

    kinds: Counter[str] = field(default_factory=Counter)
    interactions: int = 0
    paged_selects: int = 0
    page_turns: int = 0
    do_commands: int = 0
    restarts: int = 0
    buttons: int = 0
    selects: int = 0
    #: Interactions that appended to the game's log (answers, restarts, /barrage do).
    recorded: int = 0


class Driver:
    """Plays a game through the panel (buttons, paged selects) and /barrage do, seeded."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: BarrageBot,
        players: list[FakeUser],
        seed: int,
        *,
        channel: Any = None,
    ) -> None:
        self.fake, self.bot, self.players = fake, bot, players
        self.rng = random.Random(seed)
        self.channel = fake.channel(channel or fake.general)
        self.stats = Stats()

    async def panel_of(self, user: FakeUser) -> PanelView | None:
        """Read-only: the user's decision now (None once the game is finished)."""
        try:
            return await self.bot.service.views.panel(actor(self.fake, user, self.channel))
        except NoGameHere:
            return None

    async def choose(self, panel: PanelView) -> str:
        """A random option; while some decision kind has not been seen, one that leads there.

        The look-ahead tries each option on a copy of the game loaded from the store (read
        only), so that one seeded game visits every kind of decision.
        """
        options = list(panel.options)
        unseen = INTRO_KINDS - set(self.stats.kinds)
        if unseen and panel.company:
            meta = await self.bot.service.store.get_game(panel.game_id)
            game = (await load(self.bot.service.store, meta)).game
            assert game is not None
            for option in self.rng.sample(options, len(options)):
                trial = copy_game(game)
                try:
                    trial.apply(option.notation, panel.company)
                except RuleError:
                    continue
                if {d.kind for d in trial.decisions()} & unseen:
                    return option.notation
        if panel.kind == "turn":
            weights = [GROUP_WEIGHTS.get(o.group, 1) for o in options]
            return self.rng.choices(options, weights)[0].notation
        return self.rng.choice(options).notation

    async def deciding_user(self) -> tuple[FakeUser, PanelView] | None:
        """Someone who must decide now (None when the game is over)."""
        for user in self.players:
            panel = await self.panel_of(user)
            if panel is not None and panel.your_turn and panel.options:
                return user, panel
        return None

    async def open_panel(self, user: FakeUser) -> Message:
        """Press Play your turn on the newest turn message."""
        message = turn_messages(self.fake, self.channel)[-1]
        play = next(c for c in message.custom_ids if c.startswith("brg:play:"))
        invocation = await user.click(message, play)
        self.stats.interactions += 1
        reply = await invocation.reply()
        assert reply.ephemeral and reply.visible_to == user.id
        return reply

    async def answer(self, user: FakeUser, panel_message: Message, target: str) -> Message:
        """Pick `target` on the panel: a button, or the select (turning pages to find it)."""
        pages = [c for c in panel_message.custom_ids if c.startswith("brg:pg:")]
        if pages and self.rng.random() < 0.3:
            # Browse first, as people do: it exercises the page buttons.
            panel_message = await self._turn_page(user, panel_message, "Next")
        direction = "Next"
        for _ in range(12):
            for custom_id in option_ids(panel_message):
                match = re.fullmatch(ids.OPTION_TEMPLATE, custom_id)
                assert match is not None
                if ids.resolve(match["token"], [target], hashed=match["kind"] == "h"):
                    self.stats.buttons += 1
                    return await self._act(user.click(panel_message, custom_id))
            select = select_of(panel_message)
            assert select is not None, panel_message.content
            values = [o["value"] for o in panel_message.component(select)["options"]]
            hit = next((v for v in values if ids.resolve(v, [target])), None)
            if hit is not None:
                self.stats.selects += 1
                if any(c.startswith("brg:pg:") for c in panel_message.custom_ids):
                    self.stats.paged_selects += 1
                return await self._act(user.select(panel_message, select, [hit]))
            if self._page_button(panel_message, direction) is None:
                direction = "Previous" if direction == "Next" else "Next"
            panel_message = await self._turn_page(user, panel_message, direction)
        raise AssertionError(f"{target!r} not found on the panel")

    @staticmethod
    def _page_button(message: Message, label: str) -> str | None:
        """The enabled page button whose label mentions `label`."""
        return next(
            (
                c
                for c in message.custom_ids
                if c.startswith("brg:pg:")
                and not message.component(c).get("disabled")
                and label in message.component(c)["label"]
            ),
            None,
        )

    async def _turn_page(self, user: FakeUser, message: Message, label: str) -> Message:
        """Press Next or Previous (if enabled)."""
        custom_id = self._page_button(message, label)
        if custom_id is None:
            return message
        self.stats.page_turns += 1
        return await self._act(user.click(message, custom_id), records=False)

    async def _act(self, pending: Any, *, records: bool = True) -> Message:
        invocation = await pending
        self.stats.interactions += 1
        self.stats.recorded += records
        return await invocation.reply()

    async def type_moves(self, user: FakeUser, target: str) -> Message:
        """/barrage do with the value autocomplete offers for the target."""
        typed = target.split()[0][:3]
        choices = await user.autocomplete(
            "barrage do", focused="moves", in_channel=self.channel, moves=typed
        )
        assert 0 < len(choices) <= 25
        value = next((c["value"] for c in choices if c["value"] == target), target)
        invocation = await user.slash("barrage do", in_channel=self.channel, moves=value)
        self.stats.interactions += 1
        self.stats.recorded += 1
        self.stats.do_commands += 1
        return await invocation.reply()

    async def play_turn(
        self, *, typed_share: float = 0.1, restart_share: float = 0.02, one_turn: bool = False
    ) -> bool:
        """Play one player's whole turn (to its Confirm); False once the game is over.

        A commit that hands the next decision back to the same player goes on in their panel;
        with `one_turn` the call returns there all the same (a solo game has turns too).
        """
        found = await self.deciding_user()
        if found is None:
            return False
        user, panel = found
        message = await self.open_panel(user)
        restarted = False
        while True:
            self.stats.kinds[panel.kind] += 1
            if panel.can_restart and not restarted and self.rng.random() < restart_share:
                restarted = True
                self.stats.restarts += 1
                restart = next(c for c in message.custom_ids if c.startswith("brg:rs:"))
                message = await self._act(user.click(message, restart))
            else:
                target = await self.choose(panel)
                if self.rng.random() < typed_share:
                    message = await self.type_moves(user, target)
                else:
                    message = await self.answer(user, message, target)
            panel = await self.panel_of(user)
            if panel is None or not (panel.your_turn and panel.options):
                return True
            if one_turn and message.content.startswith(HANDED_BACK_NOTE):
                return True
            if not option_ids(message) and not select_of(message):
                # The panel moved to another user's decision (simultaneous income choices).
                return True


async def add_and_remove_computer(
    fake: FakeDiscord, lobby: Message, user: FakeUser, game_id: int, kind: str, listed: str
) -> None:
    """Press the lobby's Add then Remove button of a computer `kind` ("bot" for automas,
    "ai"), checking the lobby lists one more `listed` seat, then one fewer."""
    before = lobby.content.count(listed)
    await (await user.click(lobby, ids.lobby_id(game_id, f"{kind}_add"))).reply()
    await fake.wait_for(lambda: lobby.content.count(listed) == before + 1)
    seats = re.search(r"\((\d)/(\d)\)", lobby.content)
    assert seats is not None and seats[1] == seats[2]  # that filled the lobby
    await (await user.click(lobby, ids.lobby_id(game_id, f"{kind}_remove"))).reply()
    await fake.wait_for(lambda: lobby.content.count(listed) == before)
