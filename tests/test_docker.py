"""The Dockerfile and the README's Docker section, read as Docker reads them.

No Docker engine runs in the test suite. `tools/docker_check.py` builds this Dockerfile with
podman on a stand-in base image and runs the image (set BARRAGE_DOCKER_CHECK=1 to run it
here, as root with podman and debootstrap installed); these tests pin the properties it
verified, so that a change to the file cannot quietly undo them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@dataclass(frozen=True)
class Instruction:
    """One Dockerfile instruction, continuation lines joined."""

    stage: int
    keyword: str
    args: str


def instructions() -> list[Instruction]:
    """The Dockerfile's instructions in order, numbered by build stage (0 = before FROM)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    found, stage = [], 0
    for line in joined.splitlines():
        if not line.strip():
            continue
        keyword, _, args = line.strip().partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        found.append(Instruction(stage, keyword, " ".join(args.split())))
    return found


def final_stage() -> list[Instruction]:
    """The instructions of the stage that becomes the image."""
    steps = instructions()
    last = max(i.stage for i in steps)
    return [i for i in steps if i.stage == last]


def test_every_stage_starts_from_the_python_3_11_bookworm_image() -> None:
    steps = instructions()
    [arg] = [i for i in steps if i.keyword == "ARG" and i.stage == 0]
    assert arg.args == "PYTHON_IMAGE=python:3.11-slim-bookworm"
    froms = [i.args for i in steps if i.keyword == "FROM"]
    assert froms == ["${PYTHON_IMAGE} AS build", "${PYTHON_IMAGE}"]


def test_the_image_keeps_no_source_tree_or_build_files() -> None:
    final = final_stage()
    copies = [i.args for i in final if i.keyword == "COPY"]
    assert copies == ["--from=build /opt/barrage-bot /opt/barrage-bot"]
    workdirs = [i.args for i in final if i.keyword == "WORKDIR"]
    assert workdirs == ["/data"]
    # The build stage installs with the pinned versions, outside any folder that is copied.
    build = [i for i in instructions() if i.stage == 1]
    assert any("PIP_CONSTRAINT=/src/constraints.txt" in i.args for i in build if i.keyword == "ENV")
    [install] = [i.args for i in build if i.keyword == "RUN"]
    assert "python -m venv /opt/barrage-bot" in install
    assert "/opt/barrage-bot/bin/pip install /src" in install


def test_it_runs_as_user_and_group_10001_owning_the_data_volume() -> None:
    final = final_stage()
    [run] = [i.args for i in final if i.keyword == "RUN"]
    assert "groupadd --system --gid 10001 barrage" in run
    assert "useradd --system --uid 10001 --gid 10001 --home-dir /data" in run
    assert "chown 10001:10001 /data" in run
    users = [i.args for i in final if i.keyword == "USER"]
    assert users == ["10001:10001"]
    assert [i.args for i in final if i.keyword == "VOLUME"] == ['["/data"]']
    assert [i.args for i in final if i.keyword == "ENTRYPOINT"] == ['["barrage-bot"]']
    assert [i.args for i in final if i.keyword == "STOPSIGNAL"] == ["SIGTERM"]
    # No CMD: `docker run IMAGE console ...` and `IMAGE --check-config` reach barrage-bot.
    assert not [i for i in final if i.keyword == "CMD"]


def test_the_build_context_leaves_out_tests_history_and_secrets() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for name in (".git", "tests", "bench", ".venv", "config.toml", "*.sqlite3", "backups"):
        assert name in ignored, name


def _docker_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^### Docker\n(.*?)(?=^## )", readme, re.M | re.S)
    assert match, "README has no Docker section"
    return match[1]


def _commands(section: str) -> list[str]:
    """The shell commands of a README section, continuation lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    text = re.sub(r"\\\n\s*", "", "\n".join(blocks))
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_readme_runs_the_bot_with_a_restart_policy_and_shows_the_daily_commands() -> None:
    section = _docker_section()
    commands = _commands(section)
    detached = [c for c in commands if c.startswith("docker run -d")]
    assert len(detached) == 2
    assert all("--restart unless-stopped" in c for c in detached)
    assert any(c.startswith("docker logs") for c in commands)
    assert any(c.endswith("barrage-bot --check-config") for c in commands)
    assert any(" barrage-bot console " in c and "-it" in c.split() for c in commands)
    assert any("chown -R 10001:10001" in c for c in commands)
    assert "database.path" in section


@pytest.mark.skipif(
    os.environ.get("BARRAGE_DOCKER_CHECK") != "1",
    reason="builds and runs the image with podman (minutes); set BARRAGE_DOCKER_CHECK=1",
)
def test_the_image_builds_and_runs_on_a_stand_in_base() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "docker_check.py")],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    assert re.search(r"^\d+ passed, 0 failed$", run.stdout, re.M), json.dumps(run.stdout[-500:])
