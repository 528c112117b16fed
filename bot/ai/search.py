"""Choosing a move: every legal option played out to the end of the seat's step and judged.

See the package docstring for the design and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.advice import Advice
from bot.ai.determinize import copy_game, determinized
from bot.ai.evaluate import margin
from bot.rules.actions import TURN_KINDS
from bot.rules.automa.play import automa_answer
from bot.rules.automa.seats import player_seat
from bot.rules.engine import Game
from bot.rules.flow import ACTIONS_PHASE
from bot.rules.options import Decision, Option
from bot.rules.prng import SplitMix64

CONFIRM = "confirm"
MAX_STEP = 40  # decisions of one step followed at most (a turn has a handful)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one level spends on a decision."""

    extend: int  # the best options so far searched on through the seat's next step
    samples: int  # determinizations each extended option is played in
    steps: int = 1  # the seat's own later steps played in an extension (each after replies)
    replies: str = "cheap"  # how other non-automa seats answer in an extension: cheap, greedy
    refine: int = 0  # the best extended options then played in `more` further determinizations
    more: int = 0
    finish: str = "greedy"  # how the first pass completes each option's step: greedy, cheap
    # Worlds per extended option with three or more companies (0: `samples`): the others'
    # replies there make a world cost about twice a two-seat one's.
    crowded: int = 0
    # An extension begun in the actions phase gives the others one turn each at most, and
    # ends with the phase (before the Water Flow and the scoring). Without it, an option that
    # ends the seat's round (the Bank, its last engineers) ran through the others' remaining
    # turns, the scoring and the next income to the seat's first step of the next round, with
    # that round's engineers in hand, and was compared with options judged after one reply
    # within this round: the Bank won with 10 engineers left (seed 14097, round 3).
    one_lap: bool = False


# Measured against the Medium automa (2 seats, intro, the same first seeds; mean VP margin
# of the default budget in brackets): 2 own steps −30 (−2, 5 games), a closing reply −33
# with 0 own steps (−4, 6 games) and −37 with 1 (−3, 2 games), successive halving 3 of 8 on
# 2 more worlds −8 (−1, 3 games), 3 worlds each −27 (−15, 5 games, an earlier evaluation):
# with this evaluation the horizon ending after the seat's own next step judges best.
# Measured again with 100 paired games a run (bench/ai.py --only medium, seeds 9000+ and
# 9500+, both seat orders; difference to samples=1 on the same seeds):
# - samples=2: +5.4 +- 6.2 and +1.1 +- 6.8 VP, together +3.3 +- 4.6 over 200 games, wins
#   46.0 % against 38.8 %; CPU 0.17 s a decision (p95 0.42), a turn p95 0.95 s: kept;
# - an extension closed by the others' replies to the seat's last step: -5.6 +- 7.3 over 100;
#   one run to the round's end (up to 6 own steps): -16.7 over 10 (stopped); the knobs for
#   both, and one for a horizon after the seat's first production (never measured), removed;
# - steps=2 with samples=1 (about the same CPU; in a decision looked at, seed 9001 round 4,
#   both worlds gave each of the 12 options searched the same value, the automa's flipped
#   card being public): -13.9 +- 12.0 over 44 (stopped), wins 13.0 against 21.0.
# Not played out, as they change few decisions (one game against Medium, each decision of the
# default's game asked again): samples=3 changed 1 of 90 (seed 9001); the best of every option
# extended lay outside the first pass's 8 best in 1 of 25 decisions with more than 8 options
# (seed 9002), so extend=12 or a wider first decision could change about as few.
# At 3-4 seats a world costs about twice a two-seat one (the others' replies), and 4-seat
# tables already ran at 0.30 s a decision (p95 0.92): they keep one world (`crowded`).
BUDGETS = {
    "casual": Budget(extend=0, samples=0, finish="cheap"),
    # Greedy replies for other AI and people seats: 4 seats, first 60 decisions of seed 6000,
    # mean 0.41 -> 1.16 s, p95 1.1 -> 3.1 s a decision (over the 0.6 / 2 s limits).
    # one_lap measured, strong vs Medium, paired with it off (100 games a seed set): seeds
    # 14000+ +2.2 +- 4.4 VP (45 games unchanged), wins 46.0 -> 47.5; 15000+ +0.4 +- 3.6 (34
    # unchanged), wins 44.5 -> 43.5; against Expert (intro, seeds 11000+) +1.1 +- 4.2 (44
    # unchanged), wins 35.5 -> 35.5. On for the comparisons it makes right (`Budget.one_lap`),
    # with no gain in wins to show (+1.2 VP over the 300 games). With engineer 0.6 as well:
    # -1.7 +- 6.7 VP against one_lap alone (14000+), wins 46.0 -> 42.5. Twice the work with
    # it (extend=12, samples=3: 0.23 s a decision, p95 0.66 s): +1.9 +- 7.6 VP over 96 games
    # paired with one_lap alone (14000+), wins 45.5 -> 40.5, so more search does not pay yet.
    # steps=2 with one_lap (the seat's step after next, after the others' replies; 0.18-0.23 s
    # a decision, p95 0.45-0.56 s, a turn p95 1.0-1.25 s): seeds 18000+ +1.7 +- 7.4 VP over
    # 100 games paired with steps=1, wins 44.0 -> 52.0; with the ability term, on fresh seeds
    # 19000+, -4.3 +- 7.2 against it alone, wins 50.5 -> 45.5: no gain.
    "strong": Budget(extend=8, samples=2, crowded=1, one_lap=True),
}


