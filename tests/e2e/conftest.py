"""Fixtures for the harness tests: a fake Discord and the demo bot running against it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fakediscord import FakeDiscord, run_bot
from fakediscord.fixtures import fake_discord

from .demobot import DemoBot

__all__ = ["bot", "fake", "fake_discord"]


@pytest.fixture
def fake(fake_discord: FakeDiscord) -> FakeDiscord:
    """The fake Discord (checked for problems at teardown)."""
    return fake_discord


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[DemoBot]:
    """The demo bot, logged in and ready."""
    async with run_bot(fake, DemoBot()) as client:
        yield client
