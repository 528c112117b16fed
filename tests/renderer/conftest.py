"""Game positions for renderer tests: a fresh game and a seeded mid-game 4-player position."""

from __future__ import annotations

import functools

import pytest
from PIL import Image

from bot.rules import GameOptions, GameState, new_game
from renderer.samples import midgame_state


@functools.cache
def _midgame_json() -> dict:
    return midgame_state().to_json()


@pytest.fixture
def fresh() -> GameState:
    """A new 4-player introductory game, ready to be edited into a position."""
    return new_game(GameOptions(players=4, seed=3)).state


@pytest.fixture
def midgame() -> GameState:
    """Round 3 of a seeded random 4-player game, engineers on the board."""
    return GameState.from_json(_midgame_json())


def body_top(state: GameState, view: str, theme: str = "light", preview: bool = False) -> int:
    """Where a view's body (the map, the boards: the layouts' coordinates) starts, below the
    header with the turn line and the scoreboard."""
    from renderer import header
    from renderer.theme import get_theme

    style = get_theme(theme).views["company" if view == "company" else "map"]
    return header.height(state, style, preview)


def body_image(state: GameState, *, view: str = "map", **kwargs: object) -> Image.Image:
    """A view's body as an RGB image (the header and the key cut off), in layout coordinates."""
    from renderer.render import render_image, shown_key

    image = render_image(state, view=view, **kwargs)  # type: ignore[arg-type]
    from renderer import legend

    theme = str(kwargs.get("theme", "light"))
    top, bottom = body_top(state, view, theme), image.height
    key = legend.key_height(view, state.options.expansions, theme)
    if shown_key(state, view, theme, image.height - key) == key and legend.keyed(
        view, state.options.expansions
    ):
        bottom -= key
    return image.crop((0, top, image.width, bottom))
