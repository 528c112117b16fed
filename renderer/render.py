"""The renderer's entry points: ``render`` (PNG bytes of one view) and ``render_score_sheet``.

A phone view is a stack of parts: the header (turn line and scoreboard, `renderer.header`),
the view's body (map, shared boards, a company board or an expansion's board) and, on the map
and shared views, a compact key of their symbols (`renderer.legend`). Every part has a static
background drawn once and mapped once onto the theme's fixed palette; what the state draws over
it is noted box by box (`draw.Recorder`), and only those boxes are kept, on the palette. The
PNG is a palette image: a schematic picture needs few colours, and mapping a few boxes costs far
less than encoding an RGB image (bench/render.py prints both).

A view that can draws straight onto its background on the palette (`draw.over`): hard-edged
shapes in the palette index their colour maps to, stamps as mapped once, and a text blended
over what the RGB picture has under it (`draw.Underneath`); where a state needs what cannot be
so drawn, the part is drawn again in RGB and mapped. Either way the pixels are those of mapping
the composed RGB view (tests/renderer/test_palette_drawing.py compares the two).
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.rules.events import Event
from bot.rules.state import GameOptions, GameState
from renderer import draw as d
from renderer import fonts, header, legend, png, score_sheet
from renderer.background import map_background
from renderer.company_view import board_height as company_height
from renderer.company_view import (
    board_of,
    company_background,
    company_key,
    draft_offer,
    draw_company,
    half_background,
    strips,
)
from renderer.expansions import expansion_views, extending
from renderer.expansions.drawing import Drawing
from renderer.layout import Point, Rect, board_layout, map_layout
from renderer.map_view import draw_map
from renderer.palette import PALETTE_COLOURS as PALETTE_COLOURS
from renderer.palette import PALETTES_FILE as PALETTES_FILE
from renderer.palette import _palette_of, palette
from renderer.palette import build_palette as build_palette
from renderer.palette import palette_fingerprint as palette_fingerprint
from renderer.people import Player
from renderer.shared_view import draw_shared, shared_background
from renderer.statics import COMPOSED as _COMPOSED
from renderer.statics import LARGEST_COMPOSED
from renderer.statics import ON_PALETTE as _ON_PALETTE
from renderer.statics import background_index as _background_index
from renderer.statics import ink_index as _ink_index
from renderer.statics import lay_out_recurring_texts as _lay_out_recurring_texts
from renderer.statics import mapped as _mapped
from renderer.statics import on_palette as _on_palette
from renderer.statics import scratch_copy as _scratch_copy
from renderer.statics import static_key as _static_key
from renderer.theme import PARTIAL_VIEWS, Theme, ViewStyle, get_theme
from renderer.view_cache import Drawn as _Drawn
from renderer.view_cache import ImageCache as _ImageCache
from renderer.view_cache import Patches as _Patches

# zlib level 6 is the size/time sweet spot for these flat-coloured images; optimize=True
# would rerun the compressor for a few per cent at twice the time. `encode` deflates at this
# level with zlib-ng (renderer.png), Pillow's writer with these options being its fallback.
PNG_OPTIONS = {"compress_level": 6, "optimize": False}
#: The largest PNG a view may be (issue 27: 350 KB); one over it at level 6 is compressed again
#: at these levels, in turn, until it fits: level 8 takes 5% off a full board at three times
#: the encoding time, level 9 11% at eight times (bench/render.py measures both).
LARGEST_PNG = 350 * 1024
HARDER_LEVELS = (8, 9)
FULL_CAPTION = (
    "Full board: zoom in to read it. The map, shared and company views are sized for phones."
)
GAP = 16
TOP = 60  # the caption strip above the full board
TILE = d.TILE
SHARED_TITLE = "Shared boards"


def render(
    state: GameState,
    *,
    view: str = "map",
    company: str | None = None,
    theme: str = "light",
    highlight: Iterable[str] = (),
    preview: bool = False,
    players: Iterable[Player] = (),
    changed: Iterable[str] = (),
    changed_since: str = "",
    deadlines: Iterable[tuple[str, int]] = (),
) -> bytes:
    """Return a PNG of one view of ``state`` ("map", "shared", "company", "full", or a view
    an expansion adds, see `views`).

    ``company`` picks the board of the company view (default: whose turn it is, else the first
    seat); ``highlight`` lists ids to mark as legal choices (spaces, contracts, tiles, "build");
    ``preview`` marks the picture as a player's private preview of a turn in progress;
    ``players`` say who plays each company (names beside the symbols, computer seats marked);
    ``changed`` lists the spaces the last turn changed (ringed on the map, named under the
    header; ``changed_since`` says since when, if not the last turn: "your last turn");
    ``deadlines`` say by when each player asked to act must act (company, UTC epoch ms: the
    header says it as a time, never a countdown). Every
    view is a palette PNG on the theme's fixed palette. The state is only read.
    """
    look, lit = _check(state, view, theme, highlight)
    parts, size = _layout(
        state, view, company, look, lit, preview, _who(players, changed, changed_since, deadlines)
    )
    return _encoded(parts, size, look.name)


def _encoded(parts: list[_Part], size: tuple[int, int], theme_name: str) -> bytes:
    """The PNG of the parts composed (`_compose`) one pixel right of a column of zeros: the
    PNG's rows behind their filter bytes, deflated from the composed bytes themselves."""
    _composed, rows, under = _compose(parts, size, theme_name, left=1, scratch=True)
    if under is not None:  # its background's kept: the bands it did not draw over are spliced
        like = _overlaid(parts, size, theme_name, under)
        return _fitting(functools.partial(png.encode_over, size, _colours(theme_name), rows, like))
    picture = memoryview(rows)[: (size[0] + 1) * size[1]]  # less the last part's slack
    return _fitting(functools.partial(png.encode_filtered, size, _colours(theme_name), picture))


