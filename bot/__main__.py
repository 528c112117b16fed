"""Entry point: `python -m bot` and the `barrage-bot` console script."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from bot.config import ENV_CONFIG, ENV_TOKEN, Config, ConfigError, load_config
from bot.logs import REDACTED, setup_logging
from bot.store import (
    DatabaseUnusable,
    MigrationError,
    SchemaTooNewError,
    Store,
    SupportsBackup,
    open_store,
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
        epilog=f"The token comes from ${ENV_TOKEN} or the config file's [discord] token.",
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


async def serve(config: Config, *, run: Runner | None = None) -> int:
    """Open the store (migrating it), start the backups, run the bot, close it all."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, _on_signal, sig, stop)
    try:
        try:
            store = await open_store(config.database.path, clock=system_clock)
        except DatabaseUnusable as exc:
            log.error("database.path: %s; %s", exc, database_advice(exc, config))
            return 1
        except (SchemaTooNewError, MigrationError) as exc:
            log.error("%s", exc)
            return 1
        log.info("database %s is open", config.database.path)
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
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def check_storage(config: Config) -> int:
    """`--check-config`: the settings, then the database and the backup folder, all reported.

    Nothing is created or changed: folders are tried with a scratch file that is removed.
    """
    problems = []
    try:
        check_database(str(config.database.path))
    except DatabaseUnusable as exc:
        problems.append(f"database.path: {exc}; {database_advice(exc, config)}")
    if config.backup.interval_hours > 0:
        problem = folder_problem(Path(config.backup.directory))
        if problem:
            problems.append(f"backup.directory: {problem}; {_access_advice()}")
    for problem in problems:
        log.error("%s", problem)
    if problems:
        return 1
    log.info("settings from %s are fine: %r", config.source, config)
    log.info(
        "database %s and backup folder %s can be written",
        config.database.path,
        config.backup.directory,
    )
    return 0


def database_advice(exc: DatabaseUnusable, config: Config) -> str:
    """What to do about a database that cannot be used, in a few words."""
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


def _on_signal(sig: signal.Signals, stop: asyncio.Event) -> None:
    """Ask the bot to shut down cleanly."""
    log.info("%s received: shutting down", sig.name)
    stop.set()


def _start_backups(config: Config, store: Store) -> asyncio.Task[None] | None:
    """Start the backup schedule, unless it is off or the backend has no file backups."""
    if config.backup.interval_hours <= 0 or not isinstance(store, SupportsBackup):
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
