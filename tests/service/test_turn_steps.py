"""Where a step is committed (bot/service/turns.py), one case at a time, with pinned seeds."""

from __future__ import annotations

import copy

from bot.rules import GameOptions, new_game
from bot.service import GameService, NotYourTurn, OutboxSender, OutcomeKind, ServiceError
from bot.service.loading import Loaded, copy_game
from bot.service.messages import final_lines
from bot.service.records import CommitRecord, DecisionRecord
from bot.service.turns import FORCED_TURN, apply_answer
from bot.service.types import UserRef, named_users
from tests.service.conftest import MakeService
from tests.service.helpers import (
    CHANNEL,
    USERS,
    FakeClock,
    RecordingPort,
    actor,
    play_policy,
    started_game,
)


def commits(loaded: Loaded) -> int:
    """Commits on the game's chain so far."""
    return len(loaded.commits)


def forced_on_chain(loaded: Loaded) -> bool:
    """Whether a forced turn was confirmed on its player's behalf."""
    return any(isinstance(r, DecisionRecord) and r.auto == FORCED_TURN for _, r in loaded.chain)


async def delivered(service: GameService, clock: FakeClock) -> RecordingPort:
    """Every announcement of the outbox, posted to a recording port."""
    port = RecordingPort()
    await OutboxSender(service.store, port, clock, service=service).run_once()
    return port


async def test_a_forced_turn_is_confirmed_for_its_player_in_the_previous_commit(
    service: GameService, clock: FakeClock
) -> None:
    """Intro, 2 players, seed 3: a Confirm hands over to a turn whose only move is the Bank
    with the last engineer; it is confirmed for its player in the same commit, announced as
    such, and the previous player may still undo both."""
    game_id = await started_game(service, 2, seed=3)
    before = await play_policy(service, game_id, 3, forced_on_chain)
    _, commit = before.commits[-1]
    forced = next(
        r
        for _, r in reversed(before.chain)
        if isinstance(r, DecisionRecord) and r.auto == FORCED_TURN
    )
    assert forced.player != commit.player and isinstance(before.chain[-1][1], CommitRecord)
    port = await delivered(service, clock)
    message = port.posted[-1]
    assert "it was confirmed for them" in message.text
    deciders = service.desk.users_deciding(before)
    previous = commit.user
    assert message.waiting_for == deciders == (previous,)
    # The forced player is named (not pinged), and so is the next decider: the previous
    # player, whose panel went on from their Confirm to their next turn.
    forced_user = before.user_of_player(forced.player)
    assert forced_user in named_users(message.lines) and previous in named_users(message.lines)
    assert message.mentions == ()
    # The previous player keeps their undo over both turns (nothing was revealed).
    assert commit.undoable and (await service.views.panel(actor(previous))).can_undo
    outcome = await service.moves.undo(actor(previous))
    assert outcome.kind is OutcomeKind.UNDONE and outcome.announced
    after = await service.desk.game_for_reminder(game_id)
    assert after is not None and not forced_on_chain(after)
    assert service.desk.users_deciding(after) == (previous,)


async def test_a_turn_the_engine_began_is_committed_with_the_confirm(
    service: GameService, clock: FakeClock
) -> None:
    """Intro, 3 players, seed 1: a Confirm hands over to a turn the engine began (the Bank);
    the Confirm commits and the next player is pinged for how many engineers."""

    def began_by_engine(loaded: Loaded) -> bool:
        game = loaded.game
        return bool(
            game is not None
            and not loaded.tail
            and game.turn_in_progress
            and game.decisions()[0].kind == "bank"
        )

    game_id = await started_game(service, 3, seed=1)
    loaded = await play_policy(service, game_id, 1, began_by_engine)
    port = await delivered(service, clock)
    message = port.posted[-1]
    assert message.version == loaded.commit_version  # committed, announced
    assert "had one possible move:" in message.text
    assert message.text.endswith("How many engineers on the Bank?")
    user = service.desk.users_deciding(loaded)[0]
    assert message.mentions == (user,)
    panel = await service.views.panel(actor(user))
    assert panel.kind == "bank" and not panel.can_restart
    reminders = await service.store.reminders(game_id)
    assert [r.user_id for r in reminders] == [user]


