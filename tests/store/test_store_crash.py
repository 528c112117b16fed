"""A writer killed with SIGKILL mid-stream loses no acknowledged append."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import Backend, FakeClock, new_game
from store_worker import stream_record

WORKER = Path(__file__).with_name("store_worker.py")
ROUNDS = 4


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
async def test_sigkill_mid_stream_keeps_every_acknowledged_append(
    backend: Backend, clock: FakeClock
) -> None:
    store = await backend.open(clock)
    game = await new_game(store)
    await store.close()
    chance = random.SystemRandom()
    acknowledged = 0
    for round_ in range(ROUNDS):
        kill_after = chance.randint(1, 150)
        why = f"round {round_}, killed after {kill_after} acknowledgements"
        child = subprocess.Popen(
            [sys.executable, str(WORKER), "stream", backend.spec, str(game.id)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            for _ in range(kill_after):
                line = child.stdout.readline()
                assert line, f"{why}: the worker died on its own"
                acknowledged = int(line)
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
            child.stdout.close()
        assert child.returncode == -signal.SIGKILL

        assert backend.integrity() == "ok", why
        store = await backend.open(clock)
        try:
            version = await store.version(game.id)
            log = await store.read_log(game.id)
            snapshot = await store.latest_snapshot(game.id)
            outbox = await store.pending_outbox(game.id)
        finally:
            await store.close()
        # The append in flight at the kill may or may not have landed, but nothing older
        # is missing and nothing is half-written.
        assert version >= acknowledged, why
        assert [e.record for e in log] == [stream_record(s) for s in range(1, version + 1)], why
        assert snapshot is None or (
            snapshot.version <= version and snapshot.state["version"] == snapshot.version
        ), why
        assert outbox and outbox[-1].version == version, why
        assert all(item.payload["version"] == item.version for item in outbox), why
