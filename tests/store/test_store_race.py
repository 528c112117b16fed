"""Optimistic concurrency: of two appends at one version exactly one lands."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from store_helpers import Backend, FakeClock, new_game

from bot.store import StaleVersionError

WORKER = Path(__file__).with_name("store_worker.py")
TRIALS = 1000


async def test_two_instances_racing_one_wins_every_time(backend: Backend, clock: FakeClock) -> None:
    a, b = await backend.open(clock), await backend.open(clock)
    try:
        game = await new_game(a)
        winners = []
        for v in range(TRIALS):
            results = await asyncio.gather(
                *(
                    s.append(
                        game.id,
                        v,
                        [{"kind": "decision", "by": tag, "trial": v}],
                        snapshot={"by": tag},
                        outbox=[{"by": tag}],
                    )
                    for s, tag in ((a, "a"), (b, "b"))
                ),
                return_exceptions=True,
            )
            landed = [tag for tag, r in zip("ab", results, strict=True) if r == v + 1]
            lost = [r for r in results if isinstance(r, StaleVersionError)]
            assert len(landed) == 1 and len(lost) == 1, f"trial {v}: {results!r}"
            winners.append(landed[0])

        # The loser wrote nothing: every record, snapshot and announcement is the winner's.
        log = await a.read_log(game.id)
        assert [(e.seq, e.record["trial"], e.record["by"]) for e in log] == [
            (v + 1, v, w) for v, w in enumerate(winners)
        ]
        for v, w in enumerate(winners, start=1):
            snap = await a.latest_snapshot(game.id, at_or_before=v)
            assert (snap.version, snap.state) == (v, {"by": w})
        pending = await a.pending_outbox(game.id)
        assert [(i.version, i.payload["by"]) for i in pending] == list(enumerate(winners, start=1))
    finally:
        await a.close()
        await b.close()


async def test_two_processes_racing_one_wins_every_time(backend: Backend, clock: FakeClock) -> None:
    store = await backend.open(clock)
    game = await new_game(store)
    await store.close()
    target = 300
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), "race", backend.spec, str(game.id), str(target), tag],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for tag in ("p", "q")
    ]
    try:
        for w in workers:
            assert w.stdout.readline() == "ready\n"
        for w in workers:
            w.stdin.write("go\n")
            w.stdin.flush()
        reports = {}
        for tag, w in zip("pq", workers, strict=True):
            out, _ = w.communicate(timeout=120)
            assert w.returncode == 0
            reports[tag] = json.loads(out)
    finally:
        for w in workers:
            w.kill()
            w.wait()

    store = await backend.open(clock)
    try:
        log = await store.read_log(game.id)
    finally:
        await store.close()
    # Every acknowledged append is in the log exactly once, and nothing else is.
    assert [e.seq for e in log] == list(range(1, target + 1))
    assert sorted(reports["p"]["won"] + reports["q"]["won"]) == list(range(1, target + 1))
    for e in log:
        assert e.seq in reports[e.record["by"]]["won"]
        assert e.record["v"] == e.seq - 1
    # The processes really did collide (otherwise this test would prove nothing).
    assert reports["p"]["stale"] + reports["q"]["stale"] > 0, reports
