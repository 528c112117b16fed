"""Answering interactions in time, and the one place where errors become replies."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any, TypeVar

import discord

from bot.commands.mentions import pinging
from bot.service import (
    CannotSave,
    GameMovedOn,
    GameOverError,
    GameUnreadable,
    ImportRefused,
    InvalidMove,
    InvalidSettings,
    Line,
    LobbyError,
    NewGameRefused,
    NoGameHere,
    NotAPlayer,
    NotYourTurn,
    OtherGame,
    PermissionDenied,
    ServiceError,
    TimeRef,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Work slower than this is answered by deferring first; Discord's deadline is 3 s.
BUDGET_S = 1.0
#: Interaction.extras key: a public "thinking" placeholder awaits its answer.
PUBLIC_PLACEHOLDER = "barrage_public_placeholder"
#: Interaction.extras key: when the bot's work on it began, on the bot's clock (ms): about
#: when its token was issued (`token_age_ms`).
BEGUN_MS = "barrage_begun_ms"
#: How long an interaction's token edits its reply: Discord's 15 minutes, less a margin for
#: the edit's own way there.
TOKEN_EDITS_MS = 15 * 60_000 - 30_000

#: Prefix of each refusal, by kind: the message itself comes from the service.
_PREFIX: tuple[tuple[type[ServiceError], str], ...] = (
    (OtherGame, "🔀 Another game"),
    (GameMovedOn, "⏩ The game moved on"),
    (GameUnreadable, "🩹 Damaged game"),
    (NoGameHere, "🔎 No game here"),
    (NotAPlayer, "🙅 You are not playing in this game"),
    (NotYourTurn, "⏳ Not your turn"),
    (PermissionDenied, "🔒 Not allowed"),
    (InvalidMove, "❌ Not a legal move"),
    (LobbyError, "🚪 Lobby"),
    (GameOverError, "🏁 Game over"),
    (InvalidSettings, "⚙️ Settings"),
    (ImportRefused, "📦 Import refused"),
    (CannotSave, "💾 Not saved"),
)


def mention(user_id: int) -> str:
    """How a person named in the service's lines is written on Discord.

    Naming is not pinging: who is pinged is set by each message's allowed mentions.
    """
    return f"<@{user_id}>"


def channel_link(channel_id: int) -> str:
    """How a channel named in the service's lines is written on Discord (a link to it)."""
    return f"<#{channel_id}>"


def timestamp(time: TimeRef) -> str:
    """How a moment named in the service's lines is written on Discord: a timestamp that each
    reader sees in their own time zone."""
    return f"<t:{time.at_ms // 1000}:{time.style}>"


def say(lines: Iterable[Line]) -> str:
    """The service's lines as Discord text (people as mentions), whole: `send` and turn
    messages split a long one into whole messages, never cut."""
    return "\n".join(line.render(mention, channel_link, timestamp) for line in lines)


#: How each `create_game` parameter is called among /barrage new's options, with its values.
NEW_OPTIONS = {
    "players": ("players", {}),
    "setup": ("setup", {}),
    "expansions": ("expansions", {}),
    "map": ("board", {"base": "standard", "five_player": "4/5-player"}),
}


def error_text(error: ServiceError) -> str:
    """A specific, friendly one-paragraph refusal."""
    prefix = next((p for cls, p in _PREFIX if isinstance(error, cls)), "⚠️ Refused")
    text = error.render(mention, channel_link)
    if isinstance(error, NewGameRefused):
        option, values = NEW_OPTIONS.get(error.option, (error.option, {}))
        if error.choose is not None:
            choice = values.get(error.choose, error.choose)
            text = f"{text} Choose `{option}: {choice}` in `/barrage new`."
        else:
            text = f"{text} Change `{option}` in `/barrage new`."
    return f"{prefix}: {text}"  # whole: `send` splits a long one


