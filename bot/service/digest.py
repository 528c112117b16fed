"""What changed since a player's last turn, from the loaded log: one line per turn by the
others, in the words the turn messages use (`messages.story`), and who gets a heads-up.

Pure: no store, no clock. bot/service/catchup.py finds the steps of each turn (kept from the
commit that wrote them, else replayed from the saved state before them) and hands them here.

- A player's **last turn** is the commit that closed the last answer they gave themselves
  (a seat's draft pick counts; an answer the service gave on their behalf does not). A player
  who never answered has the game's start as their last turn.
- Each later commit is **one turn**: its story's paragraphs (who played what, a round's
  scoring, the next round) become one line each, the paragraph's heading then its first
  items ("; "), the rest counted ("… 3 more"). Summarised, never cut: at most
  `MAX_TURNS` turns are listed, the earlier ones counted in a line of their own.
- The **heads-up**: when a person's turn begins, the person who plays after them (the next in
  turn order who can still act) is mentioned if they asked for it; never a computer's seat,
  never the player whose turn begins, never for a turn a computer begins (its answer comes
  at once, and with it the ping of whoever is next).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules import Game
from bot.rules.actions import can_act
from bot.service.types import Line

#: Turns a digest lists in full; earlier ones are counted.
MAX_TURNS = 8
#: Items of a paragraph told in its line; the rest are counted.
MAX_ITEMS = 4
#: The bullet `messages.story` ends a long paragraph with ("• … 3 more (see the log)").
_MORE = re.compile(r"… (\d+) more")


@dataclass(frozen=True, slots=True)
class Digest:
    """What the others did since a player's last turn, one line per paragraph of each turn."""

    #: The version of the commit that closed the player's last turn (0: none in the log).
    since: int
    #: The turns after it, oldest first: each a tuple of lines (empty turns left out).
    turns: tuple[tuple[Line, ...], ...]

    @property
    def lines(self) -> list[Line]:
        """Every turn's lines, oldest first, the earliest summarised past `MAX_TURNS`."""
        return digest_lines(self.turns)


def seat_players(seat: int, company: str | None) -> frozenset[str]:
    """The engine player ids a seat has answered as: its company, and "seatN" in the draft."""
    return frozenset(p for p in (f"seat{seat}", company) if p)


def last_turn(chain: Iterable[tuple[int, Mapping[str, Any]]], players: frozenset[str]) -> int:
    """The seq of the commit that closed the last answer one of `players` gave themselves;
    else the chain's first commit (the start), else 0."""
    found = 0
    first = 0
    answered = False
    for seq, record in chain:
        if record["kind"] == "decision":
            if record["player"] in players and not record.get("auto") and record.get("user"):
                answered = True
        elif record["kind"] == "commit":
            first = first or seq
            if answered:
                found, answered = seq, False
    return found or first


def commits_after(
    chain: Iterable[tuple[int, Mapping[str, Any]]], since: int, upto: int
) -> list[int]:
    """The commit seqs in (since, upto], in order."""
    return [s for s, r in chain if r["kind"] == "commit" and since < s <= upto]


def turn_line_parts(lines: Sequence[Line], items: int = MAX_ITEMS) -> tuple[Line, ...]:
    """A turn's story (headings, "• " items under them) as one line per paragraph: the
    heading, then its first `items` items joined by "; ", the rest counted."""
    out: list[Line] = []
    heading: Line | None = None
    told: list[str] = []
    more = 0

    def close() -> None:
        if heading is None:
            return
        if not told and not more:
            out.append(heading)
            return
        shown = told[:items]
        extra = more + len(told) - len(shown)
        text = "; ".join(shown) + (f"; … {extra} more" if extra else "")
        out.append(Line((*heading.parts, " ", text)))

    for line in lines:
        parts = line.parts
        if parts and isinstance(parts[0], str) and parts[0].startswith("• "):
            text = line.render()[2:]
            found = _MORE.fullmatch(text.removesuffix(" (see the log)"))
            if found:
                more += int(found.group(1))
            elif heading is not None:
                told.append(text)
            continue
        close()
        heading, told, more = line, [], 0
    close()
    return tuple(out)


def digest_lines(turns: Sequence[Sequence[Line]], limit: int = MAX_TURNS) -> list[Line]:
    """The turns' lines, oldest first, each as a bullet; past `limit` turns the earliest are
    counted in one line first."""
    shown = list(turns[-limit:]) if limit else []
    out: list[Line] = []
    hidden = len(turns) - len(shown)
    if hidden:
        out.append(
            Line.of(f"• … {hidden} earlier {'turn' if hidden == 1 else 'turns'} (see the log)")
        )
    for turn in shown:
        out.extend(Line(("• ", *line.parts)) for line in turn)
    return out


def within(lines: Sequence[Line], budget: int) -> list[Line]:
    """The digest's last lines that fit in `budget` characters (as plain text, each with its
    newline), the earlier ones counted in a first line: summarised, never cut."""
    kept: list[Line] = []
    used = 0
    for line in reversed(lines):
        size = len(line.render()) + 1
        if used + size > budget - 48:  # room for the count line
            break
        kept.insert(0, line)
        used += size
    hidden = len(lines) - len(kept)
    if hidden:
        kept.insert(
            0, Line.of(f"• … {hidden} earlier {'line' if hidden == 1 else 'lines'} (see the log)")
        )
    return kept


def next_after(game: Game, player: str) -> str | None:
    """The company that plays after `player` in this round's turn order (the next who can
    still act), as the engine passes turns; None when that is `player` again or nobody."""
    order = list(game.state.turn_order)
    if player not in order:
        return None
    start = order.index(player) + 1
    for offset in range(len(order) - 1):
        company = order[(start + offset) % len(order)]
        if can_act(game, company):
            return company
    return None


__all__ = [
    "MAX_ITEMS",
    "MAX_TURNS",
    "Digest",
    "commits_after",
    "digest_lines",
    "last_turn",
    "next_after",
    "seat_players",
    "turn_line_parts",
    "within",
]