def seat_decision(game: Game, seat: int) -> Decision | None:
    """The pending decision of this seat, or None."""
    for decision in game.decisions():
        if player_seat(game.state, decision.player) == seat:
            return decision
    return None


def decision_seed(ai_seed: int, game: Game, seat: int) -> int:
    """The generator seed of one decision: the AI seed and the public history (how many
    decisions were applied), never the setup seed or anything hidden."""
    mixer = SplitMix64(ai_seed)
    mixer.state ^= game.state.decisions * 0x9E3779B1 + seat * 0x85EBCA77
    return mixer.next64()


def value_of(game: Game, seat: int) -> float:
    """The evaluation for this seat's company (0 before the draft gives it one)."""
    company = game.state.seats[seat] if seat < len(game.state.seats) else None
    if company is None or company not in game.state.companies:
        return 0.0
    return margin(game, company)


Policy = Callable[[Game, int, Decision], Option]


def finish_step(game: Game, seat: int, policy: Policy) -> None:
    """Answer this seat's decisions by `policy` until its step ends (its Confirm, or another
    player's decision)."""
    for _ in range(MAX_STEP):
        if game.is_over:
            break
        decision = seat_decision(game, seat)
        if decision is None:
            break
        option = decision.options[0] if len(decision.options) == 1 else policy(game, seat, decision)
        game.apply(option.notation, decision.player)
        if option.notation == CONFIRM or decision.simultaneous:
            break


def confirm_only(game: Game, seat: int, decision: Decision) -> Option:
    """Confirm when it is offered, else the first option (the cheapest completion)."""
    return decision.find(CONFIRM) or decision.options[0]


def scored(game: Game, seat: int, decision: Decision, then: Policy) -> list[float]:
    """Each option's evaluation once applied on a copy and the step finished by `then`."""
    values = []
    for option in decision.options:
        trial = copy_game(game)
        trial.apply(option.notation, decision.player)
        if option.notation != CONFIRM and not decision.simultaneous:
            finish_step(trial, seat, then)
        values.append(value_of(trial, seat))
    return values


def greedy(then: Policy) -> Policy:
    """The policy taking the option whose step, finished by `then`, evaluates best."""

    def policy(game: Game, seat: int, decision: Decision) -> Option:
        if decision.find(CONFIRM) and len(decision.options) == 1:
            return decision.options[0]
        values = scored(game, seat, decision, then)
        best = max(range(len(values)), key=lambda i: (values[i], -i))
        return decision.options[best]

    return policy


QUICK = greedy(confirm_only)


def others_until_mine(game: Game, seat: int, replies: str, lap: bool = False) -> bool:
    """Answer the other seats' decisions (automas by their rules, people and AIs by the
    cheapest completion, or greedily for their own seat when `replies` is "greedy") until
    this seat decides again; False when the game ended first, or (with `lap`) the actions
    phase, or another seat would begin its second turn."""
    begun: set[str] = set()
    for _ in range(400):
        if game.is_over:
            return False
        if lap and game.state.phase != ACTIONS_PHASE:
            return False
        if seat_decision(game, seat) is not None:
            return True
        decision = game.decisions()[0]
        if lap and decision.kind in TURN_KINDS:
            if decision.player in begun:
                return False
            begun.add(decision.player)
        if game.automa_level(decision.player) is not None:
            option = automa_answer(game, decision)
        elif replies == "greedy" and len(decision.options) > 1:
            other = player_seat(game.state, decision.player)
            assert other is not None
            option = QUICK(game, other, decision)
        else:
            option = confirm_only(game, seat, decision)
        game.apply(option.notation, decision.player)
    return False


