"""The company ability in the evaluation: counted from the powerhouse that unlocks it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.ai import evaluate
from bot.ai.evaluate import ABILITY_ENERGY, ability_worth, worth_terms
from bot.rules.position import load_position

HOUSES = ("P12_0", "P11_0", "P10_0")


def _italy_with(houses: int, round_number: int = 2, automa: str = "") -> str:
    """A position in `round_number` where Italy has built this many powerhouses."""
    game = f'[game]\nturn_order = ["usa", "italy"]\nphase = "actions"\nround = {round_number}\n'
    if automa:
        game += f'automa = ["{automa}"]\n'
    built = "".join(f'{space} = "italy"\n' for space in HOUSES[:houses])
    return game + "\n[map]\n" + built


ON = replace(evaluate.W, ability=0.6)


@pytest.mark.parametrize(("houses", "share"), [(3, 1.0), (2, 0.45), (1, 0.15), (0, 0.0)])
def test_the_ability_counts_whole_once_unlocked_and_in_part_a_powerhouse_or_two_away(
    houses: int, share: float
) -> None:
    game = load_position(_italy_with(houses))
    assert game.company("italy").placed["powerhouse"] == houses
    later = evaluate.rounds_after(game)
    assert later == 3
    expected = share * ABILITY_ENERGY["italy_plus3_energy"] * 0.6 * later
    assert ability_worth(game, game.company("italy"), later, ON) == pytest.approx(expected)


def test_the_ability_is_worth_nothing_after_the_last_round_or_when_the_weight_is_off() -> None:
    last = load_position(_italy_with(3, round_number=5))
    assert ability_worth(last, last.company("italy"), evaluate.rounds_after(last), ON) == 0.0
    game = load_position(_italy_with(3))
    assert "ability" in worth_terms(game, "italy", ON)
    assert "ability" not in worth_terms(game, "italy", replace(ON, ability=0.0))


def test_an_automa_below_hard_has_no_ability_to_count() -> None:
    medium = load_position(_italy_with(3, automa="medium"))
    expert = load_position(_italy_with(3, automa="expert"))
    for game in (medium, expert):
        assert game.automa_level("italy") is not None
    assert ability_worth(medium, medium.company("italy"), 3, ON) == 0.0
    assert ability_worth(expert, expert.company("italy"), 3, ON) > 0.0
