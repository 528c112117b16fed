"""Ratings: OpenSkill per server and player, checked against a hand-worked example and the
library's own numbers (computed here directly with openskill), who is rated and who not, the
leaderboard by rating, and the final message's rating changes."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.rules.content import company_name
from bot.service import GameService
from bot.service.outbox import payload_lines
from bot.service.ratings import (
    NEWCOMER,
    Rating,
    RatingsKeeper,
    rate,
    rated_seats,
    rating_game,
    rating_notes,
    rebuild,
    seat_is_rated,
    why_unrated,
)
from bot.store import GameResult, PlacedSeat, RatingGame, SeatResult, SqliteStore
from tests.service.helpers import GUILD, USERS, FakeClock
from tests.service.test_stats import FIRST, SECOND, finished, play_to_end, played, seat, two_games

__all__ = ["played", "two_games"]  # the fixtures this module borrows

OTHER_GUILD = GUILD + 1
A, B, C, D = USERS


def library(*ratings: Rating, ranks: list[float]) -> list[tuple[float, float]]:
    """openskill's own answer for one game of these ratings: (mu, sigma) each, in order."""
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def shown(mu: float, sigma: float) -> int:
    """The number shown for a rating: mu − 3 sigma, times 10, rounded (the module's rule)."""
    return round((mu - 3 * sigma) * 10)


def person(user: int | None, rank: int, **kw: object) -> PlacedSeat:
    """A seat as the ratings read it."""
    return PlacedSeat(user, rank, user is None, **kw)  # type: ignore[arg-type]


def game(*seats: PlacedSeat, hints: bool = False, game_id: int = 1) -> RatingGame:
    """A finished game as the ratings read it."""
    return RatingGame(game_id, game_id * 1000, seats, hints)


# -- the model ---------------------------------------------------------------------------


def test_a_hand_worked_two_player_game_of_newcomers() -> None:
    """Plackett-Luce (Weng & Lin, algorithm 4) by hand, for two newcomers, the first winning.

    sigma² = (25/3)² + tau² = 69.444… + (25/300)² = 69.45139; beta² = (25/6)² = 17.36111;
    c² = 2 · (69.45139 + 17.36111) = 173.625, c = 13.17668. Equal mu: p = 1/2 each.
    Winner: Ω = sigma²/c · (1 − p) = 5.27078 · 0.5 = 2.63539, so mu = 27.63539; the loser
    loses as much: 22.36461. gamma = sigma/c = 0.632461; Δ = gamma · sigma²/c² · p(1 − p) =
    0.632461 · 0.4 · 0.25 = 0.0632461; sigma'² = 69.45139 · (1 − Δ) = 65.0588, sigma' = 8.06590.
    Shown: 10 · (27.63539 − 3 · 8.06590) = 34.4 → 34, and 10 · (22.36461 − 24.1977) → −18.
    """
    winner, loser = rate({}, game(person(A, 1), person(B, 2)))
    assert winner.after.mu == pytest.approx(27.63539, abs=1e-5)
    assert loser.after.mu == pytest.approx(22.36461, abs=1e-5)
    assert winner.after.sigma == loser.after.sigma == pytest.approx(8.06590, abs=1e-5)
    assert (winner.after.shown, loser.after.shown) == (34, -18)
    assert (winner.delta, loser.delta) == (34, -18)  # a newcomer stands at 0
    assert (winner.after.games, NEWCOMER.shown) == (1, 0)
    # ... and the library's own numbers, exactly.
    assert [(c.after.mu, c.after.sigma) for c in (winner, loser)] == library(
        NEWCOMER, NEWCOMER, ranks=[1, 2]
    )


