"""The server's records on Discord: /barrage stats and /barrage history (with its replays).

Statistics and the history are answered privately, with a Post to channel button; a finished
game opens with its final score sheet, its charts and its export file, and buttons to post
its replay. A replay is posted to the channel: an animated GIF of the map, drawn at low
priority (the first time it is asked for; then it is cached). Thin: the service decides.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from bot.commands.actor import actor_of
from bot.commands.buttons import page_button, post_button
from bot.commands.panel import bot_of, reply_error
from bot.commands.replies import say, send, within_budget
from bot.service import GameService
from bot.service.expansions import MAX_CHOICES, combinations
from bot.service.pictures import charts_alt, leaderboard_alt, replay_alt
from bot.service.stats import MAX_REPLAY_BYTES, MIN_GAMES
from bot.store import FinishedGame, StatsFilter

log = logging.getLogger(__name__)

PREFIX = "brg"
#: The expansions filter: any game, or exactly one set of expansions (as /barrage new offers).
ANY = "any"
STATS_EXPANSIONS = [
    app_commands.Choice(name="Any (all games)", value=ANY),
    # "Any" takes one of Discord's 25 choices.
    *(
        app_commands.Choice(name=c.label, value=c.value)
        for c in combinations(limit=MAX_CHOICES - 1)
    ),
]
GameNumber = app_commands.Range[int, 1, 2**53]

# custom_ids (see bot/commands/ids.py): a filter travels as "{players}.{setup}.{expansions}"
# ("0", "any" and "any" for no filter).
FILTER = r"(?P<players>\d)\.(?P<setup>any|intro|full)\.(?P<exp>[a-z_,]+)"
STATS_POST_TEMPLATE = rf"{PREFIX}:st:{FILTER}:(?P<min>\d+):(?P<user>\d+)"
HISTORY_PAGE_TEMPLATE = rf"{PREFIX}:hp:{FILTER}:(?P<user>\d+):(?P<page>\d+)"
HISTORY_OPEN_TEMPLATE = rf"{PREFIX}:ho:{FILTER}:(?P<user>\d+):(?P<page>\d+)"
ARCHIVE_TEMPLATE = rf"{PREFIX}:ar:(?P<number>\d+):(?P<action>post|round|turn)"


# -- filters ---------------------------------------------------------------------------------


def stats_filter(players: int | None, setup: str | None, expansions: str) -> StatsFilter:
    """The filter of a command's options (expansions: a combination's value, "none", "any")."""
    chosen: tuple[str, ...] | None
    if expansions == ANY:
        chosen = None
    elif expansions == "none":
        chosen = ()
    else:
        chosen = tuple(expansions.split(","))
    return StatsFilter(players, setup, chosen)


def filter_token(filters: StatsFilter) -> str:
    """A filter as a custom_id carries it."""
    exp = ANY if filters.expansions is None else ",".join(filters.expansions) or "none"
    return f"{filters.players or 0}.{filters.setup or ANY}.{exp}"


def filter_of(match: re.Match[str]) -> StatsFilter:
    """The filter a custom_id carries."""
    players = int(match["players"]) or None
    setup = None if match["setup"] == ANY else match["setup"]
    return stats_filter(players, setup, match["exp"])


# -- names -----------------------------------------------------------------------------------

#: Display names already looked up (a few hundred people at most; names change rarely).
_NAMES: OrderedDict[tuple[int, int], str] = OrderedDict()


#: Usernames already looked up, beside `_NAMES` (what a picture draws when a display name's
#: script has no bundled font).
_USERNAMES: OrderedDict[tuple[int, int], str] = OrderedDict()


async def people_names(
    client: discord.Client, guild_id: int, users: Iterable[int]
) -> dict[int, tuple[str, str]]:
    """(display name, username) of people in a server, for the game pictures (cached)."""
    guild = client.get_guild(guild_id)
    out: dict[int, tuple[str, str]] = {}
    for user_id in dict.fromkeys(users):
        key = (guild_id, user_id)
        if key in _NAMES and key in _USERNAMES:
            out[user_id] = (_NAMES[key], _USERNAMES[key])
            continue
        member = guild.get_member(user_id) if guild is not None else None
        try:
            if member is None and guild is not None:
                member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            member = None
        try:
            user = member or client.get_user(user_id) or await client.fetch_user(user_id)
        except discord.HTTPException:
            continue  # a deleted account: the picture says "Player N"
        _NAMES[key], _USERNAMES[key] = user.display_name, user.name
        out[user_id] = (user.display_name, user.name)
        while len(_NAMES) > 1000:
            _NAMES.popitem(last=False)
        while len(_USERNAMES) > 1000:
            _USERNAMES.popitem(last=False)
    return out


class DiscordNames:
    """The pictures' `PeopleNamer`: people as this server calls them, through a Discord client.

    Made before the client, because the service it is given to is built first; the client
    serves it when it is made (`BarrageBot`). Until then, and without a client, nobody is
    named (the pictures say "Player N").
    """

    def __init__(self) -> None:
        """Names nobody until a client serves them."""
        self._client: discord.Client | None = None

    def serve(self, client: discord.Client) -> None:
        """Look people up through `client` from now on."""
        self._client = client

    async def __call__(self, guild_id: int, users: Sequence[int]) -> dict[int, tuple[str, str]]:
        """(display name, username) of each user the client can find ({} without one)."""
        if self._client is None:
            return {}
        return await people_names(self._client, guild_id, users)


async def display_names(interaction: discord.Interaction, users: Iterable[int]) -> dict[int, str]:
    """How people are called in this server, for pictures (text mentions them instead)."""
    known = await people_names(interaction.client, interaction.guild_id or 0, users)
    return {user: display for user, (display, _username) in known.items()}


# -- /barrage stats --------------------------------------------------------------------------


@app_commands.command(name="stats", description="This server's leaderboard, or one player's record")
@app_commands.describe(
    player="One player's record and recent games (the server's leaderboard if left out)",
    players="Only games of this many players",
    setup="Only games of this setup",
    expansions="Only games with exactly these expansions",
    min_games=f"Games a player needs on the leaderboard (default {MIN_GAMES})",
)
@app_commands.choices(expansions=STATS_EXPANSIONS)
async def stats(
    interaction: discord.Interaction,
    player: discord.User | None = None,
    players: app_commands.Range[int, 2, 4] | None = None,
    setup: Literal["intro", "full"] | None = None,
    expansions: str = ANY,
    min_games: app_commands.Range[int, 1, 100] = MIN_GAMES,
) -> None:
    """Statistics of this server's finished games, privately, with Post to channel."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    filters = stats_filter(players, setup, expansions)
    user_id = player.id if player is not None else None
    text, files = await stats_answer(interaction, filters, min_games, user_id)
    post = single(StatsPostButton(filters, min_games, user_id or 0))
    await send(interaction, text, files=files, view=post)