def _overlaid(
    parts: list[_Part], size: tuple[int, int], theme_name: str, under: png.Deflated
) -> png.Deflated | png.Overlaid:
    """The rows a picture of these parts most likely shares: their kept composition with what
    its parts draw the same all game (`_Part.steady`: a company board's title and officer)
    drawn over it, made once a composition and kept with it; the composition itself where
    no part has such a drawing. (Drawn in RGB where pictures are, `draw.drawn_in_rgb`, and
    mapped: the same rows either way, so a PNG's bytes depend only on its picture.)"""
    key = tuple(part.steady_key for part in parts if part.steady is not None)
    if not key:
        return under
    kept = under.overlays.get(key)
    if kept is not None:
        return kept
    width, height = size
    stride = width + 1
    rows = bytearray(under.rows)
    for part in parts:
        if part.steady is None:
            continue
        x, y = part.at
        w, h = _size(part)
        place = _mapped(rows, (w, h), stride, y * stride + x + 1)
        with d.placed_at(part.at):
            drawn = part.steady(_target(theme_name, part.static_palette, place))
        if drawn.image is not place:  # drawn in RGB
            mapped = drawn.image.quantize(palette=palette(theme_name), dither=Image.Dither.NONE)
            place.im.paste(mapped.im, (0, 0, w, h))
    made = under.overlays[key] = under.overlaid(rows, height)
    return made


@functools.lru_cache(maxsize=8)
def _colours(theme_name: str) -> bytes:
    """The PNG palette (PLTE) entries of a theme's pictures."""
    return bytes(_palette_of(palette(theme_name)))


def render_image(
    state: GameState,
    *,
    view: str = "map",
    company: str | None = None,
    theme: str = "light",
    highlight: Iterable[str] = (),
    preview: bool = False,
    players: Iterable[Player] = (),
    changed: Iterable[str] = (),
) -> Image.Image:
    """Return one view as a new RGB Pillow image (before it is mapped onto the palette)."""
    look, lit = _check(state, view, theme, highlight)
    parts, size = _layout(state, view, company, look, lit, preview, _who(players, changed))
    image = Image.new("RGB", size, look.colour("background"))
    for part in parts:
        with d.placed_at(part.at):
            image.paste(part.rgb(), part.at)
    return image


def _who(
    players: Iterable[Player],
    changed: Iterable[str],
    since: str = "",
    deadlines: Iterable[tuple[str, int]] = (),
) -> header.Who:
    """Who plays, what the last turn changed and the deadlines, as the header draws them
    (hashable)."""
    spaces = tuple(dict.fromkeys(str(c) for c in changed))
    due = tuple((str(player), int(ms)) for player, ms in deadlines)
    return header.Who(tuple(players), spaces, since, due)


def views(options: GameOptions) -> tuple[str, ...]:
    """The views of a game with these options: the base game's, its expansions' own, full."""
    own = tuple(key for key, _title, _module in expansion_views(options.expansions))
    return (*PARTIAL_VIEWS, *own, "full")


def view_titles(options: GameOptions) -> dict[str, str]:
    """What each view of a game with these options shows, in a few words (for menus)."""
    titles = {
        "map": "the map",
        "shared": "the shared boards",
        "company": "a company board",
    }
    titles.update({key: title for key, title, _module in expansion_views(options.expansions)})
    titles["full"] = "the whole table"
    return titles


