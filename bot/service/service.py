"""GameService: the application layer — lobby, seats, turns, views, export and import.

The lobby lives in the log: a game exists in the store from creation (status "active",
the creator in seat 0); `join` / `leave` records list who is in, and the store's seats are
kept equal to that list (`Store.set_seats`) so "my games" finds lobbies too. `start` writes
the seats in join order and the first commit. See bot/service/loading.py for every record
kind and how a game is loaded; every commit writes its snapshot and its announcement in the
same `Store.append`.

The turn loop (bot/service/turns.py has the rules and docs/engine.md the decision): every
command's answers are appended at once; when they complete a step — a player's Confirm, the
last of a round's income choices, a draft pick with its contract — they are committed in the
same transaction, with one announcement naming and pinging exactly whoever must act next,
and a reminder for each of them. Whatever the engine then applies by itself belongs to that
commit: the next turn's only possible move, a forced turn (only Confirm left), confirmed on
its player's behalf and announced as such, and the answers of skipped seats. The previous
player keeps their undo over such a commit unless it revealed contracts or ended a round.

Results are plain data (`Outcome`, `Announcement`: an `OutcomeKind`, `Line`s naming people
by `UserRef`, the user ids to ping); the service writes no Discord markup.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import random
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from bot.rules import Event, Game, GameState, RuleError, SetupError, new_game, open_game
from bot.rules.automa.seats import level_name, parse_level
from bot.rules.catalogue import CATALOGUE, SETUP_NAMES
from bot.rules.content import company_name, load_content
from bot.rules.engine import ENGINE_VERSION
from bot.rules.setup import check_options
from bot.rules.state import GameOptions
from bot.service import quiet
from bot.service.errors import (
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
from bot.service.faults import refuse_store_faults
from bot.service.images import RendererPool, ScoreSheet
from bot.service.loading import Loaded, copy_game, engine_options, load, replay_import
from bot.service.messages import draft_lines, final_lines, next_lines, story
from bot.service.records import CHAIN_KINDS, MAX_AUTOMAS, BrokenLog
from bot.service.text import company_text, event_lines, source_group
from bot.service.turns import (
    Step,
    answer_on_behalf,
    apply_answer,
    at_handover,
    automa_played,
    commit_reason,
    revealed_or_new_round,
)
from bot.service.types import (
    SCORE_SHEET,
    VIEWS,
    Actor,
    GameSummary,
    ImageRequest,
    Line,
    OptionView,
    Outcome,
    OutcomeKind,
    PanelView,
    ScoreRow,
    ScoreView,
    ServiceConfig,
    UserRef,
    render_lines,
)
from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    REMINDER,
    TURN_PING,
    ChannelBusyError,
    Clock,
    GameNotFoundError,
    InvalidDataError,
    InvalidExportError,
    LogEntry,
    StaleVersionError,
    Store,
    UserSettings,
)
from bot.store import Game as StoredGame
from bot.store.export import MAX_EXPORT_BYTES, ParsedExport, parse_export, read_export

log = logging.getLogger(__name__)

#: The largest export file `import_game` reads.
MAX_IMPORT_BYTES = MAX_EXPORT_BYTES
#: "Leave this setting unchanged" in update_settings.
UNCHANGED: Any = object()

HOUR_MS = 3_600_000
SETUPS = ("intro", "full")
#: The board views rendered ahead after an announcement (`render_request`).
WARM_VIEWS = ("map", "shared", "full")


@refuse_store_faults
class GameService:
    """One channel's game from creation to final score; plain ids in, plain data out.

    Any number of instances (in one or several processes) may share a store: the store's
    (game, version) uniqueness decides races; the in-memory cache is keyed by version and
    checked against the store at every command.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        renderer_pool: RendererPool | None = None,
        config: ServiceConfig | None = None,
        on_commit: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.config = config or ServiceConfig()
        self.renderer_pool = renderer_pool or RendererPool(
            cache_size=self.config.image_cache_size, theme=self.config.theme
        )
        #: Called after every commit (e.g. to wake the OutboxSender).
        self.on_commit = on_commit
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._history: OrderedDict[tuple[int, int], _History] = OrderedDict()
        self._complete: OrderedDict[tuple[int, int, int], list[tuple[str, str]]] = OrderedDict()
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: (game, version) pairs already reported as unloadable.
        self._broken: set[tuple[int, int]] = set()

    # -- loading -------------------------------------------------------------------------

    async def _load(self, meta: StoredGame) -> Loaded:
        """The game at the store's version: from the cache if it is still current.

        A game whose records cannot be loaded raises GameUnreadable saying what is wrong
        (logged once per version, as a warning: it is the data, not the bot, that failed).
        """
        cached = self._cache.get(meta.id)
        if cached is not None and cached.version == meta.version:
            cached.meta = meta
            self._cache.move_to_end(meta.id)
            return cached
        try:
            loaded = await load(self.store, meta)
        except BrokenLog as exc:
            if (meta.id, meta.version) not in self._broken:
                self._broken.add((meta.id, meta.version))
                log.warning("game %d cannot be loaded: %s", meta.id, exc)
            raise GameUnreadable(
                f"Game #{meta.number} cannot be loaded: {exc}. Nothing can be played in it; "
                "a moderator can still export its records as they are and abandon it, which "
                "frees the channel."
            ) from None
        self._remember(loaded)
        if loaded.started:
            loaded = await self._repair(loaded)
        return loaded

    def _remember(self, loaded: Loaded) -> None:
        self._cache[loaded.meta.id] = loaded
        self._cache.move_to_end(loaded.meta.id)
        while len(self._cache) > self.config.autocomplete_cache_size:
            self._cache.popitem(last=False)

    async def _repair(self, loaded: Loaded) -> Loaded:
        """Bring the store's derived data (seats, status) in line with the log, and commit a
        step an older release left uncommitted (a stalled game moves on by itself)."""
        if loaded.started and tuple(loaded.seats) != loaded.meta.player_ids:
            loaded.meta = await self.store.set_seats(loaded.meta.id, loaded.seats)
        if loaded.meta.status == ACTIVE and loaded.game is not None and loaded.game.is_over:
            loaded.meta = await self.store.set_status(loaded.meta.id, FINISHED)
        if loaded.meta.status == ACTIVE and loaded.abandoned:
            loaded.meta = await self.store.set_status(loaded.meta.id, ABANDONED)
        if loaded.meta.status == ACTIVE and self._stalled(loaded):
            assert loaded.game is not None
            log.warning("game %d: committing a step left open by an older release", loaded.meta.id)
            with contextlib.suppress(GameMovedOn):  # another process did it first
                await self._land(loaded, copy_game(loaded.game), (), user=None)
            return await self._load(await self.store.get_game(loaded.meta.id))
        return loaded

    @staticmethod
    def _stalled(loaded: Loaded) -> bool:
        """True when the loaded game waits for nobody: its last answers should have been
        committed, or a skipped seat has a decision nobody answered."""
        game = loaded.game
        if game is None or game.is_over or loaded.abandoned:
            return False
        if any(loaded.is_skipped(d.player) for d in game.decisions()):
            return True
        return bool(loaded.tail_steps) and at_handover(game, loaded.tail_steps)

    async def _reload(self, game_id: int) -> Loaded:
        self._cache.pop(game_id, None)
        return await self._load(await self.store.get_game(game_id))

    async def _here_meta(self, actor: Actor) -> StoredGame:
        """The stored game active in the actor's channel (without loading its log)."""
        meta = await self.store.active_game(actor.channel_id)
        if meta is None or meta.guild_id != actor.guild_id:
            raise NoGameHere(
                "There is no game in this channel. Create one with `new` (2–4 players)."
            )
        return meta

    async def _here(self, actor: Actor, expected_game: int | None = None) -> Loaded:
        """The active game of the actor's channel; OtherGame if a panel named another one."""
        try:
            meta = await self._here_meta(actor)
        except NoGameHere:
            if expected_game is None:
                raise
            raise NoGameHere("That panel's game has ended; this channel has no game now.") from None
        if expected_game is not None and expected_game != meta.id:
            raise OtherGame(
                f"That panel belongs to another game; this channel plays game #{meta.number} now."
            )
        return await self._load(meta)

    async def game_id_of(self, guild_id: int, number: int) -> int:
        """The store id of the game with this number in this server (NoGameHere if none)."""
        try:
            return (await self.store.game_by_number(guild_id, number)).id
        except GameNotFoundError:
            raise NoGameHere(
                f"There is no game #{number} in this server; `games` lists yours with their numbers."
            ) from None

    async def _playing(self, actor: Actor, expected_game: int | None = None) -> Loaded:
        """The channel's game, which must be started and not over."""
        loaded = await self._here(actor, expected_game)
        if not loaded.started:
            raise LobbyError(
                f"The game in this channel has not started yet ({len(loaded.lobby)} joined); "
                "the creator or a channel manager can start it."
            )
        if loaded.game is None or loaded.game.is_over:
            raise GameOverError("This game is over; the board, log and scores can still be viewed.")
        return loaded

    async def _target(
        self, channel_or_game_id: int, by_game_id: bool, guild_id: int | None = None
    ) -> Loaded:
        """A game for a view: by id, or the channel's active game.

        With `guild_id` (every request from a server), a game of another server is
        answered exactly like one that does not exist.
        """
        if by_game_id:
            try:
                meta = await self.store.get_game(channel_or_game_id)
            except GameNotFoundError:
                meta = None
            if meta is None or (guild_id is not None and meta.guild_id != guild_id):
                raise NoGameHere("There is no such game in this server.") from None
        else:
            meta = await self.store.active_game(channel_or_game_id)
            if meta is None:
                meta = await self._just_finished(channel_or_game_id)
            if meta is None:
                raise NoGameHere(
                    "There is no game in this channel now (earlier games: ask by game number)."
                )
            if guild_id is not None and meta.guild_id != guild_id:
                raise NoGameHere("There is no active game in this channel.")
        loaded = await self._load(meta)
        if not loaded.started or loaded.committed is None:
            raise NoGameHere(f"Game #{meta.number} has not started yet: there is no board to show.")
        return loaded

    async def _just_finished(self, channel_id: int) -> StoredGame | None:
        """The channel's most recent game if it finished (shown until a new one starts)."""
        games = await self.store.list_games(channel_id=channel_id, limit=1)
        return games[0] if games and games[0].status == FINISHED else None

    def _company(self, loaded: Loaded, actor: Actor) -> str:
        """The actor's company, or NotAPlayer."""
        if actor.channel_id != loaded.meta.channel_id:
            raise NoGameHere("That game is played in another channel; act there.")
        company = loaded.company_of_user(actor.user_id)
        if company is None:
            raise NotAPlayer(
                "You do not play in this game; you can still look at the board, log and scores."
            )
        return company

    def _may_manage(self, loaded: Loaded, actor: Actor, what: str) -> None:
        """Creator or channel manager; else PermissionDenied naming who may."""
        if actor.channel_id != loaded.meta.channel_id:
            raise PermissionDenied(f"To {what}, use the command in the game's own channel.")
        if actor.user_id != loaded.meta.creator_id and not actor.can_manage:
            raise PermissionDenied(
                f"Only the game's creator or a member with Manage Channels (Manage Threads in a "
                f"thread) may {what}."
            )

    def _waiting_users(self, loaded: Loaded) -> tuple[int, ...]:
        users = []
        for player in loaded.players_deciding():
            user = loaded.user_of_player(player)
            if user is not None and user not in users:
                users.append(user)
        return tuple(users)

    def _waiting_line(self, loaded: Loaded) -> list[str | UserRef]:
        """Who must decide now: '@bob (Seat 4)', several joined by commas, or 'nobody'."""
        parts: list[str | UserRef] = []
        for player in loaded.players_deciding():
            user = loaded.user_of_player(player)
            parts.append(", " if parts else "")
            if user is None:
                parts.append(company_name(player))
            else:
                parts.extend([UserRef(user), f" ({company_name(player)})"])
        return parts or ["nobody"]

    # -- lifecycle ---------------------------------------------------------------------

    async def create_game(
        self,
        actor: Actor,
        *,
        players: int,
        setup: str = "intro",
        expansions: Sequence[str] = (),
        seed: int | None = None,
        map: str = "base",
        reminder_hours: int | None = None,
        automa: int = 0,
        automa_level: str | int = "medium",
    ) -> Outcome:
        """Open a lobby in the actor's channel for up to `players` companies (people and
        `automa` automa companies of `automa_level`); the creator joins."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**62)
        expansions = self.check_new_game(
            players=players,
            setup=setup,
            expansions=expansions,
            map=map,
            automa=automa,
            automa_level=automa_level,
        )
        levels = [parse_level(automa_level)] * automa
        # An expansion's own board comes with it: nobody has to name it.
        map = map_for(expansions, map)
        try:
            new_game(engine_options_for(players, setup, map, expansions, seed, levels))
        except (SetupError, RuleError, ValueError, KeyError) as exc:
            raise LobbyError(f"These options cannot start a game: {exc}") from None
        if reminder_hours is not None and reminder_hours <= 0:
            raise LobbyError("Reminder hours must be a positive number of hours.")
        options = {
            "players": players,
            "setup": setup,
            "map": map,
            "expansions": list(expansions),
            "reminder_hours": reminder_hours,
        }
        if levels:
            options["automa"] = levels
        try:
            meta = await self.store.create_game(
                guild_id=actor.guild_id,
                channel_id=actor.channel_id,
                creator_id=actor.user_id,
                options=options,
                seed=seed,
                engine_version=ENGINE_VERSION,
                seats=[actor.user_id],
            )
        except ChannelBusyError as busy:
            raise await self._channel_busy(
                busy, "finish or abandon it first, or use another channel or thread."
            ) from None
        line = Line.of(
            f"New Barrage game #{meta.number}: {players} players, {setup} setup"
            f"{expansions_text(expansions)}{automa_text(levels)}. ",
            UserRef(actor.user_id),
            f" joined ({1 + len(levels)}/{players}). Join it, then the creator starts it.",
        )
        return Outcome(OutcomeKind.CREATED, meta.id, meta.version, (line,), public=True)

    @staticmethod
    def check_new_game(
        *,
        players: int,
        setup: str,
        expansions: Sequence[str] = (),
        map: str = "base",
        automa: int = 0,
        automa_level: str | int = "medium",
    ) -> tuple[str, ...]:
        """The expansion names to store (known, each once), or NewGameRefused saying what is
        wrong and which option to change.

        Cheap and without side effects, so a caller can check before it opens a thread. The
        refusals follow the engine's own (an expansion with the wrong setup or map, two
        expansions that each replace the board), worded without any command's syntax.
        """
        if setup not in SETUPS:
            raise NewGameRefused(
                f"There is no setup '{setup}': the setups are {' and '.join(SETUPS)}.", "setup"
            )
        if not 2 <= players <= 4:
            raise NewGameRefused(f"A game has 2 to 4 players, not {players}.", "players")
        if not 0 <= automa <= MAX_AUTOMAS:
            raise NewGameRefused(
                f"A game has 0 to {MAX_AUTOMAS} automas, not {automa}.", "automa", "1"
            )
        if automa >= players:
            raise NewGameRefused(
                f"With {automa} automas a game of {players} players has no seat for a person: "
                f"choose more players or fewer automas (people and automas are 2 to 4).",
                "automa",
                str(players - 1),
            )
        try:
            levels = (parse_level(automa_level),) * automa
        except ValueError as exc:
            raise NewGameRefused(f"{exc}.", "automa_level", "medium") from None
        names = tuple(dict.fromkeys(e.strip().lower() for e in expansions if e.strip()))
        known = sorted(CATALOGUE.expansions)
        for name in names:
            if name not in CATALOGUE:
                raise NewGameRefused(
                    f"There is no expansion '{name}' (known: {', '.join(known) or 'none'}).",
                    "expansions",
                )
        options = GameOptions(
            players=players, setup=setup, map=map_for(names, map), expansions=names, automa=levels
        )
        refused = _new_game_refusal(options)
        if refused is not None:
            raise refused
        if map == "five_player" and players != 4:
            raise NewGameRefused(
                f"The 4/5-player board is played by 4 players, not {players}.", "map", "base"
            )
        try:
            check_options(options, load_content())
        except SetupError as exc:
            raise LobbyError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
        return names

    async def _lobby(self, actor: Actor, expected_game: int | None) -> Loaded:
        """The channel's game for a lobby action (a lobby button names its game)."""
        try:
            return await self._here(actor, expected_game)
        except OtherGame:
            raise OtherGame(
                "Those lobby buttons belong to another game; use the newest lobby message."
            ) from None

    async def join(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Join the lobby in the actor's channel."""
        return await self._lobby_change(actor, "join", expected_game)

    async def leave(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Leave the lobby (the creator cannot: abandon the lobby instead)."""
        return await self._lobby_change(actor, "leave", expected_game)

    async def add_automa(
        self, actor: Actor, level: str | int | None = None, *, expected_game: int | None = None
    ) -> Outcome:
        """Seat one more automa company in the lobby (creator or manager); by default of the
        level of the lobby's last automa, else Medium."""
        return await self._automa_change(actor, "automa_add", level, expected_game)

    async def remove_automa(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Take the lobby's last automa out (creator or manager)."""
        return await self._automa_change(actor, "automa_remove", None, expected_game)

    async def _automa_change(
        self, actor: Actor, kind: str, level: str | int | None, expected_game: int | None
    ) -> Outcome:
        async with self._locks[actor.channel_id]:
            loaded = await self._lobby(actor, expected_game)
            if loaded.started:
                raise LobbyError("The game has already started; automas join before the start.")
            self._may_manage(loaded, actor, "add or remove automas")
            size = int(loaded.options.get("players", 4))
            record: dict[str, Any] = {"kind": kind, "by": actor.user_id}
            if kind == "automa_add":
                if len(loaded.automa) >= MAX_AUTOMAS:
                    raise LobbyError(f"A game has at most {MAX_AUTOMAS} automas.")
                if len(loaded.lobby) + len(loaded.automa) >= size:
                    raise LobbyError(
                        f"The game is full ({size} of {size}); there is no seat for an automa."
                    )
                default = loaded.automa[-1] if loaded.automa else 1
                try:
                    record["level"] = default if level is None else parse_level(level)
                except ValueError as exc:
                    raise LobbyError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
                reason = _new_game_refusal(
                    engine_options(
                        loaded.meta, len(loaded.lobby), [*loaded.automa, record["level"]]
                    )
                )
                if reason is not None:
                    raise LobbyError(str(reason))
                automa = [*loaded.automa, record["level"]]
                news = f"An automa ({level_name(record['level'])}) joined"
            else:
                if not loaded.automa:
                    raise LobbyError("There is no automa in this lobby to remove.")
                automa = loaded.automa[:-1]
                news = f"An automa ({level_name(loaded.automa[-1])}) left"
            version = await self._append(loaded, [record])
            taken = len(loaded.lobby) + len(automa)
            line = Line.of(f"{news} game #{loaded.meta.number} ({taken}/{size}).")
            outcome_kind = OutcomeKind.JOINED if kind == "automa_add" else OutcomeKind.LEFT
            return Outcome(outcome_kind, loaded.meta.id, version, (line,), public=True)

    async def lobby_automas(self, game_id: int) -> list[str]:
        """The levels of the automas in a game's lobby (or seated), by name."""
        return [level_name(level) for level in (await self._reload(game_id)).automa]

    async def _lobby_change(self, actor: Actor, kind: str, expected_game: int | None) -> Outcome:
        for _ in range(5):  # a race with another join only means: read again and retry
            loaded = await self._lobby(actor, expected_game)
            if loaded.started:
                raise LobbyError("The game has already started; ask for a seat replacement.")
            size = int(loaded.options.get("players", 4))
            if kind == "join":
                if actor.user_id in loaded.lobby:
                    raise LobbyError("You have already joined this game.")
                if len(loaded.lobby) + len(loaded.automa) >= size:
                    raise LobbyError(
                        f"The game is full ({size} of {size}"
                        + (", automas included" if loaded.automa else "")
                        + ")."
                    )
                lobby = [*loaded.lobby, actor.user_id]
            else:
                if actor.user_id not in loaded.lobby:
                    raise LobbyError("You are not in this game's lobby.")
                if actor.user_id == loaded.meta.creator_id:
                    raise LobbyError("The creator cannot leave; abandon the game instead.")
                lobby = [u for u in loaded.lobby if u != actor.user_id]
            try:
                version = await self.store.append(
                    loaded.meta.id, loaded.version, [{"kind": kind, "user": actor.user_id}]
                )
            except StaleVersionError:
                continue
            await self.store.set_seats(loaded.meta.id, lobby)
            verb = "joined" if kind == "join" else "left"
            taken = len(lobby) + len(loaded.automa)
            line = Line.of(
                UserRef(actor.user_id), f" {verb} game #{loaded.meta.number} ({taken}/{size})."
            )
            outcome_kind = OutcomeKind.JOINED if kind == "join" else OutcomeKind.LEFT
            return Outcome(outcome_kind, loaded.meta.id, version, (line,), public=True)
        raise GameMovedOn("The lobby is busy; try again.")

    async def start(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Start the lobby's game (creator or manager): seats in join order, then setup."""
        async with self._locks[actor.channel_id]:
            loaded = await self._lobby(actor, expected_game)
            self._may_manage(loaded, actor, "start the game")
            if loaded.started:
                raise LobbyError("The game has already started.")
            automa = list(loaded.automa)
            if len(loaded.lobby) + len(automa) < 2:
                raise LobbyError(
                    f"Not enough players: {len(loaded.lobby)} joined, at least 2 are needed "
                    "(add an automa to play alone)."
                )
            seats = list(loaded.lobby)
            if loaded.meta.options.get("map") == "five_player" and len(seats) + len(automa) != 4:
                raise LobbyError(
                    f"The 4/5-player board is played by 4 players; {len(seats)} have joined."
                )
            game = new_game(engine_options(loaded.meta, len(seats), automa))
            records: list[dict[str, Any]] = [{"kind": "start", "seats": seats}]
            if automa:
                records[0]["automa"] = automa
            started = replace_loaded(loaded, seats)
            started.game = game
            names = expansions_text(loaded.options.get("expansions", ()))
            parts: list[str | UserRef] = [f"The game begins{names}. Seats: "]
            for i, user in enumerate(seats):
                parts.extend([", " if i else "", f"{i + 1}. ", UserRef(user)])
                parts.append(f" ({company_name(started.company_of_seat(i))})")
            for i, level in enumerate(automa, len(seats)):
                parts.append(
                    f", {i + 1}. {company_name(started.company_of_seat(i))} "
                    f"(automa, {level_name(level)})"
                )
            return await self._land(
                started,
                game,
                user=actor.user_id,
                records=records,
                reason="start",
                header=[Line.of(*parts, ".")],
                kind=OutcomeKind.STARTED,
            )

    async def abandon(self, actor: Actor) -> Outcome:
        """Abandon the channel's game (creator or manager); it keeps its log.

        Reads only the stored game, not its log: a game that cannot be loaded can still be
        abandoned, which frees its channel.
        """
        meta = await self._here_meta(actor)
        if actor.user_id != meta.creator_id and not actor.can_manage:
            raise PermissionDenied(
                "Only the game's creator or a member with Manage Channels (Manage Threads in a "
                "thread) may abandon the game."
            )
        line = Line.of(f"Game #{meta.number} was abandoned by ", UserRef(actor.user_id), ".")
        payload = _payload(meta, [line], reason="abandon", silent=True, button=False)
        try:
            version = await self.store.append(
                meta.id, meta.version, [{"kind": "abandon", "by": actor.user_id}], outbox=[payload]
            )
        except StaleVersionError:
            raise GameMovedOn("Another command landed first; try again.") from None
        await self.store.set_status(meta.id, ABANDONED)
        await self.store.clear_reminders(meta.id)
        self._cache.pop(meta.id, None)
        self._notify()
        return Outcome(OutcomeKind.ABANDONED, meta.id, version, (line,), announced=True)

    def _seat_index(self, loaded: Loaded, seat_or_user: int) -> int:
        if 0 <= seat_or_user < len(loaded.seats):
            return seat_or_user
        if seat_or_user in loaded.seats:
            return loaded.seats.index(seat_or_user)
        raise ServiceError(
            f"{seat_or_user} is neither a seat (0..{len(loaded.seats) - 1}) nor a seated player."
        )

    async def replace_seat(self, actor: Actor, seat_or_user: int, new_user_id: int) -> Outcome:
        """Give a seat (seat index, or the user id sitting there) to another user."""
        async with self._locks[actor.channel_id]:
            loaded = await self._playing(actor)
            self._may_manage(loaded, actor, "replace a player")
            seat = self._seat_index(loaded, seat_or_user)
            if new_user_id in loaded.seats:
                raise LobbyError(Line.of(UserRef(new_user_id), " already plays in this game."))
            old = loaded.seats[seat]
            company = loaded.company_of_seat(seat)
            header = Line.of(
                UserRef(new_user_id),
                f" takes over {company_name(company)} (seat {seat + 1}) from ",
                UserRef(old),
                ".",
            )
            seats = list(loaded.seats)
            seats[seat] = new_user_id
            record = {"kind": "replace", "seat": seat, "old": old, "new": new_user_id}
            assert loaded.game is not None
            outcome = await self._land(
                replace_loaded(loaded, seats),
                copy_game(loaded.game),
                user=actor.user_id,
                records=[record],
                header=[header],
                kind=OutcomeKind.REPLACED,
                announce=True,
                told=self._waiting_users(loaded),
            )
            await self.store.set_seats(loaded.meta.id, seats)
            return outcome

    async def skip_seat(self, actor: Actor, seat_or_user: int) -> Outcome:
        """Mark a vanished seat as skipped: from now on it passes every turn automatically.

        Its turn in progress is dropped; whatever it must decide now is answered at once, in
        the same commit (see bot/service/turns.py).
        """
        async with self._locks[actor.channel_id]:
            loaded = await self._playing(actor)
            self._may_manage(loaded, actor, "skip a player")
            seat = self._seat_index(loaded, seat_or_user)
            if seat in loaded.skipped:
                raise ServiceError(f"Seat {seat + 1} is already skipped.")
            company = loaded.company_of_seat(seat)
            header = Line.of(
                f"{company_name(company)} (seat {seat + 1}) will pass every turn from now on."
            )
            records: list[dict[str, Any]] = [{"kind": "skip", "seat": seat}]
            assert loaded.game is not None and loaded.committed is not None
            game = copy_game(loaded.game)
            tail_seats = {loaded.seat_of_player(step.player) for step in loaded.tail_steps}
            if seat in tail_seats:
                # A skipped player's half-played step is dropped before answering for it.
                records.append({"kind": "revert", "to": loaded.commit_version})
                game = open_game(copy.deepcopy(loaded.committed))
            after = replace_loaded(loaded, loaded.seats)
            after.skipped.add(seat)
            return await self._land(
                after,
                game,
                user=actor.user_id,
                records=records,
                # Someone else's step in progress stays open; otherwise the skip commits.
                reason=None if loaded.tail_steps and seat not in tail_seats else "skip",
                header=[header],
                kind=OutcomeKind.SKIPPED,
                announce=True,
                told=self._waiting_users(loaded),
            )

    async def rewind(self, actor: Actor, to_version: int) -> Outcome:
        """Rewind to the start of an earlier committed turn (manager only; announced)."""
        async with self._locks[actor.channel_id]:
            loaded = await self._playing(actor)
            if actor.channel_id != loaded.meta.channel_id or not actor.can_manage:
                raise PermissionDenied(
                    "Only a member with Manage Channels (Manage Threads in a thread) may rewind."
                )
            versions = [seq for seq, _ in loaded.commits]
            if to_version not in versions or to_version >= loaded.commit_version:
                earlier = ", ".join(str(v) for v in versions[-6:-1]) or "none"
                raise ServiceError(
                    f"Version {to_version} is not the start of an earlier committed turn "
                    f"(recent ones: {earlier})."
                )
            return await self._revert(
                loaded,
                to_version,
                actor,
                Line.of(UserRef(actor.user_id), f" rewound the game to version {to_version}."),
                OutcomeKind.REWOUND,
                missing=f"There is no saved state at version {to_version}.",
            )

    async def rewind_points(self, actor: Actor, limit: int = 25) -> list[tuple[int, int, str]]:
        """(version, round, player to move) where earlier committed turns began, newest first.

        What `rewind` accepts; for suggestions, so it reads at most `limit` snapshots.
        """
        meta = await self.store.active_game(actor.channel_id)
        if meta is None:
            return []
        try:
            loaded = await self._load(meta)
        except GameUnreadable:
            return []
        versions = [seq for seq, _ in loaded.commits if seq < loaded.commit_version]
        points = []
        for version in reversed(versions[-limit:]):
            snap = await self.store.latest_snapshot(meta.id, at_or_before=version)
            if snap is None or snap.version != version:
                continue  # rewind needs the state saved at that very version
            state = snap.state if isinstance(snap.state, Mapping) else {}
            player = state.get("current") or state.get("phase") or "?"
            points.append((version, int(state.get("round") or 0), str(player)))
        return points

    # -- play --------------------------------------------------------------------------

    async def play(
        self,
        actor: Actor,
        notations: Sequence[str],
        *,
        expected_version: int | None = None,
        expected_game: int | None = None,
        listed: bool = False,
    ) -> Outcome:
        """Answer the actor's decision with one or more notations, all or nothing.

        A click on a panel names its game and version (`expected_game`, `expected_version`)
        and answers with one of the options it listed (`listed`): the notation must be
        exactly one of the current options, not merely something the engine would parse.
        """
        if isinstance(notations, str):
            notations = [notations]
        notations = [n for n in notations if n.strip()]
        if not notations:
            raise InvalidMove("Give at least one move (pick an option from the list).")
        async with self._locks[actor.channel_id]:
            loaded = await self._playing(actor, expected_game)
            company = self._company(loaded, actor)
            self._check_version(loaded, actor, expected_version)
            assert loaded.game is not None
            decision = loaded.game.decision(company)
            if decision is None:
                raise NotYourTurn(
                    Line.of(
                        "It is not your decision now: waiting for ",
                        *self._waiting_line(loaded),
                        ".",
                    )
                )
            if listed and (len(notations) != 1 or notations[0] not in decision.notations):
                raise InvalidMove(
                    "That choice is not one of the options of your panel; nothing was played."
                )
            settings = await self.store.get_user_settings(actor.user_id)
            trial = copy_game(loaded.game)
            steps: list[Step] = []
            for i, text in enumerate(notations):
                done = " Nothing was played." if i else ""
                if trial.decision(company) is None:
                    raise InvalidMove(
                        f"'{text}' was refused: after '{notations[i - 1]}' you have nothing "
                        f"more to decide.{done}",
                        text,
                    )
                try:
                    steps.append(apply_answer(trial, text, company, actor.user_id))
                except RuleError as exc:
                    raise InvalidMove(f"'{text}' was refused: {exc}.{done}", text) from None
            following = trial.decision(company)
            if (
                settings.skip_confirm
                and following is not None
                and following.kind == "confirm"
                and not steps[-1].fresh_turn
            ):
                steps.append(apply_answer(trial, "confirm", company, actor.user_id))
            return await self._land(loaded, trial, steps, user=actor.user_id)

    async def confirm(self, actor: Actor, *, expected_version: int | None = None) -> Outcome:
        """Confirm the actor's turn (the same as playing "confirm")."""
        return await self.play(actor, ["confirm"], expected_version=expected_version)

    def _check_version(self, loaded: Loaded, actor: Actor, expected: int | None) -> None:
        if expected is not None and expected != loaded.version:
            raise GameMovedOn(
                f"The game moved on (that prompt was for version {expected}, it is now at "
                f"{loaded.version}); here is your current decision.",
                self._panel(loaded, actor.user_id),
            )

    async def restart_turn(
        self,
        actor: Actor,
        *,
        expected_version: int | None = None,
        expected_game: int | None = None,
    ) -> Outcome:
        """Throw away the actor's turn in progress: back to where it began."""
        async with self._locks[actor.channel_id]:
            loaded = await self._playing(actor, expected_game)
            company = self._company(loaded, actor)
            self._check_version(loaded, actor, expected_version)
            if not loaded.tail:
                raise ServiceError("There is nothing to restart: your turn has not begun.")
            if any(r.get("player") != company for r in loaded.tail):
                raise ServiceError(
                    Line.of(
                        "Only the player whose turn is in progress can restart it (",
                        *self._waiting_line(loaded),
                        ").",
                    )
                )
            version = await self._append(loaded, [{"kind": "revert", "to": loaded.commit_version}])
            after = await self._reload(loaded.meta.id)
            panel = self._panel(after, actor.user_id)
            line = Line.of("Your turn was restarted.")
            return Outcome(OutcomeKind.RESTARTED, after.meta.id, version, (line,), decision=panel)

    async def undo(self, actor: Actor) -> Outcome:
        """Undo the actor's last committed turn, if nobody acted since and nothing was revealed.

        A forced turn confirmed on someone's behalf in that commit is undone with it.
        """
        async with self._locks[actor.channel_id]:
            loaded = await self._playing(actor)
            company = self._company(loaded, actor)
            if len(loaded.commits) < 2:
                raise ServiceError("There is no committed turn to undo.")
            _, last = loaded.commits[-1]
            if last.get("user") != actor.user_id or last.get("reason") != "turn":
                raise ServiceError(
                    "You can only undo your own turn, and only while it is the last one "
                    "committed; someone else acted since."
                )
            if not last.get("undoable") and last.get("automa"):
                raise ServiceError(
                    "That turn cannot be undone: the automa played right after it and turned "
                    "up cards of its deck, which a new try could not hide."
                )
            if not last.get("undoable"):
                raise ServiceError(
                    "That turn cannot be undone: hidden information was revealed at its "
                    "confirmation (new contracts), or it ended a round."
                )
            if loaded.tail:
                raise ServiceError(
                    f"{company_name(loaded.tail[0].get('player'))} has already started their "
                    "turn; undo is no longer possible."
                )
            return await self._revert(
                loaded,
                loaded.commits[-2][0],
                actor,
                Line.of(
                    f"{company_name(company)} (",
                    UserRef(actor.user_id),
                    ") took back their last turn.",
                ),
                OutcomeKind.UNDONE,
                missing="That turn cannot be undone: its starting state was not saved.",
            )

    async def _revert(
        self,
        loaded: Loaded,
        version: int,
        actor: Actor,
        header: Line,
        kind: OutcomeKind,
        *,
        missing: str,
    ) -> Outcome:
        """Go back to the committed state saved at `version` (undo, rewind), announced."""
        snap = await self.store.latest_snapshot(loaded.meta.id, at_or_before=version)
        if snap is None or snap.version != version:
            raise ServiceError(missing)
        return await self._land(
            loaded,
            open_game(_state_from_json(snap.state)),
            user=actor.user_id,
            records=[{"kind": "revert", "to": version}],
            reason="undo" if kind is OutcomeKind.UNDONE else "rewind",
            header=[header],
            kind=kind,
        )

    async def _land(
        self,
        loaded: Loaded,
        game: Game,
        steps: Sequence[Step] = (),
        *,
        user: int | None,
        records: Sequence[dict[str, Any]] = (),
        reason: str | None = None,
        header: Sequence[Line] = (),
        kind: OutcomeKind | None = None,
        announce: bool = False,
        told: Sequence[int] = (),
    ) -> Outcome:
        """Append `records` (a start, a revert, a skip...) and the answers in `steps`, and
        commit when they complete a step (bot/service/turns.py).

        `game` is the state after them. The service first answers for skipped seats and
        confirms forced turns; the commit (forced by a `reason`) writes the snapshot, the
        announcement (`header`, what happened, who acts next) and the reminders. `announce`
        writes the announcement even when nothing is committed (a seat replaced mid-turn);
        `told` are users already pinged for the decision they still face (a moderator's
        command is no reason to ping them again).
        """
        on_behalf = answer_on_behalf(game, steps[-1] if steps else None, loaded.is_skipped)
        new_steps = [*steps, *on_behalf]
        # A start or a revert begins afresh; otherwise these answers continue the open step.
        fresh_chain = any(r.get("kind") in ("start", "revert") for r in records)
        step_so_far = [*(() if fresh_chain else loaded.tail_steps), *new_steps]
        commit = reason is not None or at_handover(game, step_so_far)
        all_records = [*records, *(dict(s.record) for s in new_steps)]
        state_json: dict[str, Any] | None = None
        after = replace_loaded(loaded, loaded.seats)
        after.game = game
        if commit:
            reason = reason or commit_reason(game, step_so_far)
            round_before = loaded.committed.round if loaded.committed is not None else None
            undoable = reason == "turn" and not revealed_or_new_round(
                step_so_far, round_before, game
            )
            all_records.append(
                {
                    "kind": "commit",
                    "reason": "end" if game.is_over else reason,
                    "player": after.company_of_user(user) if user is not None else None,
                    "user": user,
                    "undoable": undoable,
                }
            )
            if automa_played(new_steps):
                all_records[-1]["automa"] = True  # why it cannot be undone
            state_json = game.state.to_json()
            # A copy for everyone to see (from the snapshot's JSON: cheaper than a deepcopy).
            after.committed = GameState.from_json(state_json)
            after.commit_version = loaded.version + len(all_records)
            after.tail_steps = []
        if not all_records:
            return self._outcome(loaded, kind, header, user, announced=False)
        payload = None
        if commit or announce:
            happened = story(
                step_so_far if commit else (),
                after.user_of_player,
                round_no=loaded.committed.round if loaded.committed is not None else 1,
                limit=self.config.announce_lines,
                name_people=not game.is_over,
            )
            payload = await self._turn_payload(
                after,
                [*header, *happened],
                "end" if game.is_over else (reason or "turn"),
                told=told,
            )
        try:
            version = await self.store.append(
                loaded.meta.id,
                loaded.version,
                all_records,
                snapshot=state_json if commit else None,
                outbox=[payload] if payload is not None else (),
            )
        except StaleVersionError:
            fresh = await self._reload(loaded.meta.id)
            panel = self._panel(fresh, user) if user is not None else None
            raise GameMovedOn(
                "Another command landed first; the game moved on. Here is your current decision.",
                panel,
            ) from None
        if fresh_chain or any(r.get("kind") == "replace" for r in records):
            after = await self._reload(loaded.meta.id)
        else:
            base = loaded.version
            after.version = version
            after.meta = replace(loaded.meta, version=version)
            added = [(base + i + 1, r) for i, r in enumerate(all_records)]
            after.chain = [
                *loaded.chain,
                *((seq, r) for seq, r in added if r["kind"] in CHAIN_KINDS),
            ]
            if commit:
                after.commits = [*loaded.commits, (version, all_records[-1])]
            else:
                after.tail_steps = [*loaded.tail_steps, *new_steps]
            self._remember(after)
        if game.is_over and commit:
            after.meta = await self.store.set_status(after.meta.id, FINISHED)
        elif commit or announce:
            await self._schedule_reminders(after)
        if payload is not None:
            self._notify()
        return self._outcome(after, kind, header, user, announced=payload is not None)

    def _outcome(
        self,
        after: Loaded,
        kind: OutcomeKind | None,
        header: Sequence[Line],
        user: int | None,
        *,
        announced: bool,
    ) -> Outcome:
        """The actor's outcome of a landing: its kind (from the game when not given)."""
        over = after.game is not None and after.game.is_over
        if kind is None:
            if over and announced:
                kind = OutcomeKind.GAME_OVER
            else:
                kind = OutcomeKind.COMMITTED if announced else OutcomeKind.NOTED
        panel = self._panel(after, user) if user is not None else None
        return Outcome(
            kind,
            after.meta.id,
            after.version,
            tuple(header),
            announced=announced,
            decision=panel,
        )

    async def _append(
        self, loaded: Loaded, records: list[dict[str, Any]], *, outbox: Sequence[Any] = ()
    ) -> int:
        try:
            return await self.store.append(loaded.meta.id, loaded.version, records, outbox=outbox)
        except StaleVersionError:
            raise GameMovedOn("Another command landed first; try again.") from None

    def _notify(self) -> None:
        if self.on_commit is not None:
            self.on_commit()

    # -- announcements and reminders -----------------------------------------------------

    async def _turn_payload(
        self, after: Loaded, lines: list[Line], reason: str, *, told: Sequence[int] = ()
    ) -> dict[str, Any]:
        """The announcement of a committed state: what happened, then who acts next (pinged,
        unless already `told`), or, once the game is over, the result (everyone pinged) and
        the score sheet."""
        game = after.game
        assert game is not None
        board = ImageRequest(after.meta.id, after.commit_version, "map")
        if game.is_over:
            lines = [*lines, *final_lines(game.state, after.user_of_player)]
            waiting: tuple[int, ...] = ()
            pinged = tuple(dict.fromkeys(after.seats))
            sheet = ImageRequest(after.meta.id, after.commit_version, SCORE_SHEET)
            images: tuple[ImageRequest, ...] = (sheet, board)
        else:
            lines = [*lines, *next_lines(game, after.user_of_player)]
            waiting = self._waiting_users(after)
            pinged = tuple(user for user in waiting if user not in told)
            images = (board,)
        mentions, silent = await self._pings(pinged)
        return _payload(
            after.meta,
            lines,
            reason=reason,
            images=images,
            mentions=mentions,
            waiting=waiting,
            silent=silent,
            button=not game.is_over,
        )

    async def _pings(self, users: Sequence[int]) -> tuple[tuple[int, ...], bool]:
        """Who to ping among `users`, and whether the message goes out silently.

        Users in their quiet hours are not pinged now (their reminder pings them when quiet
        hours end) unless all are: then all are mentioned and the message is silent.
        """
        now = self.clock()
        awake = []
        for user in users:
            if not quiet.in_quiet_hours(await self.store.get_user_settings(user), now):
                awake.append(user)
        if awake or not users:
            return tuple(awake), False
        return tuple(users), True

    async def _schedule_reminders(self, loaded: Loaded) -> None:
        """After a commit: one reminder for each player who must decide now."""
        await self.store.clear_reminders(loaded.meta.id)
        now = self.clock()
        for user in self._waiting_users(loaded):
            settings = await self.store.get_user_settings(user)
            if quiet.in_quiet_hours(settings, now):
                # The announcement went out silently: the turn's own ping follows when
                # quiet hours end, and the reminders after it.
                due, kind = quiet.quiet_end(settings, now), TURN_PING
            else:
                due = quiet.not_quiet(settings, now + self.first_reminder_ms(loaded, settings))
                kind = REMINDER
            await self.store.set_reminder(loaded.meta.id, user, due, kind=kind)

    def first_reminder_ms(self, loaded: Loaded, settings: UserSettings) -> int:
        """How long a turn may wait before its first reminder: the player's hours, else the
        game's, else the server's `reminder_hours` (fractions honoured)."""
        return self._reminder_ms(loaded, settings, self.config.reminder_hours)

    def repeat_reminder_ms(self, loaded: Loaded, settings: UserSettings) -> int:
        """The time between further reminders: the player's hours, else the game's, else the
        server's `repeat_hours`."""
        return self._reminder_ms(loaded, settings, self.config.repeat_hours)

    @staticmethod
    def _reminder_ms(loaded: Loaded, settings: UserSettings, default_hours: float) -> int:
        """A player's or game's own hours (one setting for first and further reminders)."""
        hours = settings.reminder_hours or loaded.options.get("reminder_hours") or default_hours
        return max(1, round(float(hours) * HOUR_MS))

    async def game_for_reminder(self, game_id: int) -> Loaded | None:
        """The loaded game (for the ReminderRunner), or None if it is gone."""
        try:
            return await self._load(await self.store.get_game(game_id))
        except (GameNotFoundError, GameUnreadable):
            return None

    def users_deciding(self, loaded: Loaded) -> tuple[int, ...]:
        """Users with a pending decision in a loaded game."""
        return self._waiting_users(loaded)

    # -- views -------------------------------------------------------------------------

    async def panel(self, actor: Actor, *, expected_game: int | None = None) -> PanelView:
        """The actor's current decision (their turn in progress included)."""
        loaded = await self._playing(actor, expected_game)
        self._company(loaded, actor)
        return self._panel(loaded, actor.user_id)

    def _panel(self, loaded: Loaded, user_id: int) -> PanelView:
        game = loaded.game
        company = loaded.company_of_user(user_id)
        waiting = self._waiting_users(loaded)
        if game is None or company is None or game.is_over:
            prompt = "The game is over." if game is not None and game.is_over else "Not playing."
            return PanelView(
                loaded.meta.id,
                loaded.version,
                user_id,
                company,
                prompt,
                "none",
                (),
                waiting_for=waiting,
                flag=loaded.flag,
            )
        decision = game.decision(company)
        mine = bool(loaded.tail) and all(r.get("player") == company for r in loaded.tail)
        done = tuple(event_lines(loaded.tail_events)) if mine else ()
        last = loaded.commits[-1][1] if loaded.commits else {}
        can_undo = (
            last.get("user") == user_id
            and last.get("reason") == "turn"
            and bool(last.get("undoable"))
            and not loaded.tail
            and len(loaded.commits) > 1
        )
        if decision is None:
            return PanelView(
                loaded.meta.id,
                loaded.version,
                user_id,
                company,
                "Waiting for "
                + (", ".join(company_name(p) for p in loaded.players_deciding()) or "nobody")
                + ".",
                "wait",
                (),
                done=done,
                can_undo=can_undo,
                waiting_for=waiting,
                flag=loaded.flag,
            )
        options = tuple(
            OptionView(o.notation, o.label, o.group, o.description) for o in decision.options
        )
        return PanelView(
            game_id=loaded.meta.id,
            version=loaded.version,
            user_id=user_id,
            company=company,
            prompt=decision.prompt,
            kind=decision.kind,
            options=options,
            done=done,
            can_restart=mine,
            can_confirm=decision.kind == "confirm",
            can_undo=can_undo,
            simultaneous=decision.simultaneous,
            waiting_for=waiting,
            your_turn=True,
            flag=loaded.flag,
        )

    async def autocomplete(self, actor: Actor, typed: str) -> list[tuple[str, str]]:
        """Up to 25 (label, notation) pairs of the actor's options matching `typed`."""
        meta = await self.store.active_game(actor.channel_id)
        if meta is None:
            return []
        key = (meta.id, meta.version, actor.user_id)
        choices = self._complete.get(key)
        if choices is None:
            try:
                loaded = await self._load(meta)
            except GameUnreadable:
                return []
            company = loaded.company_of_user(actor.user_id)
            decision = (
                loaded.game.decision(company)
                if loaded.game is not None and company and not loaded.game.is_over
                else None
            )
            choices = [] if decision is None else [(o.label, o.notation) for o in decision.options]
            self._complete[key] = choices
            while len(self._complete) > self.config.autocomplete_cache_size:
                self._complete.popitem(last=False)
        words = typed.casefold().split()
        hits = [
            c for c in choices if all(w in c[0].casefold() or w in c[1].casefold() for w in words)
        ]
        return hits[:25]

    async def board_image(
        self,
        channel_or_game_id: int,
        view: str = "map",
        company: str | None = None,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> bytes:
        """A PNG of the last committed state of the channel's game (or the game with that id)."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        assert loaded.committed is not None
        return await self._render(
            loaded.meta.id, loaded.commit_version, loaded.committed, view, company
        )

    async def _render(
        self, game_id: int, version: int, state: Any, view: str, company: str | None
    ) -> bytes:
        if view == SCORE_SHEET:
            return await self._score_sheet(game_id, version)
        if view not in VIEWS:
            raise ServiceError(f"Unknown view '{view}'; choose one of {', '.join(VIEWS)}.")
        if company is not None and company not in state.companies:
            names = ", ".join(state.companies)
            raise ServiceError(f"There is no company '{company}' in this game ({names}).")
        key = (game_id, version, view, company)
        # The committed states handed here are never changed again: no copy for the worker.
        return await self.renderer_pool.render(key, state, view, company)

    async def _score_sheet(self, game_id: int, version: int) -> bytes:
        """The score sheet of a game's committed state at `version` (its final one)."""
        loaded = await self._load(await self.store.get_game(game_id))
        if loaded.committed is None or loaded.commit_version != version:
            raise ServiceError(f"Game {game_id} has no committed state at version {version}.")
        history = await self._history_of(loaded)
        sheet = ScoreSheet(loaded.committed, history.vp_events)
        return await self.renderer_pool.render(
            (game_id, version, SCORE_SHEET, None), sheet, SCORE_SHEET, None
        )

    async def render_request(self, request: ImageRequest) -> bytes:
        """Render an image request of a committed version (for the OutboxSender)."""
        if request.view == SCORE_SHEET:
            return await self._score_sheet(request.game_id, request.version)
        cached = self._cache.get(request.game_id)
        if cached is not None and cached.commit_version == request.version and cached.committed:
            state = cached.committed
        else:
            snap = await self.store.latest_snapshot(request.game_id, at_or_before=request.version)
            if snap is None:
                raise ServiceError(f"No saved state of game {request.game_id}")
            state = _state_from_json(snap.state)
        png = await self._render(
            request.game_id, request.version, state, request.view, request.company
        )
        if request.view == SCORE_SHEET:
            return png
        # Players and spectators look at the board after an announcement: its other views
        # are rendered in the background, after this one, so they are usually cached by then.
        for view in WARM_VIEWS:
            if view != request.view:
                self.renderer_pool.warm((request.game_id, request.version, view, None), state, view)
        return png

    async def company_summary(
        self,
        channel_or_game_id: int,
        company: str | None = None,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> str:
        """A text summary of one company (default: all companies) at the committed state."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        state = loaded.committed
        assert state is not None
        if company is not None and company not in state.companies:
            names = ", ".join(state.companies)
            raise ServiceError(f"There is no company '{company}' in this game ({names}).")
        if not state.companies:
            lines = draft_lines(state, loaded.seats.__getitem__)
            return render_lines(lines, lambda user: f"seat {loaded.seats.index(user) + 1}")
        ids = [company] if company else list(state.companies)
        return "\n".join(company_text(state, c) for c in ids)

    async def _history_of(self, loaded: Loaded) -> _History:
        """Log lines, VP by source and VP events of the committed game (a replay, cached by
        version)."""
        key = (loaded.meta.id, loaded.commit_version)
        hit = self._history.get(key)
        if hit is not None:
            return hit
        game = new_game(engine_options(loaded.meta, len(loaded.seats), loaded.automa))
        lines: list[str] = []
        vp_events: list[Event] = []
        vp: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for seq, rec in loaded.chain:
            if seq > loaded.commit_version:
                break
            if rec["kind"] == "commit":
                continue
            try:
                events = game.apply(rec["notation"], rec.get("player"))
            except RuleError:
                lines.append("(the rest of the log no longer replays)")
                break
            lines.extend(event_lines(events))
            for e in events:
                if e.kind == "vp" and e.company:
                    vp[e.company][source_group(e.source)] += e.amount
                    vp_events.append(e)
        result = _History(lines, {c: dict(v) for c, v in vp.items()}, tuple(vp_events))
        self._history[key] = result
        while len(self._history) > 32:
            self._history.popitem(last=False)
        return result

    async def log_lines(
        self,
        channel_or_game_id: int,
        n: int = 20,
        *,
        by_game_id: bool = False,
        guild_id: int | None = None,
    ) -> list[str]:
        """The last `n` lines of the game's log as text (committed turns only)."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        lines = (await self._history_of(loaded)).lines
        return lines[-n:] if n > 0 else []

    async def score(
        self, channel_or_game_id: int, *, by_game_id: bool = False, guild_id: int | None = None
    ) -> ScoreView:
        """VP now, by source, and the final ranking once the game is over."""
        loaded = await self._target(channel_or_game_id, by_game_id, guild_id)
        state = loaded.committed
        assert state is not None
        vp = (await self._history_of(loaded)).vp
        ranks = {e["company"]: e["place"] for e in state.result.get("ranking", [])}
        rows = []
        for cid, company in state.companies.items():
            sources = dict(vp.get(cid, {}))
            start = company.vp - sum(sources.values())
            if start:
                sources["start"] = start
            breakdown = tuple(sorted(sources.items(), key=lambda kv: (-kv[1], kv[0])))
            rows.append(
                ScoreRow(cid, loaded.user_of_player(cid), company.vp, breakdown, ranks.get(cid))
            )
        rows.sort(key=lambda r: (r.rank or 99, -r.vp))
        draft = () if state.companies else tuple(draft_lines(state, loaded.seats.__getitem__))
        return ScoreView(
            loaded.meta.id, loaded.commit_version, state.finished, state.round, tuple(rows), draft
        )

    async def my_games(self, guild_id: int, user_id: int) -> list[GameSummary]:
        """The user's active games in this server and whose turn it is in each."""
        out = []
        for meta in await self.store.list_games(guild_id=guild_id, user_id=user_id, status=ACTIVE):
            try:
                loaded = await self._load(meta)
            except GameUnreadable as exc:
                players = meta.player_ids
                out.append(
                    GameSummary(
                        meta.id, meta.guild_id, meta.channel_id, meta.status, "broken",
                        players, (), False, None, meta.number, str(exc),
                    )
                )  # fmt: skip
                continue
            waiting = self._waiting_users(loaded) if loaded.started else ()
            stage = "playing" if loaded.started else "lobby"
            players = tuple(loaded.seats) if loaded.started else tuple(loaded.lobby)
            out.append(
                GameSummary(
                    meta.id,
                    meta.guild_id,
                    meta.channel_id,
                    meta.status,
                    stage,
                    players,
                    waiting,
                    user_id in waiting,
                    loaded.committed.round if loaded.committed is not None else None,
                    meta.number,
                )
            )
        return out

    # -- settings ----------------------------------------------------------------------

    async def settings(self, user_id: int) -> UserSettings:
        """A user's settings."""
        return await self.store.get_user_settings(user_id)

    async def update_settings(
        self,
        user_id: int,
        *,
        time_zone: str | None = UNCHANGED,
        quiet_hours: tuple[int, int] | None = UNCHANGED,
        dm_opt_in: bool = UNCHANGED,
        skip_confirm: bool = UNCHANGED,
        reminder_hours: int | None = UNCHANGED,
    ) -> UserSettings:
        """Change some settings; quiet hours are (start, end) minutes after local midnight."""
        current = await self.store.get_user_settings(user_id)
        changes: dict[str, Any] = {}
        if time_zone is not UNCHANGED:
            if time_zone and time_zone not in time_zone_names():
                shown = time_zone if len(time_zone) <= 40 else time_zone[:37] + "..."
                raise InvalidSettings(
                    f"'{shown}' is not a time zone; use an IANA name like Europe/Berlin "
                    "(the suggestions list them)."
                )
            changes["time_zone"] = time_zone or None
        if quiet_hours is not UNCHANGED:
            start, end = quiet_hours if quiet_hours else (None, None)
            changes["quiet_start"], changes["quiet_end"] = start, end
        if dm_opt_in is not UNCHANGED:
            changes["dm_opt_in"] = bool(dm_opt_in)
        if skip_confirm is not UNCHANGED:
            changes["skip_confirm"] = bool(skip_confirm)
        if reminder_hours is not UNCHANGED:
            changes["reminder_hours"] = reminder_hours
        try:
            new = replace(current, **changes)
        except InvalidDataError as exc:
            raise InvalidSettings(f"Those settings cannot be used: {exc}.") from None
        return await self.store.put_user_settings(new)

    # -- moving games ------------------------------------------------------------------

    async def export_game(self, actor: Actor, game_id: int | None = None) -> dict[str, Any]:
        """The channel's game (or this server's game with this id) as a JSON-able document.

        The raw records as stored, without loading them: a game that cannot be loaded can
        still be exported (to look at, or to mend and import).
        """
        if game_id is None:
            game_id = (await self._here_meta(actor)).id
        try:
            meta = await self.store.get_game(game_id)
        except GameNotFoundError:
            meta = None
        if meta is None or meta.guild_id != actor.guild_id:
            raise NoGameHere("There is no such game in this server.")
        doc = await self.store.export_game(game_id)
        # Players see the game's number in their server, never the store's id.
        doc.pop("source_game_id", None)
        return {"source_game_number": meta.number, **doc}

    async def import_game(self, actor: Actor, data: bytes | str | Mapping[str, Any]) -> Outcome:
        """Import an exported game (the file's bytes, or its parsed document) into the
        actor's channel (manager).

        The file is checked by the same validator and replayed by the same code as a stored
        game is loaded with, so an accepted file loads exactly as it will once stored. A
        game that is still active in some channel is refused: there would be two live copies.
        """
        if not actor.can_manage:
            raise PermissionDenied(
                "Only a member with Manage Channels (Manage Threads in a thread) may import."
            )
        try:
            doc = data if isinstance(data, Mapping) else read_export(data)
            parsed = parse_export(doc)
        except InvalidExportError as exc:
            raise ImportRefused(f"That file is not a game export: {exc}.") from None
        entries = [LogEntry(0, seq, str(rec.get("kind")), rec, at) for seq, at, rec in parsed.log]
        probe = StoredGame(
            0,
            actor.guild_id,
            actor.channel_id,
            parsed.status,
            parsed.options,
            parsed.seed,
            parsed.engine_version,
            parsed.creator_id,
            parsed.created_at,
            parsed.created_at,
            parsed.ended_at,
            len(entries),
        )
        try:
            replayed = replay_import(probe, entries)
        except BrokenLog as exc:
            raise ImportRefused(f"That game cannot be played on: {exc}.") from None
        recorded = self._as_recorded(doc, parsed, replayed)
        await self._refuse_live_copy(actor, parsed)
        try:
            meta = await self.store.import_game(
                recorded, guild_id=actor.guild_id, channel_id=actor.channel_id
            )
        except ChannelBusyError as busy:
            raise await self._channel_busy(
                busy, "abandon it first, or import into another channel or thread."
            ) from None
        loaded = await self._reload(meta.id)
        header = Line.of(f"Game imported as #{meta.number} ({len(entries)} log records replayed).")
        if meta.status == ACTIVE and loaded.game is not None and not loaded.game.is_over:
            # A commit of the imported state: its snapshot, announcement and reminders.
            records = []
            if loaded.tail:
                records.append({"kind": "revert", "to": loaded.commit_version})
                assert loaded.committed is not None
                game = open_game(copy.deepcopy(loaded.committed))
            else:
                game = copy_game(loaded.game)
            return await self._land(
                loaded,
                game,
                user=None,
                records=records,
                reason="import",
                header=[header],
                kind=OutcomeKind.IMPORTED,
            )
        return Outcome(OutcomeKind.IMPORTED, meta.id, meta.version, (header,), public=True)

    @staticmethod
    def _as_recorded(doc: Mapping[str, Any], parsed: ParsedExport, replayed: Loaded) -> dict:
        """The document with the status and seats its records say (the log is the truth)."""
        if not replayed.started:
            raise ImportRefused("That game never started; there is nothing to import.")
        over = replayed.game is not None and replayed.game.is_over
        status = ABANDONED if replayed.abandoned else FINISHED if over else ACTIVE
        seats = [
            {"seat": i, "user_id": user, "joined_at": parsed.created_at, "replaced_at": None}
            for i, user in enumerate(replayed.seats)
        ]
        return {**doc, "status": status, "seats": seats}

    async def _channel_busy(self, busy: ChannelBusyError, what_to_do: str) -> LobbyError:
        """The refusal for a channel that already has an active game, naming that game by
        its number in the server (the store's error carries only its internal id)."""
        number = None
        if busy.active_game_id is not None:
            with contextlib.suppress(GameNotFoundError):
                number = (await self.store.get_game(busy.active_game_id)).number
        game = f"game #{number}" if number is not None else "a game"
        return LobbyError(f"This channel already has {game} going; {what_to_do}")

    async def _refuse_live_copy(self, actor: Actor, parsed: ParsedExport) -> None:
        """ImportRefused naming the channel where this very game is still active."""
        for game in await self.store.list_games(seed=parsed.seed, status=ACTIVE):
            if (game.creator_id, game.created_at) != (parsed.creator_id, parsed.created_at):
                continue
            where = (
                f"in <#{game.channel_id}> (game #{game.number})"
                if game.guild_id == actor.guild_id
                else "in another server"
            )
            raise ImportRefused(
                f"This game is still active {where}. Abandon it there first (its records are "
                "kept); then it can be continued here."
            )


@cache
def time_zone_names() -> frozenset[str]:
    """The IANA time zone names this machine knows (a folder such as 'Etc' is not one)."""
    return frozenset(available_timezones())


def expansions_text(names: Sequence[str]) -> str:
    """' with <display names>' for a lobby message ('' without expansions)."""
    if not names:
        return ""
    return " with " + " and ".join(
        CATALOGUE.display_name(n) if n in CATALOGUE else n for n in names
    )


#: The boards as players call them.
BOARD_NAMES = {"base": "standard", "five_player": "4/5-player"}


def _new_game_refusal(probe: GameOptions) -> NewGameRefused | None:
    """Why these options' expansions cannot be played so, with the one option to change;
    None when they can. From the catalogue's declarations (setups, own board, exclusions),
    worded without any command's syntax; combinations first, so that two expansions that
    each bring a board hear that they cannot be played together."""
    names = CATALOGUE.hook_order(probe.expansions)
    for name in names:
        info = CATALOGUE.info(name)
        for other in names:
            if other != name and (other in info.excludes or name in CATALOGUE.info(other).excludes):
                return NewGameRefused(
                    f"{info.display_name} and {CATALOGUE.display_name(other)} cannot be played "
                    "together.",
                    "expansions",
                )
    for name in names:
        info = CATALOGUE.info(name)
        if probe.setup not in info.setups:
            wanted = info.setups[0]
            return NewGameRefused(
                f"{info.display_name} is played with the {SETUP_NAMES[wanted]} only, not with "
                f"the {SETUP_NAMES.get(probe.setup, probe.setup)}.",
                "setup",
                wanted,
            )
        if info.map and probe.map != info.map:
            board = BOARD_NAMES.get(probe.map, probe.map.replace("_", " ").capitalize())
            return NewGameRefused(
                f"{info.display_name} brings its own board; it cannot be played on the {board} "
                "board.",
                "map",
                "base",
            )
    reason = CATALOGUE.refuse(probe)
    if reason is not None:  # an expansion's own rule beyond its declaration
        return NewGameRefused(f"{reason[:1].upper()}{reason[1:]}.", "expansions")
    return None


def map_for(expansions: Sequence[str], map: str = "base") -> str:
    """The map a new game is set up on: an expansion's own board replaces the default one."""
    if map != "base":
        return map
    return CATALOGUE.own_map(name for name in expansions if name in CATALOGUE) or map


def engine_options_for(
    players: int,
    setup: str,
    map: str,
    expansions: Sequence[str],
    seed: int,
    automa: Sequence[int] = (),
) -> Any:
    """Engine options from create_game's arguments (`players`: people and automas)."""
    from bot.rules import GameOptions

    return GameOptions(
        players=players,
        setup=setup,
        map=map,
        expansions=tuple(expansions),
        seed=seed,
        automa=tuple(automa),
    )


def automa_text(levels: Sequence[int]) -> str:
    """', with 2 automas (medium)' for a lobby line; '' without automas."""
    if not levels:
        return ""
    names = ", ".join(dict.fromkeys(level_name(level) for level in levels))
    count = "1 automa" if len(levels) == 1 else f"{len(levels)} automas"
    return f", with {count} ({names})"


def replace_loaded(loaded: Loaded, seats: list[int]) -> Loaded:
    """A shallow copy of a loaded game with other seats (lists copied)."""
    return replace(
        loaded,
        seats=list(seats),
        skipped=set(loaded.skipped),
        chain=list(loaded.chain),
        commits=list(loaded.commits),
        tail_steps=list(loaded.tail_steps),
    )


def _state_from_json(data: Any) -> Any:
    from bot.rules import load_state

    return load_state(data)


@dataclass(frozen=True, slots=True)
class _History:
    """A committed game's log lines, VP by company and source group, and its VP events."""

    lines: list[str]
    vp: dict[str, dict[str, int]]
    vp_events: tuple[Event, ...]


def _payload(
    meta: StoredGame,
    lines: Sequence[Line],
    *,
    reason: str,
    images: Sequence[ImageRequest] = (),
    mentions: Sequence[int] = (),
    waiting: Sequence[int] = (),
    silent: bool = False,
    button: bool = True,
) -> dict[str, Any]:
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
