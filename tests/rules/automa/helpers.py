"""Positions with an automa seat, and playing one automa turn, for the automa tests."""

from __future__ import annotations

from bot.rules import Game
from bot.rules.automa.deck import card_ids
from bot.rules.automa.play import automa_answer, pending_automa
from bot.rules.events import Event
from bot.rules.position import load_position


def deck_for(actions: int, criteria: int) -> list[int]:
    """A deck whose next turn plays `actions` with the criteria of `criteria`."""
    rest = [c for c in card_ids() if c not in (actions, criteria)]
    return [criteria, actions, *rest]


def automa_game(
    body: str = "",
    *,
    actions: int = 1,
    criteria: int | None = None,
    level: str = "medium",
    game: str = "",
) -> Game:
    """A 2-player position: USA (a person) and Italy (an automa) whose turn it is; Italy's
    next turn plays card `actions` with the criteria of card `criteria` (default: the same
    numbers' neighbour)."""
    criteria = criteria if criteria is not None else (actions % 20) + 1
    deck = ", ".join(str(c) for c in deck_for(actions, criteria))
    text = f"""
[game]
players = 2
seed = 1
automa = ["{level}"]
seats = ["usa", "italy"]
turn_order = ["italy", "usa"]
current = "italy"
{game}
[automa.italy]
deck = [{deck}]
discard = []
flipped = 0
{body}
"""
    return load_position(text)


def play_turn(game: Game) -> list[Event]:
    """Apply the automa decisions now due (its turn and the choices it brings); their events."""
    events: list[Event] = []
    while (decision := pending_automa(game)) is not None:
        events.extend(game.apply(automa_answer(game, decision).notation, decision.player))
        if decision.kind == "automa_turn":
            # Its choices follow at once; stop at the next automa turn.
            while (more := pending_automa(game)) is not None and more.kind != "automa_turn":
                events.extend(game.apply(automa_answer(game, more).notation, more.player))
            break
    return events


def done(events: list[Event]) -> list[str]:
    """The action types the automa did, in order."""
    return [e.data["type"] for e in events if e.kind == "automa_action"]
