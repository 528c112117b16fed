"""Stopping on SIGTERM or SIGINT, within a bounded time even when something hangs."""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType

log = logging.getLogger(__name__)

#: Seconds a stop may take (closing the gateway, letting a delivery and the running
#: transactions finish) before the process exits anyway. compose.yaml gives the bot a
#: longer stop_grace_period, so Docker's SIGKILL never comes first.
SHUTDOWN_GRACE_S = 30.0
#: The exit status of a process that had to give up its shutdown.
EXIT_FORCED = 1
#: Seconds allowed for the final report (a log line and every thread's stack) before exiting.
_REPORT_S = 2.0

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class SignalShutdown:
    """Turns SIGTERM and SIGINT into a clean stop, and bounds how long the stop may take.

    The first signal sets `stop` (on the event loop). If the process has not finished its
    shutdown `grace_s` later, or a second signal comes, every thread's stack is written to
    stderr (to show what hung) and the process exits at once.

    The handlers are Python's (signal.signal), not the loop's: they run in the main thread
    even while the event loop is stuck in a blocking call, which the signal interrupts. They
    only wake the loop and a watchdog thread, started beforehand, that does the rest.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        stop: asyncio.Event,
        *,
        grace_s: float = SHUTDOWN_GRACE_S,
        exit_now: Callable[[int], object] = os._exit,
    ) -> None:
        """Prepare; nothing changes until `install`."""
        self._loop = loop
        self._stop = stop
        self.grace_s = grace_s
        self._exit_now = exit_now
        self._signals = 0
        self._finished = False
        self._wake = threading.Event()
        self._previous: dict[signal.Signals, signal._HANDLER] = {}
        self._watchdog = threading.Thread(target=self._watch, name="shutdown watchdog", daemon=True)

    def install(self) -> None:
        """Handle SIGINT and SIGTERM from now on."""
        self._watchdog.start()
        for sig in SIGNALS:
            self._previous[sig] = signal.signal(sig, self._on_signal)

    def uninstall(self) -> None:
        """The shutdown has finished: restore the previous handlers, stop the watchdog."""
        for sig, previous in self._previous.items():
            # None: a handler set outside Python, which cannot be put back; the default then.
            signal.signal(sig, signal.SIG_DFL if previous is None else previous)
        self._previous.clear()
        self._finished = True
        self._wake.set()

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        """In the main thread, between two bytecodes: count, wake the watchdog and the loop."""
        self._signals += 1
        self._wake.set()
        if self._signals == 1:
            # RuntimeError: the loop is closed already; the watchdog ends the process.
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._begin, signal.Signals(signum))

    def _begin(self, sig: signal.Signals) -> None:
        """On the loop: ask the bot to shut down cleanly."""
        log.info("%s received: shutting down (at most %g s)", sig.name, self.grace_s)
        self._stop.set()

    def _watch(self) -> None:
        """Wait for a signal, then for the shutdown; end the process if it overruns."""
        while not self._signals and not self._finished:
            self._wake.wait()
            self._wake.clear()
        deadline = time.monotonic() + self.grace_s
        while not self._finished:
            if self._signals > 1:
                self._give_up("a second signal came")
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._give_up(f"the shutdown did not finish within {self.grace_s:g} s")
                return
            self._wake.wait(remaining)
            self._wake.clear()

    def _give_up(self, reason: str) -> None:
        """Report what every thread is doing, then exit without finishing the shutdown."""
        # On a thread of its own: if stderr blocks (a full pipe), the exit still comes.
        report = threading.Thread(target=_report, args=(reason, self._loop), daemon=True)
        report.start()
        report.join(_REPORT_S)
        self._exit_now(EXIT_FORCED)


def _report(reason: str, loop: asyncio.AbstractEventLoop) -> None:
    """Log why the process gives up, what each task awaits, and every thread's stack."""
    log.error(
        "%s: exiting now; what each task awaits and the stack of every thread follow:\n%s",
        reason,
        "\n".join(_awaiting(loop)),
    )
    try:
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    except (OSError, ValueError, AttributeError):  # stderr closed or not a real file
        log.error("could not write the threads' stacks")


def _awaiting(loop: asyncio.AbstractEventLoop, limit: int = 40) -> list[str]:
    """One line per kind of unfinished task: its chain of awaits, outermost first.

    Read from another thread than the loop's, while the loop may still run: good enough
    for a last report, and tried again if the set of tasks changes meanwhile.
    """
    for _ in range(3):
        try:
            tasks = list(asyncio.all_tasks(loop))
            break
        except RuntimeError:  # the set changed while being read
            continue
    else:
        return ["  (the tasks could not be listed)"]
    chains: dict[str, int] = {}
    for task in tasks:
        chain = " <- ".join(_await_chain(task.get_coro()))
        key = f"  task {task.get_name().split('-')[0]}: {chain}"
        chains[key] = chains.get(key, 0) + 1
    lines = [f"{key} (x{n})" if n > 1 else key for key, n in chains.items()]
    return lines[:limit] + ([f"  ... and {len(lines) - limit} more"] if len(lines) > limit else [])


def _await_chain(awaitable: object) -> list[str]:
    """Where a coroutine and each coroutine it awaits stand ("name (file:line)")."""
    chain: list[str] = []
    while awaitable is not None and len(chain) < 30:
        frame = getattr(awaitable, "cr_frame", None) or getattr(awaitable, "gi_frame", None)
        if frame is None:
            break
        code = frame.f_code
        chain.append(f"{code.co_qualname} ({os.path.basename(code.co_filename)}:{frame.f_lineno})")
        awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
    return chain
