"""The turn clock's arithmetic, pure: allowances, banks, charged time and deadlines.

A clocked game gives each player an allowance per turn (`CLOCKS`) and a bank that starts at,
and is capped at, two turns' allowance (`BANK_TURNS`). A turn that takes longer than its
allowance draws the difference from the bank; a turn ended within its allowance returns a
quarter of one (`RETURN_SHARE`) to the bank. Time runs out when the turn has used its
allowance and the whole bank.

Only charged time counts. Not charged are the player's quiet hours, the player's time away
(up to the game's limit of days away per player: `AWAY_DAYS_LIMIT`) and the bot's own
downtime (outages: the spans during which no bot process wrote its heartbeat; see
bot/store/clocks.py). Every span is [start, end) in UTC milliseconds; everything here works
on such spans, so the same arithmetic serves the deadline shown, the reminders and the
expiry.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.service import quiet
from bot.store import UserSettings

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS

#: The clocks `/barrage new clock:` offers: each player's allowance per turn (None: no clock).
CLOCKS: dict[str, int | None] = {
    "none": None,
    "12h": 12 * HOUR_MS,
    "24h": 24 * HOUR_MS,
    "48h": 48 * HOUR_MS,
    "72h": 72 * HOUR_MS,
}
#: What happens when a player's time runs out (`/barrage new timeout:`).
POLICIES = ("wait", "ai", "skip")
DEFAULT_POLICY = "wait"
#: The bank starts at and is capped at this many turns' allowance.
BANK_TURNS = 2
#: A turn ended within its allowance returns this share of one allowance to the bank.
RETURN_SHARE = 4  # a quarter
#: Days away per player and game that stop the clock; beyond them the clock runs again.
AWAY_DAYS_LIMIT = 14
#: Days `/barrage away days:` accepts at once.
AWAY_DAYS_MAX = 14
#: Expiries in a row after which the AI holds the seat (`timeout:ai`).
HOLD_AFTER = 3
#: The AI's level when it plays for a player whose time ran out.
HOLD_LEVEL = "strong"
#: The last reminder comes this long before the expiry.
LAST_CALL_MS = HOUR_MS

Span = tuple[int, int]


def describe_rule() -> str:
    """The clock's rule in one paragraph (help and `/barrage new`)."""
    return (
        "With a clock (`clock:` 12h, 24h, 48h or 72h) each player has that long for a turn, "
        f"plus a bank that starts at {BANK_TURNS} turns' allowance and never holds more. A "
        "slow turn draws on the bank; a turn ended within its allowance puts a quarter of one "
        "back. Quiet hours, time away and time the bot could not answer are not counted. "
        "Reminders come at half the allowance, when the bank is reached and an hour before "
        "the time runs out; then the game's `timeout:` decides: `wait` (the table is told "
        "that a moderator may replace the player), `ai` (the AI plays that turn at its strong "
        f"level; after {HOLD_AFTER} in a row it keeps the seat until the player takes it back "
        "with `play`) or `skip` (the turn passes, as for a skipped seat). `/barrage away days:` stops "
        f"your clock and reminders in all your games, for at most {AWAY_DAYS_LIMIT} days per "
        "game."
    )


def clock_text(clock: str, policy: str) -> str:
    """', a 24-hour clock per turn (when time runs out: the AI plays)' for a lobby line."""
    if CLOCKS.get(clock) is None:
        return ""
    then = {"wait": "a moderator may replace", "ai": "the AI plays", "skip": "the turn passes"}
    return (
        f", a {clock[:-1]}-hour clock per turn (when time runs out: {then[policy]}; time away "
        f"stops it for at most {AWAY_DAYS_LIMIT} days per player)"
    )


@dataclass(frozen=True, slots=True)
class Terms:
    """A game's clock: the allowance per turn (ms) and the timeout policy."""

    allowance: int
    policy: str = DEFAULT_POLICY
    away_limit: int = AWAY_DAYS_LIMIT * DAY_MS

    @property
    def cap(self) -> int:
        """The bank's start and cap."""
        return BANK_TURNS * self.allowance


def terms_of(options: object) -> Terms | None:
    """The clock of a game's stored options, or None when it has none."""
    get = getattr(options, "get", None)
    if get is None:
        return None
    allowance = CLOCKS.get(str(get("clock") or "none"))
    if allowance is None:
        return None
    policy = str(get("timeout") or DEFAULT_POLICY)
    return Terms(allowance, policy if policy in POLICIES else DEFAULT_POLICY)


