"""A finished game's replay: an animated GIF of the map, one frame per chosen state, each with a
strip telling the moment and every company's VP.

An animated GIF plays in every Discord client, inline, with no click. The frames share the
renderer's fixed palette (no dithering), so between two frames only what changed differs, and
each frame after the first stores only the rectangle that changed: a turn moves a few pieces,
so a frame costs a few kilobytes. Frames are written as they are drawn, holding one previous
frame at a time, so a 150-frame replay needs no more memory than two pictures.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from bot.rules.content import company_name
from bot.rules.state import GameState
from renderer import draw as d
from renderer.palette import palette
from renderer.render import render_image
from renderer.theme import get_theme

#: The strip under the map: the moment, then each company's VP.
STRIP = 150
#: The colour index of "unchanged" in frames after the first (the fixed palette has fewer
#: colours, so no drawn pixel uses it).
CLEAR = 255
#: Scales tried, largest first, until the replay fits its byte budget.
SCALES = (1.0, 0.75, 0.5)


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One moment of the replay: a committed state and what it shows ("Round 3 begins")."""

    state: GameState
    caption: str


class ReplayTooLarge(ValueError):
    """No scale or frame count brings the replay under its byte budget."""


def replay_gif(
    frames: Sequence[ReplayFrame],
    *,
    theme: str = "light",
    delay_ms: int = 1500,
    final_delay_ms: int = 5000,
    max_bytes: int | None = None,
    pause: Callable[[], None] | None = None,
) -> bytes:
    """An animated GIF of `frames` (looping), under `max_bytes` if given.

    A replay too large at full size is drawn smaller (3/4, then 1/2), then with every other
    frame (the first and the last kept); ReplayTooLarge when nothing fits. `pause` is called
    before each frame is drawn (the service waits there while other pictures are wanted).
    """
    if not frames:
        raise ValueError("a replay needs at least one frame")
    chosen = list(frames)
    while True:
        for scale in SCALES:
            data = _encode(chosen, theme, scale, delay_ms, final_delay_ms, max_bytes, pause)
            if data is not None:
                return data
        if len(chosen) <= 2:
            raise ReplayTooLarge(f"a replay of {len(frames)} frames does not fit {max_bytes} bytes")
        chosen = [*chosen[:-1:2], chosen[-1]]
        delay_ms *= 2


def frame_image(frame: ReplayFrame, theme: str = "light") -> Image.Image:
    """One frame as an RGB picture: the map view with the strip under it."""
    look = get_theme(theme)
    board = render_image(frame.state, view="map", theme=theme)
    image = Image.new("RGB", (board.width, board.height + STRIP), look.colour("background"))
    image.paste(board, (0, 0))
    draw = ImageDraw.Draw(image)
    size = max(40, board.width // 30)  # the turn line's size on a phone
    top = board.height
    d.text(draw, (18, top + 8), d.fit(frame.caption, size, board.width - 36, "bold"), size,
           look.colour("text"), anchor="la")  # fmt: skip
    companies = list(frame.state.companies.values())
    if companies:
        cell = (board.width - 24) // len(companies)
        for i, company in enumerate(companies):
            x = 12 + i * cell
            mid = top + 8 + size + 44
            if company.id in look.companies:
                d.piece(draw, (x + 28, mid), 24, look.company(company.id), size - 8)
            label = d.fit(f"{company_name(company.id)} {company.vp}", size, cell - 64)
            d.text(draw, (x + 62, mid), label, size, look.colour("text"), "regular", "lm")
    return image


def _encode(
    frames: Sequence[ReplayFrame],
    theme: str,
    scale: float,
    delay_ms: int,
    final_delay_ms: int,
    max_bytes: int | None,
    pause: Callable[[], None] | None,
) -> bytes | None:
    """The GIF at one scale, or None as soon as it grows past `max_bytes`."""
    fixed = palette(theme)
    out = io.BytesIO()
    previous: Image.Image | None = None
    for n, frame in enumerate(frames):
        if pause is not None:
            pause()
        image = frame_image(frame, theme)
        if scale != 1.0:
            size = (round(image.width * scale), round(image.height * scale))
            image = image.resize(size, Image.Resampling.LANCZOS)
        mapped = image.quantize(palette=fixed, dither=Image.Dither.NONE)
        del image
        if previous is None:
            out.write(_header(mapped))
            box: tuple[int, int, int, int] | None = (0, 0, *mapped.size)
        elif previous.size != mapped.size:
            raise ValueError("every frame of a replay must have the same size")
        else:
            box = _changed(previous, mapped)
        last = n == len(frames) - 1
        delay = final_delay_ms if last else delay_ms
        if box is None:
            box = (0, 0, 1, 1)  # nothing changed: one pixel keeps the frame and its delay
        part = mapped.crop(box)
        options: dict[str, int] = {"duration": delay, "disposal": 1}
        if previous is not None:
            # Pixels that did not change become transparent: long runs of one index, which
            # the GIF's compression stores in a few bytes.
            same = _unchanged(previous.crop(box), part)
            part.paste(CLEAR, mask=same)
            options["transparency"] = CLEAR
        part.putpalette(fixed.getpalette() or [])
        for chunk in GifImagePlugin.getdata(part, offset=box[:2], **options):
            out.write(chunk)
        previous = mapped
        if max_bytes is not None and out.tell() + 1 > max_bytes:
            return None
    out.write(b";")
    return out.getvalue()


def _header(first: Image.Image) -> bytes:
    """GIF89a, the screen (the frames' size), the fixed palette as the global colour table,
    and the NETSCAPE2.0 block that makes the animation loop forever."""
    colours = (first.getpalette() or [])[: 256 * 3]
    colours += [0] * (256 * 3 - len(colours))
    width, height = first.size
    screen = width.to_bytes(2, "little") + height.to_bytes(2, "little")
    flags = 0x80 | (7 << 4) | 7  # a global table of 256 colours, 8 bits per primary
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    return b"GIF89a" + screen + bytes((flags, 0, 0)) + bytes(colours) + loop


def _indices(image: Image.Image) -> Image.Image:
    """A palette image's colour indices as a greyscale image (to compare them)."""
    return Image.frombytes("L", image.size, image.tobytes())


def _unchanged(before: Image.Image, after: Image.Image) -> Image.Image:
    """A mask of the pixels equal in two palette images."""
    delta = ImageChops.difference(_indices(before), _indices(after))
    return delta.point([255, *(0,) * 255], "1")


def _changed(before: Image.Image, after: Image.Image) -> tuple[int, int, int, int] | None:
    """The rectangle where two frames on one palette differ (None when they are equal)."""
    return ImageChops.difference(_indices(before), _indices(after)).getbbox()
