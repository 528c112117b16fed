"""Shared fixtures for the rules tests."""

from __future__ import annotations

import pytest

from bot.rules.content import load_content


@pytest.fixture(scope="session")
def content():
    """The packaged game content, loaded once."""
    return load_content()
