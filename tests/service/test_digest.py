"""What changed since your turn: the digest in the mention that asks a player to act, the
panel that opens with it and a map ringing the spaces changed since, the heads-up for the
player after the one who begins, and the ping for a player whose panel is too old to edit."""

from __future__ import annotations

import random

from bot.service import GameService, OutboxSender
from bot.service.catchup import SINCE_HEADING, CatchUp
from bot.service.digest import digest_lines, last_turn, seat_players, turn_line_parts, within
from bot.service.loading import Loaded
from bot.service.outbox import PANEL_EDITABLE_MS
from bot.service.records import CommitRecord
from bot.service.types import Announcement, Line, UserRef, named_users
from renderer.describe import changed_spaces
from tests.service.helpers import USERS, FakeClock, RecordingPort, actor, play_policy, started_game


async def played(
    service: GameService, clock: FakeClock, players: int, seed: int, steps: int
) -> list[Announcement]:
    """`steps` seeded answers in a started game of `players`, every announcement posted."""
    game_id = await started_game(service, players, seed=seed)
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    await sender.run_once()
    rng = random.Random(seed)
    for _ in range(steps):
        loaded = await service.desk.game_for_reminder(game_id)
        assert loaded is not None and loaded.game is not None and not loaded.game.is_over
        user = service.desk.users_deciding(loaded)[0]
        panel = await service.views.panel(actor(user))
        await service.moves.play(actor(user), [rng.choice(panel.options).notation])
        await sender.run_once()
    return port.posted


def digest_of(announcement: Announcement) -> list[str]:
    """The digest lines of a turn message (between its heading and the "your turn" line)."""
    texts = [line.render() for line in announcement.lines]
    if SINCE_HEADING not in texts:
        return []
    start = texts.index(SINCE_HEADING) + 1
    end = next(i for i, t in enumerate(texts) if t.startswith("➡️"))
    return texts[start:end]


async def test_the_mention_tells_the_turns_of_the_others_since_the_players_last(
    service: GameService, make_service, clock: FakeClock
) -> None:
    """Three players: the turn message that pings a player after two others played lists
    the first of those turns in one line (the second is the message's own story), naming
    its company; a second process that saw none of those turns tells the same lines."""
    posted = await played(service, clock, 3, seed=4, steps=40)
    with_digest = [a for a in posted if digest_of(a)]
    assert len(with_digest) >= 5
    for announcement in with_digest:
        [pinged] = announcement.mentions
        lines = digest_of(announcement)
        assert all(line.startswith("• ") for line in lines)
        assert len(lines) <= 12  # one line a paragraph, summarised past 8 turns
        # The player the message asks to act did not play any of the turns it lists.
        assert all(f"(@{pinged})" not in line for line in lines)
    # The last one, told again by a process with nothing in memory (replayed from the log).
    last = with_digest[-1]
    other = await make_service()
    loaded = await other.desk.game_for_reminder(last.game_id)
    assert loaded is not None
    fresh = CatchUp(other.store)
    [pinged] = last.mentions
    before = max(s for s, r in loaded.chain if isinstance(r, CommitRecord) and s < last.version)
    digest = await fresh.digest(loaded, pinged, upto=before)
    assert digest is not None
    assert [line.render() for line in digest.lines] == digest_of(last)


async def test_no_digest_when_nobody_else_played_since(
    service: GameService, clock: FakeClock
) -> None:
    """Two players take turns: the only turn since a player's last is the one the message
    tells, so no message carries a digest."""
    posted = await played(service, clock, 2, seed=3, steps=30)
    assert not any(digest_of(a) for a in posted)


def opening_turn(user: int):  # type: ignore[no-untyped-def]
    """The policy's stop: `user` is to begin a turn and two others have played since their
    last one."""

    def until(loaded: Loaded) -> bool:
        game = loaded.game
        if game is None or loaded.tail or service_waiting(loaded) != [user]:
            return False
        seat = loaded.seats.index(user)
        since = last_turn(loaded.chain, seat_players(seat, loaded.company_of_seat(seat)))
        commits = [s for s, r in loaded.chain if isinstance(r, CommitRecord) and s > since]
        return since > 1 and len(commits) >= 2 and game.decisions()[0].kind == "turn"

    return until


