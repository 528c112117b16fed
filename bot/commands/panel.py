"""The ephemeral phone panel: the player's decision as buttons or a paged select.

Every component is a DynamicItem: it holds nothing but what its custom_id says (game,
version, option), so a panel keeps working after a restart, and a click on an old panel is
re-checked by the service against the current version.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import discord

from bot.commands import ids
from bot.commands.actor import actor_of
from bot.commands.buttons import page_button
from bot.commands.layout import BUTTONS_PER_ROW, page_groups, paginate, select_texts, use_buttons
from bot.commands.ports import Bot
from bot.commands.replies import error_text, say, send, token_expired, within_budget
from bot.rules.content import company_name, load_content
from bot.service import GameMovedOn, OptionView, Outcome, OutcomeKind, PanelView, ServiceError
from bot.service.catchup import SINCE_HEADING
from bot.service.digest import within
from bot.service.types import Image

MAX_DONE_LINES = 12
#: Characters of a panel the digest of the others' turns may take (its earliest lines are
#: counted past that): the panel is one message of at most 2,000.
SINCE_BUDGET = 1100
CONTROL_ROW = 4
#: The actor's note after an answer, by the kind of outcome (other kinds say their own lines).
OUTCOME_NOTES = {
    OutcomeKind.NOTED: "",
    OutcomeKind.COMMITTED: "✅ Done: the channel has been told, and whoever is next was pinged.",
    OutcomeKind.GAME_OVER: "🏁 That was the last turn: the final result is posted in the channel.",
}
#: The note after a commit that hands the next decision back to the actor (they are not
#: pinged for it: this panel is where they go on).
HANDED_BACK_NOTE = "✅ Done: the channel has been told. Your next decision:"


@cache
def company_names() -> dict[str, str]:
    """Company display names by id."""
    return {c.id: c.name for c in load_content().companies.values()}


log = logging.getLogger(__name__)


def bot_of(interaction: discord.Interaction) -> Bot:
    """The bot that received the interaction (it holds the service)."""
    return interaction.client  # type: ignore[return-value]  # our one client is a BarrageBot, a Bot


def panel_content(panel: PanelView, *, page: int = 0, note: str = "") -> str:
    """The panel's text: whose turn, what the turn did so far, the question."""
    lines = [note] if note else []
    who = company_name(panel.company)
    if panel.flag:
        lines.append(f"⚠️ {panel.flag}")
    if not panel.your_turn or not panel.options:
        waiting = ", ".join(f"<@{u}>" for u in panel.waiting_for) or "nobody"
        lines.append(f"**{who}**: nothing for you to decide now — waiting for {waiting}.")
        return "\n".join(lines)
    if panel.since:
        lines.append(SINCE_HEADING)
        lines.extend(say([line]) for line in within(panel.since, SINCE_BUDGET))
    lines.append(f"**{who} — your turn**" if who else "**Your turn**")
    if panel.done:
        lines.append("Done this turn:")
        shown = panel.done[-MAX_DONE_LINES:]
        if len(panel.done) > len(shown):
            lines.append(f"• … {len(panel.done) - len(shown)} earlier")
        lines.extend(f"• {line}" for line in shown)
    lines.append(f"**{panel.prompt}**")
    if not use_buttons(panel.options):
        pages = paginate(panel.options)
        page = max(0, min(page, len(pages) - 1))
        lines.append(
            f"{len(panel.options)} choices — page {page + 1} of {len(pages)}: "
            f"{page_groups(pages[page])}"
        )
    return "\n".join(lines)  # whole: `send` splits a long one, the view on the last


def _style(option: OptionView) -> discord.ButtonStyle:
    """Confirm stands out in green; everything else is a plain choice."""
    if option.notation == "confirm":
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


