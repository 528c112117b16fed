"""The store contract: what every backend must do, one behaviour per test."""

from __future__ import annotations

import asyncio
import json

import pytest
from store_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Backend,
    FakeClock,
    decision,
    new_game,
)

from bot.store import (
    ACTIVE,
    FINISHED,
    REMINDER,
    TURN_PING,
    ChannelBusyError,
    ClaimOwner,
    GameNotFoundError,
    InvalidDataError,
    InvalidExportError,
    StaleVersionError,
    Store,
    UserSettings,
)
from bot.store.postgres import PostgresStore

# -- games -----------------------------------------------------------------------------


def test_backend_implements_the_interface(store: Store) -> None:
    assert isinstance(store, Store)


async def test_create_game_stores_everything(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    again = await store.get_game(game.id)
    assert again == game
    assert (game.guild_id, game.channel_id, game.creator_id) == (GUILD, CHANNEL, ALICE)
    assert game.options == {"players": 2, "expansions": []}
    assert game.seed == 2**63 - 1
    assert game.engine_version == "0.1.0"
    assert game.status == ACTIVE
    assert game.version == 0
    assert game.player_ids == (ALICE, BOB)
    assert game.created_at == clock.now


async def test_game_ids_are_distinct_across_instances(store: Store, other_store: Store) -> None:
    a = await new_game(store, channel_id=1)
    b = await new_game(other_store, channel_id=2)
    assert a.id != b.id
    assert (await store.get_game(b.id)).channel_id == 2


async def test_missing_game_is_reported(store: Store) -> None:
    with pytest.raises(GameNotFoundError):
        await store.get_game(12345)
    with pytest.raises(GameNotFoundError):
        await store.append(12345, 0, [decision(1)])


async def test_games_are_numbered_within_their_server(store: Store, other_store: Store) -> None:
    a = await new_game(store, channel_id=1)
    b = await new_game(other_store, channel_id=2, guild_id=GUILD + 1)
    c = await new_game(store, channel_id=3)
    assert (a.number, b.number, c.number) == (1, 1, 2)
    assert (await store.game_by_number(GUILD, 2)).id == c.id
    assert (await store.game_by_number(GUILD + 1, 1)).id == b.id
    with pytest.raises(GameNotFoundError):
        await store.game_by_number(GUILD + 1, 2)  # game 2 of the first server only


@pytest.mark.parametrize("number", [0, -1, 2**63, -(2**63) - 1, 10**40])
async def test_ids_and_numbers_no_game_can_have_are_not_found(store: Store, number: int) -> None:
    await new_game(store)
    with pytest.raises(GameNotFoundError):
        await store.game_by_number(GUILD, number)
    with pytest.raises(GameNotFoundError):
        await store.get_game(number)


async def test_games_are_listed_by_seed(store: Store) -> None:
    a = await new_game(store, channel_id=1, seed=5)
    await new_game(store, channel_id=2, seed=6)
    assert [g.id for g in await store.list_games(seed=5)] == [a.id]


async def test_one_active_game_per_channel(store: Store) -> None:
    first = await new_game(store)
    with pytest.raises(ChannelBusyError) as info:
        await new_game(store)
    assert info.value.active_game_id == first.id
    await new_game(store, channel_id=CHANNEL + 1)  # another channel is free


async def test_finished_game_frees_its_channel_and_is_kept(store: Store, clock: FakeClock) -> None:
    first = await new_game(store)
    clock.advance(1000)
    finished = await store.set_status(first.id, FINISHED)
    assert finished.ended_at == clock.now
    second = await new_game(store)
    assert (await store.active_game(CHANNEL)) == second
    assert [g.id for g in await store.list_games(guild_id=GUILD, status=FINISHED)] == [first.id]
    with pytest.raises(ChannelBusyError):
        await store.set_status(first.id, ACTIVE)


async def test_unknown_status_is_refused(store: Store) -> None:
    game = await new_game(store)
    with pytest.raises(InvalidDataError):
        await store.set_status(game.id, "paused")


async def test_list_games_filters(store: Store) -> None:
    a = await new_game(store, channel_id=1, seats=[ALICE, BOB])
    b = await new_game(store, channel_id=2, seats=[BOB, CAROL])
    c = await new_game(store, channel_id=3, guild_id=GUILD + 1, seats=[CAROL, ALICE])
    ids = lambda games: [g.id for g in games]  # noqa: E731
    assert ids(await store.list_games()) == [c.id, b.id, a.id]
    assert ids(await store.list_games(guild_id=GUILD)) == [b.id, a.id]
    assert ids(await store.list_games(user_id=ALICE)) == [c.id, a.id]
    assert ids(await store.list_games(guild_id=GUILD, user_id=CAROL)) == [b.id]
    assert ids(await store.list_games(limit=1)) == [c.id]
    assert ids(await store.list_games(channel_id=2)) == [b.id]
    await store.set_status(b.id, FINISHED)
    d = await new_game(store, channel_id=2, seats=[ALICE, BOB])  # a new game where b was
    assert ids(await store.list_games(channel_id=2)) == [d.id, b.id]
    assert ids(await store.list_games(channel_id=2, status=FINISHED)) == [b.id]


async def test_replace_seat_keeps_history(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    clock.advance(5)
    game = await store.replace_seat(game.id, 1, CAROL)
    assert game.player_ids == (ALICE, CAROL)
    old = [s for s in game.seat_history if s.replaced_at is not None]
    assert [(s.seat, s.user_id, s.replaced_at) for s in old] == [(1, BOB, clock.now)]
    assert [g.id for g in await store.list_games(user_id=BOB)] == []
    with pytest.raises(InvalidDataError):
        await store.replace_seat(game.id, 7, BOB)


async def test_ids_must_fit_64_bits(store: Store) -> None:
    with pytest.raises(InvalidDataError):
        await new_game(store, channel_id=2**64)
    assert await store.list_games() == []


# -- the log ---------------------------------------------------------------------------


async def test_append_returns_versions_and_log_reads_back(store: Store) -> None:
    game = await new_game(store)
    assert await store.append(game.id, 0, [decision(1)]) == 1
    assert await store.append(game.id, 1, [decision(2), decision(3)]) == 3
    entries = await store.read_log(game.id)
    assert [(e.seq, e.record["notation"]) for e in entries] == [
        (1, "move-1"),
        (2, "move-2"),
        (3, "move-3"),
    ]
    assert [e.seq for e in await store.read_log(game.id, after=1, upto=2)] == [2]
    assert (await store.get_game(game.id)).version == 3
    assert await store.version(game.id) == 3


async def _assert_unchanged(store: Store, game_id: int, version: int, snapshots: int) -> None:
    """The game still has exactly `version` records, its old snapshot and no new outbox."""
    assert await store.version(game_id) == version
    assert len(await store.read_log(game_id)) == version
    snap = await store.latest_snapshot(game_id)
    assert (snap.version if snap else 0) == snapshots
    assert all(item.version <= version for item in await store.pending_outbox(game_id))


async def test_stale_append_fails_and_writes_nothing(store: Store) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], snapshot={"v": 1}, outbox=[{"t": "one"}])
    with pytest.raises(StaleVersionError) as info:
        await store.append(
            game.id, 0, [decision(9), decision(10)], snapshot={"v": 2}, outbox=[{"t": "two"}]
        )
    assert (info.value.expected_version, info.value.current_version) == (0, 1)
    await _assert_unchanged(store, game.id, 1, 1)
    assert [i.payload for i in await store.pending_outbox(game.id)] == [{"t": "one"}]


