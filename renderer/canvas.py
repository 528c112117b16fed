"""The canvas every view draws on: a Pillow drawing context that notes what it draws
(`Recorder`, at half scale `HalfDraw`), straight onto the palette where it can, the stamps it
pastes (pixels drawn once, `stamp_of`, kept in `STAMPS`) and the texts it draws (`recording`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageChops, ImageColor, ImageDraw

from renderer.fonts import Weight
from renderer.layout import Point, Rect

#: A point that may fall between pixels (text and shapes round or scale it when drawn).
XY = tuple[float, float]
#: Pillow's coordinates: flat numbers [x0, y0, x1, y1, ...] or a sequence of points.
Coords = Sequence[float] | Sequence[Sequence[float]]


@dataclass(frozen=True, slots=True)
class DrawnText:
    """One text as drawn: what it says, its size, weight and role, and its ink's box."""

    content: str
    size: int
    weight: Weight
    role: str
    box: Rect  # in the picture of the part it was drawn on
    half: bool  # drawn at half scale (the full board's company boards)
    #: Where that part's corner is in the whole picture (`renderer.render` sets it).
    origin: Point = (0, 0)

    @property
    def placed(self) -> Rect:
        """The box in the whole picture (a half-scale text's box is given at full size)."""
        x0, y0, x1, y1 = self.box
        if self.half:
            x0, y0, x1, y1 = x0 // 2, y0 // 2, -(-x1 // 2), -(-y1 // 2)
        ox, oy = self.origin
        return (x0 + ox, y0 + oy, x1 + ox, y1 + oy)


# The texts drawn while `recording()` is on, per thread (tests read every string drawn).
_RECORD = threading.local()


