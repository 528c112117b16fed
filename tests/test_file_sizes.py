"""No module of bot/ or renderer/ is longer than 1,000 lines (bot/store/sql.py, in seven clear
sections, aside)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 1000
# The SQL texts of both stores, one section per table family: long, but read as a catalogue.
EXCEPTED = frozenset({"bot/store/sql.py"})


#: The packages whose modules are checked.
PACKAGES = ("bot", "renderer")


def too_long(root: Path, limit: int = LIMIT) -> dict[str, int]:
    """The modules under root/bot and root/renderer longer than limit lines, by path relative
    to root."""
    found = {}
    for path in sorted(p for package in PACKAGES for p in (root / package).rglob("*.py")):
        name = path.relative_to(root).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit and name not in EXCEPTED:
            found[name] = lines
    return found


def test_the_check_finds_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "bot" / "store").mkdir(parents=True)
    (tmp_path / "bot" / "long.py").write_text("x = 1\n" * 11)
    (tmp_path / "bot" / "short.py").write_text("x = 1\n" * 10)
    (tmp_path / "bot" / "store" / "sql.py").write_text("x = 1\n" * 11)
    (tmp_path / "renderer" / "expansions").mkdir(parents=True)
    (tmp_path / "renderer" / "expansions" / "long.py").write_text("x = 1\n" * 11)
    assert too_long(tmp_path, limit=10) == {"bot/long.py": 11, "renderer/expansions/long.py": 11}


def test_no_module_of_bot_or_the_renderer_is_over_the_limit() -> None:
    found = too_long(ROOT)
    assert not found, f"over {LIMIT} lines (split along its sections): {found}"
