"""The end-of-game score sheet: final VP by source and VP and energy per round per company."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.events import Event
from bot.rules.state import GameState
from bot.rules.wording import OTHER_ROW, score_row, score_rows
from renderer import draw as d
from renderer import names
from renderer.content import content
from renderer.expansions import catalogue
from renderer.header import turn_line
from renderer.layout import Rect
from renderer.people import Player, by_company, computer
from renderer.theme import Theme, get_theme

WIDTH = 1200


def categories(expansions: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
    """The game's score row of each event source prefix, and of sources named by how they
    start (`bot.rules.wording.score_rows`)."""
    known = catalogue().hook_order(e for e in expansions if e in catalogue())
    return score_rows(catalogue().info(name) for name in known)


OTHER = OTHER_ROW
CHART_MARKER = 21  # radius of a company's marker on the charts (holds its letter)
CHART_SPREAD = 48  # sideways step between markers of equal value


def vp_breakdown(state: GameState, events: Iterable[Event]) -> dict[str, dict[str, int]]:
    """Return {company: {category: VP}} from VP events; "Start" and "Other" keep totals exact."""
    start = content().costs.starting_vp
    rows_of, prefixes = categories(state.options.expansions)
    table: dict[str, dict[str, int]] = {cid: defaultdict(int) for cid in state.companies}
    for event in events:
        if getattr(event, "kind", None) != "vp" or event.company not in table:
            continue
        category = score_row(event.source, rows_of, prefixes)
        table[event.company][category] += event.amount
    out: dict[str, dict[str, int]] = {}
    for cid, rows in table.items():
        rows = dict(rows)
        # Events the caller did not keep would make the sum drift from the state: say so.
        missing = state.companies[cid].vp - start - sum(rows.values())
        if missing:
            rows[OTHER] = rows.get(OTHER, 0) + missing
        out[cid] = {"Start": start, **rows}
    return out


def ranking_of(state: GameState) -> list[str]:
    """The companies by final place (by VP while the game goes on)."""
    ranking = [r["company"] for r in state.result.get("ranking", [])] or sorted(
        state.companies, key=lambda c: -state.companies[c].vp
    )
    return [c for c in ranking if c in state.companies]


def headlines(state: GameState) -> tuple[str, ...]:
    """The headline ('USA wins with 120 VP', 'France and Italy share the win with 98 VP', or
    the round), then shorter forms of it (a shared win of many companies does not fit the
    sheet's width: the table below names them all by place)."""
    ranking = state.result.get("ranking", [])
    if not state.finished or not ranking:
        # Mid-game: the turn line (whose turn it is), then what the table adds up.
        now = turn_line(state)
        scored = (
            f"score after round {state.round - 1}" if state.round > 1 else "no round scored yet"
        )
        return (f"{now} · {scored}", now, "Score")
    winners = [r for r in ranking if r.get("place") == 1]
    names = [company_name(r["company"]) for r in winners]
    vp = winners[0]["vp"]
    if len(names) == 1:
        return (f"{names[0]} wins with {vp} VP", f"{names[0]} wins · {vp} VP")
    together = f"{', '.join(names[:-1])} and {names[-1]}"
    return (
        f"{together} share the win with {vp} VP",
        f"{together} share the win",
        f"Shared win · {vp} VP",
    )


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """Where the score sheet's parts go: its rows of VP by source and its height."""

    rows: tuple[str, ...]
    top: int  # the table's top (below the headline)
    table_h: int
    height: int
    winner: bool  # the headline is the winner's, on a highlighted box

    @property
    def charts(self) -> tuple[Rect, Rect]:
        """The VP chart's and the energy chart's panels."""
        y0 = self.top + self.table_h + 16
        return (
            (12, y0, WIDTH - 12, y0 + CHART_H),
            (12, y0 + CHART_H + 16, WIDTH - 12, y0 + 2 * CHART_H + 16),
        )


LINE = 48  # a table row's height
CHART_H = 460


def sheet_layout(
    state: GameState, breakdown: Mapping[str, Mapping[str, int]], theme: Theme
) -> SheetLayout:
    """The score sheet's layout for ``state`` and its VP by source (`vp_breakdown`)."""
    board = theme.views["shared"].text["board"]
    ranking = ranking_of(state)
    places = {r["company"]: r["place"] for r in state.result.get("ranking", [])}
    rows_of, prefixes = categories(state.options.expansions)
    rows = ["Start", *dict.fromkeys([*rows_of.values(), *prefixes.values()]), OTHER]
    rows = [r for r in rows if any(breakdown[c].get(r) for c in ranking) or r == "Start"]
    table_h = 124 + LINE * (len(rows) + 1) + 12
    top = 12 + board + 30
    height = top + table_h + 2 * (CHART_H + 16) + 12
    winner = bool(state.finished and ranking and places.get(ranking[0]) == 1)
    return SheetLayout(tuple(rows), top, table_h, height, winner)


@functools.lru_cache(maxsize=2)
def sheet_background(layout: SheetLayout, theme_name: str) -> Image.Image:
    """The score sheet's static background (callers ``copy()`` it): its panels, the table's
    heading and the charts' grid lines, which depend only on the layout."""
    theme = get_theme(theme_name)
    image = Image.new("RGB", (WIDTH, layout.height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    top, table_h = layout.top, layout.table_h
    if layout.winner:
        d.box(
            draw,
            (12, 8, WIDTH - 12, top - 8),
            theme.colour("highlight"),
            theme.colour("text"),
            3,
            12,
        )
    d.box(
        draw,
        (12, top, WIDTH - 12, top + table_h),
        theme.colour("panel"),
        theme.colour("panel outline"),
    )
    sizes = theme.views["shared"].text
    d.text(
        draw, (28, top + 20), "VP by source", sizes["heading"], theme.colour("text"), anchor="la"
    )
    for rect in layout.charts:
        d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"))
        px0, py0, px1, py1 = _plot(rect)
        for i in range(5):
            yy = py1 - (py1 - py0) * i / 4
            draw.line((px0, yy, px1, yy), fill=theme.colour("track"), width=2)
    return image


def _plot(rect: Rect) -> Rect:
    """A chart's plotting area inside its panel."""
    x0, y0, x1, y1 = rect
    return x0 + 96, y0 + 80, x1 - 40, y1 - 70


def draw_sheet(
    state: GameState,
    breakdown: Mapping[str, Mapping[str, int]],
    layout: SheetLayout,
    theme: Theme,
    dirty: list[Rect] | None = None,
    players: tuple[Player, ...] = (),
) -> Image.Image:
    """Return the score sheet of ``state`` as a new picture, drawn over its background
    (`draw.over`: straight onto the palette when ``dirty`` names one): the winner, VP by
    source per company (by place), and the VP and energy of each round through final scoring.

    Every text lies on a flat colour and says so (``on``); the rest is pieces and hard-edged
    lines."""
    image, draw = d.over(sheet_background(layout, theme.name), dirty)
    sizes = theme.views["shared"].text
    small, board = sizes["small"], sizes["board"]
    ranking = ranking_of(state)
    named = by_company(players)
    places = {r["company"]: r["place"] for r in state.result.get("ranking", [])}
    rows, top, line = layout.rows, layout.top, LINE
    text, muted = theme.colour("text"), theme.colour("text muted")
    panel = theme.colour("panel")
    winner = layout.winner
    left = 86 if winner else 24
    head = d.first_fitting(headlines(state), board, WIDTH - 28 - left, "bold")
    if winner:
        d.piece(draw, (48, (top) // 2), 24, theme.company(ranking[0]), small)
    ink = "#1b1b1b" if winner else text
    under = theme.colour("highlight" if winner else "background")
    d.text(
        draw,
        (left, top // 2),
        head,
        board,
        ink,
        anchor="lm",
        role="board",
        on=under,
    )

    label_w = 400
    col = (WIDTH - 24 - label_w) // max(len(ranking), 1)
    for i, cid in enumerate(ranking):
        cx = 12 + label_w + i * col + col // 2
        place = _ordinal(places[cid]) if cid in places else ""
        shift = (d.text_width(place, small, "bold") + 12) // 2 if place else 0
        d.piece(draw, (round(cx - shift), top + 38), 24, theme.company(cid), small)
        if place:
            d.text(
                draw, (round(cx - shift + 32), top + 38), place, small, text, "bold", "lm", on=panel
            )
        seat = computer(state, cid, named.get(cid))
        player = named.get(cid)
        who = ""
        if seat is not None:
            who = names.fitted(seat.named_mark(), "", small, col - 8)
        elif player is not None:
            who = names.fitted(player.name, player.fallback, small, col - 8)
        if who:
            # Who played it, under their company's piece (the piece names the company).
            masked = names.masked(who, small, "mm")
            d.coverage(
                draw, (cx, top + 90), masked, who, small, text, "regular", on=panel, face="n"
            )
            continue
        name = company_name(cid)
        if not d.fits(name, small, col - 8):
            name = theme.company(cid).letter
        d.text(draw, (cx, top + 90), name, small, text, "regular", on=panel)
    y = top + 124
    for r in rows:
        d.text(draw, (28, y + line // 2), r, sizes["label"], text, "regular", "lm", on=panel)
        for i, cid in enumerate(ranking):
            value = breakdown[cid].get(r, 0)
            cx = 12 + label_w + i * col + col // 2
            shown = str(value) if value else "–"
            d.text(
                draw,
                (cx, y + line // 2),
                shown,
                sizes["value"],
                text if value else muted,
                "regular",
                on=panel,
            )
        y += line
    draw.line((24, y, WIDTH - 24, y), fill=theme.colour("panel outline"), width=2)
    d.text(draw, (28, y + line // 2), "Total VP", sizes["label"], text, anchor="lm", on=panel)
    for i, cid in enumerate(ranking):
        cx = 12 + label_w + i * col + col // 2
        vp = str(state.companies[cid].vp)
        d.text(draw, (cx, y + line // 2), vp, sizes["value"], text, on=panel)

    vp_chart, energy_chart = layout.charts
    history = state.history
    vp_series = {cid: [h["vp"].get(cid, 0) for h in history] for cid in ranking}
    labels = [f"R{h.get('round', i + 1)}" for i, h in enumerate(history)]
    if state.finished:
        # The last point is after the final scoring (objective, resources, water, Buildings).
        for cid in ranking:
            vp_series[cid].append(state.companies[cid].vp)
        labels.append("end")
    _chart(
        draw,
        vp_chart,
        "VP after each round and at the end" if state.finished else "VP after each round",
        vp_series,
        theme,
        labels,
        from_zero=state.finished,  # mid-game: the scale fits the rounds so far
    )
    _chart(
        draw,
        energy_chart,
        "Energy produced in each round",
        {cid: [h["energy"].get(cid, 0) for h in history] for cid in ranking},
        theme,
        [f"R{h.get('round', i + 1)}" for i, h in enumerate(history)],
        from_zero=state.finished,
    )
    return image


def _ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th."""
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def _chart(
    draw: ImageDraw.ImageDraw,
    rect: tuple[int, int, int, int],
    title: str,
    series: Mapping[str, list[int]],
    theme: Theme,
    labels: list[str],
    *,
    from_zero: bool = True,
) -> None:
    """A line chart of one value per company and per point (``labels`` name the points), on
    its panel and grid lines (`sheet_background`), its scale from 0 or (not ``from_zero``)
    fitted to the values (`chart_scale`)."""
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    x0, y0 = rect[:2]
    panel = theme.colour("panel")
    d.text(draw, (x0 + 12, y0 + 8), title, sizes["heading"], text, anchor="la", on=panel)
    px0, py0, px1, py1 = _plot(rect)
    rounds = max((len(v) for v in series.values()), default=0)
    if not rounds:  # the first round: nothing to scale to yet
        middle = ((px0 + px1) // 2, py0 + (py1 - py0) * 3 // 8)  # between two grid lines
        d.text(draw, middle, "No round scored yet", sizes["label"], muted, "regular", on=panel)
        return
    low, step = chart_scale([x for v in series.values() for x in v], from_zero=from_zero)
    top = step * 4
    for i in range(5):
        yy = py1 - (py1 - py0) * i / 4
        label = str(low + step * i)
        d.text(draw, (px0 - 12, yy), label, sizes["small"], muted, "regular", "rm", on=panel)
    n = max(rounds, 1)

    def y_of(v: int) -> float:
        return py1 - (py1 - py0) * (v - low) / top

    points = chart_points(series, lambda i: px0 + (px1 - px0) * (i + 0.5) / n, y_of)

    for i, label in enumerate(labels[:rounds]):
        d.text(
            draw,
            (px0 + (px1 - px0) * (i + 0.5) / n, py1 + 46),
            label,
            sizes["small"],
            muted,
            "regular",
            on=panel,
        )
    for cid, pts in points.items():
        style = theme.company(cid)
        if len(pts) > 1:
            draw.line(pts, fill=style.outline, width=8, joint="curve")
            draw.line(pts, fill=style.fill, width=4, joint="curve")
        for p in pts:
            d.piece(draw, (round(p[0]), round(p[1])), CHART_MARKER, style, sizes["small"])


def chart_scale(values: list[int], *, from_zero: bool = True) -> tuple[int, int]:
    """The lowest grid line's value and the step between the chart's five grid lines.

    From 0 (or below it, when a company ended a round in debt of VP), in steps of 1 or
    more; not ``from_zero``, fitted to the values in a round step (1, 2, 5, 10, 20, 50, …),
    so a mid-game chart of VP between 40 and 60 is not squeezed against its top.
    """
    if from_zero:
        high, low = max([1, *values]), min([0, *values])
        step = max(1, -(-(high - low) // 4))
        while high > (low // step) * step + 4 * step:
            step += 1
        return (low // step) * step, step
    if not values:
        return 0, 1
    high, low = max(values), min(values)
    if high == low:  # one value: in the middle of a scale of 1 a step
        return (low - 2 if low < 0 or low >= 2 else 0), 1
    step = next(s for s in _round_steps() if (low // s) * s + 4 * s >= high)
    return (low // step) * step, step


def _round_steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 50, 100, …"""
    scale = 1
    while True:
        yield from (scale, 2 * scale, 5 * scale)
        scale *= 10


def chart_points(
    series: Mapping[str, list[int]],
    x_of: Callable[[int], float],
    y_of: Callable[[int], float],
) -> dict[str, list[tuple[float, float]]]:
    """Return each series' marker centres: round ``i`` at ``x_of(i)``, value ``v`` at ``y_of(v)``.

    Markers of one round whose values lie within a marker's height of each other would hide
    one another: such a group is spread sideways, centred on the round, in series order.
    """
    points: dict[str, list[tuple[float, float]]] = {cid: [] for cid in series}
    rounds = max((len(v) for v in series.values()), default=0)
    for i in range(rounds):
        here = sorted(
            (y_of(v[i]), k, cid) for k, (cid, v) in enumerate(series.items()) if i < len(v)
        )
        groups: list[list[tuple[float, int, str]]] = []
        for item in here:
            if groups and item[0] - groups[-1][-1][0] < 2 * CHART_MARKER + 6:
                groups[-1].append(item)
            else:
                groups.append([item])
        for group in groups:
            for j, (y, _, cid) in enumerate(sorted(group, key=lambda g: g[1])):
                points[cid].append((x_of(i) + (j - (len(group) - 1) / 2) * CHART_SPREAD, y))
    return points
