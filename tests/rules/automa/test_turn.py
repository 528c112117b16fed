"""The automa's turn: each card's action list, the stop rule, every action type, the deck,
its economy and its levels (bot/rules/automa)."""

from __future__ import annotations

import pytest

from bot.rules import GameOptions, new_game
from bot.rules.automa.deck import deck_of, flip, top_card
from bot.rules.automa.play import automa_answer, pending_automa, play_automas
from bot.rules.automa.turn import card
from bot.rules.errors import PositionError
from bot.rules.position import export_position, position_from_dict
from bot.rules.replay import replay
from bot.rules.setup import SetupError
from tests.rules.automa.helpers import automa_game, done, play_turn

# On the position of a fresh introductory game (round 1, nothing built, Italy medium with
# 6 excavators, 4 mixers, the basic and wild tiles, criteria from the next card): no
# production (no system), no drops (no dam of its own), no elevation (no dam), no wheel to
# turn, so each card does its first possible construction, after clearing contracts when the
# card lists that first; card 12's conduit needs 8 excavators, so its machinery stops it.
FRESH = {
    1: ["construct"],
    2: ["construct"],
    3: ["clear_contracts", "construct"],
    4: ["construct"],
    5: ["construct"],
    6: ["construct"],
    7: ["clear_contracts", "construct"],
    8: ["clear_contracts", "construct"],
    9: ["construct"],
    10: ["construct"],
    11: ["clear_contracts", "construct"],
    12: ["clear_contracts", "gain_machinery"],
    13: ["construct"],
    14: ["construct"],
    15: ["construct"],
    16: ["clear_contracts", "construct"],
    17: ["construct"],
    18: ["construct"],
    19: ["construct"],
    20: ["construct"],
}
# With no machinery and round 5 (no machinery action), nothing built: what is left is
# clearing contracts and the Bank — every card ends on gain_vp.
BARE = "[company.italy]\nexcavators = 0\nmixers = 0\n"


@pytest.mark.parametrize("number", range(1, 21))
def test_each_card_plays_its_actions_in_order(number: int) -> None:
    game = automa_game(actions=number)
    assert done(play_turn(game)) == FRESH[number]
    clears = [a for a in card(number)["actions"] if a["type"] == "clear_contracts"]
    bare = automa_game(BARE, actions=number, game="round = 5")
    assert done(play_turn(bare)) == ["clear_contracts"] * len(clears) + ["gain_vp"]


def test_the_card_structure_is_what_the_fresh_turn_built() -> None:
    game = automa_game(actions=1, criteria=2)
    events = play_turn(game)
    build = next(e for e in events if e.kind == "automa_action")
    # Card 2's base criteria: no conduit, no own powerhouse, then red outline; tie-break
    # from basin 2.
    assert build.data["structure"] == "base" and build.data["space"] == "D2U"
    assert game.state.dams["D2U"].owner == "italy"
    assert game.company("italy").extra["automa_construction"] == 2


def test_the_turn_stops_after_a_stopping_action_and_places_the_card_s_engineers() -> None:
    # Card 3: clear green (goes on), construct base (stops: patent etc. are not reached).
    game = automa_game(actions=3)
    before = game.company("italy").engineers
    play_turn(game)
    assert game.company("italy").engineers == before - 1 - 2
    assert game.state.spaces["contracts_take1_left"] == [["italy", 1]]


def test_engineers_go_to_the_next_free_space_and_are_capped_by_those_left() -> None:
    spaces = '[spaces]\ncontracts_take1_left = [["usa", 1]]\n'
    game = automa_game(
        spaces + "[company.italy]\nexcavators = 0\nmixers = 0\nengineers = 1\n",
        actions=3,
        game="round = 5",
    )
    assert done(play_turn(game)) == ["clear_contracts"]  # its last engineer
    # At 2 players the "take1b" spaces are not in play: the next in its order is take2.
    assert game.state.spaces["contracts_take2_left"] == [["italy", 1]]
    assert game.company("italy").engineers == 0


def test_vp_cost_is_paid() -> None:
    # Card 12 in round 1: clear red, then 2 excavators for 4 VP.
    game = automa_game(actions=12)
    play_turn(game)
    assert game.company("italy").vp == 16 - 4
    assert game.company("italy").excavators == 6 + 2


# -- produce --------------------------------------------------------------------------------

SYSTEM = """
[map]
D1L = { owner = "italy", level = 2, water = 2 }
C1R = "italy"
P5_0 = "italy"
[contracts]
green = [200, 205]
yellow = [300, 301]
red = [400, 401]
"""


