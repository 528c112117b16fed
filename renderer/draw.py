"""Drawing helpers of every view (text, boxes, pieces) and a canvas that notes what it draws."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageChops, ImageColor, ImageDraw

from renderer.fonts import Weight, font
from renderer.layout import Point, Rect
from renderer.theme import CompanyStyle

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


def text(
    draw: ImageDraw.ImageDraw,
    at: XY,
    content: str,
    size: int,
    fill: str,
    weight: Weight = "bold",
    anchor: str = "mm",
    role: str = "",
    on: str | None = None,
) -> None:
    """Draw ``content`` at ``at``; the default anchor centres it on the ink, not the baseline.

    ``role`` names what the text is for a reader ("board": the scoreboard and turn line).
    ``on`` says the text's box is all of that colour (nothing else drawn there): the text is
    then pasted, blended once over that colour, and mapped onto the palette once
    (`check_flat` makes every such claim checked).
    """
    if not content:
        return
    mask, left, top = text_mask(content, size, weight, anchor)
    coverage(draw, at, (mask, left, top), content, size, fill, weight, anchor, role, on)


def coverage(
    draw: ImageDraw.ImageDraw,
    at: XY,
    masked: tuple[Image.Image, int, int],
    content: str,
    size: int,
    fill: str,
    weight: Weight = "bold",
    anchor: str = "mm",
    role: str = "",
    on: str | None = None,
    face: str = "",
) -> None:
    """Draw a text's coverage mask (with its offset from ``at``) as `text` draws one: noted,
    and stamped once blended ``on`` a flat colour (``face``: a font other than DejaVu's)."""
    mask, left, top = masked
    x, y = round(at[0]) + left, round(at[1]) + top
    found = getattr(_RECORD, "texts", None)
    if found is not None:
        box = (x, y, x + mask.width, y + mask.height)
        found.append(DrawnText(content, size, weight, role, box, isinstance(draw, HalfDraw)))
    if on is not None and type(draw) is Recorder:
        if _CHECK_FLAT[0]:
            _check_flat(draw.image, (x, y, x + mask.width, y + mask.height), on, content)
        key = ("text", content, size, weight, anchor, fill, on, face)
        stamp = STAMPS.get(key, lambda: _text_stamp(mask, fill, on))
        if stamp is not None:
            draw.stamp(stamp, (x, y))
            return
    # Rasterising glyphs is most of a view's drawing time and the same labels recur in every
    # picture, so each label's coverage mask is rendered once and stamped in its colour.
    draw.bitmap((x, y), mask, fill=fill)


def _text_stamp(mask: Image.Image, fill: str, on: str) -> Stamp:
    """A text blended over a flat colour: its whole box is pasted (no mask), mapped once."""
    flat = Image.new("RGB", mask.size, on)
    ImageDraw.Draw(flat).bitmap((0, 0), mask, fill=fill)
    return Stamp(flat, None, (0, 0), premapped=True)


#: Whether `text` checks every ``on`` claim (tests switch it on: `check_flat`).
_CHECK_FLAT = [False]


@contextlib.contextmanager
def check_flat() -> Iterator[None]:
    """Check, while the block runs, that a text said to be drawn ``on`` a colour is drawn where
    the picture is all of that colour (AssertionError if not)."""
    outer = _CHECK_FLAT[0]
    _CHECK_FLAT[0] = True
    try:
        yield
    finally:
        _CHECK_FLAT[0] = outer


def _check_flat(image: Image.Image, box: Rect, on: str, content: str) -> None:
    colours = image.crop(box).getcolors(1)
    colour = ImageColor.getrgb(on)
    if not colours or colours[0][1] != colour:
        raise AssertionError(
            f"{content!r} is drawn at {box} on {colours or 'many colours'}, not {on}"
        )


@functools.lru_cache(maxsize=4096)
def text_mask(content: str, size: int, weight: Weight, anchor: str) -> tuple[Image.Image, int, int]:
    """Return the antialiased coverage mask of ``content`` and its offset from the anchor point."""
    f = font(size, weight)
    # A FreeType font's box is in whole pixels (typed as floats for other kinds of font).
    left, top, right, bottom = (int(v) for v in f.getbbox(content, anchor=anchor))
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), content, font=f, fill=255, anchor=anchor)
    return mask, left, top


