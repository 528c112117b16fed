"""Views anyone may ask for (board, company, log, score): private first, then postable."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.commands import ids
from bot.commands.buttons import post_button
from bot.commands.panel import bot_of, reply_error
from bot.commands.replies import mention, send, within_budget
from bot.rules.content import company_name
from bot.service import SCORE_SHEET, GameService, ServiceError

LOG_LINES = 20
#: What a view's name may look like (the service says which views a game has).
VIEW_NAME = re.compile(r"[a-z]{1,20}")


@dataclass(frozen=True, slots=True)
class Shown:
    """A rendered view: text and at most one picture."""

    game_id: int
    text: str
    png: bytes | None = None
    filename: str = "board.png"
    #: The picture's alt text.
    description: str = ""

    def files(self) -> list[discord.File]:
        """The picture as a discord.File (a fresh one per send: files are consumed)."""
        if not self.png:
            return []
        return [discord.File(io.BytesIO(self.png), self.filename, description=self.description)]


def view_key(kind: str, *, board: str = "map", company: str | None = None) -> str:
    """The short name of a view, as the Post to channel custom_id carries it."""
    if kind == "board":
        return f"b_{board}"
    if kind == "company":
        return f"c_{company or 'all'}"
    return kind


#: The views a Post to channel button may name besides b_{board} and c_{company}.
TEXT_VIEWS = ("log", "score")


async def build_view(
    service: GameService, game_id: int, key: str, *, guild_id: int, viewer: int | None = None
) -> Shown:
    """Load and render one view of a game of this server (by its store id); ``viewer``: the
    user who alone sees it (drawn in their theme), None for the channel."""
    board = key[2:] if key.startswith("b_") else None
    if (board is not None and not VIEW_NAME.fullmatch(board)) or not (
        key.startswith(("b_", "c_")) or key in TEXT_VIEWS
    ):
        raise ServiceError(f"There is no view called '{key[:40]}' to show.")
    if board is not None:
        # The service refuses a view this game has not, naming the ones it has. The caption
        # needs only the round: no score (a replay of the game's log on a new version).
        got = await service.views.board_picture(
            game_id, board, by_game_id=True, guild_id=guild_id, viewer=viewer
        )
        _, shown = await service.views.game_and_round(game_id, by_game_id=True, guild_id=guild_id)
        text = f"Board ({board} view), round {shown}."
        return Shown(game_id, text, got.data, f"{board}.png", got.description)
    score = await service.views.score(game_id, by_game_id=True, guild_id=guild_id)
    if score.draft and (key == "score" or key.startswith("c_")):
        # No companies yet: the company and score views tell the draft so far.
        return Shown(game_id, f"**The draft**\n{score.text(mention)}")
    if key.startswith("c_"):
        company = None if key == "c_all" else key[2:]
        text = await service.views.company_summary(
            game_id, company, by_game_id=True, guild_id=guild_id
        )
        picture, alt = None, ""
        if company is not None:
            got = await service.views.board_picture(
                game_id, "company", company, by_game_id=True, guild_id=guild_id, viewer=viewer
            )
            picture, alt = got.data, got.description
        title = f"**{company_name(company)}**\n" if company else ""
        # A long text is sent as whole messages (`send`), never cut.
        return Shown(game_id, title + text, picture, f"{company or 'company'}.png", alt)
    if key == "log":
        lines = await service.views.log_lines(
            game_id, LOG_LINES, by_game_id=True, guild_id=guild_id
        )
        body = "\n".join(lines) or "Nothing has happened yet."
        # The newest LOG_LINES lines, whole: a long log is sent as several messages (`send`).
        return Shown(game_id, f"**Log**\n{body}")
    title = "**Final score**" if score.over else f"**Score** (round {score.round})"
    # The score sheet: VP by source and per round, the winner once the game is over.
    got = await service.views.board_picture(
        game_id, SCORE_SHEET, by_game_id=True, guild_id=guild_id, viewer=viewer
    )
    text = f"{title}\n{score.text(mention)}"
    return Shown(game_id, text, got.data, "score.png", got.description)


def post_view(game_id: int, key: str) -> discord.ui.View:
    """The Post to channel button under a private view."""
    view = discord.ui.View(timeout=None)
    view.add_item(PostButton(game_id, key))
    return view


async def show_private(interaction: discord.Interaction, key: str, *, number: int | None) -> None:
    """Answer with a private view and a Post to channel button (deferring first: it renders).

    `number` is a game's number in this server (default: the channel's active game).
    """
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = bot_of(interaction).service
    guild_id = interaction.guild_id or 0
    if number is None:
        channel = interaction.channel_id or 0
        game_id, _ = await service.views.game_and_round(channel, guild_id=guild_id)
    else:
        game_id = await service.desk.game_id_of(guild_id, number)
    shown = await build_view(service, game_id, key, guild_id=guild_id, viewer=interaction.user.id)
    await send(interaction, shown.text, files=shown.files(), view=post_view(shown.game_id, key))


class PostButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.POST_TEMPLATE):
    """Post to channel: ``brg:pv:{game}:{view}`` shows the view to everyone."""

    def __init__(self, game_id: int, key: str) -> None:
        """Build the button."""
        super().__init__(post_button(ids.post_id(game_id, key)))
        self.game_id, self.key = game_id, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PostButton:
        """Rebuild from the custom_id alone."""
        return cls(int(match["game"]), match["view"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Post the view (of the latest committed state) to the channel, naming who asked.

        The answer itself is the public post (deferred publicly when rendering is slow), so
        it needs no channel permission and shows whose request it was.
        """
        try:
            shown = await within_budget(
                interaction,
                # Only a game of the server the button is pressed in, posted where it is pressed.
                build_view(
                    bot_of(interaction).service,
                    self.game_id,
                    self.key,
                    guild_id=interaction.guild_id or 0,
                ),
                ephemeral=False,
            )
            text = f"{shown.text}\n-# shared by {interaction.user.mention}"
            await send(interaction, text, files=shown.files(), ephemeral=False)
        except Exception as error:
            await reply_error(interaction, error)
