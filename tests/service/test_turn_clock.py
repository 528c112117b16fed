"""The turn clock through the service: charged at each commit, stored in the log, deadlines
claimed and acted on once, each timeout policy, time away, quiet hours and outages."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.rules.content import company_name
from bot.service import GameService, OutboxSender, ReminderRunner, RendererPool, ServiceConfig
from bot.service.clock import HOLD_AFTER, HOUR_MS
from bot.service.errors import GameMovedOn, LobbyError
from bot.service.images import Board
from bot.service.timekeeping import AI_GRACE_MS, ClockRunner
from bot.store import AI_STEP, EXPIRY, SqliteStore, UserSettings
from renderer import header
from renderer.render import _who
from renderer.theme import get_theme
from tests.aiplayer import DECIDER
from tests.service.conftest import fake_png
from tests.service.helpers import USERS, FakeClock, RecordingPort, actor, play_policy
from tests.service.test_pings import choosing_at_once

ME, YOU = USERS[0], USERS[1]
CONFIG = {"ai_decider": DECIDER, "ai_workers_kind": "inline", "ai_manual": True}

Make = Callable[[], Awaitable[GameService]]


@pytest.fixture
async def make(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Make]:
    """Services on one database (a restart is a new one), the AI an instant stand-in."""
    made: list[GameService] = []

    async def make() -> GameService:
        store = await SqliteStore.open(tmp_path / "clock.sqlite3", clock=clock)
        service = GameService(
            store,
            clock=clock,
            renderer_pool=RendererPool(kind="inline", render_fn=fake_png),
            config=ServiceConfig(extra=CONFIG),
        )
        made.append(service)
        return service

    yield make
    for service in made:
        service.thinker.close()
        with contextlib.suppress(Exception):
            await service.store.close()


async def clocked(service: GameService, *, timeout: str = "wait", clock: str = "24h") -> int:
    outcome = await service.lobby.create_game(
        actor(ME), players=2, seed=7, clock=clock, timeout=timeout
    )
    await service.lobby.join(actor(YOU))
    await service.lobby.start(actor(ME))
    return outcome.game_id


async def whose_turn(service: GameService, game_id: int) -> int:
    loaded = await service.desk.game_for_reminder(game_id)
    assert loaded is not None
    [user] = service.desk.users_deciding(loaded)
    return user


async def play_one(service: GameService, user: int) -> None:
    """The user plays their whole turn: its first option each time, up to its Confirm."""
    for _ in range(50):
        panel = await service.views.panel(actor(user))
        if not panel.options:
            return
        outcome = await service.moves.play(
            actor(user), [panel.options[0].notation], expected_version=panel.version
        )
        if outcome.announced:
            return
    raise AssertionError("the turn never ended")


async def commits(service: GameService, game_id: int) -> list[Mapping[str, Any]]:
    return [e.record for e in await service.store.read_log(game_id) if e.record["kind"] == "commit"]


async def test_the_clock_is_in_the_log_and_the_bank_settles(make: Make, clock: FakeClock) -> None:
    service = await make()
    game_id = await clocked(service)
    [start] = await commits(service, game_id)
    assert start["clock"] == {"at": clock.now, "bank": [48 * HOUR_MS] * 2, "away": [0, 0]}
    first = await whose_turn(service, game_id)
    seat = [ME, YOU].index(first)
    clock.advance(30 * HOUR_MS)  # 6 hours over the allowance: drawn from the bank
    await play_one(service, first)
    last = (await commits(service, game_id))[-1]["clock"]
    assert isinstance(last, dict) and last["bank"][seat] == 42 * HOUR_MS
    second = await whose_turn(service, game_id)
    clock.advance(HOUR_MS)  # within the allowance: a quarter of one back (to the cap)
    await play_one(service, second)
    last = (await commits(service, game_id))[-1]["clock"]
    assert isinstance(last, dict) and last["bank"][1 - seat] == 48 * HOUR_MS
    # The deadline of whoever is next: allowance + bank from the last commit.
    [deadline] = await service.store.deadlines(game_id)
    assert deadline.due_at == clock.now + 24 * HOUR_MS + 42 * HOUR_MS
    announced = RecordingPort()
    await OutboxSender(service.store, announced, clock, service=service).run_once()
    assert "has until" in announced.posted[-1].text


async def test_bad_clock_options_are_refused(make: Make) -> None:
    service = await make()
    with pytest.raises(LobbyError, match="no clock"):
        await service.lobby.create_game(actor(ME), players=2, clock="5h")
    with pytest.raises(LobbyError, match="no timeout"):
        await service.lobby.create_game(actor(ME), players=2, clock="12h", timeout="boot")


async def expire_all(service: GameService, clock: FakeClock) -> int:
    return await ClockRunner(service, clock, instance="test").run_once()


async def test_skip_passes_the_turn_once_and_survives_a_restart(
    make: Make, clock: FakeClock
) -> None:
    service = await make()
    game_id = await clocked(service, timeout="skip", clock="12h")
    late = await whose_turn(service, game_id)
    clock.advance(12 * HOUR_MS + 24 * HOUR_MS - 1)
    assert await expire_all(service, clock) == 0  # one millisecond early
    restarted = await make()  # the deadline is in the store
    clock.advance(1)
    assert await expire_all(restarted, clock) == 1
    log = [e.record for e in await restarted.store.read_log(game_id)]
    assert {"kind": "expiry", "seat": [ME, YOU].index(late), "policy": "skip"} in log
    assert any(r.get("auto") == "time ran out" for r in log)
    assert await whose_turn(restarted, game_id) != late
    assert await expire_all(restarted, clock) == 0  # acted on once
    port = RecordingPort()
    await OutboxSender(restarted.store, port, clock, service=restarted).run_once()
    assert "Time is up for" in port.posted[-1].text and "their turn passed" in port.posted[-1].text
    # The late player's bank is empty now; the next player is pinged as usual.
    assert port.posted[-1].mentions == (await whose_turn(restarted, game_id),)
    last = (await commits(restarted, game_id))[-1]["clock"]
    assert isinstance(last, dict) and last["bank"][[ME, YOU].index(late)] == 0


async def test_a_move_racing_an_expiry_exactly_one_lands(make: Make, clock: FakeClock) -> None:
    service, other = await make(), await make()
    game_id = await clocked(service, timeout="skip", clock="12h")
    late = await whose_turn(service, game_id)
    clock.advance(36 * HOUR_MS)
    panel = await service.views.panel(actor(late))
    [claimed] = await other.store.claim_deadlines(EXPIRY)
    await play_one(service, late)  # the move lands first, at the version the expiry read...
    loaded = await other.desk.game_for_reminder(game_id)
    assert loaded is not None
    before = (await other.store.get_game(game_id)).version
    # ...so the expiry, read before it, is refused by the store and changes nothing.
    stale = await other.desk.game_for_reminder(game_id)
    assert stale is not None
    assert await other.timekeeping.expire(claimed) is None
    log = [e.record for e in await other.store.read_log(game_id)]
    assert not any(r["kind"] == "expiry" for r in log)
    assert (await other.store.get_game(game_id)).version == before
    assert panel.version < before


async def test_an_expiry_read_before_a_move_is_refused_at_its_version(
    make: Make, clock: FakeClock
) -> None:
    service, other = await make(), await make()
    game_id = await clocked(service, timeout="skip", clock="12h")
    late = await whose_turn(service, game_id)
    clock.advance(36 * HOUR_MS)
    loaded = await other.desk.game_for_reminder(game_id)
    assert loaded is not None
    await play_one(service, late)
    from bot.service.clock import terms_of

    terms = terms_of(loaded.options)
    assert terms is not None
    with pytest.raises(GameMovedOn):
        await other.timekeeping._time_ran_out(loaded, terms, late)
    assert not any(e.record["kind"] == "expiry" for e in await other.store.read_log(game_id))


async def test_wait_tells_the_table_once_and_keeps_reminding(make: Make, clock: FakeClock) -> None:
    service = await make()
    game_id = await clocked(service, timeout="wait", clock="12h")
    late = await whose_turn(service, game_id)
    port = RecordingPort()
    reminders = ReminderRunner(service, port, clock)
    # Reminders at half the allowance, at the bank, an hour before the end.
    since = (await commits(service, game_id))[-1]["clock"]["at"]
    for hours in (6, 12, 35):
        clock.now = since + hours * HOUR_MS
        [notice] = await reminders.run_once()
        assert notice.user_id == late and "your time runs out" in notice.text, hours
    clock.advance(HOUR_MS)
    assert await expire_all(service, clock) == 1
    assert await whose_turn(service, game_id) == late  # still their turn
    sender = RecordingPort()
    await OutboxSender(service.store, sender, clock, service=service).run_once()
    assert "a moderator may replace them" in sender.posted[-1].text
    assert await expire_all(service, clock) == 0
    clock.advance(24 * HOUR_MS)
    assert await expire_all(service, clock) == 0  # told once per turn
    assert [n.user_id for n in await reminders.run_once()] == [late]  # and reminded on


async def test_ai_plays_the_turn_and_holds_the_seat_after_three(
    make: Make, clock: FakeClock
) -> None:
    service = await make()
    game_id = await clocked(service, timeout="ai", clock="12h")
    late = await whose_turn(service, game_id)
    seat = [ME, YOU].index(late)
    for n in range(1, HOLD_AFTER + 1):
        while await whose_turn(service, game_id) != late:
            await play_one(service, await whose_turn(service, game_id))
        clock.advance(40 * HOUR_MS)
        assert await expire_all(service, clock) == 1, n
        loaded = await service.desk.game_for_reminder(game_id)
        assert loaded is not None
        assert (seat in loaded.pilots) == (n == HOLD_AFTER)
    log = [e.record for e in await service.store.read_log(game_id)]
    expiries = [r for r in log if r["kind"] == "expiry"]
    assert [r.get("hold", False) for r in expiries] == [False, False, True]
    assert any(r.get("auto") == "ai:strong" for r in log)
    # The player takes the seat back with `play`.
    await service.moderation.take_back(actor(late))
    loaded = await service.desk.game_for_reminder(game_id)
    assert loaded is not None and seat not in loaded.pilots


async def test_quiet_hours_away_and_outages_are_not_charged(make: Make, clock: FakeClock) -> None:
    service = await make()
    game_id = await clocked(service, clock="12h")
    late = await whose_turn(service, game_id)
    since = clock.now
    [plain] = await service.store.deadlines(game_id)
    assert plain.due_at == since + 36 * HOUR_MS
    # Quiet hours set now count from the next commit; away moves the deadline at once.
    outcome = await service.timekeeping.set_away(actor(late), 2)
    assert "away until" in outcome.text
    [away] = await service.store.deadlines(game_id)
    assert away.due_at == since + 36 * HOUR_MS + 48 * HOUR_MS
    await service.timekeeping.set_away(actor(late), 0)  # back at once: nothing was away
    [back] = await service.store.deadlines(game_id)
    assert back.due_at == since + 36 * HOUR_MS
    await service.store.put_user_settings(UserSettings(late, quiet_start=0, quiet_end=6 * 60))
    loaded = await service.desk.game_for_reminder(game_id)
    assert loaded is not None
    turn = (await service.timekeeper.running_clocks(loaded))[late]
    assert turn.deadline() > since + 36 * HOUR_MS  # six quiet hours a night are free
    assert turn.used(turn.deadline()) == 36 * HOUR_MS
    # An outage: every heartbeat silent for 5 hours.
    runner = ClockRunner(service, clock, instance="a")
    await runner.beat()
    clock.advance(5 * HOUR_MS)
    await runner.beat()
    turn2 = (await service.timekeeper.running_clocks(loaded))[late]
    assert (
        turn2.deadline() == turn.deadline() + 5 * HOUR_MS
        or turn2.used(turn2.deadline()) == 36 * HOUR_MS
    )
    assert turn2.deadline() > turn.deadline()


async def test_a_game_without_a_clock_has_no_deadlines(make: Make, clock: FakeClock) -> None:
    service = await make()
    game_id = await clocked(service, clock="none")
    assert await service.store.deadlines(game_id) == []
    assert all("clock" not in c for c in await commits(service, game_id))


async def test_a_pending_ai_step_is_claimed_once_after_a_stop(make: Make, clock: FakeClock) -> None:
    """No scan of the games: the AI's pending step is a deadline claimed like the clock's."""
    service = await make()
    created = await service.lobby.create_game(actor(ME), players=2, seed=7, ai=1)
    await service.lobby.start(actor(ME))
    game_id = created.game_id
    for _ in range(20):
        loaded = await service.desk.game_for_reminder(game_id)
        assert loaded is not None
        if loaded.ai_deciding():
            break
        await play_one(service, ME)
    [pending] = await service.store.deadlines(game_id)
    assert pending.kind == AI_STEP and pending.due_at == clock.now + AI_GRACE_MS
    restarted = await make()  # the first process stopped before thinking (ai_manual)
    assert await restarted.timekeeping.claim_ai_steps() == 0  # within the grace time
    clock.advance(AI_GRACE_MS)
    rival = await make()
    assert await restarted.timekeeping.claim_ai_steps() == 1
    assert await rival.timekeeping.claim_ai_steps() == 0  # claimed once
    await restarted.computers.computers_idle()
    loaded = await restarted.desk.game_for_reminder(game_id)
    assert loaded is not None and not loaded.ai_deciding()
    assert [e.record.get("computer") for e in await restarted.store.read_log(game_id)].count(
        True
    ) == 1


async def test_in_a_choice_asked_at_once_every_undecided_clock_runs(
    make: Make, clock: FakeClock
) -> None:
    """Intro, 3 players, seed 4: round 5 asks two players at once. Both are on the clock;
    the one who answers stops theirs; the other's time runs out alone."""
    service = await make()
    created = await service.lobby.create_game(
        actor(USERS[0]), players=3, seed=4, clock="12h", timeout="skip"
    )
    for user in USERS[1:3]:
        await service.lobby.join(actor(user))
    await service.lobby.start(actor(USERS[0]))
    game_id = created.game_id
    loaded = await play_policy(service, game_id, 4, choosing_at_once)
    deciders = list(service.desk.users_deciding(loaded))
    assert len(deciders) == 2
    rows = await service.store.deadlines(game_id)
    assert {d.user_id for d in rows if d.kind == EXPIRY} == set(deciders)
    quick, slow = deciders
    clock.advance(HOUR_MS)
    panel = await service.views.panel(actor(quick))
    await service.moves.play(
        actor(quick), [panel.options[0].notation], expected_version=panel.version
    )
    clock.advance(40 * HOUR_MS)
    assert await expire_all(service, clock) >= 1
    log = [e.record for e in await service.store.read_log(game_id)]
    seats = list(USERS[:3])
    assert [r["seat"] for r in log if r["kind"] == "expiry"] == [seats.index(slow)]
    last = (await commits(service, game_id))[-1]["clock"]
    assert last["bank"][seats.index(slow)] == 0  # all of the allowance and the bank
    assert last["bank"][seats.index(quick)] == 24 * HOUR_MS  # an hour: a quarter back, capped


