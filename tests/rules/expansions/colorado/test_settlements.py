"""Productive Settlements: tolls (the rulebook's example), exclusivity, each settlement tile,
the bonus of a settlement of a type (contract 415, the Heliport)."""

from __future__ import annotations

import pytest

from bot.rules.contracts import fulfil_contract
from bot.rules.state import WheelSegment
from tests.rules.expansions.colorado.helpers import board, bridged, drafted_colorado, ready
from tests.rules.full_helpers import own_dam, play, total


def _game(**kwargs):
    game = drafted_colorado(**kwargs)
    a, b = game.state.seats[:2]
    return game, a, b


def test_worked_example_tolls_0_2_3() -> None:
    """Rulebook: third space from the Mountains site; own Bridge, red's Bridge, none."""
    game, green, red = _game()
    bridged(game, green, "D1L", "BR1")
    bridged(game, red, "D2L", "BR2")
    board(game)["settlements"]["S_M3"] = "SB7"  # 5 credits
    game = ready(game, green, credits=10)
    red_credits, red_vp = game.company(red).credits, game.company(red).vp
    option = game.decision().find("settle S_M3")
    assert option is not None and "(2 eng., 5 cr.)" in option.label
    events = play(game, "settle S_M3")
    assert total(events, "credits", "toll:S_M3") == -5 + 2  # green -5, red +2
    assert game.company(red).credits == red_credits + 2
    assert game.company(red).vp == red_vp + 1
    assert total(events, "credits", "settlement:") == 5
    assert total(events, "engineers") == -2
    assert game.state.spaces["S_M3"] == [[green, 2]]


def test_exclusive_for_the_round_and_tolls_must_be_affordable() -> None:
    game, a, b = _game()
    board(game)["settlements"]["S_M1"] = "SB7"
    assert "settle S_M1" not in ready(game, a, credits=2).decision().notations
    game = ready(game, a, credits=3)
    play(game, "settle S_M1", "confirm")
    assert "settle S_M1" not in ready(game, b).decision().notations


def test_a_bonus_that_is_an_action_must_be_possible() -> None:
    game, a, _b = _game()
    board(game)["settlements"]["S_M1"] = "SA6"  # fulfil a green contract
    game.company(a).contracts = [300]
    game = ready(game, a)
    assert "settle S_M1" not in game.decision().notations
    game.company(a).contracts = [300, 200]
    game = ready(game, a)
    play(game, "settle S_M1")
    assert game.decision().kind == "fulfil_contract"
    assert "contract 200" in game.decision().notations
    assert "contract 300" not in game.decision().notations


def _rich(game, a: str) -> None:
    """An own Bridge on D1L (S_M1's road is free), a system D1L→C1L→P8_0, contracts, a wheel."""
    bridged(game, a, "D1L", "BR5")
    game.state.dams["D1L"].water = 1
    own_dam(game, a, "D5L")
    game.state.conduits["C1L"] = a
    game.state.powerhouses["P8_0"] = a
    company = game.company(a)
    company.placed["conduit"] += 1
    company.placed["powerhouse"] += 1
    company.contracts = [200, 300, 400]
    company.fulfilled = [1]
    company.energy = 14
    company.wheel[0] = WheelSegment(excavators=1, mixers=1)
    company.wheel[1] = WheelSegment(excavators=2)


# tile -> what follows: ("decision", kind) or (event kind, total amount)
SETTLEMENTS = {
    "SA1": ("wheel_rotate", 2),
    "SA2": ("decision", "place_drops"),
    "SA3": ("energy", 5),
    "SA4": ("decision", "colorado_segment"),
    "SA5": ("vp", 3),  # copies BR5, the only own Bridge, without asking
    "SA6": ("decision", "fulfil_contract"),
    "SA7": ("energy", 5),  # C1L's value
    "SA8": ("credits", 2),  # 1 drop in D1L
    "SB1": ("excavators", 2),
    "SB2": ("vp", 1),
    "SB3": ("decision", "machinery_choice"),
    "SB4": ("decision", "fulfil_contract"),
    "SB5": ("production", 1),
    "SB6": ("vp", 3),
    "SB7": ("credits", 5),
    "SB8": ("energy", 3),
    "SC1": ("vp", 4),  # the rulebook's example: step 14 is the second section
    "SC2": ("decision", "fulfil_contract"),
    "SC3": ("decision", "machinery_choice"),
    "SC4": ("decision", "build_structure"),
    "SC5": ("drop_added", 1),  # D1L is full; D5L takes one
    "SC6": ("vp", 10),  # 20 credits
    "SC7": ("decision", "reward_build"),
    "SC8": ("vp", 7),  # 10 excavators + 5 mixers
}


