"""The engine's content (names, costs, map data), loaded once for every view."""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def content() -> Any:
    """Return the engine's content (``bot.rules.content.load_content()``), loaded once."""
    from bot.rules.content import load_content

    return load_content()
