"""Fuzzing the terminal console: lines typed into the real `python -m bot console` process.

The console plays a hot-seat game in a SQLite file; the oracle reads that file. After each
line the console prints what happened and prompts again ("> "), so a line is done when the
prompt is back. A legal line (option numbers or notations the deciding player may play,
restart, undo) changes the game by one step; a look (help, options, score, log, board)
changes nothing; anything else changes nothing and prints "refused:" with a reason, never a
Python error's own words (a refusal either says "refused:" or explains what would work).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import sys
from pathlib import Path

from bot.service import VIEWS
from bot.store import SqliteStore

from .fuzzer import Report
from .oracle import Oracle, Verdict

CHANNEL = 1
PROMPT = b"> "
MAX_LOG_LINES = 1000
#: What a refusal must not be: an exception's own text instead of a reason.
PYTHON_WORDS = re.compile(
    r"Traceback|list index out of range|invalid literal|object has no attribute|"
    r"KeyError|TypeError|unsupported operand|not subscriptable"
)


class ConsoleFuzzer:
    """Drives one console process at a time (a new one after each finished game)."""

    def __init__(self, db: Path, *, seed: int, report: Report, players: int = 2) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.seed = seed
        self.report = report
        self.players = players
        self.users = list(range(1, players + 1))
        self.process: asyncio.subprocess.Process | None = None
        self.store: SqliteStore | None = None
        self.oracle: Oracle | None = None
        self.games = 0

    async def start(self) -> str:
        root = Path(__file__).resolve().parents[2]
        self.games += 1
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "console",
            "--players",
            str(self.players),
            "--seed",
            str(self.seed + self.games),
            "--db",
            str(self.db),
            "--out",
            str(self.db.parent / "pictures"),
            cwd=self.db.parent,  # `board` writes its picture where it is told, never in the checkout
            env={**os.environ, "PYTHONPATH": str(root)},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        text = await self.read()
        if self.store is None:
            self.store = await SqliteStore.open(self.db)
            self.oracle = Oracle(self.store, self.users)
        return text

    async def read(self, timeout: float = 120.0) -> str:
        """Output up to the next prompt ("Player 2> ", at the end of the output)."""
        assert self.process is not None and self.process.stdout is not None
        buffer = b""
        while not buffer.endswith(PROMPT):
            chunk = await asyncio.wait_for(self.process.stdout.read(4096), timeout)
            if not chunk:
                break
            buffer += chunk
        return buffer.decode(errors="replace")

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def run(self, count: int) -> None:
        await self.start()
        try:
            for _ in range(count):
                await self.step()
        finally:
            await self.stop()

    # -- one line -------------------------------------------------------------------------

    async def step(self) -> None:
        assert self.oracle is not None and self.process is not None
        if self.process.returncode is not None or self.process.stdout.at_eof():  # type: ignore[union-attr]
            await self.process.wait()
            await self.start()
        line, mutated = await self.make()
        verdict = await self.judge(line)
        before = await self.oracle.state()
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        output = await self.read()
        after = await self.oracle.state()
        problems = await self.oracle.violations(verdict, before, after, CHANNEL)
        problems += self.check(verdict, output)
        report = self.report
        report.inputs += 1
        report.mutated += mutated is not None
        report.labels["console line" + (" (mutated)" if mutated else "")] += 1
        report.verdicts[verdict.kind] += 1
        report.count_change(verdict.kind, mutated is not None, before, after)
        for problem in problems:
            report.violations.append(f"console {line!r} [{verdict.kind}: {verdict.why}]: {problem}")

    def check(self, verdict: Verdict, output: str) -> list[str]:
        if PYTHON_WORDS.search(output):
            return [f"a Python error shows: {output[-300:]!r}"]
        said = output.rsplit("\n", 1)[0].strip() if "\n" in output else ""
        if verdict.kind == "refuse" and not said:
            return ["refused without a word"]
        if verdict.kind != "refuse" and "refused:" in output:
            return [f"expected it to be done, got {output[-300:]!r}"]
        return []

    async def deciding(self):  # type: ignore[no-untyped-def]
        """(user, options' notations, loaded game) of the player the console asks."""
        assert self.oracle is not None
        _, loaded = await self.oracle.channel_game(CHANNEL)
        if loaded is None or loaded.game is None:
            return None, [], loaded
        for user in self.users:
            company = loaded.company_of_user(user)
            decision = loaded.game.decision(company) if company else None
            if decision is not None:
                return user, decision.notations, loaded
        return None, [], loaded

    async def make(self) -> tuple[str, str | None]:
        """A valid line for the position, then perhaps one field mutated."""
        _, notations, _ = await self.deciding()
        count = len(notations)
        roll = self.rng.random()
        mutate = self.rng.random() < 0.6
        if roll < 0.45 and count:
            number = self.rng.randrange(1, count + 1)
            if mutate:
                return str(self.rng.choice((0, count + 1, 99, 10**20))), "option number"
            return str(number), None
        if roll < 0.75 and count:
            notation = self.rng.choice(notations)
            if mutate:
                changed = self.rng.choice((notation[:-1] or "x", notation + " zz", "zz9", "-1"))
                return changed, "notation token"
            return notation, None
        if roll < 0.8:
            return "restart", None
        if roll < 0.83:
            return "undo", None
        look = self.rng.choice(("help", "options", "score", "log", "log 5", "board map"))
        if mutate:
            bad = ("log x", "log 0", "log ²", "²", "board moon", "board map nobody", "jump", "1; 2")
            return self.rng.choice(bad), "command argument"
        return look, None

    async def judge(self, line: str) -> Verdict:
        assert self.oracle is not None
        words = line.split()
        command = words[0].lower() if words else ""
        user, notations, loaded = await self.deciding()
        if command in ("help", "options", "score"):
            return Verdict("read", command)
        if command == "log":
            rest = words[1:]
            ok = not rest or (
                len(rest) == 1 and rest[0].isdecimal() and 1 <= int(rest[0]) <= MAX_LOG_LINES
            )
            return Verdict("read" if ok else "refuse", "log")
        if command == "board":
            view = words[1] if len(words) > 1 else "map"
            company = words[2] if len(words) > 2 else None
            companies = loaded.committed.companies if loaded and loaded.committed else {}
            ok = view in VIEWS and (company is None or company in companies)
            return Verdict("read" if ok else "refuse", "board")
        if user is None:
            return Verdict("refuse", "nobody decides")
        if command == "restart":
            return await self.oracle.restart(CHANNEL, user, None, None)
        if command == "undo":
            # The console undoes for the local player who confirmed the last turn.
            last = loaded.commits[-1][1] if loaded is not None and loaded.commits else None
            committer = last.user if last is not None and last.own_turn else None
            return await self.oracle.undo(CHANNEL, committer if committer in self.users else user)
        parts = [part.strip() for part in line.split(";") if part.strip()]
        numbers = [part for part in parts if part.lstrip("+-").isdecimal()]
        if numbers:
            if len(parts) > 1 or not 1 <= int(numbers[0]) <= len(notations):
                return Verdict("refuse", "option numbers: one, in range")
            parts = [notations[int(numbers[0]) - 1]]
        return await self.oracle.typed_moves(CHANNEL, user, parts)