async def test_append_after_a_version_that_does_not_exist_is_refused(store: Store) -> None:
    game = await new_game(store)
    with pytest.raises(InvalidDataError):
        await store.append(game.id, 5, [decision(1)])
    await _assert_unchanged(store, game.id, 0, 0)


@pytest.mark.parametrize(
    "records",
    [
        [],
        [{"notation": "no kind"}],
        [{"kind": ""}],
        ["text"],
        [decision(1), {"kind": "x", "v": {1}}],
    ],
)
async def test_malformed_records_are_refused(store: Store, records: list) -> None:
    game = await new_game(store)
    with pytest.raises(InvalidDataError):
        await store.append(game.id, 0, records)
    await _assert_unchanged(store, game.id, 0, 0)


async def test_unserialisable_snapshot_writes_nothing(store: Store) -> None:
    game = await new_game(store)
    with pytest.raises(InvalidDataError):
        await store.append(game.id, 0, [decision(1)], snapshot={"nan": float("nan")})
    await _assert_unchanged(store, game.id, 0, 0)


async def test_coroutines_sharing_one_instance_race_safely(store: Store) -> None:
    game = await new_game(store)
    results = await asyncio.gather(
        *(store.append(game.id, 0, [decision(i)]) for i in range(20)), return_exceptions=True
    )
    assert results.count(1) == 1
    assert all(isinstance(r, StaleVersionError) for r in results if r != 1)
    assert await store.version(game.id) == 1


