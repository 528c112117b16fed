"""Contract tests for the store methods the game service added: set_seats, last_message_id."""

from __future__ import annotations

from store_helpers import ALICE, BOB, CAROL, decision, new_game

from bot.store import Store


async def test_set_seats_adds_and_keeps_history(store: Store) -> None:
    game = await new_game(store, seats=[ALICE])
    game = await store.set_seats(game.id, [ALICE, BOB, CAROL])
    assert game.player_ids == (ALICE, BOB, CAROL)
    game = await store.set_seats(game.id, [ALICE, CAROL])
    assert game.player_ids == (ALICE, CAROL)
    assert [s.user_id for s in game.seat_history if s.replaced_at is not None] == [BOB, CAROL]
    assert [g.id for g in await store.list_games(user_id=BOB)] == []


async def test_set_seats_unchanged_is_a_no_op(store: Store) -> None:
    game = await new_game(store)
    again = await store.set_seats(game.id, [ALICE, BOB])
    assert again == game


async def test_last_message_id_is_the_newest_sent(store: Store) -> None:
    game = await new_game(store)
    assert await store.last_message_id(game.id) is None
    await store.append(game.id, 0, [decision(1)], outbox=[{"text": "a"}])
    await store.append(game.id, 1, [decision(2)], outbox=[{"text": "b"}])
    (first,) = await store.claim_outbox()
    assert await store.mark_sent(first.id, first.claim or "", 111)
    assert await store.last_message_id(game.id) == 111
    assert await store.last_message_id(game.id, before_item=first.id) is None
