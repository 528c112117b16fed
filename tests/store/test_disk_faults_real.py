"""Real disk faults, not simulated ones: a tmpfs that fills up, a disk mounted read-only, and
a folder the bot's user may not write (as Docker's host folders often are).

The tmpfs lives in a private mount namespace made by `unshare` (as root, or as a mapped root
in a user namespace), so nothing outside the test sees it. Permission cases run the bot as
root without the capabilities that bypass file permissions (`setpriv`), or as the
unprivileged user the tests already run as.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ENV_CONFIG, ENV_TOKEN
from bot.service import CannotSave

ROOT = Path(__file__).parents[2]
WORKER = Path(__file__).with_name("disk_fault_worker.py")
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.Dsk0Ft.never-shown-disk-fault-token-x"


def _namespace() -> list[str]:
    """The `unshare` prefix that gives a child its own mount namespace, or skip."""
    if os.geteuid() == 0:
        prefix = ["unshare", "--mount", "--propagation", "private"]
    else:
        prefix = ["unshare", "--user", "--map-root-user", "--mount"]
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    probe = subprocess.run([*prefix, "mount", "-t", "tmpfs", "tmpfs", "/mnt"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no private mount namespace here: {probe.stderr.decode().strip()}")
    return prefix


def _env(tmp_path: Path) -> dict[str, str]:
    """The child's environment: the project on its path, a token, no config from outside."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV_TOKEN, ENV_CONFIG)}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "tests")])
    env[ENV_TOKEN] = TOKEN
    env["WORKER_TMP"] = str(tmp_path)
    return env


def _worker(tmp_path: Path, mode: str) -> dict:
    """Run the worker in its own mount namespace and return its report."""
    run = subprocess.run(
        [*_namespace(), sys.executable, str(WORKER), mode, str(tmp_path / "disk")],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_a_really_full_disk_refuses_moves_logs_once_and_recovers(tmp_path: Path) -> None:
    report = _worker(tmp_path, "full")
    assert report["refusals"] == [CannotSave.WRITING] * 3
    before, during, after = report["versions"]
    assert during == before and after > before  # nothing changed, then the move landed
    assert report["reads"]  # the board and the panel still answer on a full disk
    errors = [line for line in report["log"] if line[0] == "ERROR"]
    assert len(errors) == 1 and "the disk is full" in errors[0][1], report["log"]
    assert not errors[0][2]  # no traceback
    assert [line[1] for line in report["log"] if "works again" in line[1]] != []
    assert report["integrity"] == "ok"


def test_the_bot_refuses_to_start_on_a_read_only_disk(tmp_path: Path) -> None:
    report = _worker(tmp_path, "readonly")
    for mode in ("--check-config", "start"):
        run = report[mode]
        assert run["rc"] == 1, run
        lines = run["stderr"].splitlines()
        assert "Traceback" not in run["stderr"] and TOKEN not in run["stderr"]
        database = [line for line in lines if "ERROR" in line and "database.path:" in line]
        assert len(database) == 1, lines
        assert "read-only" in database[0].lower(), database[0]
    # --check-config names the backup folder too, on the same read-only disk.
    assert any(
        "backup.directory:" in line for line in report["--check-config"]["stderr"].splitlines()
    )


def _as_unprivileged(cmd: list[str]) -> list[str]:
    """`cmd` run so that file permissions apply to it, or skip."""
    if os.geteuid() != 0:
        return cmd
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed")
    # Root without the capabilities that override permission bits: like any other owner.
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", *cmd]


def _locked_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A data folder the bot may read but not write, like a host folder owned by another user."""
    data = tmp_path / "data"
    data.mkdir()
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\npath = "{data / "barrage.sqlite3"}"\n[backup]\ndirectory = "{data / "backups"}"\n'
    )
    data.chmod(
        stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
    )
    return data, config


@pytest.mark.parametrize("args", [[], ["--check-config"]])
def test_an_unwritable_data_folder_gives_one_line_naming_the_setting(
    tmp_path: Path, args: list[str]
) -> None:
    data, config = _locked_folder(tmp_path)
    try:
        run = subprocess.run(
            _as_unprivileged([sys.executable, "-m", "bot", "--config", str(config), *args]),
            cwd=tmp_path,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        data.chmod(0o755)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    problems = [line for line in lines if " ERROR " in line]
    assert any("database.path:" in p and str(data) in p for p in problems), lines
    uid, gid = os.getuid(), os.getgid()
    assert all(f"chown -R {uid}:{gid}" in p for p in problems)
    if args:  # the check reports both folders at once
        assert any("backup.directory:" in p for p in problems) and len(problems) == 2
    else:
        assert len(problems) == 1
    assert list(data.iterdir()) == []  # nothing was created