def _check(
    state: GameState, view: str, theme: str, highlight: Iterable[str]
) -> tuple[Theme, frozenset[str]]:
    known = views(state.options)
    if view not in known:
        raise ValueError(f"unknown view {view!r}; expected one of {list(known)}")
    return get_theme(theme), frozenset(str(h) for h in highlight)


# The game service renders several views of a state, then on request the full board, which is
# composed from the same parts: each finished part's patches on the palette are kept (keyed by
# everything they are drawn from) so nothing is drawn twice, and unchanged company boards are
# reused. The parts as drawn in RGB are not kept: only `render_image` needs them again, and
# they take four times the memory. Cached images are never handed out.
_VIEWS = _ImageCache(48 * 1024 * 1024)


def clear_caches() -> None:
    """Forget every finished view (static backgrounds and text stay cached); for benchmarks."""
    _VIEWS.clear()


def clear_stamps() -> None:
    """Forget every finished view and every stamp (boxes, pieces, texts on flat colours,
    the views' items, the blocks drawn once: `draw.drawn_once`) with its palette mappings;
    static backgrounds and text masks stay cached. For benchmarks: a position whose items were never drawn before."""
    _VIEWS.clear()
    d.STAMPS.clear()
    d.BLOCKS.clear()


@contextlib.contextmanager
def stamps_forgotten() -> Iterator[None]:
    """While the block runs, every finished view and stamp is forgotten (as by
    `clear_stamps`); after it, the stamps known before it are back. For benchmarks: one
    position drawn with no stamps, without taking from the next what a running bot keeps."""
    _VIEWS.clear()
    with d.STAMPS.forgotten(), d.BLOCKS.forgotten():
        yield
    _VIEWS.clear()


def forget_pictures() -> None:
    """Forget every cached picture, background and text mask of the renderer (tests that read
    every text drawn: static backgrounds are drawn again)."""
    _VIEWS.clear()
    _ON_PALETTE.clear()
    _COMPOSED.clear()
    d.STAMPS.clear()
    d.BLOCKS.clear()
    for name, module in list(sys.modules.items()):
        if _in_renderer(name):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and _in_renderer(getattr(value, "__module__", None) or ""):
                    clear()


def use_text_layout(layout: fonts.TextLayout) -> None:
    """Draw text with ``layout`` from now on ("basic": Pillow's own, whatever the host has).

    Process-wide, for start-up and tests (the golden games): it forgets every cached picture,
    background and text mask of the renderer, so call it while no other thread renders.
    """
    fonts.set_text_layout(layout)
    forget_pictures()


def _in_renderer(module_name: str) -> bool:
    return module_name == "renderer" or module_name.startswith("renderer.")


# -- the parts of a view ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Part:
    """One part of a view: where it goes, its static background and what the state drew."""

    at: Point
    static: functools.partial[Image.Image]  # the RGB background (cached by its maker)
    # The part as drawn over it (None: static only): in RGB, or straight onto the palette
    # given (where the view can: `draw.over`).
    drawn: Callable[[d.PaletteTarget | None], _Drawn] | None
    key: tuple[object, ...]  # everything the drawing reads (the patches' cache key)
    theme: str
    # What it draws the same all game, drawn alone (`_overlaid`), and what that reads.
    steady: Callable[[d.PaletteTarget | None], _Drawn] | None = None
    steady_key: tuple[object, ...] = ()

    def rgb(self) -> Image.Image:
        """The part in RGB."""
        return self.drawn(None).image if self.drawn is not None else self.static()

    def static_palette(self) -> Image.Image:
        """The static background on the palette (cached)."""
        return _on_palette(self.theme, self.static)

    def patches(self, place: Image.Image | None = None) -> tuple[_Patches, bool]:
        """What the state drew over the background, on the palette (cached by `key`; not
        kept when the key is empty), and whether it is drawn already: straight onto ``place``
        (its place in the picture being composed, holding its static background) where the
        view draws on the palette."""
        if self.drawn is None:
            return (), False
        key = ("patches", *self.key)
        kept = _VIEWS.find(key) if self.key else None
        if kept is not None:
            return kept, False  # type: ignore[return-value]  # only patches are kept by it
        drawn = self.drawn(_target(self.theme, self.static_palette, place))
        in_place = place is not None and drawn.image is place
        made = _patches(drawn, self.theme, copy=in_place) if self.key or not in_place else ()
        if self.key:
            _VIEWS._insert(key, made)
        return made, in_place


def _target(
    theme_name: str, background: Callable[[], Image.Image], place: Image.Image | None = None
) -> d.PaletteTarget:
    """The palette of ``theme_name`` for a part whose static background on it is
    ``background()`` (``place``: where to draw it in place, see `d.PaletteTarget`)."""
    pal = palette(theme_name)
    return d.PaletteTarget(
        background,
        functools.partial(_ink_index, theme_name),
        lambda stamp: _stamp_on_palette(stamp, theme_name, pal),
        pal,
        place,
        theme_name,
    )


