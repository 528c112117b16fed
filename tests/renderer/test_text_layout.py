"""The text layout option: Pillow's basic layout on request, today's layout by default."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator

import pytest
from PIL import Image, ImageFont

from bot.rules.state import GameState
from renderer import fonts
from renderer.render import render, use_text_layout


def _pixels(state: GameState, view: str) -> str:
    image = Image.open(io.BytesIO(render(state, view=view)))
    image.load()
    return hashlib.sha256(image.tobytes()).hexdigest()


@pytest.fixture
def restore_layout() -> Iterator[None]:
    """Put the default layout back whatever the test did."""
    yield
    use_text_layout("default")


def test_the_default_is_pillows_own_choice() -> None:
    assert fonts.text_layout() == "default"
    assert (
        fonts.font(20).layout_engine
        == ImageFont.FreeTypeFont(io.BytesIO(fonts._font_bytes("regular")), 20).layout_engine
    )


def test_basic_layout_makes_every_font_basic(restore_layout: None) -> None:
    use_text_layout("basic")
    assert fonts.text_layout() == "basic"
    assert fonts.font(20).layout_engine == ImageFont.Layout.BASIC
    assert fonts.font(31, "bold").layout_engine == ImageFont.Layout.BASIC


def test_switching_layouts_forgets_the_pictures_of_the_other(
    midgame: GameState, restore_layout: None
) -> None:
    # Views cached under the first layout must not come back under the second, and the
    # first layout's pictures are the same again after a round trip.
    before = {view: _pixels(midgame, view) for view in ("map", "company")}
    use_text_layout("basic")
    basic = {view: _pixels(midgame, view) for view in ("map", "company")}
    use_text_layout("default")
    assert {view: _pixels(midgame, view) for view in ("map", "company")} == before
    use_text_layout("basic")
    assert {view: _pixels(midgame, view) for view in ("map", "company")} == basic
    if ImageFont.core.HAVE_RAQM:
        # With libraqm on this host the two layouts place glyphs differently.
        assert basic != before


def test_an_unknown_layout_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"unknown text layout 'raqm2'.*basic"):
        use_text_layout("raqm2")  # type: ignore[arg-type]
    assert fonts.text_layout() == "default"