async def test_cancelled_append_leaves_the_store_usable(store: Store) -> None:
    game = await new_game(store)
    task = asyncio.ensure_future(store.append(game.id, 0, [decision(1)]))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The append either fully happened or not at all; either way the next one works.
    version = await store.version(game.id)
    assert version in (0, 1)
    assert await store.append(game.id, version, [decision(2)]) == version + 1


async def test_latest_snapshot_at_or_before(store: Store) -> None:
    game = await new_game(store)
    assert await store.latest_snapshot(game.id) is None
    await store.append(game.id, 0, [decision(1), decision(2)], snapshot={"at": 2})
    await store.append(game.id, 2, [decision(3)])
    await store.append(game.id, 3, [decision(4)], snapshot={"at": 4})
    latest = await store.latest_snapshot(game.id)
    assert (latest.version, latest.state) == (4, {"at": 4})
    assert (await store.latest_snapshot(game.id, at_or_before=3)).state == {"at": 2}
    assert await store.latest_snapshot(game.id, at_or_before=1) is None


# -- the outbox ------------------------------------------------------------------------


async def test_outbox_claim_and_mark_sent(store: Store) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "Alice moved"}])
    [item] = await store.claim_outbox()
    assert (item.game_id, item.version, item.channel_id) == (game.id, 1, CHANNEL)
    assert item.payload == {"text": "Alice moved"}
    assert item.attempts == 1
    assert await store.claim_outbox() == []  # claimed: nobody else gets it
    assert await store.mark_sent(item.id, item.claim, 1234567890123456789)
    assert await store.pending_outbox(game.id) == []
    assert not await store.mark_sent(item.id, item.claim, 1)  # idempotent: already sent


async def test_outbox_retry_backs_off(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}])
    [item] = await store.claim_outbox()
    due = await store.retry_outbox(item.id, item.claim, "503 from Discord")
    assert due is not None
    first_delay = due - clock.now
    assert first_delay > 0
    assert await store.claim_outbox() == []
    clock.advance(first_delay)
    [again] = await store.claim_outbox()
    assert again.attempts == 2
    second_due = await store.retry_outbox(again.id, again.claim, "503 again")
    assert second_due is not None
    assert second_due - clock.now > first_delay


async def test_outbox_gives_up_after_many_attempts(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}])
    for _ in range(1000):
        claimed = await store.claim_outbox()
        if not claimed:
            break
        due = await store.retry_outbox(claimed[0].id, claimed[0].claim, "forbidden")
        if due is None:
            break
        clock.advance(due - clock.now)
    else:
        pytest.fail("the outbox retried forever")
    assert await store.pending_outbox(game.id) == []
    clock.advance(10**9)
    assert await store.claim_outbox() == []


async def test_outbox_gives_up_at_once_when_told(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}, {"text": "y"}])
    [item] = await store.claim_outbox()
    assert await store.retry_outbox(item.id, item.claim, "channel gone", give_up=True) is None
    assert [i.payload for i in await store.pending_outbox(game.id)] == [{"text": "y"}]
    [after] = await store.claim_outbox()  # the game's next announcement is not held up
    assert after.payload == {"text": "y"}


