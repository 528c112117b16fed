"""The log's record kinds and the one validator every log passes, stored or imported.

Record kinds the service writes (the engine reads only `decision`), each a typed value below
(`LogRecord`):

- administrative, never reverted: `join` / `leave` {"user"} (the lobby; the creator is in it
  from creation), `automa_add` {"by", "level"} / `automa_remove` {"by"} (an automa company
  joins or leaves the lobby; the game's options may already hold some: `automa`, their
  levels), `ai_add` {"by", "level"} / `ai_remove` {"by"} (an AI player joins or leaves the
  lobby: `ai` in the options, level names), `start` {"seats": [user ids][, "ai": [levels]]
  [, "automa": [levels]]} (the lobby in join order; the AI players take the seats after the
  people, the automas the last ones), `ai_seat` {"seat", "level", "by"} (the AI plays a
  person's seat from now on: a moderator's replacement), `ai_release` {"seat", "user"} (its
  person takes the seat back), `hint` {"seat", "at"} (the seat's player was shown a hint for
  the decision pending once the turn chain ended at record `at`: counted after a restart),
  `replace` {"seat", "old", "new"}, `skip` {"seat"}, `abandon` {"by"} or {"reason"} (the last record
  of a game; a reason alone when the bot ended it because its channel or thread is gone),
  `flag` {"reason", "base"} (the log stopped replaying; the game continues from the snapshot
  at or before version `base`), `expiry` {"seat", "policy"[, "hold"]} (the seat's time ran
  out, bot/service/clock.py; `hold`: the AI keeps the seat from now on);
- on the turn chain (reverts apply): `decision` {"notation", "player", "user"[, "auto"][, "hint"]} and
  `commit` {"reason", "player", "user", "undoable"[, "automa"][, "computer"]} — a
  committed-turn boundary (`computer`: a computer seat's step, landed by the service); in a
  clocked game a decision carries its time `at` and a commit its `clock` {"at", "bank",
  "away"} (each person's bank and days away used, in ms, by seat);
- `revert` {"to": N}: back to the commit (or flag) at version N.

`scan` checks every record of a log — its kind, the types and ranges of its fields, and that
it fits the game as the records before it left it (a seat that exists, the user who sits
there, a lobby that is still open) — and returns the game's lobby, seats and effective turn
chain. A record that fails raises `BrokenLog` naming it. Loading (bot/service/loading.py)
then replays the chain; importing runs exactly the same code, so a file is accepted only if
the game it holds loads as it will once stored. A new record kind must be declared here.

Decisions and commits that a later revert dropped are checked for their shape only: they
were taken back and are never replayed, so whether their move was legal then no longer
matters to the game (replaying every dropped branch would cost a saved state per commit).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, TypeGuard

from bot.ai import LEVELS as AI_LEVELS
from bot.rules import GameOptions, SetupError
from bot.rules.content import load_content
from bot.rules.setup import check_options
from bot.service.clock import CLOCKS, HOLD_LEVEL, POLICIES
from bot.store import Game as StoredGame
from bot.store import LogEntry

INT64_MAX = 2**63 - 1
MAX_PLAYERS = 4
MAX_AUTOMAS = 3
MAX_LEVEL = 3  # automa levels: 0 easy .. 3 expert
#: AI players in a game at most (4 only when every seat is a computer's: the console).
MAX_AIS = 4
#: Longest name of a local player kept with a game (the console's `--names`).
MAX_NAME = 100
#: Longest notation a record may hold (the longest real one is under 100 characters).
MAX_NOTATION = 300
#: Longest free text (a commit's reason, a flag's reason, an automatic answer's note).
MAX_TEXT = 500
CHAIN_KINDS = frozenset({"decision", "commit"})


# -- the record kinds: typed values; `to_json` is the stored form, `scan` reads it back ----


@dataclass(frozen=True, slots=True)
class Record:
    """A record of a game's log, as the service holds it (never a dict past the store).

    `to_json` writes the stored form: "kind", then the fields in order, leaving out the
    `OPTIONAL` ones when they are empty (None, False, no items) — byte for byte what the
    service has always stored, so stored games load and their hashes stay.
    """

    kind: ClassVar[str]
    #: Fields the stored form leaves out when they are empty.
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def to_json(self) -> dict[str, Any]:
        """The stored form (a JSON object)."""
        out: dict[str, Any] = {"kind": self.kind}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if spec.name in self.OPTIONAL and not value:
                continue
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, ClockRecord):
                value = value.to_json()
            out[spec.name] = value
        return out


@dataclass(frozen=True, slots=True)
class JoinRecord(Record):
    """A user joined the lobby."""

    kind: ClassVar[str] = "join"
    user: int


@dataclass(frozen=True, slots=True)
class LeaveRecord(Record):
    """A user left the lobby."""

    kind: ClassVar[str] = "leave"
    user: int


@dataclass(frozen=True, slots=True)
class AutomaAddRecord(Record):
    """An automa company of `level` joined the lobby (added by `by`)."""

    kind: ClassVar[str] = "automa_add"
    by: int
    level: int


@dataclass(frozen=True, slots=True)
class AutomaRemoveRecord(Record):
    """The lobby's last automa left (taken out by `by`)."""

    kind: ClassVar[str] = "automa_remove"
    by: int