def service_waiting(loaded: Loaded) -> list[int]:
    """The people who must decide now."""
    return [u for p in loaded.people_deciding() if (u := loaded.user_of_player(p)) is not None]


async def test_the_panel_opens_with_the_digest_and_the_spaces_changed_since(
    service: GameService, clock: FakeClock
) -> None:
    """A player opening their panel at the start of their turn reads every turn since their
    last (the latest too) and gets the spaces changed since then; a panel that is only
    refreshed, or opened again mid-turn, carries none."""
    me = USERS[2]
    game_id = await started_game(service, 3, seed=4)
    loaded = await play_policy(service, game_id, 4, opening_turn(me))
    panel = await service.views.panel(actor(me), opening=True)
    assert panel.your_turn and panel.since and panel.since_turns >= 2
    texts = [line.render() for line in panel.since]
    assert all(t.startswith("• ") for t in texts) and len(texts) >= 2
    seat = loaded.seats.index(me)
    since = last_turn(loaded.chain, seat_players(seat, loaded.company_of_seat(seat)))
    before = await service.catchup.state_at(loaded, since)
    assert before is not None and loaded.committed is not None
    assert panel.since_changed == tuple(changed_spaces(before, loaded.committed))
    assert panel.since_changed
    picture = await service.views.since_picture(actor(me), panel)
    assert picture.data
    assert f"Changed since your last turn: {', '.join(panel.since_changed)}" in (
        picture.description or ""
    )
    # Not when the panel is only refreshed (a click's reply) ...
    plain = await service.views.panel(actor(me))
    assert plain.since == () and plain.since_changed == ()
    # ... nor opened again once the turn has begun.
    await service.moves.play(actor(me), [panel.options[0].notation])
    again = await service.views.panel(actor(me), opening=True)
    if again.your_turn and again.done:
        assert again.since == ()


async def test_a_player_named_without_a_ping_is_pinged_when_the_post_is_late(
    service: GameService, clock: FakeClock
) -> None:
    """Against automas a Confirm hands the next turn back to the person: the turn message
    names them without a ping, since their panel shows it. Posted more than 15 minutes
    later (the panel's token can no longer edit it), the message pings them after all."""
    me = USERS[0]
    outcome = await service.lobby.create_game(actor(me), players=2, seed=5, automa=1)
    await service.lobby.start(actor(me))
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    await sender.run_once()
    rng = random.Random(5)
    on_time = late = 0
    for _ in range(400):
        if late and on_time:
            break
        panel = await service.views.panel(actor(me))
        answer = await service.moves.play(actor(me), [rng.choice(panel.options).notation])
        if not answer.announced or answer.decision is None or not answer.decision.options:
            await sender.run_once()
            continue
        if on_time:
            clock.advance(PANEL_EDITABLE_MS)  # the sender was held up for 15 minutes
        await sender.run_once()
        message = port.posted[-1]
        assert me in message.waiting_for and me in named_users(message.lines)
        if on_time:
            assert message.mentions == (me,)
            late += 1
        else:
            assert message.mentions == ()
            on_time += 1
    assert on_time and late
    assert outcome.game_id == message.game_id


async def heads_up_game(
    service: GameService, clock: FakeClock, heads_up: bool
) -> tuple[list[Announcement], int]:
    """Three players, the third asking for a heads-up (or not); announcements of 45 steps."""
    await service.user_settings.update(USERS[2], heads_up=heads_up)
    posted = await played(service, clock, 3, seed=4, steps=45)
    return posted, USERS[2]


