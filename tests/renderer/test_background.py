"""Static map backgrounds: drawn from the engine's map data and the layout, cached, labelled."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageColor

from renderer.background import map_background
from renderer.layout import MAP_LAYOUTS, map_layout
from renderer.theme import THEMES, get_theme


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize("map_id", MAP_LAYOUTS)
def test_background_has_the_layout_size_and_encodes(map_id: str, theme_name: str) -> None:
    image = map_background(map_id, theme_name)
    layout = map_layout(map_id)
    assert image.size == (layout.width, layout.height)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    assert Image.open(io.BytesIO(buf.getvalue())).size == image.size


def test_background_is_drawn_once() -> None:
    assert map_background("base", "light") is map_background("base", "light")


def test_red_outlined_spaces_are_red_and_others_are_not() -> None:
    image = map_background("base", "light")
    theme = get_theme("light")
    red = ImageColor.getrgb(theme.colour("red outline"))
    layout = map_layout("base")
    for space_id, expect_red in (("D5U", True), ("D5L", False), ("P5_1", True), ("P5_0", False)):
        x0, y0, x1, _ = layout.spaces[space_id].rect
        # The middle of the top edge, two pixels in: inside the outline stroke.
        pixel = image.getpixel(((x0 + x1) // 2, y0 + 2))
        assert (pixel == red) is expect_red, space_id


def test_every_space_has_dark_label_ink_at_its_centre_line() -> None:
    image = map_background("base", "light").convert("L")
    for space in map_layout("base").spaces.values():
        x0, y0, x1, y1 = space.rect
        band = image.crop((x0 + 6, y0 + 6, x1 - 6, min(y1 - 6, y0 + 40)))
        assert band.getextrema()[0] < 80, f"no label drawn in {space.id}"
