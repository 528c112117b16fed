"""The /barrage command group: thin translations from slash commands to the service."""

from __future__ import annotations

import io
import json
import logging
import re
import zoneinfo
from functools import cache
from typing import Any, Literal

import discord
from discord import app_commands

from bot.commands import help as help_texts
from bot.commands import records
from bot.commands.actor import actor_of
from bot.commands.lobby import lobby_text, lobby_view, refresh_lobby, remember_lobby
from bot.commands.mentions import NOBODY
from bot.commands.panel import bot_of, company_names, open_panel, send_preview, show_outcome
from bot.commands.replies import say, send, timestamp, within_budget
from bot.commands.viewing import show_private, view_key
from bot.rules.content import company_name
from bot.service import MAX_IMPORT_BYTES, SCORE_SHEET, VIEWS, Outcome, ServiceError, TimeRef
from bot.service.clock import AWAY_DAYS_LIMIT, AWAY_DAYS_MAX
from bot.service.expansions import offered

log = logging.getLogger(__name__)

MOVE_SEPARATOR = ";"

barrage = app_commands.Group(
    name="barrage",
    description="Play Barrage in this channel: a turn-based game of dams, water and energy",
    guild_only=True,
)


@cache
def time_zones() -> tuple[str, ...]:
    """IANA time zone names, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


async def reply_outcome(interaction: discord.Interaction, outcome: Outcome) -> None:
    """Show an outcome: public text in the channel, otherwise the actor's panel or text."""
    if outcome.public and not outcome.announced:
        await send(interaction, say(outcome.lines), ephemeral=False)
    elif outcome.decision is not None:
        await show_outcome(interaction, outcome, update=False)
    else:
        await send(interaction, say(outcome.lines) or "Done.")


# -- lobby ------------------------------------------------------------------------------


#: The colours a game's channel pictures may take (one picture serves everyone).
GAME_THEME_CHOICES = [
    app_commands.Choice(name="colour-blind", value="colourblind"),
    app_commands.Choice(name="light", value="light"),
    app_commands.Choice(name="dark", value="dark"),
]


