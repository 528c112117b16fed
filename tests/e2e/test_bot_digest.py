"""What changed since your turn, through Discord: the digest in the turn message, the panel
that opens with it and a private map ringing the spaces changed since, the heads-up
setting, and the ping for a player whose panel can no longer be edited (15 minutes)."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, Message
from fakediscord.server import ApiError

from bot.commands import ids
from bot.service.catchup import SINCE_HEADING
from bot.store import Store
from tests.commands.kit import (
    Driver,
    FakeClock,
    actor,
    barrage_bot,
    option_ids,
    start_game,
    turn_messages,
    wait_turn_message,
)


async def test_the_turn_message_and_the_panel_say_what_changed_since_your_turn(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Three players, the third asking for a heads-up: a turn message asking a player to
    act after two others played lists the earlier turn; their panel opens with every turn
    since and a private map of the spaces changed since; the heads-up pings the third
    player as the one before them begins, once, and says so."""
    fake = fake_discord
    people = [fake.alice, fake.bob, fake.carol]
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()) as bot:
        settings = await (await fake.carol.slash("barrage settings", heads_up=True)).reply()
        assert "You're next (heads-up): on" in settings.content
        await start_game(fake, people, seed=4)
        driver = Driver(fake, bot, people, seed=4)
        opened: Message | None = None
        for _ in range(40):
            turn = turn_messages(fake)[-1]
            if SINCE_HEADING in turn.content and opened is None:
                found = await driver.deciding_user()
                assert found is not None
                user = found[0]
                assert user.id in turn.mentions
                panel = await driver.open_panel(user)
                service_panel = await bot.service.views.panel(actor(fake, user), opening=True)
                if service_panel.since_turns >= 2:
                    opened = panel
                    assert SINCE_HEADING in panel.content and "your turn" in panel.content
                    assert panel.content.index(SINCE_HEADING) < panel.content.index("your turn")
                    [picture] = panel.attachments
                    assert picture.data.startswith(b"\x89PNG")
                    assert "Changed since your last turn" in (picture.description or "")
            if not await driver.play_turn(typed_share=0.0, restart_share=0.0):
                break
        assert opened is not None, "no player opened a panel after two others' turns"
        public = [m for m in fake.channel_messages() if not m.ephemeral]
        carols = [m for m in public if fake.carol.id in m.mentions]
        warned = [m for m in carols if "you're next" in m.content]
        assert warned, "no heads-up"
        for message in warned:
            assert fake.carol.id in message.notified
            assert len(message.mentions) == 2  # the player who begins, and carol
        # No spam: after a heads-up, the next message that pings carol asks her to act.
        for first, second in itertools.pairwise(carols):
            assert not ("you're next" in first.content and "you're next" in second.content)


class HeldAppends:
    """A store whose appends wait for `release` once armed (the commit of a slow answer)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.armed = False
        self.waiting = asyncio.Event()
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if name != "append":
            return attribute

        async def append(*args: Any, **kwargs: Any) -> Any:
            if self.armed:
                self.waiting.set()
                await self.release.wait()
            return await attribute(*args, **kwargs)

        return append


async def test_a_panel_too_old_to_edit_pings_its_player_instead(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A person against an automa: each Confirm hands the next turn back to them, so the turn
    message names them without a ping and their panel goes on to it. When that answer is
    only committed after the interaction's 15 minutes (a stalled database), the bot does not
    use the expired token: it pings the player for the decision instead, once."""
    fake = fake_discord
    clock = FakeClock()
    fake.clock = lambda: clock.now / 1000  # the fake's tokens age with the bot's clock
    alice = fake.alice
    held: list[HeldAppends] = []

    def wrap(store: Store) -> Store:
        held.append(HeldAppends(store))
        return held[-1]  # type: ignore[return-value]

    async with barrage_bot(fake, tmp_path / "db.sqlite3", clock, wrap_store=wrap) as bot:
        lobby = await (await alice.slash("barrage new", players=2, automa=1, seed=5)).reply()
        game_id = int(next(c for c in lobby.custom_ids if c.startswith("brg:lb:")).split(":")[2])
        await (await alice.click(lobby, ids.lobby_id(game_id, "start"))).reply()
        await wait_turn_message(fake)
        driver = Driver(fake, bot, [alice], seed=5)
        rng = random.Random(5)
        panel_message = await driver.open_panel(alice)
        for _ in range(40):
            panel = await bot.service.views.panel(actor(fake, alice))
            if "confirm" in [o.notation for o in panel.options] and panel.done:
                break
            target = rng.choice([o.notation for o in panel.options if o.notation != "confirm"])
            panel_message = await driver.answer(alice, panel_message, target)
        else:
            raise AssertionError("no Confirm reached")
        pings = len(alice.pings())
        confirm = next(
            c for c in option_ids(panel_message) if ids.resolve(c.split(":", 4)[4], ["confirm"])
        )
        held[0].armed = True
        click = asyncio.create_task(alice.click(panel_message, confirm))
        await held[0].waiting.wait()
        invocation = await asyncio.wait_for(click, 5)
        assert invocation.ack.type == 6  # deferred: the answer is slow
        clock.advance(ms=16 * 60_000)  # the token expires while the commit waits
        held[0].armed = False
        held[0].release.set()
        ping = await fake.wait_for(
            lambda: len(alice.pings()) > pings and alice.pings()[-1],
            timeout=10,
            what="the ping instead of the panel",
        )
        assert "your turn" in ping.content
        await asyncio.sleep(0.3)
        assert len(alice.pings()) == pings + 1, [
            m.content for m in alice.pings()
        ]  # the turn message named her without a ping
        assert fake.expired_tokens == []  # the bot never tried the expired token
        # ... which the fake, like Discord, would have refused.
        with pytest.raises(ApiError) as refused:
            fake.interaction(invocation.record.token)
        assert (refused.value.status, refused.value.code) == (401, 50027)
        assert fake.expired_tokens == [invocation.record]
        assert "Done this turn" in panel_message.content  # the old panel is left as it was
