"""People's names on the pictures, in any of the scripts the bundled fonts cover.

A name is drawn with DejaVu Sans where it can be, else glyph by glyph with the first bundled
Noto font that has it (renderer/fonts/LICENSE-Noto.txt lists them and their licence). Emoji
are drawn monochrome with Noto Emoji; a sequence it joins (a ZWJ sequence, a flag, a keycap,
a skin tone) is first replaced by the one character its glyph was given (sequences.json),
since names are laid out unshaped. Arabic is shaped
(arabic-reshaper) and right-to-left text put in visual order (python-bidi) before it is laid
out with Pillow's basic layout, so a name looks the same with or without libraqm. A name
with a character no bundled font has is never drawn as boxes: the fallback is drawn instead
(`drawable`).
"""

from __future__ import annotations

import functools
import io
import json
import re
import unicodedata
from collections.abc import Sequence
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

#: The faces names are drawn with, in the order they are tried: (key, file in renderer.fonts).
FACES: tuple[tuple[str, str], ...] = (
    ("dejavu", "DejaVuSans.ttf"),
    ("arabic", "NotoSansArabic-Regular.ttf"),
    ("hebrew", "NotoSansHebrew-Regular.ttf"),
    ("cjk", "NotoSansCJKsc-Regular-subset.otf"),
    ("emoji", "NotoEmoji-Regular-mapped.ttf"),
    ("symbols2", "NotoSansSymbols2-Regular.ttf"),
    ("symbols", "NotoSansSymbols-Regular.ttf"),
)
#: The characters each face covers, as ranges (written by tools/build_fonts.py).
COVERAGE_FILE = "coverage.json"
#: The emoji sequences Noto Emoji joins, each with the character it is drawn as (written by
#: tools/build_fonts.py).
SEQUENCES_FILE = "sequences.json"
#: Characters that change how an emoji is shown, not what it is: dropped (drawn monochrome).
DROPPED = frozenset({"\ufe0e", "\ufe0f"})
ELLIPSIS = "…"


@functools.cache
def coverage() -> dict[str, tuple[tuple[int, int], ...]]:
    """Each face's characters as sorted (first, last) ranges."""
    text = resources.files("renderer.fonts").joinpath(COVERAGE_FILE).read_text(encoding="utf-8")
    stored = json.loads(text)["faces"]
    return {key: tuple((int(a), int(b)) for a, b in stored[key]) for key, _ in FACES}


def _covers(face: str, char: str) -> bool:
    code = ord(char)
    ranges = coverage()[face]
    lo, hi = 0, len(ranges)
    while lo < hi:
        mid = (lo + hi) // 2
        first, last = ranges[mid]
        if code < first:
            hi = mid
        elif code > last:
            lo = mid + 1
        else:
            return True
    return False


def face_of(char: str) -> str | None:
    """The first face that has ``char`` (a space or a mark goes with its neighbours: "")."""
    if char.isspace():
        return ""
    if unicodedata.category(char) in ("So", "Co") and _covers("emoji", char):
        return "emoji"  # every emoji in one style, though DejaVu has a few of its own
    for key, _ in FACES:
        if _covers(key, char):
            return key
    return None


@functools.cache
def _sequences() -> tuple[dict[str, str], re.Pattern[str]]:
    """The joined emoji sequences, each with the character drawn for it, and a pattern that
    finds them, longest first."""
    text = resources.files("renderer.fonts").joinpath(SEQUENCES_FILE).read_text(encoding="utf-8")
    joined = {seq: chr(code) for seq, code in json.loads(text)["sequences"].items()}
    pattern = "|".join(re.escape(s) for s in sorted(joined, key=len, reverse=True))
    return joined, re.compile(pattern)


def clean(name: str) -> str:
    """A display name as drawn: one line, without emoji presentation selectors or controls,
    each joined emoji sequence as the one character drawn for it."""
    out = []
    for char in " ".join(name.split()):
        if char in DROPPED:
            continue
        if unicodedata.category(char) in ("Cc", "Cf") and char != "\u200d":
            continue  # bidi marks and other invisible formatting (a joiner is refused below)
        out.append(char)
    joined, pattern = _sequences()
    return pattern.sub(lambda m: joined[m.group(0)], "".join(out)).strip()


def missing(name: str) -> list[str]:
    """The characters of ``name`` that no bundled font has (a joiner left over, of a
    sequence no font joins, counts as one: its parts would be drawn apart)."""
    return [c for c in clean(name) if c == "\u200d" or face_of(c) is None]