def _patches(drawn: _Drawn, theme_name: str, copy: bool = False) -> _Patches:
    """What ``drawn`` drew over its background, on the palette of ``theme_name`` (mapped onto
    it, unless drawn straight onto it; ``copy``: drawn in a picture's place, whose pixels are
    copied to be kept)."""
    pal = palette(theme_name)
    boxes = d.regions(drawn.dirty, drawn.image.size, TILE)
    width, height = drawn.image.size
    on_palette = drawn.image.mode == "P"
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) * 3 >= width * height * 2:
        # Mapping the whole part in one pass costs less than cropping most of it (the
        # pixels it did not draw over map as its background did).
        if on_palette:
            return (((0, 0), drawn.image.im.copy() if copy else drawn.image.im, None),)
        whole = drawn.image.quantize(palette=pal, dither=Image.Dither.NONE)
        return (((0, 0), whole.im, None),)
    # The stamps first, in the order drawn, then the boxes mapped from the finished
    # part: where something was drawn over a stamp, its box has the final pixels.
    stamps = tuple(
        (
            at,
            _stamp_on_palette(stamp, theme_name, pal).im,
            None if stamp.mask is None else stamp.mask.im,
        )
        for at, stamp in drawn.stamps
    )
    if on_palette:
        return stamps + tuple((box[:2], drawn.image.im.crop(box), None) for box in boxes)
    # What Image.crop(box).quantize(palette=pal, dither=NONE) does, on the core images.
    rgb, colours = drawn.image.im, pal.im
    return stamps + tuple(
        (box[:2], rgb.crop(box).convert("P", Image.Dither.NONE, colours), None) for box in boxes
    )


def _stamp_on_palette(stamp: d.Stamp, theme_name: str, pal: Image.Image) -> Image.Image:
    """A stamp mapped onto a theme's palette (kept with the stamp)."""
    mapped = stamp.mapped.get(theme_name)
    if mapped is None:
        pal.load()  # its palette in the core image, as quantize makes sure
        if stamp.mapper is not None:
            mapped = stamp.mapper(theme_name, pal)
        else:
            # What quantize(palette=pal, dither=NONE) maps, without copying the palette
            # along: only the mapped pixels are pasted.
            mapped = Image.Image()._new(stamp.rgb.im.convert("P", Image.Dither.NONE, pal.im))
        d.STAMPS.map_onto(stamp, theme_name, mapped)
    return mapped


def _style(view: str, theme: Theme) -> ViewStyle:
    """The text sizes of a view ("company" or a map-wide view)."""
    return theme.views["company" if view == "company" else "map"]


def _layout(
    state: GameState,
    view: str,
    company: str | None,
    theme: Theme,
    lit: frozenset[str],
    preview: bool,
    who: header.Who = header.NOBODY,
) -> tuple[list[_Part], tuple[int, int]]:
    """The parts of a view, top to bottom, and the view's size."""
    if view == "full":
        return _full_parts(state, theme, lit, preview, who)
    style = _style(view, theme)
    state_key = repr(state)  # the parts' cache keys: a large state's repr takes a while
    top = header.height(state, style, preview, who)
    body = _body_part(state, view, company, theme, lit, (0, top), state_key, changed=who.changed)
    if who.deadlines and top + _size(body)[1] > 2 * style.width:
        # A phone view stays within 2:1: one the deadlines' line would take over it (a full
        # company board with two expansions' rows) leaves them to the turn message and the
        # alt text, which say them too.
        who = replace(who, deadlines=())
        top = header.height(state, style, preview, who)
        body = _body_part(
            state, view, company, theme, lit, (0, top), state_key, changed=who.changed
        )
    head = _header_part(state, view, company, style, theme, preview, (0, 0), state_key, who)
    top += _size(body)[1]
    parts = [head, body]
    key_h = shown_key(state, view, theme.name, top)
    if key_h:
        parts.append(_key_part(state, view, theme, (0, top)))
        top += key_h
    return parts, (style.width, top)


def shown_key(state: GameState, view: str, theme_name: str, top: int) -> int:
    """The height of the compact key under a view whose header and body are ``top`` tall (0:
    none). A phone view stays within 2:1: a company board that fills it (two expansions'
    boards together, 3 or 4 seats) says its key in its panels' captions instead."""
    expansions = state.options.expansions
    if not legend.keyed(view, expansions):
        return 0
    height = legend.key_height(view, expansions, theme_name)
    width = _style(view, get_theme(theme_name)).width
    return 0 if view == "company" and top + height > 2 * width else height