@dataclass(frozen=True, slots=True)
class AiAddRecord(Record):
    """An AI player of `level` joined the lobby (added by `by`)."""

    kind: ClassVar[str] = "ai_add"
    by: int
    level: str


@dataclass(frozen=True, slots=True)
class AiRemoveRecord(Record):
    """The lobby's last AI player left (taken out by `by`)."""

    kind: ClassVar[str] = "ai_remove"
    by: int


@dataclass(frozen=True, slots=True)
class StartRecord(Record):
    """The game began: the lobby's users, in join order, take the seats; the AI players (their
    levels) the seats after them, the automas (their levels) the last seats."""

    kind: ClassVar[str] = "start"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"ai", "automa"})
    seats: tuple[int, ...]
    ai: tuple[str, ...] = ()
    automa: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AiSeatRecord(Record):
    """The AI (at `level`) plays a person's seat from now on (a moderator's `by` choice)."""

    kind: ClassVar[str] = "ai_seat"
    seat: int
    level: str
    by: int


@dataclass(frozen=True, slots=True)
class AiReleaseRecord(Record):
    """The seat's person (`user`) takes their seat back from the AI."""

    kind: ClassVar[str] = "ai_release"
    seat: int
    user: int


@dataclass(frozen=True, slots=True)
class HintRecord(Record):
    """The seat's player was shown a hint for the decision pending when the turn chain's last
    record was `at` (0: none yet); one per seat and decision."""

    kind: ClassVar[str] = "hint"
    seat: int
    at: int


@dataclass(frozen=True, slots=True)
class ReplaceRecord(Record):
    """Another user takes over a seat."""

    kind: ClassVar[str] = "replace"
    seat: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class SkipRecord(Record):
    """A vanished seat passes every turn from now on."""

    kind: ClassVar[str] = "skip"
    seat: int


@dataclass(frozen=True, slots=True)
class AbandonRecord(Record):
    """The game was abandoned (the last record of a game): by a member (`by`), or by the
    bot because Discord no longer has the game's channel or thread (`reason`)."""

    kind: ClassVar[str] = "abandon"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"by", "reason"})
    by: int | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class FlagRecord(Record):
    """The log stopped replaying; the game continues from the snapshot at or before `base`."""

    kind: ClassVar[str] = "flag"
    reason: str
    base: int


@dataclass(frozen=True, slots=True)
class DecisionRecord(Record):
    """One answer: a notation, by the engine player whose decision it was.

    `user` is who gave it (None: the service, for nobody); `auto` says why the service
    answered on the player's behalf (bot/service/turns.py)."""

    kind: ClassVar[str] = "decision"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"auto", "hint", "at"})
    notation: str
    player: str
    user: int | None
    auto: str | None = None
    #: True when its player was shown a hint for this decision before answering.
    hint: bool = False
    #: When it was given (UTC ms; clocked games only).
    at: int | None = None


