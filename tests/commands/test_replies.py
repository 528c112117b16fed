"""How the Discord layer words the service's typed results: by kind, never by sentence."""

from __future__ import annotations

import dataclasses

from bot.commands.announce import MISSING_ATTACH, turn_parts
from bot.commands.panel import HANDED_BACK_NOTE, OUTCOME_NOTES, outcome_note, panel_content
from bot.commands.replies import MAX_MESSAGE, error_text, say, split_message
from bot.service import (
    ChannelRef,
    ImportRefused,
    Line,
    NewGameRefused,
    NotYourTurn,
    OptionView,
    Outcome,
    OutcomeKind,
    PanelView,
    UserRef,
)


def test_people_are_written_as_mentions() -> None:
    assert say([Line.of("a"), Line.of(UserRef(5), " (USA), your turn")]) == (
        "a\n<@5> (USA), your turn"
    )


def test_channels_are_written_as_links_and_survive_the_outbox() -> None:
    line = Line.of("still active in ", ChannelRef(7), " (game #1), ask ", UserRef(5))
    assert Line.from_json(line.to_json()) == line
    assert say([line]) == "still active in <#7> (game #1), ask <@5>"
    assert line.render() == "still active in channel 7 (game #1), ask @5"
    assert "<#7>" in error_text(ImportRefused(line))


def test_a_long_message_is_whole_and_splits_into_whole_messages() -> None:
    lines = [Line.of("France (", UserRef(1), ") played:")]
    lines += [Line.of(f"• line {i} " + "x" * 60) for i in range(60)]
    lines += [Line.of("➡️ ", UserRef(2), " (USA), your turn")]
    whole = say(lines)
    parts = split_message(whole)
    assert len(parts) == 3 and all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == whole and parts[-1].endswith("➡️ <@2> (USA), your turn")


def test_a_long_panel_or_turn_message_is_split_never_cut() -> None:
    """The panel keeps its whole note (what the answer did) and the turn message's last part
    has room for the missing-permission note: nothing is cut to fit."""
    note = "\n".join(f"• built something long number {i} " + "y" * 70 for i in range(40))
    panel = PanelView(
        1, 2, 3, "usa", "Choose", "turn", (OptionView("pass", "Pass", "Pass"),), your_turn=True
    )
    whole = panel_content(panel, note=note)
    assert note in whole and len(whole) > MAX_MESSAGE
    parts = split_message(whole)
    assert "\n".join(parts) == whole and all(len(p) <= MAX_MESSAGE for p in parts)
    assert parts[-1].endswith("**Choose**")  # the question, where `send` puts the buttons
    long = "\n".join(f"• line {i} " + "x" * 60 for i in range(60))
    *_, last = turn_parts(long, attach_note=True)
    assert len(last) <= MAX_MESSAGE and last.endswith(MISSING_ATTACH)
    assert "\n".join(turn_parts(long)) == long


def test_the_note_after_an_answer_is_chosen_by_the_outcome_kind() -> None:
    """The service's wording never decides the reply: only the kind does."""
    for kind, note in OUTCOME_NOTES.items():
        for words in ((), (Line.of("Turn committed."),), (Line.of("anything"),)):
            assert outcome_note(Outcome(kind, 1, 2, words, announced=True)) == note
    assert outcome_note(Outcome(OutcomeKind.NOTED, 1, 2)) == ""
    assert "✅" in outcome_note(Outcome(OutcomeKind.COMMITTED, 1, 2, announced=True))
    undone = Outcome(
        OutcomeKind.UNDONE, 1, 2, (Line.of("USA (", UserRef(3), ") took back"),), announced=True
    )
    assert outcome_note(undone) == "✅ USA (<@3>) took back"
    # A commit that hands the next decision back to its player: their panel goes on to it.
    again = PanelView(
        1, 2, 3, "usa", "Your turn", "turn", (OptionView("pass", "Pass", "Pass"),), your_turn=True
    )
    handed_back = Outcome(OutcomeKind.COMMITTED, 1, 2, announced=True, decision=again)
    assert outcome_note(handed_back) == HANDED_BACK_NOTE and "pinged" not in HANDED_BACK_NOTE
    waiting = dataclasses.replace(again, your_turn=False, options=())
    committed = Outcome(OutcomeKind.COMMITTED, 1, 2, announced=True, decision=waiting)
    assert outcome_note(committed) == OUTCOME_NOTES[OutcomeKind.COMMITTED]


def test_refusals_name_people_and_the_commands_own_options() -> None:
    refusal = NotYourTurn(Line.of("waiting for ", UserRef(9), " (Seat 4)."))
    assert error_text(refusal).endswith("waiting for <@9> (Seat 4).")
    assert str(refusal) == "waiting for @9 (Seat 4)."  # plain, for logs
    big = NewGameRefused("The Nile Affair brings its own board.", "map", "base")
    assert error_text(big).endswith("Choose `board: standard` in `/barrage new`.")
    setup = NewGameRefused(
        "The Leeghwater Project is played with the full setup only.", "setup", "full"
    )
    assert "`setup: full`" in error_text(setup) and "setup=" not in error_text(setup)
