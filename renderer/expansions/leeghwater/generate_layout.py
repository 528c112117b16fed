"""Draft the Leeghwater layouts appended below the shared and company views.

`python -m renderer.expansions.leeghwater.generate_layout works|company` prints TOML; the committed
files (`leeghwater_works.toml`, `leeghwater_company.toml`) are the source of truth.
"""

from __future__ import annotations

import sys

COMPANY_TOP = 1348  # company.toml's height: the extension goes under the company board
BUILDINGS = 5
BLOCK = 206  # one Private Building: its name and terms, its building spaces, its action spaces
ROW = 50
WORK_ROW = 96


def _r(rect: tuple[int, int, int, int]) -> str:
    return "[" + ", ".join(str(v) for v in rect) + "]"


def works() -> str:
    """The Extra Management board as its own view: External Works, then the five Private
    Buildings (each: name and terms, four building spaces, four action spaces)."""
    top = 0
    works_y = top + 64
    heading_y = works_y + 3 * (WORK_ROW + 8) + 4
    blocks_y = heading_y + 44
    end = blocks_y + BUILDINGS * BLOCK
    lines = [
        "# The Leeghwater Project's Extra Management board: its own view.",
        "# Drafted by renderer/expansions/leeghwater/generate_layout.py; schema: renderer/layout/README.md.",
        "",
        "[view]",
        "width = 1200",
        f"height = {end + 12}",
        "",
        "[rect]",
        f"extra = {_r((12, top + 6, 1188, end))}",
        "",
        "[point]",
        f"title = [24, {top + 14}]",
        f"piles = [1176, {top + 20}]",
        f"buildings = [24, {heading_y}]",
        "",
        "[space]",
    ]
    for i in range(3):
        y = works_y + i * (WORK_ROW + 8)
        lines.append(f"external_work_{i + 1} = {_r((24, y, 250, y + WORK_ROW))}")
    lines += ["", "[rects]"]
    tiles = [
        (262, works_y + i * (WORK_ROW + 8), 1176, works_y + i * (WORK_ROW + 8) + WORK_ROW)
        for i in range(3)
    ]
    lines.append("work_tiles = [" + ", ".join(_r(t) for t in tiles) + "]")
    headers, spaces, actions = [], [], []
    for b in range(BUILDINGS):
        y = blocks_y + b * BLOCK
        headers.append((24, y, 1176, y + 80))
        sy = y + 86
        spaces += [(24 + k * 290, sy, 24 + k * 290 + 282, sy + ROW) for k in range(4)]
        ay = sy + ROW + 8
        actions += [(112 + k * 268, ay, 112 + k * 268 + 260, ay + ROW) for k in range(4)]
        actions[-1] = (actions[-1][0], ay, 1176, ay + ROW)
    lines.append("building_headers = [" + ", ".join(_r(t) for t in headers) + "]")
    lines.append("building_spaces = [" + ", ".join(_r(t) for t in spaces) + "]")
    lines.append("building_actions = [" + ", ".join(_r(t) for t in actions) + "]")
    return "\n".join(lines) + "\n"


def company() -> str:
    """The board extension: the Building row, works completed, the officer's special piece."""
    top = COMPANY_TOP
    cells = [(224 + k * 152, top + 48, 368 + k * 152, top + 112) for k in range(5)]
    end = top + 184
    return "\n".join(
        [
            "# The Leeghwater Project's board extension, appended below the company view.",
            "# Drafted by renderer/expansions/leeghwater/generate_layout.py; schema: renderer/layout/README.md.",
            "",
            "[view]",
            "width = 1000",
            f"height = {end + 12}",
            "",
            "[rect]",
            f"extension = {_r((12, top, 988, end))}",
            f"special = {_r((24, top + 120, 976, top + 176))}",
            "",
            "[rects]",
            "cells_building = [" + ", ".join(_r(c) for c in cells) + "]",
            "",
            "[point]",
            f"title = [24, {top + 8}]",
            f"row_building = [24, {top + 80}]",
            f"works = [976, {top + 26}]",
            "",
        ]
    )


if __name__ == "__main__":
    print(works() if sys.argv[1:] == ["works"] else company(), end="")
