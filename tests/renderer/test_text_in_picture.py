"""Every text the renderer draws lies whole inside its picture, and a panel's texts inside
the panel, for random positions of every setup in every view.

A text whose box leaves the picture is cut for the reader; the fix is a layout that fits by
design (a second line, a defined short form, a narrower column), never a cut with "…" (the
names test, `test_phone_pictures`, forbids those). The positions are denser than the names
test's (a snapshot every few dozen actions of each setup's playout), as the long texts (four
companies' bonus labels, a hand of irrigation tokens, many fulfilled contracts) come and go.
"""

from __future__ import annotations

import copy
import functools
import io
import random

import pytest
from PIL import Image

from bot.rules import GameState, new_game
from renderer import draw as d
from renderer.company_view import RIVER_STRIP, draw_company, river_panel
from renderer.layout import Rect, board_layout
from renderer.render import forget_pictures, render, views
from renderer.shared_view import draw_shared
from renderer.theme import get_theme
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
                # In the whole picture: a body's text running off the bottom by less than the
                # header's height would pass if its box were taken in the body's part.
                if _outside(text.placed, (0, 0, width, height)):
                    problems.append(
                        f"{view} {width}x{height} (round {state.round}): "
                        f"{text.content!r} at {text.placed}"
                    )
    assert not problems, "\n".join(sorted(set(problems))[:40])


def _crowded(name: str, change) -> GameState:
    """A mid-game position of a setup with ``change(data)`` made to its companies."""
    data = copy.deepcopy(_snapshots(name)[len(_snapshots(name)) // 2])
    for cid, company in data["companies"].items():
        change(data, cid, company)
    return GameState.from_json(data)


def test_the_bonus_now_labels_and_the_objective_stay_on_their_panels() -> None:
    """Four companies each scoring a reduced reward in round 5 (the longest labels)."""

    def behind(data: dict, _cid: str, company: dict) -> None:
        data["round"] = 5
        company["energy"] = 7  # eligible, four sections behind: 16 VP off

    state = _crowded("full-4p", behind)
    layout = board_layout("shared")
    forget_pictures()  # the body alone: its texts in its own coordinates, not the picture's
    with d.recording() as texts:
        draw_shared(state, get_theme())
    track = layout.rects["energy_track"]
    heading_row = [t for t in texts if t.box[3] < track[1] and t.box[1] < 60]
    assert any(t.content.startswith("bonus now") for t in heading_row)
    for text in heading_row:
        assert text.box[2] <= track[2], (text.content, text.box)
    objective = [t for t in texts if t.content.startswith("Objective")]
    assert objective
    for text in objective:
        assert not _outside(text.box, layout.rects["objective"]), (text.content, text.box)


@pytest.mark.parametrize("held", [0, 2, 4, 5])
def test_many_fulfilled_contracts_never_cover_a_held_one(held: int) -> None:
    """Fourteen contracts fulfilled beside none to five held (a raised limit): every one is
    told (listed, or counted on the heading's row), and no text covers another."""
    fulfilled = [203, 204, 205, 206, 302, 303, 304, 305, 402, 403, 404, 405, 1, 2]

    def busy(_data: dict, _cid: str, company: dict) -> None:
        company["contracts"] = [201, 202, 301, 401, 406][:held]
        company["fulfilled"] = fulfilled

    state = _crowded("full-4p", busy)
    panel = board_layout("company").rects["contracts"]
    forget_pictures()
    for cid in state.companies:
        with d.recording() as texts:
            draw_company(state, cid, get_theme())
        inside = [t for t in texts if not _outside(t.box, panel)]
        told = " ".join(t.content for t in inside if "ulfilled" in t.content or t.box[0] < 30)
        assert f"{len(fulfilled)} fulfilled" in told or all(
            f"{f}," in told or told.endswith(str(f)) for f in fulfilled
        ), (cid, told)
        for i, one in enumerate(inside):
            for other in inside[i + 1 :]:
                assert not _overlap(one.box, other.box), (one.content, other.content)


def test_a_hand_of_irrigation_tokens_fits_the_strip() -> None:
    every = [f"I{kind}{n}" for kind in "MHP" for n in range(1, 9)]

    def hand(_data: dict, cid: str, company: dict) -> None:
        company["extra"]["irrigation"] = every
        company["extra"]["irrigation_down"] = every[::3]
        company["extra"]["irrigation_scoring"] = ["IS1", "IS2", "IS3", "IS4", "IS5"]

    state = _crowded("nile-3p", hand)
    forget_pictures()
    cid = next(iter(state.companies))
    with d.recording() as texts:
        height = draw_company(state, cid, get_theme()).height
    strip = river_panel(height - RIVER_STRIP)
    lines = [t for t in texts if t.box[1] > strip[1] + 30]
    assert len(lines) == 2
    for text in lines:
        assert not _outside(text.box, strip), (text.content, text.box)


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_texts_are_placed_in_the_whole_picture(midgame: GameState) -> None:
    """A text's box is taken in its part, and placed in the whole picture by the part's corner:
    the body's texts lie below the header, the full board's half-size boards' where they go."""
    from tests.renderer.conftest import body_top

    forget_pictures()
    with d.recording() as texts:
        render(midgame, view="map")
    top = body_top(midgame, "map")
    body = [t for t in texts if t.origin != (0, 0)]
    assert body and all(t.origin == (0, top) for t in body)
    assert all(t.placed[1] == t.box[1] + top for t in body)
    with d.recording() as texts:
        render(midgame, view="full")
    halves = [t for t in texts if t.half]
    assert halves and all(t.origin != (0, 0) for t in halves)
    assert all(
        t.placed[:2] == (t.box[0] // 2 + t.origin[0], t.box[1] // 2 + t.origin[1]) for t in halves
    )