async def within_budget(
    interaction: discord.Interaction,
    work: Coroutine[Any, Any, T],
    *,
    update: bool = False,
    ephemeral: bool = True,
    budget: float = BUDGET_S,
) -> T:
    """Run `work`; if it is slow, acknowledge first so the 3 s deadline is always met.

    `update` defers as an edit of the clicked message (type 6), otherwise as a "thinking"
    reply (type 5) that is private unless `ephemeral` is False: a deferred reply keeps the
    visibility of its defer, so a command whose answer is public must defer publicly. Fast
    work is answered directly by the caller (type 4 or 7).

    The first interactions after a start defer before `work` begins: a cold process (store
    connection, caches, first game loads) must not hold up the acknowledgement.
    """
    client = interaction.client
    clock = getattr(client, "clock", None)
    if clock is not None:
        interaction.extras.setdefault(BEGUN_MS, clock())
    if getattr(client, "cold", False):
        try:
            await defer(interaction, update=update, ephemeral=ephemeral)
        except BaseException:
            work.close()
            raise
        try:
            return await work
        finally:
            client.cold = False  # type: ignore[attr-defined]  # a BarrageBot's flag (read above)
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), budget)
    except TimeoutError:
        await defer(interaction, update=update, ephemeral=ephemeral)
        return await task


def token_expired(interaction: discord.Interaction) -> bool:
    """Whether the interaction's token may be too old to edit its reply or follow it up
    (its work began more than `TOKEN_EDITS_MS` ago on the bot's clock)."""
    clock = getattr(interaction.client, "clock", None)
    begun = interaction.extras.get(BEGUN_MS)
    return clock is not None and begun is not None and clock() - begun >= TOKEN_EDITS_MS


async def defer(interaction: discord.Interaction, *, update: bool, ephemeral: bool) -> None:
    """Acknowledge now (unless already done); the answer follows as an edit or a follow-up."""
    if interaction.response.is_done():
        return
    if update:
        await interaction.response.defer()
        return
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    if not ephemeral:
        interaction.extras[PUBLIC_PLACEHOLDER] = True


def unkept(view: discord.ui.View) -> discord.ui.View:
    """Mark a view finished, so that discord.py does not keep a copy of it per message.

    Every component of ours is a DynamicItem, dispatched by the pattern of its custom_id
    (registered once, at start-up), so a kept view only holds memory: discord.py keeps the
    view of a private reply, with a task, for 15 minutes (bench/discord_load.py: about
    6,000 of them at ten actions a second). The components are sent all the same.
    """
    view.stop()
    return view


#: Discord's limit on a message's content.
MAX_MESSAGE = 2000


async def send(
    interaction: discord.Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
    update: bool = False,
    ephemeral: bool = True,
    mention: int | None = None,
) -> int | None:
    """Reply, or edit the clicked message (`update`), whether or not the answer was deferred.

    Returns the id of the new message that holds the view (else the first) when Discord
    gave it (a reply, a follow-up), else None.
    """
    if view is not None:
        unkept(view)
    # A long text goes out as whole messages, never cut: the first carries the files (and
    # edits the clicked message), the last the view, so the buttons sit under the question.
    first, *rest = split_message(content)
    if not rest:
        return await _send_one(interaction, first, view, files, update, ephemeral, mention)
    sent = await _send_one(interaction, first, None, files, update, ephemeral, mention)
    for index, part in enumerate(rest):
        last = index == len(rest) - 1
        extra: dict[str, Any] = {"view": view} if last and view is not None else {}
        message = await interaction.followup.send(
            part, ephemeral=ephemeral, allowed_mentions=pinging([mention]), wait=True, **extra
        )
        if extra:
            sent = message.id  # the message with the view is the one to remember
    return sent


def split_message(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """A text in parts of at most `limit` characters, each of whole lines (a line longer than
    that is split between words), so that nothing is cut."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:cut])
            line = line[cut:].lstrip()
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            parts.append(current)
            current = line
        else:
            current = joined
    parts.append(current)
    return [p for p in parts if p.strip()] or [""]


async def _send_one(
    interaction: discord.Interaction,
    content: str,
    view: discord.ui.View | None,
    files: Sequence[discord.File],
    update: bool,
    ephemeral: bool,
    mention: int | None,
) -> int | None:
    """One message of `send`."""
    kwargs: dict[str, Any] = {"content": content, "allowed_mentions": pinging([mention])}
    if update:
        kwargs["view"] = view
        if files:
            kwargs["attachments"] = list(files)
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
        return None
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = list(files)
    if interaction.response.is_done():
        if interaction.extras.pop(PUBLIC_PLACEHOLDER, False) and ephemeral:
            # The first follow-up would fill the public "thinking" message and stay public:
            # remove it, so that this private answer (e.g. a refusal) is a message of its own.
            await interaction.delete_original_response()
        message = await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
        return message.id
    # The callback's answer carries the message id, so no second request is needed for it
    # (which could also outlive a shutdown that began after the reply).
    callback = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    return callback.message_id
