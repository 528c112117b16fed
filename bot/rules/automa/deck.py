"""An automa's deck of 20 cards: dealt at setup, flipped one a turn, reshuffled when empty.

State (`state.extra["automa"]`): `decks`, one per automa in seat order, each
`{"deck": [...], "discard": [...], "flipped": card or None}` (deck top first), and `rng`, the
SplitMix64 state that reshuffles a discard pile. Setup draws, after everything else (so games
without automas draw exactly as before): each automa's deck shuffled, then the seed of `rng`.
"""

from __future__ import annotations

from typing import Any, cast

from bot.rules.automa.seats import automa_data, human_seats
from bot.rules.prng import SplitMix64
from bot.rules.state import GameState


def card_ids() -> list[int]:
    """The deck's cards, by number."""
    return [int(card["id"]) for card in automa_data()["card"]]


def deal_decks(state: GameState, rng: SplitMix64) -> None:
    """Shuffle one deck per automa and keep the generator that will reshuffle them."""
    if not state.options.automa:
        return
    decks = []
    for _level in state.options.automa:
        deck = card_ids()
        rng.shuffle(deck)
        decks.append({"deck": deck, "discard": [], "flipped": None})
    state.extra["automa"] = {"decks": decks, "rng": rng.next64()}


def deck_of(state: GameState, company_id: str) -> dict[str, Any]:
    """The deck of the automa playing this company."""
    seat = state.companies[company_id].seat
    return cast("dict[str, Any]", state.extra["automa"]["decks"][seat - human_seats(state.options)])


def _reshuffle(state: GameState, deck: dict[str, Any]) -> bool:
    """Shuffle the discard pile into the deck (the engine's generator, kept in the state)."""
    table = state.extra["automa"]
    rng = SplitMix64(0)
    rng.state = int(table["rng"])
    cards = list(deck["discard"])
    rng.shuffle(cards)
    table["rng"] = rng.state
    deck["deck"] = cards
    deck["discard"] = []
    return True


def flip(state: GameState, company_id: str) -> tuple[int, int, bool]:
    """Start an automa's turn: the flipped card goes to the discard, the top card is flipped
    (its criteria count now) and the new top card's actions are read; an empty deck takes the
    discard, reshuffled. Returns (actions card, criteria card, whether the deck reshuffled)."""
    deck = deck_of(state, company_id)
    reshuffled = False
    if deck["flipped"] is not None:
        deck["discard"].append(deck["flipped"])
        deck["flipped"] = None
    if not deck["deck"]:
        reshuffled = _reshuffle(state, deck)
    deck["flipped"] = deck["deck"].pop(0)
    if not deck["deck"]:
        reshuffled = _reshuffle(state, deck) or reshuffled
    return deck["deck"][0], deck["flipped"], reshuffled


def top_card(state: GameState, company_id: str) -> int | None:
    """The card on top of an automa's deck (its actions are face up), or None."""
    deck = deck_of(state, company_id)
    return deck["deck"][0] if deck["deck"] else None
