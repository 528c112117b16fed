"""AI seats through the service: the lobby, AI steps landed as log records (exactly once),
told in words and never pinged, undo across them, a moderator's replacement and its taking
back, hints, and the ranking naming each seat's kind. The AI is tests/aiplayer.py (instant);
one test runs it in a real worker process."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.service import GameService, LobbyError, RendererPool, ServiceConfig, ServiceError
from bot.service.errors import NewGameRefused
from bot.service.thinking import Thinker
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


async def solo(service: GameService, ai: int = 1, **options: object) -> int:
    """One person against `ai` AI players (and any automas in `options`), started."""
    players = 1 + ai + int(options.get("automa", 0))  # type: ignore[call-overload]
    outcome = await service.create_game(
        actor(ME), players=players, seed=5, ai=ai, ai_level="casual", **options
    )
    await service.start(actor(ME))
    return outcome.game_id


async def person_plays(service: GameService, user: int = ME, rng: random.Random | None = None):
    """The user answers their decision (a random option, else the first); the outcome."""
    panel = await service.panel(actor(user))
    assert panel.options, panel.prompt
    option = rng.choice(panel.options) if rng else panel.options[0]
    return await service.play(actor(user), [option.notation], expected_version=panel.version)


async def until_my_decision(service: GameService, game_id: int, user: int = ME) -> None:
    """Land AI steps until the user must decide (or the game is over)."""
    for _ in range(500):
        if (await service.store.get_game(game_id)).status != "active":
            return
        panel = await service.panel(actor(user))
        if panel.options:
            return
        assert await service.play_computers(game_id, steps=1) == 1, panel.prompt
    raise AssertionError("the AI never handed over")


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
    outcome = await ai.create_game(actor(ME), players=4, seed=1, automa=1)
    with pytest.raises(ServiceError, match="creator"):
        await ai.add_ai(actor(YOU))
    added = await ai.add_ai(actor(ME), "strong")
    assert "AI player (strong) joined" in added.lines[0].render()
    assert "3/4" in added.lines[0].render()
    await ai.add_ai(actor(ME))  # the last AI player's level again
    assert await ai.lobby_ais(outcome.game_id) == ["strong", "strong"]
    with pytest.raises(LobbyError, match="full"):
        await ai.join(actor(YOU))
    await ai.remove_ai(actor(ME))
    await ai.join(actor(YOU))
    started = await ai.start(actor(ME))
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
    for _ in range(50):
        loaded = await ai._load(await ai.store.get_game(game_id))
        if loaded.ai_deciding():
            break
        await person_plays(ai)
    else:
        raise AssertionError("the AI never had to decide")
    # While the AI must decide nobody is pinged and no reminder waits.
    assert {r.user_id for r in await ai.store.reminders(game_id)} <= {ME}
    before = await ai.store.version(game_id)
    assert await ai.play_computers(game_id, steps=1) == 1
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
    exported = await ai.export_game(actor(ME), game_id)
    assert exported["options"]["ai"] == ["casual", "casual"]
    kept = await ai.store.game_result(game_id)
    imported = await ai.import_game(actor(ME, channel=CHANNEL + 1, manage=True), exported)
    again = await ai.store.game_result(imported.game_id)
    assert kept is not None and again is not None and again.result == kept.result
    # The computer seats are kept as such and count in no statistic.
    assert [s.user_id is None for s in kept.result.seats].count(True) == 3


def line_text(line: object) -> str:
    """The plain text of a stored announcement line."""
    parts = line if isinstance(line, list) else []
    return "".join(p if isinstance(p, str) else f"<@{p.get('user')}>" for p in parts)
