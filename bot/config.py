"""The bot's settings: config.toml plus the environment, checked once at start-up."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The environment variable that carries the bot token (it wins over config.toml).
ENV_TOKEN = "BARRAGE_BOT_TOKEN"
#: The environment variable naming the config file (default: ./config.toml if present).
ENV_CONFIG = "BARRAGE_BOT_CONFIG"
DEFAULT_CONFIG_FILE = "config.toml"

SYNC_POLICIES = ("on-change", "always", "never")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A setting is missing or wrong; the message is one line naming the key."""


class Secret:
    """A string that never shows itself in repr, str or format; `reveal()` gives it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        """Wrap the secret value."""
        self._value = value

    def reveal(self) -> str:
        """The secret itself: pass it to the one place that needs it, never to a log."""
        return self._value

    def __repr__(self) -> str:
        """A masked stand-in."""
        return "Secret('********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        """Secrets compare by value."""
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        """Hash by value, like the string."""
        return hash(self._value)


# -- checks: each returns the value to use or raises ValueError("expected ...") --------


def _expect(description: str, ok: Callable[[Any], bool]) -> Callable[[Any], Any]:
    """A check that accepts values for which `ok` holds, else says what was expected."""

    def check(value: Any) -> Any:
        if not ok(value):
            raise ValueError(description)
        return value

    return check


def _is_int(value: Any) -> bool:
    """An integer that is not a bool (TOML true/false must not pass as 1/0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    """An integer or float that is not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _choice(options: tuple[str, ...]) -> Callable[[Any], Any]:
    """A check for one of a few strings (case-insensitive), normalised to the listed case."""
    table = {o.lower(): o for o in options}

    def check(value: Any) -> str:
        if isinstance(value, str) and value.lower() in table:
            return table[value.lower()]
        raise ValueError("one of " + ", ".join(f'"{o}"' for o in options))

    return check


def _path(value: Any) -> Path:
    """A non-empty path string (relative paths are relative to the working directory)."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a file or directory path as a non-empty string")
    return Path(value)


def _token(value: Any) -> Secret:
    """A Discord bot token: a non-empty string without whitespace."""
    if not isinstance(value, str) or not value or any(c.isspace() for c in value):
        raise ValueError("a Discord bot token (a non-empty string without spaces)")
    return Secret(value)


_snowflake = _expect(
    "a Discord id (a positive integer, not in quotes)", lambda v: _is_int(v) and 0 < v < 2**63
)
_positive_int = _expect("a whole number >= 1", lambda v: _is_int(v) and v >= 1)
_non_negative_int = _expect("a whole number >= 0", lambda v: _is_int(v) and v >= 0)
_hours = _expect("a number of hours > 0", lambda v: _is_number(v) and v > 0)
_hours_or_off = _expect(
    "a number of hours >= 0 (0 turns it off)", lambda v: _is_number(v) and v >= 0
)


def check(fn: Callable[[Any], Any], *, secret: bool = False) -> dict[str, Any]:
    """Field metadata: how a setting is checked, and whether its value may be shown."""
    return {"check": fn, "secret": secret}


# -- the settings, section by section; config.example.toml documents each one ----------


@dataclass(frozen=True)
class DiscordConfig:
    """[discord]: how the bot reaches Discord."""

    token: Secret = field(metadata=check(_token, secret=True))
    test_guild_id: int | None = field(default=None, metadata=check(_snowflake))
    sync_commands: str = field(default="on-change", metadata=check(_choice(SYNC_POLICIES)))


@dataclass(frozen=True)
class DatabaseConfig:
    """[database]: where games are kept."""

    path: Path = field(default=Path("barrage.sqlite3"), metadata=check(_path))


@dataclass(frozen=True)
class BackupConfig:
    """[backup]: online copies of the database."""

    directory: Path = field(default=Path("backups"), metadata=check(_path))
    interval_hours: float = field(default=24, metadata=check(_hours_or_off))
    keep: int = field(default=7, metadata=check(_positive_int))


@dataclass(frozen=True)
class LoggingConfig:
    """[logging]: what the bot writes to standard error."""

    level: str = field(default="INFO", metadata=check(_choice(LOG_LEVELS)))


