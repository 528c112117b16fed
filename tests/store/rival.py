"""A rival bot process on a shared database, for the multi-process tests and bench.

Run as `python rival.py race URL`: a process that answers JSON commands, one a line, with
JSON results; each command waits at a barrier first (an advisory lock the driver holds), so
that both rivals start their operation at the same instant. Commands:
  {"op": "append", "game": G, "version": V, "tag": T}  -> {"won": true|false}
  {"op": "claim_outbox", "owner": NAME}                -> {"claimed": [[id, claim], ...]}
  {"op": "claim_reminders"}                            -> {"claimed": [[game, user, claim], ...]}
  {"op": "claim_deadlines", "kind": K}                 -> {"claimed": [[game, user, claim], ...]}
  {"op": "expire"}  (a bot's ClockRunner pass, acting)  -> {"claimed": N}
  {"op": "quit"}

Run as `python rival.py opener URL`: a process that opens (and so migrates) a store for each
command {"op": "open", "url": U}, at the barrier, closes it and answers {"applied": [versions
of the migrations it applied]} or {"error": "..."}.

Run as `python rival.py sender URL INSTANCE LEASE_MS RENEW_S POLL_S hang|post`: the real
OutboxSender with a port that either hangs in every post (a process that dies mid-delivery
is killed while hanging) or posts at once. It prints "posting ID" as a post begins and
"renewed" after each lease renewal; "listening" once subscribed to wake-ups.

The driver side is `Rivals` (race or opener processes, two by default) in this module.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bot.service.outbox import OutboxSender  # noqa: E402
from bot.service.types import Announcement, ReminderNotice  # noqa: E402
from bot.store import ClaimOwner, StaleVersionError, system_clock  # noqa: E402
from bot.store.postgres import PostgresStore  # noqa: E402

#: The advisory lock number of the start barrier.
BARRIER = 0x7269  # "ri"


# -- the rival process -------------------------------------------------------------------


async def _released(url: str) -> AsyncIterator[dict[str, Any]]:
    """The commands read from stdin until "quit", each once the barrier opens (the driver
    releases all rivals together); says it is ready first."""
    barrier = await asyncpg.connect(url)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin
    )
    print(json.dumps({"ready": True}), flush=True)
    try:
        while line := await reader.readline():
            command = json.loads(line)
            if command["op"] == "quit":
                return
            await barrier.execute("SELECT pg_advisory_lock_shared($1)", BARRIER)
            await barrier.execute("SELECT pg_advisory_unlock_shared($1)", BARRIER)
            yield command
    finally:
        await barrier.close()


async def race(url: str) -> None:
    """Answer commands until told to quit."""
    store = await PostgresStore.open(url, clock=system_clock)
    try:
        async for command in _released(url):
            print(json.dumps(await _run(store, command)), flush=True)
    finally:
        await store.close()


class _Applied(logging.Handler):
    """Notes the migrations this process applies (from the store's log)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.versions: list[int] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "database %s: applying migration %04d_%s":
            self.versions.append(int(record.args[1]))  # type: ignore[index]


async def opener(url: str) -> None:
    """Open a store on each URL given, released at the barrier; answer what it applied."""
    applied = _Applied()
    migrations = logging.getLogger("bot.store.postgres")
    migrations.setLevel(logging.INFO)
    migrations.addHandler(applied)
    async for command in _released(url):
        applied.versions.clear()
        try:
            store = await PostgresStore.open(command["url"], clock=system_clock)
        except Exception as exc:
            answer: dict[str, Any] = {"error": f"{type(exc).__name__}: {exc}"}
        else:
            await store.close()
            answer = {"applied": list(applied.versions)}
        print(json.dumps(answer), flush=True)


async def _run(store: PostgresStore, command: dict[str, Any]) -> dict[str, Any]:
    """Carry out one command."""
    op = command["op"]
    if op == "append":
        try:
            await store.append(
                command["game"], command["version"], [{"kind": "system", "by": command["tag"]}]
            )
        except StaleVersionError:
            return {"won": False}
        return {"won": True}
    if op == "claim_outbox":
        owner = ClaimOwner(command["owner"], "run-1")
        items = await store.claim_outbox(owner=owner, lease_ms=60_000)
        return {"claimed": [[i.id, i.claim] for i in items]}
    if op == "claim_reminders":
        reminders = await store.claim_reminders(lease_ms=60_000)
        return {"claimed": [[r.game_id, r.user_id, r.claim] for r in reminders]}
    if op == "expire":
        from bot.service import GameService
        from bot.service.timekeeping import ClockRunner

        service = GameService(store, clock=system_clock)
        return {"claimed": await ClockRunner(service, system_clock, instance="rival").run_once()}
    if op == "claim_deadlines":
        deadlines = await store.claim_deadlines(command["kind"], lease_ms=60_000)
        return {"claimed": [[d.game_id, d.user_id, d.claim] for d in deadlines]}
    raise ValueError(f"unknown command {op!r}")


class _Port:
    """An AnnouncementPort that hangs in every post, or posts at once."""

    def __init__(self, hang: bool) -> None:
        self.hang = hang
        self.ids = itertools.count(10_000)

    async def post(self, announcement: Announcement) -> int:
        print(f"posting {announcement.outbox_id}", flush=True)
        if self.hang:
            await asyncio.Event().wait()  # until the process is killed
        return next(self.ids)

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        return None

    async def remind(self, notice: ReminderNotice) -> None:
        return None


async def sender(
    url: str, instance: str, lease_ms: int, renew_s: float, poll_s: float, mode: str
) -> None:
    """Run the real OutboxSender until killed."""
    store = await PostgresStore.open(url, clock=system_clock)
    sending = OutboxSender(
        store,
        _Port(hang=mode == "hang"),
        system_clock,
        owner=ClaimOwner(instance, f"run-{id(store)}"),
        lease_ms=lease_ms,
        renew_every_s=renew_s,
    )
    renew = store.renew_outbox_claims

    async def renew_and_say(owner: ClaimOwner, *, lease_ms: int) -> int:
        count = await renew(owner, lease_ms=lease_ms)
        print(f"renewed {count}", flush=True)
        return count

    store.renew_outbox_claims = renew_and_say  # type: ignore[method-assign]
    subscribe = store.subscribe

    async def subscribe_and_say(topic: str, wake: Any) -> None:
        await subscribe(topic, wake)
        print("listening", flush=True)

    store.subscribe = subscribe_and_say  # type: ignore[method-assign]
    await sending.run(asyncio.Event(), interval_s=poll_s)


def main(argv: list[str]) -> None:
    """Dispatch on the mode argument."""
    if argv[0] == "race":
        asyncio.run(race(argv[1]))
    elif argv[0] == "opener":
        asyncio.run(opener(argv[1]))
    else:
        url, instance, lease_ms, renew_s, poll_s, mode = argv[1:7]
        asyncio.run(sender(url, instance, int(lease_ms), float(renew_s), float(poll_s), mode))


# -- the driver ---------------------------------------------------------------------------


@dataclass
class Rival:
    """One rival process, as the driver sees it."""

    process: asyncio.subprocess.Process

    async def send(self, command: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(command) + "\n").encode())
        await self.process.stdin.drain()

    async def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), 60)
        if not line:
            raise RuntimeError(f"rival process {self.process.pid} stopped")
        result: dict[str, Any] = json.loads(line)
        return result


