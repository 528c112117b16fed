"""The text notation: its grammar, and the base game's kinds of move.

Grammar (one verb, then its arguments; ids as in the data files, case-insensitive):

| notation | meaning |
|---|---|
| `build` | take the next construction space of your company board |
| `<space id>` e.g. `turbine_plus2_left` | place engineers on that management space |
| `bank`, then `engineers 3` | put engineers on the Bank |
| `base D5U`, `elevation D5U`, `conduit C1L`, `powerhouse P5_0` | what to build and where (`… none` declines a free one) |
| `tile basic_base` | the technology tile to build with |
| `tile anton_tile adv_2_base` | Anton Krylov's tile, imitating a tile on his wheel |
| `pay 4e`, `pay 2m`, `pay 1e 9c` | the payment: excavators, mixers, credits instead of machinery |
| `produce D1L C1L 2` | two drops from dam D1L through conduit C1L (`produce none` declines) |
| `contract 201` / `contract none` | fulfil a contract, or none |
| `take 201`, `discard 201` | take a face-up private contract; discard one over the limit |
| `drops HA HB` / `drops none` | water drops placed on headstreams, in order |
| `machines 1e0m` | machinery of your choice: 1 excavator, 0 mixers |
| `confirm` | end your turn |
| `pick usa`, `start 3` | full-game draft: a company/officer pair, then a starting contract |
| `patent_1` … `patent_3`; `patent 2` | Patent Office spaces; a free tile's slot (a reward) |
| `build_free`, `pass` | build with an engineer-free tile; stop acting with no engineers left |
| `mahiri`, then `copy viktor_fiesler` | Mahiri's action space: copy an officer, then act |

Each row is a kind of move (`bot.rules.moves`): a typed value that writes its notation
(`move.notation`) and reads it back (`Kind.parse`). The kinds of this table are here (the
tile's is `structures.TileUse`, the one-word ones `moves.Word`, an action space `moves.Space`),
those of one module's own decisions in that module (`Patent`, `Pick`, `Start`, `Copy`, the
words `build_free`, `pass`, `mahiri`, `automa`); rule sets add
their kinds (`RuleSet.move`; an expansion's are listed in its package's docstring), and a
game's grammar is its rule tables' `grammar` (each verb's kind in `verbs`). Explanations of
well-formed but illegal moves are in `bot.rules.illegal`.

Notation is a stored format: once released, the parser keeps accepting every form above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from bot.rules.moves import ID, Move, Single, Word
from bot.rules.options import machinery_text
from bot.rules.rulebook import RuleSet
from bot.rules.structures import TileUse

#: Verbs only, the same in every game.
RULES: RuleSet[Any] = RuleSet("notation")

BUILD = Word("build")
BANK = Word("bank")
CONFIRM = Word("confirm")


def _count(text: str, unit: str) -> int:
    """The number before `unit` in one part of a machinery text ('4e' → 4), 0 without it."""
    return sum(int(part[:-1]) for part in text.lower().split(" ") if part.endswith(unit))


@dataclass(frozen=True, slots=True)
class Engineers(Single):
    """`engineers 3`: that many engineers on the Bank."""

    verb: ClassVar[str] = "engineers"
    args: ClassVar[str] = r"\d{1,2}"
    example: ClassVar[str] = "engineers 3"
    count: int


@dataclass(frozen=True, slots=True)
class Structure(Single):
    """`base D5U`, `conduit C1L`: a structure of a kind (its verb) on a space; `base none`
    declines a free one (`space` None)."""

    args: ClassVar[str] = ID
    kind: str
    space: str | None
    # The red-outline credits a free one costs (not written: the option offering it knows).
    fee: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Payment(Move):
    """`pay 4e`, `pay 2m`, `pay 1e 9c`: machinery and credits actually paid for one
    construction (fee excluded); `pay 0` pays nothing."""

    verb: ClassVar[str] = "pay"
    args: ClassVar[str] = r"(\d+[emc])( \d+[emc]){0,2}|0"
    example: ClassVar[str] = "pay 4e"
    excavators: int
    mixers: int
    credits: int  # credits paid instead of machinery (Solomon P. Jordan)
    # The red-outline credits due besides (not written: the option offering it knows them).
    fee: int = field(default=0, compare=False)

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        return cls(_count(rest, "e"), _count(rest, "m"), _count(rest, "c"))

    @property
    def notation(self) -> str:
        parts = []
        if self.excavators:
            parts.append(f"{self.excavators}e")
        if self.mixers:
            parts.append(f"{self.mixers}m")
        if self.credits:
            parts.append(f"{self.credits}c")
        return "pay " + (" ".join(parts) if parts else "0")

    def describe(self) -> str:
        """E.g. '4 excavators', '1 excavator + 9 credits'."""
        return machinery_text(self.excavators, self.mixers, self.credits)


@dataclass(frozen=True, slots=True)
class Produce(Move):
    """`produce D1L C1L 2`: drops from a dam through a conduit; `produce none` declines
    (`dam` None)."""

    verb: ClassVar[str] = "produce"
    args: ClassVar[str] = rf"{ID} {ID} \d{{1,2}}|none"
    example: ClassVar[str] = "produce D1L C1L 2"
    dam: str | None
    conduit: str = ""
    drops: int = 0
    # What the listing worked out (not written): the powerhouse reached and the energy made.
    powerhouse: str = field(default="", compare=False)
    energy: int = field(default=0, compare=False)

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        if rest.lower() == "none":
            return cls(None)
        dam, conduit, drops = rest.split(" ")
        return cls(dam, conduit, int(drops))

    @property
    def notation(self) -> str:
        if self.dam is None:
            return "produce none"
        return f"produce {self.dam} {self.conduit} {self.drops}"


@dataclass(frozen=True, slots=True)
class Fulfil(Single):
    """`contract 201`: fulfil that contract; `contract none` fulfils none."""

    verb: ClassVar[str] = "contract"
    args: ClassVar[str] = r"\d+|none"
    contract: int | None


@dataclass(frozen=True, slots=True)
class Take(Single):
    """`take 201`: take a face-up private contract."""

    verb: ClassVar[str] = "take"
    args: ClassVar[str] = r"\d+"
    contract: int


@dataclass(frozen=True, slots=True)
class Discard(Single):
    """`discard 201`: discard a contract held over the limit."""

    verb: ClassVar[str] = "discard"
    args: ClassVar[str] = r"\d+"
    contract: int


@dataclass(frozen=True, slots=True)
class Drops(Move):
    """`drops HA HB`: water drops on these headstreams, in order; `drops none` places none."""

    verb: ClassVar[str] = "drops"
    args: ClassVar[str] = rf"{ID}( {ID})*|none"
    example: ClassVar[str] = "drops HA HB"
    at: tuple[str, ...]

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        return cls(() if rest.lower() == "none" else tuple(rest.split(" ")))

    @property
    def notation(self) -> str:
        return "drops " + (" ".join(self.at) if self.at else "none")


@dataclass(frozen=True, slots=True)
class Machines(Move):
    """`machines 1e0m`: machinery of your choice (or which comes back from a wheel segment)."""

    verb: ClassVar[str] = "machines"
    args: ClassVar[str] = r"\d+e\d+m"
    example: ClassVar[str] = "machines 1e1m"
    excavators: int
    mixers: int

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        excavators, _, mixers = rest.lower().partition("e")
        return cls(int(excavators), int(mixers[:-1]))

    @property
    def notation(self) -> str:
        return f"machines {self.excavators}e{self.mixers}m"


for _word in ("build", "bank", "confirm"):
    RULES.move(Word, _word)
RULES.move(Structure, "base", "elevation", "conduit", "powerhouse")
for _kind in (Engineers, TileUse, Payment, Produce, Fulfil, Take, Discard, Drops, Machines):
    RULES.move(_kind)
