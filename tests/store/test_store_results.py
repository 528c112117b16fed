"""The store contract, results and statistics: what every backend must do with finished games."""

from __future__ import annotations

import asyncio

import pytest
from store_helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock, decision, new_game

from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    GameCounts,
    GameResult,
    InvalidDataError,
    SeatResult,
    StaleVersionError,
    StatsFilter,
    Store,
    Tally,
)

OTHER_GUILD = GUILD + 1


def seat(
    index: int,
    user: int | None,
    company: str,
    vp: int,
    rank: int,
    *,
    officer: str = "tommaso",
    energy: tuple[int, ...] = (4, 8, 9, 12, 15),
) -> SeatResult:
    """A seat's result whose VP by source add up."""
    sources = {"start": 10, "income": vp - 10 - 3, "contract": 3}
    return SeatResult(index, user, company, officer, vp, rank, sources, energy, automa=user is None)


def result(
    *seats: SeatResult, setup: str = "intro", expansions: tuple[str, ...] = ()
) -> GameResult:
    """A finished game's result."""
    return GameResult(len(seats), setup, "base", expansions, 5, tuple(seats))


TWO = result(seat(0, ALICE, "usa", 80, 1), seat(1, BOB, "italy", 60, 2))


async def finish(
    store: Store,
    game_result: GameResult = TWO,
    *,
    channel_id: int = CHANNEL,
    guild_id: int = GUILD,
) -> int:
    """A game of `game_result`'s players, played to its final commit; return its id."""
    users = [s.user_id or ALICE for s in game_result.seats]
    game = await new_game(store, channel_id=channel_id, guild_id=guild_id, seats=users)
    await store.append(game.id, 0, [decision(1)], snapshot={"v": 1})
    await store.append(game.id, 1, [decision(2)], snapshot={"v": 2}, result=game_result)
    return game.id


# -- written with the final commit --------------------------------------------------------


async def test_final_commit_finishes_the_game_with_its_results(
    store: Store, clock: FakeClock
) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], snapshot={"v": 1})
    await store.set_reminder(game.id, BOB, clock.now + 5)
    clock.advance(1000)
    version = await store.append(
        game.id, 1, [decision(2), decision(3)], snapshot={"v": 3}, outbox=[{"t": "end"}], result=TWO
    )
    meta = await store.get_game(game.id)
    assert (meta.status, meta.ended_at, meta.version) == (FINISHED, clock.now, 3)
    assert await store.reminders(game.id) == []
    assert await store.active_game(CHANNEL) is None
    finished = await store.game_result(game.id)
    assert finished is not None
    assert (finished.game_id, finished.guild_id, finished.channel_id) == (game.id, GUILD, CHANNEL)
    assert (finished.number, finished.version, finished.ended_at) == (1, version, clock.now)
    assert finished.result == TWO


async def test_a_stale_final_commit_writes_no_results(store: Store) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)])
    with pytest.raises(StaleVersionError):
        await store.append(game.id, 0, [decision(2)], result=TWO)
    assert (await store.get_game(game.id)).status == ACTIVE
    assert await store.game_result(game.id) is None