@dataclass(frozen=True, slots=True)
class ClockRecord:
    """The turn clock at a commit (bot/service/clock.py): when, and by people's seat each
    one's bank and time away used so far (ms). Stored inside its commit record."""

    at: int
    bank: tuple[int, ...]
    away: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The stored form (a JSON object)."""
        return {"at": self.at, "bank": list(self.bank), "away": list(self.away)}


class Cause(StrEnum):
    """Why a commit was written: the `reason` its record stores (these very words)."""

    START = "start"
    #: A person's turn ended by their Confirm (the only commit its player may undo).
    TURN = "turn"
    #: Any other step: a draft pick, income choices, a computer's or skipped seat's step.
    CHOICE = "choice"
    END = "end"
    UNDO = "undo"
    REWIND = "rewind"
    SKIP = "skip"
    AI_SEAT = "ai seat"
    IMPORT = "import"


@dataclass(frozen=True, slots=True)
class CommitRecord(Record):
    """A committed-turn boundary: why (a `Cause`'s word; older logs may hold other words),
    by whom, and whether its player may still undo it."""

    kind: ClassVar[str] = "commit"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"automa", "computer", "clock"})
    reason: str
    player: str | None
    user: int | None
    undoable: bool
    #: True when an automa played in the step (its cards were turned up).
    automa: bool = False
    #: True when the service landed a computer seat's step (an AI's turn or choice).
    computer: bool = False
    #: The turn clock after it (clocked games).
    clock: ClockRecord | None = None

    @property
    def own_turn(self) -> bool:
        """A person's turn ended by their own Confirm (what undo may take back)."""
        return self.reason == Cause.TURN


@dataclass(frozen=True, slots=True)
class ExpiryRecord(Record):
    """A seat's time ran out and the game's policy answered (`hold`: the AI keeps it)."""

    kind: ClassVar[str] = "expiry"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"hold"})
    seat: int
    policy: str
    hold: bool = False


@dataclass(frozen=True, slots=True)
class RevertRecord(Record):
    """Back to the commit (or flag) at version `to`."""

    kind: ClassVar[str] = "revert"
    to: int


#: Any record of a game's log.
LogRecord = (
    JoinRecord
    | LeaveRecord
    | AutomaAddRecord
    | AutomaRemoveRecord
    | AiAddRecord
    | AiRemoveRecord
    | AiSeatRecord
    | AiReleaseRecord
    | HintRecord
    | StartRecord
    | ReplaceRecord
    | SkipRecord
    | ExpiryRecord
    | AbandonRecord
    | FlagRecord
    | DecisionRecord
    | CommitRecord
    | RevertRecord
)
#: A record on the turn chain (reverts apply to these).
ChainRecord = DecisionRecord | CommitRecord


class BrokenLog(ValueError):
    """A log that cannot be loaded; the message names the first bad record and why."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq


@dataclass
class Scanned:
    """What the records say before any move is replayed."""

    lobby: list[int]
    #: The automa companies' levels (in the lobby, then seated last).
    automa: list[int] = field(default_factory=list)
    #: The AI players' levels (in the lobby, then seated after the people).
    ai: list[str] = field(default_factory=list)
    #: People's seats the AI plays now: seat -> (level, seq of the `ai_seat` record).
    pilots: dict[int, tuple[str, int]] = field(default_factory=dict)
    #: Every stint of the AI at a person's seat: (seat, level, from seq, to seq or None).
    stints: list[tuple[int, str, int, int | None]] = field(default_factory=list)
    started: bool = False
    seats: list[int] = field(default_factory=list)
    skipped: set[int] = field(default_factory=set)
    abandoned: bool = False
    #: Effective (seq, record) of kinds decision/commit, in order.
    chain: list[tuple[int, ChainRecord]] = field(default_factory=list)
    #: The last flag record and its seq (None: the log replays from the start).
    flag: FlagRecord | None = None
    flag_seq: int = 0
    #: (seat, turn chain's last seq) of every decision a hint was shown for.
    hints: set[tuple[int, int]] = field(default_factory=set)
    #: (seq, seats) each time the seating changed: who sat where when a decision was made.
    seatings: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    #: Each seat's expiries in a row (since its person last answered themselves).
    expiries: dict[int, int] = field(default_factory=dict)
    #: The seq of each seat's last expiry record.
    last_expiry: dict[int, int] = field(default_factory=dict)

    def seats_at(self, seq: int) -> tuple[int, ...]:
        """The seating in force when record `seq` was written."""
        current: tuple[int, ...] = ()
        for since, seats in self.seatings:
            if since > seq:
                break
            current = seats
        return current


def show(value: Any) -> str:
    """A short description of a value for a message: '7', "'x'", 'a list', 'nothing'."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= 24 else f"a {len(text)}-digit number"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, float):
        return repr(value)
    names: dict[type, str] = {list: "a list", dict: "an object"}
    return names.get(type(value), f"a {type(value).__name__}")


