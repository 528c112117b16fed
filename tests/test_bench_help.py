"""Every script in bench/ answers --help: what it measures and its arguments, at once (before
any measuring), with exit status 0."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def scripts() -> list[Path]:
    """The bench files that run as scripts (the helpers they share do not)."""
    return sorted(
        p for p in (ROOT / "bench").glob("*.py") if '__name__ == "__main__"' in p.read_text()
    )


def test_every_bench_script_answers_help() -> None:
    found = scripts()
    assert len(found) >= 15
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    running = {
        path: subprocess.Popen(
            [sys.executable, str(path), "--help"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in found
    }
    for path, process in running.items():
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, f"{path.name}: {err[-500:]}"
        assert out.startswith("usage: "), f"{path.name}: {out[:200]}"
        # The script's docstring says what it is for; its first line is in the help.
        first = (ast.get_docstring(ast.parse(path.read_text())) or "").splitlines()[0]
        assert first and " ".join(first.split()) in " ".join(out.split()), path.name
