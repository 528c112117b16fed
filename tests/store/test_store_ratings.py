"""The store contract, ratings: what every backend keeps for them and the one order in which it
hands a server's games to them (by end time, then game id) — the same on SQLite and
PostgreSQL, down to the ratings rebuilt from it."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from pathlib import Path

import pytest
from store_helpers import ALICE, BOB, CAROL, GUILD, FakeClock, decision, new_game

from bot.service.ratings import rebuild
from bot.store import (
    GameResult,
    InvalidDataError,
    PlacedSeat,
    RatingGame,
    SeatResult,
    SqliteStore,
    Store,
)
from bot.store.move import move_to_postgres
from bot.store.postgres import PostgresStore

OTHER_GUILD = GUILD + 1
DAVE = ALICE + 10


def seat(index: int, user: int | None, rank: int, **kw: object) -> SeatResult:
    """A seat's result (its VP all from the start)."""
    vp = 100 - rank
    return SeatResult(
        index, user, f"c{index}", "tommaso", vp, rank, {"start": vp}, (), user is None, **kw
    )  # type: ignore[arg-type]


def result(*seats: SeatResult, hints: bool = False) -> GameResult:
    """A finished game's result."""
    return GameResult(len(seats), "intro", "base", (), 5, tuple(seats), hints)


async def begin(store: Store, game_result: GameResult, *, channel: int, guild: int = GUILD) -> int:
    """A game of these seats, played up to its final commit (`end`); its id."""
    users = [s.user_id or ALICE for s in game_result.seats]
    game = await new_game(store, channel_id=channel, guild_id=guild, seats=users)
    await store.append(game.id, 0, [decision(1)], snapshot={"v": 1})
    return game.id


async def end(store: Store, game_id: int, game_result: GameResult) -> None:
    """The game's final commit, with its results, now."""
    await store.append(game_id, 1, [decision(2)], snapshot={"v": 2}, result=game_result)


async def test_the_rating_fields_read_back_exactly(store: Store) -> None:
    kept = result(
        seat(0, ALICE, 1),
        seat(1, BOB, 2, ai_turns=4, hints_used=2),
        seat(2, CAROL, 3, ai_at_end=True, ai_turns=1),
        seat(3, None, 4),
        hints=True,
    )
    game_id = await begin(store, kept, channel=1)
    await end(store, game_id, kept)
    found = await store.game_result(game_id)
    assert found is not None and found.result == kept
    [game] = (await store.rating_games(GUILD)).games
    assert game == RatingGame(
        game_id,
        found.ended_at,
        (
            PlacedSeat(ALICE, 1),
            PlacedSeat(BOB, 2, ai_turns=4, hints_used=2),
            PlacedSeat(CAROL, 3, ai_turns=1, ai_at_end=True),
            PlacedSeat(None, 4, automa=True),
        ),
        hints=True,
    )


def test_counts_of_ai_turns_and_hints_are_never_negative() -> None:
    with pytest.raises(InvalidDataError, match="counts"):
        seat(0, ALICE, 1, ai_turns=-1)
    with pytest.raises(InvalidDataError, match="counts"):
        seat(0, ALICE, 1, hints_used=-2)


async def test_rating_games_come_by_end_time_then_game_id(store: Store, clock: FakeClock) -> None:
    """Games that ended at the same instant come by id, whatever order they were written in;
    a game whose results were kept late (a backfill) comes at its end time."""
    two = result(seat(0, ALICE, 1), seat(1, BOB, 2))
    ids = [await begin(store, two, channel=n) for n in range(5)]
    other = await begin(store, two, channel=9, guild=OTHER_GUILD)
    clock.advance(1000)
    await store.set_status(ids[4], "finished")  # ended first, results kept last
    clock.advance(1000)
    for game_id in (ids[3], ids[1], ids[0]):  # one instant, ids in reverse
        await end(store, game_id, two)
    await end(store, other, two)
    clock.advance(1000)
    await end(store, ids[2], two)
    await store.record_result(ids[4], result(seat(0, ALICE, 2), seat(1, BOB, 1)), version=1)
    found = await store.rating_games(GUILD)
    assert [g.game_id for g in found.games] == [ids[4], ids[0], ids[1], ids[3], ids[2]]
    assert found.total == 5
    assert [g.ended_at for g in found.games] == sorted(g.ended_at for g in found.games)
    assert found.games[0].seats == (PlacedSeat(ALICE, 2), PlacedSeat(BOB, 1))
    after = await store.rating_games(GUILD, after=found.games[1].key)
    assert [g.game_id for g in after.games] == [ids[1], ids[3], ids[2]] and after.total == 5
    assert (await store.rating_games(GUILD, after=found.games[-1].key)).games == ()
    assert [g.game_id for g in (await store.rating_games(OTHER_GUILD)).games] == [other]
    nothing = await store.rating_games(2**70)
    assert (nothing.games, nothing.total) == ((), 0)


