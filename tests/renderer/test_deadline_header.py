"""A clocked game's deadlines in the header and the alt text: an absolute UTC time (a posted
picture never updates, so never a countdown), the soonest with '+N' when they do not fit."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from PIL import Image, ImageDraw

from bot.rules import GameState
from bot.rules.content import company_name
from renderer import header
from renderer.describe import alt_text
from renderer.render import render
from renderer.theme import ViewStyle, get_theme

#: Thursday 3 December 2026, 14:00 UTC.
THU = int(datetime(2026, 12, 3, 14, 0, tzinfo=UTC).timestamp() * 1000)
HOUR = 3_600_000


def drawn(state: GameState, who: header.Who, width: int | None = None) -> header.Drawn:
    """The header's drawn texts for ``who`` in a map view (``width``: a narrower one)."""
    style = get_theme().views["map"]
    if width is not None:
        style = ViewStyle(width, style.text, style.partial)
    canvas = ImageDraw.Draw(Image.new("RGB", (style.width, 2000)))
    return header.draw_header(canvas, state, get_theme(), style, "", who=who)


def test_a_deadline_is_a_utc_time_in_the_header_and_the_alt_text(midgame: GameState) -> None:
    [now] = header.acting(midgame)
    who = header.Who(deadlines=((now, THU),))
    said = f"{company_name(now)}: by Thu 3 Dec, 14:00 UTC"
    assert drawn(midgame, who).deadline == said
    assert said in alt_text(midgame, "The map", deadlines=who.deadlines)
    style = get_theme().views["map"]
    assert header.height(midgame, style, who=who) == header.height(
        midgame, style, who=header.NOBODY
    ) + header._banner(style)


def test_several_deadlines_each_or_the_soonest_with_how_many_more(midgame: GameState) -> None:
    ids = header.rows(midgame)
    who = header.Who(deadlines=tuple((cid, THU + (3 - i) * HOUR) for i, cid in enumerate(ids)))
    soonest = f"{company_name(ids[-1])}: by Thu 3 Dec, 14:00 UTC"
    wide = drawn(midgame, who, width=4000).deadline
    assert wide.startswith(soonest) and wide.count(": by ") == len(ids)
    assert drawn(midgame, who).deadline == f"{soonest} · +{len(ids) - 1}"
    alt = alt_text(midgame, "The map", deadlines=who.deadlines)
    assert all(f"{company_name(cid)}: by " in alt for cid in ids)


def test_no_clock_draws_no_deadline_line(midgame: GameState) -> None:
    assert drawn(midgame, header.NOBODY).deadline == ""
    assert " UTC" not in alt_text(midgame, "The map")


def test_a_picture_with_a_deadline_is_one_line_taller(fresh: GameState) -> None:
    [now] = header.acting(fresh)
    plain = Image.open(io.BytesIO(render(fresh)))
    clocked = Image.open(io.BytesIO(render(fresh, deadlines=((now, THU),))))
    style = get_theme().views["map"]
    assert clocked.width == plain.width
    assert clocked.height == plain.height + header._banner(style)


def test_the_draft_shows_the_picking_seat_s_deadline() -> None:
    from renderer.samples import draft_state

    state = draft_state()
    [seat] = header.acting(state)
    who = header.Who(deadlines=((seat, THU),))
    assert drawn(state, who).deadline == f"{company_name(seat)}: by Thu 3 Dec, 14:00 UTC"
    style = get_theme().views["map"]
    assert header.height(state, style, who=who) == header.height(state, style) + header._banner(
        style
    )


def test_a_view_the_line_would_take_over_2_to_1_leaves_it_out() -> None:
    """Leeghwater with Colorado, 4 players: the company view fills 2:1 already, so it is
    drawn as without a clock; the map has room and says the deadline."""
    from bot.rules import GameOptions, new_game

    state = new_game(
        GameOptions(players=4, seed=1, setup="full", expansions=("leeghwater", "colorado"))
    ).state
    [seat] = header.acting(state)
    due = ((seat, THU),)
    plain = render(state, view="company")
    assert render(state, view="company", deadlines=due) == plain
    assert Image.open(io.BytesIO(plain)).height <= 2 * Image.open(io.BytesIO(plain)).width
    taller = Image.open(io.BytesIO(render(state, deadlines=due)))
    assert taller.height == Image.open(io.BytesIO(render(state))).height + header._banner(
        get_theme().views["map"]
    )
