"""Reading typed lines without blocking the event loop, so that Ctrl-C stops at once."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import TextIO


class LineReader:
    """Lines from standard input (a terminal, a pipe or a file), one at a time.

    `input()` in a worker thread cannot be interrupted: Ctrl-C would wait for Enter while
    asyncio waits for the thread. Here the event loop watches the descriptor and reads raw
    bytes only when some are ready, so a cancelled wait (Ctrl-C) returns at once.
    """

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self._fd = (stream or sys.stdin).fileno()
        self._out = out or sys.stdout
        self._buffer = b""
        self._eof = False

    async def readline(self, prompt: str = "") -> str | None:
        """The next line without its newline, or None at the end of input (Ctrl-D)."""
        if prompt:
            self._out.write(prompt)
            self._out.flush()
        while b"\n" not in self._buffer and not self._eof:
            chunk = await self._read()
            self._eof = not chunk
            self._buffer += chunk
        if not self._buffer:
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").rstrip("\r")

    async def _read(self) -> bytes:
        """Wait until the descriptor has bytes (or its end), then read what is there."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            loop.add_reader(self._fd, wake)
        except PermissionError:
            # A regular file (`< moves.txt`) cannot be watched, and reading it never blocks.
            return os.read(self._fd, 65536)
        try:
            await ready
        finally:
            loop.remove_reader(self._fd)
        return os.read(self._fd, 65536)
