"""The hot-seat console as a person uses it: bad lines, a game kept in a file, Ctrl-C and
Ctrl-D in a real terminal, and names where Discord would show mentions."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from bot.console.app import DEFAULT_DB
from bot.console.lines import LineReader

#: A generous bound for a process to react; a console that waits for Enter never does.
PATIENCE_S = 60


def console(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m bot console ARGS` in `cwd`, fed `stdin` through a pipe."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_bad_lines_get_clear_answers_and_change_nothing(tmp_path: Path) -> None:
    lines = ["0", "99", "-1", "log x", "log 0", "log 5 6", "board nowhere", "1;2", "company xx"]
    lines += ["²", "log ²"]  # digits to str.isdigit, but not numbers int() reads
    run = console(tmp_path, "--players", "2", "--seed", "3", stdin="\n".join([*lines, "quit"]))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Traceback" not in out + run.stderr and "Error" not in run.stderr
    assert "There is no option 0: choose 1 to 16" in out
    assert "There is no option 99: choose 1 to 16" in out
    assert "There is no option -1" in out
    assert "'log' takes a number of lines from 1 to 1000, like 'log 20' (not 'x')" in out
    assert "(not '0')" in out and "(not '5 6')" in out
    assert "This game has no view 'nowhere'; choose one of map, shared, company, full, score" in out
    assert "Option numbers work one at a time" in out
    assert "There is no company 'xx'" in out
    assert "(not '²')" in out
    # None of it was a move: the game is still at its first decision.
    again = console(tmp_path, stdin="quit\n")
    assert "Continuing game #1 (2 players)" in again.stdout
    assert "done:" not in again.stdout


def test_the_game_is_kept_in_a_file_and_continues(tmp_path: Path) -> None:
    first = console(tmp_path, "--players", "3", "--seed", "8", "--names", "Ann,Bob,Cy", stdin="1\n")
    assert first.returncode == 0, first.stderr
    assert f"New game #1, saved in {DEFAULT_DB} after every move." in first.stdout
    assert f"Game #1 is saved in {DEFAULT_DB}; run the same command to continue it." in first.stdout
    assert (tmp_path / DEFAULT_DB).is_file()
    # Mentions are names: the seat list, the prompt and the next-player line.
    assert "Seats: 1. Ann (" in first.stdout and "2. Bob (" in first.stdout
    assert "<@" not in first.stdout
    assert re.search(r"\n\[(Ann|Bob|Cy), [A-Z]", first.stdout)
    # The same command continues where the players left (the move "1" was kept).
    second = console(tmp_path, "--names", "Ann,Bob,Cy", stdin="log 5\nquit\n")
    assert "Continuing game #1 (3 players)" in second.stdout
    assert "done: " in second.stdout  # the turn in progress survived
    assert "<@" not in second.stdout


def test_an_unusable_database_file_is_one_line(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my shopping list\n")
    run = console(tmp_path, "--db", str(notes), stdin="quit\n")
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        f"barrage-bot console: error: database {notes} is not an SQLite database "
        "(it is a text file); choose another file with --db"
    ]
    assert notes.read_text() == "my shopping list\n"


def _as_terminal_session() -> None:
    """In the child: take the terminal as controlling terminal, with the keyboard signals
    as a shell leaves them. A test runner's worker ignores SIGINT (pytest-xdist does), and
    an ignored signal stays ignored across exec: Ctrl-C would reach the console as nothing."""
    for number in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """The console in a real pseudo-terminal, as its controlling terminal (so that Ctrl-C
    and Ctrl-D are the terminal's own keys, not signals sent by the test)."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "console", *args],
            cwd=cwd,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=_as_terminal_session,
        )
        os.close(slave)
        self.screen = ""

    def read_until(self, text: str) -> None:
        """Read the screen until `text` shows (or the process ends)."""
        deadline = time.monotonic() + PATIENCE_S
        while text not in self.screen and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    self.screen += os.read(self.master, 65536).decode(errors="replace")
                except OSError:  # the process closed the terminal
                    break
        assert text in self.screen, self.screen[-2000:]

    def key(self, data: bytes) -> None:
        """Type on the keyboard."""
        os.write(self.master, data)

    def wait(self) -> int:
        """The exit status, reading the screen to its end."""
        deadline = time.monotonic() + PATIENCE_S
        while self.process.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    self.screen += os.read(self.master, 65536).decode(errors="replace")
                except OSError:
                    break
        status = self.process.wait(timeout=PATIENCE_S)
        os.close(self.master)
        return status


@pytest.mark.parametrize(
    ("key", "status", "last"),
    [
        (b"\x03", 130, "Stopped: the game is saved in barrage-console.sqlite3"),  # Ctrl-C
        (b"\x04", 0, "Game #1 is saved in barrage-console.sqlite3"),  # Ctrl-D
    ],
)
def test_ctrl_c_and_ctrl_d_leave_at_once_and_keep_the_game(
    tmp_path: Path, key: bytes, status: int, last: str
) -> None:
    terminal = Terminal(tmp_path, "--players", "2", "--seed", "3", "--names", "Ann,Bob")
    terminal.read_until("Ann> ")
    terminal.key(b"1\n")  # one move, then leave in the middle of the turn
    terminal.read_until("done: ")
    terminal.read_until("Ann> ")
    terminal.key(key)  # no Enter after it: it must act on its own
    assert terminal.wait() == status, terminal.screen[-2000:]
    assert last in terminal.screen
    assert "Traceback" not in terminal.screen
    again = console(tmp_path, stdin="quit\n")
    assert "done: " in again.stdout  # the move before the key was kept


