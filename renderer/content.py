"""The engine's content (names, costs, map data), loaded once for every view."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def content(expansions: Iterable[str] = ()) -> Any:
    """Return the content of a game with ``expansions`` (contracts 215/216, works...).

    The content of the catalogue the renderer asks (`renderer.expansions.catalogue`: every
    expansion's tables, each marked with its set), with what the game's expansions change
    (``Catalogue.game_content``), so an expansion's contracts, works and tiles resolve.
    """
    from renderer.expansions import catalogue

    found = catalogue()
    return found.game_content(found.content(), tuple(expansions))