async def expansions_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The expansion combinations the options typed so far may play (setup, board, automas),
    those matching what is typed first."""
    typed = interaction.namespace
    found = offered(
        players=_int_or(getattr(typed, "players", None), 3),
        setup=str(getattr(typed, "setup", None) or "intro"),
        map="five_player" if getattr(typed, "board", None) == "4/5-player" else "base",
        automa=_int_or(getattr(typed, "automa", None), 0),
    )
    wanted = current.strip().lower()
    return [
        app_commands.Choice(name=combo.label, value=combo.value)
        for combo in found
        if wanted in combo.label.lower() or wanted in combo.value
    ]


def _int_or(value: object, default: int) -> int:
    """An option typed so far as a number (autocomplete sees the raw value), else `default`."""
    try:
        return int(str(value)) if value is not None else default
    except ValueError:
        return default


@barrage.command(name="new", description="Open a game in this channel (or a new thread)")
@app_commands.describe(
    players="How many players (2 to 4)",
    setup="Introductory (fixed pairings) or full setup (draft)",
    expansions="Expansions to play with (some need the full setup)",
    seed="A seed to replay the same setup (random if left out)",
    thread="Open a thread for this game instead of using the channel",
    board="The standard board, or the larger 4/5-player board (4 players only)",
    automa="Computer companies taking seats (0 to 3; people and automas are 2 to 4 players)",
    automa_level="How strong the automas play",
    ai="AI players taking seats (0 to 3; players counts every seat, one at least a person)",
    ai_level="How strong the AI players play",
    hints="Let players ask for a hint (the strong AI's move); such games are not rated",
    theme="Colours of the pictures posted here (colour-blind: told apart by every colour vision)",
    clock="Each player's time for a turn, plus a bank of two turns (none: no clock)",
    timeout="When a player's time runs out: wait (for a moderator), ai (the AI plays it) or skip",
)
@app_commands.choices(theme=GAME_THEME_CHOICES)
@app_commands.autocomplete(expansions=expansions_autocomplete)
async def new(
    interaction: discord.Interaction,
    players: app_commands.Range[int, 2, 4] = 3,
    setup: Literal["intro", "full"] = "intro",
    expansions: str = "none",
    seed: app_commands.Range[int, 0, 2**53] | None = None,
    thread: bool = False,
    board: Literal["standard", "4/5-player"] = "standard",
    automa: app_commands.Range[int, 0, 3] = 0,
    automa_level: Literal["easy", "medium", "hard", "expert"] = "medium",
    ai: app_commands.Range[int, 0, 3] = 0,
    ai_level: Literal["casual", "strong"] = "casual",
    hints: bool = False,
    theme: app_commands.Choice[str] | None = None,
    clock: Literal["none", "12h", "24h", "48h", "72h"] = "none",
    timeout: Literal["wait", "ai", "skip"] = "wait",
) -> None:
    """Create a lobby; others join with its buttons (AI players and automas may take seats)."""
    service = bot_of(interaction).service
    colours = theme.value if theme is not None else None
    chosen = () if expansions == "none" else tuple(expansions.split(","))
    map_id = "five_player" if board == "4/5-player" else "base"
    if not thread:
        outcome = await within_budget(
            interaction,
            service.lobby.create_game(
                actor_of(interaction),
                players=players,
                setup=setup,
                expansions=chosen,
                seed=seed,
                map=map_id,
                automa=automa,
                automa_level=automa_level,
                ai=ai,
                ai_level=ai_level,
                hints=hints,
                theme=colours,
                clock=clock,
                timeout=timeout,
            ),
            ephemeral=False,  # the lobby is public, however slow the answer
        )
        text = await lobby_text(service, outcome.game_id)
        sent = await send(interaction, text, view=lobby_view(outcome.game_id), ephemeral=False)
        message_id = sent or (await interaction.original_response()).id
        remember_lobby(interaction, outcome.game_id, message_id)
        return
    # Refuse bad options before a thread is opened for them.
    service.check_new_game(
        players=players,
        setup=setup,
        expansions=chosen,
        map=map_id,
        automa=automa,
        automa_level=automa_level,
        ai=ai,
        ai_level=ai_level,
    )
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        await send(interaction, "A game thread can only be opened in a text channel.")
        return
    try:
        opened = await channel.create_thread(
            name=f"Barrage ({players} players)",
            type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,  # the longest: a game lives for days
        )
    except discord.Forbidden:
        await send(interaction, "🔒 I lack the Create Public Threads permission in this channel.")
        return
    outcome = await service.lobby.create_game(
        actor_of(interaction, channel_id=opened.id),
        players=players,
        setup=setup,
        expansions=chosen,
        seed=seed,
        map=map_id,
        automa=automa,
        automa_level=automa_level,
        ai=ai,
        ai_level=ai_level,
        hints=hints,
        theme=colours,
        clock=clock,
        timeout=timeout,
    )
    lobby = await opened.send(
        await lobby_text(service, outcome.game_id),
        view=lobby_view(outcome.game_id),
        allowed_mentions=NOBODY,
    )
    remember_lobby(interaction, outcome.game_id, lobby.id)
    await send(interaction, f"🧵 Game opened in {opened.mention}: join it there.")


async def typed_lobby_change(interaction: discord.Interaction, outcome: Outcome) -> None:
    """Announce a typed join or leave; the lobby message shows the new player list."""
    if await refresh_lobby(interaction, outcome):
        await send(interaction, say(outcome.lines), ephemeral=False)
        return
    # The lobby message is unknown (e.g. after a restart): this reply becomes the lobby.
    text = await lobby_text(bot_of(interaction).service, outcome.game_id, say(outcome.lines))
    sent = await send(interaction, text, view=lobby_view(outcome.game_id), ephemeral=False)
    message_id = sent or (await interaction.original_response()).id
    remember_lobby(interaction, outcome.game_id, message_id)


@barrage.command(name="join", description="Join the game waiting for players in this channel")
async def join(interaction: discord.Interaction) -> None:
    """Take a seat in the lobby."""
    service = bot_of(interaction).service
    outcome = await within_budget(
        interaction, service.lobby.join(actor_of(interaction)), ephemeral=False
    )
    await typed_lobby_change(interaction, outcome)


@barrage.command(name="leave", description="Leave the lobby of this channel's game")
async def leave(interaction: discord.Interaction) -> None:
    """Give up a seat before the start."""
    service = bot_of(interaction).service
    outcome = await within_budget(
        interaction, service.lobby.leave(actor_of(interaction)), ephemeral=False
    )
    await typed_lobby_change(interaction, outcome)


@barrage.command(name="start", description="Start this channel's game with the players who joined")
async def start(interaction: discord.Interaction) -> None:
    """Start (the creator or a moderator)."""
    service = bot_of(interaction).service
    await reply_outcome(
        interaction, await within_budget(interaction, service.lobby.start(actor_of(interaction)))
    )


# -- playing ----------------------------------------------------------------------------


@barrage.command(name="play", description="Open your private turn panel (buttons)")
async def play(interaction: discord.Interaction) -> None:
    """The panel, as the Play your turn button opens it; a seat the AI plays for the user is
    taken back first (announced in the channel)."""
    service = bot_of(interaction).service
    actor = actor_of(interaction)
    if await service.moderation.ai_plays_for(actor):
        await within_budget(interaction, service.moderation.take_back(actor))
    await open_panel(interaction)


@barrage.command(name="hint", description="Privately, the move the strong AI would make now")
async def hint(interaction: discord.Interaction) -> None:
    """A hint for the user's decision (a game option), with its reason."""
    service = bot_of(interaction).service
    outcome = await within_budget(interaction, service.computers.hint(actor_of(interaction)))
    await send(interaction, say(outcome.lines))


