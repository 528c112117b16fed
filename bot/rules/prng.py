"""The engine's own pseudo-random generator: SplitMix64, documented so replays never drift.

Why not the `random` module: its algorithms are an implementation detail of CPython and
`shuffle` has changed between versions. SplitMix64 (Steele, Lea & Flood, 2014) is a few lines
of integer arithmetic, identical on every Python version, and good enough for shuffling piles.

    state  <- (state + 0x9E3779B97F4A7C15) mod 2**64
    z      <- state
    z      <- (z XOR (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2**64
    z      <- (z XOR (z >> 27)) * 0x94D049BB133111EB mod 2**64
    output <- z XOR (z >> 31)

`below(n)` draws an unbiased integer in [0, n) by rejection; `shuffle` is Fisher-Yates from
the last element down, drawing `below(i + 1)` for i = len - 1 .. 1.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """A tiny deterministic generator; its whole state is one 64-bit integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an unbiased integer in [0, n)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle `items` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence."""
        return items[self.below(len(items))]
