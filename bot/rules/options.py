"""Decisions and their options: the values the engine offers and accepts.

Every option has a move (`bot.rules.moves`: a typed value with a short, stable text notation,
a stored format that the parser keeps accepting once released), a human label of at most 80
characters, an optional description of at most 100, and a group used to order and page
options (e.g. the management-board section).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.rules.moves import Move, normalize

__all__ = ["Decision", "Move", "Option", "counted", "fit", "machinery_text", "normalize"]

LABEL_MAX = 80
DESCRIPTION_MAX = 100


#: Where a long text may be shortened: after a clause, before an aside, between words.
_BREAKS = (": ", " → ", "; ", ", ", " (", " ")


def fit(text: str, limit: int) -> tuple[str, str]:
    """`text` as (head, rest): the head is whole clauses (or words) of at most `limit`
    characters, the rest what follows, so a label never ends cut in a word or with "…"."""
    if len(text) <= limit:
        return text, ""
    for mark in _BREAKS:
        at = text.rfind(mark, 0, limit + (1 if mark.startswith(" ") else 0))
        if at >= limit // 5:
            head = text[:at].rstrip(" :;,→(")
            return head, text[at + len(mark) :].strip()
    return text[:limit].rstrip(), text[limit:].strip()


def counted(count: int, noun: str, plural: str = "") -> str:
    """'1 drop', '2 drops': a count with its noun, for labels ('1 machinery', '2 machineries'
    with the `plural` given)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def machinery_text(excavators: int, mixers: int, credits: int = 0) -> str:
    """E.g. '2 excavators + 1 mixer', '1 excavator + 9 credits'; 'nothing' when all are 0."""
    parts = [
        counted(n, noun)
        for n, noun in ((excavators, "excavator"), (mixers, "mixer"), (credits, "credit"))
        if n
    ]
    return " + ".join(parts) or "nothing"


@dataclass(frozen=True, slots=True)
class Option:
    """One legal answer to a decision: its move, and how players read it.

    `move` is the typed answer (`bot.rules.moves`) and `notation` its text, written by the
    move. `label` is what a button or a menu shows (at most `LABEL_MAX` characters) and
    `full_text` the whole answer as turn messages and the log tell it (by default the label). A
    label written longer than a button holds is shortened at its last clause that fits (`fit`),
    never cut mid-word; what no longer fits stays in `full_text`, and in the description when
    free.
    """

    move: Move
    label: str
    group: str = ""
    description: str = ""
    full_text: str = ""
    notation: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "notation", self.move.notation)
        whole = self.full_text or self.label
        object.__setattr__(self, "full_text", whole)
        if len(self.label) > LABEL_MAX:
            head, rest = fit(self.label, LABEL_MAX)
            object.__setattr__(self, "label", head)
            if not self.description and rest:
                object.__setattr__(self, "description", fit(rest, DESCRIPTION_MAX)[0])
        if len(self.description) > DESCRIPTION_MAX:
            object.__setattr__(self, "description", fit(self.description, DESCRIPTION_MAX)[0])

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