def _size(part: _Part) -> tuple[int, int]:
    return part.static().size


def _header_part(
    state: GameState,
    view: str,
    company: str | None,
    style: ViewStyle,
    theme: Theme,
    preview: bool,
    at: Point,
    state_key: str,
    who: header.Who = header.NOBODY,
) -> _Part:
    title = _title(state, view, company)
    size = (style.width, header.height(state, style, preview, who))
    key = ("header", state_key, view, title, style.width, theme.name, preview, who)

    def draw(dirty: list[Rect]) -> Image.Image:
        image, canvas = d.over(_blank(size, theme.name), dirty)
        header.draw_header(canvas, state, theme, style, title, preview=preview, who=who)
        return image

    return _Part(at, functools.partial(_blank, size, theme.name), _drawer(draw), key, theme.name)


@functools.lru_cache(maxsize=32)
def _blank(size: tuple[int, int], theme_name: str) -> Image.Image:
    """A plain canvas of the theme's background colour (callers ``copy()`` it)."""
    return Image.new("RGB", size, get_theme(theme_name).colour("background"))


def _title(state: GameState, view: str, company: str | None) -> str:
    """The view's title in the header."""
    if view == "map":
        return map_layout(state.options.map).title
    if view == "shared":
        return SHARED_TITLE
    if view == "company":
        cid = _company(state, company)
        return f"{company_name(cid)}'s board"
    for key, title, _module in expansion_views(state.options.expansions):
        if key == view:
            return title
    return ""


def _key_part(state: GameState, view: str, theme: Theme, at: Point, width: int = 0) -> _Part:
    expansions = state.options.expansions
    static = functools.partial(legend.key_strip, view, expansions, theme.name, width)
    return _Part(at, static, None, ("key", view), theme.name)


def _body_part(
    state: GameState,
    view: str,
    company: str | None,
    theme: Theme,
    lit: frozenset[str],
    at: Point,
    state_key: str,
    half: bool = False,
    changed: tuple[str, ...] = (),
) -> _Part:
    """The body of a view: the map, the shared boards, a company board or an expansion's
    (``state_key``: the state's repr, made once per picture)."""
    options = state.options
    if view == "company":
        cid = _company(state, company)
        extensions, rivers = extending(options.expansions, "company"), strips(options)
        # A board too tall for its key below says the key in its captions (`shown_key`).
        inline = not half and legend.keyed(view, options.expansions)
        inline &= not shown_key(state, view, theme.name, at[1] + company_height(options))
        if half:
            static = functools.partial(half_background, cid, theme.name, extensions, rivers)
        else:
            static = functools.partial(
                company_background, *_board_args(cid, theme, options, inline)
            )
        key: tuple[object, ...] = (
            "half" if half else "company",
            company_key(state, cid),
            theme.name,
            lit,
            inline,
        )
        draw_view = functools.partial(draw_company, half=half, inline_key=inline)
        if half:
            return _Part(at, static, _drawer(draw_view, state, cid, theme, lit), key, theme.name)
        steady = functools.partial(draw_company, inline_key=inline, steady=True)
        return _Part(
            at,
            static,
            _drawer(draw_view, state, cid, theme, lit),
            key,
            theme.name,
            _drawer(steady, state, cid, theme, frozenset()),
            ("steady company", cid, board_of(state, cid).officer),
        )
    key = (view, state_key, theme.name, lit, changed)
    if view == "map":
        static = functools.partial(map_background, options.map, theme.name)
        draw_view = functools.partial(draw_map, changed=frozenset(changed))
        return _Part(at, static, _drawer(draw_view, state, theme, lit), key, theme.name)
    if view == "shared":
        static = functools.partial(
            shared_background,
            options.players,
            options.setup,
            theme.name,
            extending(options.expansions, "shared"),
        )
        return _Part(at, static, _drawer(draw_shared, state, theme, lit), key, theme.name)
    own = _view_drawing(options, view)
    static = functools.partial(own.background, view, theme.name)
    draw_own = functools.partial(own.view_drawer(view), view)
    if own.steady_view is None or own.steady_key is None:
        return _Part(at, static, _drawer(draw_own, state, theme, lit), key, theme.name)
    return _Part(
        at,
        static,
        _drawer(draw_own, state, theme, lit),
        key,
        theme.name,
        _drawer(functools.partial(own.steady_view, view), state, theme),
        ("steady", view, own.steady_key(view, state)),
    )


def _board_args(
    cid: str, theme: Theme, options: GameOptions, inline: bool
) -> tuple[str, str, tuple[str, ...], tuple[str, ...], *tuple[bool, ...]]:
    """`company_background`'s arguments, passed as the half board passes them unless the key
    is inline: its cache then serves both (and draws each background once)."""
    extensions, rivers = extending(options.expansions, "company"), strips(options)
    return (cid, theme.name, extensions, rivers, *((True,) if inline else ()))


