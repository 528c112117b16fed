"""Write renderer/palettes.json: each theme's palette under the fingerprint of its sources.

Developer tool, run by hand from the repository root after a change to a theme, a static
background or Pillow (tests/renderer/test_palettes.py says when it is due):

    python tools/build_palettes.py

The renderer takes a stored palette only when the fingerprint of what it would quantize
(every source's pixels and Pillow's version) matches, so a stale file changes no picture: it
only costs the bot the quantizer's 200 MB peak at start-up again. Both text layouts are
stored, since the backgrounds' text differs between them where the host has libraqm.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from renderer.render import PALETTES_FILE, build_palette, use_text_layout  # noqa: E402
from renderer.theme import THEMES  # noqa: E402


def main() -> None:
    """Build every theme's palette in every text layout and write the file."""
    palettes: dict[str, str] = {}
    for layout in ("default", "basic"):
        use_text_layout(layout)
        for theme in sorted(THEMES):
            fingerprint, palette = build_palette(theme)
            palettes[fingerprint] = palette
            print(f"{theme} ({layout} text layout): {fingerprint[:16]}")
    document = {
        "about": "Written by tools/build_palettes.py: palette RGB bytes (hex) by the SHA-256 of "
        "the images and Pillow version they were quantized from (renderer.palette._palette).",
        "palettes": palettes,
    }
    path = ROOT / "renderer" / PALETTES_FILE
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(palettes)} palettes to {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