def test_a_server_s_games_rebuild_to_the_library_s_numbers() -> None:
    """Four games, with a tie, a 4-player game and seats left out, replayed by openskill
    directly game after game: the rebuilt ratings are exactly its numbers."""
    games = [
        game(person(A, 1), person(B, 2), person(C, 3), game_id=1),
        # B and C share first place; the automa is left out.
        game(person(B, 1), person(None, 2), person(C, 1), person(A, 3), game_id=2),
        # D's seat was the computer player's at the end: A and B are ranked among themselves.
        game(person(D, 1, ai_at_end=True), person(A, 2), person(B, 3), game_id=3),
        game(person(D, 2), person(C, 1), person(A, 4), person(B, 3), game_id=4),
    ]
    book = rebuild(games)
    r = {u: NEWCOMER for u in USERS}
    for users, ranks in (
        ([A, B, C], [1, 2, 3]),
        ([B, C, A], [1, 1, 2]),
        ([A, B], [1, 2]),
        ([D, C, A, B], [2, 1, 4, 3]),
    ):
        after = library(*(r[u] for u in users), ranks=[float(x) for x in ranks])
        for user, (mu, sigma) in zip(users, after, strict=True):
            r[user] = Rating(mu, sigma, r[user].games + 1)
    assert book.players == r
    assert [book.players[u].games for u in USERS] == [4, 4, 3, 1]
    assert book.count == 4 and book.last == (4000, 4)
    assert book.players[A].shown == shown(r[A].mu, r[A].sigma)


def test_who_is_rated() -> None:
    assert seat_is_rated(person(A, 1))
    assert seat_is_rated(person(A, 1, ai_turns=2))  # a clock's expiry or two is forgiven
    assert why_unrated(person(A, 1, ai_turns=3)) == (
        "the computer player played 3 of the seat's turns"
    )
    assert why_unrated(person(A, 1, ai_at_end=True)) == (
        "the computer player held the seat at the end"
    )
    assert why_unrated(person(None, 1)) == "the engine played it"
    assert not seat_is_rated(PlacedSeat(A, 1, automa=True))


def test_computer_seats_leave_a_game_of_one_person_unrated() -> None:
    alone = game(person(A, 2), person(None, 1))
    assert rated_seats(alone) == () and rate({}, alone) == ()
    handed = game(person(A, 1), person(B, 2, ai_turns=5), person(None, 3), game_id=2)
    assert rate({}, handed) == ()
    book = rebuild([alone, handed])
    assert book.players == {} and book.count == 2


def test_games_with_hints_are_not_rated() -> None:
    assert rate({}, game(person(A, 1), person(B, 2), hints=True)) == ()
    assert rate({}, game(person(A, 1), person(B, 2, hints_used=1))) == ()


def test_a_spectator_s_rating_never_changes() -> None:
    book = rebuild([game(person(A, 1), person(C, 2), game_id=1)])
    spectator = book.players[C]
    book.apply([game(person(A, 2), person(B, 1), game_id=2)])
    assert book.players[C] is spectator
    assert D not in book.players


# -- the final message's lines -----------------------------------------------------------


def result_of(*seats: SeatResult, hints: bool = False) -> GameResult:
    """A synthetic finished game's result."""
    return GameResult(len(seats), "intro", "base", (), 5, seats, hints)


def test_rating_notes_by_company_and_who_was_left_out() -> None:
    left = SeatResult(2, C, "france", "wilhelm_adler", 40, 3, {"start": 40}, (), ai_turns=4)
    robot = seat(3, None, "germany", 20, 4)
    result = result_of(seat(0, A, "usa", 50, 2), seat(1, B, "italy", 60, 1), left, robot)
    changes = rate({}, rating_game(result))
    assert [c.user_id for c in changes] == [A, B]
    assert rating_notes(result, changes) == (
        {
            "usa": " · rating −18 (−18)",
            "italy": " · rating 34 (+34)",
            "france": " · not rated: the computer player played 4 of the seat's turns",
        },
        [],
    )


def test_rating_notes_of_unrated_games() -> None:
    hints = result_of(seat(0, A, "usa", 50, 1), seat(1, B, "italy", 40, 2), hints=True)
    notes, lines = rating_notes(hints, ())
    assert notes == {} and [x.render() for x in lines] == [
        "This game is not rated: it offered hints."
    ]
    solo = result_of(seat(0, A, "usa", 50, 1), seat(1, None, "italy", 40, 2))
    notes, lines = rating_notes(solo, ())
    assert notes == {} and [x.render() for x in lines] == [
        "This game is not rated: a rated game needs two or more people who played their own seats."
    ]


# -- through the service -----------------------------------------------------------------


