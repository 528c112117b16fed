"""Draft the shared-board and company-board layouts (`shared.toml`, `company.toml`).

Run `python -m renderer.layout.generate_boards` to print both files' drafts; the committed
TOML files are the source of truth and may be tuned by hand.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

WIDTH_SHARED = 1200
WIDTH_COMPANY = 1000
MARGIN = 12
PAD = 12


DY_BELOW_ENERGY = 30


def _shift(values: list[int], dy: int) -> None:
    for i in range(1, len(values), 2):
        values[i] += dy


def _fmt(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def shared_toml(management: Iterable[tuple[str, str, str, str]]) -> str:
    """Return the shared view's layout; ``management`` is (id, section, row, side) per space."""
    out = [
        "# Layout of the shared boards view: pixel geometry keyed by the engine's ids.",
        "# Drafted by renderer/layout/generate_boards.py, then free to edit by hand.",
        "# Schema: renderer/layout/README.md.",
        "",
    ]
    rects: dict[str, list[int]] = {}
    lists: dict[str, list[list[int]]] = {}
    points: dict[str, list[int]] = {}
    x0, x1 = MARGIN, WIDTH_SHARED - MARGIN
    points["title"] = [18, 10]
    rects["turn_order"] = [x0, 72, x1, 132]
    rects["energy"] = [x0, 142, x1, 440]
    # The track: 31 cells (0..30) with room above for up to three rows of markers.
    rects["energy_track"] = [42, 352, 1158, 382]
    rects["bonus"] = [x0, 420, x1, 700]
    width = (x1 - x0 - 2 * PAD - 4 * 8) // 5
    lists["bonus_tiles"] = [
        [x0 + PAD + i * (width + 8), 468, x0 + PAD + i * (width + 8) + width, 596] for i in range(5)
    ]
    rects["objective"] = [x0 + PAD, 606, x1 - PAD, 690]
    # Contract offer: three private levels side by side, two face-up contracts each; national row.
    rects["contracts"] = [x0, 710, x1, 1210]
    col = (x1 - x0 - 2 * PAD - 2 * 10) // 3
    for i, level in enumerate(("green", "yellow", "red")):
        cx = x0 + PAD + i * (col + 10)
        points[f"level_{level}"] = [cx, 778]
        lists[f"private_{level}"] = [
            [cx, 800 + j * 94, cx + col, 800 + j * 94 + 86] for j in range(2)
        ]
    points["national"] = [x0 + PAD, 1008]
    lists["national"] = [
        [x0 + PAD + i * (col + 10), 1032, x0 + PAD + i * (col + 10) + col, 1118] for i in range(4)
    ][:3]
    points["patent"] = [x0 + PAD, 1134]
    lists["patent"] = [
        [x0 + PAD + 224 + i * 310, 1128, x0 + PAD + 224 + i * 310 + 300, 1196] for i in range(3)
    ]
    # Management board: one heading per section, then its rows, left and right side by side.
    y = 1230
    spaces: dict[str, list[int]] = {}
    headings: dict[str, list[int]] = {}
    rows: dict[tuple[str, str], list[tuple[str, str]]] = {}
    sections: list[str] = []
    for space_id, section, row, side in management:
        if section not in sections:
            sections.append(section)
        rows.setdefault((section, row), []).append((space_id, side))
    top = y
    y += 52
    half = (x1 - x0 - 2 * PAD - 12) // 2
    for section in sections:
        headings[section] = [x0 + PAD, y]
        y += 46
        section_rows = [r for (s, _), r in rows.items() if s == section]
        singles = [r[0][0] for r in section_rows if len(r) == 1 and r[0][1] == "single"]
        if len(singles) > 1:
            # A row of single spaces (the patent office): side by side.
            n = len(singles)
            w = (x1 - x0 - 2 * PAD - (n - 1) * 12) // n
            for i, space_id in enumerate(singles):
                spaces[space_id] = [x0 + PAD + i * (w + 12), y, x0 + PAD + i * (w + 12) + w, y + 52]
            y += 60
            continue
        for row_spaces in section_rows:
            for space_id, side in row_spaces:
                if side == "single":
                    spaces[space_id] = [x0 + PAD, y, x1 - PAD, y + 52]
                else:
                    left = x0 + PAD if side == "left" else x0 + PAD + half + 12
                    spaces[space_id] = [left, y, left + half, y + 52]
            y += 60
        y += 4
    rects["management"] = [x0, top, x1, y + 8]
    height = y + 8 + MARGIN
    # Everything below the energy panel moves down: the panel holds four rows of markers.
    for table in (rects, points, headings, spaces):
        for key, value in table.items():
            if key not in ("energy", "energy_track", "title", "turn_order"):
                _shift(value, DY_BELOW_ENERGY)
    for rect_list in lists.values():
        for r in rect_list:
            _shift(r, DY_BELOW_ENERGY)
    height += DY_BELOW_ENERGY
    out += ["[view]", f"width = {WIDTH_SHARED}", f"height = {height}", ""]
    out += _tables(rects, lists, points)
    out.append("[heading]")
    out += [f"{k} = {_fmt(v)}" for k, v in headings.items()]
    out.append("")
    out.append("[space]")
    out += [f"{k} = {_fmt(v)}" for k, v in spaces.items()]
    return "\n".join(out) + "\n"


