"""Theme rules (text on a phone is measured on the drawn glyphs: test_phone_pictures): opaque colours, colour-blind-safe company styles."""

from __future__ import annotations

import pytest
from PIL import ImageColor

from renderer.theme import THEMES, get_theme


def _luminance(hex_colour: str) -> float:
    """Relative luminance as defined by WCAG 2."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = ImageColor.getrgb(hex_colour)[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_colours_are_opaque_and_parse(theme_name: str) -> None:
    for role, colour in get_theme(theme_name).colours.items():
        assert len(ImageColor.getrgb(colour)) == 3, f"{role} must be opaque RGB"


def test_themes_define_the_same_roles() -> None:
    roles = [set(theme.colours) for theme in THEMES.values()]
    assert all(r == roles[0] for r in roles)


def test_companies_differ_in_colour_letter_and_shape() -> None:
    companies = get_theme().companies.values()
    for attr in ("fill", "letter", "shape"):
        values = [getattr(c, attr) for c in companies]
        assert len(set(values)) == len(values), f"companies share a {attr}"


def test_reference_company_colours() -> None:
    fills = {c.company: c.fill for c in get_theme().companies.values()}
    assert fills == {
        "usa": "#be2748",
        "germany": "#1b1b1b",
        "italy": "#13757e",
        "france": "#ffffff",
        "netherlands": "#ea4e1b",
    }


def test_piece_outline_and_letter_contrast_with_the_fill() -> None:
    for style in get_theme().companies.values():
        # White and black pieces must keep a visible edge on any ground.
        assert _contrast(style.fill, style.outline) >= 3, style.company
        assert _contrast(style.fill, style.ink) >= 3, style.company


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_text_contrasts_with_the_background(theme_name: str) -> None:
    theme = get_theme(theme_name)
    assert _contrast(theme.colour("text"), theme.colour("background")) >= 7
    assert _contrast(theme.colour("space text"), theme.colour("space")) >= 7


def test_unknown_theme_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'sepia'"):
        get_theme("sepia")
