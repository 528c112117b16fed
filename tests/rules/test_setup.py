"""Full game setup: the draft, piles, the Patent Office, Mahiri's spare officers, the options."""

from __future__ import annotations

import pytest

from bot.rules import GameOptions, GameState, SetupError, new_game

from .full_helpers import drafted

BASE_OFFICERS = {
    "wilhelm_adler",
    "graziano_del_monte",
    "viktor_fiesler",
    "solomon_p_jordan",
    "anton_krylov",
    "jill_mcdowell",
    "mahiri_sekibo",
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_draft_picks_clockwise_and_turn_order_is_reversed(players: int) -> None:
    game = new_game(GameOptions(players=players, setup="full", seed=11))
    draft = game.state.extra["draft"]
    order = draft["order"]
    assert sorted(order) == list(range(players))
    assert order == [(order[0] + i) % players for i in range(players)]  # clockwise from first
    assert len(draft["pairs"]) == players and len(draft["starting"]) == players
    assert {officer for _c, officer in draft["pairs"]} <= BASE_OFFICERS
    assert set(draft["starting"]) <= {1, 2, 3, 4}
    while game.state.phase == "draft":
        decision = game.decision()
        assert decision is not None
        expected = order[len(draft["picks"])]
        assert decision.player == f"seat{expected}"
        game.apply(decision.options[-1], decision.player)  # not always the first option
    state = game.state
    assert [seat for seat, *_rest in draft["picks"]] == order
    companies = [company for _seat, company, _officer, _contract in draft["picks"]]
    assert state.turn_order == companies[::-1]
    assert [game.company(c).seat for c in state.seats] == list(range(players))
    for company in state.companies.values():
        assert "basic_wild" not in company.tiles
        assert len(company.contracts) == 1
    assert game.decision().kind == "turn"
    assert game.decision().player == state.turn_order[0]


def test_last_picker_is_served_automatically() -> None:
    game = new_game(GameOptions(players=2, setup="full", seed=5))
    first = game.decision()
    game.apply(first.options[0], first.player)
    start = game.decision()
    assert start.kind == "draft_start"
    game.apply(start.options[0], start.player)
    # The second player's pair and contract were forced: round 1 has begun.
    assert game.state.phase == "actions"


def test_officer_starting_resources_and_tiles() -> None:
    seen = set()
    for seed in range(12):
        game = drafted(4, seed=seed)
        for company in game.state.companies.values():
            seen.add(company.officer)
            assert ("anton_tile" in company.tiles) == (company.officer == "anton_krylov")
            # Round 1's income pays nothing yet: the officers' starting credits stand.
            assert company.credits == (9 if company.officer == "mahiri_sekibo" else 6)
            assert (company.engineers, company.excavators, company.mixers) == (12, 6, 4)
    assert {"anton_krylov", "mahiri_sekibo"} <= seen


@pytest.mark.parametrize(("players", "spares"), [(2, 2), (3, 1), (4, 0)])
def test_mahiri_spare_officers(players: int, spares: int) -> None:
    state = new_game(GameOptions(players=players, setup="full", seed=2)).state
    dealt = {o for _c, o in state.extra["draft"]["pairs"]}
    spare = state.extra["spare_officers"]
    assert len(spare) == spares
    assert not dealt & set(spare)
    assert set(spare) <= BASE_OFFICERS


def test_full_piles() -> None:
    state = drafted(3, seed=8).state
    assert len(state.bonus_tiles) == 5 and len(set(state.bonus_tiles)) == 5
    assert set(state.bonus_tiles) <= {
        "contracts",
        "bases",
        "elevations",
        "conduits",
        "powerhouses",
        "advanced_tiles",
    }
    assert len(state.national_offer) == 2
    assert all(len(offer) == 2 for offer in state.private_offer.values())
    assert len(state.dams) == 3  # neutral dams
    assert len(state.patent_offer) == 3
    assert all(tile.startswith("adv_1_") for tile in state.patent_offer)
    assert len(state.patent_piles["I"]) == 2
    assert all(t.startswith("adv_2_") for t in state.patent_piles["II"])
    assert all(t.startswith("adv_3_") for t in state.patent_piles["III"])
    assert len(state.patent_piles["II"]) == len(state.patent_piles["III"]) == 5


def test_advanced_tiles_bonus_tile_appears_in_some_full_games() -> None:
    seen = any(
        "advanced_tiles" in new_game(GameOptions(players=2, setup="full", seed=s)).state.bonus_tiles
        for s in range(10)
    )
    assert seen


def test_full_setup_is_deterministic_and_round_trips() -> None:
    a = drafted(3, seed=21)
    b = drafted(3, seed=21)
    assert a.state.to_json() == b.state.to_json()
    assert GameState.from_json(a.state.to_json()).to_json() == a.state.to_json()
    assert drafted(3, seed=22).state.to_json() != a.state.to_json()


def test_options_are_recorded() -> None:
    options = GameOptions(players=4, setup="full", seed=99, map="five_player")
    game = new_game(options)
    assert game.state.options.to_json() == {
        "players": 4,
        "setup": "full",
        "map": "five_player",
        "expansions": [],
        "seed": 99,
    }
    assert GameOptions.from_json(options.to_json()) == options


def test_five_player_map_for_four_players() -> None:
    game = drafted(4, seed=4, map_id="five_player")
    state = game.state
    assert list(state.headstream_tiles) == ["HA", "HB", "HC", "HD", "HE"]
    assert len(set(state.headstream_tiles.values())) == 5
    assert {game.map.area_of(space) for space in state.dams} == {"mountain", "hill", "plain"}
    with pytest.raises(SetupError, match="4 players"):
        new_game(GameOptions(players=3, setup="full", map="five_player"))


def test_maps_offered_per_player_count() -> None:
    from bot.rules.setup import SETUPS, maps_for

    assert SETUPS == ("intro", "full")
    assert maps_for(2) == maps_for(3) == ["base"]
    assert maps_for(4) == ["base", "five_player"]
