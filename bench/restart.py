"""Restarts mid-game: the real `python -m bot` process, stopped and started 20 times (prints figures).

The fake Discord (tests/fakediscord) and three players run in this process; the bot is a
child process on one SQLite file. A three-player game is played through the phone panel
(Play your turn, then random buttons and select values). Every cycle the bot is started,
answers its first interaction (the figure this bench is for), plays a few turns, and is
stopped: every other cycle cleanly (SIGTERM), the others by SIGKILL 0-400 ms after a turn was
committed, while its announcement may be rendering or on its way to Discord.

With `--busy N` (10), N more games in their own channels each get a turn committed while the
bot is down, so that every start also has N announcements to render and post while it
answers its first interaction.

Printed: the first acknowledgement after each start (from the interaction to the accepted
callback, as the fake measures it; by kind: the Play button, a spectator's /barrage board,
a button on the newest panel opened before the restart, often stale by then), how long announcements left behind by a
crash took to be posted after the next start, and duplicate announcements: turn messages
posted twice for one commit (the fake deduplicates an enforced nonce for 120 s and counts
both what it stopped and what got through).

Timings depend on the machine and on what else runs on it; run it on a quiet machine.

Run: python bench/restart.py [--restarts 20] [--busy 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import re
import signal
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the fake Discord lives with the tests
sys.path.insert(0, str(ROOT))

from fakediscord import (  # noqa: E402
    FakeDiscord,
    FakeDiscordError,
    FakeUser,
    Invocation,
    Message,
    run_bot_process,
)

from bot.commands import ids  # noqa: E402
from bot.service import Actor, GameService, NotYourTurn, RendererPool  # noqa: E402
from bot.store import open_store, system_clock  # noqa: E402

LATE_S = 3.0
KINDS = ("play", "board", "panel")


@dataclass
class Figures:
    """What the cycles measured."""

    first_acks: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    connect_s: list[float] = field(default_factory=list)
    reposted_s: list[float] = field(default_factory=list)
    crashes_with_pending: int = 0
    busy_posts: int = 0
    turns: int = 0
    interactions: int = 0
    errors: list[str] = field(default_factory=list)


class Database:
    """Read-only looks at the bot's database (WAL lets a reader in beside the bot)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _one(self, sql: str) -> int:
        if not self.path.exists():
            return 0  # before the bot's first start
        con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        try:
            return int(con.execute(sql).fetchone()[0] or 0)
        finally:
            con.close()

    def committed(self) -> int:
        """Announcements written by commits so far."""
        return self._one("SELECT COUNT(*) FROM outbox")

    def pending(self) -> int:
        """Announcements not yet posted."""
        return self._one("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL")

    def unsent_ids(self) -> set[int]:
        """Ids of the announcements not yet posted."""
        if not self.path.exists():
            return set()
        con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        try:
            rows = con.execute(
                "SELECT id FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL"
            ).fetchall()
        finally:
            con.close()
        return {int(r[0]) for r in rows}

    def sent(self) -> int:
        """Announcements marked posted."""
        return self._one("SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL")


