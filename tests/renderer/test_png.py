"""renderer.png writes the PNG Pillow would, deflated by zlib-ng: the same pixels and palette."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from renderer import png
from renderer.render import render


def _pillow(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, data) chunks of a PNG, each CRC checked."""
    assert data[:8] == png.SIGNATURE
    out, pos = [], 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body)
        out.append((kind, body))
        pos += 12 + length
    return out


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _palette_image(size: tuple[int, int], colours: int) -> Image.Image:
    image = Image.new("P", size)
    image.putpalette(bytes(c for i in range(colours) for c in (i, 255 - i, (7 * i) % 256)))
    image.putdata([(x * 7 + y * 3) % colours for y in range(size[1]) for x in range(size[0])])
    return image


@pytest.mark.parametrize("size", [(1, 1), (37, 5), (300, 41)])
@pytest.mark.parametrize("colours", [17, 128, 256])
def test_palette_image_decodes_to_pillows_pixels_and_palette(
    size: tuple[int, int], colours: int
) -> None:
    image = _palette_image(size, colours)
    ours, theirs = _decoded(png.encode(image)), _decoded(_pillow(image))
    assert ours.mode == theirs.mode == "P"
    assert ours.size == theirs.size == size
    assert ours.tobytes() == theirs.tobytes() == image.tobytes()
    assert ours.getpalette() == theirs.getpalette()


def test_chunks_are_pillows_with_one_idat() -> None:
    image = _palette_image((64, 9), 128)
    ours, theirs = _chunks(png.encode(image)), _chunks(_pillow(image))
    assert [k for k, _ in ours] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert dict(ours)[b"IHDR"] == dict(theirs)[b"IHDR"]
    assert dict(ours)[b"PLTE"] == dict(theirs)[b"PLTE"]
    # Every row behind filter type 0, as Pillow writes a palette image.
    rows = zlib.decompress(dict(ours)[b"IDAT"])
    assert rows == b"".join(b"\0" + image.tobytes()[y * 64 : (y + 1) * 64] for y in range(9))


@pytest.mark.parametrize(
    "image",
    [
        Image.new("RGB", (5, 4), (10, 20, 30)),
        Image.new("L", (5, 4), 9),
        _palette_image((5, 4), 16),  # Pillow packs it 4 bits a pixel
    ],
    ids=["rgb", "grey", "16 colours"],
)
def test_what_it_does_not_write_goes_to_pillow(image: Image.Image) -> None:
    assert png.encode(image) == _pillow(image)


def test_a_transparency_goes_to_pillow() -> None:
    image = _palette_image((5, 4), 64)
    image.info["transparency"] = 3
    assert png.encode(image) == _pillow(image)
    assert _decoded(png.encode(image)).info["transparency"] == 3


@pytest.mark.parametrize("view", ["map", "shared", "full"])
def test_a_rendered_view_is_its_palette_picture(view: str) -> None:
    """render() composes beside a column of filter bytes; the PNG is the view as composed."""
    from bot.rules import GameOptions, new_game
    from renderer.render import _check, _who, on_palette

    state = new_game(GameOptions(players=3, setup="full", seed=3)).state
    data = render(state, view=view, changed=("A3",))
    look, lit = _check(state, view, "light", ())
    composed = on_palette(state, view, None, look, lit, False, _who((), ("A3",)))
    picture = _decoded(data)
    assert picture.mode == "P" and picture.size == composed.size
    assert picture.tobytes() == composed.tobytes()
    assert picture.getpalette() == composed.getpalette()
    assert [k for k, _ in _chunks(data)] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    # Its background's bands spliced in (but the full board's, whose composition is not
    # kept), it is at most a few per cent larger than deflated whole.
    assert len(data) <= len(png.encode(composed)) * 1.04


def test_rows_behind_a_column_of_filter_bytes_are_written_as_they_are() -> None:
    image = _palette_image((40, 7), 128)
    wide = Image.new("P", (41, 7), 0)
    wide.putpalette(image.getpalette() or [])
    wide.paste(image, (1, 0))
    assert _decoded(png.encode_rows(wide)).tobytes() == image.tobytes()
    assert png.encode_rows(wide) == png.encode(image)


def _filtered(image: Image.Image) -> bytearray:
    """A palette picture's rows, each behind its filter byte (0), as `render._compose` holds them."""
    width, height = image.size
    raw = image.tobytes()
    rows = bytearray()
    for y in range(height):
        rows += b"\x00" + raw[y * width : (y + 1) * width]
    return rows


