"""Run a Python module under a CPU sampler and write where its threads spent their CPU.

    python bench/cpu_profile.py OUT.txt -m bot --config ...

Every few milliseconds a sampler thread reads each thread's CPU clock and charges what it
used since the last sample to the stack it is in now (a render thread's long C calls, the
PNG encoder's included, are charged where they run). The event loop's callbacks are also
timed one by one on the loop thread's CPU clock, by coroutine, because a quick callback has
usually returned to `select` by the time it is sampled. OUT is rewritten every 10 s and at
exit: CPU by thread, by category (`CATEGORIES`), self time and inclusive time by function.
bench/discord_load.py runs its bot under it with `--profile OUT`.
"""

from __future__ import annotations

import asyncio.events
import atexit
import collections
import gc
import os
import runpy
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType

INTERVAL_S = 0.002
#: The first category whose pattern is in a sampled stack (innermost frame first, as
#: "file:function") names the sample.
CATEGORIES = (
    ("malloc_trim", ("images.py:_trim",)),
    ("PNG encode", ("renderer/png.py:", "render.py:encode", "records.py:encode_palette")),
    ("copy composed background", ("render.py:_statics_on_palette",)),
    ("renderer: compose patches", ("render.py:_compose",)),
    ("renderer: draw", ("renderer/",)),
    ("rules/state (load, clone, json)", ("bot/rules/",)),
    ("store", ("bot/store/", "aiosqlite", "asyncpg", "sqlite3")),
    ("discord.py / http", ("discord/", "aiohttp/", "yarl/", "multidict/")),
    ("json", ("json/",)),
    ("bot service", ("bot/service/",)),
    ("bot commands", ("bot/commands/",)),
    ("asyncio", ("asyncio/",)),
)
IDLE = (
    "selectors.py:select",
    "threading.py:wait",
    "queue.py:get",
    "threading.py:_wait_for_tstate_lock",
)


