"""PNG files of the pictures, deflated by zlib-ng.

Pillow writes a palette image as PNG rows behind a "no filter" byte each, deflated by the
system's zlib. This writes the same chunks (IHDR, PLTE, IDAT, IEND) over the same rows,
deflated at the same level by zlib-ng: about twice as fast and a few per cent smaller
(bench/render.py prints the encode times). The decoded pixels and palette are Pillow's to
the byte (tests/renderer/test_png.py); a picture this does not write (another mode, a
transparency, a palette of 16 colours or fewer, packed below 8 bits) goes to Pillow.
"""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image
from zlib_ng import zlib_ng

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: zlib's level 6, the size/time sweet spot for these flat-coloured pictures.
LEVEL = 6


def encode(image: Image.Image, level: int = LEVEL) -> bytes:
    """``image`` as PNG bytes, deflated at ``level``."""
    colours = _palette(image)
    if colours is None:
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=level, optimize=False)
        return buf.getvalue()
    return _png(image.size, colours, _rows(image), level)


def encode_rows(image: Image.Image, level: int = LEVEL) -> bytes:
    """PNG bytes of ``image`` less its first column, which holds the rows' filter bytes (0:
    a picture composed one pixel right of a column of zeros, `render._compose`)."""
    width, height = image.size
    colours = _palette(image)
    if colours is None:
        return encode(image.crop((1, 0, width, height)), level)
    return _png((width - 1, height), colours, image.tobytes(), level)


def encode_filtered(
    size: tuple[int, int], colours: bytes, rows: bytes | bytearray | memoryview, level: int = LEVEL
) -> bytes:
    """PNG bytes of an 8-bit palette picture of ``size`` (more than 16 ``colours``, RGB
    triples) from its rows, each behind its filter byte (0) in ``rows``: what `encode_rows`
    writes, from the bytes a picture is composed in (`render._compose`), not copied again."""
    assert len(colours) > 16 * 3 and memoryview(rows).nbytes == (size[0] + 1) * size[1]
    return _png(size, colours, rows, level)


def _png(
    size: tuple[int, int], colours: bytes, rows: bytes | bytearray | memoryview, level: int
) -> bytes:
    """The PNG of an 8-bit palette picture of ``size`` from its filtered rows."""
    header = struct.pack(">IIBBBBB", *size, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", zlib_ng.compress(rows, level)),
            _chunk(b"IEND", b""),
        )
    )


def _palette(image: Image.Image) -> bytes | None:
    """The PLTE entries Pillow would write for ``image``, or None where this writer leaves the
    picture to Pillow."""
    if image.mode != "P" or "transparency" in image.info or image.palette is None:
        return None
    if image.palette.mode != "RGB":
        return None
    colours = image.getpalette() or []
    count = min(len(colours) // 3, 256)
    if count <= 16:  # Pillow packs these below 8 bits a pixel
        return None
    return bytes(colours[: count * 3])


def _rows(image: Image.Image) -> bytes:
    """The image's rows, each behind its filter type (0, none), as the IDAT data holds them:
    the image pasted one pixel right on a canvas of zeros (a tenth of joining its rows)."""
    width, height = image.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.im.paste(image.im, (1, 0, width + 1, height))
    return rows.tobytes()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join(
        (
            struct.pack(">I", len(data)),
            kind,
            data,
            struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))),
        )
    )
