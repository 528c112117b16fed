"""The README's "Try it without Discord" commands, run as written and in the order written
(the hot-seat games with a few typed lines, the random games cut short with --turns), and
what they leave behind ignored by git."""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Typed into each hot-seat game: one move, then leave (the game is kept).
HOT_SEAT_LINES = "1\nquit\n"
#: Turns each random game plays here (the whole games are tested in test_autoplay.py).
TURNS = "2"


def readme_commands() -> list[list[str]]:
    """The console commands of the README's "Try it without Discord" section, in order."""
    text = (ROOT / "README.md").read_text()
    section = text.split("### Try it without Discord", 1)[1].split("\n#", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the section has no commands"
    commands = [shlex.split(line) for line in block[1].splitlines() if line.strip()]
    assert all(c[:4] == [".venv/bin/python", "-m", "bot", "console"] for c in commands)
    return [c[4:] for c in commands]


def run(cwd: Path, args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot console ARGS` in `cwd`, as the README's `.venv/bin/python` would."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", *args],
        cwd=cwd,
        input=stdin,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_readme_commands_work_in_the_order_written(tmp_path: Path) -> None:
    commands = readme_commands()
    assert len(commands) >= 5
    hot_seat = [c for c in commands if "--autoplay" not in c]
    assert len(hot_seat) >= 2, "the section plays hot seat and against automas"
    for args in commands:
        autoplay = "--autoplay" in args
        result = run(tmp_path, [*args, "--turns", TURNS] if autoplay else args, HOT_SEAT_LINES)
        shown = " ".join(args)
        assert result.returncode == 0, f"{shown}: {result.stderr}"
        assert "Traceback" not in result.stdout + result.stderr, shown
        if autoplay:
            assert f"stopped after {TURNS} turns" in result.stdout, shown
        else:
            # Each hot-seat command starts the game its options describe.
            assert "New game #" in result.stdout, f"{shown}: {result.stdout[-500:]}"
            if "--automa" in args:
                count = int(args[args.index("--automa") + 1])
                level = args[args.index("--automa-level") + 1]
                assert result.stdout.count(f"(automa, {level})") == count, result.stdout[:800]
    # Run again, the first command continues its game (the move typed is still there).
    again = run(tmp_path, hot_seat[0], "quit\n")
    assert again.returncode == 0 and "Continuing game #1" in again.stdout, again.stderr
    assert "done: " in again.stdout
    pictures = sorted(p.name for p in (tmp_path / "pictures").iterdir())
    assert pictures and all(
        re.fullmatch(r"game-\d+-\d{5}-[a-z]+(-[a-z]+)?\.png", p) for p in pictures
    )


def ignored(path: str) -> bool:
    """Whether the repository's .gitignore ignores `path` (its simple patterns: a name
    anywhere, or a folder at the top)."""
    for pattern in (ROOT / ".gitignore").read_text().splitlines():
        pattern = pattern.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        if pattern.startswith("/") and pattern.endswith("/"):
            if path.startswith(pattern[1:]):
                return True
        elif "/" not in pattern and fnmatch.fnmatch(path.rsplit("/", 1)[-1], pattern):
            return True
    return False


def test_what_the_console_writes_is_ignored_by_git() -> None:
    for path in (
        "pictures/game-1-00003-map.png",
        "barrage-console.sqlite3",
        "barrage-console.sqlite3-wal",
        "barrage-console.sqlite3-shm",
        "solo.sqlite3",
    ):
        assert ignored(path), path
    assert not ignored("bot/console/app.py") and not ignored("docs/sample-map.png")