async def test_an_undo_returns_no_quarter_to_anyone(make: Make, clock: FakeClock) -> None:
    service = await make()
    game_id = await clocked(service, clock="12h")
    first = await whose_turn(service, game_id)
    clock.advance(20 * HOUR_MS)  # 8 hours from the bank
    await play_one(service, first)
    before = (await commits(service, game_id))[-1]["clock"]["bank"]
    clock.advance(HOUR_MS)
    await service.moves.undo(actor(first))
    after = (await commits(service, game_id))[-1]["clock"]["bank"]
    assert after == before  # the next player's hour returned nothing


class Boards:
    """A stand-in renderer that keeps what each board picture was asked to draw."""

    def __init__(self) -> None:
        self.boards: list[Board] = []

    def __call__(self, state: object, view: str, company: str | None, theme: str) -> bytes:
        if isinstance(state, Board):
            self.boards.append(state)
        return fake_png(state, view, company, theme)


def header_texts(board: Board) -> header.Drawn:
    """What the header of a picture drawn from ``board`` says (its drawn texts, not pixels)."""
    style = get_theme().views["map"]
    who = _who(board.players, board.changed, board.since, board.deadlines)
    canvas = ImageDraw.Draw(Image.new("RGB", (style.width, 2000)))
    return header.draw_header(canvas, board.state, get_theme(), style, "", who=who)


