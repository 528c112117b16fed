"""Loading a game from the store: the log is the truth, snapshots are a shortcut.

Record kinds the service writes (the engine reads only `decision` and `revert`):

- administrative, never reverted: `join` / `leave` {"user"} (the lobby; the creator is in it
  from creation), `start` {"seats": [user ids]}, `replace` {"seat", "old", "new"},
  `skip` {"seat"}, `abandon` {"by"}, `flag` {"reason", "base"};
- on the turn chain (reverts apply): `decision` {"notation", "player", "user", "auto"?}
  (`auto` when the service answered on the player's behalf: "skipped seat", "forced turn")
  and `commit` {"reason", "player", "user", "undoable"} — a committed step's boundary (see
  bot/service/turns.py), always written together with a snapshot of the state after it;
- `revert` {"to": N}: restart a turn or undo/rewind to a commit.

Loading = the newest snapshot that lies on the effective chain, then the chain's decisions
after it. The last commit's state is what everyone sees; decisions after it are the turn in
progress. A log that no longer replays is flagged (a `flag` record names the snapshot the
game continues from; decisions before the flag are then ignored).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules import Event, Game, GameOptions, GameState, RuleError, load_state, new_game
from bot.service.turns import Step, apply_answer
from bot.store import Game as StoredGame
from bot.store import LogEntry, Snapshot, Store

log = logging.getLogger(__name__)

CHAIN_KINDS = frozenset({"decision", "commit"})


@dataclass
class Loaded:
    """A game as the service sees it at one version."""

    meta: StoredGame
    version: int
    lobby: list[int]
    started: bool
    seats: list[int]
    skipped: set[int] = field(default_factory=set)
    abandoned: bool = False
    #: Effective (seq, record) of kinds decision/commit, in order.
    chain: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    game: Game | None = None
    committed: GameState | None = None
    commit_version: int = 0
    commits: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    #: Answers after the last commit (the step in progress), with what each caused.
    tail_steps: list[Step] = field(default_factory=list)
    flag: str | None = None
    flag_seq: int = 0

    @property
    def options(self) -> Mapping[str, Any]:
        """The stored game options."""
        return self.meta.options

    @property
    def tail(self) -> list[Mapping[str, Any]]:
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

    def user_of_player(self, player: str | None) -> int | None:
        """The user deciding for an engine player id."""
        seat = self.seat_of_player(player)
        if seat is None or seat >= len(self.seats):
            return None
        return self.seats[seat]

    def players_deciding(self) -> list[str]:
        """Engine player ids with a pending decision."""
        if self.game is None or self.game.is_over:
            return []
        return [d.player for d in self.game.decisions()]


def effective_chain(entries: Sequence[LogEntry]) -> list[tuple[int, Mapping[str, Any]]]:
    """The decision/commit records in force after every revert, with their seqs."""
    # Persistent list: nodes[v] is the chain right after version v.
    nodes: list[Any] = [None]
    for entry in entries:
        kind = entry.record.get("kind")
        if kind in CHAIN_KINDS:
            nodes.append((entry.seq, entry.record, nodes[-1]))
        elif kind == "revert":
            target = int(entry.record["to"])
            if not 0 <= target < len(nodes):
                raise ValueError(f"revert to {target} is outside the log")
            nodes.append(nodes[target])
        else:
            nodes.append(nodes[-1])
    out = []
    node = nodes[-1]
    while node is not None:
        out.append((node[0], node[1]))
        node = node[2]
    out.reverse()
    return out


def engine_options(meta: StoredGame, players: int) -> GameOptions:
    """The engine's options for a stored game with `players` seated."""
    opts = meta.options
    return GameOptions(
        players=players,
        setup=str(opts.get("setup", "intro")),
        map=str(opts.get("map", "base")),
        expansions=tuple(opts.get("expansions", ())),
        seed=meta.seed,
    )


def copy_game(game: Game) -> Game:
    """An independent copy of a game (to try moves on)."""
    return Game(copy.deepcopy(game.state), game.content)