def _where(frame: FrameType) -> str:
    path = frame.f_code.co_filename
    for marker in ("/site-packages/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    else:
        path = path.rsplit("/wt/", 1)[-1].split("/", 1)[-1]
    return f"{path}:{frame.f_code.co_name}"


class Sampler:
    """Samples every thread's CPU clock and stack; times the event loop's callbacks."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.by_thread: collections.Counter[str] = collections.Counter()
        self.stacks: collections.Counter[tuple[str, ...]] = collections.Counter()
        self.callbacks: collections.Counter[str] = collections.Counter()
        self.loop_cpu = 0.0
        self.last: dict[int, float] = {}
        self.clocks: dict[int, int] = {}
        self.started = time.process_time()
        self.lock = threading.Lock()
        self.me = 0

    def run(self) -> None:
        self.me = threading.get_ident()
        next_dump = time.monotonic() + 10
        while True:
            time.sleep(INTERVAL_S)
            self.sample()
            if time.monotonic() > next_dump:
                self.dump()
                next_dump = time.monotonic() + 10

    def sample(self) -> None:
        names = {t.ident: t.name for t in threading.enumerate()}
        frames = sys._current_frames()
        for ident, frame in frames.items():
            if ident == self.me:
                continue
            try:
                clock = self.clocks.get(ident)
                if clock is None:
                    clock = self.clocks[ident] = time.pthread_getcpuclockid(ident)
                cpu = time.clock_gettime(clock)
            except OSError:
                continue
            delta = cpu - self.last.get(ident, cpu)
            self.last[ident] = cpu
            if delta <= 0:
                continue
            name = names.get(ident, "?").split("_")[0].rstrip("-0123456789")
            stack = []
            f: FrameType | None = frame
            while f is not None and len(stack) < 60:
                stack.append(_where(f))
                f = f.f_back
            with self.lock:
                self.by_thread[name] += delta
                if threading.main_thread().ident == ident and any(i in stack[0] for i in IDLE):
                    stack = ["(loop callbacks between samples: see by coroutine)"]
                self.stacks[(name, *stack)] += delta

    def time_callbacks(self) -> None:
        """Time each event-loop callback on the loop thread's CPU clock, by coroutine."""
        run = asyncio.events.Handle._run
        sampler = self

        def timed(handle: asyncio.events.Handle) -> None:
            started = time.thread_time()
            try:
                run(handle)
            finally:
                spent = time.thread_time() - started
                callback = handle._callback
                owner = getattr(callback, "__self__", None)
                coro = getattr(owner, "get_coro", None)
                # Names only: a repr may read the state of what it names.
                if coro is not None:
                    c = coro()
                    label = getattr(c, "__qualname__", None) or type(c).__qualname__
                else:
                    label = getattr(callback, "__qualname__", None) or type(callback).__qualname__
                sampler.callbacks[label] += spent
                sampler.loop_cpu += spent

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]

    def dump(self) -> None:
        with self.lock:
            stacks = dict(self.stacks)
            threads = dict(self.by_thread)
            callbacks = dict(self.callbacks)
        total = sum(stacks.values()) or 1e-9
        lines = [
            f"process CPU {time.process_time() - self.started:.1f} s; sampled {total:.1f} s",
            "",
            "by thread:",
        ]
        lines += [f"  {s:8.2f} s {100 * s / total:5.1f}%  {n}" for n, s in _top(threads, 20)]
        cats: collections.Counter[str] = collections.Counter()
        for stack, s in stacks.items():
            cats[_category(stack)] += s
        lines += ["", "by category (first match from the innermost frame):"]
        lines += [f"  {s:8.2f} s {100 * s / total:5.1f}%  {n}" for n, s in _top(cats, 30)]
        self_time: collections.Counter[str] = collections.Counter()
        inclusive: collections.Counter[str] = collections.Counter()
        for stack, s in stacks.items():
            self_time[stack[1] if len(stack) > 1 else stack[0]] += s
            for where in set(stack[1:]):
                inclusive[where] += s
        lines += ["", "self (innermost Python frame):"]
        lines += [f"  {s:8.2f} s {100 * s / total:5.1f}%  {n}" for n, s in _top(self_time, 45)]
        callers: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for stack, s in stacks.items():
            if len(stack) > 2:
                callers[stack[1]][stack[2]] += s
        lines += ["", "callers of the costliest (self time):"]
        for name, _ in _top(self_time, 12):
            top = ", ".join(f"{c} {100 * v / total:.1f}%" for c, v in _top(callers[name], 4))
            lines.append(f"  {name}: {top}")
        lines += ["", "inclusive:"]
        lines += [f"  {s:8.2f} s {100 * s / total:5.1f}%  {n}" for n, s in _top(inclusive, 70)]
        lines += ["", f"event-loop callbacks by coroutine (loop CPU {self.loop_cpu:.1f} s):"]
        lines += [f"  {s:8.2f} s  {n}" for n, s in _top(callbacks, 40)]
        lines += ["", "renderer pools (their counters):"]
        for pool in (o for o in gc.get_objects() if type(o).__name__ == "RendererPool"):
            counters = {k: v for k, v in vars(pool).items() if type(v) is int}
            lines.append(f"  {counters}")
        self.out.write_text("\n".join(lines) + "\n")


def _top(counter: dict[str, float], n: int) -> list[tuple[str, float]]:
    return sorted(counter.items(), key=lambda kv: -kv[1])[:n]


def _category(stack: tuple[str, ...]) -> str:
    for name, patterns in CATEGORIES:
        if any(p in where for where in stack[1:] for p in patterns):
            return name
    return f"other ({stack[0]})"


def main() -> None:
    usage = "usage: cpu_profile.py OUT -m MODULE [ARGS...]"
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(f"{usage}\n\n{__doc__}")
        return
    if len(sys.argv) < 4 or sys.argv[2] != "-m":
        raise SystemExit(usage)
    out = Path(sys.argv[1])
    module = sys.argv[3]
    sys.argv = [module, *sys.argv[4:]]
    sampler = Sampler(out)
    sampler.time_callbacks()
    threading.Thread(target=sampler.run, name="cpu-sampler", daemon=True).start()
    atexit.register(sampler.dump)
    previous = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: FrameType | None) -> None:
        sampler.dump()
        if callable(previous):
            previous(signum, frame)
        else:
            os._exit(143)

    signal.signal(signal.SIGTERM, on_term)
    if os.environ.get("BARRAGE_CPROFILE"):
        # The loop thread's Python calls, deterministically (the sampler above misses quick
        # callbacks): written with pstats to $BARRAGE_CPROFILE at exit.
        import cProfile

        profile = cProfile.Profile()
        atexit.register(lambda: profile.dump_stats(os.environ["BARRAGE_CPROFILE"]))
        profile.enable()
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
