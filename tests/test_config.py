"""Settings: defaults, the environment, one clear line for each mistake, a hidden token."""

from __future__ import annotations

import dataclasses
import io
import logging
import re
import tomllib
from pathlib import Path

import pytest

from bot.config import (
    ENV_CONFIG,
    ENV_TOKEN,
    Config,
    ConfigError,
    DiscordConfig,
    Secret,
    load_config,
)
from bot.logs import setup_logging

ROOT = Path(__file__).parents[1]
SENTINEL = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.SENTNL.SENTINEL-tok3n-Zx9-never-shown"


def _write(tmp_path: Path, text: str) -> str:
    """A config file with the given text."""
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_token_from_environment_and_defaults_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no ./config.toml here
    config = load_config(env={ENV_TOKEN: SENTINEL})
    assert config.discord.token.reveal() == SENTINEL
    assert config == Config(discord=DiscordConfig(token=Secret(SENTINEL)))
    assert config.database.path == Path("barrage.sqlite3")
    assert config.source == "defaults"


def test_file_settings_are_read(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f'[discord]\ntoken = "{SENTINEL}"\ntest_guild_id = 42\n'
        '[database]\npath = "/data/games.sqlite3"\n[logging]\nlevel = "debug"\n',
    )
    config = load_config(path, env={})
    assert config.discord.token.reveal() == SENTINEL
    assert config.discord.test_guild_id == 42
    assert config.database.path == Path("/data/games.sqlite3")
    assert config.logging.level == "DEBUG"
    assert config.source == path


def test_environment_token_wins_over_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, '[discord]\ntoken = "from-file"\n')
    assert load_config(path, env={ENV_TOKEN: SENTINEL}).discord.token.reveal() == SENTINEL


def test_config_file_from_environment_variable(tmp_path: Path) -> None:
    path = _write(tmp_path, "[render]\nworkers = 0\n")
    config = load_config(env={ENV_CONFIG: path, ENV_TOKEN: SENTINEL})
    assert config.render.workers == 0


def test_example_file_documents_every_setting_with_its_default() -> None:
    text = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    # The optional settings are commented out; uncomment them to see every key.
    data = tomllib.loads(re.sub(r"(?m)^# (\w+ = )", r"\1", text))
    defaults = Config(discord=DiscordConfig(token=Secret("x")))
    for section in dataclasses.fields(Config):
        if section.name == "source":
            continue
        documented = data.pop(section.name)
        for f in dataclasses.fields(getattr(defaults, section.name)):
            assert f.name in documented, f"{section.name}.{f.name} is not documented"
            if f.name == "token" or getattr(getattr(defaults, section.name), f.name) is None:
                continue  # no default: shown as a commented example
            value = documented.pop(f.name)
            default = getattr(getattr(defaults, section.name), f.name)
            assert f.metadata["check"](value) == default, f"{section.name}.{f.name}"
    assert data == {}, "the example documents settings that do not exist"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[backup]\ninterval_hours = "daily"\n', "backup.interval_hours: expected a number"),
        ("[backup]\nkeep = 0\n", "backup.keep: expected a whole number >= 1, got 0"),
        ('[logging]\nlevel = "LOUD"\n', 'logging.level: expected one of "DEBUG"'),
        ('[discord]\ntest_guild_id = "123"\n', "discord.test_guild_id: expected a Discord id"),
        ("[discord]\nsync_commands = true\n", "discord.sync_commands: expected one of"),
        ("[render]\nworkers = -1\n", "render.workers: expected a whole number >= 0"),
        ("[reminders]\nmax_repeats = 1.5\n", "reminders.max_repeats: expected a whole number"),
        ('[database]\npath = ""\n', "database.path: expected a file or directory path"),
        ('[discord]\ntokn = "x"\n', "unknown setting discord.tokn"),
        ("[backups]\nkeep = 1\n", "unknown section or setting 'backups'"),
        ('logging = "INFO"\n', "logging must be a [logging] table"),
        ("[discord\n", "not valid TOML"),
    ],
)
def test_a_bad_setting_gives_one_line_naming_it(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path, env={ENV_TOKEN: SENTINEL})
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_missing_token_says_where_to_put_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=f"discord.token: missing; set the {ENV_TOKEN}"):
        load_config(env={})


def test_missing_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(str(tmp_path / "nope.toml"), env={ENV_TOKEN: SENTINEL})


@pytest.mark.parametrize(
    "text",
    [
        f'[discord]\ntoken = ["{SENTINEL}"]\n',
        f'[discord]\ntoken = "{SENTINEL} with spaces"\n',
        f'[discord]\ntoken = "{SENTINEL}\n',  # unterminated string: a TOML error
        f"[discord]\ntoken = {SENTINEL}\n",  # bare word: a TOML error
    ],
)
def test_a_bad_token_is_never_repeated(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path, env={})
    assert "SENTINEL" not in str(info.value)
    assert "token" in str(info.value) or "TOML" in str(info.value)


def test_a_bad_environment_token_is_not_repeated() -> None:
    with pytest.raises(ConfigError, match=ENV_TOKEN) as info:
        load_config(env={ENV_TOKEN: f"{SENTINEL} {SENTINEL}"})
    assert "SENTINEL" not in str(info.value)


def test_repr_and_str_hide_the_token() -> None:
    config = load_config(env={ENV_TOKEN: SENTINEL})
    for text in (repr(config), str(config), f"{config.discord.token}", repr(config.discord)):
        assert SENTINEL not in text
    assert "********" in repr(config)


def test_logs_never_contain_the_token() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    handler = setup_logging("DEBUG", secrets=[SENTINEL], stream=stream)
    try:
        logger = logging.getLogger("bot.test")
        logger.info("token is %s", SENTINEL)
        try:
            raise RuntimeError(f"login failed for {SENTINEL}")
        except RuntimeError:
            logger.exception("traceback with the token in it")
        logging.getLogger("discord.http").debug("header Authorization: Bot %s", SENTINEL)
    finally:
        root.removeHandler(handler)
        root.handlers[:], root.level = saved
    output = stream.getvalue()
    assert SENTINEL not in output
    assert output.count("[redacted]") == 3
    assert "RuntimeError" in output
