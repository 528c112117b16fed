"""Fuzz the real bot process through the fake Discord (prints figures).

The bot runs as `python -m bot` (its own process, real renderer, SQLite file); the fake
Discord, the fuzzer and its oracle run in this process, reading the bot's database without
writing to it. Each input is judged before it is sent: a legal action must change exactly its
game by one step, anything else nothing, answered with a specific refusal; the bot must log
no ERROR and print no traceback. `--console` of the inputs (500) are lines typed into the
real `python -m bot console` process instead, judged the same way. The same fuzzer runs 2,000 inputs in the test suite
(tests/e2e/test_fuzz.py) against an in-process bot.

Run: python bench/fuzz.py [--inputs 10000] [--console 500] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the fake Discord and the fuzzer live with the tests
sys.path.insert(0, str(ROOT))

from fakediscord import FakeDiscord, run_bot_process  # noqa: E402
from fuzzkit import ConsoleFuzzer, Fuzzer, build_world  # noqa: E402

from bot.store import SqliteStore  # noqa: E402

ERROR_MARKS = (" ERROR ", " CRITICAL ", "Traceback")


class ProcessErrors:
    """New ERROR lines and tracebacks in the bot's output, and the fake's own findings."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.output: list[str] = []
        self.seen = 0

    def __call__(self) -> list[str]:
        lines = self.output[self.seen :]
        self.seen = len(self.output)
        found = [line for line in lines if any(mark in line for mark in ERROR_MARKS)]
        return found + self.fake.take_failures()


async def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="barrage-fuzz-") as tmp:
        db = Path(tmp) / "games.sqlite3"
        config = Path(tmp) / "config.toml"
        config.write_text(
            f'[database]\npath = "{db}"\n'
            "[backup]\ninterval_hours = 0\n"
            '[logging]\nlevel = "WARNING"\n'
        )
        async with FakeDiscord() as fake:
            world = build_world(fake)
            env = {"BARRAGE_BOT_TOKEN": fake.token, "PYTHONPATH": str(ROOT)}
            argv = ["-m", "bot", "--config", str(config)]
            async with run_bot_process(fake, argv, extra_env=env, cwd=ROOT) as bot:
                await fake.wait_for(lambda: fake.global_commands, timeout=30, what="commands")
                errors = ProcessErrors(fake)
                errors.output = bot.output
                errors.seen = len(bot.output)
                reader = await SqliteStore.open(db)
                fuzzer = Fuzzer(world, reader, seed=args.seed, errors=errors, reply_timeout=30)
                started = time.perf_counter()
                try:
                    for done in range(1, args.inputs - args.console + 1):
                        await fuzzer.step()
                        if done % 1000 == 0:
                            rate = done / (time.perf_counter() - started)
                            print(f"  {done} inputs, {rate:.0f}/s", flush=True)
                finally:
                    await reader.close()
                elapsed = time.perf_counter() - started
            fake.take_failures()  # the bot's own shutdown is not an input
        report = fuzzer.report
        console = ConsoleFuzzer(Path(tmp) / "console.sqlite3", seed=args.seed, report=report)
        t = time.perf_counter()
        await console.run(args.console)
        print(f"  {args.console} console lines in {time.perf_counter() - t:.0f} s", flush=True)
        elapsed += time.perf_counter() - t
        print(f"bench/fuzz.py: seed {args.seed}, {elapsed:.0f} s ({report.inputs / elapsed:.1f}/s)")
        print(report.summary())
        ok = not report.violations and report.cross_server_reads == 0
        ok = ok and report.mutated * 2 >= report.inputs
        print("outcome:", "PASS" if ok else "FAIL")
        return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--console", type=int, default=500, help="of which, console lines")
    parser.add_argument("--seed", type=int, default=1)
    sys.exit(asyncio.run(main(parser.parse_args())))
