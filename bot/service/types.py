"""Plain-data values the service takes and returns: no discord types, all frozen."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from typing import Any, NotRequired, TypedDict

from bot.rules.content import company_name
from bot.store.results import FinishedGame, GameCounts, StatsFilter

#: The board views of every game (a game's expansions may add their own: the service's
#: `board_views`).
VIEWS = ("map", "shared", "company", "full")
#: Pictures an announcement may attach besides the board views: the end-of-game score sheet.
SCORE_SHEET = "score"


@dataclass(frozen=True, slots=True)
class UserRef:
    """A person named in a line: Discord renders a mention, the console a player's name.

    Naming someone never pings them: who is pinged is a separate list (`mentions`).
    """

    user_id: int


@dataclass(frozen=True, slots=True)
class ChannelRef:
    """A channel named in a line: Discord renders a link to it, the console its number."""

    channel_id: int


@dataclass(frozen=True, slots=True)
class TimeRef:
    """A moment named in a line (UTC ms): Discord shows it in each reader's own time zone,
    as a relative time (`style` "R": "in 3 hours") or a date ("D")."""

    at_ms: int
    style: str = "R"


#: A part of a line: plain text, a person, a channel, or a moment.
Part = str | UserRef | ChannelRef | TimeRef
#: How an adapter writes a person: a mention on Discord, a name in the console.
UserNamer = Callable[[int], str]
#: How an adapter writes a channel: a channel link on Discord.
ChannelNamer = Callable[[int], str]
#: How an adapter writes a moment: a Discord timestamp, or a date and time in the console.
TimeNamer = Callable[[TimeRef], str]


#: A part of a line as stored: text, {"user": id}, {"channel": id} or {"time": ms, "style": s}.
PartJson = str | dict[str, int | str]


def plain_name(user_id: int) -> str:
    """A person as plain text when nothing better is known (logs, tests)."""
    return f"@{user_id}"


def plain_channel(channel_id: int) -> str:
    """A channel as plain text when nothing better is known (logs, tests, the console)."""
    return f"channel {channel_id}"


def plain_time(time: TimeRef) -> str:
    """A moment as plain text (logs, tests, the console): its date, with the time in UTC."""
    moment = datetime.fromtimestamp(time.at_ms / 1000, UTC)
    if time.style == "D":
        return f"{moment:%d %B %Y}"
    return f"{moment:%d %B %Y, %H:%M} UTC"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a message: text parts and the people it names, in order."""

    parts: tuple[Part, ...]

    @classmethod
    def of(cls, *parts: Part | None) -> Line:
        """A line from parts (None and empty strings are left out)."""
        return cls(tuple(p for p in parts if p is not None and p != ""))

    @property
    def users(self) -> tuple[int, ...]:
        """The people this line names, in order."""
        return tuple(p.user_id for p in self.parts if isinstance(p, UserRef))

    def render(
        self,
        name: UserNamer = plain_name,
        channel: ChannelNamer = plain_channel,
        time: TimeNamer = plain_time,
    ) -> str:
        """The line as text, each person written by `name`, each channel by `channel`, each
        moment by `time`."""
        return "".join(
            p
            if isinstance(p, str)
            else name(p.user_id)
            if isinstance(p, UserRef)
            else time(p)
            if isinstance(p, TimeRef)
            else channel(p.channel_id)
            for p in self.parts
        )

    def to_json(self) -> list[PartJson]:
        """A JSON-able list: strings, {"user": id} for people and {"channel": id} for channels
        (outbox payloads)."""
        return [
            p
            if isinstance(p, str)
            else {"user": p.user_id}
            if isinstance(p, UserRef)
            else {"time": p.at_ms, "style": p.style}
            if isinstance(p, TimeRef)
            else {"channel": p.channel_id}
            for p in self.parts
        ]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Line:
        """Rebuild from `to_json`."""
        return cls(tuple(_part_from_json(p) for p in data))


def _part_from_json(data: Any) -> Part:
    """One part of a line from `Line.to_json`."""
    if not isinstance(data, Mapping):
        return str(data)
    if "channel" in data:
        return ChannelRef(int(data["channel"]))
    if "time" in data:
        return TimeRef(int(data["time"]), str(data.get("style", "R")))
    return UserRef(int(data["user"]))


