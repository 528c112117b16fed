"""The service's refusals: one root class, a subclass per reason, every message specific."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.types import ChannelNamer, Line, UserNamer, plain_channel

if TYPE_CHECKING:
    from bot.service.types import PanelView


class ServiceError(Exception):
    """A command was refused; nothing changed.

    The message is a `Line` (it may name people); `str(error)` is its plain text, and an
    adapter writes it with `render` (mentions on Discord, names in the console).
    """

    def __init__(self, message: str | Line = "") -> None:
        self.line = message if isinstance(message, Line) else Line.of(message)
        super().__init__(self.line.render())

    def render(self, name: UserNamer, channel: ChannelNamer = plain_channel) -> str:
        """The message, each person written by `name`, each channel by `channel`."""
        return self.line.render(name, channel)


class NoGameHere(ServiceError):
    """The channel (or the given id) has no game the command could apply to."""


class NotAPlayer(ServiceError):
    """The user does not sit at this game."""


class NotYourTurn(ServiceError):
    """The user sits at the game, but another player must decide now."""


class GameMovedOn(ServiceError):
    """The command was made for an older version; `current` is the acting user's decision now."""

    def __init__(self, message: str, current: PanelView | None = None) -> None:
        super().__init__(message)
        self.current = current


class OtherGame(GameMovedOn):
    """The panel or button was made for another game than the channel's current one."""


class GameUnreadable(ServiceError):
    """The channel's stored game cannot be loaded; only moderation (export, abandon) works."""


class PermissionDenied(ServiceError):
    """Only the creator, a manager of the channel, or the player concerned may do this."""


class InvalidMove(ServiceError):
    """The engine refused a notation; `notation` is the first one that failed."""

    def __init__(self, message: str, notation: str | None = None) -> None:
        super().__init__(message)
        self.notation = notation


class LobbyError(ServiceError):
    """A lobby refusal: full, already joined, not enough players, already started."""


class NewGameRefused(LobbyError):
    """Options of a new game that cannot be played together.

    `option` names the create_game parameter to change ("players", "setup", "expansions" or
    "map") and `choose` a value that would be accepted (None when there is no single one), so
    each adapter can say it in its own words: `setup: full` on Discord, `--setup full` in the
    console. The message itself names no parameter.
    """

    def __init__(self, message: str, option: str, choose: str | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.choose = choose


class GameOverError(ServiceError):
    """The game has ended (or was abandoned); only views remain."""


class InvalidSettings(ServiceError):
    """A user setting was refused (e.g. an unknown time zone)."""


class ImportRefused(ServiceError):
    """An exported game could not be imported (bad shape, or its log does not replay)."""


class CannotSave(ServiceError):
    """The database cannot be written (or read) now: a full or read-only disk, say.

    Nothing was changed; the same command works again once the disk does.
    """

    WRITING = "the bot can't save right now; nothing was changed. Please try again later"
    READING = "the bot can't read its saved games right now; please try again later"

    def __init__(self, *, writing: bool) -> None:
        super().__init__(self.WRITING if writing else self.READING)
        self.writing = writing


__all__ = [
    "CannotSave",
    "GameMovedOn",
    "GameOverError",
    "GameUnreadable",
    "ImportRefused",
    "InvalidMove",
    "InvalidSettings",
    "LobbyError",
    "NewGameRefused",
    "NoGameHere",
    "NotAPlayer",
    "NotYourTurn",
    "OtherGame",
    "PermissionDenied",
    "ServiceError",
]
