"""AI seats through the service: the lobby, AI steps landed as log records (exactly once),
told in words and never pinged, undo across them, a moderator's replacement and its taking
back, hints, and the ranking naming each seat's kind. The AI is tests/aiplayer.py (instant);
one test runs it in a real worker process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.rules import GameOptions, new_game
from bot.rules.computers import ComputerSeat
from bot.service import GameService, LobbyError, RendererPool, ServiceConfig, ServiceError
from bot.service.errors import NewGameRefused
from bot.service.thinking import HINT, SEAT, Thinker
from bot.store import SqliteStore
from tests.aiplayer import DECIDER
from tests.service.conftest import fake_png
from tests.service.helpers import CHANNEL, USERS, FakeClock, actor

ME, YOU = USERS[0], USERS[1]
AI_CONFIG = {"ai_decider": DECIDER, "ai_workers_kind": "inline", "ai_manual": True}

MakeAi = Callable[..., Awaitable[GameService]]


@pytest.fixture
async def make_ai(tmp_path: Path, clock: FakeClock) -> AsyncIterator[MakeAi]:
    """Services on one database whose AI is the instant stand-in (stepped by the test)."""
    made: list[GameService] = []

    async def make(**extra: object) -> GameService:
        store = await SqliteStore.open(tmp_path / "ai.sqlite3", clock=clock)
        service = GameService(
            store,
            clock=clock,
            renderer_pool=RendererPool(kind="inline", render_fn=fake_png),
            config=ServiceConfig(extra={**AI_CONFIG, **extra}),
        )
        made.append(service)
        return service

    yield make
    for service in made:
        service.thinker.close()
        with contextlib.suppress(Exception):
            await service.store.close()


@pytest.fixture
async def ai(make_ai: MakeAi) -> GameService:
    return await make_ai()


async def solo(service: GameService, ai: int = 1, **options: Any) -> int:
    """One person against `ai` AI players (and any automas in `options`), started."""
    players = 1 + ai + int(options.get("automa", 0))
    outcome = await service.lobby.create_game(
        actor(ME), players=players, seed=5, ai=ai, ai_level="casual", **options
    )
    await service.lobby.start(actor(ME))
    return outcome.game_id


async def person_plays(service: GameService, user: int = ME, rng: random.Random | None = None):
    """The user answers their decision (a random option, else the first); the outcome."""
    panel = await service.views.panel(actor(user))
    assert panel.options, panel.prompt
    option = rng.choice(panel.options) if rng else panel.options[0]
    return await service.moves.play(actor(user), [option.notation], expected_version=panel.version)


async def until_my_decision(service: GameService, game_id: int, user: int = ME) -> None:
    """Land AI steps until the user must decide (or the game is over)."""
    for _ in range(500):
        if (await service.store.get_game(game_id)).status != "active":
            return
        panel = await service.views.panel(actor(user))
        if panel.options:
            return
        assert await service.computers.play_computers(game_id, steps=1) == 1, panel.prompt
    raise AssertionError("the AI never handed over")


async def until_the_ai_decides(service: GameService, game_id: int) -> None:
    """The person plays (first options) until the AI must decide."""
    for _ in range(50):
        if (await service.desk.load(await service.store.get_game(game_id))).ai_deciding():
            return
        await person_plays(service)
    raise AssertionError("the AI never had to decide")


async def test_new_game_counts_every_seat_and_keeps_a_seat_for_a_person(ai: GameService) -> None:
    with pytest.raises(NewGameRefused, match="no seat for a person"):
        ai.check_new_game(players=2, setup="intro", ai=1, automa=1)
    with pytest.raises(NewGameRefused, match="0 to 3 AI players"):
        ai.check_new_game(players=4, setup="intro", ai=4)
    with pytest.raises(NewGameRefused, match="not one of casual, strong"):
        ai.check_new_game(players=3, setup="intro", ai=1, ai_level="genius")
    # The AI plays every board (the automa does not play Colorado or the Nile).
    assert ai.check_new_game(players=2, setup="intro", expansions=("nile",), ai=1)
    assert ai.check_new_game(players=4, setup="intro", ai=2, automa=1) == ()


async def test_lobby_adds_and_removes_ai_players_and_seats_them_before_automas(
    ai: GameService,
) -> None:
    outcome = await ai.lobby.create_game(actor(ME), players=4, seed=1, automa=1)
    with pytest.raises(ServiceError, match="creator"):
        await ai.lobby.add_ai(actor(YOU))
    added = await ai.lobby.add_ai(actor(ME), "strong")
    assert "AI player (strong) joined" in added.lines[0].render()
    assert "3/4" in added.lines[0].render()
    await ai.lobby.add_ai(actor(ME))  # the last AI player's level again
    assert await ai.lobby.lobby_ais(outcome.game_id) == ["strong", "strong"]
    with pytest.raises(LobbyError, match="full"):
        await ai.lobby.join(actor(YOU))
    await ai.lobby.remove_ai(actor(ME))
    await ai.lobby.join(actor(YOU))
    started = await ai.lobby.start(actor(ME))
    text = started.lines[0].render()
    assert "3. " in text and "(AI, strong)" in text and "4. " in text and "(automa, medium)" in text
    log = await ai.store.read_log(outcome.game_id)
    start = next(e.record for e in log if e.record["kind"] == "start")
    assert start["ai"] == ["strong"] and start["automa"] == [1]
    meta = await ai.store.get_game(outcome.game_id)
    assert meta.options["ai_seed"] != meta.seed


async def test_an_ai_step_lands_as_records_told_in_words_and_is_never_pinged(
    ai: GameService,
) -> None:
    game_id = await solo(ai, ai=1)
    await until_the_ai_decides(ai, game_id)
    # While the AI must decide nobody is pinged and no reminder waits.
    assert {r.user_id for r in await ai.store.reminders(game_id)} <= {ME}
    before = await ai.store.version(game_id)
    assert await ai.computers.play_computers(game_id, steps=1) == 1
    log = [e.record for e in await ai.store.read_log(game_id) if e.seq > before]
    decisions = [r for r in log if r["kind"] == "decision"]
    assert decisions and all(r["user"] is None for r in decisions)
    assert any(r.get("auto") == "ai:casual" for r in decisions)
    commit = log[-1]
    assert commit["kind"] == "commit" and commit["computer"] is True
    text = str((await ai.store.pending_outbox(game_id))[-1].payload)
    assert "(AI casual) played:" in text


async def test_a_solo_game_against_ais_and_an_automa_plays_to_the_end_and_imports(
    ai: GameService,
) -> None:
    game_id = await solo(ai, ai=2, automa=1, automa_level="expert")
    rng = random.Random(4)
    for _ in range(3000):
        await until_my_decision(ai, game_id)
        if (await ai.store.get_game(game_id)).status != "active":
            break
        await person_plays(ai, rng=rng)
    meta = await ai.store.get_game(game_id)
    assert meta.status == "finished"
    last = (await ai.store.pending_outbox(game_id))[-1].payload
    ranking = " ".join(line_text(line) for line in last["lines"])
    assert ranking.count("(AI casual):") == 2 and "(automa expert):" in ranking
    # Export and import replay the AI's answers as they were logged (no AI runs again).
    exported = await ai.moving.export_game(actor(ME), game_id)
    assert exported["options"]["ai"] == ["casual", "casual"]
    kept = await ai.store.game_result(game_id)
    imported = await ai.moving.import_game(actor(ME, channel=CHANNEL + 1, manage=True), exported)
    again = await ai.store.game_result(imported.game_id)
    assert kept is not None and again is not None and again.result == kept.result
    # The computer seats are kept as such and count in no statistic.
    assert [s.user_id is None for s in kept.result.seats].count(True) == 3


def line_text(line: object) -> str:
    """The plain text of a stored announcement line."""
    parts = line if isinstance(line, list) else []
    return "".join(p if isinstance(p, str) else f"<@{p.get('user')}>" for p in parts)


async def test_undo_takes_back_the_ai_steps_after_the_persons_turn(ai: GameService) -> None:
    game_id = await solo(ai, ai=1)
    for _ in range(40):
        await until_my_decision(ai, game_id)
        outcome = await person_plays(ai)
        if not outcome.committed:
            continue
        await until_my_decision(ai, game_id)
        log = await ai.store.read_log(game_id)
        commits = [e.record for e in log if e.record["kind"] == "commit"]
        if commits[-1].get("computer") and (await ai.views.panel(actor(ME))).can_undo:
            break
    else:
        raise AssertionError("no undoable turn followed by an AI step")
    mine = [e.seq for e in log if e.record["kind"] == "commit" and e.record["user"] == ME]
    undone = await ai.moves.undo(actor(ME))
    assert "and the computer seats' turns after it" in undone.lines[0].render()
    revert = (await ai.store.read_log(game_id))[-2].record
    assert revert["kind"] == "revert" and revert["to"] < mine[-1]
    # Played the same again, the AI answers the same (deterministic from its seed).
    again = await ai.views.panel(actor(ME))
    assert again.options


async def test_undo_is_refused_once_another_person_acted(ai: GameService) -> None:
    outcome = await ai.lobby.create_game(actor(ME), players=3, seed=5, ai=1)
    await ai.lobby.join(actor(YOU))
    await ai.lobby.start(actor(ME))
    for _ in range(60):
        await ai.computers.play_computers(outcome.game_id)
        for user in (ME, YOU):
            if (await ai.views.panel(actor(user))).options:
                await person_plays(ai, user)
                break
        await ai.computers.play_computers(outcome.game_id)
        log = await ai.store.read_log(outcome.game_id)
        people = [
            e.record["user"] for e in log if e.record["kind"] == "commit" and e.record["user"]
        ]
        if len(people) >= 3 and people[-1] == YOU and people[-2] == ME:
            break
    with pytest.raises(ServiceError, match="someone else acted since"):
        await ai.moves.undo(actor(ME))


async def test_a_moderator_lets_the_ai_play_a_seat_and_its_player_takes_it_back(
    ai: GameService,
) -> None:
    outcome = await ai.lobby.create_game(actor(ME), players=2, seed=5)
    await ai.lobby.join(actor(YOU))
    await ai.lobby.start(actor(ME))
    game_id = outcome.game_id
    with pytest.raises(ServiceError, match="creator or a member with Manage"):
        await ai.moderation.replace_with_ai(actor(YOU), 0, "casual")
    with pytest.raises(ServiceError, match="not one of casual, strong"):
        await ai.moderation.replace_with_ai(actor(ME), YOU, "brilliant")
    replaced = await ai.moderation.replace_with_ai(actor(ME), YOU, "casual")
    assert "The AI (casual) plays" in replaced.lines[0].render()
    with pytest.raises(ServiceError, match="already plays seat 2"):
        await ai.moderation.replace_with_ai(actor(ME), YOU, "strong")
    # The AI plays that seat's turns; its person is never pinged meanwhile.
    for _ in range(6):
        if (await ai.views.panel(actor(ME))).options:
            await person_plays(ai, ME)
        await ai.computers.play_computers(game_id)
    log = await ai.store.read_log(game_id)
    seat = next(e.seq for e in log if e.record["kind"] == "ai_seat")
    played = [e.record for e in log if e.seq > seat and e.record.get("auto") == "ai:casual"]
    assert played and all(r["user"] is None for r in played)
    assert YOU not in {r.user_id for r in await ai.store.reminders(game_id)}
    assert not (await ai.views.panel(actor(YOU))).options
    with pytest.raises(ServiceError, match="does not play your seat"):
        await ai.moderation.take_back(actor(ME))
    back = await ai.moderation.take_back(actor(YOU))
    assert "back from the AI" in back.lines[0].render()
    log = await ai.store.read_log(game_id)
    assert any(e.record["kind"] == "ai_release" for e in log)
    # From now on the person plays it again.
    for _ in range(6):
        if (await ai.views.panel(actor(ME))).options:
            await person_plays(ai, ME)
        if (await ai.views.panel(actor(YOU))).options:
            break
    assert await ai.computers.play_computers(game_id) == 0
    assert (await ai.views.panel(actor(YOU))).options


async def test_hints_are_a_game_option_one_per_decision_and_counted(ai: GameService) -> None:
    await solo(ai, ai=1)
    with pytest.raises(ServiceError, match="created without hints"):
        await ai.computers.hint(actor(ME))
    await ai.moderation.abandon(actor(ME))
    game_id = await solo(ai, ai=1, hints=True)
    await until_my_decision(ai, game_id)
    first = await ai.computers.hint(actor(ME))
    text = " ".join(line.render() for line in first.lines)
    assert "Hint for" in text and "Expected +0.5 VP over the next-best move" in text
    assert "Why: It keeps the most energy" in text
    asked = len(ai.thinker.costs)
    again = await ai.computers.hint(actor(ME))
    assert again.lines == first.lines and len(ai.thinker.costs) == asked  # cached
    await person_plays(ai)
    log = await ai.store.read_log(game_id)
    answered = [e.record for e in log if e.record["kind"] == "decision" and e.record["user"] == ME]
    assert answered[-1].get("hint") is True
    sheet = (await ai.views.score(game_id, by_game_id=True)).text()
    mine = next(line for line in sheet.splitlines() if "(AI " not in line)
    assert mine.endswith("; 1 hint used") and "hint" not in sheet.replace(mine, "")


async def test_a_hint_shown_before_a_restart_is_counted_after_it(make_ai: MakeAi) -> None:
    before = await make_ai()
    game_id = await solo(before, ai=1, hints=True)
    await until_my_decision(before, game_id)
    shown = await before.computers.hint(actor(ME))
    log = [e.record for e in await before.store.read_log(game_id)]
    assert [r for r in log if r["kind"] == "hint"] == [
        {
            "kind": "hint",
            "seat": 0,
            "at": max(e for e, r in enumerate(log, 1) if r["kind"] in ("decision", "commit")),
        }
    ]
    # The bot starts again: nothing of the first service's memory is left.
    after = await make_ai()
    again = await after.computers.hint(actor(ME))
    assert again.lines == shown.lines  # the same hint, and not a second one counted
    await person_plays(after)
    log = [e.record for e in await after.store.read_log(game_id)]
    assert len([r for r in log if r["kind"] == "hint"]) == 1
    answered = [r for r in log if r["kind"] == "decision" and r["user"] == ME]
    assert answered[-1].get("hint") is True
    assert sum(1 for r in answered if r.get("hint")) == 1


async def test_an_ai_step_lands_exactly_once_when_two_processes_compute_it(
    make_ai: MakeAi,
) -> None:
    first, second = await make_ai(), await make_ai()
    game_id = await solo(first, ai=1)
    await until_the_ai_decides(first, game_id)
    version = await first.store.version(game_id)
    # Both read the same version and think; the store lets one land, the other reads again.
    landed = await asyncio.gather(
        first.computers.play_computers(game_id, steps=1),
        second.computers.play_computers(game_id, steps=1),
    )
    log = await first.store.read_log(game_id)
    ai_commits = [e for e in log if e.seq > version and e.record.get("computer")]
    assert sum(landed) == len(ai_commits) and len(ai_commits) >= 1
    # The second one's step, if any, is the AI's next one (not the same step twice).
    steps = [e.seq for e in log if e.seq > version and e.record["kind"] == "commit"]
    assert steps == sorted(set(steps))


async def test_the_ai_thinks_in_a_worker_process_off_the_event_loop(make_ai: MakeAi) -> None:
    service = await make_ai(ai_workers_kind="process")
    game_id = await solo(service, ai=1)
    pids = await service.thinker.warm_up()
    assert pids and os.getpid() not in pids
    await until_my_decision(service, game_id)
    for _ in range(30):
        await person_plays(service)
        if await service.computers.play_computers(game_id):
            break
    assert service.thinker.costs and all(pid in pids for *_, pid in service.thinker.costs)
    assert all(rss < 150 for rss in service.thinker.worker_rss_mb().values())


async def test_records_note_the_ai_at_a_persons_seat_and_the_hints(ai: GameService) -> None:
    outcome = await ai.lobby.create_game(actor(ME), players=2, seed=5, hints=True)
    await ai.lobby.join(actor(YOU))
    await ai.lobby.start(actor(ME))
    game_id = outcome.game_id
    rng = random.Random(2)
    hinted = False
    for _ in range(4000):
        if (await ai.store.get_game(game_id)).status != "active":
            break
        await ai.computers.play_computers(game_id)
        for user in (ME, YOU):
            with contextlib.suppress(ServiceError):
                panel = await ai.views.panel(actor(user))
                if panel.options:
                    if user == ME and not hinted:
                        await ai.computers.hint(actor(ME))
                        hinted = True
                    await person_plays(ai, user, rng)
                    break
        if hinted and not (await ai.desk.load(await ai.store.get_game(game_id))).pilots:
            await ai.moderation.replace_with_ai(
                actor(ME), YOU, "casual"
            )  # the AI holds it to the end
    kept = await ai.store.game_result(game_id)
    assert kept is not None and kept.result.hints
    mine, theirs = kept.result.seats
    assert mine.hints_used == 1 and mine.ai_turns == 0 and not mine.ai_at_end
    assert theirs.user_id == YOU and theirs.ai_at_end and theirs.ai_turns >= 3


async def test_hints_queue_behind_the_ai_seats_own_work() -> None:
    thinker = Thinker(1, kind="inline", decider=DECIDER)
    game = new_game(GameOptions(players=2, seed=3))
    state, player = game.state.to_json(), game.decisions()[0].player
    try:
        # Asked at once: a hint, an AI seat's decision, another hint.
        await asyncio.gather(
            thinker.think(state, player, "strong", 1, HINT),
            thinker.think(state, player, "casual", 1, SEAT),
            thinker.think(state, player, "strong", 1, HINT),
        )
    finally:
        thinker.close()
    assert [priority for priority, *_ in thinker.costs] == [SEAT, HINT, HINT]


async def test_the_pictures_mark_an_ai_seat_with_its_level(ai: GameService) -> None:
    """The renderer is handed an AI seat as the computer seat, which marks it with its level."""
    game_id = await solo(ai, ai=1, automa=1)
    loaded = await ai.desk.load(await ai.store.get_game(game_id))
    assert loaded.game is not None
    players = await ai.pictures.players(loaded, loaded.game.state)
    kinds = [p.computer for p in players if p.computer is not None]
    assert kinds == [ComputerSeat("ai", "casual")]  # the automa is marked from the state itself
    assert kinds[0].mark() == "AI1"
    assert sum(1 for p in players if p.computer is None) == 2


async def test_ai_seats_draft_in_the_full_setup_with_the_real_ai(make_ai: MakeAi) -> None:
    # The real AI (bot.ai, casual) in three seats of a full-setup game: it drafts like a
    # person, through the service (the last seat's pick is forced), and the game goes on.
    service = await make_ai(ai_decider="bot.ai:decide")
    outcome = await service.lobby.create_game(
        actor(ME), players=4, seed=8, setup="full", ai=3, ai_level="casual"
    )
    await service.lobby.start(actor(ME))
    game_id = outcome.game_id
    for _ in range(60):
        loaded = await service.desk.load(await service.store.get_game(game_id))
        assert loaded.game is not None
        if loaded.game.state.phase != "draft":
            break
        if not await service.computers.play_computers(game_id, steps=1):
            await person_plays(service)
    else:
        raise AssertionError("the draft never ended")
    state = loaded.game.state
    assert len(set(state.seats)) == 4 and all(state.seats)
    log = [e.record for e in await service.store.read_log(game_id)]
    picks = [r for r in log if r["kind"] == "decision" and r.get("auto") == "ai:casual"]
    assert {r["player"] for r in picks} >= {"seat1", "seat2"}  # both AI seats picked
    told = " ".join(str(item.payload) for item in await service.store.pending_outbox(game_id))
    assert "(AI casual) played:" in told