def box(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    fill: str,
    outline: str,
    width: int = 2,
    radius: int = 8,
) -> None:
    """Draw a rounded box."""
    x0, y0, x1, y1 = rect
    if (
        type(draw) is Recorder
        and _whole(*rect)
        and 0 < (x1 - x0 + 1) * (y1 - y0 + 1) <= STAMPED_BOX_PIXELS
    ):
        # Pillow draws a rounded box in a dozen Python-level steps; the views draw the same
        # boxes again in every picture, so each is drawn once and pasted through its mask.
        key = ("box", int(x1 - x0), int(y1 - y0), fill, outline, width, radius)
        stamp = STAMPS.get(key, lambda: _box_stamp(*key[1:]))
        if stamp is not None:
            draw.stamp(stamp, (int(x0), int(y0)))
            return
    draw.rounded_rectangle(rect, radius=radius, fill=fill, outline=outline, width=width)


#: Boxes up to this many pixels are pasted from a stamp: larger ones cost as much to paste as
#: to draw (bench/render.py).
STAMPED_BOX_PIXELS = 150_000


def _box_stamp(w: int, h: int, fill: str, outline: str, width: int, radius: int) -> Stamp | None:
    """A rounded box as a stamp. Pillow rounds a box's corners to whole pixels, so a box drawn
    at whole-pixel corners is the same wherever it is drawn."""

    def paint(canvas: ImageDraw.ImageDraw) -> None:
        canvas.rounded_rectangle(
            (1, 1, w + 1, h + 1), radius=radius, fill=fill, outline=outline, width=width
        )

    return stamp_of((w + 3, h + 3), paint, (-1, -1))


@dataclass(eq=False, slots=True)
class Stamp:
    """Pixels drawn once and pasted wherever they recur, as they are the same wherever they go
    and whatever is under them (`stamp_of` checks it); a large one keeps its mapping onto each
    theme's palette, so pictures map it once."""

    rgb: Image.Image
    # "1" mode: pasting through it copies, as drawing does, with no blending; None: all of it.
    mask: Image.Image | None
    offset: Point  # where the pixels start from the point the stamp is pasted at
    premapped: bool = False  # mapped onto the palette once, however small
    mapped: dict[str, Image.Image] = field(default_factory=dict)  # by theme name

    def nbytes(self) -> int:
        """The memory its images take."""
        w, h = self.rgb.size
        return w * h * (4 + len(self.mapped)) + (w + 7) // 8 * h


def stamp_of(
    size: tuple[int, int],
    paint: Callable[[Recorder], None],
    origin: Point = (0, 0),
    where: Point | None = None,
) -> Stamp | None:
    """What ``paint`` draws on a canvas of ``size`` as a stamp to paste at the canvas's
    ``origin``; None when its pixels depend on what is under them (antialiased text over an
    edge) or it reaches the canvas's edge (it may have been cut).

    ``paint`` draws twice, over black and over white: the pixels it changed in either are
    the stamp's, and they must be the same in both. ``where`` is where the canvas's corner is
    in the picture, for what is drawn as it would be there (pieces); None: nowhere.
    """
    black, white = (Image.new("RGB", size, under) for under in ((0, 0, 0), (255, 255, 255)))
    with not_recording():
        for canvas in (black, white):
            paint(Recorder(canvas, origin=where))
    return _stamp_from(black, white, size, origin)


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


#: Room around an item's box on the canvas its stamp is drawn on (a box's outline, a ring).
ITEM_MARGIN = 4


