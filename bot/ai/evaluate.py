"""The evaluation: how many final VP a position is worth to each company, as an estimate."""

from __future__ import annotations

from bot.rules.engine import Game


def worth(game: Game, company_id: str) -> float:
    """A company's VP now plus an estimate of what its assets will still bring."""
    company = game.state.companies[company_id]
    if game.state.finished:
        return float(company.vp)
    return (
        company.vp
        + company.credits / 5
        + (company.excavators + company.mixers) / 5
        + company.energy / 4
        + 2 * sum(company.placed.values())
    )


def margin(game: Game, company_id: str) -> float:
    """`worth` of this company minus the best of the others."""
    others = [worth(game, other) for other in game.state.companies if other != company_id]
    return worth(game, company_id) - (max(others) if others else 0.0)