async def test_two_final_commits_racing_keep_one_result(store: Store, other_store: Store) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)])
    other = result(seat(0, ALICE, "usa", 50, 2), seat(1, BOB, "italy", 70, 1))
    outcomes = await asyncio.gather(
        store.append(game.id, 1, [decision(2)], result=TWO),
        other_store.append(game.id, 1, [decision(3)], result=other),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["StaleVersionError", "int"]
    kept = TWO if isinstance(outcomes[0], int) else other
    finished = await store.game_result(game.id)
    assert finished is not None and finished.result == kept


def test_a_result_must_add_up_and_name_every_seat() -> None:
    with pytest.raises(InvalidDataError, match="add up"):
        SeatResult(0, ALICE, "usa", "tommaso", 50, 1, {"start": 10}, ())
    with pytest.raises(InvalidDataError, match="automa"):
        SeatResult(0, None, "usa", "tommaso", 10, 1, {"start": 10}, ())
    with pytest.raises(InvalidDataError, match="rank"):
        SeatResult(0, ALICE, "usa", "tommaso", 10, 0, {"start": 10}, ())
    with pytest.raises(InvalidDataError, match="one row per seat"):
        GameResult(2, "intro", "base", (), 5, (seat(0, ALICE, "usa", 50, 1),) * 2)
    with pytest.raises(InvalidDataError, match="setup"):
        GameResult(1, "quick", "base", (), 5, (seat(0, ALICE, "usa", 50, 1),))


async def test_an_append_with_a_result_that_is_not_one_writes_nothing(store: Store) -> None:
    game = await new_game(store)
    with pytest.raises(InvalidDataError):
        await store.append(game.id, 0, [decision(1)], result={"players": 2})  # type: ignore[arg-type]
    assert await store.version(game.id) == 0


async def test_results_read_back_exactly(store: Store) -> None:
    robot = result(
        seat(0, ALICE, "usa", 91, 1, officer="wilhelm", energy=(0, 0, 6, 18, 21)),
        seat(1, None, "germany", 77, 2, officer="jill"),
        seat(2, CAROL, "france", 77, 2, officer="solomon", energy=()),
        setup="full",
        expansions=("nile", "leeghwater"),
    )
    game_id = await finish(store, robot)
    finished = await store.game_result(game_id)
    assert finished is not None
    assert finished.result.expansions == ("leeghwater", "nile")  # kept in one order
    assert finished.result.seats == robot.seats
    assert finished.result.seats[1].automa and finished.result.seats[1].user_id is None
    assert finished.result.winners == (robot.seats[0],)


# -- games that finished before results were kept ----------------------------------------------


async def test_record_result_keeps_a_finished_game_s_results_once(
    store: Store, clock: FakeClock
) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1), decision(2)])
    clock.advance(50)
    await store.set_status(game.id, FINISHED)
    ended = clock.now
    clock.advance(50)
    assert await store.games_without_results() == [game.id]
    assert await store.record_result(game.id, TWO, version=2)
    assert not await store.record_result(game.id, TWO, version=2)
    assert await store.games_without_results() == []
    finished = await store.game_result(game.id)
    assert finished is not None and (finished.version, finished.ended_at) == (2, ended)


async def test_record_result_refuses_what_is_not_a_finished_game(store: Store) -> None:
    active = await new_game(store, channel_id=1)
    await store.append(active.id, 0, [decision(1)])
    with pytest.raises(InvalidDataError, match="active"):
        await store.record_result(active.id, TWO, version=1)
    await store.set_status(active.id, FINISHED)
    with pytest.raises(InvalidDataError, match="version"):
        await store.record_result(active.id, TWO, version=7)
    assert await store.game_result(active.id) is None


async def test_games_without_results_pages_over_every_server(store: Store) -> None:
    ids = []
    for n in range(5):
        game = await new_game(store, channel_id=n + 1, guild_id=GUILD + n % 2)
        await store.append(game.id, 0, [decision(1)])
        await store.set_status(game.id, FINISHED if n != 2 else ABANDONED)
        ids.append(game.id)
    await finish(store, channel_id=99)
    expected = [ids[0], ids[1], ids[3], ids[4]]
    assert await store.games_without_results() == expected
    assert await store.games_without_results(limit=2) == expected[:2]
    assert await store.games_without_results(after_id=expected[1]) == expected[2:]


# -- the history --------------------------------------------------------------------------


