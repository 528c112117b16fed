"""The computer player: answers any decision a person meets with one of the engine's options.

Public API (the service runs it in worker processes):

    LEVELS                                 the levels, weakest first
    decide(game, player, level, ai_seed)   the option the seat `player` plays now, as `Advice`

`player` is a seat number (0-based, `Company.seat`; before the full game's draft seats a
company, decisions name it `seatN`). `ai_seed` is drawn by the service when the game is created
(never the setup seed, which fixes the hidden draws). `decide` never changes `game`: it works
on copies of the state. It is pure: no clock, no global random, no I/O; its randomness comes
from `ai_seed` and the public history through the engine's SplitMix64, and its budget is
counted in work, never in time, so the same game, seat, level and seed give the same answer
in any process.

Design (`bot.ai.search`, `bot.ai.evaluate`, `bot.ai.determinize`), and why:

- **Determinize, then search.** The search runs on a copy of the game whose face-down piles
  (contracts, Patent Office, automa decks, the expansions' piles) are sorted and re-shuffled
  by the decision's own generator (`determinize`), so what is hidden can never show through;
  the generator is seeded from `ai_seed`, the number of decisions applied so far and the seat.
- **Search by steps, judged by an evaluation.** Each legal option is applied on a copy and the
  rest of the seat's step (its turn up to Confirm, a draft pick, an income choice) is played
  greedily: each later sub-choice takes the option that, followed by Confirm, evaluates best.
  The position is then judged by `evaluate.margin`, the seat's estimated final VP minus the
  best rival's. A turn in Barrage is a short chain of sub-choices (action, space, tile,
  payment, contract) whose worth shows only once it is whole, so options are compared at the
  end of the step, not after the first sub-choice.
- **An evaluation, not playouts to the end.** Random or near-random playouts to the end of a
  game misjudge Barrage badly (the issue measured a flat Monte-Carlo search at 62 VP against
  the Expert automa's 101), and a Python engine affords only a few dozen of them per decision.
  `worth` instead counts the round's scoring as if it ended now (so a production's VP are seen
  when its energy is made), the production systems built or under way (dam capacity ×
  conduit value, weighted by completeness and by the water that reaches them), resources,
  structures and the incomes and company ability they unlock, contracts against the energy in
  reach, and the objective tile.
- **Levels differ in work.** `casual` judges each option with the rest of its step finished
  the cheapest way (Confirm, else the first option), one sub-choice at a time. `strong`
  finishes each option's step greedily, then takes its best few options further in a fresh
  determinization: the rest of its step, the other seats' replies up to its next decision
  (automas by their own rules on their re-shuffled decks, people and AIs by the cheapest
  completion) and its whole next step, then judges that position; the others are ranked
  below them. In the actions phase the replies are one turn of each other seat at most and
  end with the phase, so an option that ends the seat's round is judged in that round, as
  the others are (`Budget.one_lap`). Work is counted in options and plies
  (`search.BUDGETS`), never in time.

"""

from __future__ import annotations

from bot.ai.advice import Advice
from bot.ai.search import choose
from bot.rules.computers import AI_LEVELS as LEVELS
from bot.rules.engine import Game

__all__ = ["LEVELS", "Advice", "decide"]


def decide(game: Game, player: int, level: str, ai_seed: int) -> Advice:
    """The option seat `player` plays now at `level` (ValueError if it has no decision)."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    return choose(game, player, level, ai_seed)
