"""The console's autoplay mode, run as the user would run it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from PIL import Image


def test_autoplay_two_players_reaches_final_scoring(tmp_path: Path) -> None:
    out, db = tmp_path / "images", tmp_path / "games.sqlite3"
    result = run_console(
        "--autoplay", "--players", "2", "--seed", "5", "--out", str(out), "--db", str(db),
        "--replay",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "(finished)" in result.stdout
    assert "1. " in result.stdout and "VP" in result.stdout
    pngs = sorted(out.glob("*.png"))
    assert pngs and pngs[0].read_bytes().startswith(b"\x89PNG")
    # --replay: the finished game's replay, one frame per round (each start, then the end).
    gif = out / "game-1-replay.gif"
    assert f"wrote {gif}" in result.stdout and "one frame per round" in result.stdout
    with Image.open(gif) as image:
        assert image.format == "GIF" and image.n_frames == 6
    first = gif.read_bytes()
    gif.unlink()
    again = run_console("--db", str(db), "--replay-of", "1", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert gif.read_bytes() == first  # the same frames, from the same stored snapshots
    missing = run_console("--db", str(db), "--replay-of", "7")
    assert missing.returncode == 2
    assert "no replay: There is no game #7 in this server" in missing.stderr


def run_console(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot console ARGS`, captured."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_autoplay_leeghwater_three_players_reaches_final_scoring(tmp_path: Path) -> None:
    out = tmp_path / "images"
    result = run_console(
        "--autoplay",
        "--players",
        "3",
        "--seed",
        "4",
        "--out",
        str(out),
        "--setup",
        "full",
        "--expansions",
        "leeghwater",
    )
    assert result.returncode == 0, result.stderr
    assert "(finished)" in result.stdout
    # The expansion's VP show in the final score: its buildings and its works.
    assert "Private Buildings " in result.stdout and "External Works " in result.stdout
    assert sorted(out.glob("*.png"))


def test_autoplay_colorado_with_leeghwater_reaches_final_scoring(tmp_path: Path) -> None:
    out = tmp_path / "images"
    result = run_console(
        "--autoplay", "--players", "2", "--seed", "3", "--out", str(out),
        "--setup", "full", "--expansions", "leeghwater,colorado",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "(finished)" in result.stdout
    assert "Bridges " in result.stdout  # this seed's game pays a toll to a Bridge
    assert sorted(out.glob("*.png"))


def test_autoplay_nile_reaches_final_scoring_writing_the_views_asked(tmp_path: Path) -> None:
    out = tmp_path / "images"
    result = run_console(
        "--autoplay", "--players", "2", "--seed", "3", "--expansions", "nile",
        "--out", str(out), "--views", "irrigation,score",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "(finished)" in result.stdout and "Irrigation scoring " in result.stdout
    # A progress line per round, and after every turn each view asked for.
    for round_no in range(1, 6):
        assert f"round {round_no} done: " in result.stdout
    # Every picture is named after the game's number and the turn's version, then its view.
    irrigation = sorted(out.glob("game-1-*-irrigation.png"))
    scores = sorted(out.glob("game-1-*-score.png"))
    assert len(irrigation) == len(scores) > 20
    assert not list(out.glob("*-shared.png"))  # only the views asked for


def test_views_are_checked_before_anything_is_played(tmp_path: Path) -> None:
    unknown = run_console("--autoplay", "--views", "map,board", "--out", str(tmp_path))
    no_folder = run_console("--autoplay", "--views", "map")
    assert unknown.returncode == 2 and no_folder.returncode == 2
    assert "--views: no view 'board'; choose from map, shared, company" in unknown.stderr
    assert "--views writes pictures: give the folder with --out" in no_folder.stderr
    assert not list(tmp_path.glob("*.png"))


def test_expansion_refusals_are_one_line_with_status_2() -> None:
    unknown = run_console("--autoplay", "--setup", "full", "--expansions", "atlantis")
    intro = run_console("--autoplay", "--setup", "intro", "--expansions", "leeghwater")
    assert unknown.returncode == 2 and intro.returncode == 2
    assert unknown.stderr.strip().splitlines() == [
        "barrage-bot console: error: There is no expansion 'atlantis' "
        "(known: colorado, leeghwater, nile). Change --expansions."
    ]
    [line] = intro.stderr.strip().splitlines()
    assert line.startswith("barrage-bot console: error: ") and "full game only" in line
    assert line.endswith("Use --setup full.")  # the console's own option, not setup='full'
    assert unknown.stdout == intro.stdout == ""
    both = run_console("--autoplay", "--expansions", "colorado,nile")
    assert both.returncode == 2 and both.stdout == ""
    [line] = both.stderr.strip().splitlines()
    assert line.endswith(
        "The Colorado Connection and The Nile Affair cannot be played together. "
        "Change --expansions."
    )


def test_autoplay_solo_against_automas_reaches_final_scoring() -> None:
    result = run_console(
        "--autoplay", "--automa", "2", "--automa-level", "hard", "--seed", "6",
        "--setup", "full", "--expansions", "leeghwater",
    )  # fmt: skip
    # One person and two automas: three companies ranked; an automa's 16 VP start shows as the
    # score sheet's Start 10 and at least 6 of Other (where the sheet's other sources join it).
    ranked = ranking(result, 3)
    others = [re.search(r"Other (\d+) VP", line) for line in ranked]
    assert all("Start 10 VP" in line for line in ranked)
    assert sum(1 for m in others if m and int(m.group(1)) >= 6) == 2


def test_automa_refusals_name_the_console_option() -> None:
    crowded = run_console("--autoplay", "--players", "2", "--automa", "2")
    assert crowded.returncode == 2 and crowded.stdout == ""
    [line] = crowded.stderr.strip().splitlines()
    assert "no seat for a person" in line and line.endswith("Use --automa 1.")
    nile = run_console("--autoplay", "--automa", "1", "--expansions", "nile")
    assert nile.returncode == 2
    assert "cannot be played with automas" in nile.stderr


def ranking(result: subprocess.CompletedProcess[str], companies: int) -> list[str]:
    """The final ranking's lines of a finished autoplay, checked to rank every company."""
    assert result.returncode == 0, result.stderr
    assert "(finished)" in result.stdout
    places = tuple(f"{n}." for n in range(1, companies + 1))
    ranked = [line for line in result.stdout.splitlines() if line[:2] in places]
    assert len(ranked) == companies
    return ranked


def test_autoplay_an_ai_against_an_automa_names_each_seats_kind() -> None:
    # The command, with --ai-level: about 15 s of CPU (the strong level's search).
    ranked = ranking(
        run_console(
            "--autoplay", "--players", "2", "--ai", "1", "--ai-level", "strong", "--automa", "1",
            "--automa-level", "expert", "--seed", "3",
        ),
        2,
    )  # fmt: skip
    kind = re.compile(r"[12]\. [A-Z][a-z]+ \((AI strong|automa expert)\): \d+ VP( —|$)")
    kinds = sorted(match.group(1) for line in ranked if (match := kind.match(line)))
    assert kinds == ["AI strong", "automa expert"], ranked


def test_ai_refusals_name_the_console_option() -> None:
    crowded = run_console("--players", "2", "--ai", "1", "--automa", "1")
    assert crowded.returncode == 2 and crowded.stdout == ""
    assert "no seat for a person" in crowded.stderr and "Use --ai 0." in crowded.stderr