def render_lines(
    lines: Iterable[Line],
    name: UserNamer = plain_name,
    channel: ChannelNamer = plain_channel,
    time: TimeNamer = plain_time,
) -> str:
    """Lines joined by newlines, each person written by `name`, each channel by `channel`,
    each moment by `time`."""
    return "\n".join(line.render(name, channel, time) for line in lines)


def named_users(lines: Iterable[Line]) -> tuple[int, ...]:
    """Everyone the lines name, each once, in order of first appearance."""
    return tuple(dict.fromkeys(u for line in lines for u in line.users))


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


class ImageJson(TypedDict):
    """An image request as an outbox payload stores it."""

    game_id: int
    version: int
    view: str
    company: str | None
    #: The spaces the last turn changed (absent in payloads written before pictures ringed them).
    changed: NotRequired[list[str]]


@dataclass(frozen=True, slots=True)
class ImageRequest:
    """An image to attach: a view of the committed state of a game at a version, with the
    spaces the turn that led to it changed (ringed on the map)."""

    game_id: int
    version: int
    view: str = "map"
    company: str | None = None
    changed: tuple[str, ...] = ()

    def to_json(self) -> ImageJson:
        """A JSON-able dict (stored in outbox payloads)."""
        out: ImageJson = {
            "game_id": self.game_id,
            "version": self.version,
            "view": self.view,
            "company": self.company,
        }
        if self.changed:
            out["changed"] = list(self.changed)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ImageRequest:
        """Rebuild from `to_json`."""
        changed = tuple(str(c) for c in data.get("changed", ()))
        return cls(
            int(data["game_id"]), int(data["version"]), data["view"], data.get("company"), changed
        )


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
    #: What the others did since this player's last turn (a panel opened for a decision not
    #: begun yet: `GameViews.panel(opening=True)`), one line per paragraph of each turn.
    since: tuple[Line, ...] = ()
    #: The spaces changed since then, in `since_turns` turns (ringed on the opening panel's
    #: map when more than the last turn, whose turn message rings its own).
    since_changed: tuple[str, ...] = ()
    since_turns: int = 0


class OutcomeKind(Enum):
    """What a command did. Adapters choose their reply from it, never from the wording."""

    #: A lobby was opened (public).
    CREATED = "created"
    #: Someone joined or left the lobby (public).
    JOINED = "joined"
    LEFT = "left"
    #: The game began (announced).
    STARTED = "started"
    #: Answers were recorded; the actor's turn (or run of choices) goes on.
    NOTED = "noted"
    #: The actor's turn or choice was committed and announced to whoever acts next.
    COMMITTED = "committed"
    #: The actor's turn ended the game; the final message is announced.
    GAME_OVER = "game over"
    #: The actor's turn in progress was thrown away (nothing announced).
    RESTARTED = "restarted"
    #: The actor took back their last committed turn (announced).
    UNDONE = "undone"
    #: Moderation (announced): rewound, a seat replaced or skipped, the game abandoned.
    REWOUND = "rewound"
    REPLACED = "replaced"
    SKIPPED = "skipped"
    ABANDONED = "abandoned"
    #: An exported game continues here (announced when it is still being played).
    IMPORTED = "imported"
    #: The actor's time away was set or ended (private).
    AWAY = "away"


class Spoken:
    """What says `lines` to people: an outcome, an announcement, a reminder."""

    __slots__ = ()
    lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        """The lines as plain text (logs and tests; adapters use `render`)."""
        return render_lines(self.lines)

    def render(self, name: UserNamer) -> str:
        """The lines as text, each person written by `name`."""
        return render_lines(self.lines, name)


@dataclass(frozen=True, slots=True)
class Outcome(Spoken):
    """What a command produced, as data: its kind, what happened, who to mention.

    `lines` say what happened (the adapter writes the people they name); `public` lines
    belong in the channel (the lobby), everything else is for the actor only. `announced`
    is True when the command wrote a channel announcement to the outbox (delivered by the
    OutboxSender), so the adapter must not post it a second time. `mentions` are the users a
    public reply may ping. `decision` is the actor's panel afterwards.
    """

    kind: OutcomeKind
    game_id: int
    version: int
    lines: tuple[Line, ...] = ()
    public: bool = False
    announced: bool = False
    mentions: tuple[int, ...] = ()
    decision: PanelView | None = None

    @property
    def committed(self) -> bool:
        """True when a channel announcement was written (the older name of `announced`)."""
        return self.announced


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One company's score: VP now and where they came from."""

    company: str
    user_id: int | None
    vp: int
    #: (category, VP) pairs: the score sheet's rows in its order (Start, …, Other).
    breakdown: tuple[tuple[str, int], ...]
    #: Final rank (1 = winner) once the game is over, else None.
    rank: int | None = None
    #: What plays the seat when a computer does ("AI strong", "automa expert"), else None.
    kind: str | None = None
    #: Hints its player was shown (games with hints).
    hints: int = 0


