"""The water forecast: it follows the engine's flow, and the evaluation judges dams by it."""

from __future__ import annotations

import dataclasses

from bot.ai import evaluate
from bot.ai.evaluate import spill_loss, systems_outlook, worth
from bot.ai.water import flows, forecast
from bot.rules.engine import Game
from bot.rules.position import load_position
from bot.rules.water import flow_from_headstream

# Tiles 4 ([1, 1, 1, 1]) on every headstream. USA's dam of 3 on D2U catches all of HB's water,
# so nothing reaches basin 5 (D5U) below it; HC's water runs free into basin 3, then basin 6.
# Italy has a conduit out of each of basins 5 and 6, each to its own powerhouse: C5R makes 4 a
# drop (to P10_0), C6R only 2 (to P7_0).
POSITION = """
[game]
headstream_tiles = {{ HA = 4, HB = 4, HC = 4, HD = 4 }}
players = 2
round = 2
headstream_water = {{ HA = 1, HB = 1, HC = 1, HD = 1 }}
seed = 3
phase = "actions"
turn_order = ["italy", "usa"]

[map]
D2U = {{ owner = "usa", level = 3, water = 0 }}
C5R = "italy"
P10_0 = "italy"
C6R = "italy"
P7_0 = "italy"
{extra}
"""


def position(extra: str = "") -> Game:
    """The stated position, with `extra` lines in its [map] table."""
    return load_position(POSITION.format(extra=extra))


def test_the_first_forecast_flow_is_the_engine_s_water_flow() -> None:
    game = position('D5U = { owner = "italy", level = 1, water = 0 }\nD3L = { owner = "usa" }')
    ahead = forecast(game)
    before = game.water_levels()
    for headstream in game.map.headstreams:
        for _ in range(game.state.headstream_water.get(headstream, 0)):
            flow_from_headstream(game, headstream, "test")
    after = game.water_levels()
    engine = {
        space: after[space] - before[space] for space in after if after[space] != before[space]
    }
    assert ahead.caught[0] == engine
    assert ahead.rounds == 3  # rounds 2, 3 and 4 flow; rounds 3, 4 and 5 produce


def test_the_forecast_covers_the_flows_that_feed_a_production() -> None:
    game = position()
    assert flows(game) == [dict.fromkeys(("HA", "HB", "HC", "HD"), 1)] * 3
    game.state.round = 5
    assert flows(game) == []  # the last round's flow feeds no production


def test_a_dam_below_another_company_s_full_capture_counts_no_water() -> None:
    ahead = forecast(position())
    assert all(reach.get("D5U", 0) == 0 for reach in ahead.reach)
    assert all(reach.get("D6U", 0) == 1 for reach in ahead.reach)


def test_a_dam_where_the_water_reaches_is_preferred_to_a_better_conduit_without_water() -> None:
    # The guess from headstreams above (water_mode 0) sees one headstream above each basin
    # and prefers D5U for its better conduit; the forecast's modes see D5U stay dry.
    dry = position('D5U = { owner = "italy", level = 1 }')
    wet = position('D6U = { owner = "italy", level = 1 }')
    for mode in (1, 2, 3):
        weights = dataclasses.replace(evaluate.W, water_mode=mode)
        assert worth(wet, "italy", weights) > worth(dry, "italy", weights), mode
        best = [systems_outlook(g, "italy", weights=weights)[0][0] for g in (wet, dry)]
        assert best[0] > best[1], mode
    old = dataclasses.replace(evaluate.W, water_mode=0)
    assert worth(dry, "italy", old) > worth(wet, "italy", old)


def test_two_dams_on_one_river_share_its_water() -> None:
    # Basin 3 runs into basin 6: HC's one drop a round is caught by D3L, none is left for D6U
    # (the headstream guess counted HC's water for both).
    game = position('D3L = { owner = "italy", level = 1 }\nD6U = { owner = "italy", level = 1 }')
    for caught in forecast(game).caught:
        assert caught.get("D3L", 0) == 1 and caught.get("D6U", 0) == 0


def test_water_held_in_a_full_dam_at_the_flow_is_lost_energy() -> None:
    # Italy's D4L (1 drop, full) under HD, which brings a drop at this round's Water Flow:
    # held, that drop passes it (3 energy through C4L); produced now, the dam catches it.
    held = position('D4L = { owner = "italy", level = 1, water = 1 }\nC4L = "italy"')
    dry = position('D4L = { owner = "italy", level = 1, water = 0 }\nC4L = "italy"')
    assert spill_loss(held, "italy", forecast(held)) == 3
    assert spill_loss(dry, "italy", forecast(dry)) == 0
    weights = dataclasses.replace(evaluate.W, spill=0.5)
    base = dataclasses.replace(evaluate.W, spill=0.0)
    assert worth(held, "italy", weights) == worth(held, "italy", base) - 1.5
    held.state.phase = "scoring"  # the round flowed: nothing held meets its water any more
    assert spill_loss(held, "italy", forecast(held)) == 0
