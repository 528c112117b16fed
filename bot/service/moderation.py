"""A part of the service, moderation: abandoning a game, replacing or skipping a seat,
rewinding to an earlier turn; ending the game of a channel or thread that Discord deleted.

Owns: the moderators' commands and their records; it works at the desk (bot/service/core.py).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping

from bot.rules import open_game
from bot.rules.content import company_name
from bot.service.commit import Landing, outbox_payload, replace_loaded
from bot.service.computer import parse_ai_level
from bot.service.core import Desk
from bot.service.errors import (
    GameMovedOn,
    GameUnreadable,
    LobbyError,
    PermissionDenied,
    ServiceError,
)
from bot.service.faults import refuse_store_faults
from bot.service.loading import Loaded, copy_game
from bot.service.records import (
    AbandonRecord,
    AiReleaseRecord,
    AiSeatRecord,
    Cause,
    LogRecord,
    ReplaceRecord,
    RevertRecord,
    SkipRecord,
)
from bot.service.types import Actor, Line, Outcome, OutcomeKind, UserRef
from bot.store import ABANDONED, ACTIVE, StaleVersionError

log = logging.getLogger(__name__)


@refuse_store_faults
class Moderation:
    """Commands of the game's creator or a channel manager."""

    def __init__(self, desk: Desk) -> None:
        """The moderators' commands at `desk` (loading, checking and landing games)."""
        self.desk = desk
        self.store = desk.store

    async def abandon(self, actor: Actor) -> Outcome:
        """Abandon the channel's game (creator or manager); it keeps its log.

        Reads only the stored game, not its log: a game that cannot be loaded can still be
        abandoned, which frees its channel.
        """
        meta = await self.desk.here_meta(actor)
        if actor.user_id != meta.creator_id and not actor.can_manage:
            raise PermissionDenied(
                "Only the game's creator or a member with Manage Channels (Manage Threads in a "
                "thread) may abandon the game."
            )
        line = Line.of(f"Game #{meta.number} was abandoned by ", UserRef(actor.user_id), ".")
        payload = outbox_payload(meta, [line], reason="abandon", silent=True, button=False)
        record = AbandonRecord(by=actor.user_id)
        try:
            version = await self.store.append(
                meta.id, meta.version, [record.to_json()], outbox=[payload]
            )
        except StaleVersionError:
            raise GameMovedOn("Another command landed first; try again.") from None
        await self.store.set_status(meta.id, ABANDONED)
        await self.store.clear_reminders(meta.id)
        self.desk.cache.pop(meta.id, None)
        self.desk.publisher.publish()
        return Outcome(OutcomeKind.ABANDONED, meta.id, version, (line,), announced=True)

    async def destination_gone(self, channel_id: int, reason: str) -> int | None:
        """End the game of a channel or thread that no longer exists, as abandoned with
        `reason`; return its number (None when the channel had no game in progress).

        Called only on Discord's definitive word (the channel or thread was deleted, or a
        post there was refused as Unknown Channel), never on a transient failure. Nobody
        can play or be pinged there any more: left active, the game would count as running
        forever and an import of it elsewhere would be refused as a live copy. Its reminders
        are dropped now; its unsent announcements are given up by the outbox
        (`is_destination_gone`). It keeps its log, so its players can still export it by
        its number (and import it elsewhere, where it continues: `moving.resumable`).
        Nothing is posted: there is nowhere to post.
        """
        async with self.desk.locks[channel_id]:
            meta = await self.store.active_game(channel_id)
            if meta is None:
                return None
            record = AbandonRecord(reason=reason).to_json()
            while True:
                try:
                    await self.store.append(meta.id, meta.version, [record])
                    break
                except StaleVersionError:
                    # A command from another process landed first: end the game as it is now.
                    meta = await self.store.get_game(meta.id)
                    if meta.status != ACTIVE:
                        return None
            await self.store.set_status(meta.id, ABANDONED)
            await self.store.clear_reminders(meta.id)
            self.desk.cache.pop(meta.id, None)
        log.info(
            "game #%d of server %d in channel %d ended as abandoned: %s",
            meta.number,
            meta.guild_id,
            channel_id,
            reason,
        )
        return meta.number

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
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor)
            self.desk.may_manage(loaded, actor, "replace a player")
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
            record = ReplaceRecord(seat, old, new_user_id)
            assert loaded.game is not None
            landing = Landing(
                user=actor.user_id,
                records=(record,),
                header=(header,),
                kind=OutcomeKind.REPLACED,
                announce=True,
                told=self.desk.waiting_users(loaded),
            )
            outcome = await self.desk.land(
                replace_loaded(loaded, seats), copy_game(loaded.game), (), landing
            )
            await self.store.set_seats(loaded.meta.id, seats)
            return outcome

    async def skip_seat(self, actor: Actor, seat_or_user: int) -> Outcome:
        """Mark a vanished seat as skipped: from now on it passes every turn automatically.

        Its turn in progress is dropped; whatever it must decide now is answered at once, in
        the same commit (see bot/service/turns.py).
        """
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor)
            self.desk.may_manage(loaded, actor, "skip a player")
            seat = self._seat_index(loaded, seat_or_user)
            if seat in loaded.skipped:
                raise ServiceError(f"Seat {seat + 1} is already skipped.")
            company = loaded.company_of_seat(seat)
            header = Line.of(
                f"{company_name(company)} (seat {seat + 1}) will pass every turn from now on."
            )
            after = replace_loaded(loaded, loaded.seats)
            after.skipped.add(seat)
            return await self._land_seat_change(
                loaded,
                actor,
                seat,
                SkipRecord(seat),
                after,
                cause=Cause.SKIP,
                header=header,
                kind=OutcomeKind.SKIPPED,
            )

    async def _land_seat_change(
        self,
        loaded: Loaded,
        actor: Actor,
        seat: int,
        record: LogRecord,
        after: Loaded,
        *,
        cause: Cause,
        header: Line,
        kind: OutcomeKind,
    ) -> Outcome:
        """Land a change of who answers for `seat` (skipped, the AI), announced: the seat's
        half-played step is dropped first; someone else's step in progress stays open,
        otherwise the change commits (for `cause`)."""
        records: list[LogRecord] = [record]
        assert loaded.game is not None and loaded.committed is not None
        game = copy_game(loaded.game)
        tail_seats = {loaded.seat_of_player(step.player) for step in loaded.tail_steps}
        if seat in tail_seats:
            # The seat's half-played step is dropped before answering for it.
            records.append(RevertRecord(loaded.commit_version))
            game = open_game(copy.deepcopy(loaded.committed))
        landing = Landing(
            user=actor.user_id,
            records=tuple(records),
            cause=None if loaded.tail_steps and seat not in tail_seats else cause,
            header=(header,),
            kind=kind,
            announce=True,
            told=self.desk.waiting_users(loaded),
        )
        return await self.desk.land(after, game, (), landing)

    async def replace_with_ai(self, actor: Actor, seat_or_user: int, level: str) -> Outcome:
        """Let the AI (at `level`) play a person's seat from now on (creator or manager); its
        person takes it back with `take_back`. Its turn in progress is dropped first."""
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor)
            self.desk.may_manage(loaded, actor, "let the AI play a seat")
            seat = self._seat_index(loaded, seat_or_user)
            try:
                level = parse_ai_level(level)
            except ValueError as exc:
                raise ServiceError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
            if seat in loaded.pilots:
                raise ServiceError(
                    f"The AI ({loaded.pilots[seat][0]}) already plays seat {seat + 1}; its "
                    "player takes it back with `play`."
                )
            company = loaded.company_of_seat(seat)
            header = Line.of(
                f"The AI ({level}) plays {company_name(company)} (seat {seat + 1}) for ",
                UserRef(loaded.seats[seat]),
                " from now on; they take it back with `play`.",
            )
            record = AiSeatRecord(seat, level, actor.user_id)
            after = replace_loaded(loaded, loaded.seats)
            after.pilots[seat] = (level, loaded.version + 1)
            after.skipped.discard(seat)
            return await self._land_seat_change(
                loaded,
                actor,
                seat,
                record,
                after,
                cause=Cause.AI_SEAT,
                header=header,
                kind=OutcomeKind.REPLACED,
            )

    async def ai_plays_for(self, actor: Actor) -> bool:
        """Whether the AI plays the actor's seat in their channel's game now."""
        meta = await self.store.active_game(actor.channel_id)
        if meta is None or meta.guild_id != actor.guild_id:
            return False
        try:
            loaded = await self.desk.load(meta)
        except GameUnreadable:
            return False
        if actor.user_id not in loaded.seats:
            return False
        return loaded.seats.index(actor.user_id) in loaded.pilots

    async def take_back(self, actor: Actor) -> Outcome:
        """The actor takes their seat back from the AI (announced; pinged if they decide)."""
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor)
            company = self.desk.company(loaded, actor)
            seat = loaded.seats.index(actor.user_id)
            if seat not in loaded.pilots:
                raise ServiceError(
                    "The AI does not play your seat; you play it yourself (`turn` opens your "
                    "panel)."
                )
            record = AiReleaseRecord(seat, actor.user_id)
            after = replace_loaded(loaded, loaded.seats)
            del after.pilots[seat]
            assert loaded.game is not None
            header = Line.of(
                UserRef(actor.user_id),
                f" takes {company_name(company)} (seat {seat + 1}) back from the AI.",
            )
            landing = Landing(
                user=actor.user_id,
                records=(record,),
                header=(header,),
                kind=OutcomeKind.REPLACED,
                announce=True,
            )
            return await self.desk.land(after, copy_game(loaded.game), (), landing)

    async def rewind(self, actor: Actor, to_version: int) -> Outcome:
        """Rewind to the start of an earlier committed turn (manager only; announced)."""
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor)
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
            return await self.desk.revert(
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
            loaded = await self.desk.load(meta)
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
