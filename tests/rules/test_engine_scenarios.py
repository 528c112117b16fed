"""Scenario tests in the position format, from the worked examples of the base rulebook.

Company names stand in for the rulebook's players: Paul (red) = USA, Joanna (black) =
Germany, Sophia (white) = France, Viktor (green) = Italy.
"""

from __future__ import annotations

from bot.rules.flow import next_turn_order, objective_awards, placement_awards
from bot.rules.position import load_position

FOUR = 'players = 4\nturn_order = ["usa", "germany", "france", "italy"]\n'


def vp_by(events, source_prefix: str) -> dict[str, int]:
    """VP gained per company from events whose source starts with a prefix."""
    out: dict[str, int] = {}
    for event in events:
        if event.kind == "vp" and event.source.startswith(source_prefix):
            out[event.company] = out.get(event.company, 0) + event.amount
    return out


def test_water_flow_example_drops_1_to_5() -> None:
    """Drops 1-2 pass a full level-1 dam; the plains dam keeps one; 3-5 fill three dams."""
    game = load_position(
        """
        [game]
        players = 2
        turn_order = ["usa", "italy"]
        phase = "water_flow"
        run = "phase"
        headstream_water = { HA = 2, HB = 3 }
        [map]
        D1L = { owner = "neutral", level = 1, water = 1 }
        D8L = { owner = "neutral", level = 3, water = 2 }
        D2U = { owner = "usa", level = 2, water = 1 }
        D5U = { owner = "italy", level = 1, water = 0 }
        D5L = { owner = "neutral", level = 2, water = 1 }
        """
    )
    flows = [e.data for e in game.events if e.kind == "water"]
    assert [(f["stopped_at"], f["exit"]) for f in flows] == [
        ("D8L", None),  # drop 1: captured by the plains level-3 dam
        (None, "EXIT_L"),  # drop 2: overflows and leaves the map
        ("D2U", None),  # drop 3: the mountains level-2 dam
        ("D5U", None),  # drop 4: the upper hills dam
        ("D5L", None),  # drop 5: the lower level-2 neutral dam
    ]
    assert game.state.dams["D1L"].water == 1
    assert sum(game.state.headstream_water.values()) == 0


def scoring_position(energies: dict[str, int], extra: str = "") -> str:
    lines = "\n".join(f"[company.{cid}]\nenergy = {energy}" for cid, energy in energies.items())
    return f'[game]\n{FOUR}phase = "scoring"\nrun = "phase"\n{extra}\n{lines}\n'


def test_first_and_second_place_with_a_tie_for_second() -> None:
    """Paul leads (6 VP); Joanna and Sophia tie for second (1 VP each); Viktor has 0."""
    game = load_position(scoring_position({"usa": 9, "germany": 5, "france": 5, "italy": 0}))
    assert vp_by(game.events, "scoring:energy-placement") == {"usa": 6, "germany": 1, "france": 1}


def test_tie_for_first_shares_eight_rounded_up() -> None:
    assert placement_awards({"a": 7, "b": 7, "c": 3}, 6, 2) == {"a": 4, "b": 4}
    assert placement_awards({"a": 7, "b": 7, "c": 7}, 6, 2) == {"a": 3, "b": 3, "c": 3}
    assert placement_awards({"a": 7, "b": 4}, 6, 2) == {"a": 6, "b": 2}
    assert placement_awards({"a": 0, "b": 0}, 6, 2) == {}


def test_energy_track_credits_and_the_zero_space_penalty() -> None:
    """Paul gains 4 credits, Joanna and Sophia 3; Viktor 3 credits but loses 3 VP."""
    game = load_position(scoring_position({"usa": 9, "germany": 5, "france": 5, "italy": 0}))
    credits = {
        e.company: e.amount
        for e in game.events
        if e.kind == "credits" and e.source == "scoring:energy-track"
    }
    assert credits == {"usa": 4, "germany": 3, "france": 3, "italy": 3}
    assert vp_by(game.events, "scoring:energy-track") == {"italy": -3}


def test_energy_past_30_counts_as_30_for_credits() -> None:
    game = load_position(scoring_position({"usa": 41, "germany": 30, "france": 1, "italy": 2}))
    credits = {
        e.company: e.amount
        for e in game.events
        if e.kind == "credits" and e.source == "scoring:energy-track"
    }
    assert credits["usa"] == credits["germany"] == 8
    # First place uses the true totals (RULINGS 5).
    assert vp_by(game.events, "scoring:energy-placement")["usa"] == 6


