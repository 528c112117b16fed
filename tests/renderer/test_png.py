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


def test_rows_behind_a_column_of_filter_bytes_are_written_as_they_are() -> None:
    image = _palette_image((40, 7), 128)
    wide = Image.new("P", (41, 7), 0)
    wide.putpalette(image.getpalette() or [])
    wide.paste(image, (1, 0))
    assert _decoded(png.encode_rows(wide)).tobytes() == image.tobytes()
    assert png.encode_rows(wide) == png.encode(image)
