"""bot/ai is pure like the engine: it imports only bot.rules and a few standard modules."""

from __future__ import annotations

import ast
from pathlib import Path

AI = Path(__file__).resolve().parents[2] / "bot" / "ai"
# statistics: fmean over floats, no clock or global random.
ALLOWED_STDLIB = {"__future__", "collections", "copy", "dataclasses", "statistics", "typing"}


def imported(path: Path) -> set[str]:
    """The top-level names of every module the file imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_ai_imports_only_the_engine_and_pure_standard_modules() -> None:
    files = sorted(AI.rglob("*.py"))
    assert files
    for path in files:
        for name in imported(path):
            root = name.split(".")[0]
            if root == "bot":
                assert name.startswith(("bot.rules", "bot.ai")), (path.name, name)
            else:
                # no clock (time), no global random, no I/O (os, io, pathlib, asyncio)
                assert root in ALLOWED_STDLIB, (path.name, name)