async def test_the_turn_picture_shows_the_deadline_as_a_time(make: Make, clock: FakeClock) -> None:
    service = await make()
    drawn = Boards()
    service.renderer_pool.render_fn = drawn
    game_id = await clocked(service)
    first = await whose_turn(service, game_id)
    await play_one(service, first)
    announced = RecordingPort()
    await OutboxSender(service.store, announced, clock, service=service).run_once()
    [deadline] = await service.store.deadlines(game_id)
    loaded = await service.desk.game_for_reminder(game_id)
    assert loaded is not None
    company = loaded.company_of_user(deadline.user_id)
    said = f"{company_name(company)}: by {header.utc_time(deadline.due_at)}"
    assert said.endswith(" UTC") and "in " not in said  # a time, never a countdown
    board = drawn.boards[-1]
    assert board.deadlines == ((company, deadline.due_at),)
    assert header_texts(board).deadline == said
    [picture] = announced.posted[-1].images
    assert said in picture.description
    # The same position with another deadline (time away moves it) is another picture.
    renders = service.renderer_pool.renders
    await service.views.board_picture(game_id, by_game_id=True)
    assert service.renderer_pool.renders == renders  # the announced one, from the cache
    await service.timekeeping.set_away(actor(deadline.user_id), 1)
    moved = await service.views.board_picture(game_id, by_game_id=True)
    assert service.renderer_pool.renders == renders + 1
    [later] = await service.store.deadlines(game_id)
    assert later.due_at > deadline.due_at
    assert drawn.boards[-1].deadlines == ((company, later.due_at),)
    assert header.utc_time(later.due_at) in moved.description


async def test_an_unclocked_game_draws_no_deadline(make: Make, clock: FakeClock) -> None:
    service = await make()
    drawn = Boards()
    service.renderer_pool.render_fn = drawn
    outcome = await service.lobby.create_game(actor(ME), players=2, seed=7)
    await service.lobby.join(actor(YOU))
    await service.lobby.start(actor(ME))
    await play_one(service, await whose_turn(service, outcome.game_id))
    announced = RecordingPort()
    await OutboxSender(service.store, announced, clock, service=service).run_once()
    board = drawn.boards[-1]
    assert board.deadlines == ()
    assert header_texts(board).deadline == ""
    assert " UTC" not in announced.posted[-1].images[0].description
