"""A computer seat: which computer plays a seat (an automa or the AI) and at what level.

One value for everyone who names a computer seat: the service (which seat a computer plays,
its decision records' `auto`), the messages ("AI strong") and the renderer's marks ("A2",
"AI1") and key words ("hard automa, level 2"). The AI player's levels live here, below
`bot.ai`, so the renderer (which may import only `bot.rules`) words them from the same home.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.rules.automa.seats import LEVEL_NAMES

#: The AI player's levels, weakest first (level numbers count from 1 in this order).
AI_LEVELS: tuple[str, ...] = ("casual", "strong")
#: The `auto` of an AI's decision record is this prefix and its level ("ai:strong").
AI_PREFIX = "ai:"
#: A computer seat's kind → its mark's letters and the word keys and alt texts use.
KINDS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {"automa": ("A", "automa"), "ai": ("AI", "AI player")}
)
_LEVELS: Mapping[str, tuple[str, ...]] = MappingProxyType({"automa": LEVEL_NAMES, "ai": AI_LEVELS})


@dataclass(frozen=True, slots=True)
class ComputerSeat:
    """Which computer plays a seat ("automa" or "ai"), and its level's name ("hard",
    "strong")."""

    kind: str
    level: str

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown computer kind {self.kind!r}; expected one of {list(KINDS)}")
        if self.level not in _LEVELS[self.kind]:
            levels = ", ".join(_LEVELS[self.kind])
            raise ValueError(f"unknown {self.kind} level {self.level!r}; expected one of {levels}")

    @classmethod
    def automa(cls, level: int) -> ComputerSeat:
        """An automa seat at a level number (0 easy … 3 expert, as the game's options hold)."""
        return cls("automa", LEVEL_NAMES[level])

    @property
    def number(self) -> int:
        """The level's number: an automa's 0–3 (its rulebook level), the AI's from 1."""
        index = _LEVELS[self.kind].index(self.level)
        return index if self.kind == "automa" else index + 1

    @property
    def label(self) -> str:
        """'AI strong', 'automa expert': how messages and rankings name the seat's kind."""
        return f"{'AI' if self.kind == 'ai' else 'automa'} {self.level}"

    @property
    def auto(self) -> str:
        """The `auto` of this seat's decision records."""
        return "automa" if self.kind == "automa" else AI_PREFIX + self.level

    @property
    def answers_at_once(self) -> bool:
        """True when the seat answers in the landing itself (an automa); False when its
        answer is searched for in a worker (the AI)."""
        return self.kind == "automa"

    def mark(self) -> str:
        """The pictures' mark: 'A2' (an automa at level 2), 'AI1' (the AI at level 1)."""
        return f"{KINDS[self.kind][0]}{self.number}"

    def named_mark(self) -> str:
        """What a picture writes for the seat's player: 'A2 · automa'."""
        return f"{self.mark()} · {KINDS[self.kind][1]}"

    def title(self) -> str:
        """'hard automa, level 2' or 'strong AI player, level 2' (the level's word first)."""
        return f"{self.level} {KINDS[self.kind][1]}, level {self.number}"
