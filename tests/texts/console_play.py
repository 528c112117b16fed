"""The console as a person uses it (hot seat, typed commands), read for the text check."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.texts.checker import Finding, check_text

#: What the players type: looks and refusals first, then mostly the first option, with looks
#: between turns.
LOOKS = ("help", "score", "company", "company italy", "company Italy", "log 5", "foo", "undo")
#: The console shows each option's notation in [brackets]: what to type, like a code span.
_NOTATION = re.compile(r" {3}\[([^\]\n]+)\]$", re.MULTILINE)


def script(moves: int) -> str:
    """The typed lines of one session."""
    lines = list(LOOKS)
    for i in range(moves):
        lines.append(str(1 + i % 3) if i % 7 else "1")
        if i % 40 == 39:
            lines += ["score", "company", "log 10", "undo", "restart"]
    return "\n".join([*lines, "score", "quit"]) + "\n"


def console_findings(db: Path, *args: str, moves: int = 150) -> list[Finding]:
    """Play a hot-seat console session and check everything it printed."""
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db), *args],
        input=script(moves),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    out = _NOTATION.sub(lambda m: f"   `{m[1]}`", result.stdout + result.stderr)
    where = f"console {' '.join(args)}"
    found: list[Finding] = []
    for block in dict.fromkeys(out.split("\n> ")):
        for line in block.splitlines():
            found += check_text(line, where)
    return found
