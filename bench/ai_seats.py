"""AI seats under load: the real `python -m bot` process against the fake Discord (prints figures).

1. Setup: GAMES (4) games whose every seat is the AI (`--level`, strong by default), each in
   its own channel, started in a fresh database; and one game of a person (alice) against
   one AI in another channel. The bot, started on that database, finds the AI-only games'
   pending steps (as after a restart) and plays them without pause: its worker processes
   think all the time.
2. While they think: a spectator asks `/barrage help` in a channel of its own every
   `--probe-s` (0.2 s); the figure is the longest time from sending it to its reply (the
   longest gap in answering another channel; target <= 0.5 s), with its p50 and p99.
   Meanwhile alice plays her turns by `/barrage do` (one of her options, read from the
   database), and the time from her Confirm's reply to the turn message telling the AI's
   turn is measured (target: within 10 s when a core is free).
3. Memory: the bot process's resident memory and each AI worker's (VmRSS and peak VmHWM
   from /proc; target <= 150 MB a worker), reported apart.

Run: python bench/ai_seats.py [--seconds 60] [--games 4] [--level strong] [--workers 1]
     [--probe-s 0.2] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the fake Discord lives with the tests
sys.path.insert(0, str(ROOT))

from fakediscord import Channel, FakeDiscord, Message, run_bot_process  # noqa: E402

from bot.service import Actor, GameService, RendererPool, ServiceConfig  # noqa: E402
from bot.store import open_store, system_clock  # noqa: E402

#: The bench's own services never think for an AI (the bot does).
MANUAL = ServiceConfig(extra={"ai_manual": True})


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) in ms."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB (nan when it is gone)."""
    found = {"VmRSS:": math.nan, "VmHWM:": math.nan}
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key = line.split(maxsplit=1)[0] if line.strip() else ""
            if key in found:
                found[key] = int(line.split()[1]) / 1024
    return found["VmRSS:"], found["VmHWM:"]


def children(pid: int) -> list[int]:
    """The AI workers of the bot: its children started by spawn (not multiprocessing's
    resource tracker)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ")
            if int(fields[1]) == pid and b"spawn_main" in command:
                out.append(int(stat.parent.name))
    return out


async def setup(
    db: str, fake: FakeDiscord, games: int, level: str, seed: int
) -> tuple[list[Channel], Channel]:
    """The AI-only games and alice's game against one AI; their channels."""
    store = await open_store(db)
    service = GameService(
        store, clock=system_clock, renderer_pool=RendererPool(kind="inline"), config=MANUAL
    )
    rng = random.Random(seed)
    ai_channels = [fake.add_channel(f"ai-{i}") for i in range(games)]
    mine = fake.add_channel("alice-vs-ai")
    try:
        for channel in ai_channels:
            act = Actor(fake.alice.id, fake.guild.id, channel.id, True)
            await service.lobby.create_game(
                act, players=4, ai=4, ai_level=level, computers_only=True, seed=rng.randrange(2**31)
            )
            await service.lobby.start(act)
        act = Actor(fake.alice.id, fake.guild.id, mine.id, True)
        await service.lobby.create_game(act, players=2, ai=1, ai_level=level, seed=2)
        await service.lobby.start(act)
    finally:
        await store.close()
    return ai_channels, mine


async def probe(
    fake: FakeDiscord, channel: Channel, every_s: float, stop: asyncio.Event
) -> list[float]:
    """`/barrage help` in another channel every `every_s`: the reply times (s)."""
    times = []
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        invocation = await fake.dave.slash("barrage help", in_channel=channel)
        await invocation.reply(timeout=60)
        times.append(loop.time() - start)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)
    return times


async def alice_plays(
    fake: FakeDiscord, db: str, channel: Channel, stop: asyncio.Event
) -> list[float]:
    """Alice's turns by `/barrage do`; the times from her Confirm to the AI's turn told."""
    store = await open_store(db)
    reader = GameService(
        store, clock=system_clock, renderer_pool=RendererPool(kind="inline"), config=MANUAL
    )
    act = Actor(fake.alice.id, fake.guild.id, channel.id)
    rng = random.Random(5)
    loop = asyncio.get_running_loop()
    waits: list[float] = []
    try:
        while not stop.is_set():
            panel = await reader.views.panel(act)
            if not panel.options:
                await asyncio.sleep(0.1)
                continue
            notation = "confirm" if panel.can_confirm else rng.choice(panel.options).notation
            told_before = len(told(fake, channel))
            invocation = await fake.alice.slash("barrage do", in_channel=channel, moves=notation)
            await invocation.reply(timeout=60)
            if notation != "confirm":
                continue
            confirmed = loop.time()
            while not stop.is_set() and len(told(fake, channel)) == told_before:
                await asyncio.sleep(0.05)
            if not stop.is_set():
                waits.append(loop.time() - confirmed)
    finally:
        await store.close()
    return waits