def is_int(value: object) -> TypeGuard[int]:
    """An integer that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


#: Why the bot ended a game (the `reason` of its abandon record): Discord deleted its channel,
#: deleted its thread, or answered a post there with Unknown Channel.
CHANNEL_DELETED = "channel deleted"
THREAD_DELETED = "thread deleted"
CHANNEL_UNKNOWN = "channel unknown to Discord"


def ended_for_lost_channel(record: Mapping[str, Any]) -> bool:
    """Whether a record is the bot's abandonment of a game whose channel or thread is gone
    (no member abandoned it: its players may take it on elsewhere)."""
    return record.get("kind") == "abandon" and "by" not in record and "reason" in record


def check_options_of(meta: StoredGame) -> None:
    """The stored options of a game describe one the engine can set up (BrokenLog if not)."""
    opts = meta.options
    if not isinstance(opts, Mapping):
        raise BrokenLog(f"the game's options are {show(opts)}, not an object")
    players = opts.get("players", MAX_PLAYERS)
    if not is_int(players) or not 2 <= players <= MAX_PLAYERS:
        raise BrokenLog(f"the game's 'players' is {show(players)}; a game has 2 to 4 players")
    for key, default in (("setup", "intro"), ("map", "base")):
        value = opts.get(key, default)
        if not isinstance(value, str) or not value or len(value) > 40:
            raise BrokenLog(f"the game's '{key}' is {show(value)}, not a name")
    expansions = opts.get("expansions", [])
    if not isinstance(expansions, list) or not all(
        isinstance(e, str) and 0 < len(e) <= 40 for e in expansions
    ):
        raise BrokenLog(f"the game's 'expansions' is {show(expansions)}, not a list of names")
    if len(set(expansions)) != len(expansions):
        raise BrokenLog("the game's 'expansions' names an expansion twice")
    for key, allowed in (("clock", tuple(CLOCKS)), ("timeout", POLICIES)):
        if opts.get(key) is not None and opts.get(key) not in allowed:
            raise BrokenLog(
                f"the game's '{key}' is {show(opts.get(key))}, not one of {', '.join(allowed)}"
            )
    hours = opts.get("reminder_hours")
    if hours is not None and (not is_int(hours) or not 0 < hours <= 24 * 365):
        raise BrokenLog(f"the game's 'reminder_hours' is {show(hours)}, not a number of hours")
    automa = opts.get("automa", [])
    if (
        not isinstance(automa, list)
        or len(automa) > MAX_AUTOMAS
        or not all(is_int(level) and 0 <= level <= MAX_LEVEL for level in automa)
    ):
        raise BrokenLog(
            f"the game's 'automa' is {show(automa)}, not a list of at most {MAX_AUTOMAS} levels"
        )
    ai = opts.get("ai", [])
    if (
        not isinstance(ai, list)
        or len(ai) > MAX_AIS
        or not all(isinstance(level, str) and level in AI_LEVELS for level in ai)
    ):
        raise BrokenLog(f"the game's 'ai' is {show(ai)}, not a list of at most {MAX_AIS} AI levels")
    computers_only = opts.get("computers_only", False)
    for key in ("hints", "computers_only"):
        if not isinstance(opts.get(key, False), bool):
            raise BrokenLog(f"the game's '{key}' is {show(opts.get(key))}, not true or false")
    ai_seed = opts.get("ai_seed", 0)
    if not is_int(ai_seed) or not 0 <= ai_seed <= INT64_MAX:
        raise BrokenLog(f"the game's 'ai_seed' is {show(ai_seed)}, not a seed")
    if len(automa) + len(ai) > players or (len(automa) + len(ai) == players and not computers_only):
        raise BrokenLog("the game's automas and AI players leave no seat for a person")
    names = opts.get("names", [])
    if (
        not isinstance(names, list)
        or len(names) > MAX_PLAYERS
        or not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names)
    ):
        raise BrokenLog(f"the game's 'names' is {show(names)}, not a list of players' names")
    if not is_int(meta.seed):
        raise BrokenLog(f"the game's seed is {show(meta.seed)}, not a number")
    try:
        check_options(
            GameOptions(
                players=players,
                setup=opts.get("setup", "intro"),
                map=opts.get("map", "base"),
                expansions=tuple(expansions),
                automa=tuple(automa),
            ),
            load_content(),
        )
    except SetupError as exc:
        raise BrokenLog(f"the game's options cannot be set up: {exc}") from None


class _Scanner:
    """One pass over a log, record by record."""

    def __init__(self, meta: StoredGame) -> None:
        self.meta = meta
        self.size = int(meta.options.get("players", MAX_PLAYERS))
        creator = [] if meta.options.get("computers_only") else [meta.creator_id]
        self.out = Scanned(
            lobby=creator,
            automa=list(meta.options.get("automa", [])),
            ai=list(meta.options.get("ai", [])),
        )
        # Persistent list: nodes[v] is the turn chain right after version v.
        self.nodes: list[Any] = [None]
        #: Versions a revert may go back to: commits and flags.
        self.marks: set[int] = set()
        #: Each kind's check; those on the turn chain return the record, typed and complete.
        self.checks: dict[str, Callable[[int, Mapping[str, Any]], ChainRecord | None]] = {
            "join": self.join,
            "leave": self.leave,
            "automa_add": self.automa_add,
            "automa_remove": self.automa_remove,
            "ai_add": self.ai_add,
            "ai_remove": self.ai_remove,
            "ai_seat": self.ai_seat,
            "ai_release": self.ai_release,
            "hint": self.hint,
            "start": self.start,
            "replace": self.replace,
            "skip": self.skip,
            "expiry": self.expiry,
            "abandon": self.abandon,
            "flag": self.flag,
            "decision": self.decision,
            "commit": self.commit,
            "revert": self.revert,
        }

    def run(self, entries: Sequence[LogEntry]) -> Scanned:
        for expected, entry in enumerate(entries, 1):
            seq = entry.seq
            if seq != expected:
                raise BrokenLog(f"record {expected} is missing (the next one is {seq})", expected)
            rec = entry.record
            if not isinstance(rec, Mapping):
                raise BrokenLog(f"record {seq} is {show(rec)}, not an object", seq)
            kind = rec.get("kind")
            check = self.checks.get(kind) if isinstance(kind, str) else None
            if check is None:
                known = ", ".join(sorted(self.checks))
                raise BrokenLog(f"record {seq} has the unknown kind {show(kind)} ({known})", seq)
            if self.out.abandoned:
                raise BrokenLog(f"record {seq} ({kind}) comes after the game was abandoned", seq)
            typed = check(seq, rec)
            if typed is not None:
                self.nodes.append((seq, typed, self.nodes[-1]))
            elif kind == "revert":
                self.nodes.append(self.nodes[rec["to"]])
            else:
                self.nodes.append(self.nodes[-1])
        chain: list[tuple[int, ChainRecord]] = []
        node = self.nodes[-1]
        while node is not None:
            chain.append((node[0], node[1]))
            node = node[2]
        chain.reverse()
        self.out.chain = chain
        return self.out

    # -- field checks ------------------------------------------------------------------

    @staticmethod
    def fail(seq: int, rec: Mapping[str, Any], why: str) -> BrokenLog:
        return BrokenLog(f"record {seq} ({rec.get('kind')}): {why}", seq)

    def user(self, seq: int, rec: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
        value = rec.get(key)
        if value is None and optional:
            return None
        if not is_int(value) or not 0 < value <= INT64_MAX:
            raise self.fail(seq, rec, f"'{key}' is {show(value)}, not a Discord user id")
        return value

    def text(self, seq: int, rec: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
        value = rec.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
            raise self.fail(seq, rec, f"'{key}' is {show(value)}, not a short text")
        return value

    def seat(self, seq: int, rec: Mapping[str, Any]) -> int:
        value = rec.get("seat")
        seats = len(self.out.seats)
        if not is_int(value) or not 0 <= value < seats:
            raise self.fail(
                seq, rec, f"'seat' is {show(value)}; this game has seats 0 to {seats - 1}"
            )
        return value

    def started(self, seq: int, rec: Mapping[str, Any]) -> None:
        if not self.out.started:
            raise self.fail(seq, rec, "the game has not started yet")

    def lobby_open(self, seq: int, rec: Mapping[str, Any]) -> None:
        if self.out.started:
            raise self.fail(seq, rec, "the game has already started")

    def seated(self, seq: int) -> None:
        self.out.seatings.append((seq, tuple(self.out.seats)))

    # -- kinds -------------------------------------------------------------------------

    def join(self, seq: int, rec: Mapping[str, Any]) -> None:
        user = self.user(seq, rec, "user")
        self.lobby_open(seq, rec)
        if user in self.out.lobby:
            raise self.fail(seq, rec, f"user {user} has already joined")
        if self.taken() >= self.size:
            raise self.fail(seq, rec, f"the lobby is full ({self.size} players)")
        self.out.lobby.append(user)

    def computer_joins(
        self, seq: int, rec: Mapping[str, Any], seated: Sequence[object], most: int, noun: str
    ) -> None:
        """The checks of a computer (automa or AI player) joining the lobby."""
        self.user(seq, rec, "by")
        self.lobby_open(seq, rec)
        if len(seated) >= most:
            raise self.fail(seq, rec, f"a game has at most {most} {noun}s")
        if self.taken() >= self.size:
            raise self.fail(seq, rec, f"the lobby is full ({self.size} players)")

    def computer_leaves(
        self, seq: int, rec: Mapping[str, Any], seated: list[Any], noun: str
    ) -> None:
        """The lobby's last computer of a kind leaves."""
        self.user(seq, rec, "by")
        self.lobby_open(seq, rec)
        if not seated:
            raise self.fail(seq, rec, f"there is no {noun} to remove")
        seated.pop()

    def automa_add(self, seq: int, rec: Mapping[str, Any]) -> None:
        level = rec.get("level")
        if not is_int(level) or not 0 <= level <= MAX_LEVEL:
            raise self.fail(seq, rec, f"'level' is {show(level)}, not 0 to {MAX_LEVEL}")
        self.computer_joins(seq, rec, self.out.automa, MAX_AUTOMAS, "automa")
        opts = self.meta.options
        try:
            check_options(
                GameOptions(
                    players=self.size,
                    setup=opts.get("setup", "intro"),
                    map=opts.get("map", "base"),
                    expansions=tuple(opts.get("expansions", ())),
                    automa=(*self.out.automa, level),
                ),
                load_content(),
            )
        except SetupError as exc:
            raise self.fail(seq, rec, f"this game cannot have an automa: {exc}") from None
        self.out.automa.append(level)

    def automa_remove(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.computer_leaves(seq, rec, self.out.automa, "automa")

    def taken(self) -> int:
        """Seats taken in the lobby: people, AI players and automas."""
        return len(self.out.lobby) + len(self.out.automa) + len(self.out.ai)

    def ai_level(self, seq: int, rec: Mapping[str, Any]) -> str:
        level = rec.get("level")
        if not isinstance(level, str) or level not in AI_LEVELS:
            raise self.fail(
                seq, rec, f"'level' is {show(level)}, not one of {', '.join(AI_LEVELS)}"
            )
        return level

    def ai_add(self, seq: int, rec: Mapping[str, Any]) -> None:
        level = self.ai_level(seq, rec)
        self.computer_joins(seq, rec, self.out.ai, MAX_AIS, "AI player")
        self.out.ai.append(level)

    def ai_remove(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.computer_leaves(seq, rec, self.out.ai, "AI player")

    def ai_seat(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        self.user(seq, rec, "by")
        seat = self.seat(seq, rec)
        level = self.ai_level(seq, rec)
        if seat in self.out.pilots:
            raise self.fail(seq, rec, f"the AI already plays seat {seat}")
        self.out.pilots[seat] = (level, seq)
        self.out.skipped.discard(seat)
        self.out.stints.append((seat, level, seq, None))

    def ai_release(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        seat = self.seat(seq, rec)
        user = self.user(seq, rec, "user")
        if seat not in self.out.pilots:
            raise self.fail(seq, rec, f"the AI does not play seat {seat}")
        if self.out.seats[seat] != user:
            raise self.fail(seq, rec, f"user {user} does not sit at seat {seat}")
        self.end_stint(seat, seq)

    def hint(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        seat = self.seat(seq, rec)
        at = rec.get("at")
        tip = max(self.nodes[-1][0] if self.nodes[-1] is not None else 0, self.out.flag_seq)
        if at != tip:
            raise self.fail(seq, rec, f"'at' is {show(at)}, not the turn chain's last record {tip}")
        if (seat, tip) in self.out.hints:
            raise self.fail(seq, rec, f"seat {seat} was already shown a hint for this decision")
        self.out.hints.add((seat, tip))

    def end_stint(self, seat: int, seq: int) -> None:
        """The AI stops playing `seat` (if it did) at record `seq`."""
        if self.out.pilots.pop(seat, None) is None:
            return
        self.out.stints = [
            (s, level, since, seq if s == seat and until is None else until)
            for s, level, since, until in self.out.stints
        ]

    def leave(self, seq: int, rec: Mapping[str, Any]) -> None:
        user = self.user(seq, rec, "user")
        self.lobby_open(seq, rec)
        if user not in self.out.lobby:
            raise self.fail(seq, rec, f"user {user} is not in the lobby")
        if user == self.meta.creator_id:
            raise self.fail(seq, rec, "the creator cannot leave the lobby")
        self.out.lobby.remove(user)

    def start(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.lobby_open(seq, rec)
        seats = rec.get("seats")
        if not isinstance(seats, list):
            raise self.fail(seq, rec, f"'seats' is {show(seats)}, not a list of user ids")
        if seats != self.out.lobby:
            raise self.fail(seq, rec, "'seats' are not the players who joined, in join order")
        if rec.get("automa", []) != self.out.automa:
            raise self.fail(seq, rec, "'automa' are not the automas of the lobby")
        if rec.get("ai", []) != self.out.ai:
            raise self.fail(seq, rec, "'ai' are not the AI players of the lobby")
        if len(seats) + len(self.out.automa) + len(self.out.ai) < 2:
            raise self.fail(seq, rec, "a game starts with at least 2 players")
        self.out.started = True
        self.out.seats = list(seats)
        self.seated(seq)

    def replace(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        seat = self.seat(seq, rec)
        old, new = self.user(seq, rec, "old"), self.user(seq, rec, "new")
        if self.out.seats[seat] != old:
            raise self.fail(seq, rec, f"user {old} does not sit at seat {seat}")
        if new in self.out.seats:
            raise self.fail(seq, rec, f"user {new} already plays in this game")
        self.out.seats[seat] = new
        self.out.skipped.discard(seat)
        self.end_stint(seat, seq)
        self.seated(seq)

    def skip(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        seat = self.seat(seq, rec)
        if seat in self.out.skipped:
            raise self.fail(seq, rec, f"seat {seat} is already skipped")
        self.out.skipped.add(seat)
        self.end_stint(seat, seq)

    def expiry(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        seat = self.seat(seq, rec)
        policy = rec.get("policy")
        if policy not in POLICIES:
            raise self.fail(
                seq, rec, f"'policy' is {show(policy)}, not one of {', '.join(POLICIES)}"
            )
        hold = rec.get("hold", False)
        if not isinstance(hold, bool):
            raise self.fail(seq, rec, f"'hold' is {show(hold)}, not true or false")
        self.out.expiries[seat] = self.out.expiries.get(seat, 0) + 1
        self.out.last_expiry[seat] = seq
        if hold:
            if seat in self.out.pilots:
                raise self.fail(seq, rec, f"the AI already plays seat {seat}")
            self.out.pilots[seat] = (HOLD_LEVEL, seq)
            self.out.skipped.discard(seat)
            self.out.stints.append((seat, HOLD_LEVEL, seq, None))

    def at(self, seq: int, rec: Mapping[str, Any], key: str) -> int:
        value = rec.get(key)
        if not is_int(value) or not 0 <= value <= INT64_MAX:
            raise self.fail(seq, rec, f"'{key}' is {show(value)}, not a time")
        return value

    def clock(self, seq: int, rec: Mapping[str, Any]) -> ClockRecord:
        value = rec.get("clock")
        if not isinstance(value, Mapping):
            raise self.fail(seq, rec, f"'clock' is {show(value)}, not an object")
        people = len(self.out.seats)
        lists = {}
        for key in ("bank", "away"):
            got = value.get(key)
            if (
                not isinstance(got, list)
                or len(got) != people
                or not all(is_int(v) and 0 <= v <= INT64_MAX for v in got)
            ):
                raise self.fail(seq, rec, f"'clock.{key}' is {show(got)}, not {people} times")
            lists[key] = list(got)
        return ClockRecord(self.at(seq, value, "at"), tuple(lists["bank"]), tuple(lists["away"]))

    def abandon(self, seq: int, rec: Mapping[str, Any]) -> None:
        by = self.user(seq, rec, "by", optional=True)
        reason = self.text(seq, rec, "reason", optional=True)
        if by is None and reason is None:
            raise self.fail(seq, rec, "it names neither who abandoned the game ('by') nor why")
        self.out.abandoned = True

    def flag(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        reason = self.text(seq, rec, "reason")
        base = rec.get("base")
        if not is_int(base) or base not in self.marks:
            raise self.fail(seq, rec, f"'base' is {show(base)}, not an earlier commit")
        self.out.flag = FlagRecord(reason, base)
        self.out.flag_seq = seq
        self.marks.add(seq)

    def decision(self, seq: int, rec: Mapping[str, Any]) -> DecisionRecord:
        self.started(seq, rec)
        notation = rec.get("notation")
        if not isinstance(notation, str) or not notation.strip() or len(notation) > MAX_NOTATION:
            raise self.fail(seq, rec, f"'notation' is {show(notation)}, not a move")
        player = self.text(seq, rec, "player")
        user = self.user(seq, rec, "user", optional=True)
        auto = self.text(seq, rec, "auto", optional=True)
        hint = rec.get("hint")
        if hint is not None and not isinstance(hint, bool):
            raise self.fail(seq, rec, f"'hint' is {show(hint)}, not true or false")
        at = self.at(seq, rec, "at") if "at" in rec else None
        if user is not None and user in self.out.seats:
            self.out.expiries.pop(self.out.seats.index(user), None)
        return DecisionRecord(notation, player, user, auto, bool(hint), at)

    def commit(self, seq: int, rec: Mapping[str, Any]) -> CommitRecord:
        self.started(seq, rec)
        reason = self.text(seq, rec, "reason")
        player = self.text(seq, rec, "player", optional=True)
        user = self.user(seq, rec, "user", optional=True)
        # Older releases left out what was empty: no player or user, not undoable.
        undoable = rec.get("undoable", False)
        if not isinstance(undoable, bool):
            raise self.fail(seq, rec, f"'undoable' is {show(undoable)}, not true or false")
        automa = rec.get("automa")
        if automa is not None and not isinstance(automa, bool):
            raise self.fail(seq, rec, f"'automa' is {show(automa)}, not true or false")
        computer = rec.get("computer")
        if computer is not None and not isinstance(computer, bool):
            raise self.fail(seq, rec, f"'computer' is {show(computer)}, not true or false")
        clock = self.clock(seq, rec) if "clock" in rec else None
        self.marks.add(seq)
        return CommitRecord(
            reason=reason,
            player=player,
            user=user,
            undoable=undoable,
            automa=bool(automa),
            computer=bool(computer),
            clock=clock,
        )

    def revert(self, seq: int, rec: Mapping[str, Any]) -> None:
        self.started(seq, rec)
        target = rec.get("to")
        if not is_int(target) or target not in self.marks:
            raise self.fail(seq, rec, f"'to' is {show(target)}, not an earlier commit")


def scan(meta: StoredGame, entries: Sequence[LogEntry]) -> Scanned:
    """Check every record of a game's log; BrokenLog names the first one that is wrong."""
    check_options_of(meta)
    if not is_int(meta.creator_id) or not 0 < meta.creator_id <= INT64_MAX:
        raise BrokenLog(f"the game's creator is {show(meta.creator_id)}, not a Discord user id")
    return _Scanner(meta).run(entries)
