"""The end-of-game score sheet: final VP by source and VP and energy per round per company."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.events import Event
from bot.rules.state import GameState
from renderer import draw as d
from renderer.content import content
from renderer.expansions import catalogue
from renderer.theme import Theme

WIDTH = 1200
# Event source prefixes ("income:base:2" -> "income") and the row each is counted in; a
# two-part prefix ("end:building") wins over its first part.
BASE_CATEGORIES: Mapping[str, str] = {
    "income": "Income",
    "contract": "Contracts",
    "scoring": "Energy track",
    "bonus": "Bonus tiles",
    "objective": "Objective",
    "conduit-use": "Conduits lent",
    "tile": "Technology tiles",
}
END_CATEGORIES: Mapping[str, str] = {"end": "End (resources, water)"}


def categories(expansions: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
    """The game's row of each event source prefix, and of sources named by a prefix of their
    second part: the base game's, then each expansion's (its declaration's `score`), then the
    end of the game's."""
    rows, prefixes = dict(BASE_CATEGORIES), {}
    for name in catalogue().hook_order(e for e in expansions if e in catalogue()):
        for source, row in catalogue().info(name).score.items():
            if source.endswith("*"):
                prefixes[source.removesuffix("*")] = row
            else:
                rows[source] = row
    rows.update(END_CATEGORIES)
    return rows, prefixes


OTHER = "Other"
CHART_MARKER = 18  # radius of a company's marker on the charts
CHART_SPREAD = 42  # sideways step between markers of equal value


def vp_breakdown(state: GameState, events: Iterable[Event]) -> dict[str, dict[str, int]]:
    """Return {company: {category: VP}} from VP events; "Start" and "Other" keep totals exact."""
    start = content().costs.starting_vp
    rows_of, prefixes = categories(state.options.expansions)
    table: dict[str, dict[str, int]] = {cid: defaultdict(int) for cid in state.companies}
    for event in events:
        if getattr(event, "kind", None) != "vp" or event.company not in table:
            continue
        parts = event.source.split(":")
        category = (
            next((v for k, v in prefixes.items() if event.source.startswith(k)), None)
            or rows_of.get(":".join(parts[:2]))
            or rows_of.get(parts[0], OTHER)
        )
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


def draw_score_sheet(state: GameState, events: Iterable[Event], theme: Theme) -> Image.Image:
    """Return the score sheet of ``state`` as a new RGB image."""
    sizes = theme.views["shared"].text
    breakdown = vp_breakdown(state, events)
    ranking = [r["company"] for r in state.result.get("ranking", [])] or sorted(
        state.companies, key=lambda c: -state.companies[c].vp
    )
    ranking = [c for c in ranking if c in state.companies]
    rows_of, prefixes = categories(state.options.expansions)
    rows = ["Start", *dict.fromkeys([*rows_of.values(), *prefixes.values()]), OTHER]
    rows = [r for r in rows if any(breakdown[c].get(r) for c in ranking) or r == "Start"]
    line = 46
    table_h = 100 + line * (len(rows) + 1)
    chart_h = 440
    height = 90 + table_h + 2 * (chart_h + 20) + 20
    image = Image.new("RGB", (WIDTH, height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    text, muted = theme.colour("text"), theme.colour("text muted")
    d.text(
        draw,
        (18, 10),
        "Final score" if state.finished else f"Score after round {state.round}",
        sizes["title"],
        text,
        anchor="la",
    )

    top = 80
    d.box(
        draw,
        (12, top, WIDTH - 12, top + table_h),
        theme.colour("panel"),
        theme.colour("panel outline"),
    )
    label_w = 400
    col = (WIDTH - 24 - label_w) // max(len(ranking), 1)
    for i, cid in enumerate(ranking):
        cx = 12 + label_w + i * col + col // 2
        d.piece(draw, (cx, top + 34), 20, theme.company(cid), sizes["small"])
        d.text(
            draw,
            (cx, top + 76),
            d.fit(company_name(cid), sizes["small"], col - 8),
            sizes["small"],
            text,
            "regular",
        )
    y = top + 100
    for r in rows:
        d.text(draw, (28, y + line // 2), r, sizes["label"], text, "regular", "lm")
        for i, cid in enumerate(ranking):
            value = breakdown[cid].get(r, 0)
            cx = 12 + label_w + i * col + col // 2
            d.text(
                draw,
                (cx, y + line // 2),
                str(value) if value else "–",
                sizes["value"],
                text if value else muted,
                "regular",
            )
        y += line
    draw.line((24, y, WIDTH - 24, y), fill=theme.colour("panel outline"), width=2)
    d.text(draw, (28, y + line // 2), "Total VP", sizes["label"], text, anchor="lm")
    for i, cid in enumerate(ranking):
        cx = 12 + label_w + i * col + col // 2
        d.text(draw, (cx, y + line // 2), str(state.companies[cid].vp), sizes["value"], text)

    y0 = top + table_h + 20
    history = state.history
    _chart(
        draw,
        (12, y0, WIDTH - 12, y0 + chart_h),
        "VP after each round",
        {cid: [h["vp"].get(cid, 0) for h in history] for cid in ranking},
        theme,
    )
    y0 += chart_h + 20
    _chart(
        draw,
        (12, y0, WIDTH - 12, y0 + chart_h),
        "Energy produced per round",
        {cid: [h["energy"].get(cid, 0) for h in history] for cid in ranking},
        theme,
    )
    return image


def _chart(
    draw: ImageDraw.ImageDraw,
    rect: tuple[int, int, int, int],
    title: str,
    series: Mapping[str, list[int]],
    theme: Theme,
) -> None:
    sizes = theme.views["shared"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"))
    x0, y0, x1, y1 = rect
    d.text(draw, (x0 + 12, y0 + 8), title, sizes["heading"], text, anchor="la")
    px0, py0, px1, py1 = x0 + 90, y0 + 70, x1 - 40, y1 - 60
    rounds = max((len(v) for v in series.values()), default=0)
    # The scale starts at 0, or below it when a company ended a round in debt of VP.
    high = max([1, *(max(v) for v in series.values() if v)])
    low = min([0, *(min(v) for v in series.values() if v)])
    step = max(1, -(-(high - low) // 4))
    while high > (low // step) * step + 4 * step:
        step += 1
    low = (low // step) * step
    top = step * 4
    for i in range(5):
        yy = py1 - (py1 - py0) * i / 4
        draw.line((px0, yy, px1, yy), fill=theme.colour("track"), width=2)
        d.text(draw, (px0 - 12, yy), str(low + step * i), sizes["small"], muted, "regular", "rm")
    n = max(rounds, 1)

    def y_of(v: int) -> float:
        return py1 - (py1 - py0) * (v - low) / top

    points = chart_points(series, lambda i: px0 + (px1 - px0) * (i + 0.5) / n, y_of)

    for i in range(rounds):
        d.text(
            draw,
            (px0 + (px1 - px0) * (i + 0.5) / n, py1 + 44),
            f"R{i + 1}",
            sizes["small"],
            muted,
            "regular",
        )
    for cid, pts in points.items():
        style = theme.company(cid)
        if len(pts) > 1:
            draw.line(pts, fill=style.outline, width=8, joint="curve")
            draw.line(pts, fill=style.fill, width=4, joint="curve")
        for p in pts:
            d.piece(draw, (round(p[0]), round(p[1])), CHART_MARKER, style, sizes["small"])


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
