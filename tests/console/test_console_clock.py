"""The console's `--clock`: a hot-seat game keeps its times, and an injected clock drives
its expiries (the game's clock reads the times kept with it, across sessions)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bot.console.app import main

START = 1_767_225_600_000  # 2026-01-01 00:00 UTC
HOUR = 3_600_000


def session(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    db: Path,
    now: int,
    lines: str,
    *args: str,
) -> str:
    """One console run at the fixed moment `now`, typing `lines`; what it printed."""
    read, write = os.pipe()
    os.write(write, lines.encode())
    os.close(write)
    with os.fdopen(read) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        assert main(["--db", str(db), "--seed", "4", *args], clock=lambda: now) == 0
    return capsys.readouterr().out


def test_a_clocked_hot_seat_game_keeps_its_times_and_expires(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "clock.sqlite3"
    first = session(
        monkeypatch, capsys, db, START, "clock\nquit\n", "--clock", "12h", "--timeout", "skip"
    )
    assert "a 12-hour clock per turn" not in first  # the console does not print the lobby
    assert "has until 02 January 2026, 12:00 UTC" in first  # 12 hours and a bank of 24
    assert "a bank of 24 hours" in first
    # The next session, 37 hours later: the first player's time ran out meanwhile.
    later = session(monkeypatch, capsys, db, START + 37 * HOUR, "clock\nquit\n")
    assert "Time is up for" in later and "their turn passed" in later
    assert "a bank of 0 hours" in later
    # A kept game's clock is one of its options: another is refused.
    read, write = os.pipe()
    os.close(write)
    with os.fdopen(read) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        assert main(["--db", str(db), "--clock", "24h"], clock=lambda: START) == 2
    assert "--clock 24h" in capsys.readouterr().err
