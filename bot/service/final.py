"""A finished game's results: from its final state with the final commit, or from its log for
a game that finished without them (before results were kept, imported, or found over by the
loading repair). Used by the commit (bot/service/core.py) and the records (stats.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from bot.rules import Event, GameState
from bot.service.computer import ai_level_of
from bot.service.errors import ServiceError
from bot.service.history import replay_history, vp_by_key
from bot.service.loading import Loaded, engine_options, load
from bot.service.records import BrokenLog, DecisionRecord
from bot.service.text import source_group
from bot.store import FinishedGame, GameNotFoundError, GameResult, SeatResult, Store

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatPlay:
    """How a person's seat was played: turns the AI played for them, whether it held the
    seat at the end, hints its player was shown (what the ratings leave out)."""

    ai_turns: int = 0
    ai_at_end: bool = False
    hints_used: int = 0


def seat_play(loaded: Loaded) -> dict[int, SeatPlay]:
    """Each seat's `SeatPlay`, from the turn chain (the AI's Confirms and the answers given
    after a hint) and the seats the AI plays now."""
    turns: dict[int, int] = {}
    hints: dict[int, int] = {}
    for _, record in loaded.chain:
        if not isinstance(record, DecisionRecord):
            continue
        seat = loaded.seat_of_player(record.player)
        if seat is None:
            continue
        if record.notation == "confirm" and ai_level_of(record.auto) is not None:
            turns[seat] = turns.get(seat, 0) + 1
        if record.hint:
            hints[seat] = hints.get(seat, 0) + 1
    return {
        seat: SeatPlay(turns.get(seat, 0), seat in loaded.pilots, hints.get(seat, 0))
        for seat in range(len(loaded.seats))
    }


def final_result(
    state: GameState,
    user_of: Callable[[str], int | None],
    vp_events: Iterable[Event],
    play: Mapping[int, SeatPlay] | None = None,
    *,
    hints: bool = False,
) -> GameResult:
    """A finished state's results: per seat, who played which company and officer (`user_of`
    gives None for a computer's company: an automa's or AI player's seat), the final VP by
    source key (what `vp_events` explain; the rest is the starting VP), the rank, the energy
    produced in each round, and how a person's seat was played (`play`: the AI's turns for
    them, hints); `hints`: the game offered hints."""
    if not state.finished:
        raise ValueError("only a finished game has results")
    sources = vp_by_key(vp_events)
    ranks = {entry["company"]: int(entry["place"]) for entry in state.result["ranking"]}
    seats = []
    for index, cid in enumerate(state.seats):
        company = state.companies[cid]
        explained = {key: vp for key, vp in sources.get(cid, {}).items() if vp}
        by_source = {"start": company.vp - sum(explained.values()), **explained}
        user = user_of(cid)
        how = (play or {}).get(index, SeatPlay()) if user is not None else SeatPlay()
        seats.append(
            SeatResult(
                index,
                user,
                cid,
                company.officer,
                company.vp,
                ranks[cid],
                by_source,
                tuple(int(h["energy"].get(cid, 0)) for h in state.history),
                automa=user is None,
                ai_turns=how.ai_turns,
                ai_at_end=how.ai_at_end,
                hints_used=how.hints_used,
            )
        )
    options = state.options
    return GameResult(
        options.players,
        options.setup,
        options.map,
        tuple(options.expansions),
        state.round,
        tuple(seats),
        hints=hints,
    )


def source_groups(vp_by_key: Mapping[str, int]) -> dict[str, int]:
    """A result's VP by source key as the score breakdown's groups (its start left out)."""
    out: dict[str, int] = {}
    for key, vp in vp_by_key.items():
        if key != "start":
            out[source_group(key)] = out.get(source_group(key), 0) + vp
    return out


def result_events(game: FinishedGame) -> tuple[Event, ...]:
    """VP events that stand for a result's VP by source (one per company and key): what the
    score sheet is drawn from without replaying the log."""
    return tuple(
        Event("vp", seat.company, vp, key)
        for seat in game.result.seats
        for key, vp in seat.vp_by_source.items()
        if key != "start"
    )


async def result_from_log(store: Store, game_id: int) -> tuple[GameResult, int]:
    """A finished game's results from its log (replayed once, in a worker thread) and its
    final state, with its final version. ServiceError when the log does not replay to it."""
    meta = await store.get_game(game_id)
    # As loading sees it (from its final snapshot), without the service's cache or repairs.
    loaded = await load(store, meta)
    final = loaded.committed
    if not loaded.started or final is None or not final.finished:
        raise ServiceError("its log does not reach the end of the game")
    options = engine_options(meta, len(loaded.seats), loaded.automa, len(loaded.ai))
    history = await asyncio.to_thread(replay_history, options, loaded.chain, loaded.commit_version)
    replayed = history.state
    if not history.complete or replayed is None or not replayed.finished:
        raise ServiceError("its log no longer replays")
    if {c: x.vp for c, x in replayed.companies.items()} != {
        c: x.vp for c, x in final.companies.items()
    }:
        raise ServiceError("its log replays to another final score than the one kept")
    result = final_result(
        final,
        loaded.user_of_player,
        history.vp_events,
        seat_play(loaded),
        hints=bool(loaded.options.get("hints")),
    )
    return result, loaded.commit_version


async def keep_result_from_log(store: Store, game_id: int) -> bool:
    """Keep the results of a finished game that has none, from its log; False if it had them
    already. BrokenLog, ServiceError or GameNotFoundError, keeping nothing, when its log does
    not replay to its final state."""
    result, version = await result_from_log(store, game_id)
    return await store.record_result(game_id, result, version=version)


async def keep_result_now(store: Store, game_id: int) -> None:
    """The results of a game found finished without a final commit of ours (imported, or
    repaired on loading), kept at once: the statistics and the history count it from now on.
    One whose log does not replay is logged and left without (a warning)."""
    try:
        await keep_result_from_log(store, game_id)
    except (BrokenLog, ServiceError, GameNotFoundError) as exc:
        log.warning("finished game %d has no results: %s", game_id, exc)
