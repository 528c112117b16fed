"""Decisions and their options: the values the engine offers and accepts.

Every option has a short, stable text notation (a stored format: once released the parser
keeps accepting it), a human label of at most 80 characters, an optional description of at
most 100, and a group used to order and page options (e.g. the management-board section).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

LABEL_MAX = 80
DESCRIPTION_MAX = 100

_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Canonical spelling of a notation: trimmed, single spaces, lower-case verbs.

    Ids keep their canonical case (D5U, C1L, P5_0, HA): the first word is lower-cased, the
    others are matched case-insensitively by `Decision.find`.
    """
    return _SPACES.sub(" ", text.strip())


def counted(count: int, noun: str) -> str:
    """'1 drop', '2 drops': a count with its noun, for labels."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def machinery_text(excavators: int, mixers: int, credits: int = 0) -> str:
    """E.g. '2 excavators + 1 mixer', '1 excavator + 9 credits'; 'nothing' when all are 0."""
    parts = [
        counted(n, noun)
        for n, noun in ((excavators, "excavator"), (mixers, "mixer"), (credits, "credit"))
        if n
    ]
    return " + ".join(parts) or "nothing"


#: A structured parameter of an option: an id, a number, a yes/no, or several ids.
OptionValue = str | int | bool | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Option:
    """One legal answer to a decision."""

    notation: str
    label: str
    group: str = ""
    description: str = ""
    # Structured parameters for the handler that applies the option (never shown to users).
    data: tuple[tuple[str, OptionValue | None], ...] = ()

    def __post_init__(self) -> None:
        if len(self.label) > LABEL_MAX:
            object.__setattr__(self, "label", self.label[: LABEL_MAX - 1] + "…")
        if len(self.description) > DESCRIPTION_MAX:
            object.__setattr__(self, "description", self.description[: DESCRIPTION_MAX - 1] + "…")

    def get(self, key: str) -> OptionValue | None:
        """One structured parameter, None when the option has none of that name."""
        for name, value in self.data:
            if name == key:
                return value
        return None

    def text(self, key: str) -> str:
        """A parameter that is an id or a name (TypeError when it is not one)."""
        value = self.get(key)
        if not isinstance(value, str):
            raise TypeError(f"option {self.notation!r}: {key!r} is {value!r}, not a text")
        return value

    def text_or_none(self, key: str) -> str | None:
        """A parameter that is an id or a name, or None when the option has none (a pass)."""
        return None if self.get(key) is None else self.text(key)

    def number(self, key: str) -> int:
        """A parameter that is a number (TypeError when it is not one)."""
        value = self.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"option {self.notation!r}: {key!r} is {value!r}, not a number")
        return value

    def number_or_none(self, key: str) -> int | None:
        """A parameter that is a number, or None when the option has none."""
        return None if self.get(key) is None else self.number(key)

    def texts(self, key: str) -> tuple[str, ...]:
        """A parameter that lists ids (TypeError when it does not)."""
        value = self.get(key)
        if not isinstance(value, tuple):
            raise TypeError(f"option {self.notation!r}: {key!r} is {value!r}, not a list")
        return value

    def __repr__(self) -> str:
        return f"Option({self.notation!r})"


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending choice for one player: a prompt and the full sorted list of legal options."""

    player: str
    kind: str
    prompt: str
    options: tuple[Option, ...]
    # True when several players may answer their own decisions in any order (income phase).
    simultaneous: bool = False
    _index: dict[str, Option] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for option in self.options:
            self._index[option.notation.lower()] = option

    def find(self, notation: str) -> Option | None:
        """Return the option with this notation (case-insensitive), or None."""
        return self._index.get(normalize(notation).lower())

    @property
    def notations(self) -> list[str]:
        """The notations of all options, in order."""
        return [option.notation for option in self.options]
