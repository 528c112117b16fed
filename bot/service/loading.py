"""Loading a game from the store: the log is the truth, snapshots are a shortcut.

The record kinds and the validator every log passes are in bot/service/records.py.

Loading = check every record (`records.scan`), then the newest snapshot that lies on the
effective chain, then the chain's decisions after it — each by the player whose decision it
is and the user who sat at that player's seat then. The last commit's state is what
everyone sees; decisions after it are the turn in progress. A log that no longer replays
(after an engine upgrade) is flagged: a `flag` record names the snapshot the game continues
from, and decisions before the flag are then ignored. A log that cannot be loaded at all
(malformed records, or nothing to continue from) raises `BrokenLog`; the service then tells
the channel what is wrong and still lets a moderator export the raw records or abandon it.

Decisions the service gave on a player's behalf carry `auto` ("skipped seat", "forced turn");
where a step ends and is committed is decided in bot/service/turns.py.

Importing an export runs `replay_import`: the same checks and the same replay, from the
start (exports carry no snapshots), so an accepted file loads exactly as it will once stored.
"""

from __future__ import annotations

import copy
import logging
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules import (
    Event,
    Game,
    GameOptions,
    GameState,
    RuleError,
    SetupError,
    load_state,
    new_game,
    open_game,
)
from bot.rules.automa.seats import level_name
from bot.service.computer import ComputerSeat
from bot.service.records import (
    BrokenLog,
    ChainRecord,
    CommitRecord,
    DecisionRecord,
    FlagRecord,
    Scanned,
    scan,
    show,
)
from bot.service.turns import Step, apply_answer
from bot.store import Game as StoredGame
from bot.store import LogEntry, Snapshot, Store

log = logging.getLogger(__name__)


class ReplayError(RuleError):
    """The engine refused a logged decision: the log no longer replays (record `seq`)."""

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