@dataclass(frozen=True, slots=True)
class ScoreView:
    """Scores of a game at its last committed state.

    During the draft there are no companies yet: `rows` is empty and `draft` tells who has
    chosen what (naming people).
    """

    game_id: int
    version: int
    over: bool
    round: int
    rows: tuple[ScoreRow, ...]
    draft: tuple[Line, ...] = ()

    def text(self, name: UserNamer = plain_name) -> str:
        """The table as text lines (or the draft so far), each person written by `name`."""
        if not self.rows:
            return render_lines(self.draft, name) or "No scores yet."
        lines = []
        for row in self.rows:
            rank = f"{row.rank}. " if row.rank is not None else ""
            # The score sheet's rows, as the sheet names them.
            parts = ", ".join(f"{category} {vp} VP" for category, vp in row.breakdown)
            kind = f" ({row.kind})" if row.kind else ""
            score = f"{rank}{company_name(row.company)}{kind}: {row.vp} VP"
            hints = f"; {row.hints} hint{'s' if row.hints != 1 else ''} used" if row.hints else ""
            lines.append(score + (f" — {parts}" if parts else "") + hints)
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
    #: When the first running clock of the game runs out (UTC ms; None without one).
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class Image:
    """A rendered image to attach, with its alt text (Discord's attachment description, at
    most 1,024 characters)."""

    filename: str
    data: bytes
    description: str = ""


class OutboxPayload(TypedDict):
    """An announcement as a commit writes it to the outbox (the `OutboxSender` renders its
    images and hands the port an `Announcement`)."""

    lines: list[list[PartJson]]
    images: list[ImageJson]
    #: What the turn did (its story's lines), for the pictures' alt text.
    last: NotRequired[list[list[PartJson]]]
    mentions: list[int]
    waiting_for: list[int]
    silent: bool
    play_button: bool
    #: What produced it (`Announcement.reason`).
    reason: str
    guild_id: int
    #: Mentioned besides `mentions`: who asked for a heads-up as the player before them begins.
    heads_up: NotRequired[list[int]]
    #: Named but not pinged: the player whose own command's reply (their panel) shows the
    #: decision; pinged after all when posted once that panel is too old to be edited
    #: (`PANEL_EDITABLE_MS` after the commit).
    told: NotRequired[list[int]]


@dataclass(frozen=True, slots=True)
class Announcement(Spoken):
    """A channel announcement as handed to the AnnouncementPort (images already rendered).

    `mentions` are the users to ping, and only they (the adapter sets its allowed mentions
    from this list): whoever must act next, or every player in the final message. Other
    people the lines name are shown but not pinged. `waiting_for` are the users who must act
    next, whether pinged now or (in their quiet hours) later by a reminder.
    """

    outbox_id: int
    game_id: int
    version: int
    channel_id: int
    lines: tuple[Line, ...]
    images: tuple[Image, ...] = ()
    mentions: tuple[int, ...] = ()
    waiting_for: tuple[int, ...] = ()
    silent: bool = False
    #: The message of the previous announcement of this game, whose buttons to strip.
    previous_message_id: int | None = None
    #: Attach the "Play your turn" button (False once the game is over or abandoned).
    play_button: bool = True
    #: What produced it: "start", "turn", "choice", "undo", "rewind", "replace", "skip",
    #: "abandon", "end", "import".
    reason: str = "turn"
    #: Among `mentions`: who is told they are next, as the player before them begins.
    heads_up: tuple[int, ...] = ()

    @property
    def mention_user_id(self) -> int | None:
        """The first user to ping, if any (older single-mention callers)."""
        return self.mentions[0] if self.mentions else None


@dataclass(frozen=True, slots=True)
class ReminderNotice(Spoken):
    """A reminder to deliver: ping `user_id` in the game's channel (and by DM if opted in)."""

    game_id: int
    guild_id: int
    channel_id: int
    user_id: int
    #: What to say (it names the player; only they are pinged).
    lines: tuple[Line, ...]
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


