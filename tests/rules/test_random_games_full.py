"""Seeded random full games through listed options only, with invariants checked at every step."""

from __future__ import annotations

import pytest

from bot.rules import Game, GameOptions, GameState, new_game
from bot.rules.prng import SplitMix64

SEEDS = range(10)
RESOURCES = ("credits", "excavators", "mixers", "engineers", "vp")


def engineers_out(game: Game, company_id: str) -> int:
    """Engineers on action spaces and on the company board's construction spaces."""
    company = game.company(company_id)
    on_spaces = sum(
        n for space in game.state.spaces.values() for cid, n in space if cid == company_id
    )
    spaces = game.content.common.construction_spaces[: company.construction_spaces_used]
    return on_spaces + sum(space.engineers for space in spaces)


def check_invariants(game: Game, vp_events: dict[str, int]) -> None:
    """No negative resources; VP = 10 + VP events; engineers conserved."""
    for cid, company in game.state.companies.items():
        for resource in RESOURCES:
            assert getattr(company, resource) >= 0, (cid, resource)
        assert company.vp == 10 + vp_events.get(cid, 0), cid
        assert company.engineers + engineers_out(game, cid) == 12, cid


def random_full_game(
    players: int, seed: int, map_id: str = "base", expansions: tuple[str, ...] = ()
) -> Game:
    """Play a full game to its end choosing uniformly among the listed options."""
    game = new_game(
        GameOptions(players=players, setup="full", seed=seed, map=map_id, expansions=expansions)
    )
    rng = SplitMix64(seed * 7919 + players)
    vp_events: dict[str, int] = {}
    steps = 0
    while not game.is_over:
        decisions = game.decisions()
        assert decisions, "no decision pending before the end of the game"
        decision = decisions[rng.below(len(decisions))]
        assert decision.options
        option = decision.options[rng.below(len(decision.options))]
        for event in game.apply(option, decision.player):
            if event.kind == "vp":
                vp_events[event.company] = vp_events.get(event.company, 0) + event.amount
        if game.state.phase != "draft":
            check_invariants(game, vp_events)
        steps += 1
        assert steps < 20_000
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_full_game_reaches_the_end(players: int, seed: int) -> None:
    game = random_full_game(players, seed)
    state = game.state
    assert state.finished and state.round == 5
    assert len(state.result["ranking"]) == players
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("seed", range(3))
def test_random_four_player_game_on_the_five_player_map(seed: int) -> None:
    game = random_full_game(4, seed, "five_player")
    assert game.state.finished


def test_random_games_use_the_full_game_features() -> None:
    """Across a few games the Patent Office, advanced tiles and officers' actions are used."""
    seen: set[str] = set()
    for seed in range(6):
        game = new_game(GameOptions(players=4, setup="full", seed=seed))
        rng = SplitMix64(seed)
        while not game.is_over:
            decision = game.decisions()[0]
            option = decision.options[rng.below(len(decision.options))]
            seen.add(option.notation.split(" ")[0])
            for event in game.apply(option, decision.player):
                if event.source.startswith("tile:"):
                    seen.add(event.source)
    assert {"patent_1", "patent_2", "patent_3", "pick", "start"} <= seen
    assert any(s.startswith("tile:adv_") for s in seen)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replaying_the_answers_gives_the_same_state(players: int) -> None:
    options = GameOptions(players=players, setup="full", seed=100 + players)
    game = new_game(options)
    rng = SplitMix64(players)
    log: list[tuple[str, str]] = []
    while not game.is_over:
        decision = game.decisions()[0]
        option = decision.options[rng.below(len(decision.options))]
        game.apply(option, decision.player)
        log.append((decision.player, option.notation))
    again = new_game(options)
    for player, notation in log:
        again.apply(notation, player)
    assert again.state.to_json() == game.state.to_json()
