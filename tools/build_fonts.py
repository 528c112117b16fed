"""Build the bundled name fonts (renderer/fonts) and their coverage file from Debian's Noto fonts.

Needs fontTools (`pip install fonttools`), the Debian packages fonts-noto-core and
fonts-noto-cjk (`apt-get install fonts-noto-core fonts-noto-cjk`) and pip (the monochrome
Noto Emoji comes from the PyPI package manimgx-fonts, downloaded by `pip download`). The CJK
font is Noto Sans CJK SC subset to kana, the unified ideographs, Hangul and CJK punctuation
(about 11 MB); Noto Emoji is instanced at Regular, and each emoji sequence it joins (ZWJ
sequences, flags, keycaps, skin tones, drawn monochrome) is given a glyph of its own at a
private-use code point, because names are laid out without shaping; the other Noto fonts are
copied whole. All are under the SIL Open Font License 1.1 (renderer/fonts/LICENSE-Noto.txt).
Then coverage.json is written: the characters each face of `renderer.names.FACES` has, as
ranges, and the emoji sequences with the code point each is drawn as.

    python tools/build_fonts.py            # subset/copy the fonts, write coverage.json
    python tools/build_fonts.py --coverage # only write coverage.json from the bundled fonts
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from fontTools.varLib import instancer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from renderer.names import COVERAGE_FILE, DROPPED, FACES, SEQUENCES_FILE

FONTS = Path(__file__).resolve().parent.parent / "renderer" / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_SC = 2  # the collection's Simplified Chinese face
CJK_RANGES = (
    "U+3000-303F,U+3040-30FF,U+3100-312F,U+3130-318F,U+31F0-31FF,U+4E00-9FFF,"
    "U+AC00-D7A3,U+1100-11FF,U+FF00-FFEF"
)
#: The PyPI package the monochrome Noto Emoji (OFL, unmodified there) is taken from.
EMOJI_PACKAGE = "manimgx-fonts==2026.9.26.post1"
EMOJI_SOURCE = "manimgx_fonts/NotoEmoji[wght].ttf"
#: Private-use code points given to the glyphs of joined emoji (Supplementary PUA-A).
PRIVATE_USE = 0xF0000
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
    with tempfile.TemporaryDirectory() as tmp:
        sequences = build_emoji(emoji_source(Path(tmp)), FONTS / dict(FACES)["emoji"])
    about = "Written by tools/build_fonts.py: emoji sequences and the code point each is drawn as."
    text = json.dumps({"about": about, "sequences": sequences}, ensure_ascii=False, indent=0)
    (FONTS / SEQUENCES_FILE).write_text(text + "\n", encoding="utf-8")
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


def emoji_source(folder: Path) -> Path:
    """Noto Emoji from its PyPI package, downloaded (not installed) into ``folder``."""
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(folder), EMOJI_PACKAGE],
        check=True,
    )
    wheel = next(folder.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extract(EMOJI_SOURCE, folder)
    return folder / EMOJI_SOURCE


def joined_sequences(font: TTFont) -> dict[str, str]:
    """Each sequence of characters the font's ligatures join, with its glyph (presentation
    selectors left out: names are drawn without them)."""
    cmap = font.getBestCmap()
    char_of: dict[str, int] = {}
    for code, glyph in sorted(cmap.items()):
        char_of.setdefault(glyph, code)
    found: dict[str, str] = {}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        if lookup.LookupType != 4:
            continue
        for table in lookup.SubTable:
            for first, ligatures in table.ligatures.items():
                for ligature in ligatures:
                    parts = [first, *ligature.Component]
                    if not all(p in char_of for p in parts):
                        continue
                    text = "".join(chr(char_of[p]) for p in parts if chr(char_of[p]) not in DROPPED)
                    if len(text) > 1:
                        found.setdefault(text, ligature.LigGlyph)
    return found


def build_emoji(source: Path, out: Path) -> dict[str, int]:
    """Noto Emoji at Regular, each joined sequence's glyph at a code point of its own (a
    private-use one unless the glyph has a character already), without layout tables; the
    sequences with their code points."""
    font = instancer.instantiateVariableFont(TTFont(source), {"wght": 400})
    cmap = font.getBestCmap()
    char_of: dict[str, int] = {}
    for code, glyph in sorted(cmap.items()):
        char_of.setdefault(glyph, code)
    sequences: dict[str, int] = {}
    added: dict[int, str] = {}
    for text, glyph in sorted(joined_sequences(font).items()):
        if glyph not in char_of:
            char_of[glyph] = PRIVATE_USE + len(added)
            added[char_of[glyph]] = glyph
        sequences[text] = char_of[glyph]
    full = {**cmap, **added}
    table = CmapSubtable.newSubtable(12)
    table.platformID, table.platEncID, table.language, table.cmap = 3, 10, 0, full
    font["cmap"].tables = [t for t in font["cmap"].tables if t.format != 12] + [table]
    options = subset.Options()
    options.layout_features = []  # names are drawn unshaped: the sequences are mapped above
    options.hinting = False
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=full.keys())
    subsetter.subset(font)
    font.save(out)
    return sequences


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
