"""Small drawing helpers shared by every view: centred text, boxes, arrows, piece shapes."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer.fonts import Weight, font
from renderer.layout import Point, Rect
from renderer.theme import CompanyStyle


def text(
    draw: ImageDraw.ImageDraw,
    at: Point,
    content: str,
    size: int,
    fill: str,
    weight: Weight = "bold",
    anchor: str = "mm",
) -> None:
    """Draw ``content`` at ``at``; the default anchor centres it on the ink, not the baseline."""
    if not content:
        return
    mask, left, top = text_mask(content, size, weight, anchor)
    # Rasterising glyphs is most of a view's drawing time and the same labels recur in every
    # picture, so each label's coverage mask is rendered once and stamped in its colour.
    draw.bitmap((round(at[0]) + left, round(at[1]) + top), mask, fill=fill)


@functools.lru_cache(maxsize=4096)
def text_mask(content: str, size: int, weight: Weight, anchor: str) -> tuple[Image.Image, int, int]:
    """Return the antialiased coverage mask of ``content`` and its offset from the anchor point."""
    f = font(size, weight)
    left, top, right, bottom = f.getbbox(content, anchor=anchor)
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
    draw.rounded_rectangle(rect, radius=radius, fill=fill, outline=outline, width=width)


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


def shape_points(shape: str, centre: Point, radius: float) -> list[tuple[float, float]]:
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
    # A triangle's letter sits low and needs more room, so the triangle is drawn larger.
    # Polygons look smaller than a circle of the same radius and must still hold the letter.
    r = radius * {"triangle": 1.35, "square": 1.3, "diamond": 1.15, "hexagon": 1.05}.get(
        style.shape, 1.0
    )
    ly = cy + (radius * 0.3 if style.shape == "triangle" else 0)
    if style.shape == "circle":
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=style.fill, outline=style.outline, width=3
        )
    else:
        pts = shape_points(
            style.shape, (cx, cy + (radius * 0.25 if style.shape == "triangle" else 0)), r
        )
        draw.polygon(pts, fill=style.fill, outline=style.outline, width=3)
    text(draw, (cx, ly), style.letter, letter_size, style.ink)


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
        text(draw, (cx, cy + 1), str(number), size, ink)


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


@functools.lru_cache(maxsize=4096)
def fit(content: str, size: int, width: int, weight: Weight = "regular") -> str:
    """Return ``content`` cut with an ellipsis so it fits ``width`` pixels at ``size``."""
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


@functools.lru_cache(maxsize=256)
def wrap(
    content: str, size: int, width: int, lines: int, weight: Weight = "regular"
) -> tuple[str, ...]:
    """Return ``content`` broken into at most ``lines`` lines of ``width``; the last may be cut."""
    f = font(size, weight)
    out: list[str] = []
    words = content.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and f.getlength(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words and out:
        out[-1] = fit(f"{out[-1]} {' '.join(words)}", size, width, weight)
    return tuple(fit(line, size, width, weight) for line in out)