def _view_drawing(options: GameOptions, view: str) -> Drawing:
    for key, _title, own in expansion_views(options.expansions):
        if key == view:
            return own
    raise ValueError(f"no view {view!r} in this game")


#: How often a part was begun on the palette and drawn again in RGB, by its drawing function
#: and why (tests check the views that can be drawn on the palette are).
DRAWN_AGAIN_IN_RGB: Counter[tuple[str, str]] = Counter()


def _drawer(
    draw_view: Callable[..., Image.Image], *args: object
) -> Callable[[d.PaletteTarget | None], _Drawn]:
    """A maker of the part ``draw_view(*args, dirty=notes)`` draws: straight onto the palette
    given, where the view can (`draw.over`); else, or if it cannot, in RGB."""

    def make(target: d.PaletteTarget | None) -> _Drawn:
        notes = d.Notes(target)
        try:
            image = draw_view(*args, dirty=notes)
        except d.NotOnPalette as refused:
            if target is None:
                raise
            # Something in this state blends with what is under it: draw it in RGB.
            view = getattr(draw_view, "func", draw_view)  # a partial's function
            DRAWN_AGAIN_IN_RGB[getattr(view, "__qualname__", repr(view)), str(refused)] += 1
            if target.place is not None:  # what it began to draw there is drawn over again
                static = target.background()
                target.place.im.paste(static.im, (0, 0, *static.size))
            notes = d.Notes()
            image = draw_view(*args, dirty=notes)
        return _Drawn.of(image, notes)

    return make


def on_palette(
    state: GameState,
    view: str,
    company: str | None,
    theme: Theme,
    lit: frozenset[str],
    preview: bool = False,
    who: header.Who | None = None,
) -> Image.Image:
    """Return a view on the theme's palette: static backgrounds with each part's patches.

    Mapping a pixel onto the palette is the same wherever it is done, so only what the state
    drew over a static background is mapped (and kept per part); the backgrounds are mapped
    once. The pixels equal those of mapping the composed RGB view (``render_image``).
    """
    parts, size = _layout(state, view, company, theme, lit, preview, who or header.NOBODY)
    return _compose(parts, size, theme.name)[0]


def _compose(
    parts: list[_Part],
    size: tuple[int, int],
    theme_name: str,
    left: int = 0,
    scratch: bool = False,
) -> tuple[Image.Image, bytearray, png.Deflated | None]:
    """The parts' static backgrounds on the palette with what each part drew over them (drawn
    there in place, or its patches pasted), ``left`` columns of index 0 to their left (the
    PNG's filter bytes: `png.encode_filtered`); the picture, the bytes it is drawn in
    (a row more: a part's place is mapped with whole rows of the picture under it) and the
    kept composition of its backgrounds they were copied from (None: not kept). With
    ``scratch`` a kept composition is copied into this thread's scratch bytes (`_scratch_copy`,
    which may be longer): the picture and bytes returned are good until its next render."""
    width, height = size
    stride = width + left
    statics = _statics_on_palette(theme_name, size, parts, left)
    under = statics if isinstance(statics, png.Deflated) else None
    if isinstance(statics, bytearray):
        rows = statics  # new bytes, not kept
    else:
        rows = _scratch_copy(statics.rows) if scratch else bytearray(statics.rows)
    image = _mapped(rows, (stride, height), stride, 0)
    image.putpalette(_palette_of(palette(theme_name)))
    core = image.im
    for part in parts:
        x, y = part.at
        x += left
        w, h = _size(part)
        place = _mapped(rows, (w, h), stride, y * stride + x) if part.drawn is not None else None
        with d.placed_at(part.at):
            patches, in_place = part.patches(place)
        if in_place:
            continue
        for (dx, dy), patch, mask in patches:
            pw, ph = patch.size
            box = (x + dx, y + dy, x + dx + pw, y + dy + ph)
            # What Image.paste does with core images.
            if mask is None:
                core.paste(patch, box)
            else:
                core.paste(patch, box, mask)
    return image, rows, under


