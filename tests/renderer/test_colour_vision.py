"""The colour-blind theme's company colours under normal vision and simulated dichromacy.

Machado, Oliveira and Fernandes (2009) at severity 1.0 simulate protanopia, deuteranopia and
tritanopia; CIEDE2000 measures the differences (renderer.vision). bench/colours.py prints the
figures of every theme.
"""

from __future__ import annotations

import itertools

import pytest

from renderer.theme import get_theme
from renderer.vision import VISIONS, ciede2000, difference, lab, parse, simulate

PAIR_MIN = 20
GROUND_MIN = 12


def test_ciede2000_matches_sharmas_published_pairs() -> None:
    """Sharma, Wu and Dalal (2005), pairs 1, 3 and 7 of their table."""
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, -1.3802, -84.2814), (50, 0, -82.7485)) == pytest.approx(1.0, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)


def test_the_simulations_keep_greys_and_tell_apart_what_they_should() -> None:
    """A grey stays grey; red and green collapse for the red-green dichromats, not for tritans."""
    for vision in VISIONS:
        r, g, b = simulate("#808080", vision)
        assert max(r, g, b) - min(r, g, b) < 0.01, vision
    red, green = "#d62728", "#2ca02c"
    assert difference(red, green, "protanopia") < difference(red, green, "normal") / 2
    assert difference(red, green, "deuteranopia") < difference(red, green, "normal") / 2
    assert lab(parse("#ffffff"))[0] == pytest.approx(100, abs=0.01)


def _pairs(theme: str) -> list[tuple[float, str, str, str]]:
    companies = get_theme(theme).companies.values()
    return [
        (difference(a.fill, b.fill, vision), vision, a.company, b.company)
        for vision in VISIONS
        for a, b in itertools.combinations(companies, 2)
    ]


def test_every_pair_of_colour_blind_companies_differs_for_every_vision() -> None:
    worst = min(_pairs("colourblind"))
    assert worst[0] >= PAIR_MIN, worst


def test_each_colour_blind_company_stands_out_from_its_ground_or_outline() -> None:
    """A piece is seen against the background, or (a white one) by its dark outline, which
    itself stands out from the background."""
    theme = get_theme("colourblind")
    ground = theme.colour("background")
    for style in theme.companies.values():
        for vision in VISIONS:
            on_ground = difference(style.fill, ground, vision)
            outlined = min(
                difference(style.fill, style.outline, vision),
                difference(style.outline, ground, vision),
            )
            assert max(on_ground, outlined) >= GROUND_MIN, (style.company, vision)


def test_the_default_palette_is_what_the_issue_measured() -> None:
    """The light theme keeps the reference data's colours: two companies 10.7 apart under
    tritanopia, France 5.2 from the background (its outline sets it off); the colour-blind
    theme is the answer to both."""
    worst = min(_pairs("light"))
    assert worst[0] == pytest.approx(10.7, abs=0.05) and worst[1] == "tritanopia", worst
    light = get_theme("light")
    france = light.company("france")
    assert difference(france.fill, light.colour("background")) == pytest.approx(5.2, abs=0.05)
