"""Print how far apart each theme's company colours are, under normal vision and simulated
protanopia, deuteranopia and tritanopia (Machado 2009, severity 1.0; CIEDE2000).

For each theme and vision: the closest pair of company colours, and the company closest to
the background (and what its outline does against both). tests/renderer/test_colour_vision.py
asks the colour-blind theme for 20 between every pair and 12 against the ground or outline.

    python bench/colours.py
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from renderer.theme import THEMES
from renderer.vision import VISIONS, difference


def main(argv: list[str] | None = None) -> int:
    """Print the figures of every theme."""
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    for name in sorted(THEMES):
        theme = THEMES[name]
        ground = theme.colour("background")
        print(f"{name} (background {ground})")
        for vision in VISIONS:
            pairs = sorted(
                (difference(a.fill, b.fill, vision), a.company, b.company)
                for a, b in itertools.combinations(theme.companies.values(), 2)
            )
            worst, a, b = pairs[0]
            grounds = sorted(
                (difference(s.fill, ground, vision), s.company, s.outline)
                for s in theme.companies.values()
            )
            near, company, outline = grounds[0]
            fill = theme.company(company).fill
            edge = min(difference(fill, outline, vision), difference(outline, ground, vision))
            print(
                f"  {vision:12} closest pair {worst:5.1f} ({a}-{b}); "
                f"closest to the ground {near:5.1f} ({company}; its outline {edge:5.1f})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
