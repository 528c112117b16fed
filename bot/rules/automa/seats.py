"""Which seats are automas, at which level, and the facts of their economy (`data/automa.toml`).

The automa seats are the last seats of a game: `GameOptions.automa` lists their levels, one per
automa, in seat order (so with 4 players and `automa=(1, 2)` seats 2 and 3 are automas). This
module imports only the state and the data, so the engine core may ask it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from bot.rules.state import Company, GameOptions, GameState

LEVEL_NAMES = ("easy", "medium", "hard", "expert")
EASY, MEDIUM, HARD, EXPERT = range(4)


@dataclass(frozen=True, slots=True)
class Economy:
    """What sets an automa's economy apart (`[economy]` and `[levels]`)."""

    starting_vp: int
    starting_credits: int
    objective_vp_by_place: tuple[int, ...]
    max_automas: int
    incomes_from: int
    tile_effects_from: int
    company_ability_from: int
    officer_ability_from: int


@cache
def automa_data() -> dict[str, Any]:
    """The automa's data file, parsed once."""
    text = files("bot.rules.data").joinpath("automa.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def economy() -> Economy:
    """The automa's economy and level thresholds."""
    data = automa_data()
    eco, levels = data["economy"], data["levels"]
    return Economy(
        starting_vp=int(eco["starting_vp"]),
        starting_credits=int(eco["starting_credits"]),
        objective_vp_by_place=tuple(int(v) for v in eco["objective_vp_by_place"]),
        max_automas=int(eco["max_automas"]),
        incomes_from=int(levels["incomes_from"]),
        tile_effects_from=int(levels["tile_effects_from"]),
        company_ability_from=int(levels["company_ability_from"]),
        officer_ability_from=int(levels["officer_ability_from"]),
    )


def human_seats(options: GameOptions) -> int:
    """How many seats people play (the first ones)."""
    return options.players - len(options.automa)


def seat_level(options: GameOptions, seat: int) -> int | None:
    """The level of the automa in this seat, or None for a person's seat."""
    index = seat - human_seats(options)
    return options.automa[index] if 0 <= index < len(options.automa) else None


def player_seat(state: GameState, player: str) -> int | None:
    """The seat of a decision's player: a company id, or `seatN` before the draft seats them."""
    company = state.companies.get(player)
    if company is not None:
        return company.seat
    if player.startswith("seat") and player[4:].isdigit():
        return int(player[4:])
    return None


def player_level(state: GameState, player: str | None) -> int | None:
    """The automa level of a decision's player, or None for a person (or nobody)."""
    if player is None or not state.options.automa:
        return None
    seat = player_seat(state, player)
    return None if seat is None else seat_level(state.options, seat)


def level_name(level: int) -> str:
    """'easy', 'medium', 'hard' or 'expert'."""
    return LEVEL_NAMES[level]


def parse_level(text: str | int) -> int:
    """A level from its name or number; ValueError naming the choices otherwise."""
    if isinstance(text, int) or str(text).isdigit():
        level = int(text)
        if 0 <= level < len(LEVEL_NAMES):
            return level
    elif str(text).lower() in LEVEL_NAMES:
        return LEVEL_NAMES.index(str(text).lower())
    raise ValueError(f"automa level {text!r} is not one of {', '.join(LEVEL_NAMES)} (or 0-3)")


def make_automa(
    company: Company, level: int, start: dict[str, int], officer_tiles: Sequence[str]
) -> None:
    """Give a freshly dealt company an automa's economy: 16 VP, no credits, no starting
    contract; below Expert neither its officer's starting resources nor its officer's own
    tiles (those are its officer's ability). `start`: the board's usual starting resources."""
    eco = economy()
    company.vp = eco.starting_vp
    company.credits = eco.starting_credits
    company.contracts = []
    if level < eco.officer_ability_from:
        company.excavators = int(start.get("excavators", company.excavators))
        company.mixers = int(start.get("mixers", company.mixers))
        company.engineers = int(start.get("engineers", company.engineers))
        for tile in officer_tiles:
            if tile in company.tiles:
                company.tiles.remove(tile)