async def test_finished_games_newest_first_paged(store: Store, clock: FakeClock) -> None:
    ids = []
    for n in range(5):
        clock.advance(1000)
        ids.append(await finish(store, channel_id=n + 1))
    clock.advance(1000)
    await finish(store, channel_id=9, guild_id=OTHER_GUILD)  # another server's
    first = await store.finished_games(GUILD, limit=2)
    assert first.total == 5
    assert [g.game_id for g in first.games] == [ids[4], ids[3]]
    assert [g.number for g in first.games] == [5, 4]
    last = await store.finished_games(GUILD, offset=4, limit=2)
    assert [g.game_id for g in last.games] == [ids[0]] and last.total == 5
    assert (await store.finished_games(GUILD, offset=10)).games == ()
    other = await store.finished_games(OTHER_GUILD)
    assert [g.number for g in other.games] == [1] and other.total == 1


async def test_finished_games_of_one_player(store: Store) -> None:
    a = await finish(store, channel_id=1)
    b = await finish(store, result(seat(0, CAROL, "usa", 50, 1), seat(1, BOB, "italy", 40, 2)))
    assert [g.game_id for g in (await store.finished_games(GUILD, user_id=ALICE)).games] == [a]
    page = await store.finished_games(GUILD, user_id=BOB)
    assert [g.game_id for g in page.games] == [b, a] and page.total == 2
    assert (await store.finished_games(GUILD, user_id=2**70)).total == 0


async def test_ties_on_the_same_instant_keep_the_newer_game_first(store: Store) -> None:
    a = await finish(store, channel_id=1)
    b = await finish(store, channel_id=2)
    assert [g.game_id for g in (await store.finished_games(GUILD)).games] == [b, a]


# -- statistics -----------------------------------------------------------------------------


async def test_stats_tally_players_companies_and_officers(store: Store) -> None:
    await finish(store, TWO, channel_id=1)  # Alice (usa) beats Bob (italy)
    await finish(
        store,
        result(
            seat(0, BOB, "usa", 90, 1, officer="jill"),
            seat(1, ALICE, "italy", 90, 1, officer="tommaso"),
            seat(2, CAROL, "germany", 40, 3, officer="jill"),
        ),
        channel_id=2,
    )
    stats = await store.stats(GUILD)
    assert stats.matched == 2
    assert stats.players == (
        Tally(ALICE, 2, 2, 170, 90, {1: 2}),
        Tally(BOB, 2, 1, 150, 90, {1: 1, 2: 1}),
        Tally(CAROL, 1, 0, 40, 40, {3: 1}),
    )
    assert [(t.key, t.games, t.wins, t.vp_total, t.best) for t in stats.companies] == [
        ("germany", 1, 0, 40, 40),
        ("italy", 2, 1, 150, 90),
        ("usa", 2, 2, 170, 90),
    ]
    assert {t.key: (t.games, t.wins) for t in stats.officers} == {
        "jill": (2, 1),
        "tommaso": (3, 2),
    }
    alice = stats.players[0]
    assert alice.win_rate == 1.0 and alice.mean_vp == 85.0


async def test_stats_filter_by_players_setup_and_expansions(store: Store) -> None:
    await finish(store, TWO, channel_id=1)
    three = result(
        seat(0, ALICE, "usa", 50, 2),
        seat(1, BOB, "italy", 60, 1),
        seat(2, CAROL, "france", 40, 3),
        setup="full",
        expansions=("leeghwater",),
    )
    await finish(store, three, channel_id=2)
    both = result(
        seat(0, CAROL, "usa", 70, 1),
        seat(1, BOB, "italy", 30, 2),
        expansions=("nile", "leeghwater"),
    )
    await finish(store, both, channel_id=3)

    async def matched(**filters: object) -> int:
        return (await store.stats(GUILD, StatsFilter(**filters))).matched  # type: ignore[arg-type]

    assert await matched() == 3
    assert await matched(players=2) == 2
    assert await matched(players=3) == 1
    assert await matched(setup="full") == 1
    assert await matched(expansions=()) == 1
    assert await matched(expansions=("leeghwater",)) == 1
    assert await matched(expansions=("leeghwater", "nile")) == 1
    assert await matched(players=2, expansions=("leeghwater",)) == 0
    filtered = await store.stats(GUILD, StatsFilter(players=2))
    assert {t.key: t.games for t in filtered.players} == {ALICE: 1, BOB: 2, CAROL: 1}
    assert filtered.counts.finished == 3  # the server's counts are not filtered


