"""The base game's rules: the rule sets of its modules, in the order a game combines them."""

from __future__ import annotations

from bot.rules import (
    actions,
    advanced_tiles,
    companies,
    construction,
    contracts,
    draft,
    flow,
    illegal,
    notation,
    officers,
    patent,
    production,
    rewards,
)
from bot.rules.automa import turn as automa_turn
from bot.rules.engine import Game
from bot.rules.rulebook import RuleSet

# Structure kinds and turn actions are offered in this order (construction's four kinds; the
# engineer-free build before Mahiri Sekibo's space).
BASE_RULES: tuple[RuleSet[Game], ...] = (
    notation.RULES,
    actions.RULES,
    construction.RULES,
    production.RULES,
    rewards.RULES,
    contracts.RULES,
    patent.RULES,
    draft.RULES,
    flow.RULES,
    advanced_tiles.RULES,
    officers.RULES,
    companies.RULES,
    illegal.RULES,
    automa_turn.RULES,
)
