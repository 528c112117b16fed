"""Who plays each company, as the pictures show it: a display name, and a computer seat's mark.

The renderer never looks people up: the service hands it a `Player` per company (names come in
as data). A computer seat is `bot.rules.computers.ComputerSeat`, which words its mark ("A2": an
automa at level 2, "AI1": the computer player at level 1) and title; an automa seat is known
from the state itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.rules.computers import ComputerSeat
from bot.rules.state import GameState
from renderer.automa import automa_level


@dataclass(frozen=True, slots=True)
class Player:
    """Who plays one company: their display name (drawn when every glyph of it has a font),
    what to draw instead (their username or "Player N"), and the computer playing it (None
    for a person; an automa is known from the state itself)."""

    company: str
    name: str = ""
    fallback: str = ""
    computer: ComputerSeat | None = None


def by_company(players: Iterable[Player]) -> dict[str, Player]:
    """The players keyed by their company."""
    return {p.company: p for p in players}


def computer(state: GameState, company: str, player: Player | None = None) -> ComputerSeat | None:
    """The computer seat playing ``company`` (an automa from the state, else as passed), or None."""
    level = automa_level(state, company)
    if level is not None:
        return ComputerSeat.automa(level)
    return None if player is None else player.computer


def computers_in(state: GameState, players: Mapping[str, Player]) -> list[ComputerSeat]:
    """The computer seats of this game, in seat order (the keys list their marks)."""
    out: list[ComputerSeat] = []
    for cid in state.companies:
        seat = computer(state, cid, players.get(cid))
        if seat is not None and seat not in out:
            out.append(seat)
    return out


def key_entries(seats: Iterable[ComputerSeat]) -> list[tuple[str, str]]:
    """(mark, meaning) for a key: 'A2' → 'hard automa, level 2'."""
    return [(seat.mark(), seat.title()) for seat in seats]
