"""The theme's fixed palette every picture is mapped onto: 128 colours quantized once from
the theme's colours and the static backgrounds, or taken from palettes.json when built
before from the same sources (`tools/build_palettes.py`)."""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections.abc import Callable
from importlib import resources

import PIL
from PIL import Image

from renderer import draw as d
from renderer.background import map_background
from renderer.company_view import company_background
from renderer.layout import BoardLayout, MapLayout, board_layout, map_layout
from renderer.shared_view import shared_background
from renderer.theme import get_theme

PALETTE_COLOURS = 128


def _palette_of(image: Image.Image) -> list[int]:
    """The palette of a palette image (a quantized sheet, a theme's palette)."""
    colours = image.getpalette()
    assert colours is not None, "a palette image has a palette"
    return colours


# Building a palette maps a 15-megapixel sheet (a fifth of a second, 200 MB at its peak):
# render threads that both need it wait for one build instead of building it twice.
_PALETTE_LOCK = threading.Lock()


def palette(theme_name: str) -> Image.Image:
    """Return a 128-colour palette image for ``theme_name``, drawn from its static images once."""
    with _PALETTE_LOCK, d.not_recording():
        return _palette(theme_name)


#: Palettes built before, by the fingerprint of what they were built from (palettes.json;
#: `tools/build_palettes.py` writes it).
PALETTES_FILE = "palettes.json"


@functools.lru_cache(maxsize=8)
def _palette(theme_name: str) -> Image.Image:
    """Build the palette of ``palette``, or take it from palettes.json when built before.

    Its sources are every theme colour and company colour (as swatches) and the static
    backgrounds, so pieces, highlights and the antialiased edges of text all map closely.
    Quantizing their 15-megapixel sheet peaks at about 200 MB, two thirds of a bot
    process's memory: so the sources are drawn one at a time and fingerprinted (their
    pixels, the sheet's background and Pillow's version), and a palette stored under that
    fingerprint is the very one the quantizer would return. Only a new background, theme
    or Pillow builds the sheet again.
    """
    sources = _palette_sources(theme_name)
    stored = _stored_palettes().get(palette_fingerprint(theme_name, sources))
    kept = Image.new("P", (1, 1))
    kept.putpalette(bytes.fromhex(stored) if stored else _quantized_palette(theme_name, sources))
    return kept


PaletteSources = list[tuple[tuple[int, int], Callable[[], Image.Image]]]


def _palette_sources(theme_name: str) -> PaletteSources:
    """The images the palette is drawn from, each with its size and how to draw it."""
    theme = get_theme(theme_name)
    colours = [*theme.colours.values()]
    for style in theme.companies.values():
        colours += [style.fill, style.outline, style.ink]
    swatch = Image.new("RGB", (32 * len(colours), 32))
    for i, colour in enumerate(colours):
        swatch.paste(colour, (32 * i, 0, 32 * i + 32, 32))
    # The 4-player shared board and the company boards are drawn for the palette only and let
    # go at once (a game caches those it shows): they are not all held at the same time as
    # the sheet and the quantizer's buffers, nor afterwards.
    return [
        (swatch.size, lambda: swatch),
        (_layout_size(map_layout("base")), lambda: map_background("base", theme_name)),
        (
            _layout_size(board_layout("shared")),
            lambda: _uncached(shared_background)(4, "intro", theme_name, ()),
        ),
        *(
            (
                _layout_size(board_layout("company")),
                functools.partial(_uncached(company_background), cid, theme_name, ()),
            )
            for cid in theme.companies
        ),
    ]


def palette_fingerprint(theme_name: str, sources: PaletteSources) -> str:
    """SHA-256 of everything the quantizer would see (drawn one source at a time)."""
    digest = hashlib.sha256(f"Pillow {PIL.__version__}\n".encode())
    digest.update(repr(get_theme(theme_name).colour("background")).encode())
    for size, draw_source in sources:
        source = draw_source()
        assert source.size == size, (source.size, size)
        digest.update(repr((source.mode, source.size)).encode())
        digest.update(source.tobytes())
        del source
    return digest.hexdigest()


def _quantized_palette(theme_name: str, sources: PaletteSources) -> bytes:
    """Stack the sources on one sheet and quantize it: the palette's RGB bytes."""
    width = max(size[0] for size, _ in sources)
    height = sum(size[1] for size, _ in sources)
    sheet = Image.new("RGB", (width, height), get_theme(theme_name).colour("background"))
    y = 0
    for size, draw_source in sources:
        source = draw_source()
        assert source.size == size, (source.size, size)
        sheet.paste(source, (0, y))
        y += source.height
        del source
    mapped = sheet.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    # Keep the palette, not the 15-megapixel sheet mapped onto it: quantize(palette=...) and
    # getpalette() read only the palette.
    return bytes(_palette_of(mapped))


def build_palette(theme_name: str) -> tuple[str, str]:
    """(fingerprint, palette as hex) of a theme with the current text layout, for
    palettes.json (tools/build_palettes.py)."""
    sources = _palette_sources(theme_name)
    return palette_fingerprint(theme_name, sources), _quantized_palette(theme_name, sources).hex()


@functools.cache
def _stored_palettes() -> dict[str, str]:
    """palettes.json: palette RGB bytes as hex, by fingerprint (empty if there is none)."""
    try:
        text = resources.files("renderer").joinpath(PALETTES_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    stored: dict[str, str] = json.loads(text)["palettes"]
    return stored


def _layout_size(layout: MapLayout | BoardLayout) -> tuple[int, int]:
    return layout.width, layout.height


def _uncached(function: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
    """The drawing function under an lru_cache."""
    return getattr(function, "__wrapped__", function)
