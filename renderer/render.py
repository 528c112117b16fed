"""The renderer's entry points: ``render`` (PNG bytes of one view) and ``render_score_sheet``."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable

from PIL import Image, ImageDraw

from bot.rules.state import GameState
from renderer import draw as d
from renderer.background import map_background
from renderer.company_view import company_background, draw_company
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
PALETTE_COLOURS = 128


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
    image = render_image(state, view=view, company=company, theme=theme, highlight=highlight)
    if view == "full":
        # The full board has four times a partial view's pixels: mapped onto a fixed palette it
        # encodes about four times faster and half as large, which keeps it under 150 ms and
        # 500 KB. Partial views stay RGB: they meet their targets with exact antialiasing.
        image = image.quantize(palette=palette(theme), dither=Image.Dither.NONE)
    return encode(image)


def render_image(
    state: GameState,
    *,
    view: str = "map",
    company: str | None = None,
    theme: str = "light",
    highlight: Iterable[str] = (),
) -> Image.Image:
    """Return one view as a Pillow image (``render`` without the PNG encoding)."""
    if view not in ALL_VIEWS:
        raise ValueError(f"unknown view {view!r}; expected one of {list(ALL_VIEWS)}")
    look = get_theme(theme)
    lit = frozenset(str(h) for h in highlight)
    if view == "map":
        return draw_map(state, look, lit)
    if view == "shared":
        return draw_shared(state, look, lit)
    if view == "company":
        return draw_company(state, _company(state, company), look, lit)
    return draw_full(state, look, lit)


def render_score_sheet(
    state: GameState, events: Iterable[object], *, theme: str = "light"
) -> bytes:
    """Return a PNG score sheet: final VP by source (from ``events``) and per-round charts."""
    return encode(draw_score_sheet(state, list(events), get_theme(theme)))


def encode(image: Image.Image) -> bytes:
    """Return ``image`` as PNG bytes."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", **PNG_OPTIONS)
    return buf.getvalue()


@functools.lru_cache(maxsize=8)
def palette(theme_name: str) -> Image.Image:
    """Return a 128-colour palette image for ``theme_name``, drawn from its static images once.

    Its sources are every theme colour and company colour (as swatches) and the static
    backgrounds, so pieces, highlights and the antialiased edges of text all map closely.
    """
    theme = get_theme(theme_name)
    colours = [*theme.colours.values()]
    for style in theme.companies.values():
        colours += [style.fill, style.outline, style.ink]
    swatch = Image.new("RGB", (32 * len(colours), 32))
    for i, colour in enumerate(colours):
        swatch.paste(colour, (32 * i, 0, 32 * i + 32, 32))
    sources = [
        swatch,
        map_background("base", theme_name),
        shared_background(4, "intro", theme_name),
        *(company_background(cid, theme_name) for cid in theme.companies),
    ]
    width = max(s.width for s in sources)
    sheet = Image.new("RGB", (width, sum(s.height for s in sources)), theme.colour("background"))
    y = 0
    for source in sources:
        sheet.paste(source, (0, y))
        y += source.height
    return sheet.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)


def _company(state: GameState, company: str | None) -> str:
    if company is None:
        return state.current if state.current in state.companies else state.seats[0]
    if company not in state.companies:
        raise ValueError(
            f"no company {company!r} in this game; expected one of {sorted(state.companies)}"
        )
    return company


def draw_full(
    state: GameState, theme: Theme, highlight: frozenset[str] = frozenset()
) -> Image.Image:
    """Return everything in one image: map and shared boards side by side, company boards below."""
    sizes = theme.views["full"].text
    top = 60
    map_image = draw_map(state, theme, highlight)
    shared = draw_shared(state, theme, highlight)
    # Company boards at half scale: the full board is for zooming, and four full-size boards
    # would double the pixels to encode.
    boards = [draw_company(state, cid, theme, highlight).reduce(2) for cid in state.seats]
    bw, bh = boards[0].size if boards else (0, 0)
    left_w = map_image.width
    rows = (len(boards) + 1) // 2
    left_h = map_image.height + GAP + rows * (bh + GAP)
    width = left_w + GAP + shared.width
    height = top + max(left_h, shared.height)
    image = Image.new("RGB", (width, height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    d.text(
        draw, (18, top // 2), FULL_CAPTION, sizes["label"], theme.colour("text"), "regular", "lm"
    )
    image.paste(map_image, (0, top))
    image.paste(shared, (left_w + GAP, top))
    for i, board in enumerate(boards):
        x = (i % 2) * (bw + GAP) + (left_w - 2 * bw - GAP) // 2
        y = top + map_image.height + GAP + (i // 2) * (bh + GAP)
        image.paste(board, (x, y))
    return image
