"""Run a discord.py client against a fake Discord, in this process or as a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import TypeVar

import discord

from .errors import FakeDiscordError
from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.asynccontextmanager
async def run_bot(
    fake: FakeDiscord, client: ClientT, *, timeout: float = 10.0
) -> AsyncIterator[ClientT]:
    """Start `client` against the fake, yield once it is ready, close it afterwards.

    Create the client with guild_ready_timeout=0.05, or on_ready waits 2 s.
    """
    # wait_until_ready() needs the client initialised, which `async with client` does.
    await client.__aenter__()
    task = asyncio.create_task(client.start(fake.token), name=f"bot {client!r}")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            task.result()  # surfaces a startup crash such as LoginFailure
            raise FakeDiscordError("the bot stopped before it was ready")
        if ready not in done:
            raise FakeDiscordError(f"the bot was not ready within {timeout} s")
        yield client
    finally:
        ready.cancel()
        await client.close()
        try:
            await asyncio.wait_for(task, 5)
        finally:
            await client.__aexit__(None, None, None)


class BotProcess:
    """A bot running as a child process; its output is collected as it runs."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        """Start draining the process's output (a full pipe would block the bot)."""
        self.process = process
        self.output: list[str] = []
        assert process.stdout is not None
        self._drain = asyncio.create_task(self._read(process.stdout))

    async def _read(self, stream: asyncio.StreamReader) -> None:
        """Collect lines until the process closes its output.

        Reads chunks, not lines: `readline` raises on a line longer than the stream's
        64 KiB limit, and a drain that stops leaves the pipe full, so the bot's next log
        write would block it for good.
        """
        partial = b""
        while chunk := await stream.read(65536):
            *lines, partial = (partial + chunk).split(b"\n")
            self.output.extend(line.decode(errors="replace") for line in lines)
        if partial:
            self.output.append(partial.decode(errors="replace"))

    @property
    def text(self) -> str:
        """Everything the process printed so far (stdout and stderr together)."""
        return "\n".join(self.output)

    async def stop(self) -> int:
        """Terminate (then kill) the process and return its exit code."""
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self._drain
        return self.process.returncode or 0


@contextlib.asynccontextmanager
async def run_bot_process(
    fake: FakeDiscord,
    args: Sequence[str],
    *,
    extra_env: dict[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float = 15.0,
) -> AsyncIterator[BotProcess]:
    """Run `python *args` with the fake's env variables; yield once it has connected.

    A traceback in the process's output fails the fake (in-process ERROR logs do the same).
    """
    env = {**os.environ, **fake.env(), **(extra_env or {})}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    bot = BotProcess(process)
    try:
        waiter = asyncio.create_task(fake.wait_connected(timeout))
        exited = asyncio.create_task(process.wait())
        done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiter.cancel()
            await bot.stop()
            raise FakeDiscordError(f"bot process exited {process.returncode}:\n{bot.text}")
        exited.cancel()
        waiter.result()
        yield bot
    finally:
        await bot.stop()
        if "Traceback (most recent call last)" in bot.text:
            fake.fail(f"the bot process printed a traceback:\n{bot.text}")
