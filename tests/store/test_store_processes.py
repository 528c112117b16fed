"""Several bot processes on one PostgreSQL database: every race has exactly one winner.

Two rival processes (tests/store/rival.py) are released together at a barrier for each
race: both append at the same version, both claim the same announcement, both claim the
same reminder. The real OutboxSender in a killed process keeps its claim until its lease
lapses, and a commit in one process wakes the sender of another (LISTEN/NOTIFY).
bench/processes.py runs the same races 1,000 times each.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from pgtestserver import TestPostgres
from rival import Rivals
from store_helpers import ALICE, BOB, new_game

from bot.store import EXPIRY, Store, system_clock
from bot.store.postgres import PostgresStore, pg_migrations

RACES = 50
RIVAL = Path(__file__).with_name("rival.py")


@contextlib.asynccontextmanager
async def shared(url: str) -> AsyncIterator[Store]:
    """The test's own store on the database the rivals use."""
    store = await PostgresStore.open(url, clock=system_clock)
    try:
        yield store
    finally:
        await store.close()


async def test_two_processes_append_at_one_version_and_exactly_one_wins(postgres_url: str) -> None:
    async with shared(postgres_url) as store, Rivals(postgres_url) as rivals:
        game = await new_game(store)
        winners = []
        for version in range(RACES):
            answers = await rivals.race(
                *({"op": "append", "game": game.id, "version": version, "tag": t} for t in "ab")
            )
            assert sorted(a["won"] for a in answers) == [False, True], (version, answers)
            winners.append("ab"[[a["won"] for a in answers].index(True)])
        log = await store.read_log(game.id)
        assert [(e.seq, e.record["by"]) for e in log] == list(enumerate(winners, start=1))


async def test_two_processes_claim_one_announcement_and_exactly_one_gets_it(
    postgres_url: str,
) -> None:
    async with shared(postgres_url) as store, Rivals(postgres_url) as rivals:
        game = await new_game(store)
        holders = []
        for version in range(RACES):
            await store.append(game.id, version, [{"kind": "system"}], outbox=[{"n": version}])
            answers = await rivals.race(
                {"op": "claim_outbox", "owner": "a"}, {"op": "claim_outbox", "owner": "b"}
            )
            claimed = [a["claimed"] for a in answers]
            assert sorted(map(len, claimed)) == [0, 1], (version, answers)
            [[item_id, claim]] = claimed[0] or claimed[1]
            assert await store.mark_sent(item_id, claim, 1000 + version)
            holders.append(0 if claimed[0] else 1)
        assert await store.pending_outbox(game.id) == []
        assert len(holders) == RACES


async def test_two_processes_claim_one_reminder_and_exactly_one_gets_it(
    postgres_url: str,
) -> None:
    async with shared(postgres_url) as store, Rivals(postgres_url) as rivals:
        game = await new_game(store)
        for race in range(RACES):
            user = ALICE if race % 2 else BOB
            await store.set_reminder(game.id, user, system_clock() - 1)
            answers = await rivals.race({"op": "claim_reminders"}, {"op": "claim_reminders"})
            claimed = [a["claimed"] for a in answers]
            assert sorted(map(len, claimed)) == [0, 1], (race, answers)
            [[game_id, user_id, _]] = claimed[0] or claimed[1]
            assert (game_id, user_id) == (game.id, user)
            await store.clear_reminders(game.id)


async def test_two_processes_claim_one_deadline_and_exactly_one_gets_it(
    postgres_url: str,
) -> None:
    async with shared(postgres_url) as store, Rivals(postgres_url) as rivals:
        game = await new_game(store)
        for race in range(RACES):
            user = ALICE if race % 2 else BOB
            await store.set_deadlines(game.id, EXPIRY, [(user, system_clock() - 1)], version=race)
            answers = await rivals.race(
                {"op": "claim_deadlines", "kind": EXPIRY}, {"op": "claim_deadlines", "kind": EXPIRY}
            )
            claimed = [a["claimed"] for a in answers]
            assert sorted(map(len, claimed)) == [0, 1], (race, answers)
            [[game_id, user_id, _]] = claimed[0] or claimed[1]
            assert (game_id, user_id) == (game.id, user)


