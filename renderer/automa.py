"""How pictures and their text alternative mark automa companies and their deck's top card."""

from __future__ import annotations

from bot.rules.automa.deck import top_card
from bot.rules.automa.seats import level_name, seat_level
from bot.rules.state import GameState


def automa_level(state: GameState, company_id: str) -> int | None:
    """The level of the automa playing a company, None for a person's company."""
    company = state.companies.get(company_id)
    if company is None or not state.options.automa:
        return None
    return seat_level(state.options, company.seat)


def automa_title(state: GameState, company_id: str) -> str:
    """'automa (medium)', or '' for a person's company."""
    level = automa_level(state, company_id)
    return "" if level is None else f"automa ({level_name(level)})"


def next_card(state: GameState, company_id: str) -> str:
    """'next card 7' (the deck's face-up top card), or '' for a person's company."""
    if automa_level(state, company_id) is None or "automa" not in state.extra:
        return ""
    card = top_card(state, company_id)
    return "" if card is None else f"next card {card}"
