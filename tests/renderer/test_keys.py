"""Every view with symbols has its key, in every setup: below the view, or (a company board
that fills a phone's 2:1 already) in its panels' captions."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator

import pytest

from bot.rules import GameOptions
from bot.rules.catalogue import CATALOGUE
from renderer import legend
from renderer.company_view import CAPTIONS, INLINE_CAPTIONS, draft_offer
from renderer.expansions import expansion_views
from renderer.fonts import text_layout
from renderer.samples import played
from renderer.theme import get_theme

render_module = importlib.import_module("renderer.render")  # `renderer.render` is the function

SETUPS = [
    (setup, combo)
    for combo in CATALOGUE.combinations()
    for setup in ("intro", "full")
    if all(setup in CATALOGUE.info(n).setups for n in combo)
]


@pytest.fixture(params=["default", "basic"])
def layout(request: pytest.FixtureRequest) -> Iterator[str]:
    """Both text layouts: a key's lines (and so its height) depend on the text's widths."""
    before = text_layout()
    render_module.use_text_layout(request.param)
    yield request.param
    render_module.use_text_layout(before)


@pytest.mark.parametrize(("setup", "combo"), SETUPS, ids=[f"{s}+{'+'.join(c)}" for s, c in SETUPS])
def test_every_view_of_every_setup_has_its_key(
    setup: str, combo: tuple[str, ...], layout: str
) -> None:
    theme = get_theme()
    inlined = 0
    for players in (2, 3, 4):
        options = GameOptions(players=players, setup=setup, expansions=combo, seed=3)
        state = played(options, (), 1, 0)
        # In the full setup's draft, a company board shows the companies on offer; then the
        # game's (whose scoreboard is taller).
        offered = next(iter(draft_offer(state)), None)
        states = [(state, offered)] if offered else []
        state = played(options, (), 2, 0) if offered else state
        states.append((state, next(iter(state.companies))))
        for (state, company), view in itertools.product(states, render_module.views(options)):
            assert legend.keyed(view, combo), (view, combo)
            parts, (width, height) = render_module._layout(
                state, view, company, theme, frozenset(), False
            )
            keys = [part for part in parts if part.key[0] == "key"]
            below = bool(keys)
            if view == "full":  # its key along the bottom, as wide as the picture
                (key,) = keys
                assert key.at[1] + key.static().height == height, combo
                assert key.static().width == width, combo
            inline = view == "company" and parts[1].key[-1] is True
            assert below != inline, (view, combo, players)
            if view == "company":  # the one view that gives up its key strip for 2:1
                assert height <= 2 * width, (view, combo, players)
            inlined += inline
    # Two expansions' boards at 3 and 4 seats (in the draft and after) say it in captions; a
    # board without the Leeghwater extension always has room below.
    assert inlined >= 4 if len(combo) == 2 else True, combo
    assert inlined == 0 or "leeghwater" in combo, combo


def test_a_board_too_tall_for_its_key_says_every_entry_in_its_captions() -> None:
    said = " · ".join(INLINE_CAPTIONS.values())
    for entry in legend.COMPANY_VIEW_KEY:
        assert entry.symbol in said or entry.meaning.split()[0] in said, entry
    assert set(CAPTIONS) < set(INLINE_CAPTIONS)


@pytest.mark.parametrize(
    "combo", CATALOGUE.combinations(), ids=lambda combo: "+".join(combo) or "base"
)
def test_the_full_views_key_says_each_of_its_parts_entries_once(combo: tuple[str, ...]) -> None:
    full = legend.key_entries("full", combo)
    assert len(set(full)) == len(full), combo
    own = [key for key, _title, _drawing in expansion_views(combo)]
    for view in ("map", "shared", "company", *own):
        assert set(legend.key_entries(view, combo)) <= set(full), (view, combo)
