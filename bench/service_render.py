"""Measure the service's renderer port: thread pool versus process pool (prints figures).

Renders 24 different map views (distinct cache keys) with 2 workers, all requested at
once, and times a lone render too (latency) plus how long the event loop is blocked.
Run: python bench/service_render.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time

from benchargs import numbers

from bot.rules import GameOptions, new_game
from bot.service.images import RendererPool


def states(n: int) -> list[dict]:
    """n mid-game states of one seeded random 4-player game."""
    rng = random.Random(3)
    game = new_game(GameOptions(players=4, seed=11))
    out = []
    while len(out) < n and not game.is_over:
        d = rng.choice(game.decisions())
        game.apply(rng.choice(d.options).notation, d.player)
        if game.state.decisions % 5 == 0:
            out.append(game.state.to_json())
    return out


async def lag_probe(stop: asyncio.Event, lags: list[float]) -> None:
    """How late a 5 ms sleep wakes up: the event loop's responsiveness while rendering."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append(time.perf_counter() - t - 0.005)


async def run(kind: str, jsons: list[dict]) -> None:
    pool = RendererPool(kind=kind, workers=2, cache_size=0)
    await pool.render(("warm", 0), jsons[0], "map", None)  # start workers, load fonts
    t = time.perf_counter()
    await pool.render(("one", 0), jsons[1], "map", None)
    single = time.perf_counter() - t
    stop = asyncio.Event()
    lags: list[float] = []
    probe = asyncio.create_task(lag_probe(stop, lags))
    t = time.perf_counter()
    await asyncio.gather(*(pool.render(("b", i), j, "map", None) for i, j in enumerate(jsons)))
    burst = time.perf_counter() - t
    stop.set()
    await probe
    pool.close()
    print(
        f"{kind:8s} single {single * 1000:6.1f} ms | {len(jsons)} at once {burst * 1000:7.1f} ms "
        f"({len(jsons) / burst:5.1f}/s) | loop lag median {statistics.median(lags) * 1000:5.1f} ms"
        f" max {max(lags) * 1000:6.1f} ms"
    )


def main() -> None:
    jsons = states(25)
    for kind in ("inline", "thread", "process"):
        asyncio.run(run(kind, jsons[:24]))


if __name__ == "__main__":
    numbers(__doc__)  # no arguments: --help tells what it measures
    main()