def item(
    draw: ImageDraw.ImageDraw,
    key: Hashable,
    rect: Rect,
    paint: Callable[[ImageDraw.ImageDraw, Rect], None],
    *,
    placed: bool = False,
) -> None:
    """Draw ``paint(draw, rect)`` from a stamp: an item drawn in ``rect`` the same wherever
    ``rect`` is (whole pixels from its corner), over whatever is under it (a box first, text
    inside). ``key`` names everything the item is drawn from. An item that is not so (see
    `stamp_of`) is drawn in place. A ``placed`` item holds something drawn as it would be
    where it is (a piece: its corners round where they fall): its stamp is kept by place."""
    x0, y0, x1, y1 = rect
    if type(draw) is Recorder and draw.origin is not None and _whole(*rect) and not _recording():
        w, h, m = int(x1 - x0), int(y1 - y0), ITEM_MARGIN
        corner = (int(x0) - m + draw.origin[0], int(y0) - m + draw.origin[1])

        def make() -> Stamp | None:
            size = (w + 2 * m + 1, h + 2 * m + 1)
            inside = (m, m, m + w, m + h)
            where = corner if placed else None
            return stamp_of(size, lambda canvas: paint(canvas, inside), (-m, -m), where)

        stamp = STAMPS.get(("item", key, w, h, corner if placed else None), make)
        if stamp is not None:
            draw.stamp(stamp, (int(x0), int(y0)))
            return
    paint(draw, rect)


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
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        made = make()
        with self.lock:
            if key not in self.items:
                self.items[key] = made
                self.used += made.nbytes() if made else 64
                while self.used > self.budget and len(self.items) > 1:
                    _, old = self.items.popitem(last=False)
                    self.used -= old.nbytes() if old else 64
        return made

    def map_onto(self, stamp: Stamp, theme_name: str, mapped: Image.Image) -> None:
        """Keep ``stamp``'s mapping onto a theme's palette (counted in the budget)."""
        with self.lock:
            if theme_name not in stamp.mapped:
                stamp.mapped[theme_name] = mapped
                self.used += mapped.width * mapped.height

    def clear(self) -> None:
        """Forget every stamp (`renderer.render.forget_pictures`)."""
        with self.lock:
            self.items.clear()
            self.used = 0


#: The stamps of every picture (boxes, pieces, texts on flat colours, the views' recurring
#: items) with their mappings onto the palette: 16 MB holds every view of a few setups (those
#: of a game with an expansion take up to 8 MB; a stamp let go is drawn and mapped again).
STAMPS = StampCache(16 * 1024 * 1024)