async def test_choices_asked_at_once_are_committed_when_asked_and_when_all_are_in(
    service: GameService, clock: FakeClock
) -> None:
    """Intro, 3 players, seed 4: round 5 begins with two players choosing at once."""

    def choosing_at_once(loaded: Loaded) -> bool:
        game = loaded.game
        return game is not None and len([d for d in game.decisions() if d.simultaneous]) > 1

    game_id = await started_game(service, 3, seed=4)
    loaded = await play_policy(service, game_id, 4, choosing_at_once)
    assert not loaded.tail  # committed as soon as asked
    first, second = service.desk.users_deciding(loaded)
    confirmed_by = loaded.commits[-1][1].user
    assert confirmed_by in (first, second)  # the seed: the round's last Confirm was one's own
    port = await delivered(service, clock)
    # Both are named; the one whose Confirm asked the choices is not pinged: their panel
    # went on to their choice.
    assert {first, second} <= set(named_users(port.posted[-1].lines))
    assert set(port.posted[-1].mentions) == {first, second} - {confirmed_by}
    assert "all at once" in port.posted[-1].text
    reminded = {r.user_id for r in await service.store.reminders(game_id)}
    assert reminded == {first, second}

    panel = await service.views.panel(actor(first))
    noted = await service.moves.play(actor(first), [panel.options[0].notation])
    assert noted.kind is OutcomeKind.NOTED and not noted.announced
    middle = await service.desk.game_for_reminder(game_id)
    assert middle is not None and middle.tail and commits(middle) == commits(loaded)
    assert (await service.views.panel(actor(first))).waiting_for == (second,)
    panel = await service.views.panel(actor(second))
    done = await service.moves.play(actor(second), [panel.options[0].notation])
    assert done.kind is OutcomeKind.COMMITTED and done.announced
    after = await service.desk.game_for_reminder(game_id)
    assert after is not None and not after.tail and commits(after) == commits(loaded) + 1
    port = await delivered(service, clock)
    told = port.posted[-1].text
    assert told.count(" chose:") == 2  # both answers are told together


async def test_a_game_stalled_by_an_older_release_moves_on_when_loaded(
    make_service: MakeService, clock: FakeClock
) -> None:
    """A Confirm stored without its commit (as releases before the fix did when the engine
    began the next turn) is committed at the next load, announced and reminded."""
    service = await make_service()
    game_id = await started_game(service, 3, seed=1)

    def confirm_hands_over(loaded: Loaded) -> bool:
        game = loaded.game
        if game is None or not game.turn_in_progress:
            return False
        decision = game.decisions()[0]
        if decision.kind != "confirm":
            return False
        return apply_answer(copy_game(game), "confirm", decision.player).fresh_turn

    loaded = await play_policy(service, game_id, 1, confirm_hands_over)
    company = loaded.game.decisions()[0].player  # type: ignore[union-attr]
    user = loaded.user_of_player(company)
    record = {"kind": "decision", "notation": "confirm", "player": company, "user": user}
    await service.store.append(game_id, loaded.version, [record])  # the old, silent way
    await OutboxSender(service.store, RecordingPort(), clock, service=service).run_once()

    revived = await make_service()
    healed = await revived.desk.game_for_reminder(game_id)
    assert healed is not None and not healed.tail
    log = await revived.store.read_log(game_id)
    assert log[-1].kind == "commit" and log[-1].seq > loaded.version + 1
    port = await delivered(revived, clock)
    deciders = revived.desk.users_deciding(healed)
    assert port.posted and port.posted[-1].mentions == deciders
    assert {r.user_id for r in await revived.store.reminders(game_id)} == set(deciders)