def told(fake: FakeDiscord, channel: Channel) -> list[Message]:
    """The channel's turn messages telling an AI's turn."""
    return [
        m for m in fake.channel_messages(channel) if "(AI " in m.content and "played:" in m.content
    ]


async def run(args: argparse.Namespace, tmp: Path) -> int:
    db = str(tmp / "games.sqlite3")
    async with FakeDiscord(ack_deadline=30.0) as fake:
        fake.fail_fast = False
        ai_channels, mine = await setup(db, fake, args.games, args.level, args.seed)
        probe_channel = fake.add_channel("probe")
        config = tmp / "config.toml"
        config.write_text(
            f"[discord]\ntest_guild_id = {fake.guild.id}\n"
            f"[database]\npath = '{db}'\n"
            "[backup]\ninterval_hours = 0\n"
            '[logging]\nlevel = "WARNING"\n'
            f"[ai]\nworkers = {args.workers}\n"
        )
        env = {"BARRAGE_BOT_TOKEN": fake.token, "PYTHONPATH": str(ROOT)}
        argv = ["-m", "bot", "--config", str(config)]
        async with run_bot_process(fake, argv, extra_env=env, cwd=tmp, timeout=120) as bot:
            pid = bot.process.pid
            await fake.wait_for(
                lambda: fake.guild_commands.get(fake.guild.id), timeout=180, what="commands"
            )
            await fake.wait_for(
                lambda: any(told(fake, c) for c in ai_channels), timeout=180, what="an AI turn"
            )
            print(f"bot pid {pid}: RSS {memory_mb(pid)[0]:.0f} MB once the AIs think")
            stop = asyncio.Event()
            started = time.perf_counter()
            probing = asyncio.create_task(probe(fake, probe_channel, args.probe_s, stop))
            playing = asyncio.create_task(alice_plays(fake, db, mine, stop))
            steps_before = sum(len(told(fake, c)) for c in ai_channels)
            peak: dict[int, float] = {}
            bot_peak = 0.0
            while time.perf_counter() - started < args.seconds:
                await asyncio.sleep(1)
                bot_peak = max(bot_peak, memory_mb(pid)[0])
                for worker in children(pid):
                    peak[worker] = max(peak.get(worker, 0.0), memory_mb(worker)[0])
            stop.set()
            gaps, waits = await probing, await playing
            steps = sum(len(told(fake, c)) for c in ai_channels) - steps_before
            elapsed = time.perf_counter() - started
            print(f"AI steps told in the AI-only games: {steps} in {elapsed:.0f} s")
            print(
                f"another channel answered while the AIs think: n={len(gaps)} p50 "
                f"{pct(gaps, 0.5):.0f} ms, p99 {pct(gaps, 0.99):.0f} ms, longest gap "
                f"{max(gaps, default=0) * 1000:.0f} ms (target <= 500 ms)"
            )
            print(
                f"alice's Confirm to the AI's turn told: n={len(waits)} p50 {pct(waits, 0.5):.0f} "
                f"ms, max {max(waits, default=0) * 1000:.0f} ms (target <= 10000 ms; the "
                f"workers are shared with {args.games} AI-only games)"
            )
            print(f"bot process: RSS peak {bot_peak:.0f} MB, VmHWM {memory_mb(pid)[1]:.0f} MB")
            for worker, rss in sorted(peak.items()):
                print(
                    f"AI worker {worker}: RSS peak {rss:.0f} MB, VmHWM "
                    f"{memory_mb(worker)[1]:.0f} MB (target <= 150 MB)"
                )
            problems = [*fake.failures, *fake.mention_problems]
            print(f"problems the fake saw: {len(problems)}")
            for problem in problems[:5]:
                print(f"  {problem[:3000]}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--level", default="strong", choices=("casual", "strong"))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--probe-s", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="barrage-ai-bench-") as tmp:
        return asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
