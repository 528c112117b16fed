"""Helpers for the full game's scenario tests: a drafted game, a chosen turn, notations played."""

from __future__ import annotations

from bot.rules import Game, GameOptions, new_game, open_game
from bot.rules.events import Event


def drafted(players: int = 4, seed: int = 3, map_id: str = "base") -> Game:
    """A full game whose draft is done (first options picked), at round 1's first turn."""
    game = new_game(GameOptions(players=players, setup="full", seed=seed, map=map_id))
    while game.state.phase == "draft":
        decision = game.decision()
        assert decision is not None
        game.apply(decision.options[0], decision.player)
    return game


def scenario(players: int = 4, seed: int = 3, **officers: str) -> Game:
    """A drafted game with an empty map (no neutral dams) and officers set per company."""
    game = drafted(players, seed)
    game.state.dams.clear()
    for company_id, officer in officers.items():
        game.company(company_id).officer = officer
    return game


def turn(game: Game, company_id: str) -> Game:
    """The same state with `company_id` to take the pending turn (a fresh Game: no stale cache)."""
    state = game.state
    assert state.stack[-1]["kind"] == "turn", state.stack[-1]
    state.stack[-1] = {"kind": "turn", "player": company_id}
    state.current = company_id
    return open_game(state, game.content)


def play(game: Game, *notations: str) -> list[Event]:
    """Apply notations in order; one that the engine already applied automatically is skipped."""
    events: list[Event] = []
    auto: list[str] = []
    for notation in notations:
        decision = game.decisions()[0]
        if decision.find(notation) is None and notation in auto:
            auto.remove(notation)
            continue
        if decision.find(notation) is None:
            raise AssertionError(f"{notation!r} not in {decision.notations} ({decision.prompt})")
        new = game.apply(notation, decision.player)
        events += new
        auto = [e.data["notation"] for e in new if e.kind == "auto"]
    return events


def total(events: list[Event], kind: str, source: str | None = None) -> int:
    """Sum of the amounts of events of one kind (and source prefix)."""
    return sum(
        e.amount
        for e in events
        if e.kind == kind and (source is None or e.source.startswith(source))
    )


def prepare(
    game: Game,
    company_id: str,
    *,
    tiles: list[str] | None = None,
    credits: int = 30,
    excavators: int = 10,
    mixers: int = 10,
    engineers: int = 12,
) -> Game:
    """Give a company resources and tiles, and the pending turn."""
    company = game.company(company_id)
    company.credits, company.excavators, company.mixers = credits, excavators, mixers
    company.engineers = engineers
    if tiles is not None:
        company.tiles = list(tiles)
    return turn(game, company_id)


def own_dam(game: Game, company_id: str, space: str, level: int = 1, water: int = 0) -> None:
    """Put a dam of the company on the map (its pieces counted as built)."""
    from bot.rules.state import Dam

    game.state.dams[space] = Dam(owner=company_id, level=level, water=water)
    company = game.company(company_id)
    company.placed["base"] += 1
    company.placed["elevation"] += level - 1
