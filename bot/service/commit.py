"""The commit as a value: what one landing writes, planned by pure functions.

A landing is a command's records and answers: a move, a start, an undo or rewind, a seat
change, an import, the AI's step, an expiry of the turn clock. The service gives the answers
on players' behalf first (`answer_for_others`: automas, skipped seats, forced turns). Then:

1. `draft_commit` takes the loaded game, the game after every answer, the steps and the
   command's `Landing` (and, for a commit of a clocked game, the clock after it): the
   records, the commit record, the snapshot, and the game as it will be once appended;
2. the service reads what the announcement and the reminders need (`Facts`: the clock, the
   settings of the people the draft names, a clocked game's deadlines, and for a game that
   ends its history and its server's ratings);
3. `plan_commit` completes it: a `Commit` with the announcement, the reminders and the
   results.

The store appends a `Commit` in one transaction (`Store.append`); the service then
publishes its announcement. Nothing here reads the store or the clock, and nothing here
knows Discord.

Where a step ends and is committed is decided in bot/service/turns.py; the record kinds
are in bot/service/records.py.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.rules import Game, GameState
from bot.service import quiet
from bot.service.clock import terms_of
from bot.service.final import final_result, seat_play
from bot.service.history import History
from bot.service.loading import Loaded
from bot.service.messages import final_lines, next_lines, story
from bot.service.ratings import ServerRatings, rate, rating_game, rating_notes
from bot.service.records import (
    AiReleaseRecord,
    AiSeatRecord,
    Cause,
    ChainRecord,
    ClockRecord,
    CommitRecord,
    DecisionRecord,
    ExpiryRecord,
    LogRecord,
    ReplaceRecord,
    RevertRecord,
    StartRecord,
)
from bot.service.turns import (
    Step,
    answer_on_behalf,
    at_handover,
    automa_played,
    commit_cause,
    revealed_or_new_round,
)
from bot.service.types import SCORE_SHEET, ImageRequest, Line, OutboxPayload, OutcomeKind
from bot.store import REMINDER, TURN_PING, GameResult, ReminderDue, UserSettings
from bot.store import Game as StoredGame

log = logging.getLogger(__name__)

#: Milliseconds in an hour (reminder settings are in hours).
HOUR_MS = 3_600_000
#: Records after which only a load rebuilds the game's seating or chain.
RELOADING = (StartRecord, RevertRecord, ReplaceRecord, AiSeatRecord, AiReleaseRecord, ExpiryRecord)


@dataclass(frozen=True, slots=True)
class Landing:
    """What a command lands beside its answers, and how it is told."""

    #: Who acts (None: the service, for nobody: a stalled game's repair, the AI).
    user: int | None
    #: Records before the answers (a start, a revert, a skip...).
    records: tuple[LogRecord, ...] = ()
    #: Commit now, for this cause; None: when the answers complete a step.
    cause: Cause | None = None
    #: The announcement's first lines (what the command did).
    header: tuple[Line, ...] = ()
    #: The actor's outcome (None: from the game).
    kind: OutcomeKind | None = None
    #: Announce even when nothing is committed (a seat replaced mid-turn).
    announce: bool = False
    #: Users who need no ping for the decision they face: already pinged for it (a
    #: moderator's command is no reason to ping them again), or the player whose own
    #: command this is, who sees that decision in its reply.
    told: tuple[int, ...] = ()
    #: The answers are a computer seat's (the AI's), landed by the service.
    computer: bool = False


@dataclass(frozen=True, slots=True)
class Draft:
    """A landing's records and the game after them, before its announcement is planned."""

    loaded: Loaded
    landing: Landing
    #: The landing's answers, those given on others' behalf included.
    steps: tuple[Step, ...]
    #: Every answer of the step these end or continue.
    step_so_far: tuple[Step, ...]
    records: tuple[LogRecord, ...]
    #: The commit record (None: the step goes on).
    commit_record: CommitRecord | None
    #: The state after the records when they commit.
    snapshot: dict[str, Any] | None
    #: The game as it is once appended (its announcement reads it).
    after: Loaded
    #: The seating or chain changed: the game is loaded again rather than `after` kept.
    reload: bool

    @property
    def commits(self) -> bool:
        """The records end a step."""
        return self.commit_record is not None

    @property
    def fresh_chain(self) -> bool:
        """A start or a revert: the chain begins afresh (the step so far is these alone)."""
        return any(isinstance(r, (StartRecord, RevertRecord)) for r in self.landing.records)

    @property
    def announces(self) -> bool:
        """An announcement follows (every commit; a landing that asks for one)."""
        return self.commits or self.landing.announce

    @property
    def ending(self) -> bool:
        """The game ends with this commit: its results are kept, its ratings told."""
        return self.commits and self.after.game is not None and self.after.game.is_over

    @property
    def people(self) -> tuple[int, ...]:
        """Whose settings the announcement and reminders read: whoever it pings."""
        if not self.announces:
            return ()
        if self.ending:
            return tuple(dict.fromkeys(self.after.seats))
        return self.after.users_deciding()


