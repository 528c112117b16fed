"""The position export states everything: it loads back, and play continues from it identically.

The golden games (tests/golden) supply whole games of every setup and expansion mix: at the
start of every player's turn the exported position must load into a game that exports the same,
asks the same and counts the same pieces; from the first turn of every round, the rest of the
game's log must replay from the loaded position with the recorded projection hashes.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from bot.rules import Game, GameOptions, PositionError, new_game
from bot.rules.position import dump_position, export_position, load_position, position_from_dict
from tests.golden import golden

NAMES = [spec.name for spec in golden.CATALOGUE]


def _turn_starts(name: str) -> Iterator[tuple[int, Game, dict[str, Any]]]:
    """(steps played, game, golden data) at the start of each action turn of a golden game."""
    data = golden.load(golden.path_of(name))
    game = new_game(golden.options_of(data))
    for index, (player, notation, _) in enumerate(data["steps"]):
        decisions = game.decisions()
        if (
            game.state.phase == "actions"
            and not game.turn_in_progress
            and [d.kind for d in decisions] == ["turn"]
        ):
            yield index, game, data
        game.apply(notation, player)


def _plain(value: Any) -> Any:
    """The value as JSON would give it back (tuples as lists)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name", NAMES)
def test_every_turn_start_round_trips_through_the_position_format(name: str) -> None:
    starts = 0
    for index, game, _data in _turn_starts(name):
        exported = export_position(game)
        assert tomllib.loads(dump_position(game)) == _plain(exported), f"step {index}"
        loaded = position_from_dict(_plain(exported))
        where = f"{name} after {index} steps"
        assert golden.canonical(export_position(loaded)) == golden.canonical(exported), where
        assert (
            golden.projection(loaded, [])["decisions"] == golden.projection(game, [])["decisions"]
        ), where
        for company in game.state.seats:
            assert loaded.company(company).placed == game.company(company).placed, where
        starts += 1
    assert starts > 30


@pytest.mark.parametrize("name", NAMES)
def test_play_continues_from_an_exported_position_as_recorded(name: str) -> None:
    rounds_seen: set[int] = set()
    for index, game, data in _turn_starts(name):
        if game.state.round in rounds_seen:
            continue
        rounds_seen.add(game.state.round)
        loaded = load_position(dump_position(game))
        for step, (player, notation, hashes) in enumerate(data["steps"][index:], index + 1):
            events = loaded.apply(notation, player)
            assert golden.step_hashes(loaded, events) == hashes, (
                f"{name}: from the position after {index} steps, step {step} ({notation!r}) "
                f"differs in {golden.differing_parts(hashes, golden.step_hashes(loaded, events))}"
            )
        assert loaded.is_over
    assert rounds_seen == {1, 2, 3, 4, 5}


FULL = '[game]\nsetup = "full"\nplayers = 3\nturn_order = ["germany", "usa", "italy"]\n'


def test_seats_may_differ_from_the_turn_order() -> None:
    game = load_position(FULL + 'seats = ["usa", "italy", "germany"]\n')
    assert game.state.seats == ["usa", "italy", "germany"]
    assert game.state.turn_order == ["germany", "usa", "italy"]
    assert [game.company(c).seat for c in game.state.seats] == [0, 1, 2]
    with pytest.raises(PositionError, match="seats and turn_order must name the same companies"):
        load_position(FULL + 'seats = ["usa", "italy", "france"]\n')


def test_the_patent_office_is_stated_and_checked() -> None:
    game = load_position(
        FULL + '[patents]\noffer = ["adv_1_base", "", "adv_2_conduit"]\n'
        'piles = { I = ["adv_1_elevation"], II = [], III = ["adv_3_base"] }\n'
    )
    assert game.state.patent_offer == ["adv_1_base", None, "adv_2_conduit"]
    assert export_position(game)["patents"]["piles"] == {
        "I": ["adv_1_elevation"],
        "II": [],
        "III": ["adv_3_base"],
    }
    with pytest.raises(PositionError, match="needs the full setup"):
        load_position('[game]\nplayers = 2\n[patents]\noffer = ["adv_1_base", "", ""]\n')
    with pytest.raises(PositionError, match="unknown technology tile 'adv_9'"):
        load_position(FULL + '[patents]\noffer = ["adv_9", "", ""]\n')
    with pytest.raises(PositionError, match="offer lists the 3 slots"):
        load_position(FULL + '[patents]\noffer = ["adv_1_base"]\n')