async def test_line_reader_reads_pipes_and_plain_files(tmp_path: Path) -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"first\nsecond\r\nthi")
    with os.fdopen(read_fd) as stream, open(os.devnull, "w") as out:
        reader = LineReader(stream, out)
        assert await reader.readline("> ") == "first"
        assert await reader.readline() == "second"
        os.write(write_fd, b"rd\n")
        assert await reader.readline() == "third"
        waiting = asyncio.ensure_future(reader.readline())
        await asyncio.sleep(0)
        assert not waiting.done()
        waiting.cancel()  # what Ctrl-C does: the wait ends without a line
        with pytest.raises(asyncio.CancelledError):
            await waiting
        os.close(write_fd)
        assert await reader.readline() is None
    moves = tmp_path / "moves.txt"
    moves.write_text("1\nquit")  # no newline at the end
    with moves.open() as stream, open(os.devnull, "w") as out:
        reader = LineReader(stream, out)
        assert [await reader.readline(), await reader.readline()] == ["1", "quit"]
        assert await reader.readline() is None


def test_hot_seat_against_an_automa_tells_its_turns(tmp_path: Path) -> None:
    moves = "\n".join(["1", "1", "confirm"] * 6 + ["quit"])
    run = console(tmp_path, "--automa", "1", "--seed", "2", "--names", "Ann", stdin=moves)
    assert run.returncode == 0, run.stderr
    assert "(automa, medium)" in run.stdout  # the seats at the start
    # Its turns are told as a person's would be (no card numbers).
    assert "(automa) played:\n• built a " in run.stdout and "played card" not in run.stdout


def test_undo_is_for_the_player_who_confirmed_and_restart_is_for_a_turn_in_progress(
    tmp_path: Path,
) -> None:
    """Ann confirms a turn; at Bob's prompt `undo` takes it back for Ann (it is hers, the
    only one who may), and the next `undo`, mid-turn, points to `restart`."""
    moves = ["1", "1", "1", "1", "confirm", "undo", "1", "undo", "quit"]
    run = console(
        tmp_path, "--players", "2", "--seed", "3", "--names", "Ann,Bob", stdin="\n".join(moves)
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "--- Italy (Ann) played:" in out and "Bob> " in out
    taken_back = out.index("Bob> Italy (Ann) took back their last turn.")
    assert "--- Italy (Ann) took back their last turn." in out[taken_back:]  # announced
    assert "\nAnn> " in out[taken_back:]  # Ann decides again
    assert "type 'restart' to take back its moves" in out[taken_back:]
    assert "You can only undo your own turn" not in out


def test_company_names_are_read_in_any_case(tmp_path: Path) -> None:
    run = console(
        tmp_path,
        "--players", "2", "--seed", "3", "--out", "pics",
        stdin="company Italy\ncompany FRANCE\nboard company italy\ncompany Atlantis\nquit\n",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    # Only the company the game has not is refused; the others are shown.
    assert run.stdout.count("refused: ") == 1 and "There is no company 'Atlantis'" in run.stdout
    assert "Italy" in run.stdout and "France" in run.stdout
    assert (tmp_path / "pics" / "game-1-board-company-italy.png").is_file()


def test_options_for_a_new_game_are_not_applied_to_the_kept_one(tmp_path: Path) -> None:
    """A kept hot-seat game and `--automa 2`: refused, saying how to start that game; the
    same options as the kept game's, or none, continue it; --new starts the new one."""
    first = console(tmp_path, "--players", "3", "--seed", "4", "--names", "Ann,Bob,Cy", stdin="1\n")
    assert first.returncode == 0, first.stderr
    refused = console(tmp_path, "--automa", "2", "--automa-level", "hard", stdin="quit\n")
    assert refused.returncode == 2 and refused.stdout == ""
    [line] = refused.stderr.strip().splitlines()
    assert line.startswith(
        f"barrage-bot console: error: {DEFAULT_DB} holds game #1 (3 players, intro setup, no "
        "automas), which --automa 2 and --automa-level hard would not change"
    )
    assert "add --new to start a new game" in line and "--db FILE" in line
    for args in (("--players", "3", "--seed", "4"), ("--setup", "intro"), ()):
        same = console(tmp_path, *args, stdin="quit\n")
        assert same.returncode == 0 and "Continuing game #1 (3 players)" in same.stdout
        # The names were kept with the game.
        assert "Ann> " in same.stdout or "Bob> " in same.stdout or "Cy> " in same.stdout
        assert "Player 1" not in same.stdout
    new = console(tmp_path, "--automa", "2", "--automa-level", "hard", "--new", stdin="quit\n")
    assert new.returncode == 0, new.stderr
    assert "Game #1 was abandoned by Ann." in new.stdout and "New game #2" in new.stdout
    assert new.stdout.count("(automa, hard)") == 2
    again = console(tmp_path, "--automa", "2", stdin="quit\n")
    assert "Continuing game #2 (3 players)" in again.stdout


def test_console_help_says_what_it_is_for() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0
    usage, first = run.stdout.split("\n\n", 2)[:2]
    assert usage.startswith("usage: barrage-bot console")
    assert first.startswith("Play Barrage in a terminal, without Discord")
    assert "--new" in run.stdout and "--turns" in run.stdout
