"""What every picture is drawn over, made once and kept: the static backgrounds mapped onto
the palette and the compositions of a view's backgrounds (`COMPOSED`), each colour's index
on the palette, the bytes a thread composes its pictures in, and the texts most new
positions draw first, laid out as a renderer process starts."""

from __future__ import annotations

import functools
import threading

from PIL import Image

from renderer import draw as d
from renderer import header
from renderer.company_view import CONTRACT_TEXT, contract_line
from renderer.content import content
from renderer.expansions import catalogue
from renderer.palette import palette
from renderer.theme import get_theme
from renderer.view_cache import ImageCache


def on_palette(theme_name: str, background: functools.partial[Image.Image]) -> Image.Image:
    """Return ``background()`` mapped onto the palette of ``theme_name`` (cached by what the
    background is drawn from: its function and arguments)."""
    key = (theme_name, *static_key(background))
    return ON_PALETTE.get(
        key,
        lambda: background().quantize(palette=palette(theme_name), dither=Image.Dither.NONE),
    )


def static_key(background: functools.partial[Image.Image]) -> tuple[object, ...]:
    """What a static background is drawn from: its function and arguments."""
    return (background.func, background.args, tuple(background.keywords.items()))


# Static backgrounds mapped onto the palette: one per map, board, size and theme.
ON_PALETTE = ImageCache(64 * 1024 * 1024)
# Views' static backgrounds composed on the palette (a phone view's takes 1.2-3 MB, a full
# board's 7-11 and is not kept): every phone view of a game or two. Those of a 4-player game
# with two expansions take 18 MB (its company boards 8); at 24 MB with the full board's kept,
# bench/render.py found a company board's composed again in late positions.
COMPOSED = ImageCache(32 * 1024 * 1024)
#: The largest composition kept: a phone view's (a full board's would push out three).
LARGEST_COMPOSED = 4 * 1024 * 1024


def background_index(theme_name: str) -> int:
    return ink_index(theme_name, get_theme(theme_name).colour("background"))


@functools.lru_cache(maxsize=256)
def ink_index(theme_name: str, colour: str) -> int:
    """The palette index a pixel of ``colour`` is mapped to."""
    swatch = Image.new("RGB", (1, 1), colour)
    index = swatch.quantize(palette=palette(theme_name), dither=Image.Dither.NONE).getpixel((0, 0))
    assert isinstance(index, (int, float)), "a palette image's pixel is one index"
    return int(index)


#: Each thread's scratch bytes to compose a picture in (`scratch_copy`).
_SCRATCH = threading.local()


def scratch_copy(rows: bytes) -> bytearray:
    """``rows`` copied to the start of this thread's scratch bytes (grown to the largest
    picture it composed, 1.2-3 MB): new bytes of a picture's size cost a render their page
    faults (0.6 ms for 2 MB) each time the bot has given freed memory back
    (`bot.service.images.trim_due`)."""
    buffer: bytearray | None = getattr(_SCRATCH, "buffer", None)
    if buffer is None or len(buffer) < len(rows):
        buffer = _SCRATCH.buffer = bytearray(len(rows))
    memoryview(buffer)[: len(rows)] = rows
    return buffer


def mapped(rows: bytearray, size: tuple[int, int], stride: int, offset: int) -> Image.Image:
    """A palette picture of ``size`` whose pixels are ``rows``' bytes from ``offset`` on, its
    rows ``stride`` bytes apart: drawing on it draws in them (a part drawn in its place)."""
    core = Image.core.map_buffer(rows, size, "raw", offset, ("P", stride, 1))
    return Image.new("P", (0, 0))._new(core)


#: The scoreboard numbers laid out as a process starts (0 to 179: a winner's VP is 120-180).
SCOREBOARD_NUMBERS = 180


def lay_out_recurring_texts(theme_name: str) -> None:
    """Lay out (`draw.text_mask`, kept) the texts a picture of a new position most often
    draws for the first time: each company's turn line and the scoreboard's numbers in the
    phone views' headers, and every contract's line on a company board. Each takes 0.2-0.6 ms
    the first time, and a company board of a new position showed two to nine (about 520
    texts: 0.1 s, once a process; a process running for days holds them all the same)."""
    theme = get_theme(theme_name)
    every = [(), *((name,) for name in catalogue().expansions)]
    companies = sorted({cid for expansions in every for cid in content(expansions).companies})
    lines = header.playing_lines(companies)
    for size in sorted({theme.views[view].text["board"] for view in ("map", "company")}):
        for line in lines:
            d.text_mask(line, size, "bold", "lm")  # as `header.draw_header` draws it
        for value in range(SCOREBOARD_NUMBERS):
            d.text_mask(str(value), size, "bold", "mm")  # as `header.Scoreboard` draws them
    small = theme.views["company"].text["small"]
    for expansions in every:
        for contract_id, contract in content(expansions).contracts.items():
            d.text_mask(contract_line(contract_id, contract), small, *CONTRACT_TEXT)