@pytest.mark.parametrize("tile", sorted(SETTLEMENTS))
def test_each_settlement_tile(tile: str) -> None:
    game, a, _b = _game()
    _rich(game, a)
    board(game)["settlements"]["S_M1"] = tile
    game = ready(game, a, credits=20, excavators=10, mixers=5)
    events = play(game, "settle S_M1")
    assert total(events, "credits", "toll:") == 0  # own Bridge in basin 1
    kind, expected = SETTLEMENTS[tile]
    if kind == "decision":
        assert game.decision().kind == expected
    elif kind == "production":
        assert sum(1 for e in events if e.kind == "production") == expected
    else:
        assert total(events, kind, "settlement:") + total(events, kind, "bridge:") == expected
    if tile == "SA4":
        assert total(events, "excavators") == 0  # wheel returns are not gains
        assert game.company(a).excavators == 11  # segment 1 gave 1 back at once


def test_contract_415_takes_a_type_c_settlement_bonus_of_your_choice() -> None:
    game, a, _b = _game()
    board(game)["settlements"].update({"S_M4": "SC8", "S_H3": "SC6", "S_M1": "SA3"})
    game = ready(game, a, credits=8)
    game.company(a).contracts.append(415)
    fulfil_contract(game, a, 415)
    game.advance()
    assert game.decision().kind == "colorado_settlement"
    assert sorted(game.decision().notations) == ["settlement S_H3", "settlement S_M4"]
    events = play(game, "settlement S_H3")
    assert total(events, "vp", "contract:415") == 4
    assert not game.state.spaces.get("S_H3")  # no engineers, the space stays free
    # the tile on the space decides the type: with one type C tile left it applies at once
    board(game)["settlements"]["S_M4"] = "SB7"
    game = ready(game, a, credits=8)
    game.company(a).contracts.append(415)
    fulfil_contract(game, a, 415)
    events = game.advance()
    assert total(events, "vp", "contract:415") == 4


def test_heliport_with_leeghwater() -> None:
    game, a, _b = _game(expansions=("colorado", "leeghwater"))
    lw = game.state.extra["leeghwater"]
    lw["buildings"] = ["heliport", *lw["buildings"][:4]]
    lw["building_spaces"]["heliport"] = [a, None, None, None]
    board(game)["settlements"].update({"S_H3": "SC6", "S_M4": "SC1"})
    game = ready(game, a, credits=10)
    option = game.decision().find("use heliport")
    assert option is not None
    events = play(game, "use heliport")
    assert total(events, "credits", "building:heliport") == -2
    assert sorted(game.decision().notations) == ["settlement S_H3", "settlement S_M4"]
    events = play(game, "settlement S_H3")
    assert total(events, "vp") == 4  # 8 credits left → 4 VP


def test_copying_two_different_bridges_contract_315() -> None:
    game, a, _b = _game()
    bridged(game, a, "D1L", "BR5")
    bridged(game, a, "D5L", "BR2")
    game = ready(game, a)
    game.company(a).contracts.append(315)
    fulfil_contract(game, a, 315)
    game.advance()
    assert sorted(game.decision().notations) == ["copy_bridge BR2", "copy_bridge BR5"]
    events = play(game, "copy_bridge BR2")
    # the second copy is the other tile, applied without asking
    assert total(events, "credits", "contract:315") == 5
    assert total(events, "vp", "contract:315") == 3


def test_copy_with_too_few_bridges_gives_nothing() -> None:
    game, a, _b = _game()
    bridged(game, a, "D1L", "BR5")
    game = ready(game, a)
    game.company(a).contracts.append(315)
    fulfil_contract(game, a, 315)
    events = game.advance()
    assert game.decision().kind == "turn"
    assert total(events, "vp") == 0
