"""The turn clock's rows on every backend: deadlines claimed once, time away, outages."""

from __future__ import annotations

import pytest
from store_helpers import ALICE, BOB, FakeClock, new_game

from bot.store import ACTIVE, AI_STEP, EXPIRY, FINISHED, InvalidDataError, Store


async def test_deadlines_are_replaced_per_kind_and_listed_soonest_first(
    store: Store, clock: FakeClock
) -> None:
    game = await new_game(store)
    await store.set_deadlines(
        game.id, EXPIRY, [(ALICE, clock.now + 50), (BOB, clock.now + 10)], version=3
    )
    await store.set_deadlines(game.id, AI_STEP, [(0, clock.now + 20)], version=3)
    assert [(d.user_id, d.kind) for d in await store.deadlines(game.id)] == [
        (BOB, EXPIRY),
        (0, AI_STEP),
        (ALICE, EXPIRY),
    ]
    await store.set_deadlines(game.id, EXPIRY, [(ALICE, clock.now + 5)], version=4)
    assert [(d.user_id, d.version) for d in await store.deadlines(game.id)] == [(ALICE, 4), (0, 3)]
    with pytest.raises(InvalidDataError):
        await store.set_deadlines(game.id, "nag", [], version=4)


async def test_a_due_deadline_is_claimed_once_until_its_lease_ends(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    game = await new_game(store)
    await store.set_deadlines(game.id, EXPIRY, [(ALICE, clock.now + 100)], version=2)
    assert await store.claim_deadlines(EXPIRY) == []  # not due yet
    clock.advance(100)
    [claimed] = await store.claim_deadlines(EXPIRY, lease_ms=1_000)
    assert (claimed.user_id, claimed.version) == (ALICE, 2) and claimed.claim
    assert await other_store.claim_deadlines(EXPIRY) == []
    assert await store.claim_deadlines(AI_STEP) == []
    clock.advance(1_000)
    [again] = await other_store.claim_deadlines(EXPIRY)
    assert not await store.deadline_done(claimed)  # its lease ended: the claim is lost
    assert await other_store.deadline_done(again, next_due_at=clock.now + 500)
    assert [d.due_at for d in await store.deadlines(game.id)] == [clock.now + 500]
    clock.advance(500)
    [third] = await store.claim_deadlines(EXPIRY)
    assert await store.deadline_done(third)
    assert await store.deadlines(game.id) == []


async def test_a_new_schedule_voids_a_claim(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.set_deadlines(game.id, EXPIRY, [(ALICE, clock.now)], version=2)
    [claimed] = await store.claim_deadlines(EXPIRY)
    await store.set_deadlines(game.id, EXPIRY, [(ALICE, clock.now + 9)], version=5)
    assert not await store.deadline_done(claimed)
    assert [d.version for d in await store.deadlines(game.id)] == [5]


async def test_deadlines_of_a_game_that_is_over_are_not_claimed(
    store: Store, clock: FakeClock
) -> None:
    game = await new_game(store)
    await store.set_deadlines(game.id, EXPIRY, [(ALICE, clock.now)], version=2)
    await store.set_status(game.id, FINISHED)
    assert await store.claim_deadlines(EXPIRY) == []
    assert (await store.get_game(game.id)).status != ACTIVE


async def test_time_away_is_kept_and_ended_early(store: Store, clock: FakeClock) -> None:
    start = clock.now
    await store.set_away(ALICE, start + 1_000)
    clock.advance(400)
    await store.set_away(ALICE, None)  # back early
    clock.advance(100)
    await store.set_away(ALICE, clock.now + 2_000)
    assert await store.away_spans(ALICE) == [(start, start + 400), (start + 500, start + 2_500)]
    assert await store.away_spans(ALICE, since=start + 400) == [(start + 500, start + 2_500)]
    assert await store.away_spans(BOB) == []
    await store.set_away(ALICE, None)
    assert await store.away_spans(ALICE, since=start + 400) == []


async def test_an_outage_is_a_silence_of_every_heartbeat(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    assert await store.beat("a", gap_ms=180_000) is None  # the first beat ever
    clock.advance(60_000)
    assert await other_store.beat("b", gap_ms=180_000) is None
    clock.advance(150_000)  # a beat 150 s ago (b): no outage yet
    assert await store.beat("a", gap_ms=180_000) is None
    down = clock.now
    clock.advance(3_600_000)  # everyone silent for an hour
    assert await other_store.beat("b", gap_ms=180_000) == (down, clock.now)
    assert await store.beat("a", gap_ms=180_000) is None
    assert await store.outages() == [(down, down + 3_600_000)]
    assert await store.outages(since=down + 3_600_000) == []