async def test_outbox_release_gives_a_claim_back_at_once(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}])
    [item] = await store.claim_outbox()
    assert await store.release_outbox(item.id, item.claim)
    assert not await store.release_outbox(item.id, item.claim)  # that claim is gone
    [again] = await store.claim_outbox()  # the clock has not moved
    assert again.id == item.id and again.attempts == 1  # the released try did not count
    assert await store.mark_sent(again.id, again.claim, 7)
    assert not await store.release_outbox(again.id, again.claim)  # sent stays sent


async def test_outbox_claim_expires_after_lease(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}])
    [crashed] = await store.claim_outbox(lease_ms=30_000)
    clock.advance(29_999)
    assert await other_store.claim_outbox() == []
    clock.advance(1)
    [taken] = await other_store.claim_outbox()
    assert taken.id == crashed.id and taken.claim != crashed.claim
    assert not await store.mark_sent(crashed.id, crashed.claim, 1)  # the old claim is void
    assert await store.retry_outbox(crashed.id, crashed.claim, "late") is None
    assert await other_store.mark_sent(taken.id, taken.claim, 2)


async def test_outbox_release_gives_a_claim_back_unused(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}])
    [item] = await store.claim_outbox()
    assert await store.release_outbox(item.id, item.claim)
    assert not await store.release_outbox(item.id, item.claim)  # the claim is gone
    [again] = await store.claim_outbox()  # due at once: the clock did not move
    assert again.id == item.id and again.attempts == 1 and again.claim != item.claim
    assert not await store.mark_sent(item.id, item.claim, 1)
    assert await store.mark_sent(again.id, again.claim, 2)
    assert not await store.release_outbox(again.id, again.claim)  # sent stays sent
    assert await store.pending_outbox(game.id) == []


async def test_outbox_posts_a_games_announcements_in_order(store: Store) -> None:
    a = await new_game(store, channel_id=1)
    b = await new_game(store, channel_id=2)
    await store.append(a.id, 0, [decision(1)], outbox=[{"n": "a1"}, {"n": "a2"}])
    await store.append(b.id, 0, [decision(1)], outbox=[{"n": "b1"}])
    first = await store.claim_outbox()
    assert [i.payload["n"] for i in first] == ["a1", "b1"]
    assert [i.payload["n"] for i in await store.claim_outbox()] == []  # a2 waits for a1
    await store.mark_sent(first[0].id, first[0].claim, 11)
    assert [i.payload["n"] for i in await store.claim_outbox()] == ["a2"]


async def test_only_the_outbox_bookkeeping_commits_without_waiting_for_the_disk(
    store: Store, backend: Backend
) -> None:
    """PostgreSQL: a commit that writes an announcement waits for the disk (it must never be
    lost); the outbox's bookkeeping (claims, sent marks) does not (SQLite never waits)."""
    if not isinstance(store, PostgresStore):
        pytest.skip(f"{backend.name} has no commit setting of its own")
    asked = "SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'"
    async with store._pool.acquire() as connection:
        # The server's own setting (the tests' server does not wait either: it is thrown away).
        assert (await connection.fetchrow(asked))["source"] != "client"
    async with store._bookkeeping_pool.acquire() as connection:
        assert tuple(await connection.fetchrow(asked)) == ("off", "client")
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}])
    [item] = await store.claim_outbox()
    assert await store.mark_sent(item.id, item.claim, 7)


