"""The oracle: whether an input is a legal action of its actor, and what it may change.

It reads the store (never writes) and knows the rules only through the engine and the
id scheme, which are the specification here: a click is legal when its component is on its
message and names the channel's current game, its current version and one of the options
the clicking player has now; a typed move when the engine accepts it for that player; and
so on for each command. A legal action changes exactly its game by one step (the actor's
records, then only commits and the bot's automatic answers); everything else changes
nothing and is answered with a specific refusal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.commands import ids
from bot.rules import RuleError
from bot.service.loading import Loaded, copy_game, load
from bot.service.records import BrokenLog
from bot.store import ACTIVE, GameNotFoundError, Store
from bot.store import Game as StoredGame

#: How a refusal starts: the service's prefixes and the commands' own short refusals.
REFUSAL_MARKS = (
    "⏩",
    "🔀",
    "🩹",
    "🔎",
    "🙅",
    "⏳",
    "🔒",
    "❌",
    "🚪",
    "🏁",
    "⚙️",
    "📦 Import refused",
    "⚠️",
    "🧩",
    "Nothing changed",
    "Pick one",
    "Type a move",
)
CRASH_MARK = "💥"


def is_refusal(text: str) -> bool:
    """Whether a reply refuses (its first line carries a refusal mark)."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first.startswith(REFUSAL_MARKS) or "⏩ The game moved on" in text


@dataclass(frozen=True)
class GameRow:
    """What the oracle compares of one stored game."""

    version: int
    status: str
    guild_id: int
    channel_id: int
    number: int


@dataclass
class State:
    """Every game's version and status, and the users' settings, at one moment."""

    games: dict[int, GameRow]
    settings: dict[int, tuple[Any, ...]]


@dataclass
class Verdict:
    """What an input is: an action that changes one game, a look, or a refusal."""

    #: "act" (changes `game_id` by one step, or creates a game), "settings", "read", "refuse".
    kind: str
    why: str = ""
    game_id: int | None = None
    #: The records the actor's action appends, as (kind, {field: value}) to compare.
    records: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    #: An act that creates a game in this channel (new, import).
    new_game_in: int | None = None
    #: For reads of a game: the game the answer must be about (None: no check).
    about: int | None = None