async def test_the_final_message_shows_each_person_s_rating_change(played: GameService) -> None:
    """Two real games between the same two people: the second's final message shows the
    changes from the ratings the first left, as openskill computes them."""
    service = played
    ratings: dict[int, Rating] = {}
    for game_id in (FIRST, SECOND):
        final = (await service.store.pending_outbox(game_id))[-1]
        assert final.payload["reason"] == "end"
        text = "\n".join(line.render() for line in payload_lines(final.payload)[0])
        kept = await service.store.game_result(game_id)
        assert kept is not None
        seats = kept.result.seats
        users = [s.user_id for s in seats if s.user_id is not None]
        before = [ratings.get(u, NEWCOMER) for u in users]
        after = library(*before, ranks=[float(s.rank) for s in seats])
        for s, a, b in zip(seats, after, before, strict=True):
            # Each person's line of the ranking ends with their new rating and its change.
            change = f"rating {format_shown(shown(*a))} ({signed(shown(*a) - b.shown)})"
            line = f"{s.rank}. {company_name(s.company)} (@{s.user_id}): {s.vp} VP · {change}"
            assert line in text.splitlines()
            assert text.count(f"@{s.user_id}") == 1  # everyone is named once
        for u, (mu, sigma), b in zip(users, after, before, strict=True):
            ratings[u] = Rating(mu, sigma, b.games + 1)
    server = await service.ratings.server(GUILD)
    assert dict(server.players) == ratings and server.games == 2


