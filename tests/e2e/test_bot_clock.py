"""The turn clock through Discord on a shifted clock: `/barrage new clock: timeout:`, the
deadline as a Discord timestamp, `/barrage games`, `/barrage away`, and each timeout policy
acted on by the running bot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fakediscord import FakeDiscord, Message

from bot.service import ServiceConfig
from tests.aiplayer import DECIDER
from tests.commands.kit import FakeClock, barrage_bot, start_game, wait_turn_message

CONFIG = ServiceConfig(
    reminder_hours=24,
    reminder_cap=2,
    # The fake clock jumps by days while the bot runs: no jump is an outage here (outages are
    # tested in tests/service/test_turn_clock.py).
    extra={"ai_decider": DECIDER, "ai_workers_kind": "inline", "outage_gap_ms": 10**12},
)
TIMESTAMP = re.compile(r"<t:(\d+):R>")


async def announcement(fake: FakeDiscord, needle: str) -> Message:
    """The public message that contains `needle`."""
    return await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.channel_messages(fake.general)
                if not m.ephemeral and needle in m.content
            ),
            None,
        ),
        timeout=10,
        what=f"an announcement with {needle!r}",
    )


@pytest.mark.parametrize(
    ("policy", "told"),
    [
        ("skip", "their turn passed"),
        ("ai", "the AI (strong) played this turn for them"),
        ("wait", "a moderator may replace them"),
    ],
)
async def test_each_timeout_policy_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path, policy: str, told: str
) -> None:
    fake = fake_discord
    clock = FakeClock()
    async with barrage_bot(fake, tmp_path / "db.sqlite3", clock, service_config=CONFIG):
        _, turn = await start_game(
            fake, [fake.alice, fake.bob], seed=3, clock="12h", timeout=policy
        )
        [late] = turn.mentions
        # The deadline as a Discord timestamp: 12 hours and a bank of 24.
        assert TIMESTAMP.findall(turn.content), turn.content
        [seconds] = TIMESTAMP.findall(turn.content)
        assert int(seconds) * 1000 == clock.now + 36 * 3_600_000
        listed = await (await fake.users[late].slash("barrage games")).reply()
        assert f"time runs out <t:{seconds}:R>" in listed.content
        clock.advance(hours=37)
        expired = await announcement(fake, "Time is up for")
        assert told in expired.content and f"<@{late}>" in expired.content
        if policy == "wait":
            assert expired.mentions == []  # told, not pinged again: the reminders ping
        else:
            after = await wait_turn_message(fake, after=expired.id - 1)
            other = next(u.id for u in (fake.alice, fake.bob) if u.id != late)
            assert other in after.mentions  # the next player is pinged as usual
            assert late not in after.mentions


async def test_away_stops_the_clock_and_every_turn_message_says_so(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = FakeClock()
    async with barrage_bot(fake, tmp_path / "db.sqlite3", clock, service_config=CONFIG):
        _, turn = await start_game(
            fake, [fake.alice, fake.bob], seed=3, clock="12h", timeout="skip"
        )
        [late] = turn.mentions
        other = next(u for u in (fake.alice, fake.bob) if u.id != late)
        reply = await (await fake.users[late].slash("barrage away", days=2)).reply()
        assert re.search(r"You are away until <t:\d+:D>", reply.content)
        shown = await (await fake.users[late].slash("barrage settings")).reply()
        assert "• Away (`/barrage away`): until <t:" in shown.content
        listed = await (await fake.users[late].slash("barrage games")).reply()
        [seconds] = TIMESTAMP.findall(listed.content)
        assert int(seconds) * 1000 == clock.now + (36 + 48) * 3_600_000  # two days later
        back = await (await fake.users[late].slash("barrage away", days=0)).reply()
        assert "Welcome back" in back.content
        shown = await (await fake.users[late].slash("barrage settings")).reply()
        assert "• Away (`/barrage away`): no" in shown.content
        await (await other.slash("barrage away", days=5)).reply()
        clock.advance(hours=37)  # the late player's time runs out: the turn passes...
        expired = await announcement(fake, "Time is up for")
        # ...and the turn message says who is away, until when (a date in each reader's zone).
        assert re.search(rf"<@{other.id}> is away until <t:\d+:D>", expired.content)


async def test_the_lobby_states_the_clock_and_the_limit_of_days_away(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock(), service_config=CONFIG):
        lobby = await (
            await fake.alice.slash("barrage new", players=2, clock="24h", timeout="ai")
        ).reply()
        assert "a 24-hour clock per turn (when time runs out: the AI plays" in lobby.content
        assert "at most 14 days per player" in lobby.content
