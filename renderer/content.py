"""The engine's content (names, costs, map data), loaded once for every view."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any


@functools.cache
def _base() -> Any:
    from bot.rules.content import load_content

    return load_content()


def content(expansions: Iterable[str] = ()) -> Any:
    """Return the engine's content, with what ``expansions`` add (contracts 215/216, works...).

    Without expansions it is ``bot.rules.content.load_content()``; with them, the game's own
    content (``Catalogue.game_content``), so an expansion's contracts and works resolve.
    """
    names = tuple(expansions)
    if not names:
        return _base()
    return _game_content(names)


@functools.cache
def _game_content(names: tuple[str, ...]) -> Any:
    from bot.rules.catalogue import CATALOGUE

    return CATALOGUE.game_content(_base(), names)
