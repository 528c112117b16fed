"""The console's autoplay mode, run as the user would run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_autoplay_two_players_reaches_final_scoring(tmp_path: Path) -> None:
    out = tmp_path / "images"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--autoplay",
            "--players",
            "2",
            "--seed",
            "5",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "(finished)" in result.stdout
    assert "1. " in result.stdout and "VP" in result.stdout
    pngs = sorted(out.glob("*.png"))
    assert pngs and pngs[0].read_bytes().startswith(b"\x89PNG")
