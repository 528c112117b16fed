"""Small drawing helpers shared by every view: centred text, boxes, arrows, piece shapes."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

from renderer.fonts import Weight, font
from renderer.layout import Point, Rect


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
    draw.text(at, content, font=font(size, weight), fill=fill, anchor=anchor)


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