def arrowhead(
    draw: ImageDraw.ImageDraw, tip: Point, towards_from: Point, size: int, fill: str
) -> None:
    """Draw a filled arrowhead with its tip at ``tip``, pointing away from ``towards_from``."""
    dx, dy = tip[0] - towards_from[0], tip[1] - towards_from[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    # Base of the head sits ``size`` behind the tip; its half-width is 0.6 * size.
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    px, py = -uy * size * 0.6, ux * size * 0.6
    draw.polygon([tip, (bx + px, by + py), (bx - px, by - py)], fill=fill)


def polyline(draw: ImageDraw.ImageDraw, points: Sequence[Point], fill: str, width: int) -> None:
    """Draw a polyline with rounded joints."""
    draw.line(list(points), fill=fill, width=width, joint="curve")
    r = width // 2
    for x, y in points:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def shape_points(shape: str, centre: XY, radius: float) -> list[tuple[float, float]]:
    """Return the polygon of a company shape (circle is approximated by 32 points)."""
    cx, cy = centre
    sides, rotation = {
        "circle": (32, 0.0),
        "square": (4, 45.0),
        "triangle": (3, -90.0),
        "diamond": (4, 0.0),
        "hexagon": (6, 0.0),
    }[shape]
    # Squares are drawn slightly smaller so all shapes look the same size.
    r = radius * (0.9 if shape == "square" else 1.0)
    return [
        (
            cx + r * math.cos(math.radians(rotation + 360 * i / sides)),
            cy + r * math.sin(math.radians(rotation + 360 * i / sides)),
        )
        for i in range(sides)
    ]


def piece(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: int,
    style: CompanyStyle,
    letter_size: int,
) -> None:
    """Draw a company's piece: its shape in its colour with its letter, for colour-blind players."""
    cx, cy = centre
    if type(draw) is Recorder and _whole(cx, cy) and not _recording():
        # A polygon's corners round where they fall in the picture: on a stamp's canvas (an
        # item's), a piece is drawn as it would be where the stamp goes.
        if draw.origin is None:
            raise ValueError("a piece in an item kept apart from its place: say placed=True")
        x, y = int(cx) + draw.origin[0], int(cy) + draw.origin[1]
        # Pieces recur at the same places (turn order, spaces): each is drawn once there.
        key = ("piece", radius, style, letter_size, x, y)
        stamp = STAMPS.get(key, lambda: _piece_stamp(radius, style, letter_size, x, y))
        if stamp is not None:
            draw.stamp(stamp, (int(cx), int(cy)))
            return
    _draw_piece(draw, centre, radius, style, letter_size)


def _draw_piece(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: int,
    style: CompanyStyle,
    letter_size: int,
) -> None:
    """Draw a piece in place (`piece` draws it from a stamp where it can)."""
    cx, cy = centre
    ly = cy + (radius * 0.3 if style.shape == "triangle" else 0)
    if style.shape == "circle":
        r = radius
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=style.fill, outline=style.outline, width=3
        )
    elif isinstance(draw, Recorder) and not isinstance(draw, HalfDraw) and _whole(cx, cy):
        # Pillow outlines a polygon through a mask the size of the whole image; a cached stamp
        # of the outlined shape, pasted through its own mask, gives the same pixels.
        shape, mask, c = _shape_stamp(radius, style, int(cx), int(cy))
        draw.paste(shape, (int(cx) - c, int(cy) - c), mask)
    else:
        draw.polygon(
            _piece_points(centre, radius, style), fill=style.fill, outline=style.outline, width=3
        )
    text(draw, (cx, ly), style.letter, letter_size, style.ink)


def _piece_stamp(
    radius: int, style: CompanyStyle, letter_size: int, cx: int, cy: int
) -> Stamp | None:
    """A piece drawn at ``cx, cy`` as a stamp to paste at ``cx, cy``: its shape and letter at
    the whole pixels `_draw_piece` puts them in place, moved by whole pixels."""
    c = 3 * radius + 8
    ly = cy + (radius * 0.3 if style.shape == "triangle" else 0)
    mask, left, top = text_mask(style.letter, letter_size, "bold", "mm")

    def paint(canvas: Recorder) -> None:
        if style.shape == "circle":
            r = radius
            canvas.ellipse(
                (c - r, c - r, c + r, c + r), fill=style.fill, outline=style.outline, width=3
            )
        else:
            shape, shape_mask, k = _shape_stamp(radius, style, cx, cy)
            canvas.paste(shape, (c - k, c - k), shape_mask)
        canvas.bitmap((c + left, round(ly) + top - (cy - c)), mask, fill=style.ink)

    return stamp_of((2 * c, 2 * c), paint, (-c, -c))


def _whole(*values: float) -> bool:
    return all(float(v).is_integer() for v in values)


def _piece_points(centre: Point, radius: int, style: CompanyStyle) -> list[tuple[float, float]]:
    cx, cy = centre
    # A triangle's letter sits low and needs more room, so the triangle is drawn larger.
    # Polygons look smaller than a circle of the same radius and must still hold the letter.
    r = radius * {"triangle": 1.35, "square": 1.3, "diamond": 1.15, "hexagon": 1.05}.get(
        style.shape, 1.0
    )
    return shape_points(
        style.shape, (cx, cy + (radius * 0.25 if style.shape == "triangle" else 0)), r
    )


