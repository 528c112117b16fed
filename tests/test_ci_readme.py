"""CI runs the README's test command, and every install goes through the pinned versions."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section_commands(heading: str) -> list[str]:
    """The lines of the ```sh blocks under a README heading (up to the next heading)."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#|\Z)", README, re.M | re.S)
    assert match, f"README has no '{heading}' section"
    blocks = re.findall(r"```sh\n(.*?)```", match[1], re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def _normalise(name: str) -> str:
    """A distribution name in PEP 503 normal form."""
    return re.sub(r"[-_.]+", "-", name).lower()


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    [command] = _section_commands("Run the tests")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines()
    assert "set -e" in ci  # a failing test fails CI


def test_readme_install_command_uses_the_constraints_and_runs_the_bot() -> None:
    [command] = _section_commands("2. Install and run the bot")
    assert command.startswith("python3 -m venv .venv && ")
    assert 'PIP_CONSTRAINT="$PWD/constraints.txt" .venv/bin/pip install . ' in command
    assert command.endswith(".venv/bin/barrage-bot")


def test_every_pip_install_is_constrained() -> None:
    sources = {
        "README.md": README,
        ".ci/run": (ROOT / ".ci" / "run").read_text(encoding="utf-8"),
        "Dockerfile": (ROOT / "Dockerfile").read_text(encoding="utf-8"),
    }
    for name, text in sources.items():
        for line in text.splitlines():
            if "pip install" in line and not line.lstrip().startswith("#"):
                assert "PIP_CONSTRAINT" in line or "PIP_CONSTRAINT=" in text, (name, line)


def test_constraints_pin_every_dependency_exactly() -> None:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not an exact pin: {line}"
            pins[_normalise(name)] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    for requirement in wanted:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)[0]
        assert _normalise(name) in pins, f"{name} is not pinned in constraints.txt"
