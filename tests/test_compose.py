"""compose.yaml, read as Docker Compose reads it, against what the bot's settings accept.

No container engine runs in the suite: these tests check that every BARRAGE_BOT_*
variable the file sets is one the settings loader reads (and changes the settings it
should), that the bot services' shards cover 0..N-1 exactly once, and that their database
URL names the postgres service with its user, password and database.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot import config as settings
from bot.shutdown import SHUTDOWN_GRACE_S

ROOT = Path(__file__).parents[1]
#: What the operator's .env gives (a token shaped like Discord's, a password).
DOT_ENV = {
    "BARRAGE_BOT_TOKEN": "MTAwMDAwMDAwMDAwMDAwMDAwMQ.COMPSE.compose-test-token-Zx9",
    "POSTGRES_PASSWORD": "s3cret",
}
#: The variables the settings loader reads.
READ_BY_THE_BOT = {
    settings.ENV_TOKEN,
    settings.ENV_CONFIG,
    settings.ENV_DATABASE_URL,
    settings.ENV_SHARD_COUNT,
    settings.ENV_SHARD_IDS,
}
_VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error} substitution."""

    def one(match: re.Match[str]) -> str:
        name, operator, word = match.groups()
        if env.get(name):
            return env[name]
        if operator and operator.endswith("?"):
            raise AssertionError(f"compose would refuse to start: {word}")
        return word if operator and operator.endswith("-") else ""

    return _VARIABLE.sub(one, value)


def compose() -> dict[str, Any]:
    """compose.yaml with its anchors merged (as Compose does)."""
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def bot_services() -> dict[str, dict[str, str]]:
    """Each bot service's environment, interpolated with the operator's .env."""
    found = {}
    for name, service in compose()["services"].items():
        env = service.get("environment") or {}
        if any(key.startswith("BARRAGE_BOT_") for key in env):
            found[name] = {k: interpolate(str(v), DOT_ENV) for k, v in env.items()}
    return found


def test_every_bot_variable_is_one_the_settings_read() -> None:
    services = bot_services()
    assert len(services) >= 2
    for name, env in services.items():
        unknown = {k for k in env if k.startswith("BARRAGE_BOT_")} - READ_BY_THE_BOT
        assert not unknown, f"{name} sets variables the bot never reads: {unknown}"
        config = settings.load_config(env=env)  # raises ConfigError on any bad value
        assert config.discord.token.reveal() == DOT_ENV["BARRAGE_BOT_TOKEN"]
        assert config.database.url is not None
        assert config.database.url.reveal() == env[settings.ENV_DATABASE_URL]
        assert config.discord.shard_count == int(env[settings.ENV_SHARD_COUNT])
        assert config.discord.served_shards() == tuple(
            int(i) for i in env[settings.ENV_SHARD_IDS].split(",")
        )


def test_the_shards_cover_each_shard_once_and_shard_0_registers_the_commands() -> None:
    configs = [settings.load_config(env=env) for env in bot_services().values()]
    counts = {c.discord.shard_count for c in configs}
    assert len(counts) == 1, f"the services disagree on the shard count: {counts}"
    [count] = counts
    served = [shard for c in configs for shard in c.discord.served_shards() or ()]
    assert sorted(served) == list(range(count or 0)), served
    # The process serving shard 0 registers the slash commands (bot/commands/runner.py).
    assert sum(0 in (c.discord.served_shards() or ()) for c in configs) == 1


def test_the_bots_reach_the_postgres_service_as_its_user() -> None:
    services = compose()["services"]
    postgres = services["postgres"]
    pg_env = {k: interpolate(str(v), DOT_ENV) for k, v in postgres["environment"].items()}
    for name, env in bot_services().items():
        url = urlsplit(env[settings.ENV_DATABASE_URL])
        assert url.scheme == "postgresql"
        assert url.hostname == "postgres" and (url.port or 5432) == 5432
        assert url.username == pg_env["POSTGRES_USER"]
        assert url.password == pg_env["POSTGRES_PASSWORD"]
        assert url.path.lstrip("/") == pg_env["POSTGRES_DB"]
        depends = services[name]["depends_on"]
        assert depends["postgres"]["condition"] == "service_healthy"


def test_docker_waits_longer_than_the_bots_own_shutdown_bound() -> None:
    for name, service in compose()["services"].items():
        if name in bot_services():
            assert service["stop_signal"] == "SIGTERM"
            grace = service["stop_grace_period"]
            assert grace.endswith("s") and float(grace[:-1]) > SHUTDOWN_GRACE_S


def test_a_missing_token_or_password_stops_compose_with_a_message() -> None:
    env = compose()["services"]["bot-shard-0"]["environment"]
    with pytest.raises(AssertionError, match=r"set BARRAGE_BOT_TOKEN in \.env"):
        interpolate(env["BARRAGE_BOT_TOKEN"], {})
