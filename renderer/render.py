"""The renderer's entry points: ``render`` (PNG bytes of one view) and ``render_score_sheet``."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from typing import TypeVar

import PIL
from PIL import Image, ImageDraw

from bot.rules.events import Event
from bot.rules.state import GameOptions, GameState
from renderer import draw as d
from renderer import fonts
from renderer.background import map_background
from renderer.company_view import board_height as company_height
from renderer.company_view import (
    company_background,
    company_key,
    draft_offer,
    draw_company,
    half_background,
    strips,
)
from renderer.expansions import extending, view_height
from renderer.layout import BoardLayout, MapLayout, Point, Rect, board_layout, map_layout
from renderer.map_view import draw_map
from renderer.score_sheet import draw_score_sheet
from renderer.shared_view import draw_shared, shared_background
from renderer.theme import ALL_VIEWS, Theme, get_theme

# zlib level 6 is the size/time sweet spot for these flat-coloured images; optimize=True
# would rerun the compressor for a few per cent at twice the time.
PNG_OPTIONS = {"compress_level": 6, "optimize": False}
FULL_CAPTION = (
    "Full board: zoom in to read it. The map, shared and company views are sized for phones."
)
GAP = 16
TOP = 60  # the caption strip above the full board
PALETTE_COLOURS = 128
# What a view draws over its background is mapped onto the palette in tiles of this size.
TILE = 32


def render(
    state: GameState,
    *,
    view: str = "map",
    company: str | None = None,
    theme: str = "light",
    highlight: Iterable[str] = (),
) -> bytes:
    """Return a PNG of one view of ``state`` ("map", "shared", "company" or "full").

    ``company`` picks the board of the company view (default: whose turn it is, else the first
    seat); ``highlight`` lists ids to mark as legal choices (spaces, contracts, tiles, "build").
    The state is only read.
    """
    look, lit = _check(view, theme, highlight)
    if view == "full":
        # The full board has four times a partial view's pixels: on a fixed palette it encodes
        # about four times faster and half as large, which keeps it under 150 ms and 500 KB.
        # Partial views stay RGB: they meet their targets with exact antialiasing.
        return encode(_full_palette(state, look, lit))
    return encode(
        _view(state, view, _company(state, company) if view == "company" else None, look, lit).image
    )


def render_image(
    state: GameState,
    *,
    view: str = "map",
    company: str | None = None,
    theme: str = "light",
    highlight: Iterable[str] = (),
) -> Image.Image:
    """Return one view as a new RGB Pillow image (``render`` without the PNG encoding)."""
    look, lit = _check(view, theme, highlight)
    if view == "full":
        return draw_full(state, look, lit)
    cid = _company(state, company) if view == "company" else None
    return _view(state, view, cid, look, lit).image.copy()


def _check(view: str, theme: str, highlight: Iterable[str]) -> tuple[Theme, frozenset[str]]:
    if view not in ALL_VIEWS:
        raise ValueError(f"unknown view {view!r}; expected one of {list(ALL_VIEWS)}")
    return get_theme(theme), frozenset(str(h) for h in highlight)


class _ImageCache:
    """A least-recently-used cache of finished images, bounded by their pixel memory."""

    def __init__(self, budget_bytes: int) -> None:
        self.budget = budget_bytes
        self.used = 0
        self.items: OrderedDict[tuple[object, ...], _Cached] = OrderedDict()

    def get(self, key: tuple[object, ...], make: Callable[[], _C]) -> _C:
        """Return the item cached under ``key``, drawing it with ``make`` on a miss."""
        item = self.items.get(key)
        if item is not None:
            self.items.move_to_end(key)
            return item  # type: ignore[return-value]  # a key is only ever made by one `make`
        item = make()
        self.items[key] = item
        self.used += _bytes(item)
        while self.used > self.budget and len(self.items) > 1:
            _, old = self.items.popitem(last=False)
            self.used -= _bytes(old)
        return item

    def clear(self) -> None:
        """Forget every image."""
        self.items.clear()
        self.used = 0


@dataclass(frozen=True, slots=True)
class _Drawn:
    """A partial view and the boxes it drew over its static background."""

    image: Image.Image
    dirty: tuple[Rect, ...]


# A part of the full board on the palette: its static background's place in the cached
# palette canvas, overlaid with these (offset, palette image) patches of what the state drew.
_Patches = tuple[tuple[Point, Image.Image], ...]
_Cached = Image.Image | _Drawn | _Patches
_C = TypeVar("_C", Image.Image, _Drawn, _Patches)


def _bytes(item: _Cached) -> int:
    if isinstance(item, _Drawn):
        item = item.image
    if isinstance(item, tuple):
        return sum(_bytes(patch) for _, patch in item)
    return item.width * item.height * (1 if item.mode in ("P", "L") else 4)


# The game service renders the partial views of a state and then, on request, the full board
# of the same state; one turn changes one company's board. Finished views are kept (keyed by
# everything they are drawn from) so the full board is composed from them instead of drawn
# twice, and unchanged company boards are reused. Cached images are never handed out.
_VIEWS = _ImageCache(32 * 1024 * 1024)


def _palette_of(image: Image.Image) -> list[int]:
    """The palette of a palette image (a quantized sheet, a theme's palette)."""
    colours = image.getpalette()
    assert colours is not None, "a palette image has a palette"
    return colours


def clear_caches() -> None:
    """Forget every finished view (static backgrounds and text stay cached); for benchmarks."""
    _VIEWS.clear()


def use_text_layout(layout: fonts.TextLayout) -> None:
    """Draw text with ``layout`` from now on ("basic": Pillow's own, whatever the host has).

    Process-wide, for start-up and tests (the golden games): it forgets every cached picture,
    background and text mask of the renderer, so call it while no other thread renders.
    """
    fonts.set_text_layout(layout)
    _VIEWS.clear()
    # Every lru_cache of the renderer may hold pixels or measures made with the old layout.
    for name, module in list(sys.modules.items()):
        if _in_renderer(name):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and _in_renderer(getattr(value, "__module__", None) or ""):
                    clear()


def _in_renderer(module_name: str) -> bool:
    return module_name == "renderer" or module_name.startswith("renderer.")


def _view(
    state: GameState, view: str, company: str | None, theme: Theme, lit: frozenset[str]
) -> _Drawn:
    """Return the cached image of one partial view; callers must not draw on it."""
    if view == "company":
        assert company is not None
        key = ("company", company_key(state, company), theme.name, lit)
        return _VIEWS.get(key, lambda: _drawn(draw_company, state, company, theme, lit))
    draw_view = draw_map if view == "map" else draw_shared
    return _VIEWS.get(
        (view, repr(state), theme.name, lit), lambda: _drawn(draw_view, state, theme, lit)
    )


def _drawn(draw_view: Callable[..., Image.Image], *args: object) -> _Drawn:
    dirty: list[Rect] = []
    image = draw_view(*args, dirty=dirty)
    return _Drawn(image, tuple(dirty))


def _small_board(state: GameState, company: str, theme: Theme, lit: frozenset[str]) -> _Drawn:
    # Company boards at half scale: the full board is for zooming, and four full-size boards
    # would double the pixels to encode. Drawn at that size, not halved: a quarter of the work.
    key = ("small company", company_key(state, company), theme.name, lit)
    return _VIEWS.get(
        key, lambda: _drawn(functools.partial(draw_company, half=True), state, company, theme, lit)
    )


def render_score_sheet(state: GameState, events: Iterable[Event], *, theme: str = "light") -> bytes:
    """Return a PNG score sheet: final VP by source (from ``events``) and per-round charts."""
    return encode(draw_score_sheet(state, list(events), get_theme(theme)))


def encode(image: Image.Image) -> bytes:
    """Return ``image`` as PNG bytes."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", **PNG_OPTIONS)
    return buf.getvalue()


def warm(theme_name: str = "light") -> None:
    """Build the static images every full board of the base map needs, ahead of any request."""
    _background_index(theme_name)
    _caption_palette(theme_name)
    _on_palette(theme_name, map_background, "base", theme_name)


# Building a palette maps a 15-megapixel sheet (a fifth of a second, 200 MB at its peak):
# render threads that both need it wait for one build instead of building it twice.
_PALETTE_LOCK = threading.Lock()


def palette(theme_name: str) -> Image.Image:
    """Return a 128-colour palette image for ``theme_name``, drawn from its static images once."""
    with _PALETTE_LOCK:
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
        (_size(map_layout("base")), lambda: map_background("base", theme_name)),
        (
            _size(board_layout("shared")),
            lambda: _uncached(shared_background)(4, "intro", theme_name, ()),
        ),
        *(
            (
                _size(board_layout("company")),
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


def _size(layout: MapLayout | BoardLayout) -> tuple[int, int]:
    return layout.width, layout.height


def _uncached(function: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
    """The drawing function under an lru_cache."""
    return getattr(function, "__wrapped__", function)


def _company(state: GameState, company: str | None) -> str:
    boards = board_ids(state)
    if company is None:
        if state.current in boards:
            return state.current
        if not boards:
            raise ValueError("no company boards in this game yet")
        return boards[0]
    if company not in boards:
        raise ValueError(f"no company {company!r} in this game; expected one of {sorted(boards)}")
    return company


def board_ids(state: GameState) -> list[str]:
    """Return the company boards to show: by seat, or during the draft the boards on offer."""
    if state.companies:
        return [cid for cid in state.seats if cid in state.companies]
    return list(draft_offer(state))


def full_places(state: GameState) -> dict[str, Point]:
    """Return where each part of the full board goes: "map", "shared" and the company ids."""
    return dict(_arrangement(state.options, board_ids(state))[2])


def _arrangement(
    options: GameOptions, seats: list[str]
) -> tuple[int, int, list[tuple[str, Point]]]:
    """Return the full board's size and where its parts go: map, shared, then company boards."""
    map_layout_ = map_layout(options.map)
    shared = board_layout("shared")
    company = board_layout("company")
    # An expansion may append to the shared and company views (a board extension below);
    # company boards are shown at half size, as ``half_background`` halves them.
    shared_h = view_height("shared", options)
    bw, bh = company.width // 2, company_height(options) // 2
    rows = (len(seats) + 1) // 2
    left_w = map_layout_.width
    left_h = map_layout_.height + GAP + rows * (bh + GAP)
    places: list[tuple[str, Point]] = [("map", (0, TOP)), ("shared", (left_w + GAP, TOP))]
    for i, cid in enumerate(seats):
        x = (i % 2) * (bw + GAP) + (left_w - 2 * bw - GAP) // 2
        y = TOP + map_layout_.height + GAP + (i // 2) * (bh + GAP)
        places.append((cid, (x, y)))
    height = TOP + max(left_h, shared_h)
    return left_w + GAP + shared.width, height, places


def _part(state: GameState, name: str, theme: Theme, lit: frozenset[str]) -> Image.Image:
    if name in ("map", "shared"):
        return _view(state, name, None, theme, lit).image
    return _small_board(state, name, theme, lit).image


def draw_full(
    state: GameState, theme: Theme, highlight: frozenset[str] = frozenset()
) -> Image.Image:
    """Return everything in one RGB image: map and shared boards side by side, boards below."""
    width, height, places = _arrangement(state.options, board_ids(state))
    image = Image.new("RGB", (width, height), theme.colour("background"))
    image.paste(_caption(theme.name), (0, 0))
    for name, at in places:
        image.paste(_part(state, name, theme, highlight), at)
    return image


def _full_palette(state: GameState, theme: Theme, lit: frozenset[str]) -> Image.Image:
    """Return the full board on the theme's palette: static backgrounds with each part's patches.

    Mapping a pixel onto the palette is the same wherever it is done, so only what the state
    drew over a static background is mapped (and kept per part); the backgrounds are mapped
    once. The pixels equal those of mapping the composed RGB board (``draw_full``).
    """
    width, height, places = _arrangement(state.options, board_ids(state))
    image = Image.new("P", (width, height), _background_index(theme.name))
    image.putpalette(_palette_of(palette(theme.name)))
    image.paste(_caption_palette(theme.name), (0, 0))
    for name, (x, y) in places:
        image.paste(_static_part(state, name, theme.name), (x, y))
        for (dx, dy), patch in _patches(state, name, theme, lit):
            image.paste(patch, (x + dx, y + dy))
    return image


def _patches(state: GameState, name: str, theme: Theme, lit: frozenset[str]) -> _Patches:
    """Return what ``state`` drew over one part's background, on the palette."""
    if name in ("map", "shared"):
        key: tuple[object, ...] = ("patches", name, repr(state), theme.name, lit)
    else:
        key = ("patches", company_key(state, name), theme.name, lit)

    def make() -> _Patches:
        if name in ("map", "shared"):
            drawn = _view(state, name, None, theme, lit)
        else:
            drawn = _small_board(state, name, theme, lit)
        pal = palette(theme.name)
        return tuple(
            (box[:2], drawn.image.crop(box).quantize(palette=pal, dither=Image.Dither.NONE))
            for box in d.regions(drawn.dirty, drawn.image.size, TILE)
        )

    return _VIEWS.get(key, make)


def _static_part(state: GameState, name: str, theme_name: str) -> Image.Image:
    """Return the static background of one part of the full board on the palette."""
    options = state.options
    if name == "map":
        return _on_palette(theme_name, map_background, options.map, theme_name)
    shared = extending(options.expansions, "shared")
    if name == "shared":
        return _on_palette(
            theme_name, shared_background, options.players, options.setup, theme_name, shared
        )
    extensions, rivers = extending(options.expansions, "company"), strips(options)
    return _on_palette(theme_name, half_background, name, theme_name, extensions, rivers)


@functools.lru_cache(maxsize=64)
def _on_palette(
    theme_name: str, background: Callable[..., Image.Image], *args: object
) -> Image.Image:
    """Return ``background(*args)`` mapped onto the palette of ``theme_name``."""
    return background(*args).quantize(palette=palette(theme_name), dither=Image.Dither.NONE)


@functools.lru_cache(maxsize=8)
def _caption(theme_name: str) -> Image.Image:
    """Return the full board's caption strip."""
    theme = get_theme(theme_name)
    width = map_layout("base").width + GAP + board_layout("shared").width
    strip = Image.new("RGB", (width, TOP), theme.colour("background"))
    sizes = theme.views["full"].text
    d.text(
        ImageDraw.Draw(strip),
        (18, TOP // 2),
        FULL_CAPTION,
        sizes["label"],
        theme.colour("text"),
        "regular",
        "lm",
    )
    return strip


@functools.lru_cache(maxsize=8)
def _caption_palette(theme_name: str) -> Image.Image:
    """Return the caption strip on the theme's palette."""
    return _caption(theme_name).quantize(palette=palette(theme_name), dither=Image.Dither.NONE)


@functools.lru_cache(maxsize=8)
def _background_index(theme_name: str) -> int:
    swatch = Image.new("RGB", (1, 1), get_theme(theme_name).colour("background"))
    index = swatch.quantize(palette=palette(theme_name), dither=Image.Dither.NONE).getpixel((0, 0))
    assert isinstance(index, (int, float)), "a palette image's pixel is one index"
    return int(index)
