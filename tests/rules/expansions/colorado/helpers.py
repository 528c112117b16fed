"""Helpers for The Colorado Connection's scenario tests: a drafted game on the Colorado map."""

from __future__ import annotations

from typing import Any

from bot.rules import Game, GameOptions, new_game
from tests.rules.full_helpers import own_dam, prepare

CO = ("colorado",)


def drafted_colorado(players: int = 4, seed: int = 3, expansions: tuple[str, ...] = CO) -> Game:
    """A full Colorado game after the draft (first options), with no dams on the map."""
    game = new_game(GameOptions(players=players, setup="full", seed=seed, expansions=expansions))
    while game.state.phase == "draft":
        decision = game.decision()
        assert decision is not None
        game.apply(decision.options[0], decision.player)
    game.state.dams.clear()
    return game


def board(game: Game) -> dict[str, Any]:
    """The expansion's state."""
    return game.state.extra["colorado"]


def bridged(game: Game, company_id: str, space: str, tile: str, level: int = 1) -> None:
    """An own dam with a Bridge tile on it (the tile leaves its site)."""
    own_dam(game, company_id, space, level)
    for tiles in board(game)["sites"].values():
        if tile in tiles:
            tiles.remove(tile)
    board(game)["bridges"][space] = tile


def ready(game: Game, company_id: str, **resources: Any) -> Game:
    """Give the company resources and the pending turn (a fresh Game)."""
    return prepare(game, company_id, **resources)