async def test_outbox_claims_each_games_oldest_waiting_announcement(
    store: Store, clock: FakeClock
) -> None:
    """Of many games with many announcements, a claim takes each game's oldest unfinished
    one (past those sent or given up, not past one backing off), oldest first, `limit` at
    most: in one pass however many wait."""
    games = [await new_game(store, channel_id=c) for c in range(1, 7)]
    for turn in range(3):
        for game in games:
            await store.append(game.id, turn, [decision(1)], outbox=[{"n": f"{game.id}.{turn}"}])
    first = await store.claim_outbox(limit=100)
    assert [i.payload["n"] for i in first] == [f"{g.id}.0" for g in games]
    sent, gone, failing, *rest = first
    await store.mark_sent(sent.id, sent.claim, 1)
    await store.retry_outbox(gone.id, gone.claim, "channel gone", give_up=True)
    due = await store.retry_outbox(failing.id, failing.claim, "503")  # after a back-off
    assert due is not None
    for item in rest:
        await store.release_outbox(item.id, item.claim)
    ids = [g.id for g in games]
    again = await store.claim_outbox(limit=2)
    assert [i.payload["n"] for i in again] == [f"{ids[3]}.0", f"{ids[4]}.0"]
    assert [i.payload["n"] for i in await store.claim_outbox(limit=100)] == [
        f"{ids[5]}.0",
        f"{ids[0]}.1",
        f"{ids[1]}.1",
    ]
    clock.advance(due - clock.now)
    assert [i.payload["n"] for i in await store.claim_outbox(limit=100)] == [f"{ids[2]}.0"]


#: Two processes of different instances (hosts).
HOST_A, HOST_B = ClaimOwner("host-a", "run-1"), ClaimOwner("host-b", "run-1")


async def one_announcement(store: Store) -> None:
    """A game with one announcement waiting in the outbox."""
    game = await new_game(store)
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "x"}])


