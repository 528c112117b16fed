"""Enforced nonces: a repeated send within the window returns the first message.

discord.py 2.7.1 sends `enforce_nonce: true` with every nonce. Discord then answers a send
whose nonce the same author used "in the past few minutes" with the earlier message instead
of posting again (Create Message in discord-api-docs). The fake remembers a nonce for
`window_s` seconds of its own clock (120 s) and no longer, and counts what happens: sends
deduplicated inside the window, and duplicates posted after it (a repeat the nonce could not
stop).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

#: Discord's limit on a nonce's length.
MAX_NONCE = 25
WINDOW_S = 120.0


@dataclass
class NonceLedger:
    """Nonces seen per author, with the message each one created."""

    clock: Callable[[], float]
    window_s: float = WINDOW_S
    #: Sends answered with the earlier message (within the window).
    deduplicated: int = 0
    #: Message ids posted again with a nonce seen before, outside the window.
    duplicates: list[int] = field(default_factory=list)
    _seen: dict[tuple[int, str], tuple[float, int]] = field(default_factory=dict)

    def earlier(self, author_id: int, nonce: str) -> int | None:
        """The message an enforced nonce already created within the window, if any."""
        seen = self._seen.get((author_id, nonce))
        if seen is not None and self.clock() - seen[0] <= self.window_s:
            self.deduplicated += 1
            return seen[1]
        return None

    def record(self, author_id: int, nonce: str, message_id: int) -> None:
        """Remember a new message's nonce; a known nonce means a duplicate got through."""
        if (author_id, nonce) in self._seen:
            self.duplicates.append(message_id)
        self._seen[(author_id, nonce)] = (self.clock(), message_id)