@dataclass
class Loaded:
    """A game as the service sees it at one version."""

    meta: StoredGame
    version: int
    lobby: list[int]
    started: bool
    seats: list[int]
    #: The automa companies' levels (seated last once the game started).
    automa: list[int] = field(default_factory=list)
    #: The AI players' levels (seated after the people once the game started).
    ai: list[str] = field(default_factory=list)
    #: People's seats the AI plays now: seat -> (level, seq of its `ai_seat` record).
    pilots: dict[int, tuple[str, int]] = field(default_factory=dict)
    #: Every stint of the AI at a person's seat: (seat, level, from seq, to seq or None).
    stints: list[tuple[int, str, int, int | None]] = field(default_factory=list)
    skipped: set[int] = field(default_factory=set)
    #: Each seat's expiries in a row (bot/service/clock.py), since its person last answered.
    expiries: dict[int, int] = field(default_factory=dict)
    #: The seq of each seat's last expiry record.
    last_expiry: dict[int, int] = field(default_factory=dict)
    abandoned: bool = False
    #: Effective (seq, record) of kinds decision/commit, in order.
    chain: list[tuple[int, ChainRecord]] = field(default_factory=list)
    #: (seat, turn chain's last seq) of every decision its player was shown a hint for.
    hints: set[tuple[int, int]] = field(default_factory=set)
    game: Game | None = None
    committed: GameState | None = None
    commit_version: int = 0
    commits: list[tuple[int, CommitRecord]] = field(default_factory=list)
    #: Answers after the last commit (the step in progress), with what each caused.
    tail_steps: list[Step] = field(default_factory=list)
    flag: str | None = None
    flag_seq: int = 0

    @property
    def options(self) -> Mapping[str, Any]:
        """The stored game options."""
        return self.meta.options

    @property
    def chain_tip(self) -> int:
        """The seq of the turn chain's last record, or of the flag the game continues from
        if later (0 before either): names the decision pending now, whatever records off
        the chain follow."""
        return max(self.chain[-1][0] if self.chain else 0, self.flag_seq)

    @property
    def tail(self) -> list[DecisionRecord]:
        """The decision records after the last commit (the step in progress)."""
        return [step.record for step in self.tail_steps]

    @property
    def tail_events(self) -> list[Event]:
        """The events of the step in progress."""
        return [event for step in self.tail_steps for event in step.events]

    def is_skipped(self, player: str) -> bool:
        """Whether the seat of an engine player id is skipped (answered for by the service)."""
        return self.seat_of_player(player) in self.skipped

    def company_of_user(self, user_id: int) -> str | None:
        """The company (or "seatN" during the draft) the user plays, if seated."""
        if user_id not in self.seats:
            return None
        seat = self.seats.index(user_id)
        return self.company_of_seat(seat)

    def company_of_seat(self, seat: int) -> str | None:
        """The company id at a seat, or "seatN" before companies are dealt."""
        if self.game is None:
            return None
        state = self.game.state
        if seat < len(state.seats) and state.seats[seat]:
            return state.seats[seat]
        return f"seat{seat}"

    def seat_of_player(self, player: str | None) -> int | None:
        """The seat index of an engine player id."""
        if player is None or self.game is None:
            return None
        if player.startswith("seat") and player[4:].isdigit():
            return int(player[4:])
        company = self.game.state.companies.get(player)
        return None if company is None else company.seat

    def automa_level(self, player: str | None) -> int | None:
        """The level of the automa playing this engine player id, or None for a person."""
        seat = self.seat_of_player(player)
        if seat is None or seat < len(self.seats) + len(self.ai):
            return None
        index = seat - len(self.seats) - len(self.ai)
        return self.automa[index] if index < len(self.automa) else None

    def computer_of(self, player: str | None) -> ComputerSeat | None:
        """The computer playing this engine player id (an automa, or the AI at a person's
        seat or its own), or None when a person plays it."""
        seat = self.seat_of_player(player)
        if seat is None:
            return None
        if seat < len(self.seats):
            pilot = self.pilots.get(seat)
            return None if pilot is None else ComputerSeat("ai", pilot[0])
        index = seat - len(self.seats)
        if index < len(self.ai):
            return ComputerSeat("ai", self.ai[index])
        level = self.automa_level(player)
        return None if level is None else ComputerSeat("automa", level_name(level))

    def label_of(self, player: str | None) -> str | None:
        """'AI strong' or 'automa expert' for a computer's engine player id; None for a
        person's."""
        computer = self.computer_of(player)
        return None if computer is None else computer.label

    def seat_label(self, seat: int) -> str | None:
        """'AI strong' or 'automa expert' for a computer's seat; None for a person's."""
        computer = self.computer_of(self.company_of_seat(seat))
        return None if computer is None else computer.label

    @property
    def ai_seed(self) -> int:
        """The seed of the AI's randomness, drawn when the game was created (never the
        setup's seed; 0 for a game created before there was an AI)."""
        return int(self.options.get("ai_seed", 0))

    def user_at_seat(self, seat: int) -> int | None:
        """The person at a seat, None for a computer's seat (after the people's)."""
        return self.seats[seat] if seat < len(self.seats) else None

    def user_of_player(self, player: str | None) -> int | None:
        """The user deciding for an engine player id (None for an automa)."""
        seat = self.seat_of_player(player)
        return None if seat is None else self.user_at_seat(seat)

    def players_deciding(self) -> list[str]:
        """Engine player ids with a pending decision."""
        if self.game is None or self.game.is_over:
            return []
        return [d.player for d in self.game.decisions()]

    def people_deciding(self) -> list[str]:
        """Engine player ids with a pending decision that a person answers (no computer)."""
        return [p for p in self.players_deciding() if self.computer_of(p) is None]

    def users_deciding(self) -> tuple[int, ...]:
        """People with a decision now (a seat the AI plays is nobody's to ping)."""
        users: list[int] = []
        for player in self.people_deciding():
            user = self.user_of_player(player)
            if user is not None and user not in users:
                users.append(user)
        return tuple(users)

    def ai_deciding(self) -> list[str]:
        """Engine player ids with a pending decision that the AI answers."""
        found = []
        for player in self.players_deciding():
            computer = self.computer_of(player)
            if computer is not None and not computer.answers_at_once:
                found.append(player)
        return found