def _statics_on_palette(
    theme_name: str, size: tuple[int, int], parts: list[_Part], left: int = 0
) -> png.Deflated | bytearray:
    """The bytes of the static backgrounds of a view's parts composed on the palette, row by
    row, with ``left`` columns of index 0 to their left (and a row of slack: `_compose`): a
    kept composition (copy its rows to draw; with the filter bytes' column, its deflated
    bands are spliced into the PNGs drawn over it: `png.encode_over`), else new bytes.

    The last few compositions are kept (`_COMPOSED`): copying one's bytes costs a tenth of
    composing it again (a blank picture, then every background). A full board's is not: it
    would push out the phone views' (it is composed each time, and not copied)."""
    key = (
        theme_name,
        "composed",
        size,
        left,
        tuple((part.at, *_static_key(part.static)) for part in parts),
    )

    def compose() -> bytearray:
        width, height = size
        stride = width + left
        rows = bytearray(stride * (height + 1))  # zeros: the filter bytes' column
        image = _mapped(rows, (stride, height), stride, 0)
        image.im.paste(_background_index(theme_name), (left, 0, stride, height))
        for part in parts:
            with d.placed_at(part.at):
                static = part.static_palette()
            x, y = part.at[0] + left, part.at[1]
            image.im.paste(static.im, (x, y, x + static.width, y + static.height))
        return rows

    kept = _COMPOSED.find(key)
    if isinstance(kept, png.Deflated):
        return kept
    rows = compose()
    if len(rows) > LARGEST_COMPOSED:
        return rows  # not kept
    made = png.Deflated(bytes(rows), size[0] + left)
    _COMPOSED.keep(key, made)
    return made


def render_score_sheet(
    state: GameState,
    events: Iterable[Event],
    *,
    theme: str = "light",
    players: Iterable[Player] = (),
) -> bytes:
    """Return a PNG score sheet: final VP by source (from ``events``) and per-round charts;
    ``players`` name who played each company and mark the computer seats."""
    look = get_theme(theme)
    breakdown = score_sheet.vp_breakdown(state, events)
    layout = score_sheet.sheet_layout(state, breakdown, look)
    static = functools.partial(score_sheet.sheet_background, layout, look.name)
    draw = functools.partial(
        score_sheet.draw_sheet, state, breakdown, layout, look, players=tuple(players)
    )
    # A score sheet is drawn once for a finished game: its patches are not kept (empty key).
    part = _Part((0, 0), static, _drawer(draw), (), look.name)
    return _encoded([part], (score_sheet.WIDTH, layout.height), look.name)


def render_legend(expansions: Iterable[str] = (), *, theme: str = "light") -> bytes:
    """Return a PNG of the legend: every symbol and short form of the pictures, with those of
    these expansions."""
    look = get_theme(theme)
    image = legend.draw_legend(tuple(expansions), look.name)
    return encode(image.quantize(palette=palette(look.name), dither=Image.Dither.NONE))


def encode(image: Image.Image) -> bytes:
    """Return ``image`` as PNG bytes, deflated by zlib-ng at ``PNG_OPTIONS``' level; one over
    `LARGEST_PNG` compressed harder until it fits (the same pixels: only the late full boards
    of 4-player games with two expansions)."""
    return _fitting(functools.partial(png.encode, image))


def _fitting(encode_at: Callable[[int], bytes]) -> bytes:
    """PNG bytes at ``PNG_OPTIONS``' level, or at the `HARDER_LEVELS` in turn while they are
    over `LARGEST_PNG` (the hardest if none fits)."""
    data = encode_at(PNG_OPTIONS["compress_level"])
    for level in HARDER_LEVELS:
        if len(data) <= LARGEST_PNG:
            break
        data = encode_at(level)
    return data


def warm(theme_name: str = "light") -> None:
    """Build the static images every view of the base map needs, and lay out the texts most
    positions draw anew (`_lay_out_recurring_texts`), ahead of any request."""
    _background_index(theme_name)
    _caption_palette(theme_name)
    _on_palette(theme_name, functools.partial(map_background, "base", theme_name))
    _lay_out_recurring_texts(theme_name)


def warm_game(options: GameOptions, theme_name: str = "light") -> None:
    """Map onto the palette every static background the views of a game with these options
    may show (its map, shared boards and expansions' views, every company's board at full
    and half size), ahead of any request: a game shows each of them in its first rounds."""
    extensions, rivers = extending(options.expansions, "company"), strips(options)
    statics = [
        functools.partial(map_background, options.map, theme_name),
        functools.partial(
            shared_background,
            options.players,
            options.setup,
            theme_name,
            extending(options.expansions, "shared"),
        ),
        *(
            functools.partial(module.background, key, theme_name)
            for key, _title, module in expansion_views(options.expansions)
        ),
        *(
            functools.partial(back, cid, theme_name, extensions, rivers)
            for cid in get_theme(theme_name).companies
            for back in (company_background, half_background)
        ),
        *(
            functools.partial(company_background, cid, theme_name, extensions, rivers, True)
            for cid in get_theme(theme_name).companies
            if _key_inline(options, theme_name)
        ),
    ]
    for static in statics:
        _on_palette(theme_name, static)


