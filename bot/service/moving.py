"""A part of the service, moving games: exporting a game's records and importing them into
another channel.

Owns: the export document a player receives and the checks an imported file passes (the
same validator and replay as a stored game's load). It sees the store, and of the games
only what `GameDesk` lists: finding a game, refusing a busy channel, loading one again and
landing the commit of an imported game. The service holds it as `GameService.moving`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from bot.rules import Game, open_game
from bot.service.commit import Landing
from bot.service.errors import ImportRefused, NoGameHere, PermissionDenied
from bot.service.faults import refuse_store_faults
from bot.service.final import keep_result_now
from bot.service.loading import Loaded, copy_game, replay_import
from bot.service.records import (
    BrokenLog,
    Cause,
    LogRecord,
    RevertRecord,
    ended_for_lost_channel,
)
from bot.service.turns import Step
from bot.service.types import Actor, ChannelRef, Line, Outcome, OutcomeKind, Part
from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    ChannelBusyError,
    GameNotFoundError,
    InvalidExportError,
    LogEntry,
    Store,
)
from bot.store import Game as StoredGame
from bot.store.export import MAX_EXPORT_BYTES, ParsedExport, parse_export, read_export

#: The largest export file `import_game` reads.
MAX_IMPORT_BYTES = MAX_EXPORT_BYTES


def resumable(
    doc: Mapping[str, Any], parsed: ParsedExport
) -> tuple[Mapping[str, Any], ParsedExport]:
    """The export as it will be imported: a game the bot ended only because its channel or
    thread was deleted continues where it stood (that last record is left out), since its
    players lost the place, not the game. A game a member abandoned stays abandoned."""
    if not parsed.log or not ended_for_lost_channel(parsed.log[-1][2]):
        return doc, parsed
    log = list(doc["log"])[:-1]
    return {**doc, "log": log, "ended_at": None}, replace(
        parsed, log=parsed.log[:-1], ended_at=None
    )


class GameDesk(Protocol):
    """What moving asks of the games (the desk, bot/service/core.py, provides it)."""

    async def game_id_of(self, guild_id: int, number: int) -> int:
        """The store id of the game with this number in this server."""
        ...

    async def here_meta(self, actor: Actor) -> StoredGame:
        """The stored game active in the actor's channel."""
        ...

    async def channel_busy(self, busy: ChannelBusyError, what_to_do: str) -> Exception:
        """The refusal for a channel that already has an active game."""
        ...

    async def reload(self, game_id: int) -> Loaded:
        """The game loaded afresh from the store."""
        ...

    async def land(
        self, loaded: Loaded, game: Game, steps: Sequence[Step], landing: Landing
    ) -> Outcome:
        """Land a command's records and answers (bot/service/commit.py)."""
        ...


@refuse_store_faults
class Moving:
    """Export and import."""

    def __init__(self, store: Store, games: GameDesk) -> None:
        """Moving the games of `store`."""
        self.store = store
        self.games = games

    async def export_game(
        self, actor: Actor, game_id: int | None = None, *, number: int | None = None
    ) -> dict[str, Any]:
        """The channel's game (or this server's game with this id, or with this `number`)
        as a JSON-able document.

        The raw records as stored, without loading them: a game that cannot be loaded can
        still be exported (to look at, or to mend and import). By its number, a game whose
        channel or thread was deleted can still be exported (and imported elsewhere).
        """
        if number is not None:
            game_id = await self.games.game_id_of(actor.guild_id, number)
        if game_id is None:
            game_id = (await self.games.here_meta(actor)).id
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
        doc, parsed = resumable(doc, parsed)
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
            raise await self.games.channel_busy(
                busy, "abandon it first, or import into another channel or thread."
            ) from None
        if meta.status == FINISHED:
            await keep_result_now(self.store, meta.id)
        loaded = await self.games.reload(meta.id)
        header = Line.of(f"Game imported as #{meta.number} ({len(entries)} log records replayed).")
        if meta.status == ACTIVE and loaded.game is not None and not loaded.game.is_over:
            # A commit of the imported state: its snapshot, announcement and reminders.
            records: list[LogRecord] = []
            if loaded.tail:
                records.append(RevertRecord(loaded.commit_version))
                assert loaded.committed is not None
                game = open_game(copy.deepcopy(loaded.committed))
            else:
                game = copy_game(loaded.game)
            landing = Landing(
                user=None,
                records=tuple(records),
                cause=Cause.IMPORT,
                header=(header,),
                kind=OutcomeKind.IMPORTED,
            )
            return await self.games.land(loaded, game, (), landing)
        return Outcome(OutcomeKind.IMPORTED, meta.id, meta.version, (header,), public=True)

    @staticmethod
    def _as_recorded(
        doc: Mapping[str, Any], parsed: ParsedExport, replayed: Loaded
    ) -> dict[str, Any]:
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

    async def _refuse_live_copy(self, actor: Actor, parsed: ParsedExport) -> None:
        """ImportRefused naming the channel where this very game is still active."""
        for game in await self.store.list_games(seed=parsed.seed, status=ACTIVE):
            if (game.creator_id, game.created_at) != (parsed.creator_id, parsed.created_at):
                continue
            where: tuple[Part, ...] = (
                ("in ", ChannelRef(game.channel_id), f" (game #{game.number})")
                if game.guild_id == actor.guild_id
                else ("in another server",)
            )
            raise ImportRefused(
                Line.of(
                    "This game is still active ",
                    *where,
                    ". Abandon it there first (its records are kept); then it can be continued "
                    "here.",
                )
            )
