"""The bundled DejaVu Sans fonts (see LICENSE-DejaVu.txt), so text is identical everywhere.

Players' names are drawn by `renderer.names` with DejaVu Sans and, for the scripts it lacks,
Noto Sans Arabic, Hebrew, CJK (subset), Noto Emoji (monochrome) and Noto Sans Symbols 1 and
2 (LICENSE-Noto.txt: SIL OFL 1.1; tools/build_fonts.py builds them, coverage.json and
sequences.json).

Text layout: by default Pillow lays text out with libraqm when the host has it (and its
FriBiDi/HarfBuzz), else with its own basic layout. ``set_text_layout("basic")`` makes every
font use Pillow's basic layout, so the pixels no longer depend on the host's text libraries;
the golden games hash pictures drawn that way (``renderer.render.use_text_layout`` also forgets
every picture drawn with the previous layout).
"""

from __future__ import annotations

import functools
import io
from importlib import resources
from typing import Literal

from PIL import ImageFont

Weight = Literal["regular", "bold"]
TextLayout = Literal["default", "basic"]

_FILES: dict[str, str] = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
# "default": whatever Pillow picks on this host (raqm when available); "basic": Pillow's own.
_ENGINES: dict[str, ImageFont.Layout | None] = {"default": None, "basic": ImageFont.Layout.BASIC}
_layout: list[TextLayout] = ["default"]


def text_layout() -> TextLayout:
    """The text layout fonts are made with now ("default" or "basic")."""
    return _layout[0]


def set_text_layout(layout: TextLayout) -> None:
    """Make every font from now on lay text out with ``layout`` ("default" or "basic")."""
    if layout not in _ENGINES:
        raise ValueError(f"unknown text layout {layout!r}; expected one of {sorted(_ENGINES)}")
    _layout[0] = layout
    font.cache_clear()


@functools.cache
def _font_bytes(weight: Weight) -> bytes:
    """Return the raw bytes of the bundled font file for ``weight``."""
    # Read through importlib.resources so it also works from a zipped install.
    return resources.files("renderer.fonts").joinpath(_FILES[weight]).read_bytes()


@functools.lru_cache(maxsize=64)
def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """Return the bundled DejaVu Sans font at ``size`` pixels (cached)."""
    engine = _ENGINES[_layout[0]]
    return ImageFont.truetype(io.BytesIO(_font_bytes(weight)), size, layout_engine=engine)
