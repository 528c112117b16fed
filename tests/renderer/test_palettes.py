"""The stored palettes (renderer/palettes.json) are the ones the quantizer would build."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from renderer import palette as palettes
from renderer.render import use_text_layout
from renderer.theme import THEMES


@pytest.fixture
def restore_layout() -> Iterator[None]:
    """Put the default layout back (and forget every palette) whatever the test did."""
    yield
    use_text_layout("default")


@pytest.mark.parametrize("layout", ["default", "basic"])
def test_every_themes_stored_palette_is_current(layout: str, restore_layout: None) -> None:
    use_text_layout(layout)  # type: ignore[arg-type]
    stored = palettes._stored_palettes()
    for theme in sorted(THEMES):
        fingerprint, built = palettes.build_palette(theme)
        assert stored.get(fingerprint) == built, (
            f"renderer/palettes.json has no current palette for theme {theme!r} ({layout} "
            "text layout): a background, theme or Pillow changed; run "
            "`python tools/build_palettes.py` and commit the file"
        )


def test_a_stored_palette_is_taken_without_quantizing(
    monkeypatch: pytest.MonkeyPatch, restore_layout: None
) -> None:
    use_text_layout("basic")

    def no_quantizing(*args: object) -> bytes:
        raise AssertionError("the stored palette was not used")

    monkeypatch.setattr(palettes, "_quantized_palette", no_quantizing)
    palettes._palette.cache_clear()
    try:
        taken = bytes(palettes.palette("light").getpalette() or ()).hex()
    finally:
        palettes._palette.cache_clear()
    # The first test checks that the stored palettes are the quantizer's.
    assert taken in palettes._stored_palettes().values()