def drawable(name: str) -> bool:
    """Whether every character of ``name`` is drawn with a bundled font (no box ever)."""
    cleaned = clean(name)
    return bool(cleaned) and not missing(cleaned)


def visual(name: str) -> str:
    """``name`` shaped and in visual order: Arabic joined, right-to-left runs reversed."""
    if not any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        return name
    from arabic_reshaper import reshape  # type: ignore[import-untyped]  # ships no types
    from bidi import get_display  # type: ignore[import-untyped]  # ships no types

    return str(get_display(reshape(name)))


def _runs(text: str) -> list[tuple[str, str]]:
    """``text`` (in visual order) as (run, face) pieces, each drawn with one face."""
    runs: list[tuple[str, str]] = []
    for char in text:
        face = face_of(char)
        if face is None:
            raise ValueError(f"no bundled font has {char!r} (U+{ord(char):04X})")
        if face == "" or unicodedata.combining(char):
            face = runs[-1][1] if runs else "dejavu"
            if face == "emoji" and char.isspace():
                face = "dejavu"  # Noto Emoji's space is as wide as an emoji
        if runs and runs[-1][1] == face:
            runs[-1] = (runs[-1][0] + char, face)
        else:
            runs.append((char, face))
    return runs


@functools.cache
def _font_bytes(face: str) -> bytes:
    file = dict(FACES)[face]
    return resources.files("renderer.fonts").joinpath(file).read_bytes()


@functools.lru_cache(maxsize=64)
def _font(face: str, size: int) -> ImageFont.FreeTypeFont:
    # The basic layout always: the text is shaped and ordered already, and the pixels must not
    # depend on whether the host has libraqm.
    return ImageFont.truetype(
        io.BytesIO(_font_bytes(face)), size, layout_engine=ImageFont.Layout.BASIC
    )


def width(name: str, size: int) -> int:
    """How wide ``name`` (drawable) is drawn at ``size``."""
    return _mask(visual(clean(name)), size)[0].width


@functools.lru_cache(maxsize=512)
def _mask(text: str, size: int) -> tuple[Image.Image, int]:
    """The coverage mask of ``text`` (visual order) at ``size`` and its top's offset from the
    middle of DejaVu's line (as Pillow's "m" anchor); faces share DejaVu's baseline."""
    runs = _runs(text)
    base = _font("dejavu", size)
    ascent, descent = base.getmetrics()
    pieces = []
    top = bottom = 0
    total = 0
    for run, face in runs:
        f = _font(face, size)
        left, t, right, b = (int(v) for v in f.getbbox(run, anchor="ls"))
        advance = round(f.getlength(run))
        pieces.append((run, f, total, left))
        top, bottom = min(top, t), max(bottom, b)
        total += max(advance, right)
    mask = Image.new("L", (max(total, 1), max(bottom - top, 1)), 0)
    draw = ImageDraw.Draw(mask)
    for run, f, x, _left in pieces:
        draw.text((x, -top), run, font=f, fill=255, anchor="ls")
    # Pillow's "m": half way between DejaVu's ascender and descender, above the baseline.
    return mask, top + (ascent - descent) // 2


def fitted(name: str, fallback: str, size: int, room: int) -> str:
    """What to draw for a person: their name cut to ``room`` pixels at ``size``, or the
    fallback's, when a bundled font lacks a character of the name ("" when neither fits)."""
    for candidate in (name, fallback):
        cleaned = clean(candidate)
        if not cleaned or not drawable(cleaned):
            continue
        if width(cleaned, size) <= room:
            return cleaned
        chars = list(cleaned)
        while chars:
            chars.pop()
            cut = "".join(chars).rstrip() + ELLIPSIS
            if width(cut, size) <= room:
                return cut
    return ""


def masked(name: str, size: int, anchor: str = "lm") -> tuple[Image.Image, int, int]:
    """A drawable name's coverage mask and its offset from the point it is drawn at (anchored
    at the left or right end, "lm" or "rm", or its middle, "mm")."""
    mask, top = _mask(visual(clean(name)), size)
    left = {"l": 0, "m": -(mask.width // 2), "r": -mask.width}[anchor[0]]
    return mask, left, top


def scripts(names: Sequence[str]) -> dict[str, list[str]]:
    """Each name's characters that no bundled font has (tests and bench report them)."""
    return {name: missing(name) for name in names if missing(name)}
