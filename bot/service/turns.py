"""The turn loop's commit boundary: which answers form one committed step, and what the
service answers on a player's behalf.

A **step** is what one person does before the game hands over to someone else: a player's
turn up to its Confirm, a draft pick with its starting contract, or every player's income
choices of a round (asked of all at once, RULINGS 29). Each step ends in one commit (a
snapshot, one announcement in the outbox, reminders for whoever must decide), written in the
same transaction as the answer that ended it. The engine applies single-option decisions by
itself, so the answer that ends a step often also carries the game into the next player's
turn; the rules here decide where the commit falls whatever the engine did automatically:

- A Confirm always commits. When the engine then began the next player's turn on its own
  (the only possible action, e.g. the Bank with the last engineer), that beginning is part
  of the commit, and the next player is pinged for the decision it leaves them.
- A **forced turn** — a turn the engine began on its own whose only option left is Confirm —
  is confirmed on the player's behalf in the same commit (record `auto: "forced turn"`), and
  the announcement says so ("had a single possible move; confirmed for them"). Nobody waits
  for a click that cannot change anything. A Confirm that offers more (an expansion's free
  actions beside it) is a real decision: the player is pinged and confirms it.
- Income choices asked of several players at once are committed when they are asked (all
  of them pinged), and their answers are committed together once the last one is given, so
  nobody sees another's choice before making their own.
- A player's run of choices outside a turn (the draft's pick, then its starting contract) is
  one step; so is everything a skipped seat does (its answers are given in the same commit).
- A game loaded with answers that should have been committed (written before these rules)
  is committed at its next load, so a game stalled by an older release moves on by itself.

- **Automa companies** decide at once: whenever an automa's decision is pending (its turn, a
  reward's choice, its income choice, its draft pick), the service answers it by the
  automa's rules (`bot.rules.automa.play`, record `auto: "automa"`, no user) in the landing
  that made it pending, so the automa turns after a person's Confirm are appended in the
  same transaction as that Confirm's commit, and the next person is pinged. An automa is
  never pinged and never reminded. **AI seats** answer through the same computer-seat path
  (bot/service/computer.py): their search runs in a worker, so their decision is left
  pending here, committed like a person's, and the service lands the AI's answers later
  against that version (bot/service/thinking.py).

Undo rights: only the last commit can be undone, by the player whose turn it committed, while
nobody has answered since. A forced turn confirmed on someone's behalf (or a skipped seat's
answers) inside that commit is undone with it: the previous player keeps their undo unless
that forced turn revealed hidden information (new contracts) or ended the round. The player
whose turn was confirmed for them has nothing to undo (they had no choice to make). A
person's undo also takes back the computer seats' steps (automa turns in its commit, AI
steps committed after it) while no other person has acted, unless one of them revealed
contracts or ended a round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.rules import Decision, Event, Game, Option
from bot.service.computer import automa_now
from bot.service.records import Cause, DecisionRecord

#: `auto` of a decision record the service answered for a skipped seat.
SKIPPED_SEAT = "skipped seat"
#: `auto` of the Confirm of a forced turn, given on its player's behalf.
FORCED_TURN = "forced turn"
#: The service passed a turn for a player whose time ran out (a `timeout:skip` game).
TIMED_OUT = "time ran out"
#: `auto` of an automa company's answer (its turn, its choices), given by its rules.
AUTOMA = "automa"
#: What a skipped seat answers, in order of preference (else the first option).
SKIP_PREFERENCE = ("bank", "pass", "confirm")
#: Answers given on others' behalf in one commit, at most (a safety net: the engine always
#: reaches a real decision or the end of the game long before).
MAX_ON_BEHALF = 5000


@dataclass(frozen=True, slots=True)
class Step:
    """One answer applied to a game and what it caused."""

    record: DecisionRecord
    #: The engine player who answered (a company, or "seatN" in the draft).
    player: str
    events: tuple[Event, ...]
    #: The kind of the decision it answered ("turn", "confirm", "draft_pick", ...).
    kind: str
    #: It answered one of several choices asked at once (income choices).
    simultaneous: bool
    #: Afterwards a turn is open that the engine began by itself after this answer: a turn
    #: of someone who has not acted in it yet.
    fresh_turn: bool

    @property
    def on_behalf(self) -> str | None:
        """Why the service answered for the player (SKIPPED_SEAT, FORCED_TURN), or None."""
        return self.record.auto or None

    @property
    def ended_turn(self) -> bool:
        """True when this answer was a Confirm that ended its player's turn."""
        return any(e.kind == "turn_end" and e.company == self.player for e in self.events)


def decision_record(
    notation: str, player: str, user: int | None, on_behalf: str | None = None
) -> DecisionRecord:
    """The log record of one answer."""
    return DecisionRecord(notation, player, user, on_behalf or None)


