"""Records through the service: results kept with the final commit, the start-up backfill,
statistics, history, archived games' pictures and replays — none of them replaying a log."""

from __future__ import annotations

import asyncio
import io
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

import bot.service.core as core_module
import bot.service.history as history_module
from bot.service import Actor, GameService, NoGameHere, RendererPool, ServiceError
from bot.service.final import source_groups
from bot.service.images import GameCharts, Leaderboard
from bot.service.types import number
from bot.store import FINISHED, GameResult, SeatResult, SqliteStore, StatsFilter
from tests.service.conftest import MakeService, fake_png
from tests.service.helpers import GUILD, USERS, FakeClock, random_step, started_game

OTHER_GUILD = GUILD + 1


async def play_to_end(service: GameService, clock: FakeClock, players: int = 2, seed: int = 1):
    """A real game played at random to its end in the test channel; return its id."""
    game_id = await started_game(service, players, seed=seed)
    rng = random.Random(seed)
    while await random_step(service, rng, players, game_id):
        clock.advance(60_000)
    return game_id


#: The store ids of the two games of the `two_games` database.
FIRST, SECOND = 1, 2


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with two real 2-player games played to their end (seeds 1 and 3), played
    once for the module: each test works on its own copy."""
    path = tmp_path_factory.mktemp("records") / "service.sqlite3"

    async def build() -> None:
        clock = FakeClock()
        store = await SqliteStore.open(path, clock=clock)
        pool = RendererPool(kind="inline", render_fn=fake_png)
        service = GameService(store, clock=clock, renderer_pool=pool)
        assert await play_to_end(service, clock, seed=1) == FIRST
        assert await play_to_end(service, clock, seed=3) == SECOND
        await store.close()

    asyncio.run(build())
    return path


@pytest.fixture
async def played(two_games: Path, tmp_path: Path, make_service: MakeService) -> GameService:
    """A service on a copy of the `two_games` database."""
    shutil.copyfile(two_games, tmp_path / "service.sqlite3")
    return await make_service()


def seat(
    index: int, user: int | None, company: str, vp: int, rank: int, officer: str = "wilhelm_adler"
):
    """A synthetic seat result."""
    sources = {"start": 10, "contract": vp - 10}
    return SeatResult(
        index, user, company, officer, vp, rank, sources, (5, 6, 7, 8, 9), user is None
    )


async def finished(
    service: GameService,
    *seats: SeatResult,
    guild: int = GUILD,
    channel: int = 5000,
    setup: str = "intro",
    expansions: tuple[str, ...] = (),
) -> int:
    """A stored game finished with these results (no engine involved); return its id."""
    store = service.store
    users = [s.user_id or USERS[0] for s in seats]
    game = await store.create_game(
        guild_id=guild,
        channel_id=channel,
        creator_id=users[0],
        options={"players": len(seats)},
        seed=1,
        engine_version="0.1.0",
        seats=users,
    )
    result = GameResult(len(seats), setup, "base", expansions, 5, tuple(seats))
    await store.append(game.id, 0, [{"kind": "commit"}], snapshot={"v": 1}, result=result)
    return game.id


def record_drawings(service: GameService) -> list[object]:
    """What the service hands its renderer from now on (each drawn as a stand-in PNG)."""
    drawn: list[object] = []

    def record(state: object, view: str, company: str | None, theme: str) -> bytes:
        drawn.append(state)
        return b"PNG"

    service.renderer_pool.render_fn = record
    return drawn


def no_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any replay of a log fail the test."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a log was replayed")

    monkeypatch.setattr(history_module, "new_game", refuse)
    monkeypatch.setattr(core_module, "replay_history", refuse)


# -- kept with the final commit ---------------------------------------------------------------


async def test_the_final_commit_keeps_the_results(played: GameService, clock: FakeClock) -> None:
    service, game_id = played, FIRST
    meta = await service.store.get_game(game_id)
    assert meta.status == FINISHED
    kept = await service.store.game_result(game_id)
    assert kept is not None and kept.version == meta.version and kept.number == meta.number
    loaded = await service.desk.game_for_reminder(game_id)
    assert loaded is not None and loaded.committed is not None
    state = loaded.committed
    result = kept.result
    assert (result.players, result.setup, result.rounds) == (2, "intro", state.round)
    ranks = {e["company"]: e["place"] for e in state.result["ranking"]}
    replayed = await service.desk.history_of(loaded)
    for s in result.seats:
        company = state.companies[s.company]
        assert (s.seat, s.user_id, s.automa) == (company.seat, USERS[company.seat], False)
        assert (s.officer, s.vp, s.rank) == (company.officer, company.vp, ranks[s.company])
        assert sum(s.vp_by_source.values()) == s.vp and s.vp_by_source["start"] == 10
        assert list(s.energy_by_round) == [h["energy"][s.company] for h in state.history]
        # The breakdown the score shows, read from the results, is the replayed log's.
        explained = {k: v for k, v in replayed.vp[s.company].items() if v}
        assert source_groups(s.vp_by_source) == explained


async def test_no_request_about_finished_games_replays_a_log(
    played: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh, game_id = played, FIRST
    number = (await fresh.store.get_game(game_id)).number
    no_replays(monkeypatch)
    view = await fresh.records.server_stats(GUILD, min_games=1)
    assert view.matched == 2 and len(view.players) == 2
    assert (await fresh.records.player_stats(GUILD, USERS[0])).record is not None
    assert (await fresh.records.history(GUILD)).total == 2
    game = await fresh.records.archived_game(GUILD, number)
    await fresh.views.archived_score_sheet(game)
    await fresh.records.game_charts(game, {})
    await fresh.records.leaderboard_image(view, {})
    assert (await fresh.views.score(game_id, by_game_id=True, guild_id=GUILD)).over
    await fresh.views.board_image(game_id, "map", by_game_id=True, guild_id=GUILD)
    frames = await fresh.records._replay_frames(game, "turn")
    assert len(frames) > 2


# -- the backfill ----------------------------------------------------------------------------


def forget_results(path: Path) -> None:
    """Make the database look as if its games finished before results were kept."""
    con = sqlite3.connect(path)
    with con:
        con.execute("DELETE FROM result_seats")
        con.execute("DELETE FROM results")
    con.close()


async def test_backfill_gives_finished_games_their_results_once(
    played: GameService, tmp_path: Path
) -> None:
    service = played
    kept = [await service.store.game_result(game_id) for game_id in (FIRST, SECOND)]
    forget_results(tmp_path / "service.sqlite3")
    assert await service.store.games_without_results() == [FIRST, SECOND]
    report = await service.records.backfill_results(batch=1)
    assert (report.written, report.skipped, report.already) == (2, 0, 0)
    assert [await service.store.game_result(game_id) for game_id in (FIRST, SECOND)] == kept
    assert (await service.records.backfill_results()).written == 0  # nothing left to do


async def test_backfill_skips_and_counts_a_log_that_no_longer_replays(
    played: GameService, tmp_path: Path
) -> None:
    service, good, broken = played, FIRST, SECOND
    forget_results(tmp_path / "service.sqlite3")
    con = sqlite3.connect(tmp_path / "service.sqlite3")
    with con:  # an answer an engine upgrade no longer accepts, early in the game
        seq, body = con.execute(
            "SELECT seq, body FROM log WHERE game_id = ? AND kind = 'decision' ORDER BY seq"
            " LIMIT 1 OFFSET 5",
            (broken,),
        ).fetchone()
        body = body.replace('"notation":"', '"notation":"nonsense ')
        con.execute("UPDATE log SET body = ? WHERE game_id = ? AND seq = ?", (body, broken, seq))
    con.close()
    report = await service.records.backfill_results()
    assert (report.written, report.skipped) == (1, 1)
    assert await service.store.game_result(good) is not None
    assert await service.store.game_result(broken) is None


async def test_an_imported_finished_game_has_its_results_at_once(played: GameService) -> None:
    service = played
    manager = Actor(USERS[0], GUILD, 9000, True)
    doc = await service.moving.export_game(manager, FIRST)
    outcome = await service.moving.import_game(manager, doc)
    imported = await service.store.get_game(outcome.game_id)
    assert imported.status == FINISHED
    game = await service.records.archived_game(GUILD, imported.number)  # no backfill needed
    original = await service.store.game_result(FIRST)
    assert original is not None and game.result == original.result
    assert (await service.records.server_stats(GUILD)).matched == 3


async def test_a_game_the_repair_finds_over_has_its_results_at_once(
    played: GameService, tmp_path: Path
) -> None:
    service = played
    kept = await service.store.game_result(FIRST)
    forget_results(tmp_path / "service.sqlite3")
    con = sqlite3.connect(tmp_path / "service.sqlite3")
    with con:  # as an older release left it: over in its log, still active in its row
        con.execute("UPDATE games SET status = 'active' WHERE id = ?", (FIRST,))
    con.close()
    await service.views.log_lines(FIRST, by_game_id=True, guild_id=GUILD)
    assert (await service.store.get_game(FIRST)).status == FINISHED
    again = await service.store.game_result(FIRST)
    assert kept is not None and again is not None and again.result == kept.result


# -- statistics and history ------------------------------------------------------------------


async def test_server_stats_rank_players_with_enough_games(service: GameService) -> None:
    a, b, c = USERS[:3]
    for n in range(3):
        await finished(service, seat(0, a, "usa", 80, 1), seat(1, b, "italy", 60, 2), channel=n)
    await finished(service, seat(0, b, "usa", 90, 1), seat(1, c, "germany", 50, 2), channel=9)
    await finished(service, seat(0, c, "usa", 99, 1), seat(1, a, "italy", 9, 2), guild=OTHER_GUILD)
    view = await service.records.server_stats(GUILD)
    assert view.matched == 4 and view.counts.finished == 4
    assert [(s.key, s.place, s.games, s.wins) for s in view.players] == [(a, 1, 3, 3), (b, 2, 4, 1)]
    assert [(s.key, s.games) for s in view.unranked] == [(c, 1)]
    companies = [(s.name, s.games, s.wins) for s in view.companies]
    assert companies == [("USA", 4, 4), ("Italy", 3, 0), ("Germany", 1, 0)]
    assert [s.name for s in view.officers] == ["Wilhelm Adler"]
    text = "\n".join(line.render() for line in view.lines())
    rating = number((await service.ratings.server(GUILD)).of(a).shown)
    assert f"1. @{a}: rating {rating}, 3 games, 3 wins (100%), mean 80.0 VP, best 80" in text
    assert "Not ranked yet (fewer than 3 games): 1 player." in text
    assert "USA: 100% wins, mean 82.5 VP (4 games)" in text
    everyone = await service.records.server_stats(GUILD, min_games=1)
    assert [s.key for s in everyone.players] == [a, b, c] and everyone.unranked == ()


async def test_equal_figures_share_a_place(service: GameService) -> None:
    a, b = USERS[:2]
    await finished(service, seat(0, a, "usa", 70, 1), seat(1, b, "italy", 70, 1))
    view = await service.records.server_stats(GUILD, min_games=1)
    assert [s.place for s in view.players] == [1, 1]


async def test_stats_filters_and_refusals(service: GameService) -> None:
    a, b, c = USERS[:3]
    await finished(service, seat(0, a, "usa", 80, 1), seat(1, b, "italy", 60, 2))
    three = (seat(0, a, "usa", 40, 3), seat(1, b, "italy", 60, 2), seat(2, c, "france", 70, 1))
    await finished(service, *three, setup="full", expansions=("leeghwater",), channel=2)
    full = await service.records.server_stats(GUILD, StatsFilter(setup="full"), min_games=1)
    assert full.matched == 1 and full.scope == "full setup"
    # Ranked by their ratings over both games: a's win outweighs b's second place.
    assert [s.key for s in full.players] == [c, a, b]
    both = StatsFilter(players=3, expansions=("leeghwater",))
    assert (await service.records.server_stats(GUILD, both)).scope == (
        "3-player games, The Leeghwater Project"
    )
    assert (await service.records.server_stats(GUILD, StatsFilter(expansions=()))).matched == 1
    with pytest.raises(ServiceError, match="2 to 4 players"):
        await service.records.server_stats(GUILD, StatsFilter(players=9))
    with pytest.raises(ServiceError, match="setup"):
        await service.records.server_stats(GUILD, StatsFilter(setup="quick"))
    with pytest.raises(ServiceError, match="No expansion is called atlantis"):
        await service.records.history(GUILD, 1, StatsFilter(expansions=("atlantis",)))
    with pytest.raises(ServiceError, match="at least 1"):
        await service.records.server_stats(GUILD, min_games=0)


async def test_automa_seats_are_kept_and_counted_nowhere(service: GameService) -> None:
    game_id = await finished(
        service, seat(0, USERS[0], "usa", 50, 2), seat(1, None, "italy", 60, 1)
    )
    view = await service.records.server_stats(GUILD, min_games=1)
    assert [s.key for s in view.players] == [USERS[0]]
    assert [s.name for s in view.companies] == ["USA"]
    kept = await service.store.game_result(game_id)
    assert kept is not None and kept.result.seats[1].automa
    lines = (await service.records.history(GUILD)).lines()
    assert "🏆 Automa (Italy) 60" in lines[1].render()


async def test_player_stats(service: GameService, clock: FakeClock) -> None:
    a, b = USERS[:2]
    for n in range(7):
        clock.advance(86_400_000)
        first, second = (a, b) if n % 3 else (b, a)
        await finished(service, seat(0, first, "usa", 80, 1), seat(1, second, "germany", 50, 2),
                       channel=n)  # fmt: skip
    view = await service.records.player_stats(GUILD, a)
    assert view.record is not None and (view.record.games, view.record.wins) == (7, 4)
    assert len(view.recent) == 5 and view.recent[0].number == 7
    assert [(s.name, s.games) for s in view.companies] == [("USA", 4), ("Germany", 3)]
    text = "\n".join(line.render() for line in view.lines())
    assert "Places: 1st ×4, 2nd ×3." in text
    assert "• #7 (" in text and f"🏆 @{a} (USA) 80" in text
    nobody = await service.records.player_stats(GUILD, USERS[3])
    assert nobody.record is None
    assert "has no finished game in this server yet" in nobody.lines()[0].render()


async def test_history_pages_newest_first(service: GameService, clock: FakeClock) -> None:
    for n in range(7):
        clock.advance(1000)
        await finished(service, seat(0, USERS[0], "usa", 60 + n, 1),
                       seat(1, USERS[1], "italy", 50, 2), channel=n)  # fmt: skip
    first = await service.records.history(GUILD)
    assert (first.page, first.pages, first.total) == (1, 2, 7)
    assert [g.number for g in first.games] == [7, 6, 5, 4, 3]
    last = await service.records.history(GUILD, 9)  # past the end: the last page
    assert last.page == 2 and [g.number for g in last.games] == [2, 1]
    assert "page 2 of 2" in last.lines()[0].render()
    assert (
        (await service.records.history(OTHER_GUILD))
        .lines()[0]
        .render()
        .startswith("No finished games")
    )


async def test_history_numbers_past_64_bits_are_refused_plainly(service: GameService) -> None:
    """Numbers no database column holds (a page or player in a button id, a game from a menu)
    get a clear refusal, not a database error."""
    with pytest.raises(ServiceError, match="the history's pages go up to 100,000"):
        await service.records.history(GUILD, 2**64)
    with pytest.raises(ServiceError, match="There is no such player"):
        await service.records.history(GUILD, 1, user_id=2**64)
    with pytest.raises(NoGameHere, match=f"There is no game #{2**64} in this server"):
        await service.records.archived_game(GUILD, 2**64)
    assert (
        await service.records.history(GUILD, 100_000)
    ).total == 0  # the last page a command asks for


async def test_archived_games_are_this_server_s_finished_ones(
    service: GameService, clock: FakeClock
) -> None:
    await finished(service, seat(0, USERS[0], "usa", 60, 1), seat(1, USERS[1], "italy", 50, 2),
                   guild=OTHER_GUILD)  # fmt: skip
    with pytest.raises(NoGameHere, match="no game #1 in this server"):
        await service.records.archived_game(GUILD, 1)
    game_id = await started_game(service)
    number = (await service.store.get_game(game_id)).number
    with pytest.raises(NoGameHere, match="not over yet"):
        await service.records.archived_game(GUILD, number)
    assert (await service.records.archived_game(OTHER_GUILD, 1)).guild_id == OTHER_GUILD


# -- pictures --------------------------------------------------------------------------------


async def test_pictures_are_drawn_from_the_results(service: GameService) -> None:
    drawn = record_drawings(service)
    game_id = await finished(
        service, seat(0, USERS[0], "usa", 60, 1), seat(1, None, "italy", 50, 2)
    )
    game = await service.records.archived_game(
        GUILD, (await service.store.get_game(game_id)).number
    )
    await service.records.game_charts(game, {USERS[0]: "Anna"})
    charts = drawn[-1]
    assert isinstance(charts, GameCharts)
    assert charts.title == "Game #1: Anna wins with 60 VP"
    assert [(s.player, s.company, s.vp) for s in charts.seats] == [("Anna", "usa", 60),
                                                                  ("Automa", "italy", 50)]  # fmt: skip
    view = await service.records.server_stats(GUILD, min_games=1)
    await service.records.leaderboard_image(view, {USERS[0]: "Anna"})
    board = drawn[-1]
    assert isinstance(board, Leaderboard)
    players, companies, officers = board.tables
    assert [r.name for r in officers.rows] == ["Wilhelm Adler"]
    assert [(r.place, r.name, r.cells) for r in players.rows] == [
        (1, "Anna", ("unrated", "1", "1", "100%", "60.0"))  # a game against the automa
    ]
    assert [r.company for r in companies.rows] == ["usa"]


async def test_charts_group_vp_by_the_score_sheet_s_rows(service: GameService) -> None:
    drawn = record_drawings(service)
    # Leeghwater's three sources of Private Buildings VP are one bar, under the sheet's name.
    sources = {"start": 10, "income": 20, "end:building": 6, "building": 4, "external_work": 5}
    seats = (
        SeatResult(0, USERS[0], "usa", "wilhelm_adler", 45, 1, sources, (5, 6, 7, 8, 9)),
        seat(1, USERS[1], "italy", 30, 2),
    )
    game_id = await finished(service, *seats, expansions=("leeghwater",))
    game = await service.records.archived_game(
        GUILD, (await service.store.get_game(game_id)).number
    )
    await service.records.game_charts(game, {})
    charts = drawn[-1]
    assert isinstance(charts, GameCharts)
    assert charts.seats[0].vp_by_source == {
        "start": 10,
        "income": 20,
        "private buildings": 10,
        "external works": 5,
    }
    assert charts.seats[0].player == "Player"  # a name the adapter could not find


async def test_the_score_sheet_from_results_is_the_replayed_one(played: GameService) -> None:
    """The archived score sheet (results and final snapshot) draws the same picture as the
    one drawn from the replayed log."""
    game_id = FIRST
    service = GameService(
        played.store, clock=played.clock, renderer_pool=RendererPool(kind="inline")
    )
    meta = await service.store.get_game(game_id)
    loaded = await service.desk.game_for_reminder(game_id)
    assert loaded is not None
    await service.desk.history_of(loaded)  # known: the sheet is drawn from the replay
    replayed = await service.views.board_image(game_id, "score", by_game_id=True)
    # A service of its own: nothing of the replay is cached in it.
    fresh = GameService(played.store, clock=played.clock, renderer_pool=RendererPool(kind="inline"))
    kept = await fresh.views.archived_score_sheet(
        await fresh.records.archived_game(GUILD, meta.number)
    )
    a, b = (Image.open(io.BytesIO(png)).convert("RGB") for png in (replayed, kept))
    assert a.size == b.size and a.tobytes() == b.tobytes()


# -- replays ---------------------------------------------------------------------------------


async def test_replay_frames_one_per_round_or_per_turn(played: GameService) -> None:
    service, game_id = played, FIRST
    game = await service.records.archived_game(
        GUILD, (await service.store.get_game(game_id)).number
    )
    rounds = await service.records._replay_frames(game, "round")
    captions = [f.caption for f in rounds]
    assert captions[:-1] == [f"Round {n} begins" for n in range(1, 6)]
    assert captions[-1].startswith("Final score: ")
    assert [f.state.round for f in rounds[:-1]] == [1, 2, 3, 4, 5] and rounds[-1].state.finished
    turns = await service.records._replay_frames(game, "turn")
    loaded = await service.desk.game_for_reminder(game_id)
    assert loaded is not None
    assert len(turns) == min(len(loaded.commits), 150)
    assert turns[-1].state.finished and "after" in turns[1].caption
    with pytest.raises(ServiceError, match="round or turn"):
        await service.records.replay(game, pace="move")


async def test_a_replay_is_a_looping_gif_cached_and_under_its_budget(
    played: GameService,
) -> None:
    service, game_id = played, FIRST
    game = await service.records.archived_game(
        GUILD, (await service.store.get_game(game_id)).number
    )
    gif = await service.records.replay(game)
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.n_frames == 6 and image.info["loop"] == 0
    assert len(gif) < 8 * 1024 * 1024
    assert await service.records.replay(game) is gif  # drawn once
    assert service.renderer_pool.slow_renders == 1
    with pytest.raises(ServiceError, match="does not fit"):
        await service.records.replay(game, max_bytes=10_000)
