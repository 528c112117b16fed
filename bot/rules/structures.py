"""The seam types of building: a structure kind, a way to pay for it, a way to use a tile.

They live below the engine (`bot.rules.engine`) and the rule tables (`bot.rules.rulebook`),
which hold them, and are generic in the game they are played in (`G`, the engine's `Game`),
so no module here imports the engine. The base game's kinds are in `bot.rules.construction`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Generic, Self, TypeVar

from bot.rules.moves import ID, Move
from bot.rules.options import counted
from bot.rules.tasks import Task

#: The game a structure kind is played in (the engine's `Game`).
G = TypeVar("G")

MACHINERY_WORD = {"excavators": "excavators", "mixers": "mixers", "any": "machineries"}
#: The singular of each machinery word.
MACHINERY_ONE = {"excavators": "excavator", "mixers": "mixer", "any": "machinery"}


@dataclass(frozen=True, slots=True)
class Cost:
    """One way to pay for a structure: machinery of one type, plus a fixed credit fee.

    A two-kind cost (an expansion's structure, e.g. a Private Building) is `excavators` with
    `mixers` due as well; the base game's costs have `mixers = 0`.
    """

    machinery: str  # "excavators", "mixers" or "any" (either kind, mixed freely)
    amount: int
    fee: int  # red-outline credits (or a tile's printed credits)
    mixers: int = 0  # mixers due besides `amount` excavators (two-kind costs only)

    def describe(self) -> str:
        """E.g. '4 excavators', '2 excavators + 1 mixer + 3 credits'."""
        parts = [
            counted(self.amount, MACHINERY_ONE[self.machinery], MACHINERY_WORD[self.machinery])
        ]
        if self.mixers:
            parts.append(counted(self.mixers, "mixer"))
        if self.fee:
            parts.append(counted(self.fee, "credit"))
        return " + ".join(parts)


@dataclass(frozen=True, slots=True)
class StructureKind(Generic[G]):
    """A kind of structure piece: where it may stand, what it costs, how it is placed."""

    name: str
    spaces: Callable[[G, str, Task], list[str]]
    costs: Callable[[G, str, str], list[Cost]]
    place: Callable[[G, str, str], None]
    pieces: Callable[[G], int]
    # How players read one of its spaces, when not a map space ("Cofferdam, space 2").
    space_text: Callable[[G, str], str] | None = None


@dataclass(frozen=True, slots=True)
class TileUse(Move):
    """A way to build with a tile: `tile` goes on the wheel, `acts_as` gives builds and effect.

    As a move, the tile to build with: `tile basic_base`, or `tile anton_tile adv_2_base`
    (Anton Krylov's tile imitating a tile on his wheel).
    """

    verb: ClassVar[str] = "tile"
    args: ClassVar[str] = rf"{ID}( {ID})?"
    tile: str
    acts_as: str

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        tile, _, acts_as = rest.partition(" ")
        return cls(tile, acts_as or tile)

    @property
    def notation(self) -> str:
        """E.g. 'tile basic_base' or 'tile anton_tile adv_2_base'."""
        if self.acts_as == self.tile:
            return f"tile {self.tile}"
        return f"tile {self.tile} {self.acts_as}"
