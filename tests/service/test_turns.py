"""Races, restarts from the store, undo rules, restart turn, skip-confirm, delivery after a crash."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import GameMovedOn, GameService, NotAPlayer, OutboxSender, ServiceError
from tests.service.conftest import MakeService
from tests.service.helpers import USERS, FakeClock, RecordingPort, actor, random_step, started_game


async def decider(service: GameService) -> int:
    """The (first) user who must decide now."""
    for user in USERS:
        try:
            if (await service.views.panel(actor(user))).options:
                return user
        except NotAPlayer:
            continue
    raise AssertionError("nobody decides")


async def start_a_turn(service: GameService) -> tuple[int, str]:
    """The decider answers the turn's first decision (not Confirm); returns (user, notation)."""
    user = await decider(service)
    panel = await service.views.panel(actor(user))
    notation = next(o.notation for o in panel.options if o.notation != "confirm")
    await service.moves.play(actor(user), [notation])
    return user, notation


async def test_two_instances_race_exactly_one_lands(make_service: MakeService) -> None:
    first, second = await make_service(), await make_service()
    await started_game(first)
    user = await decider(first)
    panel = await second.views.panel(actor(user))
    options = [o.notation for o in panel.options][:2]
    results = await asyncio.gather(
        first.moves.play(actor(user), [options[0]], expected_version=panel.version),
        second.moves.play(actor(user), [options[-1]], expected_version=panel.version),
        return_exceptions=True,
    )
    landed = [r for r in results if not isinstance(r, BaseException)]
    moved = [r for r in results if isinstance(r, GameMovedOn)]
    assert len(landed) == 1 and len(moved) == 1
    assert moved[0].current is not None and moved[0].current.version == panel.version + 1


async def test_stale_cache_is_checked_against_the_store(make_service: MakeService) -> None:
    first, second = await make_service(), await make_service()
    await started_game(first)
    user = await decider(first)
    await first.views.panel(actor(user))  # first caches this version
    panel = await second.views.panel(actor(user))
    await second.moves.play(actor(user), [panel.options[0].notation])
    assert (await first.views.panel(actor(user))).version == panel.version + 1


async def test_restart_from_the_store_mid_turn_continues_identically(
    make_service: MakeService,
) -> None:
    live = await make_service()
    game_id = await started_game(live, 3, seed=4)
    rng = random.Random(4)
    for _ in range(25):
        await random_step(live, rng, 3, game_id)
    while (await live.store.read_log(game_id))[-1].kind != "commit":
        await random_step(live, rng, 3, game_id)
    user, _ = await start_a_turn(live)
    before = await live.views.panel(actor(user))
    assert before.can_restart and before.done
    await live.store.close()  # the process goes away
    revived = await make_service()
    after = await revived.views.panel(actor(user))
    assert after == before
    # What the revived service then plays is what a fresh load of the store shows.
    rng_a = random.Random(9)
    for _ in range(15):
        await random_step(revived, rng_a, 3, game_id)
    state_a = revived.desk.cache[game_id].game.state.to_json()
    fresh = await make_service()
    await fresh.views.panel(actor(user))
    assert fresh.desk.cache[game_id].game.state.to_json() == state_a


async def test_restart_turn_goes_back_and_keeps_the_version_growing(service: GameService) -> None:
    await started_game(service)
    before = await service.views.panel(actor(await decider(service)))
    user, _ = await start_a_turn(service)
    outcome = await service.moves.restart_turn(actor(user))
    after = await service.views.panel(actor(user))
    assert after.options == before.options and after.done == ()
    assert outcome.version == before.version + 2
    with pytest.raises(GameMovedOn):
        await service.moves.play(
            actor(user), [before.options[0].notation], expected_version=before.version
        )


async def test_skip_confirm_setting_confirms_automatically(service: GameService) -> None:
    await started_game(service)
    user = await decider(service)
    await service.user_settings.update(user, skip_confirm=True)
    for _ in range(10):
        panel = await service.views.panel(actor(user))
        if not panel.options:
            break
        outcome = await service.moves.play(actor(user), [panel.options[0].notation])
        if outcome.committed:
            break
    assert outcome.committed
    assert (await service.views.panel(actor(user))).kind != "confirm"


async def play_turn(service: GameService, user: int) -> None:
    """The user plays a whole turn, choosing the first non-confirm options, and confirms."""
    for _ in range(20):
        panel = await service.views.panel(actor(user))
        if not panel.options:
            return
        choice = next((o.notation for o in panel.options if o.notation != "confirm"), "confirm")
        if (await service.moves.play(actor(user), [choice])).committed:
            return


async def test_undo_own_turn_before_anyone_acts(service: GameService) -> None:
    game_id = await started_game(service, seed=21)
    user = await decider(service)
    await play_turn(service, user)
    log = await service.store.read_log(game_id)
    last = [e for e in log if e.kind == "commit"][-1].record
    if not last["undoable"]:
        pytest.skip("this seed's first turn revealed contracts")
    assert (await service.views.panel(actor(user))).can_undo
    outcome = await service.moves.undo(actor(user))
    assert outcome.committed
    with pytest.raises(ServiceError, match="only undo your own turn"):
        await service.moves.undo(actor(user))


async def test_undo_refused_after_someone_else_acted(service: GameService) -> None:
    await started_game(service, seed=21)
    user = await decider(service)
    await play_turn(service, user)
    _, _ = await start_a_turn(service)  # the next player begins their turn
    with pytest.raises(ServiceError, match=r"already started their turn|only undo your own"):
        await service.moves.undo(actor(user))


async def test_undo_refused_after_hidden_information_was_revealed(service: GameService) -> None:
    game_id = await started_game(service, 2, seed=3)
    rng = random.Random(3)
    for _ in range(3000):
        log = await service.store.read_log(game_id)
        commits = [e for e in log if e.kind == "commit"]
        last = commits[-1].record
        if last.get("reason") == "turn" and not last.get("undoable") and log[-1].kind == "commit":
            with pytest.raises(ServiceError, match="hidden information"):
                await service.moves.undo(actor(last["user"]))
            return
        assert await random_step(service, rng, 2, game_id)
    raise AssertionError("no turn revealed anything")


async def test_killed_between_commit_and_delivery_delivers_once(
    make_service: MakeService, clock: FakeClock
) -> None:
    service = await make_service()
    await started_game(service)
    await play_turn(service, await decider(service))
    await service.store.close()  # killed before any sender ran
    revived = await make_service()
    port = RecordingPort(fail=1)
    sender = OutboxSender(revived.store, port, clock, service=revived)
    assert await sender.run_once() == 0  # Discord is down: back-off
    assert await sender.run_once() == 0  # not due yet
    clock.advance(10 * 60_000)
    assert await sender.run_once() == 2  # the start and the turn, in order
    other = OutboxSender(revived.store, RecordingPort(), clock, service=revived)
    assert await other.run_once() == 0
    assert [a.reason for a in port.posted] == ["start", "turn"]
    assert port.posted[1].previous_message_id == 900_001
    assert port.posted[0].images and port.posted[0].images[0].data.startswith(b"PNG")