def _background(size: tuple[int, int]) -> Image.Image:
    """A flat picture with some detail, as a composed static background is."""
    image = _palette_image(size, 200)
    image.paste(5, (0, 0, size[0], size[1] // 2))
    return image


def _drawn_over(under: Image.Image, boxes: list[tuple[int, int, int, int]]) -> Image.Image:
    drawn = under.copy()
    for number, box in enumerate(boxes):
        drawn.paste(100 + number, box)
    return drawn


#: Boxes drawn over a 120 x 100 background (bands of 16 rows): none; in the first band; in
#: the last, short band; on the last row of a band only (the next band, unchanged, is primed
#: with it); over two bands far apart; over every band.
DRAWN = [
    [],
    [(3, 2, 9, 5)],
    [(0, 98, 120, 100)],
    [(10, 31, 20, 32)],
    [(1, 1, 2, 2), (50, 70, 60, 75)],
    [(0, 0, 120, 100)],
]


@pytest.mark.parametrize("boxes", DRAWN)
def test_a_picture_over_a_kept_background_decodes_to_its_own_pixels(
    boxes: list[tuple[int, int, int, int]],
) -> None:
    size = (120, 100)
    under = _background(size)
    kept = png.Deflated(bytes(_filtered(under)), size[0] + 1)
    drawn = _drawn_over(under, boxes)
    colours = bytes(under.getpalette() or [])
    data = png.encode_over(size, colours, _filtered(drawn), kept)
    picture = _decoded(data)
    assert picture.size == size and picture.tobytes() == drawn.tobytes()
    assert picture.getpalette() == drawn.getpalette()
    idat = b"".join(body for kind, body in _chunks(data) if kind == b"IDAT")
    assert zlib.decompress(idat) == _filtered(drawn)  # zlib's own check of the Adler-32 too


def test_what_is_spliced_does_not_depend_on_what_was_kept_before() -> None:
    """The same picture over the same background gives the same bytes, whichever of the
    background's bands were deflated for earlier pictures."""
    size = (120, 100)
    under = _background(size)
    colours = bytes(under.getpalette() or [])
    fresh = png.Deflated(bytes(_filtered(under)), size[0] + 1)
    used = png.Deflated(bytes(_filtered(under)), size[0] + 1)
    for boxes in DRAWN:
        png.encode_over(size, colours, _filtered(_drawn_over(under, boxes)), used)
    drawn = _filtered(_drawn_over(under, [(10, 31, 20, 32)]))
    assert png.encode_over(size, colours, drawn, fresh) == png.encode_over(
        size, colours, drawn, used
    )


def test_a_level_other_than_the_kept_blocks_deflates_it_all() -> None:
    size = (60, 40)
    under = _background(size)
    colours = bytes(under.getpalette() or [])
    kept = png.Deflated(bytes(_filtered(under)), size[0] + 1)
    drawn = _filtered(_drawn_over(under, [(0, 0, 5, 5)]))
    assert png.encode_over(size, colours, drawn, kept, 9) == png.encode_filtered(
        size, colours, drawn, 9
    )


def test_a_view_composed_in_longer_scratch_bytes_is_its_own_picture() -> None:
    """A thread composes each picture in one scratch buffer, grown to its largest: a smaller
    view drawn after a larger one uses only the start of it."""
    from bot.rules import GameOptions, new_game
    from renderer.render import _check, _who, on_palette

    state = new_game(GameOptions(players=4, seed=5)).state
    render(state, view="shared")  # the taller picture first
    for view in ("company", "map"):
        data = render(state, view=view)
        look, lit = _check(state, view, "light", ())
        composed = on_palette(state, view, None, look, lit, False, _who((), ()))
        assert _decoded(data).tobytes() == composed.tobytes()


#: Bands of 16 rows of a 120 x 100 picture an overlay replaces (by their first row).
OVERLAID_ROWS = [(16,), (16, 32), (0, 96), (48, 80)]


@pytest.mark.parametrize("overlaid", OVERLAID_ROWS)
@pytest.mark.parametrize("boxes", DRAWN)
def test_a_picture_over_an_overlaid_background_decodes_to_its_own_pixels(
    overlaid: tuple[int, ...], boxes: list[tuple[int, int, int, int]]
) -> None:
    """Bands a picture shares with the overlay, with the composition under it, or with
    neither (drawn over both), and the bands just below replaced ones, all splice right."""
    size = (120, 100)
    stride = size[0] + 1
    under = _background(size)
    kept = png.Deflated(bytes(_filtered(under)), stride)
    # Each reaches its band's last row: the band below is primed with a row of the overlay.
    steady = _drawn_over(under, [(5, y + 3, 40, y + 16) for y in overlaid])
    steady_rows = _filtered(steady)
    band = stride * png.BAND_ROWS
    replaced = {
        y * stride: bytes(steady_rows[y * stride : min(y * stride + band, stride * size[1])])
        for y in overlaid
    }
    like = png.Overlaid(kept, replaced)
    drawn = _drawn_over(steady, boxes)
    colours = bytes(under.getpalette() or [])
    data = png.encode_over(size, colours, _filtered(drawn), like)
    assert _decoded(data).tobytes() == drawn.tobytes()
    # The same bytes whichever blocks were made before.
    again = png.Overlaid(png.Deflated(bytes(_filtered(under)), stride), replaced)
    assert png.encode_over(size, colours, _filtered(drawn), again) == data
