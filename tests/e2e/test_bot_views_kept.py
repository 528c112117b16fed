"""The bot keeps no per-message copy of the views it sends (their buttons still work).

discord.py keeps the view of a private reply, with a task, for 15 minutes; the bot's
components are all DynamicItems dispatched by custom_id, so those copies were only memory
(about 6,000 of them in a bot answering ten actions a second).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import FakeDiscord

from tests.commands.kit import FakeClock, barrage_bot, start_game


def view_timeouts() -> list[asyncio.Task[object]]:
    """discord.py's tasks that keep a sent view until it times out."""
    return [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__]


async def test_private_replies_leave_no_view_behind(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        await start_game(fake, [fake.alice, fake.bob], seed=3)
        boards = [await (await fake.dave.slash("barrage board")).reply() for _ in range(3)]
        assert all(board.ephemeral for board in boards)
        panel = await (await fake.alice.slash("barrage play")).reply()
        assert panel.ephemeral
        assert view_timeouts() == []
        assert bot.persistent_views == []
        # The private picture's button still posts it: it is dispatched by its custom_id.
        post = next(c for c in boards[0].custom_ids if c.startswith("brg:pv:"))
        posted = await (await fake.dave.click(boards[0], post)).reply()
        assert not posted.ephemeral and posted.png is not None