@dataclass(frozen=True, slots=True)
class Facts:
    """What the plan reads from outside, gathered by the service."""

    now: int
    #: The settings of `Draft.people`.
    settings: Mapping[int, UserSettings]
    #: How many lines of what happened an announcement tells.
    announce_lines: int
    #: When each person deciding is first reminded, outside their quiet hours (the
    #: server's, game's or player's hours; a clocked game's first point).
    first_reminders: Mapping[int, int] = field(default_factory=dict)
    #: The announcement's lines about the turn clock (deadlines, time away).
    clock_lines: tuple[Line, ...] = ()
    #: What the others did since the next player's last turn (before the line that asks
    #: them to act; bot/service/catchup.py).
    digest: tuple[Line, ...] = ()
    #: A player who asked for a heads-up, mentioned now that the player before them
    #: begins, and the line that tells them.
    heads_up: tuple[int, Line] | None = None
    #: The game's history up to the commit before (when it ends).
    history: History | None = None
    #: Its server's ratings now (when it ends; None: they could not be read).
    ratings: ServerRatings | None = None


@dataclass(frozen=True, slots=True)
class Commit:
    """One landing, as the store appends it and the service then publishes it."""

    records: tuple[LogRecord, ...]
    #: The state after the records when they commit (None: a step goes on).
    snapshot: dict[str, Any] | None
    #: The announcement for the outbox (None: nothing is told).
    announcement: OutboxPayload | None
    #: The game's reminder schedules from now on (None: they stay as they are).
    reminders: tuple[ReminderDue, ...] | None
    #: The results of a game that ends here.
    result: GameResult | None
    #: The history of a game that ends here (its last commit's).
    history: History | None
    #: The game as it is once appended (its version is the store's new one).
    after: Loaded
    #: The seating or chain changed: the game is loaded again rather than `after` kept.
    reload: bool = False
    #: The steps of this landing (the command's and those given on others' behalf).
    steps: tuple[Step, ...] = field(default=())


def replace_loaded(loaded: Loaded, seats: Sequence[int]) -> Loaded:
    """A shallow copy of a loaded game with other seats (lists copied)."""
    return replace(
        loaded,
        seats=list(seats),
        skipped=set(loaded.skipped),
        expiries=dict(loaded.expiries),
        pilots=dict(loaded.pilots),
        chain=list(loaded.chain),
        commits=list(loaded.commits),
        tail_steps=list(loaded.tail_steps),
    )


def answer_for_others(loaded: Loaded, game: Game, steps: Sequence[Step]) -> list[Step]:
    """The steps followed by the service's answers for automas and skipped seats and its
    confirmations of forced turns, applied to `game` (bot/service/turns.py)."""
    last = steps[-1] if steps else None
    return [*steps, *answer_on_behalf(game, last, loaded.is_skipped)]


def _step_so_far(loaded: Loaded, steps: Sequence[Step], landing: Landing) -> list[Step]:
    """Every answer of the step these complete: a start or a revert begins afresh;
    otherwise they continue the open step."""
    fresh = any(isinstance(r, (StartRecord, RevertRecord)) for r in landing.records)
    return [*(() if fresh else loaded.tail_steps), *steps]


def commits_now(loaded: Loaded, game: Game, steps: Sequence[Step], landing: Landing) -> bool:
    """Whether these answers (given after `answer_for_others`) commit: they complete a
    step, or the landing names a cause."""
    return landing.cause is not None or at_handover(game, _step_so_far(loaded, steps, landing))