class Table:
    """The players, the spectator and what they see."""

    def __init__(self, fake: FakeDiscord, rng: random.Random) -> None:
        self.fake, self.rng = fake, rng
        self.players = [fake.alice, fake.bob, fake.carol]
        self.spectator = fake.dave
        self.panel: tuple[FakeUser, Message] | None = None

    def turn_message(self) -> Message | None:
        """The newest public message with a Play your turn button."""
        for message in reversed(self.fake.channel_messages()):
            if any(c.startswith("brg:play:") for c in message.custom_ids):
                return message
        return None

    def deciders(self) -> list[FakeUser]:
        """The player the newest turn message pings first, then the others."""
        turn = self.turn_message()
        pinged = [self.fake.users[u] for u in turn.mentions] if turn else []
        return pinged + [p for p in self.players if p not in pinged]

    async def press_play(self, user: FakeUser) -> Invocation:
        """Press Play your turn on the newest turn message (a newer one may just replace it)."""
        for _ in range(50):
            turn = self.turn_message()
            assert turn is not None
            play = next(c for c in turn.custom_ids if c.startswith("brg:play:"))
            try:
                return await user.click(turn, play)
            except FakeDiscordError:  # the button was stripped as we looked
                await asyncio.sleep(0.05)
        raise AssertionError("no Play your turn button to press")

    async def open_panel(self) -> tuple[FakeUser, Message] | None:
        """Press Play your turn as whoever has a decision; None when nobody has one."""
        if self.turn_message() is None:
            return None
        for user in self.deciders():
            reply = await (await self.press_play(user)).reply(timeout=30)
            if options(reply):
                return user, reply
        return None

    async def answer(self, user: FakeUser, panel: Message) -> Message:
        """One random answer on the panel: a button, or a value of the select's page."""
        buttons = [c for c in panel.custom_ids if re.fullmatch(ids.OPTION_TEMPLATE, c)]
        select = next((c for c in panel.custom_ids if c.startswith("brg:s:")), None)
        if buttons and (select is None or self.rng.random() < 0.5):
            invocation = await user.click(panel, self.rng.choice(buttons))
        else:
            assert select is not None
            values = [o["value"] for o in panel.component(select)["options"]]
            invocation = await user.select(panel, select, [self.rng.choice(values)])
        return await invocation.reply(timeout=30)


def options(panel: Message) -> bool:
    """Whether a panel offers answers."""
    return any(
        re.fullmatch(ids.OPTION_TEMPLATE, c) or c.startswith("brg:s:") for c in panel.custom_ids
    )


async def new_game(fake: FakeDiscord, table: Table, seed: int) -> None:
    """Alice opens a three-player game, Bob and Carol join, Alice starts it."""
    creator, *others = table.players
    lobby = await (await creator.slash("barrage new", players=3, seed=seed)).reply(timeout=30)
    game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
    for user in others:
        await (await user.click(lobby, ids.lobby_id(game_id, "join"))).reply(timeout=30)
    await (await creator.click(lobby, ids.lobby_id(game_id, "start"))).reply(timeout=30)
    await fake.wait_for(table.turn_message, timeout=30, what="the first turn message")


async def first_interaction(table: Table, kind: str) -> tuple[str, float]:
    """The first interaction after a start; returns its kind and acknowledgement time."""
    if kind == "panel" and table.panel is not None:
        user, panel = table.panel
        buttons = [c for c in panel.custom_ids if re.fullmatch(ids.OPTION_TEMPLATE, c)]
        select = next((c for c in panel.custom_ids if c.startswith("brg:s:")), None)
        if buttons:
            invocation = await user.click(panel, buttons[0])
        elif select:
            value = panel.component(select)["options"][0]["value"]
            invocation = await user.select(panel, select, [value])
        else:
            kind = "play"
    if kind == "board" or (kind == "panel" and table.panel is None):
        kind = "board"
        invocation = await table.spectator.slash("barrage board", view="map")
    elif kind == "play":
        invocation = await table.press_play(table.deciders()[0])
    ack = invocation.record.ack
    assert ack is not None
    await invocation.reply(timeout=60)
    return kind, ack.at - invocation.record.created_at


def first_kind(index: int) -> str:
    """After a clean stop a player's panel is open (press on it); else Play or a board."""
    if index % 2 == 1:
        return "panel"
    return "play" if index % 4 == 0 else "board"


async def play_turns(table: Table, db: Database, turns: int, figures: Figures) -> bool:
    """Play until `turns` more turns are committed; False if the game ended meanwhile."""
    goal = db.committed() + turns
    while db.committed() < goal:
        opened = await table.open_panel()
        figures.interactions += 1
        if opened is None:
            return False
        user, panel = opened
        for _ in range(60):
            table.panel = (user, panel)  # the newest panel with answers (stale after a commit)
            panel = await table.answer(user, panel)
            figures.interactions += 1
            if not options(panel):
                break
    figures.turns += turns
    return True


