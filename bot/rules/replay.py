"""Replaying a game's log: (options, records) → the exact state, on any Python version.

A game's log is a list of records; the game's version is their number. Record kinds:

- `{"kind": "decision", "notation": "...", "player": "usa"}` — an answer (Confirm included);
- `{"kind": "revert", "to": N}` — restart a turn or undo one: the state becomes the state
  after record N. Reverts are appended, never deletes, so the version only grows and a button
  issued before a restart can never become current again.

Other record kinds (service notes such as seat replacements) do not change the game state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.rules.catalogue import Catalogue
from bot.rules.content import Content
from bot.rules.engine import Game
from bot.rules.setup import new_game
from bot.rules.state import GameOptions


def effective_decisions(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The decisions still in force after applying every revert, in order."""
    # A persistent linked list: node = (decision, parent); version i → node after record i.
    nodes: list[tuple[Mapping[str, Any], Any] | None] = [None]
    for record in records:
        kind = record.get("kind")
        if kind == "decision":
            nodes.append((record, nodes[-1]))
        elif kind == "revert":
            target = int(record["to"])
            if not 0 <= target < len(nodes):
                raise ValueError(f"revert to {target} is outside the log (0..{len(nodes) - 1})")
            nodes.append(nodes[target])
        else:
            nodes.append(nodes[-1])
    out: list[Mapping[str, Any]] = []
    node = nodes[-1]
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def replay(
    options: GameOptions,
    records: Iterable[Mapping[str, Any]],
    content: Content | None = None,
    catalogue: Catalogue | None = None,
) -> Game:
    """Rebuild a game from its options and log."""
    game = new_game(options, content, catalogue)
    for record in effective_decisions(records):
        game.apply(record["notation"], record.get("player"))
    return game