def draft_commit(
    loaded: Loaded,
    game: Game,
    steps: Sequence[Step],
    landing: Landing,
    *,
    now: int,
    clock: ClockRecord | None = None,
) -> Draft | None:
    """The records of a landing: `game` is the state after `steps` (every answer, those on
    others' behalf included); None when there is nothing to append.

    The landing's records, then the answers (stamped with `now` in a clocked game); when
    they complete a step (or the landing names a cause) a commit record (with the turn
    clock after it, `clock`) and the snapshot.
    """
    user = landing.user
    step_so_far = _step_so_far(loaded, steps, landing)
    stamped = terms_of(loaded.options) is not None
    records: list[LogRecord] = [
        *landing.records,
        *(replace(s.record, at=now) if stamped else s.record for s in steps),
    ]
    commit_record: CommitRecord | None = None
    snapshot: dict[str, Any] | None = None
    after = replace_loaded(loaded, loaded.seats)
    after.game = game
    if commits_now(loaded, game, steps, landing):
        cause = landing.cause or commit_cause(game, step_so_far)
        round_before = loaded.committed.round if loaded.committed is not None else None
        # A computer's step may be taken back with the person's turn before it (undo).
        undoable = (cause is Cause.TURN or landing.computer) and not revealed_or_new_round(
            step_so_far, round_before, game
        )
        commit_record = CommitRecord(
            reason=(Cause.END if game.is_over else cause).value,
            player=after.company_of_user(user) if user is not None else None,
            user=user,
            undoable=undoable,
            automa=automa_played(steps),
            computer=landing.computer,
            clock=clock,
        )
        records.append(commit_record)
        snapshot = game.state.to_json()
        # A copy for everyone to see (from the snapshot's JSON: cheaper than a deepcopy).
        after.committed = GameState.from_json(snapshot)
        after.commit_version = loaded.version + len(records)
        after.tail_steps = []
        # Its announcement reads the new commit (the clock's deadlines count from it).
        after.commits = [*loaded.commits, (after.commit_version, commit_record)]
    if not records:
        return None
    reload = any(isinstance(r, RELOADING) for r in landing.records)
    if not reload:
        _advance(loaded, after, records, commit_record, steps)
    return Draft(
        loaded=loaded,
        landing=landing,
        steps=tuple(steps),
        step_so_far=tuple(step_so_far),
        records=tuple(records),
        commit_record=commit_record,
        snapshot=snapshot,
        after=after,
        reload=reload,
    )


def plan_commit(draft: Draft, facts: Facts) -> Commit:
    """The commit of a drafted landing: its announcement (the header, what happened, who
    acts next), the reminders of whoever must decide, and the results of a game that ends
    (which keeps no reminders); a landing that does not commit announces only if asked."""
    loaded, landing, after = draft.loaded, draft.landing, draft.after
    game = after.game
    assert game is not None
    result = history = None
    notes: dict[str, str] = {}
    closing: list[Line] = []
    if draft.ending:
        # The game's results are kept with its final commit (bot/service/final.py); its
        # history is the last commit's and this step's (no replay when that one is known).
        assert facts.history is not None
        history = facts.history.extended(
            (e for s in draft.step_so_far for e in s.events), after.committed
        )
        result = final_result(
            game.state,
            after.user_of_player,
            history.vp_events,
            seat_play(after),
            hints=bool(loaded.options.get("hints")),
        )
        if facts.ratings is not None:
            try:
                changes = rate(facts.ratings.players, rating_game(result))
                notes, closing = rating_notes(result, changes)
            except Exception:
                # Ratings are derived from the results: their failure never stops a game
                # from ending (its message then tells no rating; the rebuild counts it).
                log.exception("the ratings of game %d's server failed", loaded.meta.id)
    announcement = None
    reminders: tuple[ReminderDue, ...] | None = None
    if draft.announces:
        happened = story(
            draft.step_so_far if draft.commits else (),
            after.user_of_player,
            round_no=loaded.committed.round if loaded.committed is not None else 1,
            limit=facts.announce_lines,
            name_people=not game.is_over,
        )
        announcement = turn_payload(
            after,
            [*landing.header, *happened],
            told_cause(draft),
            facts,
            told=landing.told,
            notes=notes,
            closing=closing,
            last=happened,
            before=loaded.committed if draft.commits else None,
        )
        user = landing.user
        if user is not None and user in landing.told and user in announcement["waiting_for"]:
            # Named, not pinged: the reply to their own command is their panel, at the
            # decision this hands them (see OutboxSender: unless posted too late).
            announcement["told"] = [user]
        if result is None:
            reminders = plan_reminders(after, facts)
    return Commit(
        records=draft.records,
        snapshot=draft.snapshot,
        announcement=announcement,
        reminders=reminders,
        result=result,
        history=history,
        after=after,
        reload=draft.reload,
        steps=draft.steps,
    )


def told_cause(draft: Draft) -> Cause:
    """What the announcement says produced it: the end, the commit's cause, or a turn (an
    announcement without a commit)."""
    game = draft.after.game
    if game is not None and game.is_over:
        return Cause.END
    if draft.commit_record is None:
        return Cause.TURN
    return Cause(draft.commit_record.reason)


def _advance(
    loaded: Loaded,
    after: Loaded,
    records: Sequence[LogRecord],
    commit_record: CommitRecord | None,
    steps: Sequence[Step],
) -> None:
    """Bring `after` to the version the records will have once appended."""
    base = loaded.version
    version = base + len(records)
    after.version = version
    after.meta = replace(loaded.meta, version=version)
    chain: list[tuple[int, ChainRecord]] = [
        (base + i, r)
        for i, r in enumerate(records, 1)
        if isinstance(r, (DecisionRecord, CommitRecord))
    ]
    after.chain = [*loaded.chain, *chain]
    if commit_record is not None:
        after.commits = [*loaded.commits, (version, commit_record)]
    else:
        after.tail_steps = [*loaded.tail_steps, *steps]