@functools.lru_cache(maxsize=512)
def _shape_stamp(
    radius: int, style: CompanyStyle, cx: int, cy: int
) -> tuple[Image.Image, Image.Image, int]:
    """Return a piece's outlined shape at ``cx, cy``, its mask, and its centre's offset in both.

    The corners are computed where the piece goes and moved by whole pixels, so they round
    exactly as when drawn in place (pieces recur at the same places: turn order, spaces).
    """
    c = 2 * radius + 8
    points = [(x - (cx - c), y - (cy - c)) for x, y in _piece_points((cx, cy), radius, style)]
    shape = Image.new("RGB", (2 * c, 2 * c))
    ImageDraw.Draw(shape).polygon(points, fill=style.fill, outline=style.outline, width=3)
    mask = Image.new("L", shape.size)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    return shape, mask.convert("1", dither=Image.Dither.NONE), c


def drop(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: int,
    fill: str,
    number: int | None = None,
    ink: str = "#ffffff",
    size: int = 30,
) -> None:
    """Draw a water drop (a circle with a point on top), optionally with a number inside."""
    cx, cy = centre
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill)
    top = cy - radius * 1.6
    draw.polygon(
        [
            (cx, top),
            (cx + radius * 0.8, cy - radius * 0.55),
            (cx - radius * 0.8, cy - radius * 0.55),
        ],
        fill=fill,
    )
    if number is not None:
        text(draw, (cx, cy + 1), str(number), size, ink, on=fill)


def ring(draw: ImageDraw.ImageDraw, rect: Rect, colour: str, edge: str, width: int = 6) -> None:
    """Draw a highlight ring just outside ``rect``, with a thin contrasting edge around it."""
    x0, y0, x1, y1 = rect
    g = width
    draw.rounded_rectangle(
        (x0 - g - 2, y0 - g - 2, x1 + g + 1, y1 + g + 1), radius=12, outline=edge, width=2
    )
    draw.rounded_rectangle(
        (x0 - g, y0 - g, x1 + g - 1, y1 + g - 1), radius=10, outline=colour, width=g
    )


def fit(content: str, size: int, width: int, weight: Weight = "regular") -> str:
    """Return ``content`` cut with an ellipsis so it fits ``width`` pixels at ``size`` (the
    records and replay pictures' tables; the board views wrap instead)."""
    f = font(size, weight)
    if f.getlength(content) <= width:
        return content
    while content and f.getlength(content + "…") > width:
        content = content[:-1]
    return content + "…"


@functools.lru_cache(maxsize=4096)
def text_width(content: str, size: int, weight: Weight = "regular") -> float:
    """Return the advance width of ``content`` in pixels."""
    return font(size, weight).getlength(content)


