"""What changed since a player's last turn, from the loaded log: one line per turn by the
others, in the words the turn messages use (`messages.story`), and who gets a heads-up.

Pure: no store, no clock. bot/service/catchup.py finds the steps of each turn (kept from the
commit that wrote them, else replayed from the saved state before them) and hands them here.

- A player's **last turn** is the commit that closed the last answer they gave themselves
  (a seat's draft pick counts; an answer the service gave on their behalf does not). A player
  who never answered has the game's start as their last turn.
- What came **after** it: in that commit, the runs after the player's own (the automas'
  turns after their Confirm); then every later commit's runs. A **run** is one player's
  answers in a row; its story's paragraphs (who played what, a round's scoring, the next
  round) become one line each, the heading then its first items ("; "), the rest counted
  ("… 3 more"). Summarised, never cut: at most `MAX_TURNS` runs are listed, the earlier
  ones counted in a line of their own.
- The **heads-up**: when a person's turn begins, the person who plays after them (the next in
  turn order who can still act) is mentioned if they asked for it; never a computer's seat,
  never the player whose turn begins, never for a turn a computer begins (its answer comes
  at once, and with it the ping of whoever is next).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.rules import Game
from bot.rules.actions import can_act
from bot.service.messages import UserOf, story
from bot.service.records import ChainRecord, CommitRecord, DecisionRecord
from bot.service.turns import Step
from bot.service.types import Line

#: Turns a digest lists in full; earlier ones are counted.
MAX_TURNS = 8
#: Items of a paragraph told in its line; the rest are counted.
MAX_ITEMS = 4
#: The bullet `messages.story` ends a long paragraph with ("• … 3 more (see the log)").
_MORE = re.compile(r"… (\d+) more")


@dataclass(frozen=True, slots=True)
class Run:
    """One player's answers in a row within a commit, told as its turn message tells them."""

    #: The engine player who answered (None: nobody, the game's own flow).
    player: str | None
    #: Some answer was the player's own (not one the service gave on their behalf).
    own: bool
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Digest:
    """What the others did since a player's last turn, one line per paragraph of each turn."""

    #: The version of the commit that closed the player's last turn (0: none in the log).
    since: int
    #: The turns told, oldest first, each with the commit it belongs to: those after the
    #: player's own in that commit (the automas after them), then every later commit's.
    parts: tuple[tuple[int, tuple[Line, ...]], ...]

    @property
    def turns(self) -> int:
        """How many turns (runs of one player's answers) it tells."""
        return len(self.parts)

    @property
    def lines(self) -> list[Line]:
        """Every turn's lines, oldest first, the earliest summarised past `MAX_TURNS`."""
        return digest_lines([lines for _, lines in self.parts])

    def beyond(self, commit: int) -> bool:
        """Whether it tells a turn of a commit before `commit` (the last one's turn message
        rings only what that commit changed)."""
        return any(c != commit for c, _ in self.parts)


def runs_of(steps: Sequence[Step], user_of: UserOf, round_no: int) -> tuple[Run, ...]:
    """A commit's answers as runs of one player each, each told in one line a paragraph
    (`round_no`: the round the first was played in)."""
    out: list[Run] = []
    start = 0
    while start < len(steps):
        end = start
        while end < len(steps) and steps[end].player == steps[start].player:
            end += 1
        run = steps[start:end]
        lines = turn_line_parts(story(run, user_of, round_no=round_no, limit=1000))
        own = any(not s.on_behalf and s.record.user for s in run)
        if lines:
            out.append(Run(run[0].player, own, lines))
        for step in run:
            round_no = next(
                (e.amount for e in reversed(step.events) if e.kind == "round"), round_no
            )
        start = end
    return tuple(out)


def after_own(runs: Sequence[Run], players: frozenset[str]) -> tuple[Run, ...]:
    """The runs after the last of `players`' own (all of them when there is none)."""
    last = max((i for i, r in enumerate(runs) if r.own and r.player in players), default=-1)
    return tuple(runs[last + 1 :])


def seat_players(seat: int, company: str | None) -> frozenset[str]:
    """The engine player ids a seat has answered as: its company, and "seatN" in the draft."""
    return frozenset(p for p in (f"seat{seat}", company) if p)


def last_turn(chain: Iterable[tuple[int, ChainRecord]], players: frozenset[str]) -> int:
    """The seq of the commit that closed the last answer one of `players` gave themselves;
    else the chain's first commit (the start), else 0."""
    found = 0
    first = 0
    answered = False
    for seq, record in chain:
        if isinstance(record, DecisionRecord):
            if record.player in players and not record.auto and record.user:
                answered = True
        else:
            first = first or seq
            if answered:
                found, answered = seq, False
    return found or first


def commits_after(chain: Iterable[tuple[int, ChainRecord]], since: int, upto: int) -> list[int]:
    """The commit seqs in (since, upto], in order."""
    return [s for s, r in chain if isinstance(r, CommitRecord) and since < s <= upto]


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
                told.append(text.removesuffix("."))  # items are joined by "; "
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
    "Run",
    "after_own",
    "commits_after",
    "digest_lines",
    "last_turn",
    "next_after",
    "runs_of",
    "seat_players",
    "turn_line_parts",
    "within",
]
