"""Plain-data values the service takes and returns: no discord types, all frozen."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Board views the renderer draws.
VIEWS = ("map", "shared", "company", "full")


@dataclass(frozen=True, slots=True)
class Actor:
    """Who issues a command, and where.

    `can_manage` is computed by the adapter: the user has Manage Channels on the game's
    channel (Manage Threads when the game lives in a thread).
    """

    user_id: int
    guild_id: int
    channel_id: int
    can_manage: bool = False


@dataclass(frozen=True, slots=True)
class ImageRequest:
    """An image to attach: a view of the committed state of a game at a version."""

    game_id: int
    version: int
    view: str = "map"
    company: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (stored in outbox payloads)."""
        return {
            "game_id": self.game_id,
            "version": self.version,
            "view": self.view,
            "company": self.company,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ImageRequest:
        """Rebuild from `to_json`."""
        return cls(int(data["game_id"]), int(data["version"]), data["view"], data.get("company"))


@dataclass(frozen=True, slots=True)
class OptionView:
    """One legal answer as a panel shows it."""

    notation: str
    label: str
    group: str = ""
    description: str = ""


@dataclass(frozen=True, slots=True)
class PanelView:
    """A user's pending decision, including their turn in progress (the phone panel).

    `options` is empty when the user has nothing to decide (then `waiting_for` says who
    does). `done` lists what the turn has done so far, one line per answer.
    """

    game_id: int
    version: int
    user_id: int
    company: str | None
    prompt: str
    kind: str
    options: tuple[OptionView, ...]
    done: tuple[str, ...] = ()
    can_restart: bool = False
    can_confirm: bool = False
    can_undo: bool = False
    simultaneous: bool = False
    #: Users who must decide now (the one user, or several in the income phase).
    waiting_for: tuple[int, ...] = ()
    #: True when it is this user's decision.
    your_turn: bool = False
    #: Set when the game's log no longer replayed and it continues from a snapshot.
    flag: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command produced.

    `public` outcomes belong in the channel (everything else is for the actor only);
    `committed` is True when the command committed a turn — its channel announcement was
    then written to the outbox and is delivered by the OutboxSender, so the adapter should
    not post `text` publicly a second time. `decision` is the actor's panel afterwards.
    """

    game_id: int
    version: int
    text: str
    public: bool = False
    images: tuple[ImageRequest, ...] = ()
    mention_user_id: int | None = None
    silent: bool = False
    decision: PanelView | None = None
    committed: bool = False


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One company's score: VP now and where they came from."""

    company: str
    user_id: int | None
    vp: int
    #: (source, VP) pairs, largest first; sources as the engine names them, grouped.
    breakdown: tuple[tuple[str, int], ...]
    #: Final rank (1 = winner) once the game is over, else None.
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class ScoreView:
    """Scores of a game at its last committed state."""

    game_id: int
    version: int
    over: bool
    round: int
    rows: tuple[ScoreRow, ...]

    def text(self) -> str:
        """The table as plain text lines."""
        lines = []
        for row in self.rows:
            rank = f"{row.rank}. " if row.rank is not None else ""
            parts = ", ".join(f"{source} {vp:+d}" for source, vp in row.breakdown)
            lines.append(f"{rank}{row.company}: {row.vp} VP" + (f" ({parts})" if parts else ""))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One of a user's games, for "my games"."""

    game_id: int
    guild_id: int
    channel_id: int
    status: str
    #: "lobby", "playing", "finished" or "abandoned".
    stage: str
    players: tuple[int, ...]
    #: Users who must decide now (empty in a lobby or a finished game).
    waiting_for: tuple[int, ...]
    your_turn: bool
    round: int | None = None
    #: The game's number in its server (what players see and type).
    number: int = 0
    #: Why the game cannot be loaded (None when it can).
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Image:
    """A rendered image to attach."""

    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Announcement:
    """A channel announcement as handed to the AnnouncementPort (images already rendered)."""

    outbox_id: int
    game_id: int
    version: int
    channel_id: int
    text: str
    images: tuple[Image, ...] = ()
    mention_user_id: int | None = None
    silent: bool = False
    #: The message of the previous announcement of this game, whose buttons to strip.
    previous_message_id: int | None = None
    #: Attach the "Play your turn" button (False once the game is over or abandoned).
    play_button: bool = True
    #: What produced it: "start", "turn", "income", "undo", "rewind", "replace", "skip",
    #: "abandon", "end", "import".
    reason: str = "turn"


@dataclass(frozen=True, slots=True)
class ReminderNotice:
    """A reminder to deliver: ping `user_id` in the game's channel (and by DM if opted in)."""

    game_id: int
    guild_id: int
    channel_id: int
    user_id: int
    text: str
    dm: bool = False
    #: "reminder" (has not acted for a while) or "quiet-end" (the turn's own ping, held back
    #: by quiet hours: the turn was announced silently).
    reason: str = "reminder"
    sent_count: int = 0
    #: The same for every try of this one ping (a platform may deduplicate by it): a ping
    #: sent by a process that died before recording it is not repeated by the next try.
    key: str = ""


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Tunable service behaviour (defaults suit production)."""

    #: Hours after a player's turn begins before the first reminder, unless the player or
    #: the game sets their own (fractions count: 0.5 is half an hour).
    reminder_hours: float = 24
    #: Hours between further reminders, unless the player or the game sets their own.
    repeat_hours: float = 24
    #: Reminders sent per player per turn at most (the turn's own ping after quiet hours
    #: is not one of them).
    reminder_cap: int = 3
    #: PNGs kept in the render cache.
    image_cache_size: int = 256
    #: Log lines in an announcement.
    announce_lines: int = 12
    #: Options cached for autocomplete: games kept.
    autocomplete_cache_size: int = 256
    theme: str = "light"
    extra: Mapping[str, Any] = field(default_factory=dict)


__all__ = [
    "VIEWS",
    "Actor",
    "Announcement",
    "GameSummary",
    "Image",
    "ImageRequest",
    "OptionView",
    "Outcome",
    "PanelView",
    "ReminderNotice",
    "ScoreRow",
    "ScoreView",
    "ServiceConfig",
]