async def _fill(store: Store, clock: FakeClock, seed: int) -> None:
    """Forty random finished games of 2 to 4 seats (some automa or AI-played, some with
    hints), ending in bursts at shared instants, each burst written in a shuffled order."""
    rng = random.Random(seed)
    people = [ALICE, BOB, CAROL, DAVE, ALICE + 20, ALICE + 30]
    pending: list[tuple[int, GameResult]] = []
    for n in range(40):
        count = rng.choice((2, 3, 4))
        users: list[int | None] = list(rng.sample(people, count))
        if rng.random() < 0.2:
            users[rng.randrange(count)] = None
        ranks = sorted(rng.randint(1, count) for _ in range(count))
        rng.shuffle(ranks)
        seats = [
            seat(i, u, r, ai_turns=rng.choice((0, 0, 0, 1, 3)), ai_at_end=rng.random() < 0.05)
            for i, (u, r) in enumerate(zip(users, ranks, strict=True))
        ]
        # Ranks as the engine gives them: 1 for the best, ties share.
        kept = result(*_ranked(seats), hints=rng.random() < 0.1)
        pending.append((await begin(store, kept, channel=1000 + n), kept))
    rng.shuffle(pending)
    while pending:
        size = rng.randint(1, 4)
        burst, pending = pending[:size], pending[size:]
        clock.advance(rng.choice((0, 1000)))
        for game_id, kept in burst:
            await end(store, game_id, kept)


def _ranked(seats: list[SeatResult]) -> tuple[SeatResult, ...]:
    """The seats with competition ranks (1, 1, 3) from their drawn ranks."""
    out = []
    for s in seats:
        rank = 1 + sum(1 for o in seats if o.rank < s.rank)
        out.append(replace(s, rank=rank, vp=100 - rank, vp_by_source={"start": 100 - rank}))
    return tuple(out)


async def test_sqlite_and_postgresql_rebuild_the_same_ratings(
    tmp_path: Path, postgres_url: str
) -> None:
    """The same games written to both backends, at the same instants: the same games come in
    the same order, and the ratings rebuilt from them are equal to the last bit."""
    answers = []
    for opener in (
        lambda clock: SqliteStore.open(tmp_path / "ratings.sqlite3", clock=clock),
        lambda clock: PostgresStore.open(postgres_url, clock=clock),
    ):
        clock = FakeClock()
        store = await opener(clock)
        try:
            await _fill(store, clock, seed=5)
            answers.append((await store.rating_games(GUILD)).games)
        finally:
            await store.close()
    on_sqlite, on_postgres = answers
    assert len(on_sqlite) == 40 and on_sqlite == on_postgres
    assert [g.key for g in on_sqlite] == sorted(g.key for g in on_sqlite)
    assert any(a.ended_at == b.ended_at for a, b in itertools.pairwise(on_sqlite))
    assert rebuild(on_sqlite).players == rebuild(on_postgres).players
    # Not by the order they were written in: the store's order is the ratings' own.
    assert [g.game_id for g in on_sqlite] != sorted(g.game_id for g in on_sqlite)


async def test_the_rating_fields_move_to_postgresql(tmp_path: Path, postgres_url: str) -> None:
    kept = result(
        seat(0, ALICE, 1, ai_turns=3), seat(1, BOB, 2, ai_at_end=True, hints_used=1), hints=True
    )
    path = tmp_path / "moving.sqlite3"
    clock = FakeClock()
    source = await SqliteStore.open(path, clock=clock)
    try:
        game_id = await begin(source, kept, channel=1)
        await end(source, game_id, kept)
        before = (await source.rating_games(GUILD)).games
    finally:
        await source.close()
    await move_to_postgres(path, postgres_url)
    target = await PostgresStore.open(postgres_url, clock=clock)
    try:
        moved = await target.game_result(game_id)
        assert moved is not None and moved.result == kept
        assert (await target.rating_games(GUILD)).games == before
    finally:
        await target.close()
