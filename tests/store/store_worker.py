"""A child process for the store tests: races appends or streams them until killed.

Usage: store_worker.py race SPEC GAME_ID TARGET TAG | store_worker.py stream SPEC GAME_ID
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys

from bot.store import StaleVersionError, open_store


def stream_record(seq: int) -> dict[str, object]:
    """The record a streaming worker writes at `seq` (the parent checks each one)."""
    return {"kind": "decision", "seq": seq, "pad": "x" * (seq % 97)}


async def race(spec: str, game_id: int, target: int, tag: str) -> None:
    """Append until the log holds `target` records; report our wins and stale errors."""
    store = await open_store(spec, clock=itertools.count(1).__next__)
    won, stale = [], 0
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    sys.stdin.readline()  # the parent says go to both workers at once
    while (version := await store.version(game_id)) < target:
        try:
            await store.append(game_id, version, [{"kind": "system", "by": tag, "v": version}])
            won.append(version + 1)
        except StaleVersionError:
            stale += 1
    await store.close()
    print(json.dumps({"won": won, "stale": stale}), flush=True)


async def stream(spec: str, game_id: int) -> None:
    """Append forever, 1-3 records at a time with snapshot and outbox; print each ack."""
    store = await open_store(spec, clock=itertools.count(1).__next__)
    version = await store.version(game_id)
    for n in itertools.count():
        records = [stream_record(version + i) for i in range(1, n % 3 + 2)]
        new = version + len(records)
        version = await store.append(
            game_id,
            version,
            records,
            snapshot={"version": new} if n % 4 == 0 else None,
            outbox=[{"version": new}],
        )
        sys.stdout.write(f"{version}\n")
        sys.stdout.flush()


def main(argv: list[str]) -> None:
    """Dispatch on the mode argument."""
    if argv[0] == "race":
        asyncio.run(race(argv[1], int(argv[2]), int(argv[3]), argv[4]))
    else:
        asyncio.run(stream(argv[1], int(argv[2])))


if __name__ == "__main__":
    main(sys.argv[1:])
