"""Views drawn straight onto the palette are the pictures drawn in RGB and mapped, byte for byte.

The suite checks every text's flat claim (`renderer.draw.check_flat`, in conftest), which draws
in RGB; the bot draws most parts straight onto the palette (`renderer.draw.over`). These tests
turn the check off for one render and compare the two, over random positions of every kind of
setup, every view and company board, with highlights, a preview and the dark theme, and check
no part had to be begun again in RGB.
"""

from __future__ import annotations

import importlib
import random

import pytest

from bot.rules import GameOptions, new_game
from bot.rules.state import GameState
from renderer import draw as d
from renderer.render import board_ids, clear_caches, render, views

# The module (the package exports its `render` function under the same name).
rendering = importlib.import_module("renderer.render")

SETUPS = {
    "full-4p-automa": GameOptions(players=3, seed=25, setup="full", automa=(1,)),
    "five-player-map-4p": GameOptions(players=4, seed=26, map="five_player"),
    "colorado-leeghwater-full-2p": GameOptions(
        players=2, seed=30, setup="full", expansions=("colorado", "leeghwater")
    ),
    "nile-leeghwater-full-4p": GameOptions(
        players=4, seed=31, setup="full", expansions=("nile", "leeghwater")
    ),
}


def _positions(options: GameOptions, seed: str, every: int, count: int) -> list[GameState]:
    game = new_game(options)
    rng = random.Random(seed)
    out: list[GameState] = []
    step = 0
    while not game.is_over and len(out) < count:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
        step += 1
        if step % every == 0:
            out.append(game.state.clone())
    return out


def _both(monkeypatch: pytest.MonkeyPatch, state: GameState, **how: object) -> tuple[bytes, bytes]:
    """The picture drawn in RGB (flat claims checked) and drawn onto the palette, each cold."""
    clear_caches()
    in_rgb = render(state, **how)  # type: ignore[arg-type]
    clear_caches()
    with monkeypatch.context() as unchecked:
        unchecked.setattr(d, "_CHECK_FLAT", [False])
        on_palette = render(state, **how)  # type: ignore[arg-type]
    return in_rgb, on_palette


@pytest.mark.parametrize("name", SETUPS)
def test_views_drawn_on_the_palette_equal_the_views_drawn_in_rgb(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(name)
    rendering.DRAWN_AGAIN_IN_RGB.clear()
    for state in _positions(SETUPS[name], name, every=70, count=3):
        for view in views(state.options):
            for company in board_ids(state) if view == "company" else [None]:
                in_rgb, on_palette = _both(monkeypatch, state, view=view, company=company)
                assert in_rgb == on_palette, (name, state.round, view, company)
        view = rng.choice([v for v in views(state.options) if v != "full"])
        lit = tuple(rng.sample(sorted(state.spaces), min(3, len(state.spaces))))
        for how in ({"highlight": lit}, {"preview": True}, {"theme": "dark"}):
            in_rgb, on_palette = _both(monkeypatch, state, view=view, **how)
            assert in_rgb == on_palette, (name, state.round, view, how)
    assert not rendering.DRAWN_AGAIN_IN_RGB, "parts begun on the palette were drawn again in RGB"


def test_a_text_over_a_shape_is_refused_and_the_part_drawn_in_rgb(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A text over a shape drawn on a palette canvas cannot be blended as in the RGB picture:
    the part is drawn again in RGB, with the same picture as a result."""
    from PIL import Image

    background = Image.new("RGB", (64, 32), "#f4f1e8")

    def view(dirty: list[tuple[int, int, int, int]]) -> Image.Image:
        image, draw = d.over(background, dirty)
        draw.rectangle((4, 4, 60, 28), fill="#be2748")
        d.text(draw, (32, 16), "7", 20, "#ffffff")
        return image

    target = rendering._target(
        "light", lambda: background.quantize(palette=rendering.palette("light"))
    )
    rendering.DRAWN_AGAIN_IN_RGB.clear()
    with monkeypatch.context() as unchecked:
        unchecked.setattr(d, "_CHECK_FLAT", [False])
        drawn = rendering._drawer(view)(target)
    assert drawn.image.mode == "RGB"
    assert sum(rendering.DRAWN_AGAIN_IN_RGB.values()) == 1
