"""Own dams in the evaluation: a base or elevation is capacity for every later round."""

from __future__ import annotations

from dataclasses import replace

from bot.ai import evaluate
from bot.ai.evaluate import dam_capacity, headstream_guess, systems_outlook, worth
from bot.rules.position import load_position

# Round 2: Italy owns a level-2 dam on D9L with nothing to produce it through, its
# rival USA a base on D10L, and a neutral dam stands on D8L.
POSITION = """
[game]
turn_order = ["italy", "usa"]
phase = "actions"
round = 2

[map]
D9L = { owner = "italy", level = 2 }
D10L = { owner = "usa", level = 1 }
D8L = { owner = "neutral", level = 3, water = 1 }
"""


def test_capacity_counts_each_level_of_the_companys_own_dams_only() -> None:
    game = load_position(POSITION)
    weights = evaluate.W
    assert dam_capacity(game, "italy", weights) == 2 * headstream_guess(game, "D9L", weights)
    assert dam_capacity(game, "usa", weights) == headstream_guess(game, "D10L", weights)
    assert dam_capacity(game, "usa", weights) > 0


def _at(round_number: int, level: int) -> str:
    """The position in round `round_number`, Italy's dam at `level`."""
    return POSITION.replace("round = 2", f"round = {round_number}").replace(
        "level = 2 }", f"level = {level} }}"
    )


def test_an_elevation_is_worth_its_capacity_for_every_round_left() -> None:
    on = replace(evaluate.W, dam_round=2.0)
    off = replace(evaluate.W, dam_round=0.0)
    fill = headstream_guess(load_position(POSITION), "D9L", on)
    assert fill > 0
    for round_number, later in ((2, 3), (4, 1), (5, 0)):
        low, high = load_position(_at(round_number, 2)), load_position(_at(round_number, 3))
        with_term = worth(high, "italy", on) - worth(low, "italy", on)
        without = worth(high, "italy", off) - worth(low, "italy", off)
        assert abs(with_term - without - 2.0 * fill * later) < 1e-9, round_number


def test_a_dam_no_conduit_links_to_an_own_powerhouse_counts_its_unconnected_share() -> None:
    weights = replace(evaluate.W, dam_unconnected=0.25)
    alone = load_position(POSITION)
    # USA's conduit C9R leads from D9L's basin to Italy's powerhouse P12_0: Italy can produce
    linked = load_position(POSITION.replace("[map]\n", '[map]\nC9R = "usa"\nP12_0 = "italy"\n'))
    # Italy's own conduit C9L, but to a powerhouse space it does not hold
    elsewhere = load_position(
        POSITION.replace("[map]\n", '[map]\nC9L = "italy"\nP12_0 = "italy"\n')
    )
    full = 2 * headstream_guess(alone, "D9L", weights)
    assert dam_capacity(linked, "italy", weights) == full
    assert dam_capacity(alone, "italy", weights) == 0.25 * full
    assert dam_capacity(elsewhere, "italy", weights) == 0.25 * full


# Round 2: HB's basin 2 flows through basin 5 into 9, where Italy has a level-2 dam on D9U.
UPSTREAM = """
[game]
turn_order = ["italy", "usa"]
phase = "actions"
round = 2
headstream_water = { HB = 2 }

[map]
D9U = { owner = "italy", level = 2 }
"""


def test_drops_waiting_on_a_headstream_count_where_they_will_stop() -> None:
    assert evaluate.waiting_drops(load_position(UPSTREAM), "italy") == 2
    assert evaluate.waiting_drops(load_position(UPSTREAM), "usa") == 0
    # (the neutral D2L on the way is full) a neutral base on D5L keeps the first drop; the
    # second flows on to Italy
    blocked = UPSTREAM + 'D5L = { owner = "neutral", level = 1 }\n'
    assert evaluate.waiting_drops(load_position(blocked), "italy") == 1
    # the term is the drops at the held weight times `waiting`, and gone with `waiting` 0
    on = replace(evaluate.W, waiting=0.5)
    off = replace(evaluate.W, waiting=0.0)
    assert "waiting" not in evaluate.worth_terms(load_position(UPSTREAM), "italy", off)
    terms = evaluate.worth_terms(load_position(UPSTREAM), "italy", on)
    assert terms["waiting"] == 0.5 * on.held * 2


def test_each_dam_built_above_a_space_scales_its_guess_by_upstream_catch() -> None:
    catch = replace(evaluate.W, upstream_catch=0.8)
    clear = load_position(UPSTREAM)  # the 2-seat setup's neutral dams: D2L is above D9U
    plain = replace(evaluate.W, upstream_catch=1.0)
    free = headstream_guess(clear, "D9U", plain)
    assert free > 0 and "D2L" in clear.state.dams
    assert abs(headstream_guess(clear, "D9U", catch) - free * 0.8) < 1e-12
    # D5U is a second dam above; D9L below D9U and D1U on another river do not count
    built = UPSTREAM + ('D5U = { owner = "usa", level = 1 }\nD1U = { owner = "usa", level = 1 }\n')
    game = load_position(built)
    assert "D9L" in game.state.dams
    assert abs(headstream_guess(game, "D9U", catch) - free * 0.8**2) < 1e-12
    assert headstream_guess(game, "D9U", plain) == free


def test_a_rivals_conduit_serves_a_system_as_one_s_own_would() -> None:
    own = load_position(POSITION.replace("[map]\n", '[map]\nC9R = "italy"\nP12_0 = "italy"\n'))
    rivals = load_position(POSITION.replace("[map]\n", '[map]\nC9R = "usa"\nP12_0 = "italy"\n'))
    best_own = systems_outlook(own, "italy")[0][0]
    assert best_own > 0
    assert systems_outlook(rivals, "italy")[0][0] == best_own
