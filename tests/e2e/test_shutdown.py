"""Stopping the bot: promptly while Discord is unreachable, and within a bound when wedged.

The regression behind these tests: a bench was stopped without stopping its bot; the bot,
its Discord (the bench's fake) gone, sat in discord.py's reconnection back-off, which grows
to 17 minutes, and a SIGTERM waited that out: it looked as if the bot ignored SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import discord.backoff
import pytest
from fakediscord import FakeDiscord

from bot.commands.runner import end_gateway, run_discord
from bot.config import ENV_TOKEN, Config, DatabaseConfig, load_config
from bot.shutdown import EXIT_FORCED
from bot.store import open_store

ROOT = Path(__file__).resolve().parents[2]
#: A made-up token shaped like Discord's (the settings refuse anything else).
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.SENTNL.wedged-bot-test-token-Zx9"


async def test_a_stop_does_not_wait_out_the_reconnection_back_off(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    # As after many failed attempts: discord.py would wait an hour before the next one.
    monkeypatch.setattr(discord.backoff.ExponentialBackoff, "delay", lambda self: 3600.0)
    config = Config(
        discord=load_config(env={ENV_TOKEN: fake.token}).discord,
        database=DatabaseConfig(path=tmp_path / "games.sqlite3"),
    )
    store = await open_store(str(tmp_path / "games.sqlite3"))
    stop = asyncio.Event()
    bot = asyncio.create_task(run_discord(config, store, stop))
    try:
        await fake.wait_connected(timeout=60)
        async with fake.expect_failures(r"Attempting a reconnect in 3600", timeout=60):
            await fake.stop()  # Discord goes away; the bot's next attempt is an hour off
        stop.set()
        assert await asyncio.wait_for(bot, 60) == 0
    finally:
        bot.cancel()
        await store.close()


async def test_a_gateway_failure_is_still_raised() -> None:
    async def refused() -> None:
        raise discord.PrivilegedIntentsRequired(None)

    failed = asyncio.create_task(refused())
    await asyncio.wait({failed})
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await end_gateway(failed)

    async def asleep() -> None:
        await asyncio.sleep(3600)

    sleeping = asyncio.create_task(asleep())
    await end_gateway(sleeping)
    assert sleeping.cancelled()


#: A bot process whose Discord side hangs: it ignores the stop, or blocks its event loop.
WEDGED_BOT = """
import asyncio, sys, time
from pathlib import Path
from bot.__main__ import serve
from bot.config import Config, DatabaseConfig, load_config
from bot.logs import setup_logging

async def wedged(config, store, stop):
    print("serving", flush=True)
    if sys.argv[1] == "loop-blocked":
        time.sleep(3600)  # a blocking call on the event loop's thread
    await asyncio.Event().wait()  # never looks at `stop`
    return 0

setup_logging("INFO")
config = Config(
    discord=load_config(env={"BARRAGE_BOT_TOKEN": sys.argv[3]}).discord,
    database=DatabaseConfig(path=Path(sys.argv[2])),
)
sys.exit(asyncio.run(serve(config, run=wedged, grace_s=1.0)))
"""


@pytest.mark.parametrize("hang", ["stop-ignored", "loop-blocked"])
def test_sigterm_ends_a_wedged_bot_after_the_grace_period(tmp_path: Path, hang: str) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(WEDGED_BOT),
            hang,
            str(tmp_path / "g.sqlite3"),
            TOKEN,
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "serving"
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=120)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == EXIT_FORCED, errors
    assert "SIGTERM received: shutting down" in errors or hang == "loop-blocked"
    assert "the shutdown did not finish within 1 s: exiting now" in errors
    # The report shows where it hung: in a task's awaits, or on the loop thread's stack.
    assert "wedged (<string>:" in errors or "in wedged" in errors
