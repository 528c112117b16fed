"""The CPU time a process and its descendants have spent, from /proc (for the benches)."""

from __future__ import annotations

import os
from pathlib import Path

_TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a live process, or None if it is gone: its own user and
    system time and that of the children it has reaped (a server's exited workers)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name, in parentheses, may hold spaces: the fields after it are fixed.
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), sum(int(f) for f in fields[11:15]) * _TICK_S


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of `pid`, its threads and its live descendants so far.

    Independent of the machine's load (unlike wall-clock time), so it is what a bench can
    compare on a shared machine. A descendant that exited counts once its parent has reaped
    it (before that, its time is lost: a bench's figures may fall short by a dying worker's).
    """
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            parents[int(entry.name)], cpu[int(entry.name)] = found
    total, todo = 0.0, [pid]
    children: dict[int, list[int]] = {}
    for child, parent in parents.items():
        children.setdefault(parent, []).append(child)
    while todo:
        current = todo.pop()
        total += cpu.get(current, 0.0)
        todo += children.get(current, [])
    return total


def descendants(pid: int) -> list[int]:
    """The live descendants of `pid` (its worker processes and theirs)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = found[0]
    children: dict[int, list[int]] = {}
    for child, parent in parents.items():
        children.setdefault(parent, []).append(child)
    out, todo = [], list(children.get(pid, []))
    while todo:
        current = todo.pop()
        out.append(current)
        todo += children.get(current, [])
    return out