def company_toml() -> str:
    """Return the company view's layout."""
    out = [
        "# Layout of the company board view.",
        "# Drafted by renderer/layout/generate_boards.py, then free to edit by hand.",
        "# Schema: renderer/layout/README.md.",
        "",
    ]
    rects: dict[str, list[int]] = {}
    lists: dict[str, list[list[int]]] = {}
    points: dict[str, list[int]] = {}
    x0, x1 = MARGIN, WIDTH_COMPANY - MARGIN
    points["title"] = [70, 12]
    points["piece"] = [36, 34]
    points["subtitle"] = [18, 66]
    w = (x1 - x0 - 3 * 10) // 4
    lists["resources"] = [[x0 + i * (w + 10), 110, x0 + i * (w + 10) + w, 206] for i in range(4)]
    rects["wheel"] = [x0, 218, x1, 592]
    # The six segments as a ring: open segment top left, then clockwise in the order they
    # come back to the opening (top row left to right, bottom row right to left).
    sw = (x1 - x0 - 2 * PAD - 2 * 14) // 3
    ring = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]
    lists["wheel_segments"] = [
        [
            x0 + PAD + c * (sw + 14),
            266 + r * 162,
            x0 + PAD + c * (sw + 14) + sw,
            266 + r * 162 + 150,
        ]
        for c, r in ring
    ]
    rects["tiles"] = [x0, 604, x1, 724]
    rects["structures"] = [x0, 736, x1, 1066]
    label_w = 200
    cw = (x1 - x0 - 2 * PAD - label_w - 4 * 8) // 5
    for i, kind in enumerate(("base", "elevation", "conduit", "powerhouse")):
        y = 784 + i * 68
        points[f"row_{kind}"] = [x0 + PAD, y + 30]
        n = 4 if kind == "powerhouse" else 5
        lists[f"cells_{kind}"] = [
            [x0 + PAD + label_w + j * (cw + 8), y, x0 + PAD + label_w + j * (cw + 8) + cw, y + 60]
            for j in range(n)
        ]
    rects["construction"] = [x0, 1078, x1, 1172]
    cw2 = (x1 - x0 - 2 * PAD - 330 - 3 * 10) // 4
    lists["construction_spaces"] = [
        [x0 + PAD + 330 + j * (cw2 + 10), 1092, x0 + PAD + 330 + j * (cw2 + 10) + cw2, 1158]
        for j in range(4)
    ]
    rects["contracts"] = [x0, 1184, x1, 1464]
    lists["contract_slots"] = [[x0 + PAD, 1230 + j * 44, x1 - PAD, 1270 + j * 44] for j in range(5)]
    height = 1464 + MARGIN
    out += ["[view]", f"width = {WIDTH_COMPANY}", f"height = {height}", ""]
    out += _tables(rects, lists, points)
    return "\n".join(out) + "\n"


def _tables(
    rects: dict[str, list[int]], lists: dict[str, list[list[int]]], points: dict[str, list[int]]
) -> list[str]:
    out = ["[rect]"]
    out += [f"{k} = {_fmt(v)}" for k, v in rects.items()]
    out += ["", "[rects]"]
    out += [f"{k} = [{', '.join(_fmt(r) for r in v)}]" for k, v in lists.items()]
    out += ["", "[point]"]
    out += [f"{k} = {_fmt(v)}" for k, v in points.items()]
    out.append("")
    return out


def main() -> None:
    """Print the drafts of shared.toml and company.toml (the first argument picks one)."""
    from bot.rules.content import load_content

    which = sys.argv[1] if len(sys.argv) > 1 else "shared"
    if which == "shared":
        spaces = [(s.id, s.section, s.row, s.side) for s in load_content().management_spaces]
        sys.stdout.write(shared_toml(spaces))
    else:
        sys.stdout.write(company_toml())


if __name__ == "__main__":
    main()