async def load(store: Store, meta: StoredGame) -> Loaded:
    """Rebuild a game's service view from its log and snapshots."""
    entries = await store.read_log(meta.id)
    loaded = Loaded(
        meta=meta, version=meta.version, lobby=[meta.creator_id], started=False, seats=[]
    )
    flag: Mapping[str, Any] | None = None
    for entry in entries:
        rec = entry.record
        kind = rec.get("kind")
        if kind == "join" and rec["user"] not in loaded.lobby:
            loaded.lobby.append(int(rec["user"]))
        elif kind == "leave" and rec["user"] in loaded.lobby:
            loaded.lobby.remove(int(rec["user"]))
        elif kind == "start":
            loaded.started = True
            loaded.seats = [int(u) for u in rec["seats"]]
        elif kind == "replace":
            loaded.seats[int(rec["seat"])] = int(rec["new"])
            loaded.skipped.discard(int(rec["seat"]))
        elif kind == "skip":
            loaded.skipped.add(int(rec["seat"]))
        elif kind == "abandon":
            loaded.abandoned = True
        elif kind == "flag":
            flag = rec
            loaded.flag_seq = entry.seq
    if not loaded.started:
        return loaded
    loaded.chain = effective_chain(entries)
    options = engine_options(meta, len(loaded.seats))
    if flag is not None:
        loaded.flag = str(flag.get("reason", "flagged"))
        snap = await store.latest_snapshot(meta.id, at_or_before=int(flag["base"]))
        base = _from_snapshot(snap)
        assert base is not None, "a flag always names a stored snapshot"
        base_seq = loaded.flag_seq
    else:
        base, base_seq = await _chain_base(store, meta.id, loaded.chain)
        if base is None:
            base = new_game(options)
    try:
        _replay(loaded, base, base_seq)
    except (RuleError, KeyError, ValueError) as exc:
        log.warning(
            "game %d: the log no longer replays (%s); continuing from a snapshot", meta.id, exc
        )
        await _flag(store, loaded, f"the log no longer replays: {exc}")
    return loaded


def _from_snapshot(snap: Snapshot | None) -> Game | None:
    return None if snap is None else Game(load_state(snap.state))


async def _chain_base(
    store: Store, game_id: int, chain: list[tuple[int, Mapping[str, Any]]]
) -> tuple[Game | None, int]:
    """The newest snapshot on the chain (at or before its last commit), and its version."""
    on_chain = {seq for seq, rec in chain if rec.get("kind") == "commit"}
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


def _replay(loaded: Loaded, base: Game, base_seq: int) -> None:
    """Apply the chain after `base_seq` to `base`, marking commits and the tail."""
    game = base
    loaded.committed = copy.deepcopy(game.state)
    loaded.commit_version = base_seq
    loaded.commits = [
        (s, r) for s, r in loaded.chain if r.get("kind") == "commit" and s <= base_seq
    ]
    tail: list[Step] = []
    for seq, rec in loaded.chain:
        if seq <= base_seq:
            continue
        if rec["kind"] == "decision":
            tail.append(apply_answer(game, rec["notation"], rec.get("player"), record=rec))
        else:
            loaded.commits.append((seq, rec))
            loaded.committed = copy.deepcopy(game.state)
            loaded.commit_version = seq
            tail = []
    loaded.game = game
    loaded.tail_steps = tail


async def _flag(store: Store, loaded: Loaded, reason: str) -> None:
    """Continue from the newest snapshot and record why, so every process agrees."""
    snap = await store.latest_snapshot(loaded.meta.id)
    base = _from_snapshot(snap)
    if snap is None or base is None:
        raise RuntimeError(f"game {loaded.meta.id} does not replay and has no snapshot: {reason}")
    record = {"kind": "flag", "reason": reason, "base": snap.version}
    try:
        version = await store.append(loaded.meta.id, loaded.version, [record])
    except Exception:  # another process flagged it first, or the store is busy: reload later
        log.exception("game %d: could not record the flag", loaded.meta.id)
        version = loaded.version
    loaded.version = version
    loaded.flag = reason
    loaded.flag_seq = version
    loaded.chain = [(s, r) for s, r in loaded.chain if s > version]
    _replay(loaded, base, version)
