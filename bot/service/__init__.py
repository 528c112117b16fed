"""The game service: the application layer driven by Discord, the console and the tests.

Plain ids in, plain data out (no discord types). See `GameService` for the commands,
`OutboxSender` for delivering announcements, `ReminderRunner` for reminders.
"""

from __future__ import annotations

from bot.service.errors import (
    CannotSave,
    GameMovedOn,
    GameOverError,
    GameUnreadable,
    ImportRefused,
    InvalidMove,
    InvalidSettings,
    LobbyError,
    NewGameRefused,
    NoGameHere,
    NotAPlayer,
    NotYourTurn,
    OtherGame,
    PermissionDenied,
    ServiceError,
)
from bot.service.images import RendererPool
from bot.service.outbox import AnnouncementPort, DeliveryFailed, DestinationGone, OutboxSender
from bot.service.reminders import ReminderRunner
from bot.service.service import MAX_IMPORT_BYTES, UNCHANGED, GameService
from bot.service.types import (
    VIEWS,
    Actor,
    Announcement,
    GameSummary,
    Image,
    ImageRequest,
    Line,
    OptionView,
    Outcome,
    OutcomeKind,
    PanelView,
    ReminderNotice,
    ScoreRow,
    ScoreView,
    ServiceConfig,
    UserNamer,
    UserRef,
    render_lines,
)

__all__ = [
    "MAX_IMPORT_BYTES",
    "UNCHANGED",
    "VIEWS",
    "Actor",
    "Announcement",
    "AnnouncementPort",
    "CannotSave",
    "DeliveryFailed",
    "DestinationGone",
    "GameMovedOn",
    "GameOverError",
    "GameService",
    "GameSummary",
    "GameUnreadable",
    "Image",
    "ImageRequest",
    "ImportRefused",
    "InvalidMove",
    "InvalidSettings",
    "Line",
    "LobbyError",
    "NewGameRefused",
    "NoGameHere",
    "NotAPlayer",
    "NotYourTurn",
    "OptionView",
    "OtherGame",
    "OutboxSender",
    "Outcome",
    "OutcomeKind",
    "PanelView",
    "PermissionDenied",
    "ReminderNotice",
    "ReminderRunner",
    "RendererPool",
    "ScoreRow",
    "ScoreView",
    "ServiceConfig",
    "ServiceError",
    "UserNamer",
    "UserRef",
    "render_lines",
]
