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
#: The environment variable with a PostgreSQL URL (it wins over database.url and .path).
ENV_DATABASE_URL = "BARRAGE_BOT_DATABASE_URL"
#: Environment variables for the gateway shards one process serves (they win over the file).
ENV_SHARD_COUNT = "BARRAGE_BOT_SHARD_COUNT"
ENV_SHARD_IDS = "BARRAGE_BOT_SHARD_IDS"
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


def _database_url(value: Any) -> Secret:
    """A PostgreSQL URL (postgresql://user:password@host:port/database); kept secret, since
    it may carry a password."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a PostgreSQL URL such as postgresql://barrage@db.example/barrage")
    scheme, _, rest = value.strip().partition("://")
    if scheme.lower() not in ("postgresql", "postgres") or not rest:
        raise ValueError(
            "a URL starting with postgresql:// (for an SQLite file, set database.path instead)"
        )
    return Secret(value.strip())


def _shard_ids(value: Any) -> tuple[int, ...]:
    """Gateway shard ids: a list of distinct whole numbers >= 0 (or "0,1" from the env)."""
    if isinstance(value, str):
        try:
            value = [int(part) for part in value.split(",") if part.strip()]
        except ValueError:
            raise ValueError("shard ids as a list of whole numbers, e.g. [0, 1]") from None
    if (
        not isinstance(value, list)
        or not value
        or not all(_is_int(v) and v >= 0 for v in value)
        or len(set(value)) != len(value)
    ):
        raise ValueError("a list of distinct shard ids (whole numbers >= 0), e.g. [0, 1]")
    return tuple(sorted(value))


def _count(value: Any) -> int:
    """A whole number >= 1 (also as a string, from the environment)."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not _is_int(value) or value < 1:
        raise ValueError("a whole number >= 1")
    return int(value)


_snowflake = _expect(
    "a Discord id (a positive integer, not in quotes)", lambda v: _is_int(v) and 0 < v < 2**63
)
_positive_int = _expect("a whole number >= 1", lambda v: _is_int(v) and v >= 1)
_non_negative_int = _expect("a whole number >= 0", lambda v: _is_int(v) and v >= 0)
_decider = _expect(
    'a function as "module:function" (the AI\'s is "bot.ai:decide")',
    lambda v: isinstance(v, str) and re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", v) is not None,
)
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
    #: How many gateway shards the whole bot has (None: one process, no sharding).
    shard_count: int | None = field(default=None, metadata=check(_count))
    #: The shards this process serves (None: all of them).
    shard_ids: tuple[int, ...] | None = field(default=None, metadata=check(_shard_ids))

    def served_shards(self) -> tuple[int, ...] | None:
        """The shard ids this process serves, or None when the bot is not sharded."""
        if self.shard_count is None:
            return None
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))


@dataclass(frozen=True)
class DatabaseConfig:
    """[database]: where games are kept."""

    path: Path = field(default=Path("barrage.sqlite3"), metadata=check(_path))
    #: A PostgreSQL server's database instead of the file (several processes may share it).
    url: Secret | None = field(default=None, metadata=check(_database_url, secret=True))

    def target(self) -> str:
        """What `open_store` opens: the PostgreSQL URL if one is set, else the file path."""
        return self.url.reveal() if self.url is not None else str(self.path)

    def describe(self) -> str:
        """The database for log lines: the file, or the URL without its password."""
        if self.url is None:
            return str(self.path)
        from bot.store.urls import redact_url

        return redact_url(self.url.reveal())

    @property
    def setting(self) -> str:
        """The setting that names the database, for messages: database.url or database.path."""
        return "database.url" if self.url is not None else "database.path"


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
class AiConfig:
    """[ai]: the computer player's worker processes."""

    workers: int = field(default=1, metadata=check(_non_negative_int))
    decider: str = field(default="bot.ai:decide", metadata=check(_decider))


@dataclass(frozen=True)
class Config:
    """All settings. Its repr is safe to log: the token shows as a mask."""

    discord: DiscordConfig
    database: DatabaseConfig = field(default_factory=DatabaseConfig)
    backup: BackupConfig = field(default_factory=BackupConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    reminders: RemindersConfig = field(default_factory=RemindersConfig)
    render: RenderConfig = field(default_factory=RenderConfig)
    ai: AiConfig = field(default_factory=AiConfig)
    #: Where the settings came from, for messages: a file path or "defaults".
    source: str = "defaults"


_SECTIONS: dict[str, type] = {
    "discord": DiscordConfig,
    "database": DatabaseConfig,
    "backup": BackupConfig,
    "logging": LoggingConfig,
    "reminders": RemindersConfig,
    "render": RenderConfig,
    "ai": AiConfig,
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


def _shard_problems(discord: DiscordConfig, where: str, sources: Mapping[str, str]) -> list[str]:
    """What is wrong with the shard settings taken together."""
    ids, count = discord.shard_ids, discord.shard_count
    if ids is None:
        return []
    source = sources.get("shard_ids", where)
    if count is None:
        return [
            f"{source}: discord.shard_ids needs discord.shard_count (how many shards the "
            f"whole bot has, across every process)"
        ]
    outside = [i for i in ids if i >= count]
    if outside:
        return [
            f"{source}: discord.shard_ids: shard {outside[0]} does not exist with "
            f"shard_count = {count} (shards are numbered 0 to {count - 1})"
        ]
    return []


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
    database_table: dict[str, Any] = dict(tables.get("database", {}))
    sources: dict[str, dict[str, str]] = {"discord": {}, "database": {}}
    for variable, table, key in (
        (ENV_SHARD_COUNT, discord_table, "shard_count"),
        (ENV_SHARD_IDS, discord_table, "shard_ids"),
        (ENV_DATABASE_URL, database_table, "url"),
    ):
        if env.get(variable, "").strip():
            table[key] = env[variable].strip()
            sources["discord" if table is discord_table else "database"][key] = variable
    env_token = env.get(ENV_TOKEN)
    if env_token is not None:
        discord_table["token"] = env_token.strip()
    elif "token" not in discord_table:
        problems.append(
            f"discord.token: missing; set the {ENV_TOKEN} environment variable or token "
            f"in the [discord] section of {path or DEFAULT_CONFIG_FILE}"
        )
    if env_token is not None:
        sources["discord"]["token"] = ENV_TOKEN
    given = {"discord": discord_table, "database": database_table}
    sections = {
        name: _build_section(
            name, cls, given.get(name, tables.get(name, {})), where, problems, sources.get(name)
        )
        for name, cls in _SECTIONS.items()
    }
    problems += _shard_problems(sections["discord"], where, sources["discord"])
    if problems:
        raise ConfigError(*problems)
    return Config(**sections, source=str(path) if path else "defaults")
