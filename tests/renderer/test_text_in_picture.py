"""Every text the renderer draws lies whole inside its picture, and a panel's texts inside
the panel, for random positions of every setup in every view.

A text whose box leaves the picture is cut for the reader; the fix is a layout that fits by
design (a second line, a defined short form, a narrower column), never a cut with "…" (the
names test, `test_phone_pictures`, forbids those). The positions are denser than the names
test's (a snapshot every few dozen actions of each setup's playout), as the long texts (four
companies' bonus labels, a hand of irrigation tokens, many fulfilled contracts) come and go.
"""

from __future__ import annotations

import functools
import io
import random

import pytest
from PIL import Image

from bot.rules import GameState, new_game
from renderer import draw as d
from renderer.layout import Rect
from renderer.render import forget_pictures, render, views
from tests.renderer.test_phone_pictures import SETUPS

#: Actions between two snapshots of a playout (about 10 per game: some 30 s for the suite).
EVERY = 45


@functools.cache
def _snapshots(name: str) -> tuple[dict, ...]:
    """Snapshots of a random playout of a setup, every `EVERY` actions and at its end."""
    game = new_game(SETUPS[name])
    rng = random.Random(f"edges {name}")
    out = []
    step = 0
    while not game.is_over:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
        step += 1
        if step % EVERY == 0:
            out.append(game.state.to_json())
    out.append(game.state.to_json())
    return tuple(out)


def _every_view(state: GameState) -> list[tuple[str, str | None]]:
    """Every view of a state (the full table too), each company's board."""
    shown: list[tuple[str, str | None]] = []
    for view in views(state.options):
        if view == "company":
            shown += [(view, cid) for cid in state.companies or [None]]
        else:
            shown.append((view, None))
    return shown


def _outside(box: Rect, area: Rect) -> bool:
    x0, y0, x1, y1 = box
    return x0 < area[0] or y0 < area[1] or x1 > area[2] or y1 > area[3]


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_text_lies_inside_its_picture(name: str) -> None:
    forget_pictures()  # static backgrounds are drawn again, so their texts are checked too
    problems: list[str] = []
    for data in _snapshots(name):
        state = GameState.from_json(data)
        for view, company in _every_view(state):
            with d.recording() as texts:
                png = render(state, view=view, company=company)
            width, height = Image.open(io.BytesIO(png)).size
            for text in texts:
                if _outside(text.box, (0, 0, width, height)):
                    problems.append(
                        f"{view} {width}x{height} (round {state.round}): "
                        f"{text.content!r} at {text.box}"
                    )
    assert not problems, "\n".join(sorted(set(problems))[:40])