class SideGames:
    """Games advanced through the service while the bot is down (their announcements wait)."""

    def __init__(self, fake: FakeDiscord, path: Path, count: int, rng: random.Random) -> None:
        self.fake, self.path, self.rng = fake, path, rng
        self.channels = [fake.add_channel(f"side-{i}") for i in range(count)]
        self.players = [fake.alice, fake.bob]

    async def advance(self) -> int:
        """Create the games on the first call; then commit one turn in each. Returns commits."""
        store = await open_store(self.path, clock=system_clock)
        service = GameService(store, clock=system_clock, renderer_pool=RendererPool(kind="inline"))
        commits = 0
        try:
            for channel in self.channels:
                acts = [Actor(u.id, self.fake.guild.id, channel.id) for u in self.players]
                if await store.active_game(channel.id) is None:
                    await service.lobby.create_game(
                        acts[0], players=2, seed=self.rng.randrange(2**31)
                    )
                    await service.lobby.join(acts[1])
                    await service.lobby.start(acts[0])
                    commits += 1
                    continue
                commits += await self._one_turn(service, acts)
        finally:
            service.renderer_pool.close()
            await store.close()
        return commits

    async def _one_turn(self, service: GameService, acts: list[Actor]) -> int:
        """Random answers by whoever decides until a turn is committed (0 if the game ended)."""
        for _ in range(200):
            for actor in acts:
                try:
                    panel = await service.views.panel(actor)
                except NotYourTurn:
                    continue
                except Exception:
                    return 0  # the game is over
                if panel.options and panel.your_turn:
                    notation = self.rng.choice(panel.options).notation
                    outcome = await service.moves.play(
                        actor, [notation], expected_version=panel.version
                    )
                    if outcome.committed:
                        return 1
                    break
            else:
                return 0
        return 0