# -- records and statistics (bot/service/stats.py) -------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a table of records: a player, a company or an officer."""

    #: The user id of a player, or the id of a company or officer.
    key: int | str
    #: What players read: a company's or officer's name ("" for a player, named by `user`).
    name: str
    games: int
    wins: int
    win_rate: float
    mean_vp: float
    best: int
    #: Place on the players' leaderboard (None: fewer games than its minimum, or not a player).
    place: int | None = None
    #: How many times each final rank was reached ({1: wins, 2: ...}).
    ranks: Mapping[int, int] = field(default_factory=dict)
    #: A player's rating as shown (bot/service/ratings.py), None when unrated or not a player.
    rating: int | None = None
    #: The rated games it counts (None: not a player's line, so no rating is told).
    rated_games: int | None = None

    @property
    def user(self) -> UserRef | None:
        """The player, for a player's line."""
        return UserRef(self.key) if isinstance(self.key, int) else None

    @property
    def rating_text(self) -> str:
        """'212', '−13' or 'unrated' ('' when not a player's line)."""
        if self.rated_games is None:
            return ""
        return "unrated" if self.rating is None else number(self.rating)

    def parts(self) -> tuple[Part, ...]:
        """'@anna: rating 212, 12 games, 7 wins (58%), mean 81.5 VP, best 112'."""
        who: Part = self.user or self.name
        if self.rated_games is None:
            rating = ""
        elif self.rating is None:
            rating = "unrated, "
        else:
            rating = f"rating {number(self.rating)}, "
        return (
            who,
            f": {rating}{plural(self.games, 'game')}, {plural(self.wins, 'win')} "
            f"({percent(self.win_rate)}), mean {self.mean_vp:.1f} VP, best {self.best}",
        )


def number(value: int) -> str:
    """A whole number as players read it, negative with a minus sign: '212', '−13'."""
    return f"−{-value}" if value < 0 else str(value)


def plural(count: int, word: str) -> str:
    """'1 game', '2 games'."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def percent(rate: float) -> str:
    """A rate (0 to 1) as a whole percentage: '58%'."""
    return f"{round(rate * 100)}%"


#: What a rating is, told under the leaderboard.
RATING_NOTE = (
    "Rating: OpenSkill's cautious estimate of skill (μ − 3σ, ×10) over every rated game "
    "here, whatever the filter; a newcomer starts at 0."
)


@dataclass(frozen=True, slots=True)
class StatsView:
    """A server's statistics: its games, the players' leaderboard, companies and officers."""

    guild_id: int
    filters: StatsFilter
    #: What the statistics count, in words ("all finished games", "3 players, full setup").
    scope: str
    counts: GameCounts
    #: Finished games that match the filters.
    matched: int
    #: Games a player needs to be ranked.
    min_games: int
    #: Ranked players, best first (rating, then win rate, wins and mean VP).
    players: tuple[Standing, ...]
    #: Players with fewer games than `min_games`, most games first.
    unranked: tuple[Standing, ...]
    companies: tuple[Standing, ...]
    officers: tuple[Standing, ...]

    @property
    def users(self) -> tuple[int, ...]:
        """Every player the statistics name."""
        return tuple(int(s.key) for s in (*self.players, *self.unranked))

    def lines(self, top: int = 10) -> tuple[Line, ...]:
        """The statistics as text: counts, the top of the leaderboard, companies, officers."""
        c = self.counts
        out = [
            Line.of(
                f"📊 {plural(c.played, 'game')} played here: {c.finished} finished, "
                f"{c.active} in progress, {c.abandoned} abandoned."
            )
        ]
        if not self.filters.any:
            out.append(Line.of(f"Counting {self.scope}: {plural(self.matched, 'finished game')}."))
        if not self.matched:
            out.append(Line.of("No finished game to count yet."))
            return tuple(out)
        out.append(
            Line.of(f"🏆 Leaderboard by rating (at least {plural(self.min_games, 'game')}):")
        )
        if not self.players:
            out.append(Line.of("• Nobody has played enough games yet."))
        for s in self.players[:top]:
            out.append(Line.of(f"{s.place}. ", *s.parts()))
        if len(self.players) > top:
            out.append(Line.of(f"… and {len(self.players) - top} more ranked"))
        if self.players:
            out.append(Line.of(RATING_NOTE))
        if self.unranked:
            out.append(
                Line.of(
                    f"Not ranked yet (fewer than {plural(self.min_games, 'game')}): "
                    f"{plural(len(self.unranked), 'player')}."
                )
            )
        for title, table in (("🏭 Companies", self.companies), ("👔 Officers", self.officers)):
            out.append(Line.of(f"{title}:"))
            out.extend(
                Line.of(
                    f"• {s.name}: {percent(s.win_rate)} wins, mean {s.mean_vp:.1f} VP "
                    f"({plural(s.games, 'game')})"
                )
                for s in table
            )
        return tuple(out)


@dataclass(frozen=True, slots=True)
class PlayerStatsView:
    """One player's record in a server: totals, companies, officers and recent games."""

    guild_id: int
    user_id: int
    filters: StatsFilter
    scope: str
    #: The player's totals (None: no finished game counted).
    record: Standing | None
    companies: tuple[Standing, ...]
    officers: tuple[Standing, ...]
    #: The newest finished games they played, newest first.
    recent: tuple[FinishedGame, ...]

    def lines(self) -> tuple[Line, ...]:
        """The record as text."""
        who = UserRef(self.user_id)
        if self.record is None:
            where = "" if self.filters.any else f" ({self.scope})"
            return (Line.of(who, f" has no finished game in this server yet{where}."),)
        r = self.record
        ranks = ", ".join(f"{ordinal(rank)} ×{n}" for rank, n in sorted(r.ranks.items()))
        out = [
            Line.of("📇 ", *r.parts(), "."),
            Line.of(f"Places: {ranks}."),
        ]
        if not self.filters.any:
            out.insert(1, Line.of(f"Counting {self.scope}."))
        for title, table in (("Companies", self.companies), ("Officers", self.officers)):
            out.append(
                Line.of(
                    f"{title}: "
                    + "; ".join(
                        f"{s.name} {s.wins}/{s.games} won, mean {s.mean_vp:.1f} VP" for s in table
                    )
                )
            )
        if self.recent:
            out.append(Line.of("Recent games:"))
            out.extend(game_line(g, self.user_id) for g in self.recent)
        return tuple(out)