def engine_options(
    meta: StoredGame, players: int, automa: Sequence[int] = (), ai: int = 0
) -> GameOptions:
    """The engine's options for a stored game with `players` people seated, then `ai` AI
    players, then automas of these levels."""
    opts = meta.options
    return GameOptions(
        automa=tuple(automa),
        players=players + ai + len(automa),
        setup=str(opts.get("setup", "intro")),
        map=str(opts.get("map", "base")),
        expansions=tuple(opts.get("expansions", ())),
        seed=meta.seed,
    )


def copy_game(game: Game) -> Game:
    """An independent copy of a game (to try moves on): through pickle, which copies a
    state three times as fast as `copy.deepcopy` (every move of a turn copies one)."""
    state = pickle.loads(pickle.dumps(game.state, pickle.HIGHEST_PROTOCOL))
    return open_game(state, game.content)


def _loaded(meta: StoredGame, scanned: Scanned) -> Loaded:
    return Loaded(
        meta=meta,
        version=meta.version,
        lobby=scanned.lobby,
        started=scanned.started,
        seats=scanned.seats,
        automa=list(scanned.automa),
        ai=list(scanned.ai),
        pilots=dict(scanned.pilots),
        stints=list(scanned.stints),
        skipped=scanned.skipped,
        expiries=dict(scanned.expiries),
        last_expiry=dict(scanned.last_expiry),
        abandoned=scanned.abandoned,
        chain=scanned.chain,
        hints=set(scanned.hints),
    )


def _new_game(meta: StoredGame, players: int, automa: Sequence[int] = (), ai: int = 0) -> Game:
    try:
        return new_game(engine_options(meta, players, automa, ai))
    except (SetupError, RuleError) as exc:
        raise BrokenLog(f"the game's options cannot be set up: {exc}") from None


async def load(store: Store, meta: StoredGame) -> Loaded:
    """Rebuild a game's service view from its log and snapshots; BrokenLog if it cannot be."""
    entries = await store.read_log(meta.id)
    scanned = scan(meta, entries)
    loaded = _loaded(meta, scanned)
    if not loaded.started:
        return loaded
    if scanned.flag is not None:
        loaded.flag = scanned.flag.reason
        loaded.flag_seq = scanned.flag_seq
        snap = await store.latest_snapshot(meta.id, at_or_before=scanned.flag.base)
        base = _from_snapshot(snap)
        if base is None:
            raise BrokenLog(
                f"record {scanned.flag_seq} (flag) continues from a saved state at version "
                f"{scanned.flag.base}, and none was saved",
                scanned.flag_seq,
            )
        base_seq = loaded.flag_seq
    else:
        found, base_seq = await _chain_base(store, meta.id, loaded.chain)
        base = found or _new_game(meta, len(loaded.seats), loaded.automa, len(loaded.ai))
    try:
        _replay(loaded, scanned, base, base_seq)
    except (RuleError, KeyError, ValueError) as exc:
        if isinstance(exc, BrokenLog):
            raise
        log.warning(
            "game %d: the log no longer replays (%s); continuing from a snapshot", meta.id, exc
        )
        await _flag(store, loaded, scanned, f"the log no longer replays: {exc}")
    return loaded


def replay_import(meta: StoredGame, entries: Sequence[LogEntry]) -> Loaded:
    """An exported game as loading will see it once stored; BrokenLog if it is not playable.

    Exports carry no saved states, so a flagged game (one that continues from a saved
    state) cannot be imported, and every move is replayed from the setup.
    """
    scanned = scan(meta, entries)
    if scanned.flag is not None:
        raise BrokenLog(
            f"record {scanned.flag_seq} (flag): this game continues from a saved state that "
            "exports do not carry",
            scanned.flag_seq,
        )
    loaded = _loaded(meta, scanned)
    if loaded.started:
        try:
            _replay(
                loaded,
                scanned,
                _new_game(meta, len(loaded.seats), loaded.automa, len(loaded.ai)),
                0,
            )
        except ReplayError as exc:
            raise BrokenLog(f"the moves do not replay: {exc}", exc.seq) from None
    return loaded