@functools.lru_cache(maxsize=1024)
def wrap(content: str, size: int, width: int, weight: Weight = "regular") -> tuple[str, ...]:
    """Return ``content`` broken into lines of at most ``width`` pixels between words (a word
    longer than the width has a line of its own): never cut, so every word is drawn."""
    f = font(size, weight)
    out: list[str] = []
    words = content.split()
    while words:
        line = words.pop(0)
        while words and f.getlength(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    return tuple(out)


def first_fitting(forms: Sequence[str], size: int, width: int, weight: Weight = "regular") -> str:
    """The first of ``forms`` at most ``width`` pixels wide, else the last: each form is a
    defined shorter form of the one before (so a line fits by design, never cut)."""
    return next((form for form in forms if fits(form, size, width, weight)), forms[-1])


def fits(content: str, size: int, width: int, weight: Weight = "regular") -> bool:
    """True when ``content`` is at most ``width`` pixels wide."""
    return text_width(content, size, weight) <= width


ARROW_W = 16  # the arrow of a conduit's "value → basin": a drawn symbol, narrower than "→"


def value_width(production: int, basin: int | str, size: int) -> int:
    """The width of a conduit's "value → basin" (see `conduit_value`)."""
    return int(text_width(str(production), size) + ARROW_W + 8 + text_width(str(basin), size))


def conduit_value(
    draw: ImageDraw.ImageDraw,
    left_mid: Point,
    production: int,
    basin: int | str,
    size: int,
    ink: str,
) -> None:
    """Draw a conduit's value, an arrow and the basin it feeds ("5 → 8"), from ``left_mid``."""
    x, y = left_mid
    text(draw, (x, y), str(production), size, ink, "regular", "lm")
    ax = x + text_width(str(production), size) + 4
    draw.line(((ax, y), (ax + ARROW_W - 6, y)), fill=ink, width=3)
    arrowhead(draw, (round(ax + ARROW_W), y), (round(ax), y), 8, ink)
    text(draw, (ax + ARROW_W + 4, y), str(basin), size, ink, "regular", "lm")


def level_bars(
    draw: ImageDraw.ImageDraw, bottom_left: Point, level: int, ink: str, levels: int = 3
) -> None:
    """A dam's level as stacked bars from the bottom, filled up to ``level`` (legible at phone
    size: each bar 26 x 9 pixels, 4 apart)."""
    x, y = bottom_left
    for i in range(levels):
        top = y - 9 - i * 13
        bar = (x, top, x + 26, top + 9)
        if i < level:
            draw.rectangle(bar, fill=ink)
        else:
            draw.rectangle(bar, outline=ink, width=2)


def marker(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    style: CompanyStyle,
    number: int,
    size: int,
    outline: str,
) -> tuple[int, int, int, int]:
    """An energy marker: the company's piece with its count beside it on a plate; its box
    (one item, drawn where it is: its piece's corners round there)."""
    cx, cy = centre
    label = str(number)
    w = int(text_width(label, size, "bold"))
    box = (cx - 22, cy - 21, cx + 26 + w + 8, cy + 21)
    paint = functools.partial(_paint_marker, style=style, label=label, size=size, outline=outline)
    item(draw, ("marker", style, label, size, outline), box, paint, placed=True)
    return box


def _paint_marker(
    draw: ImageDraw.ImageDraw,
    box: Rect,
    *,
    style: CompanyStyle,
    label: str,
    size: int,
    outline: str,
) -> None:
    """An energy marker's plate, piece and count in ``box`` (see `marker`)."""
    cx, cy = box[0] + 22, box[1] + 21
    draw.rounded_rectangle(box, radius=10, fill=style.fill, outline=outline, width=2)
    piece(draw, (cx, cy), 16, style, size)
    text(draw, (cx + 26, cy), label, size, style.ink, "bold", "lm", role="marker", on=style.fill)


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
        self.depth = 0
        #: Where the image's corner is in the picture (a stamp's canvas; None: nowhere).
        self.origin = origin
        #: The palette a canvas drawn straight onto the palette draws in (`over`), its
        #: static background in RGB and what it drew over it (to blend a text over: `over`).
        self.target: PaletteTarget | None = None
        self.static_rgb: Image.Image | None = None
        self.under: Underneath | None = None

    def stamp(self, stamp: Stamp, at: Point) -> None:
        """Paste ``stamp`` at ``at``; a large one lying wholly on the image is noted as a stamp
        (mapped onto the palette once, with the stamp), others as a box."""
        x, y = at[0] + stamp.offset[0], at[1] + stamp.offset[1]
        w, h = stamp.rgb.size
        pixels = stamp.rgb if self.target is None else self.target.mapped(stamp)
        # What Image.paste does, on the core images (a view pastes a hundred stamps; Pillow's
        # wrapper of each paste costs more than the paste): the core clips to the image.
        box = (x, y, x + w, y + h)
        if stamp.mask is None:
            self.image.im.paste(pixels.im, box)
        else:
            self.image.im.paste(pixels.im, box, stamp.mask.im)
        if self.under is not None:
            self.under.add((x, y, x + w, y + h), stamp.rgb, stamp.mask)
        if (
            isinstance(self.dirty, Notes)
            and (stamp.premapped or w * h >= PREMAPPED_PIXELS)
            and x >= 0
            and y >= 0
            and x + w <= self.image.width
            and y + h <= self.image.height
        ):
            self.dirty.stamps.append(((x, y), stamp))
        else:
            self.dirty.append((x, y, x + w, y + h))

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
        self.dirty.append((x - 1, y - 1, x + mask.width + 1, y + mask.height + 1))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        piece = self.static_rgb.crop(box)
        for (px, py, _, _), pixels, through in drawn:
            assert pixels is not None  # refused above
            piece.paste(pixels, (px - box[0], py - box[1]), through)
        ImageDraw.ImageDraw.bitmap(ImageDraw.Draw(piece), (x - box[0], y - box[1]), mask, fill)
        self.image.im.paste(piece.im.convert("P", Image.Dither.NONE, self.target.palette.im), box)
        self.under.add(box, piece)

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
            return
        self._call("line", xy, width, fill, joint=joint)

    def pieslice(self, xy, start, end, fill=None, outline=None, width=1):
        """Draw a pie slice and note its box."""
        self._call("pieslice", xy, width, start, end, fill, outline)

    def _everything(self) -> None:
        if self.target is not None:
            raise NotOnPalette("a call the views do not make, on a palette canvas")
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


class Underneath:
    """What a palette canvas drew, in order, by place: each box with the RGB pixels it put
    (and the mask they went through) where those are known (stamps, texts), else None (shapes:
    a text over one cannot be blended as in the RGB picture)."""

    def __init__(self) -> None:
        self.drawn: list[tuple[Rect, Image.Image | None, Image.Image | None]] = []

    def add(
        self, box: Rect, pixels: Image.Image | None = None, mask: Image.Image | None = None
    ) -> None:
        """Note ``box`` as drawn, with its RGB ``pixels`` (through ``mask``) when known."""
        self.drawn.append((box, pixels, mask))

    def touching(self, box: Rect) -> list[tuple[Rect, Image.Image | None, Image.Image | None]]:
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


def over(
    background: Image.Image, dirty: list[Rect] | None, half: bool = False
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A part's picture to draw on and its drawing context (see `canvas`): straight onto its
    background on the palette when ``dirty`` names a palette (`Notes.target`), else onto a copy
    of ``background``. On the palette, shapes are drawn in the index their colour maps to,
    stamps pasted as mapped once, and a text blended over what the RGB picture has under it
    (`Underneath`); anything else raises `NotOnPalette`, and the renderer draws the part again
    in RGB. Not while texts are noted or flat claims checked (`drawn_in_rgb`)."""
    target = dirty.target if isinstance(dirty, Notes) else None
    if target is not None and not half and not drawn_in_rgb():
        image = target.background().copy()
        draw = Recorder(image, dirty)
        draw.target, draw.static_rgb, draw.under = target, background, Underneath()
        return image, draw
    image = background.copy()
    return image, canvas(image, dirty, half)


def drawn_in_rgb() -> bool:
    """True while pictures must be drawn in RGB and mapped: texts are noted (`recording`;
    stamps would hide theirs) or flat claims checked (`check_flat`, which reads the RGB
    picture under a text)."""
    return _recording() or _CHECK_FLAT[0]


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
    for x0, y0, x1, y1 in boxes:
        c0, c1 = max(x0 // tile, 0), min((x1 - 1) // tile, cols - 1)
        r0, r1 = max(y0 // tile, 0), min((y1 - 1) // tile, rows - 1)
        if c0 > c1 or r0 > r1:
            continue
        span = b"\x01" * (c1 - c0 + 1)
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