def format_shown(value: int) -> str:
    """A number shown with a minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def signed(delta: int) -> str:
    """A change as the final message writes it."""
    return f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "±0"


async def test_stats_rank_by_rating_with_win_rates_beside(service: GameService) -> None:
    # B wins more often than C, but against A only once; C beats A twice.
    await finished(service, seat(0, A, "usa", 80, 1), seat(1, B, "italy", 60, 2), channel=1)
    await finished(service, seat(0, A, "usa", 80, 1), seat(1, B, "italy", 60, 2), channel=2)
    await finished(service, seat(0, B, "usa", 80, 1), seat(1, D, "italy", 60, 2), channel=3)
    await finished(service, seat(0, B, "usa", 80, 1), seat(1, D, "italy", 60, 2), channel=4)
    await finished(service, seat(0, B, "usa", 80, 1), seat(1, D, "italy", 60, 2), channel=5)
    await finished(service, seat(0, None, "usa", 80, 1), seat(1, C, "italy", 60, 2), channel=6)
    view = await service.records.server_stats(GUILD, min_games=1)
    ratings = await service.ratings.server(GUILD)
    rated = [s.key for s in view.players if s.rating is not None]
    assert rated == sorted(rated, key=lambda u: -ratings.of(int(u)).shown)
    assert [s.rating for s in view.players[:3]] == [ratings.of(u).shown for u in rated]
    assert view.players[-1].key == C and view.players[-1].rating is None  # unrated: last
    text = "\n".join(line.render() for line in view.lines())
    best = view.players[0]
    assert f"1. @{best.key}: rating {format_shown(best.rating or 0)}, " in text
    assert f"@{C}: unrated, 1 game, 0 wins (0%)" in text
    assert "Rating: OpenSkill's cautious estimate of skill (μ − 3σ, ×10)" in text
    record = await service.records.player_stats(GUILD, B)
    assert record.record is not None and record.record.rating == ratings.of(B).shown
    assert f"rating {format_shown(ratings.of(B).shown)}, 5 games, 3 wins (60%)" in (
        record.lines()[0].render()
    )


async def test_leaderboard_picture_has_a_rating_column(service: GameService) -> None:
    from bot.service.images import Leaderboard
    from tests.service.test_stats import record_drawings

    drawn = record_drawings(service)
    await finished(service, seat(0, A, "usa", 80, 1), seat(1, B, "italy", 60, 2))
    view = await service.records.server_stats(GUILD, min_games=1)
    await service.records.leaderboard_image(view, {A: "Anna", B: "Bo"})
    board = drawn[-1]
    assert isinstance(board, Leaderboard)
    assert board.subtitle == "1 finished game (all finished games) · ranked by rating, from 1 game"
    players = board.tables[0]
    assert players.columns == ("Player", "Rating", "Games", "Wins", "Win %", "Mean VP")
    assert [(r.place, r.name, r.cells) for r in players.rows] == [
        (1, "Anna", ("34", "1", "1", "100%", "80.0")),
        (2, "Bo", ("−18", "1", "0", "0%", "60.0")),
    ]


async def test_a_spectator_s_rating_is_unchanged_by_others_games(service: GameService) -> None:
    await finished(service, seat(0, A, "usa", 80, 1), seat(1, C, "italy", 60, 2), channel=1)
    spectator = (await service.ratings.server(GUILD)).of(C)
    await finished(service, seat(0, A, "usa", 80, 2), seat(1, B, "italy", 90, 1), channel=2)
    await finished(service, seat(0, D, "usa", 80, 1), seat(1, B, "italy", 70, 2), channel=3)
    # C's games in another server count there only.
    await finished(service, seat(0, C, "usa", 80, 1), seat(1, D, "italy", 70, 2), channel=4,
                   guild=OTHER_GUILD)  # fmt: skip
    now = await service.ratings.server(GUILD)
    assert now.of(C) == spectator and now.games == 3
    assert (await service.ratings.server(OTHER_GUILD)).of(C).games == 1


async def test_ratings_follow_the_store_and_rebuild_for_a_game_found_earlier(
    service: GameService, clock: FakeClock
) -> None:
    """New games are applied on top; a game whose results appear earlier in the order (a
    late backfill) makes the keeper rebuild, to what a fresh process computes."""
    store = service.store
    assert isinstance(store, SqliteStore)
    late = await store.create_game(
        guild_id=GUILD, channel_id=77, creator_id=A, options={"players": 2}, seed=1,
        engine_version="0.1.0", seats=[A, D],
    )  # fmt: skip
    await store.append(late.id, 0, [{"kind": "commit"}])
    await store.set_status(late.id, "finished")  # it ends first, its results come last
    clock.advance(60_000)
    await finished(service, seat(0, A, "usa", 80, 1), seat(1, B, "italy", 60, 2), channel=1)
    keeper = service.ratings
    keeper.inline_games = 0  # a worker thread rates them, as it would many games
    first = await keeper.server(GUILD)
    clock.advance(60_000)
    await finished(service, seat(0, B, "usa", 80, 1), seat(1, C, "italy", 60, 2), channel=2)
    assert (await keeper.server(GUILD)).games == 2 and keeper.rebuilds == 1
    late_result = result_of(seat(0, A, "usa", 10, 2), seat(1, D, "italy", 90, 1))
    assert await store.record_result(late.id, late_result, version=1)
    again = await keeper.server(GUILD)
    assert keeper.rebuilds == 2 and again.games == 3
    assert dict(again.players) == dict((await RatingsKeeper(store).server(GUILD)).players)
    assert again.of(A) != first.of(A)
    # In order: D beat A first, then A beat B, then B beat C.
    expected = rebuild(
        [
            game(person(A, 2), person(D, 1), game_id=1),
            game(person(A, 1), person(B, 2), game_id=2),
            game(person(B, 1), person(C, 2), game_id=3),
        ]
    )
    assert dict(again.players) == expected.players


def test_a_game_is_applied_once_and_in_order() -> None:
    book = rebuild([game(person(A, 1), person(B, 2), game_id=2)])
    with pytest.raises(ValueError, match="does not come after"):
        book.apply([game(person(A, 1), person(B, 2), game_id=2)])
    with pytest.raises(ValueError, match="does not come after"):
        book.apply([game(person(A, 1), person(B, 2), game_id=1)])
    assert book.count == 1


async def test_a_failing_rating_never_stops_a_game_from_ending(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(guild_id: int) -> None:
        raise ArithmeticError("the model failed")

    monkeypatch.setattr(service.ratings, "server", broken)
    game_id = await play_to_end(service, clock)
    assert (await service.store.get_game(game_id)).status == "finished"
    final = (await service.store.pending_outbox(game_id))[-1]
    text = "\n".join(line.render() for line in payload_lines(final.payload)[0])
    assert "Final ranking:" in text and "rating" not in text and "rated" not in text
    monkeypatch.undo()
    assert (await service.ratings.server(GUILD)).games == 1  # the results count all the same