def panel_view(panel: PanelView, *, page: int = 0) -> discord.ui.View | None:
    """The panel's components: options, then the control row (paging, Restart turn)."""
    if not panel.your_turn or not panel.options:
        return None
    view = discord.ui.View(timeout=None)
    game, version = panel.game_id, panel.version
    if use_buttons(panel.options):
        for index, option in enumerate(panel.options):
            view.add_item(
                OptionButton(game, version, option.notation, option.label, _style(option)).row_at(
                    index // BUTTONS_PER_ROW
                )
            )
    else:
        pages = paginate(panel.options)
        page = max(0, min(page, len(pages) - 1))
        view.add_item(OptionSelect(game, version, page, pages[page], len(pages)))
        if len(pages) > 1:
            view.add_item(PageButton(game, version, page - 1, "◀ Previous", page > 0))
            view.add_item(PageButton(game, version, page + 1, "Next ▶", page < len(pages) - 1))
    if panel.can_restart:
        view.add_item(PreviewButton(game, version))
        view.add_item(RestartButton(game, version))
    return view


async def show_outcome(
    interaction: discord.Interaction, outcome: Outcome, *, update: bool = True
) -> None:
    """After an answer: the panel as it is now (the next question, or who is next).

    A commit that hands the next decision back to the player pings nobody: this panel is
    where they go on. When it cannot show them that decision (the reply came too late for
    the interaction's token, or Discord refused it), they are pinged after all.
    """
    panel = outcome.decision
    note = outcome_note(outcome)
    handed_back = note == HANDED_BACK_NOTE and panel is not None
    if handed_back and interaction.response.is_done() and token_expired(interaction):
        await ping_instead(interaction, outcome)
        return
    try:
        if panel is None:
            await send(interaction, note or "Done.", view=None, update=update)
            return
        await send(
            interaction,
            panel_content(panel, note=note),
            view=panel_view(panel),
            update=update,
        )
    except discord.HTTPException:
        if not handed_back:
            raise
        await ping_instead(interaction, outcome)


async def ping_instead(interaction: discord.Interaction, outcome: Outcome) -> None:
    """The player's panel could not show the decision their answer handed back to them:
    they are pinged for it (the turn message named them without a ping)."""
    panel = outcome.decision
    assert panel is not None
    log.info("panel of user %d not shown; pinging them", interaction.user.id)
    await bot_of(interaction).service.views.decision_unseen(
        actor_of(interaction), panel.game_id, panel.version
    )


def outcome_note(outcome: Outcome) -> str:
    """One line for the actor about what their command did, chosen by its kind."""
    panel = outcome.decision
    if outcome.kind is OutcomeKind.COMMITTED and panel and panel.your_turn and panel.options:
        return HANDED_BACK_NOTE
    if outcome.kind in OUTCOME_NOTES:
        return OUTCOME_NOTES[outcome.kind]
    text = say(outcome.lines)
    return f"✅ {text}" if outcome.announced and text else text


async def answer_option(
    interaction: discord.Interaction, game_id: int, version: int, token: str, *, hashed: bool
) -> None:
    """Play the option a component names, as the clicking user, at the version it shows."""
    bot = bot_of(interaction)
    actor = actor_of(interaction)
    try:
        notation = token
        if hashed:
            current = await within_budget(
                interaction, bot.service.views.panel(actor, expected_game=game_id), update=True
            )
            if current.version != version:
                raise GameMovedOn("that panel is out of date", current)
            found = ids.resolve(token, [o.notation for o in current.options], hashed=True)
            if found is None:
                raise GameMovedOn("that choice is no longer on offer", current)
            notation = found
        # The service checks the game, the version and that the notation is one it listed.
        outcome = await within_budget(
            interaction,
            bot.service.moves.play(
                actor, [notation], expected_version=version, expected_game=game_id, listed=True
            ),
            update=True,
        )
        await show_outcome(interaction, outcome)
    except Exception as error:
        await reply_error(interaction, error, update=True)


class OptionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.OPTION_TEMPLATE):
    """One option as a button: ``brg:o:{game}:{version}:{notation}`` (or ``brg:h`` + hash)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        notation: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        *,
        custom_id: str | None = None,
    ) -> None:
        """Build the button (from_custom_id passes the id it was built with)."""
        custom_id = custom_id or ids.option_id(game_id, version, notation)
        # `use_buttons` gives a label too long for a button a select instead.
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.game_id, self.version = game_id, version
        match = re.fullmatch(ids.OPTION_TEMPLATE, custom_id)
        assert match is not None
        self.token, self.hashed = match["token"], match["kind"] == "h"

    def row_at(self, row: int) -> OptionButton:
        """Place the button on a row (and return it, for chaining)."""
        self.item.row = row
        return self

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OptionButton:
        """Rebuild from the custom_id alone."""
        return cls(
            int(match["game"]), int(match["version"]), "", custom_id=match.string
        )  # the whole custom_id matched

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with this option."""
        await answer_option(interaction, self.game_id, self.version, self.token, hashed=self.hashed)


class OptionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.SELECT_TEMPLATE):
    """One page of options as a select: ``brg:s:{game}:{version}:{page}``."""

    def __init__(
        self,
        game_id: int,
        version: int,
        page: int,
        options: list[OptionView] | None = None,
        pages: int = 1,
    ) -> None:
        """Build the select for one page (from_custom_id builds it without options)."""
        choices = []
        for o in options or []:
            label, description = select_texts(o.label, o.description or o.group)
            value = ids.select_value(o.notation)
            choices.append(
                discord.SelectOption(label=label, value=value, description=description or None)
            )
        if not choices:
            choices = [discord.SelectOption(label="…", value="-")]
        placeholder = page_groups(options or [])
        if pages > 1:
            placeholder = f"{placeholder} ({page + 1}/{pages})"
        super().__init__(
            discord.ui.Select(
                custom_id=ids.select_id(game_id, version, page),
                options=choices,
                placeholder=placeholder[:150],
                row=0,
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OptionSelect:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]), int(match["version"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the picked option."""
        data: Mapping[str, Any] = interaction.data or {}
        values = data.get("values") or []
        if not values:
            await send(interaction, "Pick one of the options.")
            return
        value = values[0]
        hashed = value.startswith("#")  # a long notation travels as '#' + its hash
        await answer_option(interaction, self.game_id, self.version, value, hashed=hashed)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.PAGE_TEMPLATE):
    """Turns the paged select: ``brg:pg:{game}:{version}:{page}``."""

    def __init__(
        self, game_id: int, version: int, page: int, label: str = "Page", enabled: bool = True
    ) -> None:
        """Build the button."""
        custom_id = ids.page_id(game_id, version, max(page, 0))
        super().__init__(page_button(custom_id, label, enabled=enabled, row=CONTROL_ROW))
        self.game_id, self.version, self.page = game_id, version, max(page, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]), int(match["version"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page (of the current decision; a stale panel gets the current one)."""
        try:
            panel = await within_budget(
                interaction,
                bot_of(interaction).service.views.panel(
                    actor_of(interaction), expected_game=self.game_id
                ),
                update=True,
            )
            stale = panel.version != self.version
            note = "⏩ The game moved on: here is your current decision." if stale else ""
            page = 0 if stale else self.page
            await send(
                interaction,
                panel_content(panel, page=page, note=note),
                view=panel_view(panel, page=page),
                update=True,
            )
        except Exception as error:
            await reply_error(interaction, error, update=True)


class RestartButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.RESTART_TEMPLATE):
    """Restart turn: ``brg:rs:{game}:{version}``."""

    def __init__(self, game_id: int, version: int) -> None:
        """Build the button."""
        super().__init__(
            discord.ui.Button(
                label="Restart turn",
                style=discord.ButtonStyle.danger,
                custom_id=ids.restart_id(game_id, version),
                row=CONTROL_ROW,
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RestartButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Take the turn back to where it began."""
        bot = bot_of(interaction)
        try:
            outcome = await within_budget(
                interaction,
                bot.service.moves.restart_turn(
                    actor_of(interaction), expected_version=self.version, expected_game=self.game_id
                ),
                update=True,
            )
            await show_outcome(interaction, outcome)
        except Exception as error:
            await reply_error(interaction, error, update=True)


#: The views a Preview shows: where a turn changes things.
PREVIEW_VIEWS = ("map", "shared")


class PreviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.PREVIEW_TEMPLATE):
    """Preview: ``brg:pr:{game}:{version}``; the turn in progress, drawn for its player alone."""

    def __init__(self, game_id: int, version: int) -> None:
        """Build the button."""
        super().__init__(
            discord.ui.Button(
                label="Preview",
                emoji="👁️",
                style=discord.ButtonStyle.secondary,
                custom_id=ids.preview_id(game_id, version),
                row=CONTROL_ROW,
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PreviewButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the presser's turn in progress privately (map and shared boards)."""
        try:
            await send_preview(interaction, PREVIEW_VIEWS, game_id=self.game_id)
        except Exception as error:
            await reply_error(interaction, error)


async def send_preview(
    interaction: discord.Interaction,
    views: tuple[str, ...],
    *,
    company: str | None = None,
    game_id: int | None = None,
) -> None:
    """Answer privately with pictures of the user's turn in progress (nobody else sees them
    until Confirm)."""
    service = bot_of(interaction).service
    actor = actor_of(interaction)

    async def pictures() -> list[Image]:
        return [
            await service.views.preview_picture(actor, view, company, expected_game=game_id)
            for view in views
        ]

    shown = await within_budget(interaction, pictures())
    files = [discord.File(io.BytesIO(p.data), p.filename, description=p.description) for p in shown]
    text = (
        "👁️ **Preview** of your turn so far: only you see it. "
        "**Confirm turn** shows it to everyone; **Restart turn** takes it back."
    )
    await send(interaction, text, files=files)


async def open_panel(
    interaction: discord.Interaction, *, game_id: int | None = None, note: str = ""
) -> None:
    """Send the user's panel privately (or say why there is nothing to decide).

    From a turn message's button (`game_id`), a game other than the channel's current one
    is refused: its panel would belong to another game.
    """
    service = bot_of(interaction).service
    actor = actor_of(interaction)

    async def opened() -> tuple[PanelView, list[discord.File]]:
        panel = await service.views.panel(actor, expected_game=game_id, opening=True)
        if not panel.since_changed or panel.since_turns < 2:
            return panel, []  # the turn message's map rings the one turn since
        # Drawn only now, for this player: what changed in the turns since theirs. A picture
        # that cannot be drawn never keeps the panel from opening (its lines say it all).
        try:
            picture = await service.views.since_picture(actor, panel)
        except ServiceError:
            raise
        except Exception:
            log.exception("the map since user %d's last turn could not be drawn", actor.user_id)
            return panel, []
        return panel, [
            discord.File(
                io.BytesIO(picture.data), picture.filename, description=picture.description
            )
        ]

    panel, files = await within_budget(interaction, opened())
    await send(interaction, panel_content(panel, note=note), view=panel_view(panel), files=files)


class PlayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.PLAY_TEMPLATE):
    """The public "Play your turn" button: ``brg:play:{game}``; reopens the panel."""

    def __init__(self, game_id: int) -> None:
        """Build the button."""
        super().__init__(
            discord.ui.Button(
                label="Play your turn",
                emoji="🎲",
                style=discord.ButtonStyle.success,
                custom_id=ids.play_id(game_id),
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the presser's panel, or refuse privately when it is not their decision."""
        try:
            await open_panel(interaction, game_id=self.game_id)
        except Exception as error:
            await reply_error(interaction, error)


def play_view(game_id: int) -> discord.ui.View:
    """The view under a public turn message."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(game_id))
    return view


async def reply_error(
    interaction: discord.Interaction, error: BaseException, *, update: bool = False
) -> None:
    """Turn any error into an ephemeral reply; unexpected ones are logged as bugs.

    A stale click on a panel (`update`) replaces the panel with the current decision.
    """
    original = getattr(error, "original", None)
    if isinstance(error, discord.app_commands.CommandInvokeError) and original is not None:
        error = original
    view: discord.ui.View | None = None
    if isinstance(error, ServiceError):
        text = error_text(error)
        if isinstance(error, GameMovedOn) and error.current is not None:
            text = panel_content(error.current, note=text + ".")
            view = panel_view(error.current)
        else:
            update = False  # a refusal never replaces what the user was looking at
    elif isinstance(error, discord.app_commands.NoPrivateMessage):
        text, update = "Barrage games live in server channels; use the command there.", False
    elif isinstance(error, discord.app_commands.CheckFailure):
        text, update = f"🔒 Not allowed: {error}", False
    else:
        log.error("unexpected error in an interaction", exc_info=error)
        text, update = "💥 Something went wrong on the bot's side; nothing was changed.", False
    try:
        await send(interaction, text, view=view, update=update and view is not None)
    except discord.HTTPException as exc:
        log.warning("could not deliver an error reply: %s", exc)
