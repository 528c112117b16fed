"""A part of the service, the desk every other part works at: loading and locating games,
who may act, the panel, and landing the commit that every command's records go through.

Owns: the caches of loaded games and their histories, the channels' locks, and `land`. It
sees the store, a clock, the publisher it tells after a commit, and two ports a commit asks
(bot/service/ports.py): the turn clock (`CommitClock`: the clock after the commit, its
lines, the first reminders, its deadlines) and the AI seats (`ComputersDue`: the seats that
must decide now are thought about). Both are given at construction; nothing overrides them.

A commit is a value (`Commit`, planned by the pure `plan_commit` of bot/service/commit.py
from the loaded game and the command's `Landing`): its records, snapshot, announcement,
reminders and results are written by one `Store.append`, then the service tells its
publisher (the outbox's doorbell). See bot/service/records.py for every record kind and
bot/service/loading.py for how a game is loaded.

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
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from typing import Any

from bot.rules import Game, open_game
from bot.rules.content import company_name
from bot.service.catchup import CatchUp, heads_up
from bot.service.commit import (
    Draft,
    Facts,
    Landing,
    answer_for_others,
    commits_now,
    draft_commit,
    plan_commit,
    reminder_ms,
    told_cause,
)
from bot.service.commit import outbox_payload as outbox_payload
from bot.service.commit import replace_loaded as replace_loaded
from bot.service.errors import (
    GameMovedOn,
    GameOverError,
    GameUnreadable,
    LobbyError,
    NoGameHere,
    NotAPlayer,
    OtherGame,
    PermissionDenied,
    ServiceError,
)
from bot.service.faults import refuse_store_faults
from bot.service.final import keep_result_now
from bot.service.history import History, replay_history
from bot.service.images import RendererPool
from bot.service.loading import Loaded, copy_game, engine_options, load
from bot.service.ports import CommitClock, ComputersDue, Publisher
from bot.service.ratings import RatingsKeeper
from bot.service.records import (
    BrokenLog,
    Cause,
    LogRecord,
    RevertRecord,
    StartRecord,
)
from bot.service.text import event_lines
from bot.service.turns import Step, at_handover
from bot.service.types import (
    Actor,
    Line,
    OptionView,
    Outcome,
    OutcomeKind,
    PanelView,
    ServiceConfig,
    UserRef,
)
from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    ChannelBusyError,
    Clock,
    FinishedGame,
    GameNotFoundError,
    StaleVersionError,
    Store,
    UserSettings,
)
from bot.store import Game as StoredGame

log = logging.getLogger(__name__)


#: Milliseconds in an hour (reminder settings are in hours).
HOUR_MS = 3_600_000


@refuse_store_faults
class Desk:
    """What every part of the service shares: the store, the caches, loading and locating
    games, the permission checks, the panel and landing a commit (`land`).

    Any number of instances (in one or several processes) may share a store: the store's
    (game, version) uniqueness decides races; the in-memory cache is keyed by version and
    checked against the store at every command.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        config: ServiceConfig,
        renderer_pool: RendererPool,
        publisher: Publisher,
        timekeeper: CommitClock,
        computers: ComputersDue,
    ) -> None:
        """A desk over `store`; a commit asks the turn clock (`timekeeper`), tells the
        publisher and hands the AI seats due to decide to `computers`."""
        self.store = store
        self.clock = clock
        self.config = config
        self.renderer_pool = renderer_pool
        #: Told after every commit that wrote an announcement (it wakes the OutboxSender).
        self.publisher = publisher
        self.timekeeper = timekeeper
        self.computers = computers
        self.cache: OrderedDict[int, Loaded] = OrderedDict()
        self._history: OrderedDict[tuple[int, int], History] = OrderedDict()
        #: One lock per channel: a channel's commands land one at a time in this process.
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: (game, version) pairs already reported as unloadable.
        self._broken: set[tuple[int, int]] = set()
        #: Each server's ratings, followed from the store (bot/service/ratings.py).
        self.ratings = RatingsKeeper(store)
        #: What each player missed since their last turn (bot/service/catchup.py).
        self.catchup = CatchUp(store)

    # -- loading -------------------------------------------------------------------------

    async def load(self, meta: StoredGame) -> Loaded:
        """The game at the store's version: from the cache if it is still current.

        A game whose records cannot be loaded raises GameUnreadable saying what is wrong
        (logged once per version, as a warning: it is the data, not the bot, that failed).
        """
        cached = self.cache.get(meta.id)
        if cached is not None and cached.version == meta.version:
            cached.meta = meta
            self.cache.move_to_end(meta.id)
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
        self.remember(loaded)
        if loaded.started:
            loaded = await self._repair(loaded)
        return loaded

    async def history_of(self, loaded: Loaded) -> History:
        """Log lines, VP by source and VP events of the committed game (a replay, cached by
        version)."""
        key = (loaded.meta.id, loaded.commit_version)
        hit = self._history.get(key)
        if hit is not None:
            return hit
        options = engine_options(loaded.meta, len(loaded.seats), loaded.automa, len(loaded.ai))
        result = replay_history(options, loaded.chain, loaded.commit_version)
        self.keep_history(key, result)
        return result

    def keep_history(self, key: tuple[int, int], history: History) -> None:
        self._history[key] = history
        while len(self._history) > 32:
            self._history.popitem(last=False)

    async def kept_result(self, game_id: int, version: int) -> FinishedGame | None:
        """The results kept for a finished game whose final commit is `version`: what its
        score is read from without replaying its log."""
        if (game_id, version) in self._history:
            return None  # known already, as fresh as the results
        kept = await self.store.game_result(game_id)
        return kept if kept is not None and kept.version == version else None

    def remember(self, loaded: Loaded) -> None:
        self.cache[loaded.meta.id] = loaded
        self.cache.move_to_end(loaded.meta.id)
        while len(self.cache) > self.config.autocomplete_cache_size:
            self.cache.popitem(last=False)

    async def _repair(self, loaded: Loaded) -> Loaded:
        """Bring the store's derived data (seats, status) in line with the log, and commit a
        step an older release left uncommitted (a stalled game moves on by itself)."""
        if loaded.started and tuple(loaded.seats) != loaded.meta.player_ids:
            loaded.meta = await self.store.set_seats(loaded.meta.id, loaded.seats)
        if loaded.meta.status == ACTIVE and loaded.game is not None and loaded.game.is_over:
            loaded.meta = await self.store.set_status(loaded.meta.id, FINISHED)
            await keep_result_now(self.store, loaded.meta.id)
        if loaded.meta.status == ACTIVE and loaded.abandoned:
            loaded.meta = await self.store.set_status(loaded.meta.id, ABANDONED)
        if loaded.meta.status == ACTIVE and self._stalled(loaded):
            assert loaded.game is not None
            log.warning("game %d: committing a step left open by an older release", loaded.meta.id)
            with contextlib.suppress(GameMovedOn):  # another process did it first
                await self.land(loaded, copy_game(loaded.game), (), Landing(user=None))
            return await self.load(await self.store.get_game(loaded.meta.id))
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

    async def reload(self, game_id: int) -> Loaded:
        self.cache.pop(game_id, None)
        return await self.load(await self.store.get_game(game_id))

    async def here_meta(self, actor: Actor) -> StoredGame:
        """The stored game active in the actor's channel (without loading its log)."""
        meta = await self.store.active_game(actor.channel_id)
        if meta is None or meta.guild_id != actor.guild_id:
            raise NoGameHere(
                "There is no game in this channel. Create one with `new` (2–4 players)."
            )
        return meta

    async def here(self, actor: Actor, expected_game: int | None = None) -> Loaded:
        """The active game of the actor's channel; OtherGame if a panel named another one."""
        try:
            meta = await self.here_meta(actor)
        except NoGameHere:
            if expected_game is None:
                raise
            raise NoGameHere("That panel's game has ended; this channel has no game now.") from None
        if expected_game is not None and expected_game != meta.id:
            raise OtherGame(
                f"That panel belongs to another game; this channel plays game #{meta.number} now."
            )
        return await self.load(meta)

    async def game_id_of(self, guild_id: int, number: int) -> int:
        """The store id of the game with this number in this server (NoGameHere if none)."""
        try:
            return (await self.store.game_by_number(guild_id, number)).id
        except GameNotFoundError:
            raise NoGameHere(
                f"There is no game #{number} in this server; `games` lists yours with their numbers."
            ) from None

    async def playing(self, actor: Actor, expected_game: int | None = None) -> Loaded:
        """The channel's game, which must be started and not over."""
        loaded = await self.here(actor, expected_game)
        if not loaded.started:
            raise LobbyError(
                f"The game in this channel has not started yet ({len(loaded.lobby)} joined); "
                "the creator or a channel manager can start it."
            )
        if loaded.game is None or loaded.game.is_over:
            raise GameOverError("This game is over; the board, log and scores can still be viewed.")
        return loaded

    async def target(
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
        loaded = await self.load(meta)
        if not loaded.started or loaded.committed is None:
            raise NoGameHere(f"Game #{meta.number} has not started yet: there is no board to show.")
        return loaded

    async def _just_finished(self, channel_id: int) -> StoredGame | None:
        """The channel's most recent game if it finished (shown until a new one starts)."""
        games = await self.store.list_games(channel_id=channel_id, limit=1)
        return games[0] if games and games[0].status == FINISHED else None

    async def channel_busy(self, busy: ChannelBusyError, what_to_do: str) -> LobbyError:
        """The refusal for a channel that already has an active game, naming that game by
        its number in the server (the store's error carries only its internal id)."""
        number = None
        if busy.active_game_id is not None:
            with contextlib.suppress(GameNotFoundError):
                number = (await self.store.get_game(busy.active_game_id)).number
        game = f"game #{number}" if number is not None else "a game"
        return LobbyError(f"This channel already has {game} going; {what_to_do}")

    def company(self, loaded: Loaded, actor: Actor) -> str:
        """The actor's company, or NotAPlayer."""
        if actor.channel_id != loaded.meta.channel_id:
            raise NoGameHere("That game is played in another channel; act there.")
        company = loaded.company_of_user(actor.user_id)
        if company is None:
            raise NotAPlayer(
                "You do not play in this game; you can still look at the board, log and scores."
            )
        return company

    def may_manage(self, loaded: Loaded, actor: Actor, what: str) -> None:
        """Creator or channel manager; else PermissionDenied naming who may."""
        if actor.channel_id != loaded.meta.channel_id:
            raise PermissionDenied(f"To {what}, use the command in the game's own channel.")
        if actor.user_id != loaded.meta.creator_id and not actor.can_manage:
            raise PermissionDenied(
                f"Only the game's creator or a member with Manage Channels (Manage Threads in a "
                f"thread) may {what}."
            )

    @staticmethod
    def waiting_users(loaded: Loaded) -> tuple[int, ...]:
        """People with a decision now (a seat the AI plays is nobody's to ping)."""
        return loaded.users_deciding()

    def waiting_line(self, loaded: Loaded) -> list[str | UserRef]:
        """Who must decide now: '@bob (Seat 4)', several joined by commas, or 'nobody'."""
        parts: list[str | UserRef] = []
        for player in loaded.players_deciding():
            user = loaded.user_of_player(player)
            computer = loaded.computer_of(player)
            parts.append(", " if parts else "")
            if computer is not None:
                parts.append(f"{company_name(player)} ({computer.label})")
            elif user is None:
                parts.append(company_name(player))
            else:
                parts.extend([UserRef(user), f" ({company_name(player)})"])
        return parts or ["nobody"]

    # -- committing ----------------------------------------------------------------------

    async def revert(
        self,
        loaded: Loaded,
        version: int,
        actor: Actor,
        header: Line,
        kind: OutcomeKind,
        *,
        missing: str,
        told: Sequence[int] = (),
    ) -> Outcome:
        """Go back to the committed state saved at `version` (undo, rewind), announced
        (`told`: see `Landing`)."""
        snap = await self.store.latest_snapshot(loaded.meta.id, at_or_before=version)
        if snap is None or snap.version != version:
            raise ServiceError(missing)
        landing = Landing(
            user=actor.user_id,
            records=(RevertRecord(version),),
            cause=Cause.UNDO if kind is OutcomeKind.UNDONE else Cause.REWIND,
            header=(header,),
            kind=kind,
            told=tuple(told),
        )
        return await self.land(loaded, open_game(state_from_json(snap.state)), (), landing)

    async def land(
        self, loaded: Loaded, game: Game, steps: Sequence[Step], landing: Landing
    ) -> Outcome:
        """Land a command's records and answers (`game` is the state after `steps`): the
        service answers for others, drafts the records, reads what their announcement
        needs and plans the commit (bot/service/commit.py); the store appends it in one
        transaction, and its announcement is published."""
        steps = answer_for_others(loaded, game, steps)
        now = self.clock()
        clock = None
        if commits_now(loaded, game, steps, landing):
            # A revert (an undo, a rewind, a dropped half-played step) or a start begins
            # the chain afresh: it ends nobody's turn, so the clock returns no time for it.
            taken_back = any(isinstance(r, (RevertRecord, StartRecord)) for r in landing.records)
            clock = await self.timekeeper.at_commit(loaded, taken_back=taken_back)
        draft = draft_commit(loaded, game, steps, landing, now=now, clock=clock)
        if draft is None:
            return self.outcome(loaded, landing.kind, landing.header, landing.user, announced=False)
        commit = plan_commit(draft, await self._facts(draft, now))
        try:
            version = await self.store.append(
                loaded.meta.id,
                loaded.version,
                [record.to_json() for record in commit.records],
                snapshot=commit.snapshot,
                outbox=[commit.announcement] if commit.announcement is not None else (),
                result=commit.result,
                reminders=commit.reminders,
            )
        except StaleVersionError:
            fresh = await self.reload(loaded.meta.id)
            panel = self.panel(fresh, landing.user) if landing.user is not None else None
            raise GameMovedOn(
                "Another command landed first; the game moved on. Here is your current decision.",
                panel,
            ) from None
        if draft.commits:
            round_no = loaded.committed.round if loaded.committed is not None else 1
            self.catchup.remember(
                loaded.meta.id, version, draft.step_so_far, draft.after.user_of_player, round_no
            )
        if commit.reload:
            after = await self.reload(loaded.meta.id)
        else:
            after = commit.after
            assert after.version == version
            self.remember(after)
        if commit.history is not None:
            self.keep_history((after.meta.id, version), commit.history)
            after.meta = await self.store.get_game(after.meta.id)
        if draft.announces:
            await self.timekeeper.landed(after)
        announced = commit.announcement is not None
        if announced:
            self.publisher.publish()
        self.computers.due(after)
        return self.outcome(after, landing.kind, landing.header, landing.user, announced=announced)

    async def _facts(self, draft: Draft, now: int) -> Facts:
        """What a commit's plan reads: the settings of the people it pings, when each one
        deciding is first reminded, the turn clock's lines, the digest of what the next
        player missed and a heads-up (bot/service/catchup.py), and for a game that ends its
        history and its server's ratings."""
        loaded, after = draft.loaded, draft.after
        history = ratings = None
        if draft.ending:
            history = await self.history_of(loaded)
            try:
                ratings = await self.ratings.server(loaded.meta.guild_id)
            except Exception:
                # Ratings are derived from the results: their failure never stops a game
                # from ending (its message then tells no rating; the rebuild counts it).
                log.exception("the ratings of game %d's server failed", loaded.meta.id)
        settings = {user: await self.store.get_user_settings(user) for user in draft.people}
        first: dict[int, int] = {}
        lines: tuple[Line, ...] = ()
        digest: tuple[Line, ...] = ()
        warned = None
        if draft.announces and not draft.ending:
            waiting = after.users_deciding()
            for user in waiting:
                first[user] = await self.timekeeper.first_reminder_due(
                    after, user, settings[user], now
                )
            lines = tuple(await self.timekeeper.lines(after))
            if draft.commits and not draft.fresh_chain:
                steps = list(draft.step_so_far)
                digest = tuple(await self.catchup.mention_digest(loaded, after, steps))
            if told_cause(draft) in (Cause.TURN, Cause.CHOICE, Cause.START):
                told = draft.landing.told
                warned = await heads_up(self.store, after, (*waiting, *told), told, now)
        return Facts(
            now=now,
            settings=settings,
            announce_lines=self.config.announce_lines,
            first_reminders=first,
            clock_lines=lines,
            digest=digest,
            heads_up=warned,
            history=history,
            ratings=ratings,
        )

    def outcome(
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
        panel = self.panel(after, user) if user is not None else None
        return Outcome(
            kind,
            after.meta.id,
            after.version,
            tuple(header),
            announced=announced,
            decision=panel,
        )

    async def append(self, loaded: Loaded, records: Sequence[LogRecord]) -> int:
        """Append records that commit nothing and tell nobody (a lobby's, a restart)."""
        stored = [record.to_json() for record in records]
        try:
            return await self.store.append(loaded.meta.id, loaded.version, stored)
        except StaleVersionError:
            raise GameMovedOn("Another command landed first; try again.") from None

    # -- reminders -----------------------------------------------------------------------

    def first_reminder_ms(self, loaded: Loaded, settings: UserSettings) -> int:
        """How long a turn may wait before its first reminder: the player's hours, else the
        game's, else the server's `reminder_hours` (fractions honoured)."""
        return reminder_ms(loaded.options, settings, self.config.reminder_hours)

    def repeat_reminder_ms(self, loaded: Loaded, settings: UserSettings) -> int:
        """The time between further reminders: the player's hours, else the game's, else the
        server's `repeat_hours`."""
        return reminder_ms(loaded.options, settings, self.config.repeat_hours)

    async def game_for_reminder(self, game_id: int) -> Loaded | None:
        """The loaded game (for the ReminderRunner), or None if it is gone."""
        try:
            return await self.load(await self.store.get_game(game_id))
        except (GameNotFoundError, GameUnreadable):
            return None

    def users_deciding(self, loaded: Loaded) -> tuple[int, ...]:
        """Users with a pending decision in a loaded game."""
        return self.waiting_users(loaded)

    @staticmethod
    def undo_target(loaded: Loaded, user_id: int) -> tuple[int | None, str | None, int]:
        """Where the user's undo goes back to (the commit before their last turn), else None
        and why; and how many computer steps it takes back with that turn.

        Only the user's own last turn, while no other person has acted since: computer seats'
        steps committed after it (the AI's) are taken back with it, unless one revealed
        contracts or ended a round.
        """
        commits = loaded.commits
        index = len(commits) - 1
        while index > 0 and commits[index][1].computer:
            index -= 1
        computers = commits[index + 1 :]
        if index < 1:
            return None, "There is no committed turn to undo.", 0
        last = commits[index][1]
        if last.user != user_id or not last.own_turn:
            return (
                None,
                "You can only undo your own turn, and only while it is the last one "
                "committed; someone else acted since.",
                0,
            )
        if not last.undoable:
            return (
                None,
                "That turn cannot be undone: hidden information was revealed at its "
                "confirmation (new contracts), or it ended a round.",
                0,
            )
        if any(not record.undoable for _, record in computers):
            return (
                None,
                "That turn cannot be undone: a computer seat's turn after it revealed new "
                "contracts or ended a round.",
                0,
            )
        if loaded.tail:
            return (
                None,
                f"{company_name(loaded.tail[0].player)} has already started their "
                "turn; undo is no longer possible.",
                0,
            )
        return commits[index - 1][0], None, len(computers)

    async def still_to_decide(
        self, game_id: int, version: int, users: Sequence[int]
    ) -> tuple[int, ...]:
        """Of `users`, pinged by the announcement of the commit at `version`, those who have
        not answered since (a choice asked of several at once is answered one by one, and
        committed with the last). Read only: nothing is repaired or committed here."""
        meta = await self.store.get_game(game_id)
        if meta.version == version:
            return tuple(users)  # nobody answered since
        cached = self.cache.get(game_id)
        try:
            loaded = (
                cached
                if cached and cached.version == meta.version
                else await load(self.store, meta)
            )
        except BrokenLog:
            return tuple(users)
        if loaded.commit_version != version:
            return tuple(users)  # a later commit pings for its own decisions
        deciding = self.waiting_users(loaded)
        return tuple(user for user in users if user in deciding)

    # -- the panel ---------------------------------------------------------------------

    def panel(self, loaded: Loaded, user_id: int) -> PanelView:
        game = loaded.game
        company = loaded.company_of_user(user_id)
        waiting = self.waiting_users(loaded)
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
        pilot = loaded.pilots.get(loaded.seats.index(user_id))
        if pilot is not None:
            return PanelView(
                loaded.meta.id,
                loaded.version,
                user_id,
                company,
                f"The AI ({pilot[0]}) plays your seat now; `play` takes it back.",
                "wait",
                (),
                waiting_for=waiting,
                flag=loaded.flag,
            )
        decision = game.decision(company)
        mine = bool(loaded.tail) and all(r.player == company for r in loaded.tail)
        done = tuple(event_lines(loaded.tail_events)) if mine else ()
        can_undo = self.undo_target(loaded, user_id)[0] is not None
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


def state_from_json(data: Any) -> Any:
    from bot.rules import load_state

    return load_state(data)
