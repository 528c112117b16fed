"""The product type-checks: mypy over bot/ and renderer/ as pyproject.toml configures it.

The configuration itself is checked too, so the check cannot be weakened quietly: every
module is checked (untyped functions included), no error code is switched off, and each of
the few `# type: ignore[code]` comments names its code and says why on its line.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("bot", "renderer")
MAX_IGNORES = 30
#: `# type: ignore[code]` (one or more codes), then `# ` and a reason.
IGNORE_WITH_REASON = re.compile(r"# type: ignore\[[a-z-]+(, ?[a-z-]+)*\]  # \S.{4,}")


def _mypy_config() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["mypy"]


def test_mypy_reports_no_errors(tmp_path: Path) -> None:
    # A fresh cache each run: what CI's clean checkout pays, and never a stale answer.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found"), result.stdout


def test_mypy_checks_everything() -> None:
    config = _mypy_config()
    assert tuple(config["files"]) == CHECKED
    assert config["check_untyped_defs"] is True
    assert "ignore-without-code" in config["enable_error_code"]
    for weakening in ("exclude", "disable_error_code", "ignore_errors", "overrides"):
        assert weakening not in config, f"[tool.mypy] must not set {weakening}"


def test_type_ignores_are_few_and_explained() -> None:
    ignores = []
    for package in CHECKED:
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if "type: ignore" in line:
                    ignores.append((f"{path.relative_to(ROOT)}:{number}", line.strip()))
    unexplained = [where for where, line in ignores if not IGNORE_WITH_REASON.search(line)]
    assert not unexplained, (
        f"a type: ignore needs [code] and '  # reason' on its line: {unexplained}"
    )
    assert len(ignores) <= MAX_IGNORES, [where for where, _ in ignores]


def test_the_rules_engine_passes_mypy_strict(tmp_path: Path) -> None:
    """bot/rules, the pure engine every other layer builds on, passes `mypy --strict` too."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "c"), "bot/rules"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
