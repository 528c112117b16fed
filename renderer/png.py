"""PNG files of the pictures, deflated by zlib-ng.

Pillow writes a palette image as PNG rows behind a "no filter" byte each, deflated by the
system's zlib. This writes the same chunks (IHDR, PLTE, IDAT, IEND) over the same rows,
deflated at the same level by zlib-ng: about twice as fast and a few per cent smaller
(bench/render.py prints the encode times). The decoded pixels and palette are Pillow's to
the byte (tests/renderer/test_png.py); a picture this does not write (another mode, a
transparency, a palette of 16 colours or fewer, packed below 8 bits) goes to Pillow.

A view is drawn over a composed static background, and most bands of its rows are that
background's untouched (a map view leaves 6 in 10 of them so, a company board 4 in 10).
`encode_over` deflates only the bands drawn over and splices in, for the others, the
background's own deflated bands (`Deflated`, kept with the composition): each band is
deflated as a block of its own, primed with the row above it (where a flat picture finds
most of its matches), so a band deflated once fits wherever that row above is the same.
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


#: Rows in a band of `encode_over`: fewer splice more of the background but deflate worse (a
#: band's first row finds no match further up than the row above it): at 16 a view's PNG is
#: 0.7-2 % larger than deflated whole, at 8 4-6 %.
BAND_ROWS = 16


class Deflated:
    """A composed background's rows behind their filter bytes, and each band of them as a
    deflate block primed with the row above (made when first spliced, then kept)."""

    __slots__ = ("_bands", "level", "overlays", "rows", "stride")

    def __init__(self, rows: bytes, stride: int, level: int = LEVEL) -> None:
        self.rows = rows
        self.stride = stride
        self.level = level
        self._bands: dict[int, bytes] = {}
        #: The same rows with some bands replaced, by what replaced them (`Overlaid`).
        self.overlays: dict[tuple[object, ...], Overlaid] = {}

    @property
    def nbytes(self) -> int:
        """The memory it holds once its bands are deflated, fixed from the start (a cache
        counts it in and out): its rows, and an eighth of them for the bands (a view's PNG is
        2-8 % of its rows) and overlays (a company board's: its bands with the title and the
        officer, 5-10 % of them)."""
        return len(self.rows) + len(self.rows) // 8

    def band(self, start: int, end: int) -> bytes:
        """The deflate block of its rows' bytes ``start:end`` (a band's)."""
        kept = self._bands.get(start)
        if kept is None:
            # Two threads may make one band at once: they make the same bytes.
            kept = self._bands[start] = _block(self.rows, start, end, self.stride, self.level)
        return kept

    def same(self, rows: bytearray, start: int, end: int) -> bool:
        """Whether ``rows`` hold its bytes ``start:end``."""
        # ``startswith`` at an offset compares in place: slicing ``rows`` would copy it.
        return rows.startswith(memoryview(self.rows)[start:end], start)

    def overlaid(self, rows: bytearray, height: int) -> Overlaid:
        """Its rows with the bands of the first ``height`` rows that ``rows`` (a copy of them
        drawn over) changed replaced."""
        length = self.stride * height
        return Overlaid(
            self,
            {
                a: bytes(rows[a:end])
                for a, end in _bands(self.stride, length)
                if not self.same(rows, a, end)
            },
        )


def _bands(stride: int, length: int) -> list[tuple[int, int]]:
    """The (start, end) of each band of `BAND_ROWS` rows of ``stride`` bytes in ``length``."""
    band = stride * BAND_ROWS
    return [(a, min(a + band, length)) for a in range(0, length, band)]


class Overlaid:
    """A kept composition with some of its bands replaced: the rows most pictures drawn over
    it share (a company board's title and officer, the same all game), to splice those
    bands of theirs too (`encode_over`). Its own blocks are those of the bands it replaces
    and of the bands just below them (primed with a replaced row)."""

    __slots__ = ("_blocks", "bands", "level", "stride", "under")

    def __init__(self, under: Deflated, bands: dict[int, bytes]) -> None:
        self.under = under
        self.bands = bands  # band start -> its bytes (a whole band of `BAND_ROWS` or the last)
        self.stride = under.stride
        self.level = under.level
        self._blocks: dict[int, bytes] = {}

    def same(self, rows: bytearray, start: int, end: int) -> bool:
        """Whether ``rows`` hold its bytes ``start:end`` (a band, or a row within one)."""
        band = start - start % (self.stride * BAND_ROWS)
        replaced = self.bands.get(band)
        if replaced is None:
            return self.under.same(rows, start, end)
        return rows.startswith(memoryview(replaced)[start - band : end - band], start)

    def band(self, start: int, end: int) -> bytes:
        """The deflate block of its bytes ``start:end`` (a band's), primed with its row above."""
        above = start - self.stride * BAND_ROWS
        if start not in self.bands and (start == 0 or above not in self.bands):
            return self.under.band(start, end)
        kept = self._blocks.get(start)
        if kept is None:
            around = self._rows_around(start, end)
            kept = self._blocks[start] = _block(
                around, len(around) - (end - start), len(around), self.stride, self.level
            )
        return kept

    def _rows_around(self, start: int, end: int) -> bytes:
        """Its row above ``start`` (none at 0) and its bytes ``start:end``."""
        parts = []
        if start:
            row = start - self.stride
            band = row - row % (self.stride * BAND_ROWS)
            source, base = (self.bands[band], band) if band in self.bands else (self.under.rows, 0)
            parts.append(source[row - base : start - base])
        replaced = self.bands.get(start)
        parts.append(
            replaced[: end - start] if replaced is not None else self.under.rows[start:end]
        )
        return b"".join(parts)


def encode_over(
    size: tuple[int, int],
    colours: bytes,
    rows: bytearray,
    under: Deflated | Overlaid,
    level: int = LEVEL,
) -> bytes:
    """What `encode_filtered` writes for ``rows`` (the first ``size[1]`` rows of a picture
    composed over ``under``'s rows, each behind its filter byte), the bands of them that are
    still ``under``'s spliced in from its kept blocks. The bytes depend only on the two
    pictures, never on which blocks were kept before."""
    width, height = size
    stride = width + 1
    length = stride * height
    if level != under.level:  # its blocks are of another level: all deflated here
        return encode_filtered(size, colours, memoryview(rows)[:length], level)
    assert stride == under.stride and len(colours) > 16 * 3
    bands = _bands(stride, length)
    same = [under.same(rows, a, end) for a, end in bands]
    blocks = [b"\x78\x9c"]  # zlib's header: deflate, a 32 KB window, the default level
    i, count = 0, len(bands)
    while i < count:
        a, end = bands[i]
        # A kept block refers back at most to the row above its band: that row must be the same.
        if same[i] and (i == 0 or same[i - 1] or under.same(rows, a - stride, a)):
            blocks.append(under.band(a, end))
            i += 1
            continue
        j = i + 1
        while j < count and not same[j]:
            j += 1
        blocks.append(_block(rows, a, bands[j - 1][1], stride, level))
        i = j
    # The last block (empty, fixed codes, final), then the Adler-32 of every row.
    blocks += (b"\x03\x00", struct.pack(">I", zlib_ng.adler32(memoryview(rows)[:length])))
    return _png(size, colours, b"".join(blocks), level, deflated=True)


def _block(data: bytes | bytearray, start: int, end: int, stride: int, level: int) -> bytes:
    """``data[start:end]`` as raw deflate blocks primed with the row above (``stride`` bytes
    before ``start``), flushed to a byte boundary and not final: spliced between others."""
    if start:
        primed = zlib_ng.compressobj(
            level, zlib_ng.DEFLATED, -15, zdict=bytes(data[start - stride : start])
        )
    else:
        primed = zlib_ng.compressobj(level, zlib_ng.DEFLATED, -15)
    return primed.compress(memoryview(data)[start:end]) + primed.flush(zlib_ng.Z_SYNC_FLUSH)


def _png(
    size: tuple[int, int],
    colours: bytes,
    rows: bytes | bytearray | memoryview,
    level: int,
    deflated: bool = False,
) -> bytes:
    """The PNG of an 8-bit palette picture of ``size`` from its filtered rows (``deflated``:
    its IDAT data, deflated already)."""
    header = struct.pack(">IIBBBBB", *size, 8, 3, 0, 0, 0)
    data = rows if deflated else zlib_ng.compress(rows, level)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", bytes(data)),
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