def _key_inline(options: GameOptions, theme_name: str) -> bool:
    """Whether a company board of these options fills its phone view by itself, leaving no
    room for the key below (`shown_key`): its captions then say the key."""
    if not legend.keyed("company", options.expansions):
        return False
    style = _style("company", get_theme(theme_name))
    top = header.least_height(options.players, style) + company_height(options)
    return top + legend.key_height("company", options.expansions, theme_name) > 2 * style.width


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


# -- the full board -----------------------------------------------------------------------


def full_places(state: GameState) -> dict[str, Point]:
    """Return where each part of the full board goes: "header", "map", "shared", the
    expansions' views and the company ids."""
    return dict(_arrangement(state, get_theme())[2])


def _arrangement(
    state: GameState, theme: Theme, who: header.Who | None = None
) -> tuple[int, int, list[tuple[str, Point]]]:
    """Return the full board's size and where its parts go: header, map and shared boards,
    the expansions' views under the shared boards, company boards under the map."""
    options = state.options
    seats = board_ids(state)
    map_layout_ = map_layout(options.map)
    shared = board_layout("shared")
    company = board_layout("company")
    style = theme.views["full"]
    width = map_layout_.width + GAP + shared.width
    top = TOP + header.height(state, _full_style(style, width), who=who or header.NOBODY)
    bw, bh = company.width // 2, company_height(options) // 2
    rows = (len(seats) + 1) // 2
    left_w = map_layout_.width
    left_h = map_layout_.height + GAP + rows * (bh + GAP)
    places: list[tuple[str, Point]] = [("header", (0, TOP)), ("map", (0, top))]
    right = top
    places.append(("shared", (left_w + GAP, right)))
    right += _shared_height(options) + GAP
    for key, _title, own in expansion_views(options.expansions):
        places.append((key, (left_w + GAP, right)))
        right += own.background(key, theme.name).height + GAP
    for i, cid in enumerate(seats):
        x = (i % 2) * (bw + GAP) + (left_w - 2 * bw - GAP) // 2
        y = top + map_layout_.height + GAP + (i // 2) * (bh + GAP)
        places.append((cid, (x, y)))
    height = max(top + left_h, right)
    # Its key along the bottom: the union of its parts' (the legend picture says the rest).
    places.append(("key", (0, height)))
    height += legend.key_height("full", options.expansions, theme.name, width)
    return width, height, places


def _shared_height(options: GameOptions) -> int:
    return shared_background(
        options.players, options.setup, "light", extending(options.expansions, "shared")
    ).height


def _full_style(style: ViewStyle, width: int) -> ViewStyle:
    return ViewStyle(width, style.text, style.partial)


def _full_parts(
    state: GameState,
    theme: Theme,
    lit: frozenset[str],
    preview: bool,
    who: header.Who = header.NOBODY,
) -> tuple[list[_Part], tuple[int, int]]:
    width, height, places = _arrangement(state, theme, who)
    style = _full_style(theme.views["full"], width)
    parts = [
        _Part(
            (0, 0),
            functools.partial(_caption, width, theme.name),
            None,
            ("caption", width),
            theme.name,
        )
    ]
    state_key = repr(state)
    for name, at in places:
        if name == "header":
            parts.append(
                _header_part(state, "full", None, style, theme, preview, at, state_key, who)
            )
        elif name == "map":
            parts.append(
                _body_part(state, name, None, theme, lit, at, state_key, changed=who.changed)
            )
        elif name == "key":
            parts.append(_key_part(state, "full", theme, at, width))
        elif name == "shared" or name in views(state.options):
            parts.append(_body_part(state, name, None, theme, lit, at, state_key))
        else:
            parts.append(_body_part(state, "company", name, theme, lit, at, state_key, half=True))
    return parts, (width, height)


def draw_full(
    state: GameState, theme: Theme, highlight: frozenset[str] = frozenset(), preview: bool = False
) -> Image.Image:
    """Return everything in one RGB image: map and shared boards side by side, boards below."""
    parts, size = _full_parts(state, theme, highlight, preview)
    image = Image.new("RGB", size, theme.colour("background"))
    for part in parts:
        with d.placed_at(part.at):
            image.paste(part.rgb(), part.at)
    return image


@functools.lru_cache(maxsize=8)
def _caption(width: int, theme_name: str) -> Image.Image:
    """Return the full board's caption strip."""
    theme = get_theme(theme_name)
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


def _caption_palette(theme_name: str) -> Image.Image:
    """Return the caption strip of the base map's full board on the theme's palette."""
    width = map_layout("base").width + GAP + board_layout("shared").width
    return _on_palette(theme_name, functools.partial(_caption, width, theme_name))
