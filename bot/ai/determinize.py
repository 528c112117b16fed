"""Determinization: a copy of the game whose hidden parts are drawn again at random.

A seat sees the board, every face-up offer and every company's supply; it does not see the order
of face-down piles. Before searching, the hidden parts of a copy of the state are re-shuffled
with the search's own generator, consistently with what the seat sees (the same cards, in a
random order), so no answer can depend on the real order. What is hidden, by where it lives:

- `private_piles`: each level's face-down contract pile (the offer stays);
- `patent_piles`: each Patent Office pile;
- `extra.automa`: each automa's deck (its discard pile and flipped card are public) and the
  generator that will reshuffle its discard;
- each expansion's own face-down parts, re-drawn by its `redraw_hidden` hook (for example
  tiles or works it returned to the box at setup, unknown to every seat, are shuffled back
  into their piles and as many come out again; stacked tokens under a face-up top).

Face-up things (headstream tiles, bonus and objective tiles, the draft's pairs and starting
contracts, an expansion's face-up pieces) are left as they are.
"""

from __future__ import annotations

import copy
from dataclasses import fields, is_dataclass
from typing import Any

from bot.rules.catalogue import open_game
from bot.rules.engine import Game
from bot.rules.hidden import shuffled
from bot.rules.hooks import Hooks
from bot.rules.prng import SplitMix64
from bot.rules.state import GameState


def hide(state: GameState, game: Game, rng: SplitMix64) -> None:
    """Re-draw every hidden part of `state` (a copy) at random, in place: the base game's here,
    each expansion's by its `redraw_hidden` hook (after the base game's, in hook order)."""
    for level in sorted(state.private_piles):
        state.private_piles[level] = shuffled(state.private_piles[level], rng)
    for name in sorted(state.patent_piles):
        state.patent_piles[name] = shuffled(state.patent_piles[name], rng)
    automa = state.extra.get("automa")
    if automa:
        for deck in automa["decks"]:
            deck["deck"] = shuffled(deck["deck"], rng)
        automa["rng"] = rng.next64()
    for redraw in game.hooked(Hooks.redraw_hidden):
        redraw(game, state, rng)


_ATOMS = frozenset((str, int, float, bool, type(None)))
_FIELDS: dict[type, tuple[str, ...]] = {}


def _copied(value: Any) -> Any:
    """A deep copy of a state's value: JSON-like containers and the state's dataclasses.

    Atoms inside a container are taken as they are without a call (most of a state's values
    are atoms, and a call for each was most of a copy's cost)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {key: item if type(item) in _ATOMS else _copied(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMS else _copied(item) for item in value]
    if kind is tuple:
        return tuple(item if type(item) in _ATOMS else _copied(item) for item in value)
    names = _FIELDS.get(kind)
    if names is None:
        if not is_dataclass(value):
            return copy.deepcopy(value)
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    out = object.__new__(kind)
    for name in names:
        item = getattr(value, name)
        object.__setattr__(out, name, item if type(item) in _ATOMS else _copied(item))
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
    out = open_game(cloned(game.state), game.content)
    # The same state has the same decisions and options are immutable, so the copy's first
    # `apply` need not list them again (the search copies a game for every option it tries).
    out._decisions = game._decisions
    return out
