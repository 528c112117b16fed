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

from bot.config import ENV_CONFIG, ENV_TOKEN, Config, ConfigError, load_config
from bot.logs import REDACTED, setup_logging
from bot.store import (
    MigrationError,
    SchemaTooNewError,
    Store,
    SupportsBackup,
    open_store,
    system_clock,
)
from bot.store.backup import run_backups

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
        print(f"barrage-bot: config error: {exc}", file=sys.stderr)
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
        log.info("settings from %s are fine: %r", config.source, config)
        return 0
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