def apply_answer(
    game: Game,
    answer: str | Option,
    player: str | None,
    user: int | None = None,
    *,
    on_behalf: str | None = None,
    record: DecisionRecord | None = None,
) -> Step:
    """Apply one answer (RuleError if it is refused, the game unchanged) and describe it.

    `record` is the stored record when replaying; otherwise one is made.
    """
    option = answer if isinstance(answer, Option) else game.parse(answer, player)
    decision = game.decision(player)
    assert decision is not None  # parse refused otherwise
    was_open = game.turn_in_progress
    events = tuple(game.apply(option, decision.player))
    began_after = any(e.kind == "turn_end" for e in events) or (
        not was_open and decision.kind != "turn"
    )
    return Step(
        record=record or decision_record(option.notation, decision.player, user, on_behalf),
        player=decision.player,
        events=events,
        kind=decision.kind,
        simultaneous=decision.simultaneous,
        fresh_turn=game.turn_in_progress and began_after,
    )


def is_forced_confirm(decision: Decision) -> bool:
    """A Confirm with nothing else on offer."""
    return decision.kind == "confirm" and len(decision.options) == 1


def skip_answer(decision: Decision) -> str:
    """What a skipped seat answers: pass where it can, all its engineers on the Bank."""
    if decision.kind == "bank":
        # All its engineers at once: a vanished seat should not take a turn per engineer.
        return decision.options[-1].notation
    found = next((n for n in SKIP_PREFERENCE if decision.find(n) is not None), None)
    return found or decision.options[0].notation


def answer_on_behalf(
    game: Game,
    last: Step | None,
    is_skipped: Callable[[str], bool],
) -> list[Step]:
    """Answer for automas and skipped seats and confirm forced turns until a person must
    decide.

    `last` is the answer just given (None after a start, undo or rewind); `is_skipped` tells
    whether an engine player's seat is skipped.
    """
    steps: list[Step] = []
    fresh = last.fresh_turn if last is not None else False
    for _ in range(MAX_ON_BEHALF):
        if game.is_over:
            return steps
        decisions = game.decisions()
        skipped = [d for d in decisions if is_skipped(d.player)]
        automa = automa_now(game)
        if automa is not None:
            decision, option = automa
            step = apply_answer(game, option, decision.player, on_behalf=AUTOMA)
        elif skipped:
            decision = skipped[0]
            step = apply_answer(
                game, skip_answer(decision), decision.player, on_behalf=SKIPPED_SEAT
            )
        elif fresh and len(decisions) == 1 and is_forced_confirm(decisions[0]):
            step = apply_answer(game, "confirm", decisions[0].player, on_behalf=FORCED_TURN)
        else:
            return steps
        steps.append(step)
        fresh = step.fresh_turn
    raise RuntimeError("answers on players' behalf did not reach anyone's decision")


def at_handover(game: Game, steps: Sequence[Step]) -> bool:
    """Whether the game, after `steps` (every answer since the last commit), must commit now.

    False while the step goes on: a turn in progress (until its Confirm), income choices
    that some but not all players have answered, or the same player's next choice outside a
    turn (the draft's starting contract after its pick).
    """
    if game.is_over:
        return True
    if not steps:
        return False
    last = steps[-1]
    if game.turn_in_progress:
        # Someone's turn is open: commit only if it began by itself after the last answer.
        return last.fresh_turn
    decisions = game.decisions()
    if any(d.simultaneous for d in decisions):
        # Committed when asked; then once every answer is in (the stage has resolved). An
        # automa's answer, given when the choices are asked, is part of asking.
        return not any(s.simultaneous and s.on_behalf != AUTOMA for s in steps)
    same_player_again = (
        len(decisions) == 1
        and decisions[0].player == last.player
        and decisions[0].kind != "turn"
        and not last.simultaneous
        and not any(e.kind == "turn_end" for e in last.events)
    )
    return not same_player_again


def commit_cause(game: Game, steps: Sequence[Step]) -> Cause:
    """Why the steps commit by themselves: the end, a person's turn ended by their Confirm,
    or a choice."""
    if game.is_over:
        return Cause.END
    if any(s.ended_turn and s.on_behalf is None for s in steps):
        return Cause.TURN
    return Cause.CHOICE


def automa_played(steps: Sequence[Step]) -> bool:
    """True when an automa answered among the steps (its turns flip hidden cards)."""
    return any(s.on_behalf == AUTOMA for s in steps)


def revealed_or_new_round(steps: Sequence[Step], round_before: int | None, game: Game) -> bool:
    """True when the steps revealed hidden information (new contracts) or ended a round (no
    undo then). An automa's cards do not count: a person's undo takes the automa's turns
    back with theirs (a solo player could never undo otherwise)."""
    revealed = any(e.kind == "turn_end" and e.data.get("revealed") for s in steps for e in s.events)
    return revealed or (round_before is not None and game.state.round != round_before)


__all__ = [
    "AUTOMA",
    "FORCED_TURN",
    "SKIPPED_SEAT",
    "TIMED_OUT",
    "Step",
    "answer_on_behalf",
    "apply_answer",
    "at_handover",
    "automa_played",
    "commit_cause",
    "decision_record",
    "is_forced_confirm",
    "revealed_or_new_round",
    "skip_answer",
]
