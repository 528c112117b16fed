"""Drawing helpers of every view: text, boxes, pieces, markers, the items drawn once and
stamped (`item`), and the canvas a part is drawn on (`over`; the canvas itself is
`renderer.canvas`, whose names are kept here too)."""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Hashable, Iterator, Sequence

from PIL import Image, ImageColor, ImageDraw

from renderer.canvas import (
    BLOCKS,
    MISSING,
    PREMAPPED_PIXELS,
    STAMPS,
    TILE,
    XY,
    Coords,
    DrawnText,
    HalfDraw,
    Notes,
    NotOnPalette,
    PaletteTarget,
    Recorder,
    Stamp,
    StampCache,
    Underneath,
    _recording,
    blend_indices,
    blended,
    canvas,
    not_recording,
    noted_texts,
    palette_stamp_of,
    placed_at,
    recording,
    regions,
    stamp_of,
)
from renderer.fonts import Weight, font
from renderer.layout import Point, Rect
from renderer.theme import CompanyStyle

#: The drawing helpers, and the canvas names the views reach through this module.
__all__ = [
    "ARROW_W",
    "BLOCKS",
    "ITEM_MARGIN",
    "PREMAPPED_PIXELS",
    "STAMPED_BOX_PIXELS",
    "STAMPS",
    "TILE",
    "XY",
    "Coords",
    "DrawnText",
    "HalfDraw",
    "NotOnPalette",
    "Notes",
    "PaletteTarget",
    "Point",
    "Recorder",
    "Stamp",
    "StampCache",
    "Underneath",
    "arrowhead",
    "box",
    "canvas",
    "check_flat",
    "conduit_value",
    "coverage",
    "drawn_in_rgb",
    "drawn_once",
    "drop",
    "first_fitting",
    "fit",
    "fits",
    "item",
    "level_bars",
    "marker",
    "not_recording",
    "over",
    "piece",
    "placed_at",
    "polyline",
    "recording",
    "regions",
    "ring",
    "shape_points",
    "stamp_of",
    "text",
    "text_mask",
    "text_width",
    "value_width",
    "wrap",
]


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
    found = noted_texts()
    if found is not None:
        box = (x, y, x + mask.width, y + mask.height)
        found.append(DrawnText(content, size, weight, role, box, isinstance(draw, HalfDraw)))
    if on is not None and type(draw) is Recorder:
        if _CHECK_FLAT[0]:
            _check_flat(draw.image, (x, y, x + mask.width, y + mask.height), on, content)
        key = ("text", content, size, weight, anchor, fill, on, face)
        stamp = STAMPS.get(key, functools.partial(_text_stamp, mask, fill, on))
        if stamp is not None:
            draw.stamp(stamp, (x, y))
            return
    # Rasterising glyphs is most of a view's drawing time and the same labels recur in every
    # picture, so each label's coverage mask is rendered once and stamped in its colour.
    draw.bitmap((x, y), mask, fill=fill)


def _text_stamp(mask: Image.Image, fill: str, on: str) -> Stamp:
    """A text blended over a flat colour: its whole box is pasted (no mask), mapped onto a
    palette straight from its mask (`_blended_on_palette`); its RGB pixels are drawn from the
    mask when a picture in RGB asks for them."""
    return Stamp(
        None,
        None,
        (0, 0),
        premapped=True,
        remake=functools.partial(blended, mask, fill, on),
        size=mask.size,
        mapper=functools.partial(_blended_on_palette, mask, fill, on),
    )


def _blended_on_palette(
    mask: Image.Image, fill: str, on: str, theme_name: str, palette: Image.Image
) -> Image.Image:
    """What mapping `blended` onto ``palette`` gives, in one pass over the mask: a pixel's
    blend depends only on its coverage value, so each of the 256 is blended and mapped once
    (`blend_indices`)."""
    return Image.Image()._new(mask.im.point(blend_indices(fill, on, theme_name, palette), "P"))


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
    # The glyphs laid out and rendered once: what drawing the text in 255 on a blank mask of
    # its box would give, without laying it out again for the box.
    core, (left, top) = f.getmask2(content, "L", anchor=anchor)
    if core.size[0] >= 1 and core.size[1] >= 1:
        return Image.Image()._new(core), left, top
    # An empty box (a space): a blank mask at least a pixel each way. A FreeType font's box
    # is in whole pixels (typed as floats for other kinds of font).
    left, top, right, bottom = (int(v) for v in f.getbbox(content, anchor=anchor))
    return Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0), left, top