def ordinal(n: int) -> str:
    """1 → '1st', 2 → '2nd', 11 → '11th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def game_line(game: FinishedGame, user_id: int | None = None) -> Line:
    """A finished game in one line: number, date, and each seat's place, player, company, VP.

    With `user_id`, the line starts with that player's place.
    """
    day = datetime.fromtimestamp(game.ended_at / 1000, UTC).strftime("%-d %b %Y")
    parts: list[Part] = [f"• #{game.number} ({day}): "]
    seats = sorted(game.result.seats, key=lambda s: (s.rank, -s.vp, s.seat))
    for i, seat in enumerate(seats):
        if i:
            parts.append(", ")
        parts.append("🏆 " if seat.rank == 1 else f"{ordinal(seat.rank)} ")
        parts.append("Automa" if seat.user_id is None else UserRef(seat.user_id))
        parts.append(f" ({company_name(seat.company)}) {seat.vp}")
    return Line.of(*parts)


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a server's finished games, newest first."""

    guild_id: int
    page: int
    pages: int
    total: int
    games: tuple[FinishedGame, ...]
    scope: str

    def lines(self) -> tuple[Line, ...]:
        """The page as text."""
        if not self.total:
            return (Line.of(f"No finished games here yet ({self.scope})."),)
        head = f"📜 Finished games ({self.scope}), newest first — page {self.page} of {self.pages}:"
        return (Line.of(head), *(game_line(g) for g in self.games))


@dataclass(frozen=True, slots=True)
class BackfillReport:
    """What the start-up backfill of results did."""

    #: Finished games whose results were written now.
    written: int = 0
    #: Finished games skipped because their log no longer replays (or cannot be loaded).
    skipped: int = 0
    #: Finished games another process gave results to meanwhile.
    already: int = 0


__all__ = [
    "SCORE_SHEET",
    "VIEWS",
    "Actor",
    "Announcement",
    "BackfillReport",
    "ChannelNamer",
    "ChannelRef",
    "GameSummary",
    "HistoryPage",
    "Image",
    "ImageRequest",
    "Line",
    "OptionView",
    "OutboxPayload",
    "Outcome",
    "OutcomeKind",
    "PanelView",
    "PlayerStatsView",
    "ReminderNotice",
    "ScoreRow",
    "ScoreView",
    "ServiceConfig",
    "Standing",
    "StatsView",
    "UserNamer",
    "UserRef",
    "game_line",
    "named_users",
    "plain_channel",
    "plain_name",
    "render_lines",
]