def played_out(
    game: Game, seat: int, option: Option, player: str, rng: SplitMix64, budget: Budget
) -> Game:
    """A fresh determinization of `game` after this option, the rest of the step, then at
    most `budget.steps` times the others' replies and the seat's next step (each played
    greedily), stopped early, with `one_lap`, when the actions phase ends or another seat
    would take a second turn before the seat's next one."""
    trial = determinized(game, rng)
    lap = budget.one_lap and trial.state.phase == ACTIONS_PHASE
    trial.apply(option.notation, player)
    if option.notation != CONFIRM:
        finish_step(trial, seat, QUICK)
    for _ in range(budget.steps):
        if not others_until_mine(trial, seat, budget.replies, lap):
            return trial  # the game or the actions phase ended
        finish_step(trial, seat, QUICK)
    return trial


def extended(
    game: Game, seat: int, option: Option, player: str, rng: SplitMix64, budget: Budget
) -> float:
    """The evaluation of the option's playout (`played_out`)."""
    return value_of(played_out(game, seat, option, player, rng, budget), seat)


def mean(values: list[float]) -> float:
    """The mean (the statistics module is not among the AI's allowed imports)."""
    return sum(values) / len(values)


def searched(
    game: Game, seat: int, option: Option, player: str, worlds: list[int], budget: Budget
) -> list[float]:
    """The option's extended evaluation in each of these determinizations (common random
    numbers: every option is played in the same ones, so that options are compared on the
    same hidden draws — automa cards, contracts —, not on the luck of each one's own)."""
    return [extended(game, seat, option, player, SplitMix64(world), budget) for world in worlds]


def choose(game: Game, seat: int, level: str, ai_seed: int) -> Advice:
    """The option this seat plays now (see the package docstring)."""
    decision = seat_decision(game, seat)
    if decision is None:
        raise ValueError(f"seat {seat} has no decision to make now")
    options = decision.options
    if len(options) == 1:
        return Advice(options[0].notation, 0.0, None, None, f"{options[0].label}: the only move.")
    budget = BUDGETS[level]
    rng = SplitMix64(decision_seed(ai_seed, game, seat))
    base = determinized(game, rng)
    deep = bool(budget.extend) and not decision.simultaneous
    if deep and len(options) <= budget.extend:
        values = [0.0] * len(options)  # every option is searched further: no need to rank
    else:
        finish = QUICK if budget.finish == "greedy" else confirm_only
        values = scored(base, seat, decision, finish)
    if deep:
        top = sorted(range(len(values)), key=lambda i: (-values[i], i))[: budget.extend]
        crowd = budget.crowded and game.state.options.players > 2
        worlds = [rng.next64() for _ in range(budget.crowded if crowd else budget.samples)]
        found = {
            index: searched(game, seat, options[index], decision.player, worlds, budget)
            for index in top
        }
        if budget.refine and budget.more:
            # Successive halving: the leaders get more worlds (the same for each of them),
            # and only they may be chosen, so a lucky single world cannot win alone.
            more = [rng.next64() for _ in range(budget.more)]
            leaders = sorted(top, key=lambda i: (-mean(found[i]), i))[: budget.refine]
            for index in leaders:
                found[index] += searched(game, seat, options[index], decision.player, more, budget)
            top = leaders
        for index, outcomes in found.items():
            values[index] = mean(outcomes)
        others = [i for i in range(len(values)) if i not in top]
        floor = min(values[i] for i in top)
        for index in others:  # never preferred to an option searched further
            values[index] = min(values[index], floor - 0.01)
    ranked = sorted(range(len(values)), key=lambda i: (-values[i], i))
    best, second = ranked[0], ranked[1]
    option, runner = options[best], options[second]
    gap = values[best] - values[second]
    return Advice(
        notation=option.notation,
        expected_margin=round(values[best], 1),
        runner_up=runner.notation,
        margin_over_runner_up=round(gap, 1),
        reason=(
            f"{option.label}: expected to end {values[best]:+.0f} VP against the best rival, "
            f"{gap:.1f} VP better than {runner.label[:1].lower()}{runner.label[1:]}."
        ),
    )
