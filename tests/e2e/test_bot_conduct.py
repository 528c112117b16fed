"""The bot's conduct on Discord: whom it pings, what stays public, how it answers after a start.

Every e2e test also runs under the fake's mention policy (`strict_mentions`): a send or edit
whose mentions are left to Discord's defaults, or allowed more broadly than named users,
fails the test that made it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord

from bot.commands import ids
from bot.commands.client import default_instance
from bot.store import Store
from tests.commands.kit import FakeClock, barrage_bot, start_game, wait_turn_message

SLOW_S = 1.5


class Slowdown:
    """Holds chosen service methods ("part.method") back by `seconds` while `on` (the event
    loop stays free)."""

    def __init__(self, service: Any, names: Sequence[str], seconds: float = SLOW_S) -> None:
        self.on = True
        for name in names:
            part, method = name.split(".")
            holder = getattr(service, part)
            setattr(holder, method, self._slowed(getattr(holder, method), seconds))

    def _slowed(self, method: Callable[..., Any], seconds: float) -> Callable[..., Any]:
        async def slowed(*args: Any, **kwargs: Any) -> Any:
            if self.on:
                await asyncio.sleep(seconds)
            return await method(*args, **kwargs)

        return slowed


class BlockingStore:
    """A store whose calls, once armed, wait for `release`; each notes whether the watched
    interaction had already been acknowledged when the call was made."""

    def __init__(self, store: Store, fake: FakeDiscord) -> None:
        self._store, self._fake = store, fake
        self.release = asyncio.Event()
        self.watch: int | None = None  # index of the watched interaction in fake.interactions
        self.calls: list[tuple[str, bool]] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if not asyncio.iscoroutinefunction(attribute):
            return attribute

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.watch is not None and len(self._fake.interactions) > self.watch:
                acked = self._fake.interactions[self.watch].acknowledged
                self.calls.append((name, acked))
                await self.release.wait()
            return await attribute(*args, **kwargs)

        return call


def lobby_game_id(message: Any) -> int:
    """The game id on a lobby message's buttons."""
    return int(next(c for c in message.custom_ids if c.startswith("brg:lb:")).split(":")[2])


async def test_lobby_edits_never_ping_its_players_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Joins and leaves (typed or pressed) edit the lobby without mentioning anyone; the turn
    message pings exactly the player whose turn it is."""
    fake = fake_discord
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        lobby = await (await alice.slash("barrage new", players=3, seed=4)).reply()
        game_id = lobby_game_id(lobby)
        assert not lobby.ephemeral and lobby.mentions == [] and lobby.notified == []
        edits = lobby.edits  # 1 when the lobby filled a deferred reply (a cold start)
        joined = await (await bob.slash("barrage join")).reply()
        assert not joined.ephemeral and "joined" in joined.content and joined.mentions == []
        assert lobby.edits == edits + 1 and bob.mention in lobby.content and lobby.mentions == []
        await (await carol.click(lobby, ids.lobby_id(game_id, "join"))).reply()
        assert lobby.edits == edits + 2 and carol.mention in lobby.content and lobby.mentions == []
        left = await (await carol.slash("barrage leave")).reply()
        assert "left" in left.content and left.mentions == []
        assert lobby.edits == edits + 3 and carol.mention not in lobby.content
        assert lobby.mentions == []
        await (await carol.click(lobby, ids.lobby_id(game_id, "join"))).reply()
        assert [u.pings() for u in (alice, bob, carol)] == [[], [], []]
        await (await alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        turn = await wait_turn_message(fake)
        [player] = turn.mentions
        assert turn.notified == [player] and lobby.mentions == []
        assert [m.id for m in fake.users[player].pings()] == [turn.id]
    assert fake.mention_problems == []


async def test_public_answers_stay_public_when_the_bot_is_slow(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The lobby, typed join and leave, and Post to channel defer publicly; a refusal after a
    public defer is still private."""
    fake = fake_discord
    alice, bob, carol, dave = fake.alice, fake.bob, fake.carol, fake.dave
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        bot.cold = False  # a warm bot: only the 1 s budget makes it defer
        slow = Slowdown(
            bot.service,
            (
                "lobby.create_game",
                "lobby.join",
                "lobby.leave",
                "views.score",
                "views.game_and_round",
            ),
        )
        here, there = await asyncio.gather(
            alice.slash("barrage new", players=2, seed=3),
            carol.slash("barrage new", in_channel=fake.games, players=2, seed=5),
        )
        for invocation in (here, there):
            assert invocation.ack.type == 5 and not invocation.ack.ephemeral
            lobby = await invocation.reply()
            assert not lobby.ephemeral and "Players (1/2)" in lobby.content
        lobby_there = await there.reply()

        join, refused = await asyncio.gather(bob.slash("barrage join"), dave.slash("barrage leave"))
        assert join.ack.type == refused.ack.type == 5
        assert not join.ack.ephemeral and not refused.ack.ephemeral
        joined = await join.reply()
        assert not joined.ephemeral and "joined" in joined.content
        refusal = await refused.reply()
        assert refusal.ephemeral and refusal.visible_to == dave.id
        assert "not in this game's lobby" in refusal.content
        assert refused.original is not None and refused.original.deleted
        assert all(m.interaction_id != refused.id for m in fake.channel_messages())

        slow.on = False
        game_there = lobby_game_id(lobby_there)
        await (await alice.click(lobby_there, ids.lobby_id(game_there, "join"))).reply()
        await (await carol.click(lobby_there, ids.lobby_id(game_there, "start"))).reply()
        await wait_turn_message(fake, fake.games)
        board = await (await dave.slash("barrage board", in_channel=fake.games)).reply()
        assert board.ephemeral
        post = next(c for c in board.custom_ids if c.startswith("brg:pv:"))

        slow.on = True
        leave, posting = await asyncio.gather(bob.slash("barrage leave"), dave.click(board, post))
        assert leave.ack.type == posting.ack.type == 5
        assert not leave.ack.ephemeral and not posting.ack.ephemeral
        left = await leave.reply()
        assert not left.ephemeral and "left" in left.content
        posted = await posting.reply()
        assert not posted.ephemeral and posted.png and f"shared by {dave.mention}" in posted.content
        assert posted in fake.channel_messages(fake.games)


