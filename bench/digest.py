"""What "what changed since your turn" costs: CPU time of telling one commit's runs (paid at
every commit), of a panel opening's digest (from memory, and replayed from the saved state
after a restart), and of the private map that rings the spaces changed since.

Plays seeded 4-player intro games through the service, and at every turn's start of a
person measures, in thread CPU time (the machine may be shared):

- remember: `runs_of` over the commit's steps (what every commit adds);
- warm: `CatchUp.digest` with the runs in memory;
- cold: the same with nothing in memory (a restart: replayed from the saved state);
- opening: the panel's digest with the changed spaces (the state after the player's turn);
- picture: the map drawn for that player, ringing the changed spaces (the real renderer).

Run: .venv/bin/python bench/digest.py [games=2] [steps=160]
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from benchargs import numbers

from bot.service import GameService, RendererPool
from bot.service.catchup import CatchUp
from bot.service.digest import runs_of
from bot.service.loading import load
from bot.service.records import CommitRecord, DecisionRecord
from bot.service.turns import apply_answer
from bot.store import SqliteStore
from tests.service.helpers import USERS, FakeClock, actor, started_game


def cpu_ms(start: float) -> float:
    """Thread CPU milliseconds since `start`."""
    return (time.thread_time() - start) * 1000


async def one_game(db: Path, seed: int, steps: int, figures: dict[str, list[float]]) -> None:
    """Play a game, measuring at each person's turn start."""
    clock = FakeClock()
    store = await SqliteStore.open(db, clock=clock)
    service = GameService(store, clock=clock, renderer_pool=RendererPool(kind="inline"))
    try:
        game_id = await started_game(service, 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            loaded = await service.desk.game_for_reminder(game_id)
            assert loaded is not None and loaded.game is not None
            if loaded.game.is_over:
                break
            user = service.desk.users_deciding(loaded)[0]
            panel = await service.views.panel(actor(user))
            if panel.kind == "turn" and not panel.done:
                await measure(service, game_id, user, figures)
            await service.moves.play(actor(user), [rng.choice(panel.options).notation])
    finally:
        service.renderer_pool.close()
        await store.close()


async def measure(
    service: GameService, game_id: int, user: int, figures: dict[str, list[float]]
) -> None:
    """The costs at one person's turn start."""
    meta = await service.store.get_game(game_id)
    loaded = await load(service.store, meta)
    # remember: the last commit's steps told again as the commit told them.
    commits = [s for s, r in loaded.chain if isinstance(r, CommitRecord)]
    if len(commits) >= 2:
        before, last = commits[-2], commits[-1]
        snap = await service.store.latest_snapshot(game_id, at_or_before=before)
        if snap is not None and snap.version == before:
            from bot.rules import load_state, open_game

            game = open_game(load_state(snap.state))
            steps = [
                apply_answer(game, r.notation, r.player, record=r)
                for s, r in loaded.chain
                if before < s <= last and isinstance(r, DecisionRecord)
            ]
            start = time.thread_time()
            runs_of(steps, loaded.user_of_player, game.state.round)
            figures["remember"].append(cpu_ms(start))
    start = time.thread_time()
    await service.catchup.digest(loaded, user)
    figures["warm"].append(cpu_ms(start))
    start = time.thread_time()
    await CatchUp(service.store).digest(loaded, user)
    figures["cold"].append(cpu_ms(start))
    start = time.thread_time()
    panel = await service.views.panel(actor(user), opening=True)
    figures["opening"].append(cpu_ms(start))
    if panel.since_changed and panel.since_turns >= 2:
        start = time.thread_time()
        await service.views.since_picture(actor(user), panel)
        figures["picture"].append(cpu_ms(start))


async def main(games: int, steps: int) -> int:
    """Play the games and print the figures."""
    figures: dict[str, list[float]] = {
        k: [] for k in ("remember", "warm", "cold", "opening", "picture")
    }
    with tempfile.TemporaryDirectory(prefix="digest-") as tmp:
        for index in range(games):
            await one_game(Path(tmp) / f"{index}.sqlite3", 300 + index, steps, figures)
    print(f"{'measure':<10}{'n':>6}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for name, values in figures.items():
        if not values:
            print(f"{name:<10}{0:>6}")
            continue
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
        print(
            f"{name:<10}{len(values):>6}{statistics.median(values):>10.2f}{p95:>10.2f}"
            f"{max(values):>10.2f}"
        )
    print(f"(thread CPU time; {len(USERS)} people a table; the machine may be shared)")
    return 0


if __name__ == "__main__":
    count, per_game = numbers(
        __doc__, ("games", 2, "games to play"), ("steps", 160, "answers per game at most")
    )
    sys.exit(asyncio.run(main(count, per_game)))
