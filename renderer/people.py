"""Who plays each company, as the pictures show it: a display name, and a computer seat's mark.

The renderer never looks people up: the service hands it a `Player` per company (names come in
as data). A computer seat's mark takes its kind and level ("A2": an automa at level 2, "AI1":
the computer player at level 1), so a new kind of computer player only passes its own; an
automa seat is known from the state itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.rules.automa.seats import level_name
from bot.rules.state import GameState
from renderer.automa import automa_level

#: A computer seat's kind → its mark's letters and the word the key and alt text use.
COMPUTER_KINDS: Mapping[str, tuple[str, str]] = {
    "automa": ("A", "automa"),
    "ai": ("AI", "AI player"),
}

#: The AI player's levels by number (bot.ai.LEVELS in order: 1 casual, 2 strong).
AI_LEVEL_WORDS: Mapping[int, str] = {1: "casual", 2: "strong"}


@dataclass(frozen=True, slots=True)
class Player:
    """Who plays one company: their display name (drawn when every glyph of it has a font),
    what to draw instead (their username or "Player N"), and a computer seat's kind and level."""

    company: str
    name: str = ""
    fallback: str = ""
    computer: str | None = None  # a key of COMPUTER_KINDS, None for a person
    level: int | None = None


@dataclass(frozen=True, slots=True)
class Computer:
    """A computer seat: its kind (a key of COMPUTER_KINDS) and level (None: it has none)."""

    kind: str
    level: int | None = None

    def mark(self) -> str:
        """The scoreboard's mark: 'A2', 'AI1', or 'A' without a level."""
        letters = COMPUTER_KINDS[self.kind][0]
        return letters if self.level is None else f"{letters}{self.level}"

    def label(self) -> str:
        """What a picture writes for the seat's player: 'A2 · automa'."""
        return f"{self.mark()} · {COMPUTER_KINDS[self.kind][1]}"

    def title(self) -> str:
        """'hard automa, level 2' or 'strong AI player, level 2' (the level's word first)."""
        word = COMPUTER_KINDS[self.kind][1]
        if self.level is None:
            return word
        named = level_name(self.level) if self.kind == "automa" else AI_LEVEL_WORDS.get(self.level)
        return f"{named} {word}, level {self.level}" if named else f"{word}, level {self.level}"


def by_company(players: Iterable[Player]) -> dict[str, Player]:
    """The players keyed by their company."""
    return {p.company: p for p in players}


def computer(state: GameState, company: str, player: Player | None = None) -> Computer | None:
    """The computer seat playing ``company`` (an automa from the state, else as passed), or None."""
    level = automa_level(state, company)
    if level is not None:
        return Computer("automa", level)
    if player is not None and player.computer is not None:
        if player.computer not in COMPUTER_KINDS:
            raise ValueError(
                f"unknown computer kind {player.computer!r}; expected one of {list(COMPUTER_KINDS)}"
            )
        return Computer(player.computer, player.level)
    return None


def computers_in(state: GameState, players: Mapping[str, Player]) -> list[Computer]:
    """The computer seats of this game, in seat order (the keys list their marks)."""
    out: list[Computer] = []
    for cid in state.companies:
        seat = computer(state, cid, players.get(cid))
        if seat is not None and seat not in out:
            out.append(seat)
    return out


def key_entries(seats: Iterable[Computer]) -> list[tuple[str, str]]:
    """(mark, meaning) for a key: 'A2' → 'hard automa, level 2'."""
    return [(seat.mark(), seat.title()) for seat in seats]
