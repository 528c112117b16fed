"""Fuzzing through Discord: seeded inputs, half of them with one field mutated, each judged."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from fakediscord import FakeDiscord, run_bot
from fuzzkit import ConsoleFuzzer, Fuzzer, build_world

from bot.commands.client import BarrageBot
from bot.commands.records import DiscordNames
from bot.service import GameService, RendererPool, ServiceConfig
from bot.store import SqliteStore
from tests.commands.kit import FakeClock

SEED = 12
INPUTS = int(__import__("os").environ.get("FUZZ_INPUTS", "2000"))
#: Of those, lines typed into the console (slower: a real process that draws its pictures).
CONSOLE_LINES = INPUTS * 3 // 40


def fake_png(state: object, view: str, company: str | None, theme: str) -> bytes:
    """Pictures are not what this test is about: a stand-in keeps it fast."""
    return b"\x89PNG\r\n\x1a\n" + f"{view} {company}".encode()


@contextlib.asynccontextmanager
async def fuzz_bot(fake: FakeDiscord, db: Path) -> AsyncIterator[BarrageBot]:
    clock = FakeClock()
    store = await SqliteStore.open(db, clock=clock)
    names = DiscordNames()
    service = GameService(
        store,
        clock=clock,
        renderer_pool=RendererPool(kind="inline", render_fn=fake_png),
        config=ServiceConfig(reminder_hours=24),
        people_namer=names,
    )
    bot = BarrageBot(
        service,
        clock=clock,
        names=names,
        guild_ready_timeout=0.05,
        sync_policy="always",
        outbox_interval_s=0.2,
        reminder_interval_s=3600,
    )
    try:
        async with run_bot(fake, bot):
            yield bot
    finally:
        await store.close()


async def fuzz(fake: FakeDiscord, tmp_path: Path, count: int, seed: int = SEED) -> Fuzzer:
    world = build_world(fake)
    db = tmp_path / "fuzz.sqlite3"
    async with fuzz_bot(fake, db):
        reader = await SqliteStore.open(db)
        try:
            fuzzer = Fuzzer(world, reader, seed=seed, errors=fake.take_failures)
            await fuzzer.run(count)
        finally:
            await reader.close()
    return fuzzer


async def test_fuzzed_inputs_act_exactly_once_or_are_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """2,000 inputs: legal ones change their game by one step, the rest nothing."""
    fuzzer = await fuzz(fake_discord, tmp_path, INPUTS - CONSOLE_LINES)
    report = fuzzer.report
    console = ConsoleFuzzer(tmp_path / "console.sqlite3", seed=SEED, report=report)
    await console.run(CONSOLE_LINES)
    print(report.summary())
    assert report.inputs == INPUTS
    assert report.mutated >= INPUTS // 2
    assert not report.violations, report.summary()
    assert report.cross_server_reads == 0
    assert report.changed_anyway == 0 and report.mutated_must_not_change > INPUTS // 4
    # The run went places: games were started and played, imports tried both ways.
    assert report.verdicts["act"] > INPUTS // 8 and report.verdicts["refuse"] > INPUTS // 5
    assert report.games_played >= 3 and report.imports_refused > 0
    assert report.labels["console line"] and report.labels["console line (mutated)"]
