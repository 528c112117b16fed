"""Print how fast a server's records answer over many finished games (figures, not a test).

Fills a SQLite store (through the store's own interface) with finished games of one server —
10,000 by default — and a few of another server, then times what the Discord commands ask the
service for: the server's statistics (all games, and filtered), one player's record, pages of
the history, an archived game; and the leaderboard picture. Every answer reads the results
table only: none replays a log (tests/service/test_stats.py checks that). The issue's target
is under 200 ms for the statistics over 10,000 games.

Ratings (bot/service/ratings.py): their rebuild from the store by a process that has none
yet (read in the ratings' order, then every rated game through OpenSkill), the same from
games already read (OpenSkill alone), bringing them up to date when nothing finished since
(what every stats answer does), and the rating changes of a game finishing now (what its
final commit computes for its message).

Usage: .venv/bin/python bench/stats.py [--games N] [--repeat N] [--db FILE]
(--db keeps the filled database, so a second run skips the filling.)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.service import GameService, RendererPool
from bot.service.ratings import RatingsKeeper, rated_seats, rebuild
from bot.store import GameResult, SeatResult, SqliteStore, StatsFilter

GUILD, OTHER_GUILD = 1, 2
PLAYERS = list(range(1000, 1060))  # 60 members who play
COMPANIES = ("usa", "germany", "italy", "france", "netherlands")
OFFICERS = (
    "wilhelm_adler", "jill_mcdowell", "solomon_p_jordan", "viktor_fiesler",
    "graziano_del_monte", "tommaso_battista", "anton_krylov",
)  # fmt: skip
EXPANSIONS: tuple[tuple[str, ...], ...] = ((), (), (), ("leeghwater",), ("colorado",), ("nile",))


def random_result(rng: random.Random) -> GameResult:
    """A plausible finished game: 2-4 players, ranks by VP, VP by source adding up."""
    count = rng.choice((2, 3, 3, 4, 4))
    users = rng.sample(PLAYERS, count)
    companies = rng.sample(COMPANIES, count)
    vps = [rng.randint(40, 140) for _ in range(count)]
    order = sorted(range(count), key=lambda i: -vps[i])
    ranks = [0] * count
    for place, i in enumerate(order):
        same = place and vps[i] == vps[order[place - 1]]
        ranks[i] = ranks[order[place - 1]] if same else place + 1
    seats = []
    for i in range(count):
        income = rng.randint(0, vps[i] - 10)
        sources = {"start": 10, "income": income, "contract": vps[i] - 10 - income}
        energy = tuple(rng.randint(0, 25) for _ in range(5))
        automa = rng.random() < 0.03
        user = None if automa else users[i]
        seats.append(
            SeatResult(
                i,
                user,
                companies[i],
                rng.choice(OFFICERS),
                vps[i],
                ranks[i],
                sources,
                energy,
                automa=automa,
                ai_turns=0 if automa else rng.choice((0,) * 20 + (1, 3)),
                ai_at_end=not automa and rng.random() < 0.02,
            )
        )
    setup = rng.choice(("intro", "full"))
    expansions = rng.choice(EXPANSIONS)
    hints = rng.random() < 0.05
    return GameResult(count, setup, "base", expansions, 5, tuple(seats), hints)


async def fill(store: SqliteStore, games: int) -> None:
    """`games` finished games in GUILD and a tenth as many in OTHER_GUILD."""
    rng = random.Random(17)
    for n in range(games + games // 10):
        result = random_result(rng)
        users = [s.user_id or PLAYERS[0] for s in result.seats]
        game = await store.create_game(
            guild_id=GUILD if n < games else OTHER_GUILD,
            channel_id=10_000 + n,
            creator_id=users[0],
            options={"players": result.players},
            seed=n,
            engine_version="bench",
            seats=users,
        )
        await store.append(game.id, 0, [{"kind": "commit"}], result=result)
        if n and n % 2000 == 0:
            print(f"  filled {n} games…", flush=True)


async def timed(what: str, repeat: int, call: Callable[[], Awaitable[Any]]) -> None:
    """Run `call` `repeat` times; print its median, p95 and worst time."""
    await call()  # the first call warms the connection and SQLite's page cache
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(
        f"{what:<44} median {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms"
        f"   max {times[-1]:7.1f} ms"
    )


async def run(path: Path, games: int, repeat: int) -> None:
    """Fill (unless already filled) and time the answers."""
    store = await SqliteStore.open(path)
    try:
        have = (await store.stats(GUILD)).matched
        if have < games:
            print(f"filling {path} with {games} finished games of one server…", flush=True)
            started = time.perf_counter()
            await fill(store, games - have)
            print(f"  done in {time.perf_counter() - started:.1f} s")
        service = GameService(store, clock=lambda: 0, renderer_pool=RendererPool(kind="inline"))
        view = await service.records.server_stats(GUILD)
        print(
            f"{view.matched} finished games here, {len(view.players)} ranked players, "
            f"{len(view.companies)} companies, {len(view.officers)} officers"
        )
        user = PLAYERS[0]
        await timed("server stats (all games)", repeat, lambda: service.records.server_stats(GUILD))
        await timed(
            "server stats (3 players, full setup)",
            repeat,
            lambda: service.records.server_stats(GUILD, StatsFilter(players=3, setup="full")),
        )
        await timed(
            "server stats (base game only)",
            repeat,
            lambda: service.records.server_stats(GUILD, StatsFilter(expansions=())),
        )
        await timed(
            "one player's record", repeat, lambda: service.records.player_stats(GUILD, user)
        )
        await timed("history, first page", repeat, lambda: service.records.history(GUILD))
        await timed("history, page 1000", repeat, lambda: service.records.history(GUILD, 1000))
        await timed("an archived game", repeat, lambda: service.records.archived_game(GUILD, 5000))
        await time_ratings(service, repeat)
        names = {u: f"Player {u}" for u in view.users}
        await timed(
            "leaderboard picture (drawn, not cached)",
            max(3, repeat // 10),
            lambda: _fresh_leaderboard(service, view, names),
        )
    finally:
        await store.close()


async def time_ratings(service: GameService, repeat: int) -> None:
    """Time the ratings: a rebuild from the store, from games in memory, an update with
    nothing new, and a finishing game's changes."""
    store = service.store
    games = (await store.rating_games(GUILD)).games
    rated = sum(1 for g in games if rated_seats(g))
    book = rebuild(games)
    print(
        f"ratings: {len(games)} games in order, {rated} of them rated, "
        f"{len(book.players)} rated players"
    )
    few = max(3, repeat // 10)
    await timed("ratings rebuilt from the store", few, lambda: RatingsKeeper(store).server(GUILD))
    await timed("ratings rebuilt from games read", few, lambda: _rebuilt(games))
    await timed("ratings, nothing new since", repeat, lambda: service.ratings.server(GUILD))
    finishing = random_result(random.Random(99))
    await timed(
        "a finishing game's rating changes",
        repeat,
        lambda: service.ratings.changes(GUILD, finishing),
    )


async def _rebuilt(games: Any) -> Any:
    return rebuild(games)


async def _fresh_leaderboard(service: GameService, view: Any, names: dict[int, str]) -> bytes:
    service.records.renderer_pool = RendererPool(kind="inline")  # no cache: draw it each time
    return await service.records.leaderboard_image(view, names)


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--db", type=Path, default=None, help="keep the filled database here")
    args = parser.parse_args()
    if args.db is not None:
        asyncio.run(run(args.db, args.games, args.repeat))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(Path(folder) / "stats.sqlite3", args.games, args.repeat))


if __name__ == "__main__":
    main()