@dataclass(frozen=True)
class RemindersConfig:
    """[reminders]: server defaults; players may choose their own hours."""

    first_after_hours: float = field(default=24, metadata=check(_hours))
    repeat_every_hours: float = field(default=24, metadata=check(_hours))
    max_repeats: int = field(default=3, metadata=check(_non_negative_int))


@dataclass(frozen=True)
class RenderConfig:
    """[render]: the board pictures."""

    workers: int = field(default=2, metadata=check(_non_negative_int))
    cache_size: int = field(default=256, metadata=check(_non_negative_int))


@dataclass(frozen=True)
class Config:
    """All settings. Its repr is safe to log: the token shows as a mask."""

    discord: DiscordConfig
    database: DatabaseConfig = field(default_factory=DatabaseConfig)
    backup: BackupConfig = field(default_factory=BackupConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    reminders: RemindersConfig = field(default_factory=RemindersConfig)
    render: RenderConfig = field(default_factory=RenderConfig)
    #: Where the settings came from, for messages: a file path or "defaults".
    source: str = "defaults"


_SECTIONS: dict[str, type] = {
    "discord": DiscordConfig,
    "database": DatabaseConfig,
    "backup": BackupConfig,
    "logging": LoggingConfig,
    "reminders": RemindersConfig,
    "render": RenderConfig,
}


def _build_section(name: str, cls: type, table: Mapping[str, Any], where: str) -> Any:
    """Check one [section] table against its dataclass and build it."""
    known = [f.name for f in dataclasses.fields(cls)]
    for key in table:
        if key not in known:
            raise ConfigError(
                f"{where}: unknown setting {name}.{key} (known in [{name}]: {', '.join(known)})"
            )
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in table:
            continue
        try:
            values[f.name] = f.metadata["check"](table[f.name])
        except ValueError as exc:
            # A secret's value is never repeated, not even when it is wrong.
            got = "" if f.metadata["secret"] else f", got {table[f.name]!r}"
            raise ConfigError(f"{where}: {name}.{f.name}: expected {exc}{got}") from None
    return cls(**values)


def _find_file(explicit: str | None, env: Mapping[str, str]) -> Path | None:
    """The config file to read: --config, else $BARRAGE_BOT_CONFIG, else ./config.toml."""
    named = explicit or env.get(ENV_CONFIG)
    if named:
        path = Path(named)
        if not path.is_file():
            source = "--config" if explicit else ENV_CONFIG
            raise ConfigError(f"config file {path} (from {source}) does not exist")
        return path
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.is_file() else None


def _read_file(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning any failure into a one-line ConfigError."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message gives the position, never the text around it.
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.__class__.__name__}") from None


def load_config(explicit_file: str | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read the config file (if any) and the environment into a checked Config."""
    env = os.environ if env is None else env
    path = _find_file(explicit_file, env)
    data = _read_file(path) if path else {}
    where = str(path) if path else "configuration"
    for key, value in data.items():
        if key not in _SECTIONS:
            raise ConfigError(
                f"{where}: unknown section or setting {key!r} (known sections: "
                f"{', '.join(_SECTIONS)})"
            )
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: {key} must be a [{key}] table")
    discord_table = dict(data.get("discord", {}))
    env_token = env.get(ENV_TOKEN)
    if env_token is not None:
        # Checked here, so that an error names the variable instead of the file.
        try:
            discord_table["token"] = _token(env_token.strip()).reveal()
        except ValueError as exc:
            raise ConfigError(f"{ENV_TOKEN}: expected {exc}") from None
    if "token" not in discord_table:
        raise ConfigError(
            f"discord.token: missing; set the {ENV_TOKEN} environment variable or token "
            f"in the [discord] section of {path or DEFAULT_CONFIG_FILE}"
        )
    sections = {
        name: _build_section(
            name, cls, discord_table if name == "discord" else data.get(name, {}), where
        )
        for name, cls in _SECTIONS.items()
    }
    return Config(**sections, source=str(path) if path else "defaults")
