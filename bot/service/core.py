"""The service's core: loading and locating games, who may act, and the commit that every
command's records go through (with its announcement and reminders).

See bot/service/loading.py for every record
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
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.rules import Game, GameState, open_game
from bot.rules.content import company_name
from bot.service import quiet
from bot.service.catchup import CatchUp, heads_up
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
from bot.service.final import final_result, keep_result_now, seat_play
from bot.service.history import History, replay_history
from bot.service.images import RendererPool
from bot.service.loading import Loaded, copy_game, engine_options, load
from bot.service.messages import final_lines, next_lines, story
from bot.service.ratings import RatingsKeeper, rating_notes
from bot.service.records import BrokenLog, ClockRecord, CommitRecord, LogRecord
from bot.service.text import event_lines
from bot.service.turns import (
    Step,
    answer_on_behalf,
    at_handover,
    automa_played,
    commit_reason,
    revealed_or_new_round,
)
from bot.service.types import (
    SCORE_SHEET,
    Actor,
    ImageRequest,
    Line,
    OptionView,
    OutboxPayload,
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
    REMINDER,
    TURN_PING,
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


class ServiceCore:
    """What every command shares: the store, the caches, loading and locating games, the
    permission checks and the commit (`_land`); the command groups build on it.

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
        self._history: OrderedDict[tuple[int, int], History] = OrderedDict()
        self._complete: OrderedDict[tuple[int, int, int], list[tuple[str, str]]] = OrderedDict()
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: (game, version) pairs already reported as unloadable.
        self._broken: set[tuple[int, int]] = set()
        #: Each server's ratings, followed from the store (bot/service/ratings.py).
        self.ratings = RatingsKeeper(store)
        #: What each player missed since their last turn (bot/service/catchup.py).
        self.catchup = CatchUp(store)

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

    async def _history_of(self, loaded: Loaded) -> History:
        """Log lines, VP by source and VP events of the committed game (a replay, cached by
        version)."""
        key = (loaded.meta.id, loaded.commit_version)
        hit = self._history.get(key)
        if hit is not None:
            return hit
        options = engine_options(loaded.meta, len(loaded.seats), loaded.automa, len(loaded.ai))
        result = replay_history(options, loaded.chain, loaded.commit_version)
        self._keep_history(key, result)
        return result

    def _keep_history(self, key: tuple[int, int], history: History) -> None:
        self._history[key] = history
        while len(self._history) > 32:
            self._history.popitem(last=False)

    async def _kept_result(self, game_id: int, version: int) -> FinishedGame | None:
        """The results kept for a finished game whose final commit is `version`: what its
        score is read from without replaying its log."""
        if (game_id, version) in self._history:
            return None  # known already, as fresh as the results
        kept = await self.store.game_result(game_id)
        return kept if kept is not None and kept.version == version else None

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
            await keep_result_now(self.store, loaded.meta.id)
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

    async def _channel_busy(self, busy: ChannelBusyError, what_to_do: str) -> LobbyError:
        """The refusal for a channel that already has an active game, naming that game by
        its number in the server (the store's error carries only its internal id)."""
        number = None
        if busy.active_game_id is not None:
            with contextlib.suppress(GameNotFoundError):
                number = (await self.store.get_game(busy.active_game_id)).number
        game = f"game #{number}" if number is not None else "a game"
        return LobbyError(f"This channel already has {game} going; {what_to_do}")

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
        """People with a decision now (a seat the AI plays is nobody's to ping)."""
        users = []
        for player in loaded.people_deciding():
            user = loaded.user_of_player(player)
            if user is not None and user not in users:
                users.append(user)
        return tuple(users)

    def _waiting_line(self, loaded: Loaded) -> list[str | UserRef]:
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

    async def _revert(
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
        (`told`: see `_land`)."""
        snap = await self.store.latest_snapshot(loaded.meta.id, at_or_before=version)
        if snap is None or snap.version != version:
            raise ServiceError(missing)
        return await self._land(
            loaded,
            open_game(state_from_json(snap.state)),
            user=actor.user_id,
            records=[{"kind": "revert", "to": version}],
            reason="undo" if kind is OutcomeKind.UNDONE else "rewind",
            header=[header],
            kind=kind,
            told=told,
        )

    async def _land(
        self,
        loaded: Loaded,
        game: Game,
        steps: Sequence[Step] = (),
        *,
        user: int | None,
        records: Sequence[LogRecord] = (),
        reason: str | None = None,
        header: Sequence[Line] = (),
        kind: OutcomeKind | None = None,
        announce: bool = False,
        told: Sequence[int] = (),
        computer: bool = False,
    ) -> Outcome:
        """Append `records` (a start, a revert, a skip...) and the answers in `steps`, and
        commit when they complete a step (bot/service/turns.py). `computer`: the steps are a
        computer seat's (the AI's), landed by the service (bot/service/thinking.py).

        `game` is the state after them. The service first answers for skipped seats and
        confirms forced turns; the commit (forced by a `reason`) writes the snapshot, the
        announcement (`header`, what happened, who acts next) and the reminders. `announce`
        writes the announcement even when nothing is committed (a seat replaced mid-turn);
        `told` are users who need no ping for the decision they face: already pinged for
        it (a moderator's command is no reason to ping them again), or the player whose own
        command this is, who sees that decision in its reply (their panel goes on to it).
        """
        on_behalf = answer_on_behalf(game, steps[-1] if steps else None, loaded.is_skipped)
        new_steps = [*steps, *on_behalf]
        # A start or a revert begins afresh; otherwise these answers continue the open step.
        fresh_chain = any(r["kind"] in ("start", "revert") for r in records)
        step_so_far = [*(() if fresh_chain else loaded.tail_steps), *new_steps]
        commit = reason is not None or at_handover(game, step_so_far)
        all_records: list[LogRecord] = [*records, *(s.record.copy() for s in new_steps)]
        self._stamp(loaded, all_records)
        commit_record: CommitRecord | None = None
        state_json: dict[str, Any] | None = None
        after = replace_loaded(loaded, loaded.seats)
        after.game = game
        if commit:
            reason = reason or commit_reason(game, step_so_far)
            round_before = loaded.committed.round if loaded.committed is not None else None
            # A computer's step may be taken back with the person's turn before it (undo).
            undoable = (reason == "turn" or computer) and not revealed_or_new_round(
                step_so_far, round_before, game
            )
            commit_record = {
                "kind": "commit",
                "reason": "end" if game.is_over else reason,
                "player": after.company_of_user(user) if user is not None else None,
                "user": user,
                "undoable": undoable,
            }
            if automa_played(new_steps):
                commit_record["automa"] = True
            if computer:
                commit_record["computer"] = True
            clock = await self._clock_at_commit(loaded, taken_back=fresh_chain)
            if clock is not None:
                commit_record["clock"] = clock
            all_records.append(commit_record)
            state_json = game.state.to_json()
            # A copy for everyone to see (from the snapshot's JSON: cheaper than a deepcopy).
            after.committed = GameState.from_json(state_json)
            after.commit_version = loaded.version + len(all_records)
            after.tail_steps = []
            # Its announcement reads the new commit (the clock's deadlines count from it).
            after.commits = [*loaded.commits, (after.commit_version, commit_record)]
        if not all_records:
            return self._outcome(loaded, kind, header, user, announced=False)
        result = history = None
        notes: dict[str, str] = {}
        closing: list[Line] = []
        if commit and game.is_over:
            # The game's results are kept with its final commit (bot/service/final.py); its
            # history is the last commit's and this step's (no replay when that one is known).
            history = (await self._history_of(loaded)).extended(
                (e for s in step_so_far for e in s.events), after.committed
            )
            result = final_result(
                game.state,
                after.user_of_player,
                history.vp_events,
                seat_play(after),
                hints=bool(loaded.options.get("hints")),
            )
            try:
                changes = await self.ratings.changes(loaded.meta.guild_id, result)
                notes, closing = rating_notes(result, changes)
            except Exception:
                # Ratings are derived from the results: their failure never stops a game
                # from ending (its message then tells no rating; the rebuild counts it).
                log.exception("the ratings of game %d's server failed", loaded.meta.id)
        payload = None
        if commit or announce:
            happened = story(
                step_so_far if commit else (),
                after.user_of_player,
                round_no=loaded.committed.round if loaded.committed is not None else 1,
                limit=self.config.announce_lines,
                name_people=not game.is_over,
            )
            digest = (
                await self.catchup.mention_digest(loaded, after, step_so_far)
                if commit and not fresh_chain and not game.is_over
                else ()
            )
            payload = await self._turn_payload(
                after,
                [*header, *happened],
                "end" if game.is_over else (reason or "turn"),
                told=told,
                notes=notes,
                closing=closing,
                last=happened,
                before=loaded.committed if commit else None,
                digest=digest,
            )
            if user is not None and user in told and user in payload["waiting_for"]:
                # Named, not pinged: the reply to their own command is their panel, at the
                # decision this hands them (see OutboxSender: unless posted too late).
                payload["told"] = [user]
        try:
            version = await self.store.append(
                loaded.meta.id,
                loaded.version,
                all_records,
                snapshot=state_json if commit else None,
                outbox=[payload] if payload is not None else (),
                result=result,
            )
        except StaleVersionError:
            fresh = await self._reload(loaded.meta.id)
            panel = self._panel(fresh, user) if user is not None else None
            raise GameMovedOn(
                "Another command landed first; the game moved on. Here is your current decision.",
                panel,
            ) from None
        if commit:
            round_no = loaded.committed.round if loaded.committed is not None else 1
            self.catchup.remember(
                loaded.meta.id, version, step_so_far, after.user_of_player, round_no
            )
        if fresh_chain or any(
            r["kind"] in ("replace", "ai_seat", "ai_release", "expiry") for r in records
        ):
            after = await self._reload(loaded.meta.id)
        else:
            base = loaded.version
            after.version = version
            after.meta = replace(loaded.meta, version=version)
            added = [(base + i + 1, r) for i, r in enumerate(all_records)]
            after.chain = [
                *loaded.chain,
                *((seq, r) for seq, r in added if r["kind"] == "decision" or r["kind"] == "commit"),
            ]
            if commit_record is not None:
                after.commits = [*loaded.commits, (version, commit_record)]
            else:
                after.tail_steps = [*loaded.tail_steps, *new_steps]
            self._remember(after)
        if history is not None:
            self._keep_history((after.meta.id, version), history)
            after.meta = await self.store.get_game(after.meta.id)
        elif commit or announce:
            await self._schedule_reminders(after)
        if commit or announce:
            await self._clock_landed(after)
        if payload is not None:
            self._notify()
        self._computers_due(after)
        return self._outcome(after, kind, header, user, announced=payload is not None)

    def _stamp(self, loaded: Loaded, records: Sequence[LogRecord]) -> None:
        """Before a landing: mark its decisions with their time (the clock's mix-in does, in
        a clocked game)."""

    async def _clock_at_commit(
        self, loaded: Loaded, *, taken_back: bool = False
    ) -> ClockRecord | None:
        """The turn clock after a commit of `loaded`'s step (the clock's mix-in computes it
        in a clocked game; None otherwise); `taken_back`: the commit goes back (an undo)."""
        return None

    async def _clock_landed(self, after: Loaded) -> None:
        """After a commit or an announcement: the clock's deadlines (the clock's mix-in)."""

    async def _clock_lines(self, after: Loaded) -> list[Line]:
        """The turn message's lines about time: deadlines and time away (the clock's mix-in)."""
        return []

    async def _soonest_deadline(self, loaded: Loaded) -> int | None:
        """When the game's first running clock runs out (the clock's mix-in; None without)."""
        return None

    async def _first_reminder_due(
        self, loaded: Loaded, user: int, settings: UserSettings, now: int
    ) -> int:
        """When a player's first reminder of a turn is due (the clock's mix-in times it by
        the allowance in a clocked game)."""
        return quiet.not_quiet(settings, now + self.first_reminder_ms(loaded, settings))

    def _computers_due(self, loaded: Loaded) -> None:
        """After a landing: the AI seats with a decision now are to be thought about (the
        thinking mix-in schedules them; nothing here)."""

    def _hinted_now(self, loaded: Loaded, company: str) -> bool:
        """Whether the player was shown a hint for the decision pending at this version (the
        thinking mix-in knows)."""
        return False

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
        self, loaded: Loaded, records: list[LogRecord], *, outbox: Sequence[OutboxPayload] = ()
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
        self,
        after: Loaded,
        lines: list[Line],
        reason: str,
        *,
        told: Sequence[int] = (),
        notes: Mapping[str, str] | None = None,
        closing: Sequence[Line] = (),
        last: Sequence[Line] = (),
        before: GameState | None = None,
        digest: Sequence[Line] = (),
    ) -> OutboxPayload:
        """The announcement of a committed state: what happened, then who acts next (pinged,
        unless already `told`), or, once the game is over, the result (everyone pinged; the
        ratings' changes in `notes` by company, and `closing` lines) and the score sheet. Its
        map rings the spaces changed since ``before`` (the state the turn began from); its
        pictures' alt text says what the turn did (``last``). ``digest`` (what the others did
        since the next player's last turn) comes before the line that asks them to act; a
        player who asked for a heads-up is mentioned when the player before them begins."""
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
                *digest,
                *next_lines(game, after.user_of_player, after.label_of),
                *(await self._clock_lines(after)),
            ]
            waiting = self._waiting_users(after)
            pinged = tuple(user for user in waiting if user not in told)
            images = (board,)
        mentions, silent = await self._pings(pinged)
        warned = None
        if not game.is_over and reason in ("turn", "choice", "start"):
            warned = await heads_up(self.store, after, (*waiting, *told), told, self.clock())
            if warned is not None:
                lines.append(warned[1])
        payload = outbox_payload(
            after.meta,
            lines,
            reason=reason,
            images=images,
            mentions=mentions,
            waiting=waiting,
            silent=silent,
            button=not game.is_over,
        )
        if last:
            payload["last"] = [line.to_json() for line in last]
        if warned is not None:
            payload["heads_up"] = [warned[0]]
        return payload

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
                due = await self._first_reminder_due(loaded, user, settings, now)
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

    @staticmethod
    def _undo_target(loaded: Loaded, user_id: int) -> tuple[int | None, str | None, int]:
        """Where the user's undo goes back to (the commit before their last turn), else None
        and why; and how many computer steps it takes back with that turn.

        Only the user's own last turn, while no other person has acted since: computer seats'
        steps committed after it (the AI's) are taken back with it, unless one revealed
        contracts or ended a round.
        """
        commits = loaded.commits
        index = len(commits) - 1
        while index > 0 and commits[index][1].get("computer"):
            index -= 1
        computers = commits[index + 1 :]
        if index < 1:
            return None, "There is no committed turn to undo.", 0
        last = commits[index][1]
        if last["user"] != user_id or last["reason"] != "turn":
            return (
                None,
                "You can only undo your own turn, and only while it is the last one "
                "committed; someone else acted since.",
                0,
            )
        if not last["undoable"]:
            return (
                None,
                "That turn cannot be undone: hidden information was revealed at its "
                "confirmation (new contracts), or it ended a round.",
                0,
            )
        if any(not record["undoable"] for _, record in computers):
            return (
                None,
                "That turn cannot be undone: a computer seat's turn after it revealed new "
                "contracts or ended a round.",
                0,
            )
        if loaded.tail:
            return (
                None,
                f"{company_name(loaded.tail[0].get('player'))} has already started their "
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
        cached = self._cache.get(game_id)
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
        deciding = self._waiting_users(loaded)
        return tuple(user for user in users if user in deciding)

    # -- the panel ---------------------------------------------------------------------

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
        mine = bool(loaded.tail) and all(r["player"] == company for r in loaded.tail)
        done = tuple(event_lines(loaded.tail_events)) if mine else ()
        can_undo = self._undo_target(loaded, user_id)[0] is not None
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


def replace_loaded(loaded: Loaded, seats: list[int]) -> Loaded:
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


def state_from_json(data: Any) -> Any:
    from bot.rules import load_state

    return load_state(data)


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
