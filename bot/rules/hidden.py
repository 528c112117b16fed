"""Hidden parts drawn again: the helpers a seat's search uses to re-shuffle what it cannot see.

The rules say which parts of a state are face down; a computer player must not use their real
order, so before searching it draws them again at random (`bot.ai.determinize`). The base game
and each expansion re-draw their own parts (the `redraw_hidden` hook); these helpers keep every
re-draw independent of the real order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.prng import SplitMix64


def shuffled(items: list[Any], rng: SplitMix64) -> list[Any]:
    """The items in a random order that depends only on which items they are: sorted first, so
    the real (hidden) order cannot show through the shuffle."""
    out = sorted(items, key=str)
    rng.shuffle(out)
    return out


def mix_back(
    piles: dict[str, list[Any]],
    removed: list[Any],
    pile_of: Callable[[Any], str | None],
    rng: SplitMix64,
) -> list[Any]:
    """Shuffle each pile with the removed (unseen) items that came from it; as many leave
    again, and those are returned as the new removed items."""
    back: list[Any] = []
    for name in piles:
        own = [item for item in removed if pile_of(item) == name]
        pool = sorted([*piles[name], *own], key=str)
        rng.shuffle(pool)
        cut = len(pool) - len(own)
        piles[name] = pool[:cut]
        back += pool[cut:]
    return back