async def test_heads_up_mentions_the_player_after_the_one_who_begins(
    service: GameService, clock: FakeClock
) -> None:
    """With `heads_up`, the turn message that asks the player before them to begin also
    mentions them (one line says why); never in a message that asks them to act, never
    twice in one message, and each heads-up is followed by their own turn's ping."""
    posted, me = await heads_up_game(service, clock, True)
    warned = [a for a in posted if me in a.mentions and me not in a.waiting_for]
    assert len(warned) >= 3
    for announcement in warned:
        text = announcement.text
        assert "you're next" in text and "(heads-up)" in text
        [before] = announcement.waiting_for
        assert before != me and len(set(announcement.mentions)) == len(announcement.mentions)
        later = posted[posted.index(announcement) + 1 :]
        # The next time they are mentioned, it asks them to act (no second heads-up first).
        following = [a for a in later if me in a.mentions]
        assert not following or me in following[0].waiting_for
    assert all("you're next" not in a.text for a in posted if me in a.waiting_for), (
        "no heads-up in a message that asks them to act"
    )


async def test_no_heads_up_unless_asked(service: GameService, clock: FakeClock) -> None:
    """Without the setting nobody is mentioned who is not asked to act."""
    posted, _me = await heads_up_game(service, clock, False)
    assert not any("you're next" in a.text for a in posted)
    assert all(set(a.mentions) <= set(a.waiting_for) for a in posted)


async def test_no_heads_up_for_an_ai_seats_turn(service: GameService, clock: FakeClock) -> None:
    """Two people and an AI seat, both people asking for a heads-up: none comes as the AI
    begins (its answer comes at once, with the next person's own ping), and an AI seat is
    never mentioned; a person's turn still brings the heads-up of the person after them."""
    await service.user_settings.update(USERS[0], heads_up=True)
    await service.user_settings.update(USERS[1], heads_up=True)
    created = await service.lobby.create_game(actor(USERS[0]), players=3, seed=6, ai=1)
    await service.lobby.join(actor(USERS[1]))
    await service.lobby.start(actor(USERS[0]))
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    game_id = created.game_id
    rng = random.Random(6)
    for _ in range(60):
        loaded = await service.desk.game_for_reminder(game_id)
        assert loaded is not None
        if loaded.ai_deciding():
            await service.computers.play_computers(game_id, steps=1)
        else:
            user = service.desk.users_deciding(loaded)[0]
            panel = await service.views.panel(actor(user))
            await service.moves.play(actor(user), [rng.choice(panel.options).notation])
        await sender.run_once()
    ai_to_move = [a for a in port.posted if not a.waiting_for and "to move" in a.text]
    assert len(ai_to_move) >= 3
    assert not any("you're next" in a.text or a.mentions for a in ai_to_move)
    assert all(set(a.mentions) <= set(USERS[:2]) for a in port.posted)


def test_a_turn_is_one_line_a_paragraph_summarised_never_cut() -> None:
    """A story's paragraphs become one line each: the heading, its first items, the rest
    counted (with what the turn message already counted); past 8 turns the earliest are
    counted too; a panel's budget keeps the latest lines and counts the others."""
    story = [
        Line.of("France (", UserRef(12), ") played:"),
        *(Line.of("• ", f"item {i}") for i in range(6)),
        Line.of("• … 3 more (see the log)"),
        Line.of("Round 2 begins."),
    ]
    turn = turn_line_parts(story)
    assert [line.render() for line in turn] == [
        "France (@12) played: item 0; item 1; item 2; item 3; … 5 more",
        "Round 2 begins.",
    ]
    lines = digest_lines([turn] * 10)
    assert lines[0].render() == "• … 2 earlier turns (see the log)"
    assert len(lines) == 1 + 8 * 2 and lines[1].render().startswith("• France (@12) played:")
    kept = within(lines, 200)
    assert kept[0].render().startswith("• … ") and "earlier lines" in kept[0].render()
    assert sum(len(line.render()) + 1 for line in kept) <= 200
    assert kept[-1] == lines[-1]
