"""The expansions the engine knows; importing this package registers each of them."""

from __future__ import annotations

from bot.rules.expansions import colorado, leeghwater, nile  # noqa: F401