async def stats_answer(
    interaction: discord.Interaction, filters: StatsFilter, min_games: int, user_id: int | None
) -> tuple[str, list[discord.File]]:
    """The text and pictures of a stats answer."""
    service = bot_of(interaction).service
    guild_id = interaction.guild_id or 0
    if user_id is not None:
        record = await service.records.player_stats(guild_id, user_id, filters)
        return say(record.lines()), []
    view = await service.records.server_stats(guild_id, filters, min_games=min_games)
    text = say(view.lines())
    if not view.matched:
        return text, []
    names = await display_names(interaction, view.users[:10])
    png = await service.records.leaderboard_image(view, names)
    alt = leaderboard_alt(view, names)
    return text, [discord.File(io.BytesIO(png), "leaderboard.png", description=alt)]


class StatsPostButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=STATS_POST_TEMPLATE):
    """Post to channel under a stats answer: ``brg:st:{filter}:{min games}:{user or 0}``."""

    def __init__(self, filters: StatsFilter, min_games: int, user_id: int) -> None:
        """Build the button."""
        custom_id = f"{PREFIX}:st:{filter_token(filters)}:{min_games}:{user_id}"
        super().__init__(post_button(custom_id))
        self.filters, self.min_games, self.user_id = filters, min_games, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StatsPostButton:
        """Rebuild from the custom_id alone."""
        return cls(filter_of(match), int(match["min"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Post the statistics (as they are now) to the channel, naming who shared them."""
        try:
            text, files = await within_budget(
                interaction,
                stats_answer(interaction, self.filters, self.min_games, self.user_id or None),
                ephemeral=False,
            )
            await send(interaction, shared(text, interaction), files=files, ephemeral=False)
        except Exception as error:
            await reply_error(interaction, error)


# -- /barrage history ------------------------------------------------------------------------


@app_commands.command(name="history", description="This server's finished games, newest first")
@app_commands.describe(
    game="Open one finished game: its score sheet, charts, export file and replay",
    replay="Post the game's animated replay here (the last game finished here if no game:)",
    page="Which page of the list (5 games a page)",
    player="Only games this player played",
    players="Only games of this many players",
    setup="Only games of this setup",
    expansions="Only games with exactly these expansions",
)
@app_commands.choices(expansions=STATS_EXPANSIONS)
async def history(
    interaction: discord.Interaction,
    game: GameNumber | None = None,
    page: app_commands.Range[int, 1, 100_000] = 1,
    player: discord.User | None = None,
    players: app_commands.Range[int, 2, 4] | None = None,
    setup: Literal["intro", "full"] | None = None,
    expansions: str = ANY,
    replay: Literal["one frame per round", "one frame per turn"] | None = None,
) -> None:
    """The list of finished games (or one of them), privately; or a game's replay, posted to
    the channel (drawn at low priority the first time: it may take a little while)."""
    if replay is not None:
        await interaction.response.defer(thinking=True)
        await post_replay(interaction, game, "turn" if replay.endswith("turn") else "round")
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if game is not None:
        await open_archived(interaction, game)
        return
    filters = stats_filter(players, setup, expansions)
    text, view = await history_page(interaction, filters, player.id if player else 0, page)
    await send(interaction, text, view=view)


async def history_page(
    interaction: discord.Interaction, filters: StatsFilter, user_id: int, page: int
) -> tuple[str, discord.ui.View | None]:
    """A page of the history: its text, and a menu to open a game and page buttons."""
    service = bot_of(interaction).service
    found = await service.records.history(
        interaction.guild_id or 0, page, filters, user_id=user_id or None
    )
    text = say(found.lines())
    if not found.games:
        return text, None
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryOpenSelect(filters, user_id, found.page, found.games))
    if found.page > 1:
        view.add_item(HistoryPageButton(filters, user_id, found.page - 1, "◀ Newer"))
    if found.page < found.pages:
        view.add_item(HistoryPageButton(filters, user_id, found.page + 1, "Older ▶"))
    return text, view


def game_option(game: FinishedGame) -> discord.SelectOption:
    """A finished game as a menu choice: '#12 · 3 players · won with 86 VP'."""
    best = game.result.winners[0].vp
    r = game.result
    return discord.SelectOption(
        label=f"Game #{game.number}"[:100],
        value=str(game.number),
        description=f"{r.players} players, {r.setup} setup, won with {best} VP"[:100],
    )


class HistoryOpenSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=HISTORY_OPEN_TEMPLATE
):
    """The menu of a history page that opens a game: ``brg:ho:{filter}:{user}:{page}``."""

    def __init__(
        self,
        filters: StatsFilter,
        user_id: int,
        page: int,
        games: Iterable[FinishedGame] = (),
    ) -> None:
        """Build the menu (its choices only matter when it is sent)."""
        custom_id = f"{PREFIX}:ho:{filter_token(filters)}:{user_id}:{page}"
        options = [game_option(g) for g in games] or [discord.SelectOption(label="…", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id, placeholder="Open a finished game…", options=options[:25]
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryOpenSelect:
        """Rebuild from the custom_id alone (the chosen value names the game)."""
        return cls(filter_of(match), int(match["user"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the chosen game, privately."""
        try:
            data: Mapping[str, Any] = interaction.data or {}
            values = data.get("values") or []
            if not values or not str(values[0]).isdigit():
                await send(interaction, "Choose a game from the menu.")
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await open_archived(interaction, int(values[0]))
        except Exception as error:
            await reply_error(interaction, error)


class HistoryPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_PAGE_TEMPLATE
):
    """Turn a history page: ``brg:hp:{filter}:{user}:{page}`` (the page it shows)."""

    def __init__(self, filters: StatsFilter, user_id: int, page: int, label: str = "Page") -> None:
        """Build the button."""
        custom_id = f"{PREFIX}:hp:{filter_token(filters)}:{user_id}:{page}"
        super().__init__(page_button(custom_id, label))
        self.filters, self.user_id, self.page = filters, user_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryPageButton:
        """Rebuild from the custom_id alone."""
        return cls(filter_of(match), int(match["user"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show that page in place of this one."""
        try:
            text, view = await within_budget(
                interaction,
                history_page(interaction, self.filters, self.user_id, self.page),
                update=True,
            )
            await send(interaction, text, view=view, update=True)
        except Exception as error:
            await reply_error(interaction, error)


# -- an archived game ------------------------------------------------------------------------


async def open_archived(interaction: discord.Interaction, number: int) -> None:
    """A finished game, privately: its score sheet, charts and export file, with buttons to
    post it and its replay (the interaction is deferred already)."""
    service = bot_of(interaction).service
    game = await service.records.archived_game(interaction.guild_id or 0, number)
    text, files = await archived_answer(interaction, service, game)
    doc = await service.moving.export_game(actor_of(interaction), game.game_id)
    data = json.dumps(doc, indent=1, sort_keys=True).encode()
    files.append(discord.File(io.BytesIO(data), f"barrage-game-{game.number}.json"))
    view = discord.ui.View(timeout=None)
    for action in ("round", "turn", "post"):
        view.add_item(ArchiveButton(game.number, action))
    await send(interaction, text, files=files, view=view)


async def archived_answer(
    interaction: discord.Interaction, service: GameService, game: FinishedGame
) -> tuple[str, list[discord.File]]:
    """A finished game's text and pictures: its result, score sheet and charts."""
    from bot.service.types import game_line

    users = [s.user_id for s in game.result.seats if s.user_id is not None]
    names = await display_names(interaction, users)
    sheet = await service.views.archived_score_picture(game)
    charts = await service.records.game_charts(game, names)
    head = f"**Game #{game.number}** (finished in <#{game.channel_id}>)"
    text = f"{head}\n{say([game_line(game)]).removeprefix('• ')}"
    return text, [
        discord.File(io.BytesIO(sheet.data), sheet.filename, description=sheet.description),
        discord.File(
            io.BytesIO(charts),
            f"game-{game.number}-charts.png",
            description=charts_alt(game, names),
        ),
    ]


#: What each button of a finished game says.
ARCHIVE_LABELS = {
    "round": "▶ Replay by round",
    "turn": "▶ Replay by turn",
    "post": "Post to channel",
}


class ArchiveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ARCHIVE_TEMPLATE):
    """A finished game's buttons: ``brg:ar:{number}:{round|turn|post}`` — post its replay (a
    frame per round or per turn) or its score sheet and charts to the channel."""

    def __init__(self, number: int, action: str) -> None:
        """Build the button."""
        style = discord.ButtonStyle.secondary if action == "post" else discord.ButtonStyle.primary
        super().__init__(
            discord.ui.Button(
                label=ARCHIVE_LABELS[action],
                style=style,
                custom_id=f"{PREFIX}:ar:{number}:{action}",
                emoji="📣" if action == "post" else None,
            )
        )
        self.number, self.action = number, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ArchiveButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["number"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Post to the channel what the button says (deferred publicly: it draws)."""
        try:
            await interaction.response.defer(thinking=True)
            if self.action == "post":
                service = bot_of(interaction).service
                game = await service.records.archived_game(interaction.guild_id or 0, self.number)
                text, files = await archived_answer(interaction, service, game)
                await send(interaction, shared(text, interaction), files=files, ephemeral=False)
            else:
                await post_replay(interaction, self.number, self.action)
        except Exception as error:
            await reply_error(interaction, error)


# -- replays ------------------------------------------------------------------------------


async def post_replay(interaction: discord.Interaction, number: int | None, pace: str) -> None:
    """Draw (or take from the cache) and post a replay; the interaction is deferred publicly."""
    service = bot_of(interaction).service
    guild_id = interaction.guild_id or 0
    if number is None:
        game = await service.records.archived_here(guild_id, interaction.channel_id or 0)
    else:
        game = await service.records.archived_game(guild_id, number)
    # Under the file size this server allows, and never above our own cap.
    budget = min(MAX_REPLAY_BYTES, interaction.filesize_limit)
    gif = await service.records.replay(game, pace=pace, max_bytes=budget)
    by = "round" if pace == "round" else "turn"
    text = f"🎞️ Replay of game #{game.number}, one frame per {by}.\n-# asked by {interaction.user.mention}"
    name = f"barrage-game-{game.number}-replay.gif"
    users = [s.user_id for s in game.result.seats if s.user_id is not None]
    alt = replay_alt(game, by, await display_names(interaction, users))
    files = [discord.File(io.BytesIO(gif), name, description=alt)]
    await send(interaction, text, files=files, ephemeral=False)


# -- helpers ---------------------------------------------------------------------------------


def single(item: discord.ui.Item[Any]) -> discord.ui.View:
    """A view holding one item."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return view


def shared(text: str, interaction: discord.Interaction) -> str:
    """A posted answer, saying who shared it."""
    return f"{text}\n-# shared by {interaction.user.mention}"  # whole: `send` splits it


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (stats, history)
DYNAMIC_ITEMS = (StatsPostButton, HistoryOpenSelect, HistoryPageButton, ArchiveButton)