class Oracle:
    """Reads the store to judge inputs and to check what they did."""

    def __init__(self, store: Store, users: list[int]) -> None:
        self.store = store
        self.users = users
        self._cache: dict[int, Loaded] = {}

    # -- reading ------------------------------------------------------------------------

    async def state(self) -> State:
        games = await self.store.list_games(limit=100_000)
        settings = {}
        for user in self.users:
            s = await self.store.get_user_settings(user)
            settings[user] = (s.time_zone, s.quiet_start, s.quiet_end, s.dm_opt_in, s.skip_confirm)
        return State(
            {g.id: GameRow(g.version, g.status, g.guild_id, g.channel_id, g.number) for g in games},
            settings,
        )

    async def loaded(self, meta: StoredGame) -> Loaded | None:
        cached = self._cache.get(meta.id)
        if cached is not None and cached.version == meta.version:
            return cached
        try:
            loaded = await load(self.store, meta)
        except BrokenLog:
            return None
        self._cache[meta.id] = loaded
        return loaded

    async def channel_game(self, channel_id: int) -> tuple[StoredGame | None, Loaded | None]:
        meta = await self.store.active_game(channel_id)
        if meta is None:
            return None, None
        return meta, await self.loaded(meta)

    async def by_number(self, guild_id: int, number: int) -> StoredGame | None:
        try:
            return await self.store.game_by_number(guild_id, number)
        except GameNotFoundError:
            return None

    # -- judging ------------------------------------------------------------------------

    async def option(
        self, channel_id: int, user: int, game: int, version: int, notation: str | None
    ) -> Verdict:
        """A panel answer naming game, version and (resolved) notation."""
        meta, loaded = await self.channel_game(channel_id)
        if meta is None or loaded is None:
            return Verdict("refuse", "no game in the channel")
        if game != meta.id:
            return Verdict("refuse", "another game's panel")
        if not loaded.started or loaded.game is None or loaded.game.is_over:
            return Verdict("refuse", "not playing")
        company = loaded.company_of_user(user)
        if company is None:
            return Verdict("refuse", "not a player")
        if version != loaded.version:
            return Verdict("refuse", "stale version")
        decision = loaded.game.decision(company)
        if decision is None:
            return Verdict("refuse", "not their decision")
        if notation is None or notation not in decision.notations:
            return Verdict("refuse", "not a listed option")
        return await self._moves(meta, loaded, user, company, [notation])

    async def typed_moves(self, channel_id: int, user: int, notations: list[str]) -> Verdict:
        """/barrage do: legal when the engine takes every notation in turn, for this player."""
        meta, loaded = await self.channel_game(channel_id)
        if meta is None or loaded is None or not loaded.started or loaded.game is None:
            return Verdict("refuse", "no game being played")
        if loaded.game.is_over:
            return Verdict("refuse", "game over")
        company = loaded.company_of_user(user)
        if company is None or loaded.game.decision(company) is None or not notations:
            return Verdict("refuse", "not their decision")
        return await self._moves(meta, loaded, user, company, notations)

    async def _moves(
        self, meta: StoredGame, loaded: Loaded, user: int, company: str, notations: list[str]
    ) -> Verdict:
        assert loaded.game is not None
        trial = copy_game(loaded.game)
        records = []
        for text in notations:
            if trial.decision(company) is None:
                return Verdict("refuse", "nothing left to decide")
            try:
                option = trial.parse(text, company)
                trial.apply(option, company)
            except RuleError:
                return Verdict("refuse", f"engine refuses {text!r}")
            records.append(("decision", {"notation": option.notation, "user": user}))
        settings = await self.store.get_user_settings(user)
        following = trial.decision(company)
        if settings.skip_confirm and following is not None and following.kind == "confirm":
            records.append(("decision", {"notation": "confirm", "user": user}))
        return Verdict("act", "moves", meta.id, records)

    async def restart(self, channel_id: int, user: int, game: int | None, version: int | None):
        meta, loaded = await self.channel_game(channel_id)
        if meta is None or loaded is None or loaded.game is None or not loaded.started:
            return Verdict("refuse", "no game being played")
        if game is not None and game != meta.id:
            return Verdict("refuse", "another game's panel")
        if loaded.game.is_over:
            return Verdict("refuse", "game over")
        company = loaded.company_of_user(user)
        if company is None:
            return Verdict("refuse", "not a player")
        if version is not None and version != loaded.version:
            return Verdict("refuse", "stale")
        if not loaded.tail or any(r.player != company for r in loaded.tail):
            return Verdict("refuse", "no turn of theirs in progress")
        return Verdict("act", "restart", meta.id, [("revert", {"to": loaded.commit_version})])

    async def undo(self, channel_id: int, user: int) -> Verdict:
        meta, loaded = await self.channel_game(channel_id)
        if meta is None or loaded is None or loaded.game is None or not loaded.started:
            return Verdict("refuse", "no game being played")
        if loaded.game.is_over or loaded.company_of_user(user) is None:
            return Verdict("refuse", "not playing")
        if len(loaded.commits) < 2 or loaded.tail:
            return Verdict("refuse", "nothing to undo")
        last = loaded.commits[-1][1]
        if last.user != user or not last.own_turn or not last.undoable:
            return Verdict("refuse", "not undoable")
        previous = loaded.commits[-2][0]
        snap = await self.store.latest_snapshot(meta.id, at_or_before=previous)
        if snap is None or snap.version != previous:
            return Verdict("refuse", "no saved state")
        return Verdict("act", "undo", meta.id, [("revert", {"to": previous})])

    async def rewind(self, channel_id: int, user: int, manager: bool, version: int) -> Verdict:
        meta, loaded = await self.channel_game(channel_id)
        if meta is None or loaded is None or loaded.game is None or not loaded.started:
            return Verdict("refuse", "no game being played")
        if loaded.game.is_over or not manager:
            return Verdict("refuse", "not allowed")
        versions = [seq for seq, _ in loaded.commits]
        if version not in versions or version >= loaded.commit_version:
            return Verdict("refuse", "not an earlier turn")
        snap = await self.store.latest_snapshot(meta.id, at_or_before=version)
        if snap is None or snap.version != version:
            return Verdict("refuse", "no saved state")
        return Verdict("act", "rewind", meta.id, [("revert", {"to": version})])

    async def lobby(
        self, channel_id: int, user: int, manager: bool, action: str, game: int | None
    ) -> Verdict:
        meta, loaded = await self.channel_game(channel_id)
        if meta is None or loaded is None:
            return Verdict("refuse", "no game")
        if game is not None and game != meta.id:
            return Verdict("refuse", "another game's lobby")
        if loaded.started:
            return Verdict("refuse", "already started")
        size = int(meta.options.get("players", 4))
        if action == "join":
            if user in loaded.lobby or len(loaded.lobby) >= size:
                return Verdict("refuse", "in or full")
            return Verdict("act", "join", meta.id, [("join", {"user": user})])
        if action == "leave":
            if user not in loaded.lobby or user == meta.creator_id:
                return Verdict("refuse", "not leaving")
            return Verdict("act", "leave", meta.id, [("leave", {"user": user})])
        if user != meta.creator_id and not manager:
            return Verdict("refuse", "may not start")
        if len(loaded.lobby) < 2:
            return Verdict("refuse", "too few")
        return Verdict("act", "start", meta.id, [("start", {"seats": list(loaded.lobby)})])

    async def abandon(self, channel_id: int, user: int, manager: bool) -> Verdict:
        meta = await self.store.active_game(channel_id)
        if meta is None:
            return Verdict("refuse", "no game")
        if user != meta.creator_id and not manager:
            return Verdict("refuse", "may not abandon")
        return Verdict("act", "abandon", meta.id, [("abandon", {"by": user})])

    async def new_game(self, channel_id: int) -> Verdict:
        if await self.store.active_game(channel_id) is not None:
            return Verdict("refuse", "channel taken")
        return Verdict("act", "new", new_game_in=channel_id)

    async def view(self, channel_id: int, guild_id: int, number: int | None) -> Verdict:
        """A look at a game by its number in this server (default: the channel's game)."""
        if number is None:
            meta = await self.store.active_game(channel_id)
        else:
            meta = await self.by_number(guild_id, number)
        if meta is None:
            return Verdict("refuse", "no such game here")
        loaded = await self.loaded(meta)
        if loaded is None or not loaded.started:
            return Verdict("refuse", "not started or unreadable")
        return Verdict("read", "view", about=meta.id)

    async def post(self, guild_id: int, game_id: int) -> Verdict:
        try:
            meta = await self.store.get_game(game_id)
        except GameNotFoundError:
            return Verdict("refuse", "no such game")
        if meta.guild_id != guild_id:
            return Verdict("refuse", "another server's game")
        loaded = await self.loaded(meta)
        if loaded is None or not loaded.started:
            return Verdict("refuse", "nothing to show")
        return Verdict("read", "post", about=meta.id)

    async def import_file(
        self, channel_id: int, manager: bool, valid: bool, doc: Mapping[str, Any] | None
    ) -> Verdict:
        if not manager:
            return Verdict("refuse", "not a manager")
        if not valid or doc is None:
            return Verdict("refuse", "hostile file")
        for game in await self.store.list_games(seed=doc["seed"], status=ACTIVE):
            if (game.creator_id, game.created_at) == (doc["creator_id"], doc["created_at"]):
                return Verdict("refuse", "a live copy exists")
        if await self.store.active_game(channel_id) is not None:
            return Verdict("refuse", "channel taken")
        return Verdict("act", "import", new_game_in=channel_id)

    # -- checking -----------------------------------------------------------------------

    async def violations(
        self, verdict: Verdict, before: State, after: State, channel_id: int
    ) -> list[str]:
        """What the input changed beyond what its verdict allows."""
        problems = []
        changed = {
            gid
            for gid in set(before.games) | set(after.games)
            if before.games.get(gid) != after.games.get(gid)
        }
        created = set(after.games) - set(before.games)
        if verdict.kind == "act" and verdict.new_game_in is not None:
            made = [g for g in created if after.games[g].channel_id == verdict.new_game_in]
            if len(made) != 1 or changed - set(made):
                problems.append(f"expected one new game in the channel, changed {sorted(changed)}")
        elif verdict.kind == "act":
            assert verdict.game_id is not None
            if changed != {verdict.game_id}:
                problems.append(f"expected game {verdict.game_id} to change, got {sorted(changed)}")
            else:
                problems += await self._one_step(verdict, before, after)
        elif changed:
            problems.append(f"{verdict.kind} changed games {sorted(changed)}")
        if verdict.kind != "settings" and before.settings != after.settings:
            problems.append("settings changed")
        return problems

    async def _one_step(self, verdict: Verdict, before: State, after: State) -> list[str]:
        gid = verdict.game_id
        assert gid is not None
        old, new = before.games[gid].version, after.games[gid].version
        entries = await self.store.read_log(gid, after=old, upto=new)
        records = [e.record for e in entries]
        expected = verdict.records
        if len(records) < len(expected):
            return [f"game {gid}: {len(records)} records, expected {expected}"]
        for (kind, fields), record in zip(expected, records, strict=False):
            if record.get("kind") != kind or any(record.get(k) != v for k, v in fields.items()):
                return [f"game {gid}: wrote {record}, expected {kind} {fields}"]
        for record in records[len(expected) :]:
            automatic = record.get("kind") == "decision" and record.get("user") is None
            if record.get("kind") != "commit" and not automatic:
                return [f"game {gid}: an extra record {record} after the action"]
        return []


def parse_component(custom_id: str) -> tuple[str, dict[str, str]] | None:
    """(kind, fields) of a custom_id by the bot's id scheme, or None."""
    for kind, template in (
        ("option", ids.OPTION_TEMPLATE),
        ("select", ids.SELECT_TEMPLATE),
        ("page", ids.PAGE_TEMPLATE),
        ("restart", ids.RESTART_TEMPLATE),
        ("play", ids.PLAY_TEMPLATE),
        ("lobby", ids.LOBBY_TEMPLATE),
        ("post", ids.POST_TEMPLATE),
    ):
        match = re.fullmatch(template, custom_id)
        if match:
            return kind, match.groupdict()
    return None


def resolve_token(kind: str, token: str, notations: list[str]) -> str | None:
    """The option a button token names: its notation itself, or its hash (exactly)."""
    if kind == "h":
        return next((n for n in notations if ids.option_hash(n) == token), None)
    return token if token in notations else None


def resolve_value(value: str, notations: list[str]) -> str | None:
    """The option a select value names: exactly one the panel listed."""
    return next((n for n in notations if ids.select_value(n) == value), None)