def split_moves(text: str) -> list[str]:
    """'a; b ;c' -> ['a', 'b', 'c'] (empty parts dropped)."""
    return [part.strip() for part in text.split(MOVE_SEPARATOR) if part.strip()]


async def moves_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Legal moves matching the last part typed (label shown, notation as the value)."""
    done, _, typed = current.rpartition(MOVE_SEPARATOR)
    prefix = f"{done.strip()}{MOVE_SEPARATOR} " if done.strip() else ""
    try:
        found = await bot_of(interaction).service.views.autocomplete(
            actor_of(interaction), typed.strip()
        )
    except Exception as error:
        log.debug("no suggestions: %s", error)
        return []
    choices = []
    for label, notation in found[:25]:
        value = prefix + notation
        if len(value) <= 100:
            choices.append(app_commands.Choice(name=label[:100], value=value))
    return choices


@barrage.command(name="do", description="Play moves by typing; separate several with ';'")
@app_commands.describe(moves="Your move (suggestions as you type); several separated by ';'")
@app_commands.autocomplete(moves=moves_autocomplete)
async def do(interaction: discord.Interaction, moves: app_commands.Range[str, 1, 1000]) -> None:
    """Play one or more notations, all or nothing; the service re-validates each."""
    notations = split_moves(moves)
    if not notations:
        await send(interaction, "Type a move (suggestions appear as you type).")
        return
    outcome = await within_budget(
        interaction, bot_of(interaction).service.moves.play(actor_of(interaction), notations)
    )
    await show_outcome(interaction, outcome, update=False)


@barrage.command(name="restart", description="Take back your turn in progress")
async def restart(interaction: discord.Interaction) -> None:
    """Restart the turn: back to where it began."""
    service = bot_of(interaction).service
    outcome = await within_budget(interaction, service.moves.restart_turn(actor_of(interaction)))
    await show_outcome(interaction, outcome, update=False)


@barrage.command(name="undo", description="Undo your last confirmed turn (before anyone acts)")
async def undo(interaction: discord.Interaction) -> None:
    """Undo a committed turn."""
    service = bot_of(interaction).service
    await reply_outcome(
        interaction, await within_budget(interaction, service.moves.undo(actor_of(interaction)))
    )


# -- looking ----------------------------------------------------------------------------

CompanyChoice = Literal["usa", "germany", "italy", "france", "netherlands"]


GameNumber = app_commands.Range[int, 1, 2**53]
GAME_HELP = "A game's number in this server, e.g. a finished one (default: this channel's game)"


async def view_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The views of the channel's game (the base game's, its expansions', the score sheet)."""
    service = bot_of(interaction).service
    try:
        known = await service.views.board_views(
            interaction.channel_id or 0, guild_id=interaction.guild_id or 0
        )
    except Exception:
        known = VIEWS
    choices = [*known, SCORE_SHEET]
    return [
        app_commands.Choice(name=view, value=view)
        for view in choices
        if current.lower() in view.lower()
    ][:25]