def test_produce_uses_all_drops_and_fulfils_the_strongest_contract_it_meets(content) -> None:
    # Card 5: produce 2 engineers, green level; 2 drops × 4 = 8 energy.
    game = automa_game(SYSTEM, actions=5)
    events = play_turn(game)
    assert done(events) == ["produce"]
    action = next(e for e in events if e.kind == "automa_action")
    assert action.data["energy"] == 8
    met = [c for c in (200, 205, 300, 301, 400, 401) if content.contracts[c].energy <= 8]
    best = max(met, key=lambda c: (content.contracts[c].energy, -c))
    assert action.data["contract"] == best
    assert game.company("italy").fulfilled == [best]
    assert game.state.dams["D1L"].water == 0
    assert game.company("italy").energy == 8
    assert game.state.spaces["turbine_plus2_left"] == [["italy", 2]]


def test_produce_needs_a_reason() -> None:
    # 8 energy already in round 1 (>= 6) and the USA has less: no reason, it goes on.
    game = automa_game(SYSTEM + "[company.italy]\nenergy = 8\n", actions=5)
    assert done(play_turn(game))[0] != "produce"
    # An opponent with as much energy gives it one.
    game = automa_game(
        SYSTEM + "[company.italy]\nenergy = 8\n[company.usa]\nenergy = 8\n", actions=5
    )
    assert done(play_turn(game)) == ["produce"]


def test_produce_needs_a_contract_of_the_card_s_level_it_can_meet(content) -> None:
    # Card 12 asks for a red contract; 8 energy meets none of the red ones → no production.
    body = SYSTEM.replace("red = [400, 401]", "red = [410, 411]")
    assert all(content.contracts[c].energy > 8 for c in (410, 411))
    game = automa_game(body, actions=12)
    assert "produce" not in done(play_turn(game))
    game = automa_game(SYSTEM, actions=12)  # 400 and 401 need 8
    assert done(play_turn(game)) == ["produce"]


def test_production_bonus_of_the_card_and_the_board() -> None:
    # Card 1: produce -2 → 8 - 2 = 6 energy.
    game = automa_game(SYSTEM, actions=1)
    events = play_turn(game)
    assert next(e for e in events if e.kind == "automa_action").data["energy"] == 6


# -- water, wheel, machinery, contracts, patents ------------------------------------------


def test_place_drops_targets_its_own_dams_in_the_card_s_headstream_order() -> None:
    # Card 1's drops (2, delayed), criteria of card 4: HD, HA, HB, HC. Italy's dam in
    # basin 8 is reached from HA (1 → 8) only; its level-1 dam holds one more drop.
    body = '[map]\nD8U = { owner = "italy", level = 2, water = 0 }\n'
    game = automa_game(body, actions=1, criteria=4, game="headstream_water = { HA = 0 }")
    events = play_turn(game)
    assert done(events)[0] == "place_drops"
    assert game.state.headstream_water["HA"] == 2
    # A dam with room for only one drop takes only one.
    body = '[map]\nD8U = { owner = "italy", level = 2, water = 1 }\n'
    game = automa_game(body, actions=1, criteria=4, game="headstream_water = { HA = 0 }")
    play_turn(game)
    assert game.state.headstream_water["HA"] == 1


def test_flowing_drops_flow_at_once() -> None:
    body = '[map]\nD8U = { owner = "italy", level = 2, water = 0 }\n'
    game = automa_game(body, actions=2, criteria=1, game="headstream_water = { HA = 0 }")
    events = play_turn(game)
    assert done(events)[0] == "place_drops"
    assert game.state.dams["D8U"].water == 1


def test_rotate_wheel_only_with_something_on_it() -> None:
    # Card 15 in round 5 without machinery: no powerhouse, patent (intro: none), no works,
    # so it turns the wheel when something is on it, and stops.
    wheel = (
        "[company.italy]\nexcavators = 0\nmixers = 0\nwheel = [{ segment = 1, excavators = 2 }]\n"
    )
    game = automa_game(wheel, actions=15, game="round = 5")
    assert done(play_turn(game)) == ["rotate_wheel"]
    assert game.company("italy").excavators == 2


def test_gain_machinery_takes_the_kind_it_has_fewer_of() -> None:
    # Card 1 without a possible construction or drops: machinery "any" for 3 VP.
    game = automa_game("[company.italy]\nexcavators = 1\nmixers = 0\n", actions=1)
    assert done(play_turn(game)) == ["gain_machinery"]
    assert (game.company("italy").excavators, game.company("italy").mixers) == (1, 1)
    assert game.company("italy").vp == 13
    # Not in the last round: it takes VP at the Bank instead.
    game = automa_game("[company.italy]\nexcavators = 1\nmixers = 0\n", actions=1, game="round = 5")
    assert done(play_turn(game)) == ["gain_vp"]


def test_clear_contracts_puts_them_under_their_pile_and_refills_the_offer() -> None:
    body = "[contracts]\ngreen = [200, 201]\ngreen_pile = [202, 203]\n"
    game = automa_game(body, actions=3)
    play_turn(game)
    assert game.state.private_offer["green"] == [202, 203]
    assert game.state.private_piles["green"] == [200, 201]
    assert game.company("italy").energy == 2


