"""The search's extensions stop where their budget's horizon says."""

from __future__ import annotations

from pytest import MonkeyPatch

from bot.ai.advice import Advice
from bot.ai.search import BUDGETS, QUICK, Budget, choose, played_out, seat_decision
from bot.rules import Game, GameOptions, new_game
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.prng import SplitMix64


def ai_turn(seed: int, own_turns: int) -> tuple[Game, int]:
    """A game against the Medium automa after the AI seat's first `own_turns` decisions
    (played greedily), at the AI seat's next decision."""
    game = new_game(GameOptions(players=2, seed=seed, setup="intro", automa=(1,)))
    taken = 0
    while True:
        decision = game.decisions()[0]
        if game.automa_level(decision.player) is not None:
            game.apply(automa_answer(game, decision).notation, decision.player)
            continue
        seat = player_seat(game.state, decision.player)
        assert seat is not None
        if taken >= own_turns and len(decision.options) > 1:
            return game, seat
        game.apply(QUICK(game, seat, decision).notation, decision.player)
        taken += 1


def test_an_extension_plays_the_seat_s_next_step_on_a_copy() -> None:
    game, seat = ai_turn(5, 2)
    decision = seat_decision(game, seat)
    assert decision is not None and game.state.phase == "actions"
    start, applied = game.state.round, game.state.decisions
    option = decision.options[0]
    plain = played_out(game, seat, option, decision.player, SplitMix64(1), Budget(8, 1))
    assert plain.state.round == start  # one own step more: still the same round
    assert plain.state.decisions > applied + 1  # the option, the replies, the next step
    again = played_out(game, seat, option, decision.player, SplitMix64(1), Budget(8, 1))
    assert again.state.decisions == plain.state.decisions  # the same world, the same playout
    assert (game.state.round, game.state.decisions) == (start, applied)  # never touched


def test_crowded_tables_search_their_own_number_of_worlds(monkeypatch: MonkeyPatch) -> None:
    """`crowded` worlds with 3 or more seats (the same first worlds as `samples` draws), and
    `samples` worlds with 2."""

    def answer(game: Game, seat: int, budget: Budget) -> Advice:
        monkeypatch.setitem(BUDGETS, "strong", budget)
        return choose(game, seat, "strong", 11)

    for players, same_as in ((4, 1), (2, 2)):
        options = GameOptions(players=players, seed=17, setup="intro", automa=(1,) * (players - 1))
        game = new_game(options)
        decision = game.decisions()[0]
        while (
            len(decision.options) < 3
            or game.state.turn_open
            or game.automa_level(decision.player) is not None
        ):
            if game.automa_level(decision.player) is not None:
                game.apply(automa_answer(game, decision).notation, decision.player)
            else:
                game.apply(decision.options[0].notation, decision.player)
            decision = game.decisions()[0]
        found = player_seat(game.state, decision.player)
        assert found is not None
        mixed = answer(game, found, Budget(extend=3, samples=2, crowded=1))
        assert mixed == answer(game, found, Budget(extend=3, samples=same_as))
    assert found is not None
    assert mixed != answer(game, found, Budget(extend=3, samples=1))  # two worlds do differ


def test_one_lap_judges_an_option_ending_the_seat_s_round_within_that_round() -> None:
    """All the seat's engineers on the Bank: the plain horizon runs on to the next round's
    first step (engineers refilled); `one_lap` stops after one turn of the other seat."""
    game, seat = ai_turn(5, 10)
    decision = seat_decision(game, seat)
    assert decision is not None and decision.find("bank") is not None
    game.apply("bank", decision.player)
    decision = seat_decision(game, seat)
    assert decision is not None and decision.kind == "bank"
    everyone = decision.options[-1]  # the most engineers
    start = game.state.round
    mine = game.state.seats[seat]
    (other,) = (company for company in game.state.companies if company != mine)
    before = game.state.companies[other].engineers
    plain = played_out(game, seat, everyone, decision.player, SplitMix64(1), Budget(8, 1))
    assert plain.state.round == start + 1  # judged in the next round, engineers in hand
    assert plain.state.companies[mine].engineers > 0
    lap = played_out(
        game, seat, everyone, decision.player, SplitMix64(1), Budget(8, 1, one_lap=True)
    )
    assert lap.state.round == start and lap.state.phase == "actions"
    assert lap.state.companies[mine].engineers == 0
    left = lap.state.companies[other].engineers
    assert 0 < before - left <= 3  # one turn of the other seat (1 to 3 engineers), no more