def _from_snapshot(snap: Snapshot | None) -> Game | None:
    if snap is None:
        return None
    try:
        return open_game(load_state(snap.state))
    except (KeyError, ValueError, TypeError) as exc:
        raise BrokenLog(f"the saved state at version {snap.version} is damaged ({exc})") from None


async def _chain_base(
    store: Store, game_id: int, chain: list[tuple[int, ChainRecord]]
) -> tuple[Game | None, int]:
    """The newest snapshot on the chain (at or before its last commit), and its version."""
    on_chain = {seq for seq, rec in chain if isinstance(rec, CommitRecord)}
    if not on_chain:
        return None, 0
    bound = max(on_chain)
    for _ in range(8):  # reverts crossing snapshots: a few probes, then from the start
        snap = await store.latest_snapshot(game_id, at_or_before=bound)
        if snap is None:
            return None, 0
        if snap.version in on_chain:
            return _from_snapshot(snap), snap.version
        bound = snap.version - 1
    return None, 0


def _replay(loaded: Loaded, scanned: Scanned, base: Game, base_seq: int) -> None:
    """Apply the chain after `base_seq` to `base`, marking commits and the tail.

    Each decision must be made for the player whose decision it is (the engine refuses
    others with a RuleError carrying `seq`), by the user who sat at that seat then.
    """
    game = base
    loaded.committed = copy.deepcopy(game.state)
    loaded.commit_version = base_seq
    loaded.commits = [
        (s, r) for s, r in loaded.chain if isinstance(r, CommitRecord) and s <= base_seq
    ]
    tail: list[Step] = []
    for seq, rec in loaded.chain:
        if seq <= base_seq:
            continue
        if isinstance(rec, DecisionRecord):
            _check_decider(game, scanned, seq, rec.kind, rec.player, rec.user)
            try:
                tail.append(apply_answer(game, rec.notation, rec.player, record=rec))
            except RuleError as exc:
                raise ReplayError(f"record {seq} ({show(rec.notation)}): {exc}", seq) from None
        else:
            if rec.player is not None:
                _check_decider(game, scanned, seq, rec.kind, rec.player, rec.user)
            loaded.commits.append((seq, rec))
            loaded.committed = copy.deepcopy(game.state)
            loaded.commit_version = seq
            tail = []
    loaded.game = game
    loaded.tail_steps = tail


def _check_decider(
    game: Game, scanned: Scanned, seq: int, kind: str, player: str, user: int | None
) -> None:
    """The record's player is one of the game's, and its user (None: the bot answered)
    sat at that player's seat when it was written."""
    if player.startswith("seat") and player[4:].isdigit():
        seat: int | None = int(player[4:])
    else:
        company = game.state.companies.get(player)
        seat = None if company is None else company.seat
    seats = scanned.seats_at(seq)
    computers = len(scanned.automa) + len(scanned.ai)
    if seat is not None and user is None and 0 <= seat - len(seats) < computers:
        return  # an automa's or AI player's decision, answered by the service
    if seat is None or seat >= len(seats):
        raise BrokenLog(f"record {seq} ({kind}): {show(player)} is not a player of this game", seq)
    if user is not None and seats[seat] != user:
        raise BrokenLog(
            f"record {seq} ({kind}): user {show(user)} does not play {show(player)}", seq
        )


async def _flag(store: Store, loaded: Loaded, scanned: Scanned, reason: str) -> None:
    """Continue from the newest snapshot and record why, so every process agrees."""
    snap = await store.latest_snapshot(loaded.meta.id)
    base = _from_snapshot(snap)
    if snap is None or base is None:
        raise BrokenLog(f"{reason}, and no saved state to continue from")
    record = FlagRecord(reason[:400], snap.version)
    try:
        version = await store.append(loaded.meta.id, loaded.version, [record.to_json()])
    except Exception:  # another process flagged it first, or the store is busy: reload later
        log.warning("game %d: could not record the flag", loaded.meta.id, exc_info=True)
        version = loaded.version
    loaded.version = version
    loaded.flag = reason
    loaded.flag_seq = version
    loaded.chain = [(s, r) for s, r in loaded.chain if s > version]
    _replay(loaded, scanned, base, version)
