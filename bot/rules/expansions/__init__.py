"""The expansions the engine knows; importing this package registers each of them."""

from __future__ import annotations

from bot.rules.expansions import leeghwater  # noqa: F401
from bot.rules.expansions import colorado  # noqa: F401,E402  (after leeghwater: it builds on it)
