"""Entry point: `python -m bot` and the `barrage-bot` console script."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from bot.config import (
    ENV_CONFIG,
    ENV_DATABASE_URL,
    ENV_TOKEN,
    Config,
    ConfigError,
    load_config,
)
from bot.logs import REDACTED, setup_logging
from bot.shutdown import SHUTDOWN_GRACE_S, SignalShutdown
from bot.store import (
    DatabaseUnusable,
    MigrationError,
    SchemaTooNewError,
    Store,
    SupportsBackup,
    is_postgres_url,
    open_store,
    redact_url,
    system_clock,
)
from bot.store.backup import list_backups, run_backups
from bot.store.health import check_database, folder_problem

log = logging.getLogger(__name__)

#: What `serve` runs once the store is open: the Discord side of the bot.
Runner = Callable[[Config, Store, asyncio.Event], Awaitable[int]]


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line: an optional config file and a check-only mode."""
    parser = argparse.ArgumentParser(
        prog="barrage-bot",
        description="Play the board game Barrage asynchronously in Discord channels.",
        epilog=f"The token comes from ${ENV_TOKEN} or the config file's [discord] token. "
        "Also: `barrage-bot console` (play in a terminal) and `barrage-bot migrate-db --to "
        "postgresql://...` (move the SQLite file's games to PostgreSQL); each has --help.",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help=f"settings file (default: ${ENV_CONFIG}, else ./config.toml if it exists)",
    )
    parser.add_argument(
        "--check-config", action="store_true", help="check the settings, then exit (0 = fine)"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Read the settings, set up logging and run the bot until SIGINT or SIGTERM."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["console"]:  # the terminal client (bot/console) needs no settings
        from bot.console import main as console_main

        return console_main(argv[1:])
    if argv[:1] == ["migrate-db"]:
        return migrate_db(argv[1:])
    args = _parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        for problem in exc.problems:
            print(f"barrage-bot: config error: {problem}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug in the loader: still never print the token
        message = f"{exc.__class__.__name__}: {exc}"
        token = os.environ.get(ENV_TOKEN, "").strip()
        print(
            f"barrage-bot: could not read the settings: "
            f"{message.replace(token, REDACTED) if token else message}",
            file=sys.stderr,
        )
        return 2
    setup_logging(config.logging.level, secrets=[config.discord.token.reveal()])
    if args.check_config:
        return check_storage(config)
    try:
        return asyncio.run(serve(config))
    except KeyboardInterrupt:  # Ctrl-C before the signal handlers were installed
        return 130
    except Exception:
        log.exception("barrage-bot stopped by an unexpected error")
        return 1


def migrate_db(argv: Sequence[str]) -> int:
    """`barrage-bot migrate-db --to URL`: copy the SQLite store into an empty PostgreSQL one."""
    parser = argparse.ArgumentParser(
        prog="barrage-bot migrate-db",
        description="Copy every table of the SQLite database into an empty PostgreSQL "
        "database, check row counts and content hashes, and commit only if all match. "
        "Stop the bot first: what it writes during or after the copy is not moved.",
    )
    parser.add_argument(
        "--to",
        metavar="URL",
        default=os.environ.get(ENV_DATABASE_URL, "").strip() or None,
        help=f"postgresql://USER:PASSWORD@HOST:PORT/DATABASE (default: ${ENV_DATABASE_URL})",
    )
    parser.add_argument(
        "--from",
        dest="source",
        metavar="FILE",
        help="the SQLite file (default: database.path of the settings file)",
    )
    parser.add_argument("--config", metavar="FILE", help="settings file to read database.path from")
    args = parser.parse_args(argv)
    if not args.to or not is_postgres_url(args.to):
        print(
            "barrage-bot migrate-db: --to must be a postgresql://USER:PASSWORD@HOST:PORT/DATABASE "
            f"URL (or set ${ENV_DATABASE_URL})",
            file=sys.stderr,
        )
        return 2
    with contextlib.suppress(ValueError):
        setup_logging("INFO", secrets=[p for p in [urlsplit(args.to).password] if p])
    source = args.source
    if source is None:
        try:
            # The token is not needed to move the data.
            config = load_config(args.config, {**os.environ, ENV_TOKEN: "unused"})
        except ConfigError as exc:
            for problem in exc.problems:
                print(f"barrage-bot migrate-db: config error: {problem}", file=sys.stderr)
            return 2
        source = str(config.database.path)
    from bot.store.move import MoveRefused, move_to_postgres  # asyncpg only where it is used

    target = redact_url(args.to)
    try:
        copied = asyncio.run(move_to_postgres(source, args.to))
    except (MoveRefused, DatabaseUnusable, SchemaTooNewError, MigrationError) as exc:
        print(f"barrage-bot migrate-db: {exc}; nothing was written", file=sys.stderr)
        return 1
    print(f"copied {source} into {target}:")
    for table in copied:
        print(f"  {table.name:<16} {table.rows:>9} rows  sha256 {table.sha256[:16]} (equal)")
    print(f"set [database] url (or ${ENV_DATABASE_URL}) to use it; keep {source} as a backup")
    return 0


async def serve(
    config: Config, *, run: Runner | None = None, grace_s: float = SHUTDOWN_GRACE_S
) -> int:
    """Open the store (migrating it), start the backups, run the bot, close it all.

    SIGTERM or SIGINT stops it; a stop that takes longer than `grace_s` (or a second
    signal) ends the process at once (see SignalShutdown).
    """
    stop = asyncio.Event()
    shutdown = SignalShutdown(asyncio.get_running_loop(), stop, grace_s=grace_s)
    shutdown.install()
    try:
        # The console starts without these.
        from bot.service.expansions import content_problem, missing_drawings

        drawings = missing_drawings()
        for problem in drawings:
            log.error("%s; set `drawing` in its expansion.toml, or add the module", problem)
        if drawings:
            return 1
        broken = content_problem()
        if broken is not None:
            log.error("the game data cannot be loaded: %s", broken)
            return 1
        database = config.database
        try:
            store = await open_store(database.target(), clock=system_clock)
        except DatabaseUnusable as exc:
            log.error("%s: %s; %s", database.setting, exc, database_advice(exc, config))
            return 1
        except (SchemaTooNewError, MigrationError) as exc:
            log.error("%s", exc)
            return 1
        log.info("database %s is open", database.describe())
        _warn_about_sharing(config)
        backups = _start_backups(config, store)
        try:
            return await (run or run_bot)(config, store, stop)
        finally:
            if backups is not None:
                backups.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await backups
            await store.close()
            log.info("database closed")
    finally:
        shutdown.uninstall()


def check_storage(config: Config) -> int:
    """`--check-config`: the settings, then the database and the backup folder, all reported.

    Nothing is created or changed: folders are tried with a scratch file that is removed.
    """
    problems = []
    database = config.database
    try:
        if database.url is not None:
            from bot.store.postgres import check_server  # asyncpg only where it is used

            asyncio.run(check_server(database.url.reveal()))
        else:
            check_database(str(database.path))
    except DatabaseUnusable as exc:
        problems.append(f"{database.setting}: {exc}; {database_advice(exc, config)}")
    except SchemaTooNewError as exc:
        problems.append(f"{database.setting}: {exc}")
    if config.backup.interval_hours > 0 and database.url is None:
        problem = folder_problem(Path(config.backup.directory))
        if problem:
            problems.append(f"backup.directory: {problem}; {_access_advice()}")
    for problem in problems:
        log.error("%s", problem)
    if problems:
        return 1
    for line in checked_lines(config):
        print(line)
    return 0


def checked_lines(config: Config) -> list[str]:
    """What `--check-config` checked, one line each, and that it is all fine."""
    where = "built-in defaults" if config.source == "defaults" else config.source
    database, backup, reminders = config.database, config.backup, config.reminders
    lines = [
        f"Checked the settings ({where} and the environment):",
        "  discord.token: set, shaped like a bot token (not shown)",
    ]
    if database.url is not None:
        lines.append(f"  database.url: {database.describe()} answers and can be written")
        lines.append("  backups: none of the bot's own with PostgreSQL (use pg_dump)")
    else:
        path = Path(database.path)
        state = (
            "an SQLite database that can be written"
            if path.exists()
            else (
                "not there yet: it will be created at the first start, in a folder that can be "
                "written"
            )
        )
        lines.append(f"  database.path: {path} is {state}")
        if backup.interval_hours > 0:
            lines.append(
                f"  backups: every {backup.interval_hours:g} h to {backup.directory}/ "
                f"(keeping {backup.keep}), a folder that can be written"
            )
        else:
            lines.append("  backups: off (backup.interval_hours = 0)")
    lines.append(
        f"  reminders: first after {reminders.first_after_hours:g} h, then every "
        f"{reminders.repeat_every_hours:g} h, at most {reminders.max_repeats} more"
    )
    shards = config.discord.served_shards()
    if shards is not None:
        lines.append(
            f"  discord: shards {', '.join(map(str, shards))} of {config.discord.shard_count}"
        )
    lines.append(f"  logging.level: {config.logging.level}")
    lines.append("All is fine: the bot can start with these settings.")
    return lines


#: What to do about a PostgreSQL database that cannot be used, by DatabaseUnusable.kind.
_SERVER_ADVICE = {
    "missing": "create the database first (createdb, or CREATE DATABASE as an admin), or fix "
    "the database name in database.url",
    "refused": "check the user name and password in database.url, and that the server lets "
    "that user in from this host (pg_hba.conf)",
    "unreachable": "check that the server runs and that the host and port in database.url "
    "are right; the bot connects again by itself once the server answers",
    "unwritable": "let the user in database.url create tables in the database (GRANT CREATE "
    "ON SCHEMA public), and name the primary server, not a read-only standby",
    "url": "write the URL as postgresql://USER:PASSWORD@HOST:PORT/DATABASE",
}


def database_advice(exc: DatabaseUnusable, config: Config) -> str:
    """What to do about a database that cannot be used, in a few words."""
    if config.database.url is not None:
        return _SERVER_ADVICE.get(exc.kind, "check the database server")
    if exc.kind in ("damaged", "not-a-database"):
        backups = list_backups(config.backup.directory)
        if not backups:
            return (
                f"there is no backup in {config.backup.directory}: move the file aside to "
                "start with an empty database, or set database.path to the right file"
            )
        return (
            f"stop the bot, move the file aside and copy the newest backup in its place: "
            f"cp {backups[-1]} {exc.path}"
        )
    if exc.kind == "folder":
        return f"set database.path to a file name, e.g. {Path(exc.path) / 'barrage.sqlite3'}"
    if exc.kind == "unwritable":
        return _access_advice()
    if exc.kind == "full":
        return "free some space on the disk and start the bot again"
    return "check the disk, or restore the newest backup to another disk"


def _access_advice() -> str:
    """How to give the bot's user access to its folders (Docker's host folders included)."""
    uid, gid = os.getuid(), os.getgid()
    return (
        f"the bot runs as user {uid} (group {gid}): give it write access to the file and its "
        f"folder (for a host folder mounted into Docker: chown -R {uid}:{gid} FOLDER), "
        "or choose a writable place in the settings"
    )


def _warn_about_sharing(config: Config) -> None:
    """Say once when this process is one of several that share an SQLite file."""
    served = config.discord.served_shards()
    count = config.discord.shard_count
    if config.database.url is None and served is not None and count and len(served) < count:
        log.warning(
            "this process serves shards %s of %d, so other processes serve the rest: they "
            "must share this SQLite file on one machine, and they do not wake each other "
            "(announcements wait for a poll); set database.url to a PostgreSQL database",
            ",".join(map(str, served)),
            count,
        )


def _start_backups(config: Config, store: Store) -> asyncio.Task[None] | None:
    """Start the backup schedule, unless it is off or the backend has no file backups."""
    if config.backup.interval_hours <= 0:
        return None
    if not isinstance(store, SupportsBackup):
        log.info("backups of a PostgreSQL database are the server's: see pg_dump in the README")
        return None
    return asyncio.create_task(
        run_backups(
            store,
            config.backup.directory,
            interval_ms=int(config.backup.interval_hours * 3_600_000),
            keep=config.backup.keep,
            clock=system_clock,
        ),
        name="backups",
    )


async def run_bot(config: Config, store: Store, stop: asyncio.Event) -> int:
    """The Discord side: the game service, slash commands and buttons, until `stop` is set."""
    # Imported here so that `--check-config` and the console start without discord.py's cost.
    from bot.commands.runner import run_discord

    return await run_discord(config, store, stop)


if __name__ == "__main__":
    raise SystemExit(main())