# -- announcements and reminders ------------------------------------------------------


def turn_payload(
    after: Loaded,
    lines: list[Line],
    cause: Cause,
    facts: Facts,
    *,
    told: Sequence[int] = (),
    notes: Mapping[str, str] | None = None,
    closing: Sequence[Line] = (),
    last: Sequence[Line] = (),
    before: GameState | None = None,
) -> OutboxPayload:
    """The announcement of a committed state: what happened, then who acts next (pinged,
    unless already `told`), or, once the game is over, the result (everyone pinged; the
    ratings' changes in `notes` by company, and `closing` lines) and the score sheet. Its
    map rings the spaces changed since ``before`` (the state the turn began from); its
    pictures' alt text says what the turn did (``last``)."""
    game = after.game
    assert game is not None
    changed: tuple[str, ...] = ()
    if before is not None and before.companies:
        from renderer.describe import changed_spaces

        changed = tuple(changed_spaces(before, game.state))
    board = ImageRequest(after.meta.id, after.commit_version, "map", changed=changed)
    if game.is_over:
        lines = [
            *lines,
            *final_lines(game.state, after.user_of_player, notes, after.label_of),
            *closing,
        ]
        waiting: tuple[int, ...] = ()
        pinged = tuple(dict.fromkeys(after.seats))
        sheet = ImageRequest(after.meta.id, after.commit_version, SCORE_SHEET)
        images: tuple[ImageRequest, ...] = (sheet, board)
    else:
        lines = [
            *lines,
            *facts.digest,
            *next_lines(game, after.user_of_player, after.label_of),
            *facts.clock_lines,
        ]
        waiting = after.users_deciding()
        pinged = tuple(user for user in waiting if user not in told)
        images = (board,)
    mentions, silent = pings(pinged, facts.settings, facts.now)
    payload = outbox_payload(
        after.meta,
        lines,
        reason=cause.value,
        images=images,
        mentions=mentions,
        waiting=waiting,
        silent=silent,
        button=not game.is_over,
    )
    if facts.heads_up is not None and not game.is_over:
        payload["lines"].append(facts.heads_up[1].to_json())
    if last:
        payload["last"] = [line.to_json() for line in last]
    if facts.heads_up is not None and not game.is_over:
        payload["heads_up"] = [facts.heads_up[0]]
    return payload


def pings(
    users: Sequence[int], settings: Mapping[int, UserSettings], now: int
) -> tuple[tuple[int, ...], bool]:
    """Who to ping among `users`, and whether the message goes out silently.

    Users in their quiet hours are not pinged now (their reminder pings them when quiet
    hours end) unless all are: then all are mentioned and the message is silent.
    """
    awake = tuple(u for u in users if not quiet.in_quiet_hours(settings[u], now))
    if awake or not users:
        return awake, False
    return tuple(users), True


def plan_reminders(loaded: Loaded, facts: Facts) -> tuple[ReminderDue, ...]:
    """One reminder for each person who must decide now."""
    planned = []
    now = facts.now
    for user in loaded.users_deciding():
        settings = facts.settings[user]
        if quiet.in_quiet_hours(settings, now):
            # The announcement went out silently: the turn's own ping follows when quiet
            # hours end, and the reminders after it.
            due, kind = quiet.quiet_end(settings, now), TURN_PING
        else:
            due, kind = facts.first_reminders[user], REMINDER
        planned.append(ReminderDue(user, due, kind))
    return tuple(planned)


def reminder_ms(options: Mapping[str, Any], settings: UserSettings, default_hours: float) -> int:
    """How long before a reminder: the player's own hours, else the game's, else the
    server's `default_hours` (fractions honoured; one setting for first and further
    reminders)."""
    hours = settings.reminder_hours or options.get("reminder_hours") or default_hours
    return max(1, round(float(hours) * HOUR_MS))


def outbox_payload(
    meta: StoredGame,
    lines: Sequence[Line],
    *,
    reason: str,
    images: Sequence[ImageRequest] = (),
    mentions: Sequence[int] = (),
    waiting: Sequence[int] = (),
    silent: bool = False,
    button: bool = True,
) -> OutboxPayload:
    """An outbox payload (see OutboxSender: it becomes an `Announcement`)."""
    return {
        "lines": [line.to_json() for line in lines],
        "images": [i.to_json() for i in images],
        "mentions": list(mentions),
        "waiting_for": list(waiting),
        "silent": silent,
        "play_button": button,
        "reason": reason,
        "guild_id": meta.guild_id,
    }