def test_history_rows_are_stated_and_checked() -> None:
    text = FULL + (
        "round = 2\n[[history]]\nround = 1\nenergy = { germany = 6, usa = 0, italy = 3 }\n"
        "vp = { germany = 14, usa = 10, italy = 11 }\n"
    )
    game = load_position(text)
    assert game.state.history == [
        {
            "round": 1,
            "energy": {"germany": 6, "usa": 0, "italy": 3},
            "vp": {"germany": 14, "usa": 10, "italy": 11},
        }
    ]
    assert tomllib.loads(dump_position(game))["history"] == game.state.history
    with pytest.raises(PositionError, match=r"\[\[history\]\] rows need round"):
        load_position(FULL + "[[history]]\nround = 1\n")


def test_engineers_stand_only_on_action_spaces_of_the_game() -> None:
    game = load_position(FULL + '[spaces]\nmahiri_1 = [["usa", 1]]\n')
    assert game.state.spaces["mahiri_1"] == [["usa", 1]]
    with pytest.raises(PositionError, match="external_work_1 is not an action space of this game"):
        load_position(FULL + '[spaces]\nexternal_work_1 = [["usa", 2]]\n')
    with pytest.raises(PositionError, match="'france' is not in the game"):
        load_position(FULL + '[spaces]\nbank = [["france", 2]]\n')


def test_a_pass_on_the_engineer_free_tile_lasts_its_round() -> None:
    game = load_position(FULL + "round = 3\n[company.usa]\npassed = true\n")
    assert export_position(game)["company"]["usa"]["passed"] is True
    game.company("usa").extra["passed_round"] = 2  # a pass of the round before has lapsed
    assert "passed" not in export_position(game)["company"]["usa"]


def test_expansion_tables_state_each_companys_data() -> None:
    text = (
        '[game]\nsetup = "full"\nplayers = 3\nexpansions = ["leeghwater"]\n'
        'turn_order = ["germany", "usa", "italy"]\n'
        '[leeghwater.company.usa]\nexternal_works = ["A2"]\narchitect_out = true\n'
    )
    game = load_position(text)
    exported = export_position(game)["leeghwater"]["company"]["usa"]
    assert exported == {"external_works": ["A2"], "architect_out": True}
    assert "extra" not in export_position(game)["company"]["usa"]
    with pytest.raises(PositionError, match=r"\[leeghwater.company.usa\] has unknown keys: bogus"):
        load_position(text + "bogus = 1\n")
    built = export_position(game)["leeghwater"]["built"]
    tile, row = next(iter(built.items()))
    assert row[1] == "blocked"  # RULINGS 24: at 3 players the 4-player space is blocked
    with pytest.raises(PositionError, match=f"{tile} space 0 is not blocked at 3 players"):
        load_position(text + f'[leeghwater]\nbuilt = {{ {tile} = ["blocked"] }}\n')


def test_nile_tokens_of_a_company_are_stated_in_the_nile_table() -> None:
    options = GameOptions(players=2, map="nile", expansions=("nile",), seed=4)
    game = new_game(options)
    data = _plain(export_position(game))
    assert data["nile"]["company"] == {
        company: {
            "irrigation": [],
            "irrigation_down": [],
            "irrigation_scoring": [],
            "irrigation_bonus": 0,
        }
        for company in game.state.seats
    }
    with pytest.raises(PositionError, match="has unknown keys: irrigated"):
        text = dump_position(game).replace("irrigation_bonus = 0", "irrigated = 0", 1)
        load_position(text)


def test_data_without_a_table_of_its_own_is_kept_in_extra() -> None:
    game = new_game(GameOptions(players=2, seed=1))
    game.company(game.state.seats[0]).extra["statue"] = "D1L"
    game.state.extra["toy"] = {"statues": 1}
    exported = export_position(game)
    assert exported["company"][game.state.seats[0]]["extra"] == {"statue": "D1L"}
    assert exported["extra"] == {"toy": {"statues": 1}}
    loaded = load_position(dump_position(game).replace('phase = "income"', 'phase = "actions"'))
    assert loaded.state.extra["toy"] == {"statues": 1}
    assert loaded.company(game.state.seats[0]).extra["statue"] == "D1L"


def test_draft_and_result_tables_are_export_only() -> None:
    game = new_game(GameOptions(players=2, setup="full", seed=1))
    assert export_position(game)["draft"]["order"] in ([0, 1], [1, 0])
    with pytest.raises(PositionError, match=r"\[draft\] is only exported"):
        position_from_dict(_plain(export_position(game)))


def test_toml_has_no_null() -> None:
    from bot.rules.position import toml_text

    with pytest.raises(ValueError, match="TOML has no null"):
        toml_text({"game": {"current": None}})