@contextlib.contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Note every text drawn on this thread while the block runs (static images are drawn
    once and cached: forget them first, `renderer.render.forget_pictures`, to see them)."""
    found: list[DrawnText] = []
    outer = getattr(_RECORD, "texts", None)
    _RECORD.texts = found
    try:
        yield found
    finally:
        _RECORD.texts = outer


@contextlib.contextmanager
def placed_at(origin: Point) -> Iterator[None]:
    """Note the texts drawn while the block runs as drawn on a part whose corner is at
    ``origin`` in the whole picture (when texts are noted: `recording`)."""
    found = getattr(_RECORD, "texts", None)
    start = len(found) if found is not None else 0
    try:
        yield
    finally:
        if found is not None and origin != (0, 0):
            found[start:] = [dataclasses.replace(t, origin=origin) for t in found[start:]]


def noted_texts() -> list[DrawnText] | None:
    """The texts drawn on this thread so far while they are noted (`recording`), else None."""
    found: list[DrawnText] | None = getattr(_RECORD, "texts", None)
    return found


def _recording() -> bool:
    """True while the texts drawn on this thread are noted (stamps would hide theirs)."""
    return getattr(_RECORD, "texts", None) is not None


@contextlib.contextmanager
def not_recording() -> Iterator[None]:
    """Draw without noting texts (images drawn for another purpose, such as the palette's
    sources, are no picture's texts)."""
    outer = getattr(_RECORD, "texts", None)
    _RECORD.texts = None
    try:
        yield
    finally:
        _RECORD.texts = outer


@dataclass(eq=False, slots=True)
class Stamp:
    """Pixels drawn once and pasted wherever they recur, as they are the same wherever they go
    and whatever is under them (`stamp_of` checks it); a large one keeps its mapping onto each
    theme's palette, so pictures map it once.

    One that can be drawn again cheaply (a text on a flat colour: ``remake``) lets go of its
    RGB pixels once mapped onto a palette (`StampCache.map_onto`): a picture on the palette
    pastes only the mapping, and a stamp then takes a fifth of the memory (the cache holds
    five times as many)."""

    pixels: Image.Image | None  # RGB; None: let go of, `rgb` draws them again
    # "1" mode: pasting through it copies, as drawing does, with no blending; None: all of it.
    mask: Image.Image | None
    offset: Point  # where the pixels start from the point the stamp is pasted at
    premapped: bool = False  # mapped onto the palette once, however small
    mapped: dict[str, Image.Image] = field(default_factory=dict)  # by theme name
    remake: Callable[[], Image.Image] | None = None  # draws the RGB pixels again
    size: tuple[int, int] = (0, 0)  # set from the pixels
    #: Maps it onto a theme's palette (its name, the palette image) without RGB pixels (a
    #: text on a flat colour); None: its RGB pixels are mapped.
    mapper: Callable[[str, Image.Image], Image.Image] | None = None

    def __post_init__(self) -> None:
        if self.pixels is not None:
            self.size = self.pixels.size

    @property
    def rgb(self) -> Image.Image:
        """The stamp's RGB pixels (drawn again when let go of)."""
        pixels = self.pixels  # read once: another thread may let go of them
        if pixels is not None:
            return pixels
        assert self.remake is not None, "only a stamp that can be drawn again lets go"
        return self.remake()

    def nbytes(self) -> int:
        """The memory its images take (Pillow keeps RGB in 4 bytes a pixel, a "1" mask in 1,
        and what it is drawn again from: a text's mask)."""
        w, h = self.size
        held = 4 if self.pixels is not None else 0
        kept = (self.mask is not None) + (self.remake is not None)
        return w * h * (held + len(self.mapped) + kept)


def stamp_of(
    size: tuple[int, int],
    paint: Callable[[Recorder], None],
    origin: Point = (0, 0),
    where: Point | None = None,
) -> Stamp | None:
    """What ``paint`` draws on a canvas of ``size`` as a stamp to paste at the canvas's
    ``origin``; None when its pixels depend on what is under them (antialiased text over an
    edge) or it reaches the canvas's edge (it may have been cut).

    The stamp's pixels are those ``paint`` changes over any background, and they must be the
    same over every one: as painting over black and over white and comparing finds
    (`_stamp_from`), but painted once, noting where each call puts its ink (`Coverage`).
    ``where`` is where the canvas's corner is in the picture, for what is drawn as it would be
    there (pieces); None: nowhere.
    """
    black = Image.new("RGB", size)
    canvas = Recorder(black, origin=where)
    canvas.coverage = cover = Coverage(size)
    with not_recording():
        paint(canvas)
    if cover.unknown:
        # A call whose ink the coverage does not follow: painted over white too, and compared.
        white = Image.new("RGB", size, (255, 255, 255))
        with not_recording():
            paint(Recorder(white, origin=where))
        return _stamp_from(black, white, size, origin)
    if cover.blended_over_nothing:
        return None
    covered = _covered(cover, size, origin)
    if covered is None:
        return None
    box, offset, mask = covered
    return Stamp(black.crop(box), mask, offset)


def _covered(
    cover: Coverage, size: tuple[int, int], origin: Point
) -> tuple[Rect, Point, Image.Image] | None:
    """Where a stamp's canvas was painted (its box, the stamp's offset, its "1" mask), or
    None when nothing was or it reaches the canvas's edge (it may have been cut)."""
    box = cover.image.getbbox()
    if box is None:
        return None
    x0, y0, x1, y1 = box
    if x0 == 0 or y0 == 0 or x1 == size[0] or y1 == size[1]:
        return None
    mask = cover.image.crop(box).convert("1", dither=Image.Dither.NONE)
    return box, (x0 + origin[0], y0 + origin[1]), mask


def palette_stamp_of(
    size: tuple[int, int],
    paint: Callable[[Recorder], None],
    target: PaletteTarget,
    origin: Point = (0, 0),
    where: Point | None = None,
) -> Stamp | None:
    """`stamp_of` painted straight onto ``target``'s palette: shapes in the index their colour
    maps to, stamps as mapped, texts as stamps on a flat colour, so its pixels are those of
    mapping the RGB stamp, painted once and never mapped. The stamp keeps only that mapping;
    its RGB pixels are for its caller to paint (`Stamp.remake`). Raises `NotOnPalette` for a
    call that cannot be drawn so (a text blended over what is under it)."""
    image = Image.new("P", size, 0)
    canvas = Recorder(image, origin=where)
    # A text is blended over the stamps painted under it, over black where none is (and then
    # refused: `_blend_over_static`).
    canvas.target, canvas.under = target, Underneath()
    canvas.static_rgb = Image.new("RGB", size)
    canvas.coverage = cover = Coverage(size)
    with not_recording():
        paint(canvas)
    if cover.unknown:
        raise NotOnPalette("a call whose ink the coverage does not follow")
    covered = _covered(cover, size, origin)
    if covered is None:
        return None
    (x0, y0, x1, y1), offset, mask = covered
    mapped = {target.theme: image.crop((x0, y0, x1, y1))}
    return Stamp(None, mask, offset, mapped=mapped, size=(x1 - x0, y1 - y0))


#: Coverage values: where a call put its fill, its outline when that is another colour.
_FILL, _OUTLINE = 255, 254
#: A text mask's pixels that blend (neither nothing nor all ink), and those it touches.
_BLENDS = [0, *([255] * 254), 0]
_TOUCHES = [0, *([255] * 255)]
#: How many colours a Pillow shape call takes after its coordinates, after its other
#: arguments (a rounded rectangle's radius, a pie slice's angles).
_NOT_INKS = {"rounded_rectangle": 1, "pieslice": 2}


class Coverage:
    """Where a stamp's canvas has been painted (non-zero) as it is painted once, and whether a
    text blended over a pixel nothing was painted on: its colour there would depend on what is
    under the stamp.

    Every Pillow call the canvas makes either puts its ink (shapes; pastes through a "1" mask
    or none) or blends it by a text's coverage, so the pixels a call changes over any
    background are those it covers, whatever its colours: the same call is drawn here with
    its inks as coverage values."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("L", size, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.blended_over_nothing = False
        #: A call not followed (the views make none on a stamp): compare two paintings.
        self.unknown = False

    def shape(
        self,
        canvas: Recorder,
        method: str,
        xy: Coords,
        width: float,
        args: tuple[Any, ...],
        kw: dict[str, Any],
    ) -> None:
        """Cover what the shape call ``method(xy, *args, width=width, **kw)`` draws."""
        skip = _NOT_INKS.get(method, 0)
        inks = args[skip:]
        fill = inks[0] if inks else kw.get("fill")
        outline = inks[1] if len(inks) > 1 else kw.get("outline")
        if "fill" in kw or "outline" in kw:
            self.unknown = True
            return
        # Pillow draws no outline in the fill's colour: nor is it drawn here then.
        ink, fill_ink = ImageDraw.ImageDraw._getink(canvas, outline, fill)
        cover = [
            None if fill is None else _FILL,
            None if outline is None else (_FILL if ink == fill_ink else _OUTLINE),
        ]
        getattr(ImageDraw.ImageDraw, method)(
            self.draw, xy, *args[:skip], *cover[: len(inks)], width=width, **kw
        )

    def through(self, box: Rect, mask: Image.Image | None) -> None:
        """Cover ``box`` wherever ``mask`` (a "1" mask; None: all of it) lets a paste through."""
        if mask is None:
            self.image.im.paste(_FILL, box)
        else:
            self.image.im.paste(_FILL, box, mask.im)

    def blend(self, at: Point, mask: Image.Image) -> None:
        """Cover where a text's coverage ``mask`` at ``at`` touches; note a blend over
        nothing."""
        x, y = int(at[0]), int(at[1])
        w, h = self.image.size
        box = (max(x, 0), max(y, 0), min(x + mask.width, w), min(y + mask.height, h))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        # On the core images: Image.point rounds its table in Python at every call.
        core = mask.im
        if box != (x, y, x + mask.width, y + mask.height):
            core = core.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
        blends = core.point(_BLENDS, "L")
        if blends.chop_subtract(self.image.im.crop(box), 1.0, 0).getextrema()[1] == 255:
            self.blended_over_nothing = True
        self.image.im.paste(_FILL, box, core.point(_TOUCHES, "L"))


#: What a pixel of the difference of the two paintings may be: the same in both (painted, as
#: it must be), or black against white (not painted).
_SAME, _UNPAINTED = (0, 0, 0), (255, 255, 255)


def _stamp_from(
    black: Image.Image, white: Image.Image, size: tuple[int, int], origin: Point
) -> Stamp | None:
    """The stamp painted on ``black`` and ``white`` (see `stamp_of`), or None.

    Every drawing call either puts its ink (shapes, pastes through a "1" mask) or blends it
    over what is there (text), and a blend's result grows with what is under it: so a pixel
    painted over black is never lighter than over white, and one of their difference's
    pixels is white in all its bands only where neither painting touched it. The stamp is
    good when every other pixel of the difference is black: painted the same over both.
    """
    differ = ImageChops.difference(black, white)
    colours = differ.getcolors(2)
    if colours is None or any(colour not in (_SAME, _UNPAINTED) for _, colour in colours):
        return None
    painted = ImageChops.invert(differ)
    box = painted.getbbox()
    if box is None:
        return None
    x0, y0, x1, y1 = box
    if x0 == 0 or y0 == 0 or x1 == size[0] or y1 == size[1]:
        return None
    offset = (x0 + origin[0], y0 + origin[1])
    mask = painted.crop(box).convert("1", dither=Image.Dither.NONE)
    return Stamp(black.crop(box), mask, offset)


#: What `StampCache.find` finds for a key it does not hold (None is a kept answer).
MISSING = object()


class StampCache:
    """The stamps drawn so far by what they are drawn from: least recently used first out,
    bounded by their memory (None is kept too: drawn in place)."""

    def __init__(self, budget_bytes: int) -> None:
        self.budget = budget_bytes
        self.used = 0
        self.items: OrderedDict[Hashable, Stamp | None] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Stamp | None]) -> Stamp | None:
        """The stamp of ``key``, drawn by ``make`` on a miss."""
        kept = self.find(key)
        if kept is not MISSING:
            return kept  # type: ignore[return-value]  # only stamps and None are kept
        made = make()
        self.keep(key, made)
        return made

    def find(self, key: Hashable) -> Stamp | object | None:
        """The stamp of ``key`` (None: drawn in place), or `MISSING` when none is kept."""
        with self.lock:
            # One look-up on a hit (a view asks for a hundred stamps; a key is a tuple, whose
            # hash is worked out at every look-up).
            kept = self.items.get(key, MISSING)
            if kept is not MISSING:
                self.items.move_to_end(key)
            return kept

    def keep(self, key: Hashable, made: Stamp | None) -> None:
        """Keep ``made`` as the stamp of ``key`` (unless one is kept already), letting go of
        the least recently used over the budget."""
        with self.lock:
            if key not in self.items:
                self.items[key] = made
                self.used += made.nbytes() if made else 64
                while self.used > self.budget and len(self.items) > 1:
                    _, old = self.items.popitem(last=False)
                    self.used -= old.nbytes() if old else 64

    def map_onto(self, stamp: Stamp, theme_name: str, mapped: Image.Image) -> None:
        """Keep ``stamp``'s mapping onto a theme's palette (counted in the budget); one that
        can be drawn again lets go of its RGB pixels."""
        with self.lock:
            if theme_name not in stamp.mapped:
                before = stamp.nbytes()
                stamp.mapped[theme_name] = mapped
                if stamp.remake is not None:
                    stamp.pixels = None
                self.used += stamp.nbytes() - before

    def clear(self) -> None:
        """Forget every stamp (`renderer.render.forget_pictures`)."""
        with self.lock:
            self.items.clear()
            self.used = 0

    @contextlib.contextmanager
    def forgotten(self) -> Iterator[None]:
        """Know no stamp while the block runs, then the stamps known before it again (those
        made in it forgotten): a benchmark's picture drawn afresh among others drawn as a
        running bot draws them."""
        with self.lock:
            items, used = self.items, self.used
            self.items, self.used = OrderedDict(), 0
        try:
            yield
        finally:
            with self.lock:
                self.items, self.used = items, used


#: The stamps of every picture (boxes, pieces, texts on flat colours, the views' recurring
#: items) with their mappings onto the palette, their memory counted as Pillow holds it. The
#: views of one game with expansions take 12-16 MB of them: at 16 MB bench/render.py's
#: positions let go of 4,150 stamps (each drawn and mapped again when it recurs), at 32 MB,
#: with texts and items keeping only their mappings, 1,017.
STAMPS = StampCache(32 * 1024 * 1024)
#: Blocks of a view drawn once and pasted whole where they recur (`draw.drawn_once`: the
#: scoreboard, the same in every view of a position in one style), on the palette only: a
#: phone view's takes 0.3-0.4 MB, a full board's 0.7, so a few positions' worth are kept.
BLOCKS = StampCache(6 * 1024 * 1024)


class Notes(list[Rect]):
    """What a canvas drew over its background: boxes (to map onto the palette) and, apart,
    the large stamps it pasted, with where (each mapped once, with the stamp)."""

    def __init__(self, target: PaletteTarget | None = None) -> None:
        super().__init__()
        self.stamps: list[tuple[Point, Stamp]] = []
        #: Draw straight onto this palette where the view can (`over`).
        self.target = target


#: What a view draws is mapped onto the palette in tiles of this size (`regions`).
TILE = 32


#: Stamps of at least this many pixels are mapped onto the palette once and pasted in every
#: picture; mapping a smaller one with the boxes around it costs less than pasting it twice.
PREMAPPED_PIXELS = 8_000

#: A colour's ink for Pillow's drawing core, by image mode and colour.
_INKS: dict[tuple[str, str], int] = {}


class Recorder(ImageDraw.ImageDraw):
    """An ``ImageDraw`` that notes the box of every drawing call in ``dirty``.

    The full board maps only what a view drew over its static background onto the palette:
    the rest is taken from the background, mapped once. A box is padded by the stroke width so
    outlines stay inside it. Calls Pillow makes from inside another call are not noted again.
    """

    def __init__(
        self, image: Image.Image, dirty: list[Rect] | None = None, origin: Point | None = (0, 0)
    ) -> None:
        super().__init__(image)
        self.image = image
        self.dirty: list[Rect] = [] if dirty is None else dirty
        #: ``dirty`` when it notes large stamps apart (`Notes`), else None.
        self.notes = self.dirty if isinstance(self.dirty, Notes) else None
        self.size = image.size
        self.depth = 0
        #: Where the image's corner is in the picture (a stamp's canvas; None: nowhere).
        self.origin = origin
        #: The palette a canvas drawn straight onto the palette draws in (`over`), its
        #: static background in RGB and what it drew over it (to blend a text over: `over`).
        self.target: PaletteTarget | None = None
        self.static_rgb: Image.Image | None = None
        self.under: Underneath | None = None
        #: On a stamp's canvas, where it has been painted (`stamp_of`).
        self.coverage: Coverage | None = None

    def stamp(self, stamp: Stamp, at: Point) -> None:
        """Paste ``stamp`` at ``at``; a large one lying wholly on the image is noted as a stamp
        (mapped onto the palette once, with the stamp), others as a box."""
        dx, dy = stamp.offset
        x, y = at[0] + dx, at[1] + dy
        w, h = stamp.size
        target = self.target
        pixels: Image.Image | None
        if target is None:
            pixels = stamp.rgb
        else:  # its mapping, kept with the stamp once made (`PaletteTarget.mapped`)
            pixels = stamp.mapped.get(target.theme)
            if pixels is None:
                pixels = target.mapped(stamp)
        # What Image.paste does, on the core images (a view pastes a hundred stamps; Pillow's
        # wrapper of each paste costs more than the paste): the core clips to the image.
        box = (x, y, x + w, y + h)
        mask = stamp.mask
        if mask is None:
            self.im.paste(pixels.im, box)
        else:
            self.im.paste(pixels.im, box, mask.im)
        if self.coverage is not None:
            self.coverage.through(box, mask)
        if self.under is not None:
            self.under.drawn.append((box, stamp, mask))
        if (
            self.notes is not None
            and (stamp.premapped or w * h >= PREMAPPED_PIXELS)
            and x >= 0
            and y >= 0
            and x + w <= self.size[0]
            and y + h <= self.size[1]
        ):
            self.notes.stamps.append(((x, y), stamp))
        else:
            self.dirty.append(box)

    def paste(self, stamp: Image.Image, at: Point, mask: Image.Image) -> None:
        """Paste ``stamp`` through ``mask`` at ``at`` and note its box."""
        x, y = int(at[0]), int(at[1])
        box = (x, y, x + stamp.width, y + stamp.height)
        self.dirty.append(box)
        if self.under is not None:
            self.under.add(box, stamp, mask)
        if self.target is not None:
            # Pasted through its mask, every pixel it puts is its own: mapped as it would be.
            stamp = Image.Image()._new(
                stamp.im.convert("P", Image.Dither.NONE, self.target.palette.im)
            )
        self.image.paste(stamp, (x, y), mask)
        if self.coverage is not None:
            if mask.mode == "1":
                self.coverage.through(box, mask)
            else:
                self.coverage.unknown = True  # a soft mask blends

    def _note(self, xy: Coords, width: float = 0) -> None:
        flat = _flat(xy)
        pad = math.ceil(width) + 2
        self.mark(
            (
                math.floor(min(flat[0::2])) - pad,
                math.floor(min(flat[1::2])) - pad,
                math.ceil(max(flat[0::2])) + pad + 1,
                math.ceil(max(flat[1::2])) + pad + 1,
            )
        )

    def mark(self, box: Rect) -> None:
        """Note ``box`` as drawn over."""
        self.dirty.append(box)
        if self.under is not None:
            self.under.add(box)

    def _call(self, method: str, xy: Coords, width: float, *args: object, **kw: object) -> None:
        """Note the box of ``xy`` (at the outermost call) and draw with Pillow's ``method``."""
        if self.depth == 0:
            xy = self._scale(method, xy)
            width = self._width(width)
            self._note(xy, width)
            if self.target is not None:
                args, kw = self._inks(args, kw)
        self.depth += 1
        try:
            getattr(ImageDraw.ImageDraw, method)(self, xy, *args, width=width, **kw)
        finally:
            self.depth -= 1
        if self.depth == 0 and self.coverage is not None:
            self.coverage.shape(self, method, xy, width, args, kw)

    def _inks(
        self, args: tuple[object, ...], kw: dict[str, object]
    ) -> tuple[tuple[object, ...], dict[str, object]]:
        """The colours among a call's arguments as palette indices (`over`): Pillow
        would add a colour it does not find to the image's palette, not take the nearest."""
        assert self.target is not None
        ink = self.target.ink_of
        args = tuple(ink(a) if isinstance(a, str) else a for a in args)
        for key in ("fill", "outline"):
            colour = kw.get(key)
            if isinstance(colour, str):
                kw = {**kw, key: ink(colour)}
        return args, kw

    def _scale(self, method: str, xy: Coords) -> Coords:
        return xy

    def _width(self, width: float) -> float:
        return width

    def bitmap(self, xy, bitmap, fill=None):
        """Stamp ``bitmap`` (a text mask) and note its box."""
        x, y = xy
        if self.target is not None:
            self._blend_over_static((x, y), bitmap, fill)
            return
        self.mark((x - 1, y - 1, x + bitmap.width + 1, y + bitmap.height + 1))
        if self.coverage is not None:
            self.coverage.blend((x, y), bitmap)
        if not isinstance(fill, str) or self.palette:
            super().bitmap(xy, bitmap, fill)
            return
        # What Pillow's bitmap() does, with the colour's ink looked up once: a view stamps a
        # hundred texts in a few colours.
        key = (self.mode, fill)
        ink = _INKS.get(key)
        if ink is None:
            ink = _INKS[key] = self.draw.draw_ink(ImageColor.getcolor(fill, self.mode))
        self.draw.draw_bitmap(xy, bitmap.im, ink)

    def _blend_over_static(self, at: Point, mask: Image.Image, fill: object) -> None:
        """On a palette canvas, a text (coverage ``mask``) blended over the RGB pixels under
        it and mapped onto the palette, which is what mapping the RGB picture gives there: the
        static background's, with the stamps and texts drawn over it since (`Underneath`).
        Over anything else drawn (a shape) it is refused."""
        assert self.target is not None and self.under is not None
        x, y = at
        w, h = self.image.size
        box = (max(x, 0), max(y, 0), min(x + mask.width, w), min(y + mask.height, h))
        drawn = self.under.touching(box)
        if (
            self.static_rgb is None
            or not isinstance(fill, str)
            or any(p is None for _, p, _ in drawn)
        ):
            raise NotOnPalette("text on a palette canvas over a shape: say on= a colour")
        if self.coverage is not None:
            # A stamp's canvas (`palette_stamp_of`): blended over what it painted, never over
            # what would be under the stamp.
            self.coverage.blend((x, y), mask)
            if self.coverage.blended_over_nothing:
                raise NotOnPalette("a text in a stamp blended over nothing painted")
        self.dirty.append((x - 1, y - 1, x + mask.width + 1, y + mask.height + 1))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        if self.coverage is None and self._blend_over_flat((x, y), mask, fill, drawn):
            return
        piece = self.static_rgb.crop(box)
        for (px, py, _, _), pixels, through in drawn:
            assert pixels is not None  # refused above
            rgb = pixels.rgb if isinstance(pixels, Stamp) else pixels
            piece.paste(rgb, (px - box[0], py - box[1]), through)
        ImageDraw.ImageDraw.bitmap(ImageDraw.Draw(piece), (x - box[0], y - box[1]), mask, fill)
        self.image.im.paste(piece.im.convert("P", Image.Dither.NONE, self.target.palette.im), box)
        self.under.add(box, piece)

    def _blend_over_flat(
        self,
        at: Point,
        mask: Image.Image,
        fill: str,
        drawn: list[tuple[Rect, Image.Image | Stamp | None, Image.Image | None]],
    ) -> bool:
        """Blend a text over a static background that is one colour wherever the text has ink
        (and nothing of ``drawn`` there), as a text said to be ``on`` that colour is: its
        ink's box mapped straight from its coverage values (`blend_indices`). Where it has
        no ink the blend is the pixel under it, mapped as it was, so only the ink's box
        changes. False (nothing drawn) where it is not so."""
        assert self.target is not None and self.static_rgb is not None and self.under is not None
        ink = mask.getbbox()
        if ink is None:
            return True  # no ink: the pixels stay as they are
        x, y = at
        place = (x + ink[0], y + ink[1], x + ink[2], y + ink[3])
        if place[0] < 0 or place[1] < 0 or place[2] > self.size[0] or place[3] > self.size[1]:
            return False
        x0, y0, x1, y1 = place
        if any(box[0] < x1 and x0 < box[2] and box[1] < y1 and y0 < box[3] for box, _, _ in drawn):
            return False
        colours = self.static_rgb.crop(place).getcolors(1)
        if colours is None:
            return False
        rgb = colours[0][1]
        assert isinstance(rgb, tuple), "an RGB background's colour is a triple"
        on = "#{:02x}{:02x}{:02x}".format(*rgb)
        inked = mask.crop(ink)
        indices = blend_indices(fill, on, self.target.theme, self.target.palette)
        self.image.im.paste(inked.im.point(indices, "P"), place)
        # Its RGB pixels are blended only if a later text is blended over it.
        pixels = Stamp(None, None, (0, 0), remake=functools.partial(blended, inked, fill, on))
        self.under.add(place, pixels)
        return True

    def rectangle(self, xy, fill=None, outline=None, width=1):
        """Draw a rectangle and note its box."""
        self._call("rectangle", xy, width, fill, outline)

    def rounded_rectangle(self, xy, radius=0, fill=None, outline=None, width=1, **kw):
        """Draw a rounded rectangle and note its box."""
        if self.depth == 0:
            radius = self._width(radius)
        self._call("rounded_rectangle", xy, width, radius, fill, outline, **kw)

    def ellipse(self, xy, fill=None, outline=None, width=1):
        """Draw an ellipse and note its box."""
        self._call("ellipse", xy, width, fill, outline)

    def polygon(self, xy, fill=None, outline=None, width=1):
        """Draw a polygon and note its box."""
        self._call("polygon", xy, width, fill, outline)

    def line(self, xy, fill=None, width=0, joint=None):
        """Draw a line and note its box (a polyline: each segment's box, so a chart's line
        across a panel does not mark the whole panel as drawn over)."""
        flat = _flat(xy)
        if self.depth == 0 and self.target is not None and isinstance(fill, str):
            fill = self.target.ink_of(fill)
        if self.depth == 0 and len(flat) > 4 and type(self) is Recorder:
            # Pillow draws a wide polyline as its segments and round joints at the points,
            # all within half the width of a segment: each segment's padded box holds them.
            pad = math.ceil(self._width(width)) + 2
            for i in range(0, len(flat) - 2, 2):
                x0, y0, x1, y1 = flat[i : i + 4]
                self.mark(
                    (
                        math.floor(min(x0, x1)) - pad,
                        math.floor(min(y0, y1)) - pad,
                        math.ceil(max(x0, x1)) + pad + 1,
                        math.ceil(max(y0, y1)) + pad + 1,
                    )
                )
            self.depth += 1
            try:
                ImageDraw.ImageDraw.line(self, xy, fill, width=width, joint=joint)
            finally:
                self.depth -= 1
            if self.coverage is not None:
                self.coverage.shape(self, "line", xy, width, (fill,), {"joint": joint})
            return
        self._call("line", xy, width, fill, joint=joint)

    def pieslice(self, xy, start, end, fill=None, outline=None, width=1):
        """Draw a pie slice and note its box."""
        self._call("pieslice", xy, width, start, end, fill, outline)

    def _everything(self) -> None:
        if self.target is not None:
            raise NotOnPalette("a call the views do not make, on a palette canvas")
        if self.coverage is not None:
            self.coverage.unknown = True
        self.mark((0, 0, *self.im.size))

    # Calls the views do not make: noted as the whole image, so they stay correct if used.
    def arc(self, *args, **kw):
        """Draw an arc (noted as the whole image)."""
        self._everything()
        super().arc(*args, **kw)

    def chord(self, *args, **kw):
        """Draw a chord (noted as the whole image)."""
        self._everything()
        super().chord(*args, **kw)

    def point(self, *args, **kw):
        """Draw points (noted as the whole image)."""
        self._everything()
        super().point(*args, **kw)

    def text(self, *args, **kw):
        """Draw text (noted as the whole image; views stamp cached masks with ``bitmap``)."""
        self._everything()
        super().text(*args, **kw)

    def multiline_text(self, *args, **kw):
        """Draw text (noted as the whole image)."""
        self._everything()
        super().multiline_text(*args, **kw)


class HalfDraw(Recorder):
    """A ``Recorder`` drawing at half scale: callers give full-size coordinates.

    The full board shows company boards at half size; drawing them so costs a quarter of the
    pixels of drawing them full size and halving. Text masks are halved on the same pixel grid,
    so text looks as if the full-size board had been halved; shapes keep hard edges.
    """

    def _scale(self, method: str, xy: Coords) -> Coords:
        if method in ("rectangle", "rounded_rectangle", "ellipse", "pieslice"):
            return _half_box(xy)
        flat = _flat(xy)
        return [(x / 2, y / 2) for x, y in zip(flat[0::2], flat[1::2], strict=True)]

    def _width(self, width: float) -> float:
        return max(1, round(width / 2)) if width else 0

    def bitmap(self, xy, bitmap, fill=None):
        """Stamp the half-size ``bitmap`` where the full-size one would go."""
        x, y = xy
        super().bitmap((x // 2, y // 2), _half_mask(bitmap, x % 2, y % 2), fill)


def _flat(xy: Coords) -> list[float]:
    """Pillow's coordinates as flat numbers: [x0, y0, x1, y1, ...]."""
    flat: list[float] = []
    for v in xy:
        if isinstance(v, Sequence):
            flat.extend(v)
        else:
            flat.append(v)
    return flat


def _half_box(xy: Coords) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = (math.floor(v) for v in _flat(xy))
    # Inclusive corners: the half-size box covers every half pixel the full-size box touches.
    return x0 // 2, y0 // 2, x1 // 2, y1 // 2


_HALF_MASKS: dict[tuple[int, int, int], tuple[Image.Image, Image.Image]] = {}


def _half_mask(mask: Image.Image, dx: int, dy: int) -> Image.Image:
    """Return ``mask`` halved on the grid of a full-size image it is stamped on at odd ``dx, dy``."""
    key = (id(mask), dx, dy)
    hit = _HALF_MASKS.get(key)
    if hit is not None and hit[0] is mask:
        return hit[1]
    if dx or dy:
        padded = Image.new("L", (mask.width + dx, mask.height + dy), 0)
        padded.paste(mask, (dx, dy))
    else:
        padded = mask
    small = padded.reduce(2)
    if len(_HALF_MASKS) > 8192:
        _HALF_MASKS.clear()
    # The entry keeps its mask alive, so its id cannot be reused for another mask.
    _HALF_MASKS[key] = (mask, small)
    return small


#: The palette index of ``fill`` blended over ``on`` at each coverage value, by colours and
#: theme, with the palette image it was mapped onto (a new palette is mapped again).
_BLEND_INDICES: dict[tuple[str, str, str], tuple[Image.Image, list[int]]] = {}
#: The coverage values 0-255 in one row.
_RAMP = Image.frombytes("L", (256, 1), bytes(range(256)))


def blend_indices(fill: str, on: str, theme_name: str, palette: Image.Image) -> list[int]:
    """The index each coverage value of a text in ``fill`` over ``on`` maps to on ``palette``."""
    key = (fill, on, theme_name)
    kept = _BLEND_INDICES.get(key)
    if kept is not None and kept[0] is palette:
        return kept[1]
    row = blended(_RAMP, fill, on)
    indices = list(row.im.convert("P", Image.Dither.NONE, palette.im))
    if len(_BLEND_INDICES) > 4096:
        _BLEND_INDICES.clear()
    _BLEND_INDICES[key] = (palette, indices)
    return indices


def blended(mask: Image.Image, fill: str, on: str) -> Image.Image:
    """A text's coverage ``mask`` blended in ``fill`` over ``on``."""
    flat = Image.new("RGB", mask.size, on)
    ImageDraw.Draw(flat).bitmap((0, 0), mask, fill=fill)
    return flat


class Underneath:
    """What a palette canvas drew, in order, by place: each box with the RGB pixels it put
    (and the mask they went through) where those are known (stamps, texts), else None (shapes:
    a text over one cannot be blended as in the RGB picture)."""

    def __init__(self) -> None:
        self.drawn: list[tuple[Rect, Image.Image | Stamp | None, Image.Image | None]] = []

    def add(
        self, box: Rect, pixels: Image.Image | Stamp | None = None, mask: Image.Image | None = None
    ) -> None:
        """Note ``box`` as drawn, with its RGB ``pixels`` (a stamp's: its `Stamp.rgb`, asked
        for only when a text is blended over it) through ``mask`` when known."""
        self.drawn.append((box, pixels, mask))

    def touching(
        self, box: Rect
    ) -> list[tuple[Rect, Image.Image | Stamp | None, Image.Image | None]]:
        """What was drawn over ``box``, in the order drawn (a view draws a few hundred things
        and blends a few texts: a scan costs less than keeping an index)."""
        x0, y0, x1, y1 = box
        return [
            item
            for item in self.drawn
            if item[0][0] < x1 and x0 < item[0][2] and item[0][1] < y1 and y0 < item[0][3]
        ]


class NotOnPalette(ValueError):
    """Something a palette canvas cannot draw as mapping the RGB picture would (`over`)."""


@dataclass(frozen=True, slots=True)
class PaletteTarget:
    """The palette a part is drawn straight onto: its static background on the palette, a
    colour's index (the nearest, as mapping the RGB picture would take) and a stamp's mapping."""

    background: Callable[[], Image.Image]
    ink_of: Callable[[str], int]
    mapped: Callable[[Stamp], Image.Image]
    palette: Image.Image  # a palette image: what pixels are mapped onto
    #: The part's place in the picture being composed, holding its static background on the
    #: palette, to draw on in place (`renderer.render._compose`); None: a copy of it.
    place: Image.Image | None = None
    #: The theme whose palette it is: a stamp drawn straight onto it keeps its mapping by this
    #: name (`palette_stamp_of`; "": none is).
    theme: str = ""


def canvas(image: Image.Image, dirty: list[Rect] | None, half: bool = False) -> ImageDraw.ImageDraw:
    """Return a drawing context on ``image``, noting what it draws in ``dirty`` when given.

    With ``half`` the callers' full-size coordinates are drawn at half scale (``HalfDraw``).
    """
    return HalfDraw(image, dirty) if half else Recorder(image, dirty)


def regions(boxes: Sequence[Rect], size: tuple[int, int], tile: int) -> list[Rect]:
    """Return few rectangles, aligned to ``tile``, covering every box clipped to ``size``.

    Boxes mark tiles; each tile row's runs of marked tiles become rectangles, and a run repeated
    on the rows below grows downwards, so a panel of many small marks becomes one rectangle.
    """
    width, height = size
    cols, rows = -(-width // tile), -(-height // tile)
    marked = [bytearray(cols) for _ in range(rows)]
    spans = [b"\x01" * n for n in range(cols + 1)]
    last_col, last_row = cols - 1, rows - 1
    # A view notes a few hundred boxes: plain comparisons cost less than min() and max().
    for x0, y0, x1, y1 in boxes:
        c0, c1 = x0 // tile, (x1 - 1) // tile
        r0, r1 = y0 // tile, (y1 - 1) // tile
        if c0 < 0:
            c0 = 0
        if c1 > last_col:
            c1 = last_col
        if r0 < 0:
            r0 = 0
        if r1 > last_row:
            r1 = last_row
        if c0 > c1 or r0 > r1:
            continue
        span = spans[c1 - c0 + 1]
        for r in range(r0, r1 + 1):
            marked[r][c0 : c1 + 1] = span
    out: list[Rect] = []
    open_runs: dict[tuple[int, int], int] = {}  # (first col, last col) -> first row
    for r in range(rows + 1):
        runs: set[tuple[int, int]] = set()
        if r < rows:
            line = marked[r]
            c = line.find(1)
            while c != -1:
                end = line.find(0, c)
                end = cols if end == -1 else end
                runs.add((c, end - 1))
                c = line.find(1, end) if end < cols else -1
        for run in [run for run in open_runs if run not in runs]:
            first = open_runs.pop(run)
            out.append(
                (
                    run[0] * tile,
                    first * tile,
                    min((run[1] + 1) * tile, width),
                    min(r * tile, height),
                )
            )
        for run in runs:
            open_runs.setdefault(run, r)
    return out