async def test_a_live_owner_renews_its_claims_and_no_peer_takes_them(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    await one_announcement(store)
    owner, peer = HOST_A, HOST_B
    [held] = await store.claim_outbox(owner=owner, lease_ms=30_000)
    for _ in range(6):  # a minute of renewals every 10 s
        clock.advance(10_000)
        assert await store.renew_outbox_claims(owner, lease_ms=30_000) == 1
        assert await other_store.claim_outbox(owner=peer, lease_ms=30_000) == []
    # The peer's start-up recovery only concerns its own instance.
    assert await other_store.recover_outbox_claims(peer) == 0
    assert await other_store.claim_outbox(owner=peer) == []
    assert await store.mark_sent(held.id, held.claim, 5)
    assert await store.renew_outbox_claims(owner, lease_ms=30_000) == 0  # nothing left


async def test_a_dead_owners_claims_lapse_after_its_last_renewal(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    await one_announcement(store)
    dead, peer = HOST_A, HOST_B
    [held] = await store.claim_outbox(owner=dead, lease_ms=30_000)
    clock.advance(10_000)
    await store.renew_outbox_claims(dead, lease_ms=30_000)  # then it dies
    clock.advance(29_999)
    assert await other_store.claim_outbox(owner=peer) == []
    clock.advance(1)
    [taken] = await other_store.claim_outbox(owner=peer)
    assert taken.id == held.id
    assert await store.renew_outbox_claims(dead, lease_ms=30_000) == 0  # it is not its claim


async def test_the_next_run_of_an_instance_recovers_its_predecessors_claims_at_once(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    a = await new_game(store, channel_id=1)
    b = await new_game(store, channel_id=2)
    await store.append(a.id, 0, [decision(1)], outbox=[{"n": "a1"}])
    await store.append(b.id, 0, [decision(1)], outbox=[{"n": "b1"}])
    crashed, peer = ClaimOwner("host-a", "run-1"), ClaimOwner("host-b", "run-7")
    [mine] = await store.claim_outbox(owner=crashed, limit=1)
    [theirs] = await store.claim_outbox(owner=peer, limit=1)
    restarted = ClaimOwner("host-a", "run-2")
    assert await other_store.recover_outbox_claims(restarted) == 1  # the clock has not moved
    [again] = await other_store.claim_outbox(owner=restarted)
    assert again.id == mine.id and again.claim != mine.claim
    assert again.attempts == 2  # the crashed run may have posted: its try counts
    assert not await store.mark_sent(mine.id, mine.claim, 1)  # the dead run's claim is void
    assert await other_store.mark_sent(again.id, again.claim, 2)
    assert await store.mark_sent(theirs.id, theirs.claim, 3)  # the live peer kept its claim
    assert await other_store.recover_outbox_claims(restarted) == 0


async def test_a_claim_owner_needs_both_parts() -> None:
    with pytest.raises(InvalidDataError):
        ClaimOwner("", "run-1")
    with pytest.raises(InvalidDataError):
        ClaimOwner("host-a", "")


# -- reminders -------------------------------------------------------------------------


async def test_a_reminder_schedule_keeps_its_kind(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.set_reminder(game.id, ALICE, clock.now, kind=TURN_PING)
    await store.set_reminder(game.id, BOB, clock.now)
    assert [r.kind for r in await store.reminders(game.id)] == [TURN_PING, REMINDER]
    claimed = {r.user_id: r for r in await store.claim_reminders()}
    assert claimed[ALICE].kind == TURN_PING and claimed[BOB].kind == REMINDER
    assert await store.reminder_sent(claimed[ALICE], next_due_at=clock.now + 1000)
    [after, _] = await store.reminders(game.id)
    assert (after.kind, after.sent_count) == (TURN_PING, 1)
    with pytest.raises(InvalidDataError):
        await store.set_reminder(game.id, ALICE, clock.now, kind="nag")


async def test_reminder_claim_and_reschedule(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.set_reminder(game.id, BOB, clock.now + 1000)
    assert await store.claim_reminders() == []
    clock.advance(1000)
    [rem] = await store.claim_reminders()
    assert (rem.game_id, rem.user_id, rem.sent_count) == (game.id, BOB, 0)
    assert await store.claim_reminders() == []
    assert await store.reminder_sent(rem, next_due_at=clock.now + 5000)
    [after] = await store.reminders(game.id)
    assert (after.sent_count, after.last_sent_at, after.due_at, after.claim) == (
        1,
        clock.now,
        clock.now + 5000,
        None,
    )
    clock.advance(5000)
    [rem2] = await store.claim_reminders()
    assert await store.reminder_sent(rem2, next_due_at=None)
    assert await store.reminders(game.id) == []


async def test_new_schedule_voids_a_claim(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.set_reminder(game.id, BOB, clock.now)
    [rem] = await store.claim_reminders()
    await store.set_reminder(game.id, BOB, clock.now + 10_000)  # Bob acted meanwhile
    assert not await store.reminder_sent(rem, next_due_at=clock.now + 1)
    [current] = await store.reminders(game.id)
    assert (current.due_at, current.sent_count) == (clock.now + 10_000, 0)


async def test_finished_games_have_no_reminders(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.set_reminder(game.id, BOB, clock.now)
    await store.set_status(game.id, FINISHED)
    assert await store.claim_reminders() == []
    assert await store.reminders(game.id) == []


async def test_clear_reminders(store: Store, clock: FakeClock) -> None:
    game = await new_game(store)
    await store.set_reminder(game.id, ALICE, clock.now)
    await store.set_reminder(game.id, BOB, clock.now)
    await store.clear_reminders(game.id, BOB)
    assert [r.user_id for r in await store.reminders(game.id)] == [ALICE]
    await store.clear_reminders(game.id)
    assert await store.reminders(game.id) == []


async def test_two_instances_claim_each_reminder_once(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    games = [await new_game(store, channel_id=c) for c in range(1, 41)]
    for g in games:
        for user in (ALICE, BOB, CAROL):
            await store.set_reminder(g.id, user, clock.now)
    claimed: list[tuple[int, int]] = []
    while True:
        batches = await asyncio.gather(
            store.claim_reminders(limit=7), other_store.claim_reminders(limit=7)
        )
        if not any(batches):
            break
        claimed += [(r.game_id, r.user_id) for batch in batches for r in batch]
    assert len(claimed) == len(set(claimed)) == 120


async def test_lost_reminder_claim_is_released_after_lease(
    store: Store, other_store: Store, clock: FakeClock
) -> None:
    game = await new_game(store)
    await store.set_reminder(game.id, BOB, clock.now)
    [lost] = await store.claim_reminders(lease_ms=60_000)
    clock.advance(60_000)
    [taken] = await other_store.claim_reminders()
    assert taken.claim != lost.claim
    assert not await store.reminder_sent(lost, next_due_at=None)


# -- per-user settings -----------------------------------------------------------------


async def test_user_settings_default_and_round_trip(store: Store, clock: FakeClock) -> None:
    assert await store.get_user_settings(ALICE) == UserSettings(ALICE)
    mine = UserSettings(
        ALICE,
        time_zone="Europe/Berlin",
        quiet_start=22 * 60,
        quiet_end=7 * 60,
        dm_opt_in=True,
        skip_confirm=True,
        reminder_hours=12,
        heads_up=True,
    )
    stored = await store.put_user_settings(mine)
    assert stored.updated_at == clock.now
    back = await store.get_user_settings(ALICE)
    assert back == mine
    assert back.dm_opt_in is True and back.updated_at == clock.now
    assert back.heads_up is True
    await store.put_user_settings(UserSettings(ALICE, time_zone="Asia/Tokyo"))
    assert await store.get_user_settings(ALICE) == UserSettings(ALICE, time_zone="Asia/Tokyo")


@pytest.mark.parametrize(
    "kwargs",
    [{"quiet_start": 60}, {"quiet_start": 1440, "quiet_end": 0}, {"reminder_hours": 0}],
)
def test_user_settings_refuse_nonsense(kwargs: dict) -> None:
    with pytest.raises(InvalidDataError):
        UserSettings(ALICE, **kwargs)


# -- export and import -----------------------------------------------------------------


async def _played_game(store: Store, clock: FakeClock) -> int:
    """A game with a replaced seat, a few log records and a snapshot."""
    game = await new_game(store)
    clock.advance(10)
    await store.append(game.id, 0, [decision(1), {"kind": "confirm", "user": ALICE}])
    clock.advance(10)
    await store.replace_seat(game.id, 1, CAROL)
    await store.append(game.id, 2, [{"kind": "restart", "to": 2}], snapshot={"x": 1})
    return game.id


async def test_export_import_round_trip(store: Store, clock: FakeClock) -> None:
    game_id = await _played_game(store, clock)
    doc = await store.export_game(game_id)
    doc = json.loads(json.dumps(doc))  # it really is one JSON document
    await store.set_status(game_id, FINISHED)
    imported = await store.import_game(doc, guild_id=GUILD + 1, channel_id=CHANNEL)
    assert imported.id != game_id
    assert (imported.guild_id, imported.channel_id, imported.version) == (GUILD + 1, CHANNEL, 3)
    again = await store.export_game(imported.id)
    assert {**again, "source_game_id": None} == {**doc, "source_game_id": None}
    original = await store.read_log(game_id)
    copied = await store.read_log(imported.id)
    assert [(e.seq, e.record, e.created_at) for e in copied] == [
        (e.seq, e.record, e.created_at) for e in original
    ]


async def test_import_into_a_busy_channel_is_refused(store: Store, clock: FakeClock) -> None:
    game_id = await _played_game(store, clock)
    doc = await store.export_game(game_id)
    with pytest.raises(ChannelBusyError):
        await store.import_game(doc, guild_id=GUILD, channel_id=CHANNEL)
    assert len(await store.list_games()) == 1


def _broken(doc: dict, path: tuple, value: object) -> dict:
    """A deep copy of `doc` with one field replaced (or deleted when value is ...)."""
    copy = json.loads(json.dumps(doc))
    target = copy
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return copy


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("format",), "something-else"),
        (("format_version",), 99),
        (("seed",), ...),
        (("seed",), "42"),
        (("seed",), 2**64),
        (("status",), "paused"),
        (("options",), []),
        (("log", 1, "seq"), 5),
        (("log", 0, "record"), {"no": "kind"}),
        (("seats", 0, "user_id"), True),
    ],
)
async def test_import_refuses_a_malformed_document(
    store: Store, clock: FakeClock, path: tuple, value: object
) -> None:
    game_id = await _played_game(store, clock)
    doc = _broken(await store.export_game(game_id), path, value)
    with pytest.raises(InvalidExportError):
        await store.import_game(doc, guild_id=GUILD, channel_id=CHANNEL + 1)
    assert len(await store.list_games()) == 1