async def test_two_bot_processes_act_on_each_expiry_exactly_once(postgres_url: str) -> None:
    """Games whose players' time ran out 4 hours ago: two processes pass their clocks at the
    same moment, and each game gets one expiry and one passed turn."""
    from bot.service import GameService
    from bot.service.types import Actor

    past = system_clock() - 40 * 3_600_000  # the games began 40 hours ago: 12 h + 24 h bank
    store = await PostgresStore.open(postgres_url, clock=lambda: past)
    try:
        service = GameService(store, clock=lambda: past)
        games = []
        for channel in range(3):
            where = Actor(ALICE, 1, 5000 + channel)
            created = await service.lobby.create_game(
                where, players=2, seed=channel, clock="12h", timeout="skip"
            )
            await service.lobby.join(Actor(BOB, 1, 5000 + channel))
            await service.lobby.start(where)
            games.append(created.game_id)
        async with Rivals(postgres_url) as rivals:
            answers = await rivals.race({"op": "expire"}, {"op": "expire"})
        assert sum(a["claimed"] for a in answers) == len(games), answers
        for game_id in games:
            log = [e.record for e in await store.read_log(game_id)]
            assert [r["kind"] for r in log].count("expiry") == 1, game_id
    finally:
        await store.close()


class Sender:
    """An OutboxSender in a process of its own (rival.py sender), its lines timed."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._new = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(
        cls, url: str, instance: str, *, lease_ms: int, renew_s: float, poll_s: float, mode: str
    ) -> Sender:
        """Start the process."""
        args = [url, instance, str(lease_ms), str(renew_s), str(poll_s), mode]
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(RIVAL), "sender", *args, stdout=asyncio.subprocess.PIPE
        )
        return cls(process)

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            self.lines.append(line.decode().strip())
            self._new.set()

    async def wait_for(self, prefix: str, timeout: float = 30.0) -> str:
        """The first line starting with `prefix`, waiting for it if need be."""
        async with asyncio.timeout(timeout):
            while True:
                for line in self.lines:
                    if line.startswith(prefix):
                        return line
                self._new.clear()
                await self._new.wait()

    def saw(self, prefix: str) -> bool:
        """Whether a line starting with `prefix` came."""
        return any(line.startswith(prefix) for line in self.lines)

    async def kill(self) -> None:
        """SIGKILL: no clean-up at all, as a crash or a power cut."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self._reader


async def test_a_dead_senders_claim_passes_to_a_peer_only_when_its_lease_lapses(
    postgres_url: str,
) -> None:
    lease_ms = 1500
    async with shared(postgres_url) as store:
        dying = await Sender.start(
            postgres_url, "host-a", lease_ms=lease_ms, renew_s=0.3, poll_s=0.2, mode="hang"
        )
        peer = None
        try:
            await dying.wait_for("listening")
            game = await new_game(store)
            await store.append(game.id, 0, [{"kind": "system"}], outbox=[{"n": 1}])
            item = await dying.wait_for("posting")
            # A peer that polls often, on another host (so no start-up recovery applies).
            peer = await Sender.start(
                postgres_url, "host-b", lease_ms=lease_ms, renew_s=0.3, poll_s=0.2, mode="post"
            )
            await peer.wait_for("listening")
            # While the owner lives (hung in its post), it renews and the peer gets nothing,
            # for more than twice the lease.
            await asyncio.sleep(2.5 * lease_ms / 1000)
            assert dying.saw("renewed 1") and not peer.saw("posting"), (dying.lines, peer.lines)
            await dying.kill()
            # Dead: once its lease has lapsed, the peer takes the announcement over.
            assert await peer.wait_for("posting") == item
            await _until_sent(store, game.id)
        finally:
            await dying.kill()
            if peer is not None:
                await peer.kill()


async def test_a_commit_in_one_process_wakes_the_sender_of_another(postgres_url: str) -> None:
    async with shared(postgres_url) as store:
        # It polls once an hour: only a wake-up through the database can make it post.
        sender = await Sender.start(
            postgres_url, "host-b", lease_ms=30_000, renew_s=10, poll_s=3600, mode="post"
        )
        try:
            await sender.wait_for("listening")
            await asyncio.sleep(0.5)  # its start-up delivery round has found nothing
            game = await new_game(store)
            await store.append(game.id, 0, [{"kind": "system"}], outbox=[{"n": 1}])
            await sender.wait_for("posting")
            await _until_sent(store, game.id)
        finally:
            await sender.kill()


async def _until_sent(store: Store, game_id: int) -> None:
    """Wait until the game has no announcement left to post."""
    async with asyncio.timeout(30):
        while await store.pending_outbox(game_id):
            await asyncio.sleep(0.05)


async def test_processes_starting_together_on_an_empty_database_migrate_it_once(
    postgres_server: TestPostgres, postgres_url: str
) -> None:
    """Three processes open a store on an empty database at the same instant, ten times over:
    every one opens it, and exactly one applies each migration while the others wait."""
    steps = [step.version for step in pg_migrations()]
    async with Rivals(postgres_url, count=3, mode="opener") as rivals:
        for _ in range(10):
            url = postgres_server.new_schema()
            try:
                answers = await rivals.race(*[{"op": "open", "url": url}] * 3)
            finally:
                postgres_server.drop_schema(url)
            assert all("applied" in answer for answer in answers), answers
            applied = sorted(v for answer in answers for v in answer["applied"])
            assert applied == steps, answers
