"""Build the bundled name fonts (renderer/fonts) and their coverage file from Debian's Noto fonts.

Needs fontTools (`pip install fonttools`) and the Debian packages fonts-noto-core and
fonts-noto-cjk (`apt-get install fonts-noto-core fonts-noto-cjk`). The CJK font is Noto Sans
CJK SC subset to kana, the unified ideographs, Hangul and CJK punctuation (about 13 MB); the
other Noto fonts are copied whole. All are under the SIL Open Font License 1.1
(renderer/fonts/LICENSE-Noto.txt). Then coverage.json is written: the characters each face
of `renderer.names.FACES` has, as ranges.

    python tools/build_fonts.py            # subset/copy the fonts, write coverage.json
    python tools/build_fonts.py --coverage # only write coverage.json from the bundled fonts
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from fontTools.ttLib import TTFont

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from renderer.names import COVERAGE_FILE, FACES

FONTS = Path(__file__).resolve().parent.parent / "renderer" / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_SC = 2  # the collection's Simplified Chinese face
CJK_RANGES = (
    "U+3000-303F,U+3040-30FF,U+3100-312F,U+3130-318F,U+31F0-31FF,U+4E00-9FFF,"
    "U+AC00-D7A3,U+1100-11FF,U+FF00-FFEF"
)
COPIED = (
    "NotoSansArabic-Regular.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansSymbols2-Regular.ttf",
    "NotoSansSymbols-Regular.ttf",
)


def build() -> None:
    """Copy the whole Noto fonts and subset the CJK one into renderer/fonts."""
    for name in COPIED:
        shutil.copyfile(NOTO / name, FONTS / name)
    out = FONTS / dict(FACES)["cjk"]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "fontTools.subset",
            str(CJK),
            f"--font-number={CJK_SC}",
            f"--unicodes={CJK_RANGES}",
            "--layout-features=*",
            "--no-hinting",
            f"--output-file={out}",
        ],
        check=True,
    )


def ranges(codes: list[int]) -> list[tuple[int, int]]:
    """Sorted code points as (first, last) runs."""
    out: list[tuple[int, int]] = []
    for code in sorted(codes):
        if out and code == out[-1][1] + 1:
            out[-1] = (out[-1][0], code)
        else:
            out.append((code, code))
    return out


def write_coverage() -> None:
    """coverage.json: each face's characters (from its cmap) as ranges."""
    faces = {}
    for key, file in FACES:
        cmap = TTFont(FONTS / file).getBestCmap()
        faces[key] = ranges([c for c in cmap if c >= 0x20])
    about = "Written by tools/build_fonts.py: the characters each name face has (renderer.names)."
    text = json.dumps({"about": about, "faces": faces}, separators=(",", ":"))
    (FONTS / COVERAGE_FILE).write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Build the fonts (unless --coverage) and write coverage.json."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--coverage", action="store_true", help="only write coverage.json")
    args = parser.parse_args(argv)
    if not args.coverage:
        build()
    write_coverage()
    total = sum(p.stat().st_size for p in FONTS.iterdir() if p.suffix in (".ttf", ".otf"))
    print(f"renderer/fonts: {total / 1e6:.1f} MB of fonts")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
