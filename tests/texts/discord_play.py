"""Whole games through the Discord layer against the fake Discord, reading every text sent.

Every message body the bot sends or edits (channel messages, ephemeral replies and panels,
follow-ups, DMs) is recorded as the fake receives it, before any later edit; with it every
autocomplete answer. Players play through the panel (buttons, paged selects) and
`/barrage do`, look at the score, the company boards, the log and every help topic, and are
refused now and then.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeUser
from fakediscord.server import Call

from bot.commands import help as help_texts
from bot.commands import ids
from tests.commands.kit import Driver, FakeClock, barrage_bot, wait_turn_message
from tests.texts.checker import Finding, check_choices, check_message, check_text
from tests.texts.setups import Setup

#: Choices of `/barrage new` for a setup (the Discord layer's names of its options).
HOUR_MS = 3_600_000


#: What the bot sends that a person reads, by route: a message (a channel's, a DM, an edit),
#: an interaction's callback or follow-up or edit, a thread's name.
_MESSAGE_ROUTES = (
    re.compile(r"/channels/(\d+)/messages(?:/\d+)?$"),
    re.compile(r"/webhooks/\d+/[^/]+(?:/messages/[^/]+)?$"),
)
_CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback$")
_THREAD = re.compile(r"/channels/\d+(?:/messages/\d+)?/threads$")


def received_texts(fake: FakeDiscord, calls: Iterable[Call], where: str) -> list[Finding]:
    """Every text in every request the fake received (each message, DM, edit, callback,
    follow-up, autocomplete answer, modal, thread name), checked: nothing the bot sends is
    left out because of how it sends it."""
    found: list[Finding] = []
    for call in calls:
        body = call.body
        if call.method not in ("POST", "PATCH") or not isinstance(body, dict):
            continue
        path = call.path.removeprefix("/api/v10")
        if _CALLBACK.search(path):
            data = body.get("data") or {}
            if body.get("type") == 8:
                found += check_choices(data.get("choices") or [], f"{where} autocomplete")
            elif body.get("type") == 9:
                found += check_text(str(data.get("title") or ""), f"{where} modal title")
                found += check_message(data, f"{where} modal")
            else:
                found += check_message(data, f"{where} callback")
        elif _THREAD.search(path):
            found += check_text(str(body.get("name") or ""), f"{where} thread name")
        elif any(route.search(path) for route in _MESSAGE_ROUTES):
            found += check_message(body, f"{where} {_kind_of(fake, path)}")
    return found


def _kind_of(fake: FakeDiscord, path: str) -> str:
    """Where a message went: a DM, a channel, an interaction's webhook."""
    match = _MESSAGE_ROUTES[0].search(path)
    if match is None:
        return "follow-up"
    channel = fake.channels.get(int(match.group(1)))
    return "DM" if channel is not None and channel.recipient_id else "message"


def attachments_of(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The alt texts of every attachment the fake holds, as message bodies."""
    found = []
    for message in fake.messages.values():
        described = [
            {"description": getattr(a, "description", None) or ""} for a in message.attachments
        ]
        found.append({"attachments": described})
    return found


def new_options(setup: Setup) -> dict[str, Any]:
    """`/barrage new`'s options for a setup."""
    options: dict[str, Any] = {"setup": setup.setup}
    if setup.expansions:
        options["expansions"] = ",".join(setup.expansions)
    if setup.computers:
        options["automa"] = setup.computers
        options["automa_level"] = setup.level
    options.update(setup.extra)
    return options


async def open_game(fake: FakeDiscord, people: list[FakeUser], setup: Setup, seed: int) -> None:
    """The first person opens the game (with its automas), the others join, it starts."""
    creator = people[0]
    lobby = await (
        await creator.slash("barrage new", players=setup.players, seed=seed, **new_options(setup))
    ).reply()
    game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
    for user in people[1:]:
        await (await user.click(lobby, ids.lobby_id(game_id, "join"))).reply()
    await (await creator.click(lobby, ids.lobby_id(game_id, "start"))).reply()
    await wait_turn_message(fake)


async def look(user: FakeUser, fake: FakeDiscord) -> None:
    """What anyone may look at, typed."""
    for command in ("barrage score", "barrage company", "barrage log", "barrage games"):
        await (await user.slash(command)).reply()
    await (await user.slash("barrage undo")).reply()  # mostly refused
    await (await user.slash("barrage do", moves="foo bar")).reply()
    await (await user.slash("barrage do", moves="take 9999")).reply()
    await user.autocomplete("barrage do", focused="moves", moves="")


async def help_pages(user: FakeUser) -> None:
    """Every help topic, and the topics autocomplete offers for a few words."""
    await (await user.slash("barrage help")).reply()
    for key in help_texts.topics():
        if help_texts.is_symbols(key):
            continue
        await (await user.slash("barrage help", topic=key)).reply()
    await (await user.slash("barrage help", topic="no such thing")).reply()
    for typed in ("", "usa", "officer", "tile", "contract 2", "leeghwater"):
        await user.autocomplete("barrage help", focused="topic", topic=typed)


async def read_discord_game(
    fake: FakeDiscord, setup: Setup, seed: int, db: Path, *, helps: bool = False
) -> list[Finding]:
    """Play one game of `setup` through Discord and check every text it sent."""
    clock = FakeClock()
    people = [fake.alice, fake.bob, fake.carol, fake.dave][: setup.players - setup.computers]
    first_call = len(fake.calls)
    async with barrage_bot(fake, db, clock) as bot:
        if helps:
            await help_pages(fake.alice)
        # DMs too: the first person is notified by DM, and looks at their settings.
        await (await people[0].slash("barrage settings", dm=True, reminder_hours=1)).reply()
        await (await people[0].slash("barrage settings", quiet_hours="nonsense")).reply()
        await people[0].autocomplete("barrage settings", focused="time_zone", time_zone="Eur")
        await (await people[-1].slash("barrage settings", heads_up=True)).reply()
        await open_game(fake, people, setup, seed)
        driver = Driver(fake, bot, people, seed)
        turns = 0
        while await driver.play_turn(typed_share=0.15, restart_share=0.03, one_turn=True):
            turns += 1
            if turns % 15 == 1:
                await look(people[turns % len(people)], fake)
                clock.advance(hours=48)  # reminders (and DMs) come due, past quiet hours
                await asyncio.sleep(0.3)  # the reminder loop looks every 0.05 s
        await look(people[0], fake)
    found = received_texts(fake, fake.calls[first_call:], f"discord {setup.name}")
    for body in attachments_of(fake):
        found += check_message(body, f"discord {setup.name} attachment")
    return found