class Rivals:
    """Rival processes (`mode`: race or opener) on one database, released together at a
    barrier for each race."""

    def __init__(self, url: str, *, count: int = 2, mode: str = "race") -> None:
        self.url = url
        self.count = count
        self.mode = mode
        self.rivals: list[Rival] = []
        self._gate: asyncpg.Connection | None = None

    async def __aenter__(self) -> Rivals:
        """Start the processes and wait until they are ready."""
        self._gate = await asyncpg.connect(self.url)
        for _ in range(self.count):
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(Path(__file__)),
                self.mode,
                self.url,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            self.rivals.append(Rival(process))
        for rival in self.rivals:
            assert (await rival.answer()) == {"ready": True}
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Tell each to quit, then make sure they are gone."""
        for rival in self.rivals:
            if rival.process.returncode is None:
                try:
                    await rival.send({"op": "quit"})
                    await asyncio.wait_for(rival.process.wait(), 10)
                except (OSError, TimeoutError):
                    rival.process.kill()
                    await rival.process.wait()
        if self._gate is not None:
            await self._gate.close()

    async def race(self, *commands: dict[str, Any]) -> list[dict[str, Any]]:
        """Give each rival its command and release them together; return their answers."""
        assert self._gate is not None
        await self._gate.execute("SELECT pg_advisory_lock($1)", BARRIER)
        try:
            for rival, command in zip(self.rivals, commands, strict=True):
                await rival.send(command)
            # All must be waiting at the barrier before it opens.
            while await self._gate.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                " AND objid = $1 AND NOT granted",
                BARRIER,
            ) < len(self.rivals):
                await asyncio.sleep(0.001)
        finally:
            await self._gate.execute("SELECT pg_advisory_unlock($1)", BARRIER)
        return [await rival.answer() for rival in self.rivals]


if __name__ == "__main__":
    main(sys.argv[1:])
