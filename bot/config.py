"""The bot's settings: config.toml plus the environment, checked once at start-up."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import os
import re
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
    """Settings are missing or wrong: one line per problem, each naming its key."""

    def __init__(self, *problems: str) -> None:
        super().__init__("\n".join(problems))
        #: Every problem found, one line each (all of them, not only the first).
        self.problems = list(problems)


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


#: The README's and config.example.toml's stand-ins for the token.
PLACEHOLDERS = ("paste-the-token-here", "your-bot-token", "...")
_TOKEN_PART = re.compile(r"^[A-Za-z0-9_-]+$")
_WHERE_TO_FIND = "copy it from the Discord Developer Portal (your application, Bot, Reset Token)"


def token_problem(value: str) -> str | None:
    """What is wrong with a bot token's shape, as advice that never repeats the token."""
    lowered = value.lower()
    if not value:
        return "it is empty"
    if lowered in PLACEHOLDERS or "paste" in lowered or "token-here" in lowered:
        return f"it is the placeholder from the README or config.example.toml: {_WHERE_TO_FIND}"
    if lowered.startswith(("bot ", "bearer ")):
        return "it starts with 'Bot ': leave that out, the bot adds it itself"
    if value[0] in "\"'" and value[-1] == value[0]:
        return "it has quotes around it: leave them out"
    if any(c.isspace() for c in value):
        return f"it contains spaces or line breaks; {_WHERE_TO_FIND}"
    if value.isdigit():
        return f"it is a number (the application id?), not the token; {_WHERE_TO_FIND}"
    parts = value.split(".")
    if len(parts) == 1 and len(value) == 32 and value.isalnum():
        return f"it looks like the OAuth2 client secret, not the bot token; {_WHERE_TO_FIND}"
    if (
        len(parts) != 3
        or not all(_TOKEN_PART.match(p) for p in parts)
        or not _encodes_an_id(parts[0])
        or len(parts[1]) < 4
        or len(parts[2]) < 20
    ):
        return (
            "it is not shaped like a bot token (three parts joined by dots, the first "
            f"naming the bot's id); {_WHERE_TO_FIND}"
        )
    return None


def _encodes_an_id(part: str) -> bool:
    """Whether a token's first part is the base64 of a Discord id, as in every bot token."""
    try:
        decoded = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        return False
    return decoded.isdigit() and 0 < len(decoded) <= 20


def _token(value: Any) -> Secret:
    """A Discord bot token, shaped like one (checked before any connection is tried)."""
    if not isinstance(value, str):
        raise ValueError("a Discord bot token as a string")
    problem = token_problem(value)
    if problem:
        raise ValueError(f"a Discord bot token, but {problem}")
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


def _build_section(
    name: str,
    cls: type,
    table: Mapping[str, Any],
    where: str,
    problems: list[str],
    sources: Mapping[str, str] | None = None,
) -> Any:
    """Check one [section] table against its dataclass and build it; add each problem found.

    A wrong value is replaced by its default so that the other settings are still checked.
    `sources` names where a key came from when not from `where` (the environment).
    """
    known = [f.name for f in dataclasses.fields(cls)]
    for key in table:
        if key not in known:
            problems.append(
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
            source = (sources or {}).get(f.name, where)
            problems.append(f"{source}: {name}.{f.name}: expected {exc}{got}")
    if "token" in known and "token" not in values:
        values["token"] = Secret("")  # reported already; only the other checks go on
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
    """Read the config file (if any) and the environment into a checked Config.

    Raises ConfigError listing every problem at once, one line each.
    """
    env = os.environ if env is None else env
    path = _find_file(explicit_file, env)
    data = _read_file(path) if path else {}
    where = str(path) if path else "configuration"
    problems: list[str] = []
    tables: dict[str, Mapping[str, Any]] = {}
    for key, value in data.items():
        if key not in _SECTIONS:
            problems.append(
                f"{where}: unknown section or setting {key!r} (known sections: "
                f"{', '.join(_SECTIONS)})"
            )
        elif not isinstance(value, dict):
            problems.append(f"{where}: {key} must be a [{key}] table")
        else:
            tables[key] = value
    discord_table: dict[str, Any] = dict(tables.get("discord", {}))
    env_token = env.get(ENV_TOKEN)
    if env_token is not None:
        discord_table["token"] = env_token.strip()
    elif "token" not in discord_table:
        problems.append(
            f"discord.token: missing; set the {ENV_TOKEN} environment variable or token "
            f"in the [discord] section of {path or DEFAULT_CONFIG_FILE}"
        )
    sections = {
        name: _build_section(
            name,
            cls,
            discord_table if name == "discord" else tables.get(name, {}),
            where,
            problems,
            {"token": ENV_TOKEN} if env_token is not None else None,
        )
        for name, cls in _SECTIONS.items()
    }
    if problems:
        raise ConfigError(*problems)
    return Config(**sections, source=str(path) if path else "defaults")
