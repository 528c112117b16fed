"""The commit as a value: `plan_commit` plans from the loaded game alone, and the typed
records store exactly the JSON the service has always stored."""

from __future__ import annotations

import json

from bot.service import GameService
from bot.service.commit import Facts, Landing, answer_for_others, draft_commit, plan_commit
from bot.service.loading import copy_game, load
from bot.service.records import (
    AbandonRecord,
    AiAddRecord,
    AiReleaseRecord,
    AiRemoveRecord,
    AiSeatRecord,
    AutomaAddRecord,
    AutomaRemoveRecord,
    Cause,
    ClockRecord,
    CommitRecord,
    DecisionRecord,
    ExpiryRecord,
    FlagRecord,
    HintRecord,
    JoinRecord,
    LeaveRecord,
    ReplaceRecord,
    RevertRecord,
    SkipRecord,
    StartRecord,
)
from bot.service.turns import apply_answer
from bot.store import REMINDER, UserSettings
from tests.service.helpers import FakeClock, started_game

#: Each kind's typed value and the JSON text a release before typed records stored for it.
STORED = [
    (JoinRecord(11), '{"kind": "join", "user": 11}'),
    (LeaveRecord(11), '{"kind": "leave", "user": 11}'),
    (AutomaAddRecord(11, 2), '{"kind": "automa_add", "by": 11, "level": 2}'),
    (AutomaRemoveRecord(11), '{"kind": "automa_remove", "by": 11}'),
    (AiAddRecord(11, "strong"), '{"kind": "ai_add", "by": 11, "level": "strong"}'),
    (AiRemoveRecord(11), '{"kind": "ai_remove", "by": 11}'),
    (StartRecord((11, 12)), '{"kind": "start", "seats": [11, 12]}'),
    (
        StartRecord((11,), ("casual",), (1,)),
        '{"kind": "start", "seats": [11], "ai": ["casual"], "automa": [1]}',
    ),
    (AiSeatRecord(1, "strong", 11), '{"kind": "ai_seat", "seat": 1, "level": "strong", "by": 11}'),
    (AiReleaseRecord(1, 12), '{"kind": "ai_release", "seat": 1, "user": 12}'),
    (ReplaceRecord(1, 12, 13), '{"kind": "replace", "seat": 1, "old": 12, "new": 13}'),
    (SkipRecord(0), '{"kind": "skip", "seat": 0}'),
    (AbandonRecord(by=11), '{"kind": "abandon", "by": 11}'),
    (AbandonRecord(reason="channel deleted"), '{"kind": "abandon", "reason": "channel deleted"}'),
    (FlagRecord("stuck", 7), '{"kind": "flag", "reason": "stuck", "base": 7}'),
    (
        DecisionRecord("confirm", "red", None),
        '{"kind": "decision", "notation": "confirm", "player": "red", "user": null}',
    ),
    (
        DecisionRecord("confirm", "red", 11, "forced turn", True),
        '{"kind": "decision", "notation": "confirm", "player": "red", "user": 11, '
        '"auto": "forced turn", "hint": true}',
    ),
    (
        CommitRecord(Cause.TURN.value, "red", 11, True),
        '{"kind": "commit", "reason": "turn", "player": "red", "user": 11, "undoable": true}',
    ),
    (
        CommitRecord(Cause.CHOICE.value, None, None, False, automa=True, computer=True),
        '{"kind": "commit", "reason": "choice", "player": null, "user": null, '
        '"undoable": false, "automa": true, "computer": true}',
    ),
    (RevertRecord(5), '{"kind": "revert", "to": 5}'),
    (HintRecord(1, 40), '{"kind": "hint", "seat": 1, "at": 40}'),
    (ExpiryRecord(1, "ai"), '{"kind": "expiry", "seat": 1, "policy": "ai"}'),
    (ExpiryRecord(1, "ai", True), '{"kind": "expiry", "seat": 1, "policy": "ai", "hold": true}'),
    (
        DecisionRecord("confirm", "red", 11, at=1_000),
        '{"kind": "decision", "notation": "confirm", "player": "red", "user": 11, "at": 1000}',
    ),
    (
        CommitRecord("turn", "red", 11, True, clock=ClockRecord(9, (5, 6), (0, 1))),
        '{"kind": "commit", "reason": "turn", "player": "red", "user": 11, "undoable": true, '
        '"clock": {"at": 9, "bank": [5, 6], "away": [0, 1]}}',
    ),
]