def settle(terms: Terms, bank: int, used: int) -> int:
    """The bank after a turn that used `used` ms of charged time."""
    if used <= terms.allowance:
        return min(terms.cap, bank + terms.allowance // RETURN_SHARE)
    return max(0, bank - (used - terms.allowance))


def merge(spans: Iterable[Span]) -> list[Span]:
    """Spans sorted, empty ones dropped, overlapping or touching ones joined."""
    out: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def overlap(spans: Sequence[Span], start: int, end: int) -> int:
    """How much of [start, end) the (merged) spans cover."""
    return sum(max(0, min(e, end) - max(s, start)) for s, e in spans)


def charged(start: int, end: int, free: Sequence[Span]) -> int:
    """Charged time from `start` to `end`: all of it but what the merged `free` spans cover."""
    if end <= start:
        return 0
    return end - start - overlap(free, start, end)


def reach(start: int, budget: int, free: Sequence[Span]) -> int:
    """The moment at which `budget` ms of charged time since `start` are used (the merged
    `free` spans do not count)."""
    at, left = start, max(0, budget)
    for s, e in free:
        if e <= at:
            continue
        if s > at:
            if s - at >= left:
                return at + left
            left -= s - at
        at = max(at, e)
    return at + left


def clip_total(spans: Sequence[Span], start: int, limit: int) -> list[Span]:
    """The first `limit` ms of the merged spans from `start` on (what of a player's time
    away the game's limit still stops the clock for)."""
    out: list[Span] = []
    left = max(0, limit)
    for s, e in spans:
        s = max(s, start)
        if e <= s or left <= 0:
            continue
        take = min(e - s, left)
        out.append((s, s + take))
        left -= take
    return out


def quiet_spans(settings: UserSettings, start: int, end: int) -> list[Span]:
    """The player's quiet hours that overlap [start, end), as UTC spans."""
    if settings.quiet_start is None or settings.quiet_end is None:
        return []
    if settings.quiet_start == settings.quiet_end or end <= start:
        return []
    tz = quiet.zone(settings.time_zone)
    first = dt.datetime.fromtimestamp(start / 1000, tz).date() - dt.timedelta(days=1)
    last = dt.datetime.fromtimestamp(end / 1000, tz).date()
    qs, qe = settings.quiet_start, settings.quiet_end
    out: list[Span] = []
    day = first
    while day <= last:
        begin = dt.datetime.combine(day, dt.time(qs // 60, qs % 60), tzinfo=tz)
        close_day = day if qs < qe else day + dt.timedelta(days=1)
        close = dt.datetime.combine(close_day, dt.time(qe // 60, qe % 60), tzinfo=tz)
        a, b = int(begin.timestamp() * 1000), int(close.timestamp() * 1000)
        if b > start and a < end:
            out.append((max(a, start), min(b, end)))
        day += dt.timedelta(days=1)
    return merge(out)


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's running clock: since when, with what bank, and what is not charged."""

    terms: Terms
    since: int
    bank: int
    #: Merged spans not charged (quiet hours, away within the limit, outages).
    free: tuple[Span, ...] = ()

    @property
    def budget(self) -> int:
        """Charged time the turn may use before the time runs out."""
        return self.terms.allowance + self.bank

    def used(self, now: int) -> int:
        """Charged time used by `now`."""
        return charged(self.since, now, self.free)

    def deadline(self) -> int:
        """When the time runs out (if nothing more is left uncharged)."""
        return reach(self.since, self.budget, self.free)

    def bank_reached(self) -> int:
        """When the allowance is used and the bank starts to be drawn on."""
        return reach(self.since, self.terms.allowance, self.free)

    def reminders(self) -> tuple[int, ...]:
        """When to remind: at half the allowance, when the bank is reached and an hour
        before the time runs out (those before the deadline, each moment once)."""
        points = [
            reach(self.since, self.terms.allowance // 2, self.free),
            self.bank_reached(),
            reach(self.since, self.budget - LAST_CALL_MS, self.free),
        ]
        end = self.deadline()
        return tuple(sorted({p for p in points if p < end}))


def turn_of(
    terms: Terms,
    since: int,
    bank: int,
    *,
    quiet_hours: Sequence[Span] = (),
    away: Sequence[Span] = (),
    away_left: int | None = None,
    outages: Sequence[Span] = (),
) -> Turn:
    """A player's turn clock: their quiet hours, their time away (the first `away_left` ms of
    it from `since`; all the game's limit when None) and the bot's outages are not charged."""
    left = terms.away_limit if away_left is None else away_left
    kept = clip_total(merge(away), since, left)
    return Turn(terms, since, bank, tuple(merge([*quiet_hours, *kept, *outages])))


def player_turn(
    terms: Terms,
    since: int,
    bank: int,
    settings: UserSettings,
    *,
    away: Sequence[Span] = (),
    away_left: int | None = None,
    outages: Sequence[Span] = (),
) -> Turn:
    """`turn_of` with the player's quiet hours, read far enough ahead to hold the deadline."""
    horizon = since + 2 * (terms.allowance + bank) + DAY_MS
    horizon = max([horizon, *(e for _, e in away), *(e for _, e in outages)])
    while True:
        turn = turn_of(
            terms,
            since,
            bank,
            quiet_hours=quiet_spans(settings, since, horizon),
            away=away,
            away_left=away_left,
            outages=outages,
        )
        if turn.deadline() < horizon:
            return turn
        horizon = since + 2 * (horizon - since)


def away_used(turn: Turn, away: Sequence[Span], away_left: int, end: int) -> int:
    """How much of the game's away limit the turn used by `end`."""
    kept = clip_total(merge(away), turn.since, away_left)
    return overlap(kept, turn.since, end)