def test_bonus_tile_example_sophia_viktor_joanna_paul() -> None:
    """Round 3, 5 VP per powerhouse: full 10, reduced 11, reduced to 0, and no reward."""
    extra = (
        'round = 3\nbonus_tiles = ["bases", "conduits", "powerhouses", "elevations", "contracts"]\n'
        "[map]\n"
        'P5_0 = "france"\nP6_0 = "france"\n'
        'P5_1 = "italy"\nP6_1 = "italy"\nP7_0 = "italy"\n'
        'P8_0 = "germany"\n'
        'P9_0 = "usa"\nP10_0 = "usa"\nP7_1 = "usa"\n'
    )
    energies = {"france": 20, "italy": 14, "germany": 8, "usa": 5}
    game = load_position(scoring_position(energies, extra))
    assert vp_by(game.events, "bonus:powerhouses") == {"france": 10, "italy": 11}
    texts = {e.company: e.text for e in game.events if e.kind == "bonus_tile"}
    assert "reduced by 8" in texts["germany"]
    assert "no reward" in texts["usa"]


def test_turn_order_least_energy_first_and_ties_inverted() -> None:
    """Viktor produced least and goes first; Paul most and goes last; the tied pair switch."""
    order = ["usa", "germany", "france", "italy"]
    energies = {"usa": 9, "germany": 5, "france": 5, "italy": 2}
    assert next_turn_order(order, energies) == ["italy", "france", "germany", "usa"]


def test_end_of_round_updates_turn_order_and_returns_engineers() -> None:
    game = load_position(
        f"""
        [game]
        {FOUR}
        phase = "end_of_round"
        run = "phase"
        [company.usa]
        energy = 9
        engineers = 7
        [company.germany]
        energy = 5
        engineers = 10
        [company.france]
        energy = 5
        [company.italy]
        energy = 2
        engineers = 9
        construction_spaces_used = 2
        [spaces]
        turbine_plus2_left = [["usa", 2]]
        bank = [["usa", 3], ["germany", 2]]
        """
    )
    assert game.state.turn_order == ["italy", "france", "germany", "usa"]
    assert game.state.round == 2
    assert {cid: c.engineers for cid, c in game.state.companies.items()} == dict.fromkeys(
        ["usa", "germany", "france", "italy"], 12
    )
    assert all(c.energy == 0 for c in game.state.companies.values())
    assert game.state.spaces == {}


def test_objective_ties_split_the_places_they_occupy() -> None:
    # Two tied for first share 15 + 10; the next is third.
    assert objective_awards({"a": 5, "b": 5, "c": 3, "d": 1}, (15, 10, 5)) == {
        "a": 13,
        "b": 13,
        "c": 5,
        "d": 0,
    }
    # RULINGS 7: two tied for third in a 4-player game get (5 + 0) / 2, rounded up.
    assert objective_awards({"a": 5, "b": 4, "c": 2, "d": 2}, (15, 10, 5)) == {
        "a": 15,
        "b": 10,
        "c": 3,
        "d": 3,
    }
    # Three tied for first share 30.
    assert objective_awards({"a": 1, "b": 1, "c": 1}, (15, 10, 5)) == {"a": 10, "b": 10, "c": 10}


def test_end_of_game_objective_resources_and_water() -> None:
    game = load_position(
        """
        [game]
        players = 2
        turn_order = ["usa", "italy"]
        round = 5
        phase = "end"
        objective = "basins_with_one"
        [company.usa]
        credits = 12
        excavators = 2
        mixers = 0
        energy = 4
        [company.italy]
        credits = 3
        excavators = 1
        mixers = 0
        energy = 6
        [map]
        D5U = { owner = "usa", level = 2, water = 2 }
        C1L = "usa"
        D8L = { owner = "italy", level = 1, water = 1 }
        D6L = { owner = "neutral", level = 2, water = 2 }
        """
    )
    assert vp_by(game.events, "objective:") == {"usa": 15, "italy": 10}
    assert vp_by(game.events, "end:resources") == {"usa": 2}  # 14 // 5; italy 4 // 5 = 0
    assert vp_by(game.events, "end:water") == {"usa": 2, "italy": 1}  # neutral dams score nobody
    ranking = game.state.result["ranking"]
    assert ranking[0]["company"] == "usa"


def test_tie_on_vp_is_broken_by_last_round_energy() -> None:
    game = load_position(
        """
        [game]
        players = 2
        turn_order = ["usa", "italy"]
        round = 5
        phase = "end"
        objective = "basins_with_three"
        [company.usa]
        vp = 40
        credits = 0
        excavators = 0
        mixers = 0
        energy = 4
        [company.italy]
        vp = 40
        credits = 0
        excavators = 0
        mixers = 0
        energy = 9
        """
    )
    ranking = game.state.result["ranking"]
    assert [r["company"] for r in ranking] == ["italy", "usa"]
    assert [r["place"] for r in ranking] == [1, 2]
