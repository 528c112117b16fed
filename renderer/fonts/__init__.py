"""The bundled DejaVu Sans fonts (see LICENSE-DejaVu.txt), so text is identical everywhere."""

from __future__ import annotations

import functools
import io
from importlib import resources
from typing import Literal

from PIL import ImageFont

Weight = Literal["regular", "bold"]

_FILES: dict[str, str] = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}


@functools.cache
def _font_bytes(weight: Weight) -> bytes:
    """Return the raw bytes of the bundled font file for ``weight``."""
    # Read through importlib.resources so it also works from a zipped install.
    return resources.files("renderer.fonts").joinpath(_FILES[weight]).read_bytes()


@functools.lru_cache(maxsize=64)
def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """Return the bundled DejaVu Sans font at ``size`` pixels (cached)."""
    return ImageFont.truetype(io.BytesIO(_font_bytes(weight)), size)
