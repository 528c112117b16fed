"""Helpers for The Leeghwater Project's scenario tests: positions with the expansion on."""

from __future__ import annotations

from bot.rules import Game, open_game
from bot.rules.events import Event
from bot.rules.position import load_position

ORDER = '["germany", "usa", "italy", "france"]'
BUILDINGS = '["cofferdam", "wind_farm", "loan_agency", "research_lab", "robot_factory"]'


def lwp(tables: str = "", *, game: str = "", order: str = ORDER, players: int = 4) -> Game:
    """A full 4-player position with the expansion on: `game` adds [game] keys, then `tables`."""
    head = (
        f'[game]\nsetup = "full"\nplayers = {players}\nexpansions = ["leeghwater"]\n'
        f"turn_order = {order}\n{game}"
    )
    return load_position(head + tables)


def apply_all(game: Game, player: str, *notations: str) -> list[Event]:
    """Apply notations in order for one player; return all their events."""
    events: list[Event] = []
    for notation in notations:
        events += game.apply(notation, player)
    return events


def total(events: list[Event], kind: str, source: str = "") -> int:
    """Sum of the amounts of events of one kind whose source starts with `source`."""
    return sum(e.amount for e in events if e.kind == kind and e.source.startswith(source))


def auto(events: list[Event]) -> list[str]:
    """Notations the engine applied automatically."""
    return [e.data["notation"] for e in events if e.kind == "auto"]


def again(game: Game, player: str) -> Game:
    """The same state with a fresh turn for `player` (as if their next turn came)."""
    state = game.state
    state.stack[-1] = {"kind": "turn", "player": player}
    state.current = player
    return open_game(state)
