"""A committed game's history, replayed from its log: log lines, VP by source and VP events.

The log view and the score breakdown of a game still being played need it; a finished game's
results keep what its statistics, history and score sheet need, so no request about a finished
game replays its log (bot/service/stats.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.rules import Event, GameState, RuleError, new_game
from bot.rules.state import GameOptions
from bot.service.records import ChainRecord, DecisionRecord
from bot.service.text import event_lines, source_group, source_key

#: The line a history ends with when the rest of the log no longer replays.
BROKEN_REPLAY = "(the rest of the log no longer replays)"


@dataclass(frozen=True, slots=True)
class History:
    """A committed game's log lines, VP by company and source group, and its VP events."""

    lines: list[str]
    vp: dict[str, dict[str, int]]
    vp_events: tuple[Event, ...]
    #: False when the log stopped replaying before its end (the rest is missing).
    complete: bool = True
    #: The state the replay reached.
    state: GameState | None = None

    def extended(self, events: Iterable[Event], state: GameState | None = None) -> History:
        """This history followed by what `events` say (a step just committed)."""
        more = list(events)
        vp = {company: dict(groups) for company, groups in self.vp.items()}
        for e in more:
            if e.kind == "vp" and e.company:
                row = vp.setdefault(e.company, {})
                row[source_group(e.source)] = row.get(source_group(e.source), 0) + e.amount
        return History(
            [*self.lines, *event_lines(more)],
            vp,
            (*self.vp_events, *(e for e in more if e.kind == "vp" and e.company)),
            self.complete,
            state,
        )


def replay_history(
    options: GameOptions, chain: Sequence[tuple[int, ChainRecord]], upto: int
) -> History:
    """Replay a game's effective chain (decisions and commits) up to version `upto`."""
    game = new_game(options)
    lines: list[str] = []
    vp_events: list[Event] = []
    vp: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    complete = True
    for seq, rec in chain:
        if seq > upto:
            break
        if not isinstance(rec, DecisionRecord):
            continue
        try:
            events = game.apply(rec.notation, rec.player)
        except RuleError:
            lines.append(BROKEN_REPLAY)
            complete = False
            break
        lines.extend(event_lines(events))
        for e in events:
            if e.kind == "vp" and e.company:
                vp[e.company][source_group(e.source)] += e.amount
                vp_events.append(e)
    return History(
        lines, {c: dict(v) for c, v in vp.items()}, tuple(vp_events), complete, game.state
    )


def vp_by_key(events: Iterable[Event]) -> dict[str, dict[str, int]]:
    """VP by company and source key (`source_key`): what a result keeps."""
    out: dict[str, dict[str, int]] = {}
    for e in events:
        if e.kind == "vp" and e.company and e.amount:
            row = out.setdefault(e.company, {})
            key = source_key(e.source)
            row[key] = row.get(key, 0) + e.amount
    return out