@barrage.command(name="board", description="See the board privately (then post it if you like)")
@app_commands.describe(
    view="Which picture: map, shared, company, full, score, or an expansion's board",
    company="The company board to show (view company)",
    game=GAME_HELP,
    preview="Your turn in progress, for you alone (before you confirm it)",
)
@app_commands.autocomplete(view=view_autocomplete)
async def board(
    interaction: discord.Interaction,
    view: app_commands.Range[str, 1, 20] = "map",
    company: CompanyChoice | None = None,
    game: GameNumber | None = None,
    preview: bool = False,
) -> None:
    """A board picture of the last committed state (or of your turn in progress)."""
    view = view.strip().lower()
    if preview:
        if game is not None:
            raise ServiceError("A preview is of your turn in this channel's game; leave out game.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_preview(interaction, (view,), company=company)
        return
    if view == "company":
        key = view_key("company", company=company)
    else:
        key = view_key("board", board=view)
    await show_private(interaction, key, number=game)


@barrage.command(name="company", description="One company's board and resources, privately")
@app_commands.describe(company="Which company (all of them if left out)", game=GAME_HELP)
async def company(
    interaction: discord.Interaction,
    company: CompanyChoice | None = None,
    game: GameNumber | None = None,
) -> None:
    """A company summary (with its board picture when one company is named)."""
    key = view_key("company", company=company)
    await show_private(interaction, key, number=game)


@barrage.command(name="log", description="The game's recent log, privately")
@app_commands.describe(game=GAME_HELP)
async def log_(interaction: discord.Interaction, game: GameNumber | None = None) -> None:
    """The last lines of the log."""
    await show_private(interaction, "log", number=game)


@barrage.command(name="score", description="Victory points and where they came from, privately")
@app_commands.describe(game=GAME_HELP)
async def score(interaction: discord.Interaction, game: GameNumber | None = None) -> None:
    """The score table (the final ranking once the game is over)."""
    await show_private(interaction, "score", number=game)


@barrage.command(name="games", description="Your games in this server and whose turn it is")
async def games(interaction: discord.Interaction) -> None:
    """List the user's games."""
    service = bot_of(interaction).service
    found = await within_budget(
        interaction, service.views.my_games(interaction.guild_id or 0, interaction.user.id)
    )
    if not found:
        await send(interaction, "You have no games in this server. `/barrage new` opens one.")
        return
    lines = []
    for g in found:
        if g.your_turn:
            state = "**your turn**"
        elif g.waiting_for:
            state = "waiting for " + ", ".join(f"<@{u}>" for u in g.waiting_for)
        else:
            state = g.stage
        where = f"<#{g.channel_id}>"
        round_text = f", round {g.round}" if g.round else ""
        if g.problem:
            state = "cannot be loaded (a moderator can export or abandon it)"
        due = f"; time runs out {timestamp(TimeRef(g.deadline))}" if g.deadline else ""
        lines.append(f"• Game #{g.number} in {where} ({g.stage}{round_text}): {state}{due}")
    await send(interaction, "\n".join(lines))


# -- settings ---------------------------------------------------------------------------

_QUIET = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$")


def parse_quiet_hours(text: str) -> tuple[int, int] | None:
    """'22-7' or '22:30-07:00' -> minutes after midnight; 'off' -> None; else ValueError."""
    if text.strip().lower() in ("off", "none", "no"):
        return None
    match = _QUIET.match(text)
    if not match:
        raise ValueError("quiet hours look like 22-7 or 22:30-07:00 (or off)")
    h1, m1, h2, m2 = (int(x or 0) for x in match.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise ValueError("quiet hours need times between 00:00 and 23:59")
    return h1 * 60 + m1, h2 * 60 + m2


def hours_text(hours: float) -> str:
    """'24 hours', '1 hour', '1.5 hours', '45 minutes'."""
    if hours < 1:
        return f"{round(hours * 60)} minutes"
    return "1 hour" if hours == 1 else f"{hours:g} hours"


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


async def zone_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """IANA zone names containing what was typed."""
    typed = current.strip().lower().replace(" ", "_")
    found = [z for z in time_zones() if typed in z.lower()]
    return [app_commands.Choice(name=z, value=z) for z in found[:25]]


#: The picture themes a player may choose, and "as the game" (stored as no theme).
SERVER_THEME = "game"
THEME_NAMES = {"light": "light", "dark": "dark", "colourblind": "colour-blind"}
THEME_CHOICES = [
    app_commands.Choice(name="colour-blind", value="colourblind"),
    app_commands.Choice(name="light", value="light"),
    app_commands.Choice(name="dark", value="dark"),
    app_commands.Choice(name="as the game's", value=SERVER_THEME),
]


@barrage.command(
    name="settings", description="Your reminders, quiet hours, DMs, Confirm step and pictures"
)
@app_commands.describe(
    reminder_hours="Hours before you are reminded of your turn (0: server default)",
    quiet_hours="No pings in these hours, e.g. 22-7 or 22:30-07:00, or off",
    time_zone="Your time zone (for quiet hours), e.g. Europe/Berlin",
    dm="Also notify me by direct message",
    skip_confirm="End my turns without the Confirm step",
    theme="Colours of the pictures only you see (colour-blind: told apart by every colour vision)",
    heads_up="Mention me when the player before me begins their turn (you're next)",
)
@app_commands.choices(theme=THEME_CHOICES)
@app_commands.autocomplete(time_zone=zone_autocomplete)
async def settings(
    interaction: discord.Interaction,
    reminder_hours: app_commands.Range[int, 0, 168] | None = None,
    quiet_hours: str | None = None,
    time_zone: str | None = None,
    dm: bool | None = None,
    skip_confirm: bool | None = None,
    theme: app_commands.Choice[str] | None = None,
    heads_up: bool | None = None,
) -> None:
    """Show or change the user's settings."""
    service = bot_of(interaction).service
    changes: dict[str, Any] = {}
    if quiet_hours is not None:
        try:
            changes["quiet_hours"] = parse_quiet_hours(quiet_hours)
        except ValueError as exc:
            await send(interaction, f"⚙️ Settings: {exc}.")
            return
    if time_zone is not None:
        changes["time_zone"] = time_zone.strip()
    if dm is not None:
        changes["dm_opt_in"] = dm
    if skip_confirm is not None:
        changes["skip_confirm"] = skip_confirm
    if reminder_hours is not None:
        changes["reminder_hours"] = reminder_hours or None
    if theme is not None:
        changes["theme"] = None if theme.value == SERVER_THEME else theme.value
    if heads_up is not None:
        changes["heads_up"] = heads_up
    if changes:
        current = await within_budget(
            interaction,
            service.user_settings.update(interaction.user.id, **changes),
        )
    else:
        current = await within_budget(interaction, service.user_settings.get(interaction.user.id))
    back = await service.timekeeper.away_until(interaction.user.id)
    quiet = (
        f"{_hhmm(current.quiet_start)}–{_hhmm(current.quiet_end)}"
        if current.quiet_start is not None and current.quiet_end is not None
        else "off"
    )
    if current.reminder_hours:
        reminders = f"every {hours_text(current.reminder_hours)} (your setting)"
    else:
        first, repeat = service.config.reminder_hours, service.config.repeat_hours
        reminders = f"after {hours_text(first)}, then every {hours_text(repeat)} (server default)"
    lines = [
        "**Your settings**" + (" (saved)" if changes else ""),
        f"• Reminders: {reminders}",
        f"• Quiet hours: {quiet} ({current.time_zone or 'UTC'})",
        f"• DM notifications: {'on' if current.dm_opt_in else 'off'}",
        f"• Confirm step: {'skipped' if current.skip_confirm else 'on'}",
        f"• Pictures only you see: {THEME_NAMES.get(current.theme or '', 'the game’s colours')}",
        "• Away (`/barrage away`): " + (f"until {timestamp(TimeRef(back, 'D'))}" if back else "no"),
        "• You're next (heads-up): "
        + ("on: mentioned when the player before you begins" if current.heads_up else "off"),
    ]
    await send(interaction, "\n".join(lines))


@barrage.command(name="away", description="Going away: your clock and reminders stop in all games")
@app_commands.describe(
    days=f"Days away, 1–{AWAY_DAYS_MAX} (0: you are back); at most {AWAY_DAYS_LIMIT} a game in all",
)
async def away(
    interaction: discord.Interaction,
    days: app_commands.Range[int, 0, 14],  # AWAY_DAYS_MAX (a literal: Discord reads the type)
) -> None:
    """Set or end the user's time away (every game of theirs is told in its next turn message)."""
    service = bot_of(interaction).service
    outcome = await within_budget(
        interaction, service.timekeeping.set_away(actor_of(interaction), days)
    )
    await send(interaction, say(outcome.lines))


# -- moderation -------------------------------------------------------------------------


@barrage.command(name="replace", description="Give a player's seat to someone else (moderators)")
@app_commands.describe(
    player="Who sits there now",
    new_player="Who takes over the company",
    ai="Or let the AI play the seat at this level (its player takes it back with /barrage play)",
)
async def replace(
    interaction: discord.Interaction,
    player: discord.Member,
    new_player: discord.Member | None = None,
    ai: Literal["casual", "strong"] | None = None,
) -> None:
    """Replace a vanished player by another member or by the AI."""
    service = bot_of(interaction).service
    if (new_player is None) == (ai is None):
        await send(
            interaction,
            "Name either the member who takes over (`new_player`) or the AI's level (`ai`), "
            "one of the two; nothing was changed.",
        )
        return
    if ai is not None:
        job = service.moderation.replace_with_ai(actor_of(interaction), player.id, ai)
    else:
        assert new_player is not None
        job = service.moderation.replace_seat(actor_of(interaction), player.id, new_player.id)
    outcome = await within_budget(interaction, job)
    await reply_outcome(interaction, outcome)


@barrage.command(name="skip", description="Let a vanished player pass every turn (moderators)")
@app_commands.describe(player="The player who vanished")
async def skip(interaction: discord.Interaction, player: discord.Member) -> None:
    """Skip a seat from now on."""
    service = bot_of(interaction).service
    outcome = await within_budget(
        interaction, service.moderation.skip_seat(actor_of(interaction), player.id)
    )
    await reply_outcome(interaction, outcome)


def rewind_label(version: int, round_: int, player: str) -> str:
    """'Round 2, Italy's turn (v37)'."""
    name = company_name(player) or player
    return f"Round {round_}, {name}'s turn (v{version})"


async def rewind_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """The starts of earlier committed turns, newest first, filtered by what was typed."""
    try:
        points = await bot_of(interaction).service.moderation.rewind_points(actor_of(interaction))
    except Exception as error:
        log.debug("no rewind suggestions: %s", error)
        return []
    words = current.casefold().split()
    choices = []
    for version, round_, player in points:
        label = rewind_label(version, round_, player)
        if all(w in label.casefold() for w in words):
            choices.append(app_commands.Choice(name=label, value=version))
    return choices[:25]


@barrage.command(name="rewind", description="Rewind to the start of an earlier turn (moderators)")
@app_commands.describe(version="The turn to go back to (suggestions as you type)")
@app_commands.autocomplete(version=rewind_autocomplete)
async def rewind(
    interaction: discord.Interaction, version: app_commands.Range[int, 0, 10_000_000]
) -> None:
    """Rewind the game."""
    service = bot_of(interaction).service
    outcome = await within_budget(
        interaction, service.moderation.rewind(actor_of(interaction), version)
    )
    await reply_outcome(interaction, outcome)


@barrage.command(name="abandon", description="End this channel's game without a result")
@app_commands.describe(confirm="Set to True to really abandon the game")
async def abandon(interaction: discord.Interaction, confirm: bool) -> None:
    """Abandon (the creator or a moderator); the log is kept."""
    if not confirm:
        await send(interaction, "Nothing changed: set `confirm` to True to abandon the game.")
        return
    service = bot_of(interaction).service
    await reply_outcome(
        interaction,
        await within_budget(interaction, service.moderation.abandon(actor_of(interaction))),
    )


@barrage.command(name="export", description="Download this channel's game as a JSON file")
@app_commands.describe(
    game="A game of this server by its number (e.g. one whose channel or thread was deleted)"
)
async def export(interaction: discord.Interaction, game: GameNumber | None = None) -> None:
    """Export the game (anyone may: it holds no hidden information beyond the log)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    doc = await bot_of(interaction).service.moving.export_game(actor_of(interaction), number=game)
    data = json.dumps(doc, indent=1, sort_keys=True).encode()
    name = f"barrage-game-{doc.get('source_game_number', 'export')}.json"
    await send(interaction, "📦 The game as JSON.", files=[discord.File(io.BytesIO(data), name)])


@barrage.command(name="import", description="Continue an exported game here (moderators)")
@app_commands.describe(file="A JSON file made by /barrage export")
async def import_(interaction: discord.Interaction, file: discord.Attachment) -> None:
    """Import a game into this channel (checked and replayed by the service first)."""
    if file.size > MAX_IMPORT_BYTES:
        size = file.size / 1048576
        await send(interaction, f"📦 Import refused: the file is {size:.1f} MB; at most 5 MB.")
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await file.read()
    outcome = await bot_of(interaction).service.moving.import_game(actor_of(interaction), data)
    await reply_outcome(interaction, outcome)


# -- records: stats, history, replays (bot/commands/records.py) ----------------------------

for _command in records.COMMANDS:
    barrage.add_command(_command)


# -- help -------------------------------------------------------------------------------


async def topic_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Help topics matching what was typed."""
    return [app_commands.Choice(name=t.name, value=t.key) for t in help_texts.find_topics(current)]


@barrage.command(name="help", description="How to play with the bot; companies, officers, tiles")
@app_commands.describe(
    topic="A company, officer, tile, contract or expansion (how to play if left out)"
)
@app_commands.autocomplete(topic=topic_autocomplete)
async def help_(interaction: discord.Interaction, topic: str | None = None) -> None:
    """Explain the bot or one piece of the game (the symbols of the pictures as a picture)."""
    if help_texts.is_symbols(topic):
        await interaction.response.defer(ephemeral=True, thinking=True)
        got = await bot_of(interaction).service.views.symbols_picture(user_id=interaction.user.id)
        files = [discord.File(io.BytesIO(got.data), got.filename, description=got.description)]
        await send(interaction, help_texts.SYMBOLS_TEXT, files=files)
        return
    text = help_texts.help_text(topic)
    if text is None:
        text = f"No help topic matches {topic!r}; try the suggestions as you type."
    await send(interaction, text)


__all__ = ["barrage", "company_name", "company_names"]