def box(
    draw: ImageDraw.ImageDraw,
    rect: Rect,
    fill: str,
    outline: str,
    width: int = 2,
    radius: int = 8,
    stamped: bool = False,
) -> None:
    """Draw a rounded box (from a stamp up to `STAMPED_BOX_PIXELS`, or ``stamped``)."""
    x0, y0, x1, y1 = rect
    if (
        type(draw) is Recorder
        and _whole(*rect)
        and 0 < (x1 - x0 + 1) * (y1 - y0 + 1) <= (math.inf if stamped else STAMPED_BOX_PIXELS)
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
    where it is (a piece: its corners round where they fall): its stamp is kept by place.
    On a palette canvas the stamp is painted straight onto the palette where its paint can be
    (`palette_stamp_of`: no RGB pixels, no mapping)."""
    x0, y0, x1, y1 = rect
    if type(draw) is Recorder and draw.origin is not None and _whole(*rect) and not _recording():
        w, h, m = int(x1 - x0), int(y1 - y0), ITEM_MARGIN
        corner = (int(x0) - m + draw.origin[0], int(y0) - m + draw.origin[1])

        size, where = (w + 2 * m + 1, h + 2 * m + 1), corner if placed else None

        def inside(canvas: Recorder) -> None:
            paint(canvas, (m, m, m + w, m + h))

        def make() -> Stamp | None:
            return stamp_of(size, inside, (-m, -m), where)

        def made() -> Stamp | None:
            target, kind = draw.target, key[0] if isinstance(key, tuple) else key
            if target is None or not target.theme or kind in _PAINTED_IN_RGB:
                stamp = make()
            else:
                try:
                    stamp = palette_stamp_of(size, inside, target, (-m, -m), where)
                except NotOnPalette:
                    # A text blended over a shape: such items are painted in RGB and mapped.
                    _PAINTED_IN_RGB.add(kind)
                    stamp = make()
            if stamp is not None:
                # Pictures on the palette paste only its mapping: its RGB pixels are let go
                # of (or never painted) and painted when a picture in RGB asks for them.
                stamp.remake = lambda: _pixels_of(make())
            return stamp

        stamp = STAMPS.get(("item", key, w, h, corner if placed else None), made)
        if stamp is not None:
            draw.stamp(stamp, (int(x0), int(y0)))
            return
    paint(draw, rect)


def drawn_once(
    draw: ImageDraw.ImageDraw,
    key: Hashable,
    rect: Rect,
    paint: Callable[[ImageDraw.ImageDraw], None],
) -> None:
    """Draw ``paint(draw)``, a block of many texts and stamps that recurs whole (a view's
    scoreboard, the same in every view of a position), from its pixels as drawn before: on a
    palette canvas, where nothing was drawn in ``rect`` yet (its static background there is
    part of ``key``), what ``paint`` drew in ``rect`` is kept (`BLOCKS`) and pasted in one go
    the next time ``key`` is drawn. One that draws outside ``rect`` is drawn each time."""
    target = getattr(draw, "target", None)
    if (
        type(draw) is not Recorder
        or target is None
        or not target.theme
        or _drawn_over_or_off(draw, rect)
    ):
        paint(draw)
        return
    x0, y0, x1, y1 = rect
    full = (target.theme, key, rect)
    kept = BLOCKS.find(full)
    if isinstance(kept, Stamp):
        draw.im.paste(kept.mapped[target.theme].im, rect)
        draw.mark(rect)
        return
    dirty, notes = draw.dirty, draw.notes
    start, stamps = len(dirty), len(notes.stamps) if notes is not None else 0
    paint(draw)
    if kept is not MISSING:
        return  # it draws outside its rect: drawn each time
    inside = all(
        x0 <= bx0 and y0 <= by0 and bx1 <= x1 and by1 <= y1 for bx0, by0, bx1, by1 in dirty[start:]
    )
    if notes is not None:
        inside = inside and all(
            x0 <= sx and y0 <= sy and sx + st.size[0] <= x1 and sy + st.size[1] <= y1
            for (sx, sy), st in notes.stamps[stamps:]
        )
    size = (x1 - x0, y1 - y0)
    block = Stamp(None, None, (0, 0), mapped={target.theme: draw.image.crop(rect)}, size=size)
    BLOCKS.keep(full, block if inside else None)


def _drawn_over_or_off(draw: Recorder, rect: Rect) -> bool:
    """True when ``rect`` is not wholly on ``draw``'s image, or something was drawn over it
    already (its pixels are then not the static background's)."""
    x0, y0, x1, y1 = rect
    width, height = draw.size
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height or x0 >= x1 or y0 >= y1:
        return True
    under = draw.under
    return under is None or bool(under.touching(rect))


#: The kinds of item (their keys' first part) whose paint cannot be drawn on the palette.
_PAINTED_IN_RGB: set[Hashable] = set()


def _pixels_of(stamp: Stamp | None) -> Image.Image:
    """A stamp's RGB pixels, painted again (the same as the first time: `stamp_of`)."""
    assert stamp is not None, "an item drawn once as a stamp is one again"
    return stamp.rgb


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


def over(
    background: Image.Image, dirty: list[Rect] | None, half: bool = False
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A part's picture to draw on and its drawing context (see `canvas`): straight onto its
    background on the palette when ``dirty`` names a palette (`Notes.target`: in its place in
    the picture being composed where it gives one), else onto a copy of ``background``. On the palette, shapes are drawn in the index their colour maps to,
    stamps pasted as mapped once, and a text blended over what the RGB picture has under it
    (`Underneath`); anything else raises `NotOnPalette`, and the renderer draws the part again
    in RGB. Not while texts are noted or flat claims checked (`drawn_in_rgb`)."""
    target = dirty.target if isinstance(dirty, Notes) else None
    if target is not None and not half and not drawn_in_rgb():
        image = target.place if target.place is not None else target.background().copy()
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
