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


#: The management board's sections in the picture's two columns.
LEFT_SECTIONS = ("turbine_station", "water_management", "bank", "contract_office")
RIGHT_SECTIONS = ("workshop", "machinery_shop", "patent_office")
MARKER_ROWS = 4  # energy markers sharing nearby cells stack in up to four rows
ROW = 48  # a management row
SECTION = 38  # a management section's heading


def _fmt(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def shared_toml(management: Iterable[tuple[str, str, str, str]]) -> str:
    """Return the shared view's layout; ``management`` is (id, section, row, side) per space.

    Top to bottom: the energy track panel (its rules, the markers, the track with its scale
    and credits, the five round bonus tiles, the objective), the contract offer (green,
    yellow, red and national contracts in four columns) and the management board in two
    columns of sections, each row its name then its left and right spaces.
    """
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
    # -- the energy track ------------------------------------------------------------------
    top = 6
    points["energy_heading"] = [x0 + PAD, top + 10]
    points["energy_rules"] = [x0 + PAD, top + 82]
    markers = top + 106
    track = markers + MARKER_ROWS * 44 + 8
    rects["energy_markers"] = [x0 + PAD, markers, x1 - PAD, track - 8]
    rects["energy_track"] = [x0 + PAD, track, x1 - PAD, track + 36]
    points["energy_scale"] = [x0 + PAD, track + 58]
    points["energy_credits"] = [x0 + PAD, track + 100]
    bonus = track + 126
    width = (x1 - x0 - 2 * PAD - 4 * 8) // 5
    lists["bonus_tiles"] = [
        [x0 + PAD + i * (width + 8), bonus, x0 + PAD + i * (width + 8) + width, bonus + 150]
        for i in range(5)
    ]
    rects["objective"] = [x0 + PAD, bonus + 158, x1 - PAD, bonus + 204]
    rects["energy"] = [x0, top, x1, bonus + 214]
    # The full game's draft offer is drawn over the energy panel while it lasts.
    rects["draft"] = list(rects["energy"])
    lists["draft_pairs"] = [
        [x0 + PAD, top + 70 + j * 58, x1 - PAD, top + 120 + j * 58] for j in range(5)
    ]
    start = top + 70 + 5 * 58 + 40
    lists["draft_starting"] = [
        [x0 + PAD, start + j * 58, x1 - PAD, start + 50 + j * 58] for j in range(5)
    ]
    # -- the contract offer: private green, yellow, red side by side, then national -------
    top = rects["energy"][3] + 10
    col = (x1 - x0 - 2 * PAD - 2 * 10) // 3
    for i, level in enumerate(("green", "yellow", "red")):
        cx = x0 + PAD + i * (col + 10)
        lists[f"private_{level}"] = [
            [cx, top + 58 + j * 102, cx + col, top + 58 + j * 102 + 94] for j in range(2)
        ]
    y = top + 58 + 2 * 102
    lists["national"] = [
        [x0 + PAD + i * (col + 10), y, x0 + PAD + i * (col + 10) + col, y + 94] for i in range(3)
    ]
    rects["contracts"] = [x0, top, x1, y + 94 + 10]
    points["contracts_heading"] = [x0 + PAD, top + 8]
    # -- the management board --------------------------------------------------------------
    top = rects["contracts"][3] + 10
    points["management_heading"] = [x0 + PAD, top + 8]
    rows: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for space_id, section, row, side in management:
        rows.setdefault((section, row), []).append((space_id, side))
    half = (x1 - x0 - 2 * PAD - 16) // 2
    spaces: dict[str, list[int]] = {}
    headings: dict[str, list[int]] = {}
    row_names: dict[str, list[int]] = {}
    bottom = top
    for column, sections in enumerate((LEFT_SECTIONS, RIGHT_SECTIONS)):
        cx0 = x0 + PAD + column * (half + 16)
        y = top + 56
        for section in sections:
            section_rows = [(r, s) for (sec, r), s in rows.items() if sec == section]
            if section != "bank":
                headings[section] = [cx0, y]
                y += SECTION
            for row, row_spaces in section_rows:
                row_names[row] = [cx0, y + ROW // 2 - 2]
                name_w = 176
                box_w = (half - name_w - 8) // 2
                for space_id, side in row_spaces:
                    if side == "left":
                        bx = cx0 + name_w
                        spaces[space_id] = [bx, y, bx + box_w, y + ROW - 6]
                    elif side == "right":
                        bx = cx0 + name_w + box_w + 8
                        spaces[space_id] = [bx, y, bx + box_w, y + ROW - 6]
                    else:
                        spaces[space_id] = [cx0 + name_w, y, cx0 + half, y + ROW - 6]
                y += ROW
            y += 6
        bottom = max(bottom, y)
    rects["management"] = [x0, top, x1, bottom + 6]
    height = bottom + 6 + MARGIN
    out += ["[view]", f"width = {WIDTH_SHARED}", f"height = {height}", ""]
    out += _tables(rects, lists, points)
    out.append("[heading]")
    out += [f"{k} = {_fmt(v)}" for k, v in headings.items()]
    out.append("")
    out.append("[row]")
    out += [f"{k} = {_fmt(v)}" for k, v in row_names.items()]
    out.append("")
    out.append("[space]")
    out += [f"{k} = {_fmt(v)}" for k, v in spaces.items()]
    return "\n".join(out) + "\n"


def company_toml() -> str:
    """Return the company view's layout (its resources are in the header's scoreboard)."""
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
    points["piece"] = [36, 32]
    top = 64
    rects["wheel"] = [x0, top, x1, top + 320]
    # The six segments as a ring: open segment top left, then clockwise in the order they
    # come back to the opening (top row left to right, bottom row right to left).
    sw = (x1 - x0 - 2 * PAD - 2 * 14) // 3
    ring = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]
    lists["wheel_segments"] = [
        [
            x0 + PAD + c * (sw + 14),
            top + 46 + r * 136,
            x0 + PAD + c * (sw + 14) + sw,
            top + 46 + r * 136 + 128,
        ]
        for c, r in ring
    ]
    top += 332
    rects["tiles"] = [x0, top, x1, top + 116]
    top += 128
    # Cells hold two lines of an income ("2VP" over "2flow") at the company view's text size.
    rects["structures"] = [x0, top, x1, top + 332]
    label_w = 200
    cw = (x1 - x0 - 2 * PAD - label_w - 4 * 8) // 5
    for i, kind in enumerate(("base", "elevation", "conduit", "powerhouse")):
        y = top + 48 + i * 70
        points[f"row_{kind}"] = [x0 + PAD, y + 28]
        n = 4 if kind == "powerhouse" else 5
        lists[f"cells_{kind}"] = [
            [x0 + PAD + label_w + j * (cw + 8), y, x0 + PAD + label_w + j * (cw + 8) + cw, y + 64]
            for j in range(n)
        ]
    top += 344
    rects["construction"] = [x0, top, x1, top + 84]
    cw2 = (x1 - x0 - 2 * PAD - 330 - 3 * 10) // 4
    lists["construction_spaces"] = [
        [x0 + PAD + 330 + j * (cw2 + 10), top + 12, x0 + PAD + 330 + j * (cw2 + 10) + cw2, top + 72]
        for j in range(4)
    ]
    top += 96
    rects["contracts"] = [x0, top, x1, top + 236]
    lists["contract_slots"] = [
        [x0 + PAD, top + 44 + j * 37, x1 - PAD, top + 78 + j * 37] for j in range(5)
    ]
    top += 248
    rects["officer"] = [x0, top, x1, top + 124]
    lists["officer_spaces"] = [
        [x0 + PAD, top + 54, 494, top + 112],
        [506, top + 54, x1 - PAD, top + 112],
    ]
    height = top + 124 + MARGIN
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