async def test_stats_of_one_player(store: Store) -> None:
    await finish(store, TWO, channel_id=1)
    await finish(
        store, result(seat(0, CAROL, "usa", 50, 1), seat(1, BOB, "germany", 40, 2)), channel_id=2
    )
    bob = await store.stats(GUILD, user_id=BOB)
    assert bob.matched == 2
    assert [t.key for t in bob.players] == [BOB]
    assert [(t.key, t.games) for t in bob.companies] == [("germany", 1), ("italy", 1)]
    alice = await store.stats(GUILD, user_id=ALICE)
    assert alice.matched == 1 and [(t.key, t.wins) for t in alice.companies] == [("usa", 1)]
    nobody = await store.stats(GUILD, user_id=2**64)
    assert nobody.matched == 0 and nobody.players == ()


async def test_automa_seats_count_in_no_tally(store: Store) -> None:
    await finish(store, result(seat(0, ALICE, "usa", 60, 2), seat(1, None, "italy", 70, 1)))
    stats = await store.stats(GUILD)
    assert stats.matched == 1
    assert stats.players == (Tally(ALICE, 1, 0, 60, 60, {2: 1}),)
    assert [t.key for t in stats.companies] == ["usa"]


async def test_seats_the_computer_player_held_at_the_end_or_for_3_turns_count_in_no_tally(
    store: Store,
) -> None:
    # Issue 24: such a seat is not that person's win or loss; 2 turns (a clock's expiry or
    # two) are forgiven, as in the ratings.
    held = SeatResult(1, BOB, "italy", "tommaso", 70, 1, {"start": 70}, (), ai_at_end=True)
    played = SeatResult(1, BOB, "germany", "tommaso", 70, 1, {"start": 70}, (), ai_turns=3)
    helped = SeatResult(1, BOB, "france", "tommaso", 70, 1, {"start": 70}, (), ai_turns=2)
    for channel, bob in enumerate((held, played, helped), 1):
        await finish(store, result(seat(0, ALICE, "usa", 60, 2), bob), channel_id=channel)
    stats = await store.stats(GUILD)
    assert stats.matched == 3
    assert stats.players == (
        Tally(ALICE, 3, 0, 180, 60, {2: 3}),
        Tally(BOB, 1, 1, 70, 70, {1: 1}),
    )
    assert [t.key for t in stats.companies] == ["france", "usa"]
    assert (await store.stats(GUILD, user_id=BOB)).players == (Tally(BOB, 1, 1, 70, 70, {1: 1}),)


async def test_stats_count_only_the_server_asked(store: Store) -> None:
    await finish(store, TWO, channel_id=1, guild_id=OTHER_GUILD)
    stats = await store.stats(GUILD)
    assert (stats.matched, stats.players, stats.companies) == (0, (), ())
    assert stats.counts == GameCounts()
    assert (await store.stats(OTHER_GUILD)).matched == 1


async def test_game_counts_by_stage(store: Store) -> None:
    await finish(store, TWO, channel_id=1)
    playing = await new_game(store, channel_id=2)
    await store.append(playing.id, 0, [decision(1)], snapshot={"v": 1})
    await new_game(store, channel_id=3)  # a lobby: never started
    dropped = await new_game(store, channel_id=4)
    await store.append(dropped.id, 0, [decision(1)], snapshot={"v": 1})
    await store.set_status(dropped.id, ABANDONED)
    never = await new_game(store, channel_id=5)
    await store.set_status(never.id, ABANDONED)  # abandoned in its lobby
    counts = (await store.stats(GUILD)).counts
    assert counts == GameCounts(played=3, finished=1, active=1, abandoned=1)