async def until(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    """Poll until the predicate holds (True) or the time is up (False)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return predicate()


async def cycle(
    fake: FakeDiscord,
    table: Table,
    db: Database,
    argv: list[str],
    env: dict[str, str],
    index: int,
    figures: Figures,
    rng: random.Random,
    side: SideGames,
) -> str:
    """One start, first interaction, a few turns, and a stop; returns the bot's output."""
    crash = index % 2 == 1
    left_by_crash = db.unsent_ids()
    if index:
        figures.busy_posts += await side.advance()
    sessions = len(fake.sessions)
    spawned = asyncio.get_running_loop().time()
    async with run_bot_process(fake, argv, extra_env=env, cwd=ROOT, timeout=60) as bot:
        await until(lambda: len(fake.sessions) > sessions and fake.connected(), 30)
        figures.connect_s.append(asyncio.get_running_loop().time() - spawned)
        if index == 0:
            await new_game(fake, table, rng.randrange(2**31))
        else:
            kind, seconds = await first_interaction(table, first_kind(index))
            figures.first_acks[kind].append(seconds)
        if left_by_crash:
            figures.crashes_with_pending += 1
            if await until(lambda: not left_by_crash & db.unsent_ids(), 60):
                figures.reposted_s.append(asyncio.get_running_loop().time() - spawned)
            else:
                figures.errors.append(f"cycle {index}: a crashed run's announcement not posted")
        if not await play_turns(table, db, rng.randint(1, 3), figures):
            await new_game(fake, table, rng.randrange(2**31))
        if not crash:  # the next player opens the panel and is mid-decision at the stop
            opened = await table.open_panel()
            table.panel = opened
        if crash:
            await asyncio.sleep(rng.uniform(0.0, 0.4))  # the announcement is on its way
            bot.process.send_signal(signal.SIGKILL)
            await bot.process.wait()
            await until(lambda: not fake.connected(), 10)
        else:
            await until(lambda: db.pending() == 0, 30)
            bot.process.send_signal(signal.SIGTERM)
            await bot.process.wait()
    return bot.text


def ms(values: list[float], q: float | None = None) -> str:
    """A quantile (nearest rank) or the maximum, in ms."""
    if not values:
        return "-"
    ordered = sorted(values)
    if q is None:
        return f"{ordered[-1] * 1000:.0f}"
    return f"{ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] * 1000:.0f}"


async def main(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    figures = Figures()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="barrage-restart-") as tmp:
        path = Path(tmp) / "games.sqlite3"
        db = Database(path)
        # The fake measures acknowledgements instead of failing the late ones.
        async with FakeDiscord(ack_deadline=30.0) as fake:
            config = Path(tmp) / "config.toml"
            config.write_text(
                f"[discord]\ntest_guild_id = {fake.guild.id}\n"
                f'[database]\npath = "{path}"\n'
                "[backup]\ninterval_hours = 0\n"
                '[logging]\nlevel = "INFO"\n'
            )
            env = {"BARRAGE_BOT_TOKEN": fake.token, "PYTHONPATH": str(ROOT)}
            argv = ["-m", "bot", "--config", str(config)]
            table = Table(fake, rng)
            side = SideGames(fake, path, args.busy, rng)
            outputs = []
            for index in range(args.restarts + 1):  # the first start sets the game up
                try:
                    outputs.append(
                        await cycle(fake, table, db, argv, env, index, figures, rng, side)
                    )
                except Exception as exc:  # a bench reports, the tests judge
                    figures.errors.append(f"cycle {index}: {type(exc).__name__}: {exc}")
                    print(figures.errors[-1][:2000], flush=True)
            problems = fake.take_failures()
            posts = [
                str(c.body["nonce"])
                for c in fake.calls
                if c.method == "POST"
                and c.path.endswith("/messages")
                and c.status == 200
                and isinstance(c.body, dict)
                and str(c.body.get("nonce", "")).startswith("brg")
            ]
            created = len(posts) - fake.nonces.deduplicated
            duplicates = created - len(set(posts))
            sent = db.sent()
    print(report(figures, fake, sent=sent, posted=len(set(posts)), duplicates=duplicates))
    print(f"problems the fake recorded: {len(problems)}")
    for problem in problems[:5]:
        print("  " + problem[:200])
    recovered = sum(text.count("taking back") for text in outputs)
    tracebacks = sum(text.count("Traceback") for text in outputs)
    print(f"bot output: {recovered} start-up recoveries logged, {tracebacks} tracebacks")
    for error in figures.errors[:5]:
        print("  error: " + error[:200])
    print(f"bench time: {time.perf_counter() - started:.0f} s")
    return 0


def report(figures: Figures, fake: FakeDiscord, *, sent: int, posted: int, duplicates: int) -> str:
    """The printed figures."""
    every = [s for values in figures.first_acks.values() for s in values]
    late = sum(1 for s in every if s > LATE_S)
    lines = [
        f"restarts: {len(every)} (every other one a SIGKILL 0-400 ms after a commit); "
        f"{figures.turns} turns, {figures.interactions} interactions; "
        f"{figures.busy_posts} announcements of other games waiting at the starts",
        f"process start to gateway session: p50 {ms(figures.connect_s, 0.5)} ms, "
        f"max {ms(figures.connect_s)} ms",
        f"first acknowledgement after a start: max {ms(every)} ms, p50 {ms(every, 0.5)} ms, "
        f"late (> {LATE_S:g} s): {late}",
    ]
    for kind in KINDS:
        values = figures.first_acks.get(kind, [])
        if values:
            lines.append(
                f"  {kind:<6} n={len(values):<3} max {ms(values)} ms, p50 {ms(values, 0.5)} ms"
            )
    lines += [
        f"crashes that left an announcement unposted: {figures.crashes_with_pending}; "
        f"posted after the next start within: max {ms(figures.reposted_s)} ms",
        f"announcements: {sent} marked sent, {posted} posted; duplicate announcements: {duplicates} "
        f"(repeats the enforced nonce stopped: {fake.nonces.deduplicated}; "
        f"got through after its window: {len(fake.nonces.duplicates)})",
    ]
    return "\n".join(lines)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=20)
    parser.add_argument("--busy", type=int, default=10, help="games with a waiting announcement")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
