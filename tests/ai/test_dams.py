"""Own dams in the evaluation: a base or elevation is capacity for every later round."""

from __future__ import annotations

from dataclasses import replace

from bot.ai import evaluate
from bot.ai.evaluate import dam_capacity, headstream_guess, worth
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
