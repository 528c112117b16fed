"""Each placement criterion of the automa, and the final tie-break, on positions.

Italy is the automa, the USA its opponent; each test states the few structures that decide.
"""

from __future__ import annotations

from bot.rules.automa.criteria import CRITERIA, choose_space, code, conduit_code, tie_break
from bot.rules.automa.turn import card
from tests.rules.automa.helpers import automa_game

CARD = card(1)  # headstream order HA, HB, HC, HD


def keep(name: str, spaces: list[str], body: str = "", game: str = "") -> list[str]:
    """What one criterion keeps of `spaces` in the position `body` ([map] ...)."""
    position = automa_game(body, game=game)
    return CRITERIA[name](position, "italy", spaces, CARD)


# -- Base (and Elevation) criteria ----------------------------------------------------------


def test_base_strongest_built_conduit_own_conduit_wins_ties() -> None:
    body = '[map]\nC1L = "usa"\nC2R = "italy"\nC5L = "usa"\n'  # values 5, 5, 3
    assert keep("base_strongest_built_conduit", ["D1U", "D2L", "D5U", "D3U"], body) == ["D2L"]
    # Without any built conduit it keeps nothing (and is then ignored by choose_space).
    assert keep("base_strongest_built_conduit", ["D3U", "D4U"], body) == []


def test_base_conduit_to_own_powerhouse_counts_conduit_spaces_built_or_not() -> None:
    body = '[map]\nP6_0 = "italy"\nP5_0 = "usa"\n'  # C2L and C3R lead to basin 6
    assert keep("base_conduit_to_own_powerhouse", ["D1U", "D2U", "D3L", "D4U"], body) == [
        "D2U",
        "D3L",
    ]


def test_base_most_water_passing_counts_drops_and_breaks_ties_by_headstream_order() -> None:
    game = "headstream_water = { HB = 1, HD = 2 }"
    # HD's 2 drops enter basins 4, 7, 10, 12; HB's drop enters 2, 5, 9, 11.
    assert keep("base_most_water_passing", ["D2U", "D4U", "D7L", "D1U"], game=game) == [
        "D4U",
        "D7L",
    ]
    # No water at all: every space scores 0 and the card's first headstream (HA) decides.
    dry = "headstream_water = { HA = 0 }"
    assert keep("base_most_water_passing", ["D2U", "D8U", "D1L"], game=dry) == ["D8U", "D1L"]


def test_base_most_water_passing_sees_dams_catch_the_water() -> None:
    body = '[map]\nD4U = { owner = "usa", level = 2, water = 0 }\n'
    game = "headstream_water = { HB = 1, HD = 2 }"
    # HD's drops stop in D4U: basin 7 now sees none of them, basin 5 sees HB's drop.
    assert keep("base_most_water_passing", ["D5U", "D7L"], body, game) == ["D5U"]


def test_base_red_outlined_space_keeps_upper_spaces() -> None:
    assert keep("base_red_outlined_space", ["D1U", "D1L", "D5L", "D8U"]) == ["D1U", "D8U"]


def test_base_downstream_of_built_powerhouse() -> None:
    body = '[map]\nP6_0 = "usa"\n'  # water leaving P6_0 passes basins 6, 10, 12
    assert keep("base_downstream_of_built_powerhouse", ["D5U", "D6L", "D10U", "D1U"], body) == [
        "D6L",
        "D10U",
    ]


def test_base_conduit_to_own_dam_basin_then_basins_without_opponent_dams() -> None:
    body = '[map]\nD6U = { owner = "italy" }\nD5U = { owner = "usa" }\n'
    # C2L (2 → 6) and C3R (3 → 6) lead toward Italy's dam in basin 6.
    assert keep("base_conduit_to_own_dam_basin", ["D1U", "D2U", "D3L", "D4U"], body) == [
        "D2U",
        "D3L",
    ]
    # None does: those with a conduit toward a basin free of opponent dams (not C1R's 5).
    body = '[map]\nD5U = { owner = "usa" }\nD8U = { owner = "usa" }\n'
    assert keep("base_conduit_to_own_dam_basin", ["D1U", "D3U", "D4U"], body) == ["D3U", "D4U"]


# -- Conduit criteria -----------------------------------------------------------------------


def test_conduit_highest_and_second_highest_production() -> None:
    spaces = ["C1L", "C1R", "C5L", "C6R", "C2R"]  # 5, 4, 3, 2, 5
    assert keep("conduit_highest_production", spaces) == ["C1L", "C2R"]
    assert keep("conduit_second_highest_production", spaces) == ["C1R"]
    assert keep("conduit_second_highest_production", ["C1L", "C2R"]) == []


def test_conduit_dam_owner_own_neutral_opponent_and_the_reverse() -> None:
    body = (
        '[map]\nD1U = { owner = "italy" }\nD2U = { owner = "neutral" }\nD3U = { owner = "usa" }\n'
    )
    spaces = ["C4L", "C3L", "C2L", "C1L"]
    assert keep("conduit_dam_owner_own_first", spaces, body) == ["C1L"]
    assert keep("conduit_dam_owner_own_first", ["C4L", "C3L", "C2L"], body) == ["C2L"]
    assert keep("conduit_dam_owner_opponent_first", spaces, body) == ["C3L"]
    assert keep("conduit_dam_owner_opponent_first", ["C4L", "C1L", "C2L"], body) == ["C2L"]


