"""The exception the fake raises in tests."""

from __future__ import annotations


class FakeDiscordError(AssertionError):
    """The bot (or the test) did something real Discord would reject or time out on."""
