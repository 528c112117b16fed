"""Start-up through the real entry point: config errors, the hidden token, clean shutdown."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import serve
from bot.config import ENV_CONFIG, ENV_TOKEN, Config, DatabaseConfig, load_config
from bot.store import Store, latest_schema_version

SENTINEL = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.SENTNL.SENTINEL-tok3n-Zx9-never-shown"


def _start(tmp_path: Path, *args: str, token: str | None = SENTINEL) -> subprocess.CompletedProcess:
    """Run `python -m bot` in an empty directory with the sentinel token in its environment."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV_TOKEN, ENV_CONFIG)}
    if token is not None:
        env[ENV_TOKEN] = token
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ('[backup]\ninterval_hours = "daily"\n', "backup.interval_hours"),
        ('[logging]\nlevel = "LOUD"\n', "logging.level"),
        (
            '[discord]\ntoken = ["MTAwMDAwMDAwMDAwMDAwMDAwMQ.SENTNL.SENTINEL-tok3n-Zx9-never-shown"]\n',
            "discord.token",
        ),
        (
            '[discord]\ntoken = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.SENTNL.SENTINEL-tok3n-Zx9-never-shown\n',
            "not valid TOML",
        ),
        (
            "[discord]\ntoken = MTAwMDAwMDAwMDAwMDAwMDAwMQ.SENTNL.SENTINEL-tok3n-Zx9-never-shown\n",
            "not valid TOML",
        ),
    ],
)
def test_bad_config_stops_start_up_with_one_line_and_no_token(
    tmp_path: Path, config: str, key: str
) -> None:
    (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    token = None if "token" in config else SENTINEL
    result = _start(tmp_path, token=token)
    assert result.returncode == 2
    assert SENTINEL not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and key in lines[0], result.stderr
    assert not (tmp_path / "barrage.sqlite3").exists()  # nothing started


def test_missing_token_stops_start_up(tmp_path: Path) -> None:
    result = _start(tmp_path, token=None)
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "discord.token: missing; set the BARRAGE_BOT_TOKEN environment variable or token "
        "in the [discord] section of config.toml"
    )


def test_check_config_logs_the_settings_without_the_token(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[logging]\nlevel = "DEBUG"\n', encoding="utf-8")
    result = _start(tmp_path, "--check-config")
    assert result.returncode == 0, result.stderr
    # What was checked, in words (not a dump of the settings), and that it is fine.
    lines = result.stdout.splitlines()
    assert lines[0] == "Checked the settings (config.toml and the environment):"
    assert "  discord.token: set, shaped like a bot token (not shown)" in lines
    assert any(line.startswith("  database.path: barrage.sqlite3 is ") for line in lines)
    assert "  logging.level: DEBUG" in lines
    assert lines[-1] == "All is fine: the bot can start with these settings."
    assert "Config(" not in result.stdout + result.stderr
    assert SENTINEL not in result.stdout + result.stderr


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("barrage-bot")
    assert script.exists()
    result = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "--check-config" in result.stdout


async def test_serve_opens_the_store_and_shuts_down_on_sigterm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ENV_TOKEN, SENTINEL)
    config = load_config(env={ENV_TOKEN: SENTINEL})
    config = Config(
        discord=config.discord, database=DatabaseConfig(path=tmp_path / "db" / "games.sqlite3")
    )
    seen: list[Store] = []

    async def fake_bot(config: Config, store: Store, stop: asyncio.Event) -> int:
        seen.append(store)
        assert await store.list_games() == []
        os.kill(os.getpid(), signal.SIGTERM)  # as `docker stop` would
        await asyncio.wait_for(stop.wait(), timeout=30)
        return 0

    assert await serve(config, run=fake_bot) == 0
    assert len(seen) == 1
    con = sqlite3.connect(tmp_path / "db" / "games.sqlite3")
    assert con.execute("PRAGMA user_version").fetchone()[0] == latest_schema_version()
    con.close()
    assert len(list((tmp_path / "backups").iterdir())) == 1  # first backup at start-up
    # The signal handlers are gone again: SIGTERM's default would end pytest here.
    assert signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None)


async def test_serve_refuses_a_database_from_a_newer_release(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "future.sqlite3"
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 999")
    con.close()
    config = Config(
        discord=load_config(env={ENV_TOKEN: SENTINEL}).discord, database=DatabaseConfig(path=path)
    )

    async def never(config: Config, store: Store, stop: asyncio.Event) -> int:
        raise AssertionError("the bot must not start")

    assert await serve(config, run=never) == 1
    assert "newer barrage-bot" in caplog.text