def test_conduit_powerhouse_owner_own_free_opponent_and_the_reverse() -> None:
    # C1R and C3L reach basin 5; C2L and C3R basin 6; C4L basin 7.
    # A free powerhouse space counts as neutral: C2L reaches the USA's P6_0 and a free P6_1.
    body = '[map]\nP5_0 = "italy"\nP6_0 = "usa"\n'
    assert keep("conduit_powerhouse_owner_own_first", ["C4L", "C2L", "C1R"], body) == ["C1R"]
    assert keep("conduit_powerhouse_owner_own_first", ["C4L", "C2L"], body) == ["C4L", "C2L"]
    assert keep("conduit_powerhouse_owner_opponent_first", ["C4L", "C2L", "C1R"], body) == ["C2L"]


# -- Powerhouse criteria ----------------------------------------------------------------------


def test_powerhouse_strongest_built_conduit() -> None:
    body = '[map]\nC1R = "usa"\nC6R = "italy"\nC2L = "italy"\n'  # → 5 (4), → 7 (2), → 6 (3)
    assert keep("powerhouse_strongest_built_conduit", ["P5_0", "P6_0", "P7_0"], body) == ["P5_0"]


def test_powerhouse_reached_from_own_dam() -> None:
    body = '[map]\nD3U = { owner = "italy" }\n'  # C3L → 5, C3R → 6
    assert keep("powerhouse_reached_from_own_dam", ["P5_0", "P6_1", "P7_0", "P8_0"], body) == [
        "P5_0",
        "P6_1",
    ]


def test_powerhouse_in_plains_and_in_basins() -> None:
    spaces = ["P5_0", "P6_0", "P7_0", "P8_0", "P12_1"]
    assert keep("powerhouse_in_plains", spaces) == ["P8_0", "P12_1"]
    assert keep("powerhouse_in_basin_5", spaces) == ["P5_0"]
    assert keep("powerhouse_in_basin_6", spaces) == ["P6_0"]
    assert keep("powerhouse_in_basin_7", spaces) == ["P7_0"]


def test_powerhouse_feeds_own_dam_first_and_not_feeding_opponent_first() -> None:
    # Water from basin 5 passes 5, 9, 11; from 6: 6, 10, 12; from 7: 7, 10, 12; from 8: 8, 11.
    body = '[map]\nD9U = { owner = "italy" }\nD10L = { owner = "usa" }\n'
    spaces = ["P6_0", "P7_0", "P5_0", "P8_0"]
    assert keep("powerhouse_feeds_own_dam_first", spaces, body) == ["P5_0"]
    assert keep("powerhouse_not_feeding_opponent_first", spaces, body) == ["P5_0", "P8_0"]
    # Nothing feeds its dams: the spaces feeding no opponent stay (and the reverse rule).
    assert keep("powerhouse_feeds_own_dam_first", ["P6_0", "P8_0"], body) == ["P8_0"]
    assert keep("powerhouse_not_feeding_opponent_first", ["P6_0", "P7_0"], body) == []


# -- choosing: systems first, one powerhouse per basin, the tie-break -------------------------


def test_codes_and_the_cyclic_tie_break() -> None:
    game = automa_game()
    assert code(game, "C1L") == 2 and code(game, "C10R") == 21 and code(game, "P8_2") == 8
    assert conduit_code("5R") == 11
    assert tie_break(game, ["C1L", "C5L", "C9R"], conduit_code("5R")) == "C9R"
    assert tie_break(game, ["C1L", "C5L"], conduit_code("9R")) == "C1L"  # wraps round
    # Two spaces of one basin: the lower one.
    assert tie_break(game, ["D3U", "D3L", "D2U"], 3) == "D3L"


def test_a_space_completing_a_system_wins_over_every_criterion() -> None:
    body = '[map]\nC1R = "usa"\nP5_0 = "italy"\n'
    game = automa_game(body)
    fired: list[str] = []
    # Card 9's first base criterion (red outline) would pick an upper space; D1L completes
    # D1 → C1R → P5_0.
    assert choose_space(game, "italy", "base", ["D1L", "D2U", "D4U"], card(9), fired) == "D1L"
    assert fired == ["completes_system"]


def test_one_powerhouse_space_per_basin_the_non_red_one() -> None:
    game = automa_game()
    spaces = ["P5_1", "P5_0", "P10_1", "P10_2"]
    # Card 5's first criterion wants basin 5; of P5_0 and P5_1 the non-red P5_0.
    assert choose_space(game, "italy", "powerhouse", spaces, card(5)) == "P5_0"
    # Basin 10 has only red spaces left: its first one stands for it.
    assert choose_space(game, "italy", "powerhouse", ["P10_1", "P10_2"], card(5)) == "P10_1"


def test_a_criterion_that_would_leave_nothing_is_ignored() -> None:
    game = automa_game()
    fired: list[str] = []
    # Card 1: strongest built conduit (none built), conduit to own powerhouse (none), then
    # downstream of a built powerhouse (none): the tie-break from basin 1 decides.
    assert choose_space(game, "italy", "base", ["D5U", "D2U", "D9L"], card(1), fired) == "D2U"
    assert fired == ["tie_break"]


def test_elevations_use_the_base_criteria_and_skip_the_system_rule() -> None:
    body = (
        '[map]\nD1L = { owner = "italy" }\nD6U = { owner = "italy" }\nC1R = "usa"\nP5_0 = "italy"\n'
    )
    game = automa_game(body)
    # Card 2 (criteria: strongest built conduit first): D1L's basin has C1R built.
    assert choose_space(game, "italy", "elevation", ["D6U", "D1L"], card(2)) == "D1L"
    # Card 9 (red outline first) picks D6U even though D1L's system is complete.
    assert choose_space(game, "italy", "elevation", ["D6U", "D1L"], card(9)) == "D6U"
