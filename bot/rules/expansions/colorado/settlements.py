"""Productive Settlements (rulebook "New Action: Activating a Productive Settlement").

`settle S_M3` places the Engineers the space prints (1 or 2) on that exclusive space, pays a
toll for each basin the road crosses from its area's Construction Site to the space, then takes
the bonus of the settlement tile lying there (the tile stays, reconstructed
`tile_stays_on_space`). Toll per basin, counted from the site (position 1 is the first basin):
no Bridge in it, 3 credits to the general supply; a Bridge on your own dam, nothing; a Bridge
on another company's dam, `position` credits to that company, which also scores 1 VP.

The action is offered only when the space is free this round, the Engineers and all the tolls
can be paid (`must_afford_all_tolls`), and the bonus can be started when it is an action of
its own (a production, a construction, a conduit, a contract of a colour:
`effects.effect_possible`, with the credits left after the tolls).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.rules.actions import place_engineers
from bot.rules.engine import Game
from bot.rules.expansions.colorado.board import (
    bridge_in_basin,
    bridge_owner,
    co,
    settlement_spaces,
    settlement_tiles,
)
from bot.rules.expansions.colorado.effects import effect_possible, perform_tile
from bot.rules.moves import Single
from bot.rules.options import Option
from bot.rules.rewards import describe_reward
from bot.rules.rulebook import RuleSet

RULES: RuleSet[Game] = RuleSet("colorado.settlements")


@dataclass(frozen=True, slots=True)
class Settle(Single):
    """`settle S_M1`: engineers on that settlement, to take its tile's bonus."""

    verb: ClassVar[str] = "settle"
    args: ClassVar[str] = r"S_[MHP]\d"
    space: str


RULES.move(Settle)


def tolls(game: Game, company_id: str, space_id: str) -> list[tuple[str | None, int]]:
    """(payee, credits) per basin crossed, in road order; payee None is the general supply."""
    rules = game.content.of("colorado")["settlement_rules"]
    by_position = rules["toll_other_bridge_credits_by_position"]
    out: list[tuple[str | None, int]] = []
    for position, basin in enumerate(settlement_spaces(game)[space_id]["basins_crossed"], 1):
        bridge = bridge_in_basin(game, basin)
        if bridge is None:
            out.append((None, rules["toll_no_bridge_credits_to_supply"]))
            continue
        owner = bridge_owner(game, bridge)
        if owner == company_id:
            out.append((owner, rules["toll_own_bridge_credits"]))
        else:
            out.append((owner, by_position[min(position, len(by_position)) - 1]))
    return out


def toll_total(game: Game, company_id: str, space_id: str) -> int:
    """Credits the road to this space costs the company now."""
    return sum(credits for _payee, credits in tolls(game, company_id, space_id))


def settle_options(game: Game, company_id: str) -> list[Option]:
    """`settle <space>` for each settlement the company can activate now."""
    company = game.company(company_id)
    tiles = settlement_tiles(game)
    out = []
    for space_id, space in settlement_spaces(game).items():
        tile = co(game)["settlements"].get(space_id)
        if tile is None or game.state.spaces.get(space_id):
            continue
        engineers = space["engineers"]
        toll = toll_total(game, company_id, space_id)
        if company.engineers < engineers or company.credits < toll:
            continue
        effect = tiles[tile]["effect"]
        if not effect_possible(game, company_id, effect, company.credits - toll):
            continue
        out.append(
            Option(
                Settle(space_id),
                f"Settlement {space_id} ({engineers} eng., {toll} cr.): {describe_reward(effect, game.content)}",
                group="Settlements",
            )
        )
    return out


def perform_settle(game: Game, company_id: str, space_id: str) -> None:
    """Place the Engineers, pay each basin's toll, take the tile's bonus."""
    space = settlement_spaces(game)[space_id]
    source = f"space:{space_id}"
    vp = game.content.of("colorado")["settlement_rules"]["toll_other_bridge_owner_vp"]
    place_engineers(game, company_id, space_id, space["engineers"], source)
    for payee, credits in tolls(game, company_id, space_id):
        if payee is None:
            game.gain(company_id, "credits", -credits, f"toll:{space_id}")
        elif payee != company_id:
            game.gain(company_id, "credits", -credits, f"toll:{space_id}")
            game.gain(payee, "credits", credits, f"toll:{space_id}")
            game.gain(payee, "vp", vp, f"toll:{space_id}")
    tile = co(game)["settlements"][space_id]
    perform_tile(game, company_id, tile, f"settlement:{tile}")