def test_patent_takes_the_highest_level_tile_for_the_structure_free() -> None:
    body = (
        '[patents]\noffer = ["adv_1_base", "adv_2_base", "adv_1_conduit"]\n'
        "piles = { I = [], II = [], III = [] }\n[company.italy]\nexcavators = 0\n"
    )
    # Card 3 in the full game: clear green, no base (no excavators), patent base.
    game = automa_game(body, actions=3, game='setup = "full"')
    assert done(play_turn(game)) == ["clear_contracts", "patent"]
    assert "adv_2_base" in game.company("italy").tiles
    assert game.state.patent_offer == ["adv_1_base", None, "adv_1_conduit"]
    assert game.company("italy").vp == 16 - 2
    assert game.state.spaces["patent_2"] == [["italy", 1]]


def test_the_automa_builds_with_its_best_tile() -> None:
    body = '[company.italy]\ntiles = ["basic_base", "adv_2_base", "adv_1_base"]\n'
    game = automa_game(body, actions=1, game='setup = "full"')
    events = play_turn(game)
    assert "Base II tile" in next(e for e in events if e.kind == "automa_action").text


# -- the deck -----------------------------------------------------------------------------


def test_flip_discards_the_flipped_card_and_reads_the_next_top_card() -> None:
    game = automa_game(actions=7, criteria=4)
    assert top_card(game.state, "italy") == 4
    actions, criteria, reshuffled = flip(game.state, "italy")
    assert (actions, criteria, reshuffled) == (7, 4, False)
    deck = deck_of(game.state, "italy")
    assert deck["flipped"] == 4 and deck["discard"] == [] and top_card(game.state, "italy") == 7
    flip(game.state, "italy")
    assert deck["discard"] == [4] and deck["flipped"] == 7


def test_an_empty_deck_takes_the_discard_reshuffled() -> None:
    game = automa_game()
    deck = deck_of(game.state, "italy")
    deck["discard"] = [c for c in range(1, 21) if c not in (9, 5)]
    deck["deck"] = [9]
    deck["flipped"] = 5
    actions, criteria, reshuffled = flip(game.state, "italy")
    assert criteria == 9 and reshuffled
    assert sorted(deck["deck"]) == sorted([c for c in range(1, 21) if c != 9])
    assert deck["discard"] == [] and actions == deck["deck"][0]
    # The order comes from the generator kept in the state: the same state, the same order.
    again = automa_game()
    other = deck_of(again.state, "italy")
    other.update(discard=[c for c in range(1, 21) if c not in (9, 5)], deck=[9], flipped=5)
    flip(again.state, "italy")
    assert other["deck"] == deck["deck"]


def test_twenty_one_turns_go_through_the_whole_deck_once() -> None:
    game = new_game(GameOptions(players=2, seed=5, automa=(1,)))
    seen = []
    while len(seen) < 21 and not game.is_over:
        decision = pending_automa(game)
        if decision is None:
            people = game.decisions()[0]
            game.apply(people.options[-1].notation, people.player)
            continue
        events = game.apply(automa_answer(game, decision).notation, decision.player)
        seen += [e.data["criteria"] for e in events if e.kind == "automa_card"]
    assert sorted(seen[:20]) == list(range(1, 21))


# -- economy and levels ------------------------------------------------------------------------


def test_an_automa_starts_with_16_vp_no_credits_no_contract() -> None:
    game = new_game(GameOptions(players=3, seed=2, automa=(1, 3)))
    humans, *automas = game.state.seats
    assert game.company(humans).vp == 10 and game.company(humans).contracts
    for company in automas:
        assert game.company(company).vp == 16
        assert game.company(company).credits == 0
        assert game.company(company).contracts == []
    assert game.automa_level(automas[0]) == 1 and game.automa_level(humans) is None


def test_credits_it_would_gain_become_vp_and_it_pays_none() -> None:
    game = automa_game()
    events = []
    game.gain("italy", "credits", 5, "test")
    game.gain("italy", "credits", -3, "test")
    events = game.events
    assert game.company("italy").credits == 0 and game.company("italy").vp == 21
    assert [(e.kind, e.amount) for e in events if e.company == "italy"] == [("vp", 5)]


