"""A settable clock for the service and store tests: tests never read the wall clock."""

from __future__ import annotations


class FakeClock:
    """A settable clock in UTC milliseconds; tests never read the wall clock."""

    def __init__(self, start: int = 1_700_000_000_000) -> None:
        """Start at a fixed instant (2023-11-14)."""
        self.now = start

    def __call__(self) -> int:
        """The current fake time."""
        return self.now

    def advance(self, ms: int) -> None:
        """Move the clock forward."""
        self.now += ms
