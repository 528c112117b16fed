"""The score sheet: VP by source adds up to each company's VP; the picture decodes."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.rules import GameOptions, new_game
from renderer import score_sheet
from renderer.header import turn_line
from renderer.render import render_score_sheet
from renderer.samples import midgame_state
from renderer.score_sheet import chart_scale, headlines, vp_breakdown


def _finished_game():
    game = new_game(GameOptions(players=4, seed=3))
    rng = random.Random(1)
    events = []
    while not game.is_over:
        decision = rng.choice(game.decisions())
        events += game.apply(rng.choice(decision.options).notation, decision.player)
    return game.state, events


def test_breakdown_sums_to_final_vp_without_other() -> None:
    state, events = _finished_game()
    table = vp_breakdown(state, events)
    for cid, rows in table.items():
        assert sum(rows.values()) == state.companies[cid].vp
        assert "Other" not in rows


def test_missing_events_go_to_other_so_totals_still_match() -> None:
    state, _ = _finished_game()
    table = vp_breakdown(state, [])
    for cid, rows in table.items():
        assert sum(rows.values()) == state.companies[cid].vp


def test_score_sheet_decodes_and_is_opaque() -> None:
    state, events = _finished_game()
    before = state.to_json()
    image = Image.open(io.BytesIO(render_score_sheet(state, events, theme="dark")))
    # A palette PNG without a transparent index: opaque on Discord's light and dark themes.
    assert image.width == 1200 and image.mode == "P" and "transparency" not in image.info
    assert state.to_json() == before


def test_chart_markers_of_equal_or_close_values_do_not_overlap() -> None:
    from renderer.score_sheet import CHART_MARKER, chart_points

    series = {
        "usa": [0, 5, 7],
        "italy": [0, 5, 8],
        "germany": [0, 1, 7],
        "france": [0, 5, 20],
        "netherlands": [0, 9, 7],
    }
    points = chart_points(series, lambda i: 200.0 * (i + 1), lambda v: 400.0 - 10 * v)
    for i in range(3):
        here = [pts[i] for pts in points.values()]
        for a in range(len(here)):
            for b in range(a + 1, len(here)):
                (xa, ya), (xb, yb) = here[a], here[b]
                assert abs(xa - xb) >= 2 * CHART_MARKER or abs(ya - yb) >= 2 * CHART_MARKER
        # A group stays within its round's column (200 px wide here).
        assert max(x for x, _ in here) - min(x for x, _ in here) < 200


def test_sheet_drawn_on_the_palette_equals_the_sheet_drawn_in_rgb_and_mapped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The score sheet is drawn straight onto the palette; drawn in RGB and mapped (as while
    flat claims are checked, which the whole suite does: that checks its texts' claims) it is
    the same picture, finished or not, in both themes."""
    from renderer import draw as d
    from renderer.expansions import drawing

    state, events = _finished_game()
    cases = [(state, events), *((drawing(n).sample_state(), []) for n in ("leeghwater", "nile"))]
    for sheet_state, sheet_events in cases:
        for theme in ("light", "dark"):
            assert d.drawn_in_rgb()
            mapped = render_score_sheet(sheet_state, sheet_events, theme=theme)
            with monkeypatch.context() as unchecked:
                unchecked.setattr(d, "_CHECK_FLAT", [False])
                assert not d.drawn_in_rgb()
                direct = render_score_sheet(sheet_state, sheet_events, theme=theme)
            assert direct == mapped, (sheet_state.options, theme)


def test_palette_canvas_refuses_text_that_would_blend(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text over a shape drawn on a palette canvas needs the RGB picture under it, which the
    canvas does not have: it refuses the text (the part is then drawn in RGB)."""
    from renderer import draw as d

    monkeypatch.setattr(d, "_CHECK_FLAT", [False])
    background = Image.new("RGB", (40, 20), "#ffffff")
    on_palette = background.convert("P")
    target = d.PaletteTarget(lambda: on_palette, lambda colour: 1, lambda s: s.rgb, on_palette)
    _image, canvas = d.over(background, d.Notes(target))
    canvas.rectangle((2, 2, 38, 18), fill="#be2748")
    with pytest.raises(d.NotOnPalette, match="on="):
        d.text(canvas, (20, 10), "7", 14, "#000000")


@pytest.mark.parametrize(
    ("values", "low", "step"),
    [
        ([40, 52, 60], 40, 5),  # mid-game VP between 40 and 60: not squeezed at the top
        ([4, 7], 4, 1),
        ([12, 13, 150], 0, 50),
        ([-3, 5], -5, 5),
        ([10, 10], 8, 1),  # one value: in the middle
        ([0, 0], 0, 1),
    ],
)
def test_a_mid_game_chart_is_scaled_to_its_values(values: list[int], low: int, step: int) -> None:
    assert chart_scale(values, from_zero=False) == (low, step)
    assert low <= min(values) and max(values) <= low + 4 * step


def test_the_final_sheet_charts_start_at_zero() -> None:
    assert chart_scale([40, 60]) == (0, 15)
    assert chart_scale([-3, 5]) == (-3, 3)


def test_the_mid_game_sheet_has_the_turn_line_and_charts_fitted_to_its_rounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = midgame_state()
    assert headlines(state)[1] == turn_line(state)
    scales: list[tuple[int, int]] = []
    real = score_sheet.chart_scale

    def seen(values: list[int], *, from_zero: bool = True) -> tuple[int, int]:
        scales.append(real(values, from_zero=from_zero))
        return scales[-1]

    monkeypatch.setattr(score_sheet, "chart_scale", seen)
    Image.open(io.BytesIO(render_score_sheet(state, []))).load()
    vp = [v for h in state.history for v in h["vp"].values()]
    assert scales[0] == (min(vp), 1)  # VP 4-7 after two rounds: from 4, not from 0


def test_a_sheet_before_any_round_is_scored_says_so_on_its_charts() -> None:
    state = midgame_state(moves_into_round_3=0)
    state.history.clear()  # as in round 1
    assert not state.history
    Image.open(io.BytesIO(render_score_sheet(state, []))).load()  # text on flat colour only
