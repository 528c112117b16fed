"""Determinization: a copy of the game whose hidden parts are drawn again at random.

A seat sees the board, every face-up offer and every company's supply; it does not see the order
of face-down piles. Before searching, the hidden parts of a copy of the state are re-shuffled
with the search's own generator, consistently with what the seat sees (the same cards, in a
random order), so no answer can depend on the real order. What is hidden, by where it lives:

- `private_piles`: each level's face-down contract pile (the offer stays);
- `patent_piles`: each Patent Office pile; with The Leeghwater Project the tiles it put back in
  the box at setup (`leeghwater.advanced_removed`) are unknown too, so they are shuffled into
  the piles of their level and as many come out again;
- `extra.automa`: each automa's deck (its discard pile and flipped card are public) and the
  generator that will reshuffle its discard;
- `extra.leeghwater.work_piles`: the External Work piles, with the works the box received at
  setup (The Colorado Connection's and The Nile Affair's `works_removed`) mixed in again;
- `extra.nile.zones`: the tokens under the top of each irrigation stack, within their zone.

Face-up things (headstream tiles, bonus and objective tiles, the draft's pairs and starting
contracts, Colorado's settlements and bridges) are left as they are.
"""

from __future__ import annotations

import copy
from dataclasses import fields, is_dataclass
from typing import Any

from bot.rules.catalogue import open_game
from bot.rules.engine import Game
from bot.rules.patent import PILES as PATENT_PILES
from bot.rules.prng import SplitMix64
from bot.rules.state import GameState


def shuffled(items: list[Any], rng: SplitMix64) -> list[Any]:
    """The items in a random order that depends only on which items they are: sorted first, so
    the real (hidden) order cannot show through the shuffle."""
    out = sorted(items, key=str)
    rng.shuffle(out)
    return out


def _mix(piles: dict[str, list[Any]], removed: list[Any], pile_of: Any, rng: SplitMix64) -> list:
    """Shuffle each pile with the removed items that came from it; as many leave again."""
    back: list[Any] = []
    for name in piles:
        own = [item for item in removed if pile_of(item) == name]
        pool = sorted(list(piles[name]) + own, key=str)
        rng.shuffle(pool)
        cut = len(pool) - len(own)
        piles[name] = pool[:cut]
        back += pool[cut:]
    return back


def hide(state: GameState, game: Game, rng: SplitMix64) -> None:
    """Re-draw every hidden part of `state` (a copy) at random, in place."""
    for level in sorted(state.private_piles):
        state.private_piles[level] = shuffled(state.private_piles[level], rng)
    extra = state.extra
    leeghwater = extra.get("leeghwater")
    tiles = game.content.tiles
    if state.patent_piles:
        removed = list(leeghwater.get("advanced_removed", [])) if leeghwater else []
        levels = {name: index for index, name in enumerate(PATENT_PILES, start=1)}

        def pile_of_tile(tile: str) -> str | None:
            level = getattr(tiles.get(tile), "level", None)
            return next((name for name, lv in levels.items() if lv == level), None)

        back = _mix(state.patent_piles, removed, pile_of_tile, rng)
        if leeghwater and removed:
            leeghwater["advanced_removed"] = back
    automa = extra.get("automa")
    if automa:
        for deck in automa["decks"]:
            deck["deck"] = shuffled(deck["deck"], rng)
        automa["rng"] = rng.next64()
    if leeghwater and "work_piles" in leeghwater:
        works = leeghwater["work_piles"]
        owners = [name for name in ("colorado", "nile") if name in extra]
        removed = [w for name in owners for w in extra[name].get("works_removed", [])]
        pile_by_work = {work: pile for pile, items in works.items() for work in items}
        catalogue = getattr(game.content, "external_works", {})
        for work in removed:
            pile_by_work[work] = getattr(catalogue.get(work), "pile", None)
        back = _mix(works, removed, pile_by_work.get, rng)
        for name in owners:
            mine = extra[name].get("works_removed", [])
            extra[name]["works_removed"], back = back[: len(mine)], back[len(mine) :]
    nile = extra.get("nile")
    if nile and "zones" in nile:
        for zone in nile["zones"].values():
            hidden = shuffled([token for stack in zone.values() for token in stack[:-1]], rng)
            for space in zone:
                stack = zone[space]
                under = len(stack) - 1
                if under > 0:
                    zone[space] = [*hidden[:under], stack[-1]]
                    hidden = hidden[under:]


_ATOMS = (str, int, float, bool, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}


def _copied(value: Any) -> Any:
    """A deep copy of a state's value: JSON-like containers and the state's dataclasses."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    if kind is tuple:
        return tuple(_copied(item) for item in value)
    names = _FIELDS.get(kind)
    if names is None:
        if not is_dataclass(value):
            return copy.deepcopy(value)
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    out = object.__new__(kind)
    for name in names:
        object.__setattr__(out, name, _copied(getattr(value, name)))
    return out


def cloned(state: GameState) -> GameState:
    """A deep copy of the state, several times faster than `GameState.clone` (deepcopy),
    which the search calls for every option it tries; equal to it (tests/ai/test_clone.py)."""
    out: GameState = _copied(state)
    return out


def determinized(game: Game, rng: SplitMix64) -> Game:
    """A copy of `game` with its hidden parts re-drawn (the original is never touched)."""
    state = cloned(game.state)
    hide(state, game, rng)
    return open_game(state, game.content)


def copy_game(game: Game) -> Game:
    """An independent game of a copy of the state."""
    return open_game(cloned(game.state), game.content)