def test_every_record_kind_stores_the_json_it_always_stored() -> None:
    for record, text in STORED:
        assert json.dumps(record.to_json()) == text, record


async def test_a_confirm_is_planned_without_touching_the_store(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started_game(service, 2)
    meta = await service.store.get_game(game_id)
    loaded = await load(service.store, meta)
    assert loaded.game is not None
    company = loaded.players_deciding()[0]
    user = loaded.user_of_player(company)
    assert user is not None
    trial = copy_game(loaded.game)
    steps = []
    while trial.decision(company) is not None and trial.decision(company).kind != "confirm":
        option = trial.decision(company).options[0]
        steps.append(apply_answer(trial, option.notation, company, user))
    steps.append(apply_answer(trial, "confirm", company, user))
    landing = Landing(user=user, told=(user,))
    steps = answer_for_others(loaded, trial, steps)
    draft = draft_commit(loaded, trial, steps, landing, now=clock())
    assert draft is not None and draft.commits and draft.announces and not draft.ending
    waiting = draft.after.users_deciding()
    assert draft.people == waiting
    day = clock() + 24 * 3_600_000
    facts = Facts(
        now=clock(),
        settings={u: UserSettings(u) for u in draft.people},
        announce_lines=12,
        first_reminders={u: day for u in waiting},
    )
    commit = plan_commit(draft, facts)
    assert not commit.reload
    # The answers, then the commit record: the person's own turn, which they may undo.
    assert [type(r) for r in commit.records] == [DecisionRecord] * len(steps) + [CommitRecord]
    mark = commit.records[-1]
    assert isinstance(mark, CommitRecord) and mark.own_turn and mark.user == user
    assert commit.snapshot is not None and commit.result is None
    # Whoever decides next is pinged and reminded a day later; the actor is not pinged.
    after = commit.after
    assert after.version == loaded.version + len(commit.records) == after.commit_version
    assert commit.announcement is not None
    assert commit.announcement["waiting_for"] == list(waiting)
    assert user not in commit.announcement["mentions"]
    assert [(d.user_id, d.due_at, d.kind) for d in commit.reminders or ()] == [
        (u, day, REMINDER) for u in waiting
    ]
    # Planning wrote nothing: the store is where it was, and the loaded game unchanged.
    assert (await service.store.get_game(game_id)).version == loaded.version
    assert [item.version for item in await service.store.pending_outbox(game_id)] == [
        loaded.version
    ]  # only the start's announcement
    assert loaded.tail_steps == [] and len(loaded.commits) == len(after.commits) - 1


async def test_answers_mid_turn_plan_no_commit_and_read_nobody(service: GameService) -> None:
    game_id = await started_game(service, 2)
    loaded = await load(service.store, await service.store.get_game(game_id))
    assert loaded.game is not None
    company = loaded.players_deciding()[0]
    user = loaded.user_of_player(company)
    trial = copy_game(loaded.game)
    decision = trial.decision(company)
    assert decision is not None and decision.kind != "confirm"
    steps = [apply_answer(trial, decision.options[0].notation, company, user)]
    landing = Landing(user=user)
    draft = draft_commit(loaded, trial, steps, landing, now=0)
    assert trial.turn_in_progress and not steps[-1].fresh_turn  # the turn goes on
    assert draft is not None and not draft.announces and draft.people == ()
    commit = plan_commit(draft, Facts(now=0, settings={}, announce_lines=12))
    assert commit.records == (steps[0].record,)
    assert commit.snapshot is None and commit.announcement is None
    assert commit.reminders is None  # the reminders stay as they are
    assert commit.after.tail_steps == steps and commit.after.version == loaded.version + 1