async def test_the_final_message_names_winner_ranking_and_tie_breaks() -> None:
    """Ties on VP: the last round's energy breaks them, or the place is shared."""
    game = new_game(GameOptions(players=4, seed=5))
    state = copy.deepcopy(game.state)
    a, b, c, d = state.seats
    for company, vp, energy in ((a, 80, 14), (b, 80, 9), (c, 60, 5), (d, 60, 5)):
        state.companies[company].vp = vp
        state.companies[company].energy = energy
    state.result = {
        "ranking": [
            {"company": a, "place": 1, "vp": 80},
            {"company": b, "place": 2, "vp": 80},
            {"company": c, "place": 3, "vp": 60},
            {"company": d, "place": 3, "vp": 60},
        ]
    }
    users = dict(zip(state.seats, USERS, strict=True))
    lines = final_lines(state, users.get)
    text = "\n".join(line.render() for line in lines)
    winner = state.companies[a]
    assert f"wins with {winner.vp} VP" in text
    assert sorted(named_users(lines)) == sorted(USERS)  # everyone named, once each
    assert all(sum(line.users.count(u) for line in lines) == 1 for u in USERS)
    assert "Tie-break:" in text and "(14" not in text and " 14, " in text and " 9)" in text
    assert "share 3rd place (equal VP and equal energy)" in text


async def test_a_finished_game_is_shown_in_its_channel_until_a_new_one_starts(
    service: GameService,
) -> None:
    game_id = await started_game(service, 2, seed=3)
    await play_policy(service, game_id, 3, lambda loaded: bool(loaded.game and loaded.game.is_over))
    score = await service.views.score(CHANNEL)
    assert score.over and score.game_id == game_id
    assert await service.views.log_lines(CHANNEL, 5) and await service.views.board_image(CHANNEL)
    await service.lobby.create_game(actor(USERS[1]), players=2)  # a new game opens here
    try:
        await service.views.score(CHANNEL)
    except ServiceError as refusal:
        assert "not started" in str(refusal)
    else:
        raise AssertionError("the new lobby's channel still showed the finished game")


async def test_the_draft_is_told_and_waiting_names_the_player(service: GameService) -> None:
    await started_game(service, 4, seed=4, setup="full")
    score = await service.views.score(CHANNEL)
    assert not score.rows and score.draft
    loaded = await service.desk.game_for_reminder(score.game_id)
    assert loaded is not None
    picker = service.desk.users_deciding(loaded)[0]
    assert picker in named_users(score.draft)
    assert "0 of 4 players have chosen" in score.text()
    summary = await service.views.company_summary(CHANNEL)
    assert "Still on offer" in summary and "<@" not in summary
    other = next(u for u in USERS if u != picker)
    try:
        await service.moves.play(actor(other), ["pick usa"])
    except NotYourTurn as refusal:
        assert UserRef(picker) in refusal.line.parts and "Seat" in str(refusal)
    else:
        raise AssertionError("someone else picked for the picker")


async def test_a_turn_message_reads_who_played_then_the_scoring_then_whose_turn(
    service: GameService, clock: FakeClock
) -> None:
    """The message of the Confirm that ends round 1: the move, the round's scoring, the new
    round, and last the one line that pings whoever plays next."""
    game_id = await started_game(service, 2, seed=3)
    loaded = await play_policy(
        service, game_id, 3, lambda loaded: bool(loaded.game and loaded.game.state.round == 2)
    )
    port = await delivered(service, clock)
    [message] = [a for a in port.posted if "Round 2 begins." in a.text]
    lines = message.text.splitlines()
    played = next(i for i, line in enumerate(lines) if line.endswith(" played:"))
    scoring = lines.index("Scoring of round 1:")
    begins = lines.index("Round 2 begins.")
    assert played < scoring < begins < len(lines) - 1
    assert any("VP" in line for line in lines[scoring + 1 : begins])
    [decider] = service.desk.users_deciding(loaded)
    confirmed_by = loaded.commits[-1][1].user
    assert message.mentions == tuple(u for u in (decider,) if u != confirmed_by)
    assert lines[-1].startswith(f"➡️ @{decider} (") and lines[-1].endswith("your turn")
    assert sum(f"@{decider}" in line for line in lines[played + 1 :]) == 1
