"""The renderer's caches of finished images, and the drawn parts and patches they hold."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from PIL import Image

from renderer import draw as d
from renderer.layout import Point, Rect
from renderer.png import Deflated

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore


@dataclass(frozen=True, slots=True)
class Drawn:
    """A view's part as drawn and the boxes it drew over its static background."""

    image: Image.Image
    dirty: tuple[Rect, ...]
    stamps: tuple[tuple[Point, d.Stamp], ...] = ()

    @staticmethod
    def of(image: Image.Image, notes: d.Notes) -> Drawn:
        """The part ``image`` as drawn, with what its canvas noted."""
        return Drawn(image, tuple(notes), tuple(notes.stamps))


# A part on the palette: its static background (mapped once, cached), overlaid with these
# (offset, palette image, mask or None) patches of what the state drew. They are Pillow's core
# images: a view has dozens, and Pillow's Python wrapper of each crop, mapping and paste costs
# more than mapping a small patch.
Patches = tuple[tuple[Point, "ImagingCore", "ImagingCore | None"], ...]
Cached = Image.Image | Drawn | Patches | bytes | Deflated
_C = TypeVar("_C", Image.Image, Drawn, Patches, bytes, Deflated)


def _bytes(item: Cached) -> int:
    if isinstance(item, bytes):
        return len(item)
    if isinstance(item, Deflated):
        return item.nbytes
    if isinstance(item, Drawn):
        item = item.image
    if isinstance(item, tuple):
        # A stamped patch is a stamp's mapping and mask, counted here too: the stamp cache may
        # let go of a stamp that a kept view still holds. Pillow keeps a 1-bit mask a byte a
        # pixel.
        return sum(
            patch.size[0] * patch.size[1] * (1 if mask is None else 2) for _, patch, mask in item
        )
    return item.width * item.height * (1 if item.mode in ("P", "L") else 4)


class ImageCache:
    """A least-recently-used cache of finished images, bounded by their pixel memory."""

    def __init__(self, budget_bytes: int) -> None:
        self.budget = budget_bytes
        self.used = 0
        self.items: OrderedDict[tuple[object, ...], Cached] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[object, ...], make: Callable[[], _C]) -> _C:
        """Return the item cached under ``key``, drawing it with ``make`` on a miss."""
        item = self.find(key)
        if item is not None:
            return item  # type: ignore[return-value]  # a key is only ever made by one `make`
        made = make()
        self._insert(key, made)
        return made

    def find(self, key: tuple[object, ...]) -> Cached | None:
        """The item cached under ``key``, or None."""
        with self.lock:
            item = self.items.get(key)
            if item is not None:
                self.items.move_to_end(key)
            return item

    def keep(self, key: tuple[object, ...], item: Cached) -> None:
        """Cache ``item`` under ``key`` unless it would take over half the budget (it would
        push out most of the others)."""
        if _bytes(item) * 2 <= self.budget:
            self._insert(key, item)

    def _insert(self, key: tuple[object, ...], item: Cached) -> None:
        with self.lock:
            if key in self.items:  # drawn by another thread meanwhile
                return
            self.items[key] = item
            self.used += _bytes(item)
            while self.used > self.budget and len(self.items) > 1:
                _, old = self.items.popitem(last=False)
                self.used -= _bytes(old)

    def clear(self) -> None:
        """Forget every image."""
        with self.lock:
            self.items.clear()
            self.used = 0
