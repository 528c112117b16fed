"""Pytest fixtures for the fake Discord; import them in a conftest.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord with discord.py patched; fails the test on any recorded problem."""
    async with FakeDiscord() as fake:
        yield fake
    fake.check()
