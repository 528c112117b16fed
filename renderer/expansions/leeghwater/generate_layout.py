"""Draft the Leeghwater layouts appended below the shared and company views.

`python -m renderer.expansions.leeghwater.generate_layout shared|company` prints TOML; the committed
files (`leeghwater_shared.toml`, `leeghwater_company.toml`) are the source of truth.
"""

from __future__ import annotations

import sys

SHARED_TOP = 2879  # shared.toml's height: the extra board goes below the management board
COMPANY_TOP = 1622  # company.toml's height: the extension goes under the company board
BUILDINGS = 5
BLOCK = 232  # one Private Building: header, two rows of building spaces, its action spaces
ROW = 52
STEP = 58


def _r(rect: tuple[int, int, int, int]) -> str:
    return "[" + ", ".join(str(v) for v in rect) + "]"


def shared() -> str:
    """The Extra Management board: External Works, then the five Private Buildings."""
    top = SHARED_TOP
    works_y = top + 110
    heading_y = works_y + 3 * 60 + 6
    blocks_y = heading_y + 40
    end = blocks_y + BUILDINGS * BLOCK - 14
    lines = [
        "# The Leeghwater Project's Extra Management board, appended below the shared view.",
        "# Drafted by renderer/expansions/leeghwater/generate_layout.py; schema: renderer/layout/README.md.",
        "",
        "[view]",
        "width = 1200",
        f"height = {end + 24}",
        "",
        "[rect]",
        f"extra = {_r((12, top + 10, 1188, end + 12))}",
        "",
        "[point]",
        f"title = [24, {top + 18}]",
        f"piles = [1176, {top + 24}]",
        f"works = [24, {top + 70}]",
        f"buildings = [24, {heading_y}]",
        "",
        "[space]",
    ]
    for i in range(3):
        y = works_y + i * 60
        lines.append(f"external_work_{i + 1} = {_r((24, y, 540, y + ROW))}")
    lines += ["", "[rects]"]
    tiles = [(552, works_y + i * 60, 1176, works_y + i * 60 + ROW) for i in range(3)]
    lines.append("work_tiles = [" + ", ".join(_r(t) for t in tiles) + "]")
    headers, spaces, actions = [], [], []
    for b in range(BUILDINGS):
        y = blocks_y + b * BLOCK
        headers.append((24, y, 1176, y + 44))
        for row in range(2):
            sy = y + 50 + row * STEP
            spaces += [(24, sy, 594, sy + ROW), (606, sy, 1176, sy + ROW)]
        ay = y + 50 + 2 * STEP
        actions += [(150 + k * 258, ay, 150 + k * 258 + 246, ay + ROW) for k in range(4)]
        actions[-1] = (actions[-1][0], ay, 1176, ay + ROW)
    lines.append("building_headers = [" + ", ".join(_r(t) for t in headers) + "]")
    lines.append("building_spaces = [" + ", ".join(_r(t) for t in spaces) + "]")
    lines.append("building_actions = [" + ", ".join(_r(t) for t in actions) + "]")
    return "\n".join(lines) + "\n"


def company() -> str:
    """The board extension: the Building row, works completed, the officer's special pieces."""
    top = COMPANY_TOP
    cells = [(224 + k * 152, top + 58, 368 + k * 152, top + 118) for k in range(5)]
    end = top + 310
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
            f"special = {_r((24, top + 236, 976, top + 294))}",
            "",
            "[rects]",
            "cells_building = [" + ", ".join(_r(c) for c in cells) + "]",
            "",
            "[point]",
            f"title = [24, {top + 8}]",
            f"row_building = [24, {top + 88}]",
            f"activated = [24, {top + 144}]",
            f"works = [24, {top + 208}]",
            "",
        ]
    )


if __name__ == "__main__":
    print(shared() if sys.argv[1:] == ["shared"] else company(), end="")
