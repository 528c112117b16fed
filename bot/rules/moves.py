"""Moves: the typed values of the notation; each kind of answer parses and writes its own text.

A move is what an option does, as a value (`Structure("base", "D5U")`, `Pay(4, 0, 0)`):
`move.notation` (and `str(move)`) writes its notation and `Kind.parse(text)` reads one back,
as python-chess's `Move.uci()` / `Move.from_uci` do. A game's `Grammar` (its rule tables')
maps a notation's leading word to the kind written with it, so `game.rules.grammar.parse(text)`
reads any answer of that game; one word that is no verb is an action space's id (`Space`).
Rule sets declare their kinds (`RuleSet.move`), so an expansion brings its own notation and
no module of the base game names it.

A kind may carry fields its notation does not write (declared `field(compare=False)`): what
the listing knew when it offered the move, such as a payment's red-outline fee. They take no
part in equality, so a move parsed from text equals the offered one; the engine applies the
offered option's move, so applying a parsed move and applying its text are the same.
"""

from __future__ import annotations

import inspect
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar, Self, cast

from bot.rules.errors import MalformedNotation

#: An id of the data files (a space, a tile, a company...), as the grammar's patterns write it.
ID = r"[A-Za-z0-9_]+"
_SPACES = re.compile(r"\s+")
_SPACE_ID = re.compile(r"[a-z][a-z0-9_]*$")


def normalize(text: str) -> str:
    """Canonical spelling of a notation: trimmed, single spaces.

    Ids keep their canonical case (D5U, C1L, P5_0, HA): the first word is lower-cased when
    read, the others are matched case-insensitively by `Decision.find`.
    """
    return _SPACES.sub(" ", text.strip())


class Move(ABC):
    """A kind of answer: a typed value that writes its notation and reads it back."""

    __slots__ = ()

    #: The word a notation of this kind starts with ("" for a kind written with several).
    verb: ClassVar[str] = ""
    #: A regular expression of what follows the verb (case-insensitive; "" for nothing).
    args: ClassVar[str] = ""
    #: How the kind is written, for the message refusing a malformed one ("" for "<verb> …").
    example: ClassVar[str] = ""

    @classmethod
    @abstractmethod
    def read(cls, verb: str, rest: str) -> Self:
        """The move written `verb rest`; `rest` already matches the kind's `args`."""

    @classmethod
    def parse(cls, text: str) -> Self:
        """The move of this kind that `text` writes (MalformedNotation when it is none)."""
        verb, _, rest = normalize(text).partition(" ")
        verb = verb.lower()
        if (cls.verb and verb != cls.verb) or not re.fullmatch(cls.args, rest, re.IGNORECASE):
            raise MalformedNotation(f"'{normalize(text)}' is not a {cls.__name__} move")
        return cls.read(verb, rest)

    @property
    @abstractmethod
    def notation(self) -> str:
        """The move's text: a stored format (logs and button ids hold it)."""

    @property
    def word(self) -> str:
        """The leading word of the notation: the verb (an action space's id for `Space`)."""
        return self.verb or self.notation.partition(" ")[0]

    def __str__(self) -> str:
        return self.notation


class Single(Move):
    """A kind written as its verb and one value: an id, a number, or `none` (None).

    The value is the kind's first field (a number when annotated `int`; `none` reads as None
    when annotated `... | None`). A kind without a `verb` of its own is written with several:
    then its first field holds the verb and the second the value (`Structure("base", "D5U")`).
    Later fields are what the listing knew (`compare=False`), not written.
    """

    __slots__ = ()

    _verb_field: ClassVar[str] = ""
    _field: ClassVar[str] = ""
    _number: ClassVar[bool] = False
    _nullable: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        annotations = inspect.get_annotations(cls)
        written = [
            (name, str(annotation))
            for name, annotation in annotations.items()
            if not str(annotation).startswith("ClassVar")
        ]
        if not written:
            return
        if not cls.verb:
            cls._verb_field = written.pop(0)[0]
        cls._field, annotation = written[0]
        cls._number = annotation.startswith("int")
        cls._nullable = annotation.endswith("| None")
        # The kind's own writer, made once: listing a decision writes many notations (set on
        # the class as a property, which mypy does not let an assignment do).
        type.__setattr__(cls, "notation", property(_writer(cls.verb, cls._verb_field, cls._field)))

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        value: str | int | None = rest
        if cls._nullable and rest.lower() == "none":
            value = None
        elif cls._number:
            value = int(rest)
        make = cast("Callable[..., Self]", cls)
        return make(verb, value) if cls._verb_field else make(value)

    @property
    def notation(self) -> str:
        return _writer(self.verb, self._verb_field, self._field)(self)


def _writer(verb: str, verb_field: str, field: str) -> Callable[[Any], str]:
    """How a `Single` kind writes its notation: its verb (or the verb its `verb_field` holds),
    then the value of `field` (`none` for None)."""
    value = attrgetter(field)
    if verb_field:
        verb_of = attrgetter(verb_field)

        def write_with(move: Any) -> str:
            written = value(move)
            return f"{verb_of(move)} {'none' if written is None else written}"

        return write_with
    prefix, declined = f"{verb} ", f"{verb} none"

    def write(move: Any) -> str:
        written = value(move)
        return declined if written is None else f"{prefix}{written}"

    return write


@dataclass(frozen=True, slots=True)
class Word(Move):
    """A notation of one word that is a verb: `confirm`, `build`, `bank`, `pass`..."""

    word: str

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        return cls(verb)

    @property
    def notation(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Space(Move):
    """Engineers on an action space, written as its id (`turbine_plus2_left`)."""

    space: str

    @classmethod
    def parse(cls, text: str) -> Self:
        word = normalize(text).lower()
        if not _SPACE_ID.match(word):
            raise MalformedNotation(f"'{normalize(text)}' is not an action space id")
        return cls(word)

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        """A space id is one word: `verb` is the whole notation (`rest` is empty)."""
        return cls.parse(f"{verb} {rest}" if rest else verb)

    @property
    def notation(self) -> str:
        return self.space


class Grammar:
    """The notation of one kind of game: each verb's kind of move and the pattern of its text."""

    def __init__(self, verbs: Mapping[str, tuple[type[Move], str]]) -> None:
        """`verbs`: each leading word, the kind written with it and the regex of its rest."""
        self.kinds: Mapping[str, type[Move]] = {verb: kind for verb, (kind, _) in verbs.items()}
        self._patterns = {
            verb: re.compile(args, re.IGNORECASE) for verb, (_, args) in verbs.items()
        }

    def parse(self, text: str) -> Move:
        """The move `text` writes, or MalformedNotation saying how it should be written."""
        text = normalize(text)
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        kind = self.kinds.get(verb)
        if kind is None:
            if not rest and _SPACE_ID.match(verb):
                return Space(verb)  # an action space id (management board or an expansion's)
            known = ", ".join(f"`{verb}`" for verb in sorted(self.kinds))
            raise MalformedNotation(
                f"'{text}' is not a move: it should start with an action space id or one of: "
                f"{known}"
            )
        if not self._patterns[verb].fullmatch(rest):
            example = kind.example or f"{verb} …"
            raise MalformedNotation(f"'{text}' is malformed: '{verb}' is written like '{example}'")
        return kind.read(verb, rest)