def test_easy_takes_no_income_and_no_production_bonus_medium_does() -> None:
    # Italy with 2 bases uncovered its first base income; with 2 powerhouses +1 bonus.
    body = """
[map]
D1L = { owner = "italy", level = 2, water = 2 }
D5U = { owner = "italy" }
C1R = "italy"
P5_0 = "italy"
P6_0 = "italy"
[contracts]
green = [200, 205]
"""
    medium = automa_game(body, actions=5, level="medium")
    easy = automa_game(body, actions=5, level="easy")
    energy = {
        name: next(e for e in play_turn(g) if e.kind == "automa_action").data["energy"]
        for name, g in (("medium", medium), ("easy", easy))
    }
    assert energy == {"medium": 9, "easy": 8}
    for game, paid in ((medium, True), (easy, False)):
        game.state.stack[:] = [{"kind": "round_start", "stop": True}]
        events = game.advance()
        incomes = [e for e in events if e.company == "italy" and e.source.startswith("income")]
        assert bool(incomes) == paid


def test_hard_has_its_company_ability_and_expert_its_officer_s() -> None:
    body = '[map]\nP5_0 = "italy"\nP6_0 = "italy"\nP7_0 = "italy"\n'
    for level, ability, officer in (
        ("easy", False, False),
        ("medium", False, False),
        ("hard", True, False),
        ("expert", True, True),
    ):
        game = automa_game(body, level=level)
        assert game.ability_active("italy") is ability
        officer_id = game.company("italy").officer
        assert game.has_officer_power("italy", officer_id) is officer
    # A person's abilities never depend on it.
    game = automa_game('[map]\nP5_0 = "usa"\nP6_0 = "usa"\nP7_0 = "usa"\n')
    assert game.ability_active("usa")


def test_the_objective_tile_pays_an_automa_20_15_10() -> None:
    body = '[map]\nD1U = { owner = "italy" }\nD2U = { owner = "usa" }\nD3U = { owner = "usa" }\n'
    game = automa_game(body, game='phase = "end"\nobjective = "red_outlined_spaces"\nround = 5')
    awards = {
        e.company: e.amount
        for e in game.events
        if e.kind == "vp" and e.source.startswith("objective")
    }
    assert awards["usa"] == game.content.objective_vp_by_place[0]
    assert awards["italy"] == 15


# -- setups, the draft, refusals, records ------------------------------------------------------


def test_automas_draft_the_first_pair_dealt_and_take_no_starting_contract() -> None:
    game = new_game(GameOptions(players=3, seed=11, setup="full", automa=(1, 2)))
    draft = game.state.extra["draft"]
    while game.state.phase == "draft":
        decision = game.decisions()[0]
        if game.automa_level(decision.player) is not None:
            first = draft["pairs"][0]
            answer = automa_answer(game, decision)
            assert answer.notation == f"pick {first[0]}"
            game.apply(answer.notation, decision.player)
        else:
            game.apply(decision.options[0].notation, decision.player)
    for company in game.state.seats[1:]:
        assert game.company(company).contracts == []
        assert game.automa_level(company) is not None
    assert game.company(game.state.seats[0]).contracts


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (GameOptions(players=4, automa=(1, 1, 1, 1)), "at most 3 automas"),
        (GameOptions(players=3, automa=(4,)), "automa levels"),
        (
            GameOptions(players=2, setup="full", expansions=("colorado",), automa=(1,)),
            "cannot be played with automas",
        ),
        (
            GameOptions(players=2, setup="full", expansions=("nile",), automa=(1,)),
            "cannot be played with automas",
        ),
    ],
)
def test_refused_combinations_say_why(options: GameOptions, words: str) -> None:
    with pytest.raises(SetupError, match=words):
        new_game(options)


def test_automa_answers_are_records_that_replay_exactly() -> None:
    options = GameOptions(players=2, seed=4, automa=(2,))
    game = new_game(options)
    log = []
    for _ in range(40):
        for player, notation, _events in play_automas(game):
            log.append({"kind": "decision", "notation": notation, "player": player})
        if game.is_over:
            break
        decision = game.decisions()[0]
        option = decision.options[len(decision.options) // 2]
        game.apply(option.notation, decision.player)
        log.append({"kind": "decision", "notation": option.notation, "player": decision.player})
    assert any(record["notation"] == "automa" for record in log)
    assert replay(options, log).state.to_json() == game.state.to_json()


def test_the_automa_turn_is_never_applied_by_the_engine_itself() -> None:
    game = automa_game()
    decision = game.decisions()[0]
    assert decision.kind == "automa_turn" and [o.notation for o in decision.options] == ["automa"]


def test_a_position_states_the_automa_seats_and_decks_and_loads_back() -> None:
    game = automa_game(actions=6, criteria=2, level="hard")
    play_turn(game)
    exported = export_position(game)
    assert exported["game"]["automa"] == ["hard"]
    assert exported["automa"]["italy"]["flipped"] == 2
    again = position_from_dict(exported)
    assert export_position(again) == exported
    broken = dict(exported, automa={"italy": {"deck": [1, 2], "discard": [], "flipped": 0}})
    with pytest.raises(PositionError, match="each of the 20 cards once"):
        position_from_dict(broken)