async def test_the_first_interaction_after_a_start_is_acknowledged_before_any_work(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """With the store blocked, a restarted bot still acknowledges the first click at once."""
    fake = fake_discord
    db, clock = tmp_path / "db.sqlite3", FakeClock()
    async with barrage_bot(fake, db, clock):
        _, turn = await start_game(fake, [fake.alice, fake.bob], seed=5)
    [player] = turn.mentions
    blocking: list[BlockingStore] = []

    def wrap(store: Store) -> Store:
        blocking.append(BlockingStore(store, fake))
        return blocking[-1]  # type: ignore[return-value]

    quiet = {"outbox_interval_s": 60.0, "reminder_interval_s": 60.0}
    async with barrage_bot(fake, db, clock, wrap_store=wrap, **quiet) as bot:
        await asyncio.sleep(0.2)  # the start-up outbox and reminder passes find nothing to do
        store = blocking[0]
        store.watch = len(fake.interactions)
        play = next(c for c in turn.custom_ids if c.startswith("brg:play:"))
        click = asyncio.create_task(fake.users[player].click(turn, play))
        invocation = await asyncio.wait_for(click, 5)  # acknowledged while the store is blocked
        assert invocation.ack.type == 5 and invocation.ack.ephemeral
        await fake.wait_for(lambda: store.calls, what="the service reaching the store")
        assert all(acked for _, acked in store.calls), store.calls
        store.release.set()
        panel = await invocation.reply()
        assert panel.ephemeral and "your turn" in panel.content
        assert not bot.cold


def crash_after_posting(
    db: Path, outbox_id: int, instance: str, run: str, claimed_until: int
) -> None:
    """Make the database look as if run `run` of the bot's instance posted the announcement
    and died before recording it: unsent, still claimed by that run."""
    con = sqlite3.connect(db)
    try:
        con.execute(
            "UPDATE outbox SET sent_at = NULL, message_id = NULL, claim_token = ?,"
            " claimed_until = ?, claim_instance = ?, claim_run = ? WHERE id = ?",
            (run, claimed_until, instance, run, outbox_id),
        )
        con.commit()
    finally:
        con.close()


async def test_a_crashed_runs_announcement_is_posted_once_by_the_next_start(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The next start re-posts at once with the same nonce: within Discord's 120 s the repeat
    returns the first message; after a longer outage a duplicate gets through, and is counted."""
    fake = fake_discord
    seconds = [0.0]
    fake.clock = lambda: seconds[0]  # the fake's time, for nonces
    db, clock = tmp_path / "db.sqlite3", FakeClock()
    async with barrage_bot(fake, db, clock):
        _, turn = await start_game(fake, [fake.alice, fake.bob], seed=5)
    [(item, posted)] = outbox(db)
    assert posted == turn.id
    lease_left = clock.now + 30_000  # the clock stands still: only a recovery frees it

    instance = default_instance(fake.app_id, {})  # what the bot's next start will be
    crash_after_posting(db, item, instance, "crashed-run-1", lease_left)
    seconds[0] += 60  # restarted within the nonce's window
    async with barrage_bot(fake, db, clock):
        await fake.wait_for(lambda: outbox(db) == [(item, turn.id)], what="the post recorded")
    assert fake.nonces.deduplicated == 1 and fake.nonces.duplicates == []
    assert turn_ids(fake) == [turn.id]

    crash_after_posting(db, item, instance, "crashed-run-2", lease_left)
    seconds[0] += 121  # down for longer than Discord remembers nonces
    async with barrage_bot(fake, db, clock):
        await fake.wait_for(lambda: outbox(db)[0][1] is not None, what="the post recorded")
    [first, again] = turn_ids(fake)
    assert first == turn.id and outbox(db) == [(item, again)]
    assert fake.nonces.duplicates == [again]


def turn_ids(fake: FakeDiscord) -> list[int]:
    """Ids of the public messages that carried the game's first turn (with its picture)."""
    return [m.id for m in fake.channel_messages() if m.webhook_id is None and m.attachments]


def outbox(db: Path) -> list[tuple[int, int | None]]:
    """(id, message id) of every announcement, None while unsent."""
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, message_id FROM outbox ORDER BY id").fetchall()
    finally:
        con.close()
