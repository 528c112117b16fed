"""Every turn reaches the next player, through Discord: pinned seeds of each kind of stall.

Each game is played by fake users through the panel with a fixed policy (a lone option is
taken as it is, otherwise a seeded choice), so the same seed plays the same game on any
release. Before the turn loop was fixed, each of these seeds stalled at the point named in
its test: the player who had to act next was never pinged (no turn message at all).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeUser, Message

from bot.service import PanelView
from tests.commands.kit import (
    Driver,
    FakeClock,
    barrage_bot,
    option_ids,
    select_of,
    start_game,
    turn_messages,
)


class PolicyDriver(Driver):
    """Plays the regression policy: a lone option as it is, otherwise a seeded choice."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.policy = random.Random(kwargs["seed"])
        self.choices = 0

    async def choose(self, panel: PanelView) -> str:
        """The policy's answer (single options consume nothing of the seeded sequence)."""
        if len(panel.options) == 1:
            return panel.options[0].notation
        self.choices += 1
        return self.policy.choice(panel.options).notation


def public_messages(fake: FakeDiscord) -> list[Message]:
    """Everything posted publicly in the game's channel (old turn messages included)."""
    return [m for m in fake.channel_messages(fake.general) if not m.ephemeral]


async def deciders(driver: Driver) -> set[int]:
    """Who must decide now (read from the service, never acted through it)."""
    users = set()
    for user in driver.players:
        panel = await driver.panel_of(user)
        if panel is not None and panel.your_turn and panel.options:
            users.add(user.id)
    return users


async def newest_pings(fake: FakeDiscord, users: set[int]) -> Message:
    """The newest turn message, once it pings every one of `users` (fails after 5 s)."""

    def found() -> Message | None:
        messages = turn_messages(fake)
        newest = messages[-1] if messages else None
        return newest if newest is not None and users <= set(newest.mentions) else None

    return await fake.wait_for(found, timeout=5, what=f"a turn message pinging {sorted(users)}")


async def play_checked(driver: PolicyDriver, choices: int) -> list[Message]:
    """Play turns until the policy made `choices` choices; after each turn, whoever must
    decide is pinged by the newest turn message. Returns the turn messages seen."""
    seen: list[Message] = []
    while driver.choices < choices:
        assert await driver.play_turn(typed_share=0.1, restart_share=0.0)
        waiting = await deciders(driver)
        message = await newest_pings(driver.fake, waiting)
        assert set(message.mentions) <= {p.id for p in driver.players}
        if not seen or seen[-1].id != message.id:
            seen.append(message)
    return seen


async def test_a_forced_turn_is_confirmed_for_its_player(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Intro, 2 players, seed 3: after 24 choices a turn had a single possible move (the
    Bank with the last engineer); it waited for a Confirm nobody was asked for."""
    fake = fake_discord
    players = [fake.alice, fake.bob]
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        game_id, _ = await start_game(fake, players, seed=3)
        driver = PolicyDriver(fake, bot, players, seed=3)
        await play_checked(driver, 30)
        forced = [m for m in public_messages(fake) if "it was confirmed for them" in m.content]
        assert forced, "the seed no longer reaches a forced turn"
        # The player whose turn was confirmed for them is named, not pinged; so is the next
        # one, the other player, whose own Confirm led here (their panel went on to it).
        message = forced[0]
        assert message.notified == [] and message.content.rstrip().endswith("your turn")
        assert len(set(re.findall(r"<@(\d+)>", message.content))) == 2
        log = await bot.service.store.read_log(game_id)
        assert any(e.record.get("auto") == "forced turn" for e in log)


async def test_a_turn_the_engine_began_pings_its_player(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Intro, 3 players, seed 1: after 38 choices the next turn began with its only possible
    action (the Bank) and waited for how many engineers, silently."""
    fake = fake_discord
    players = [fake.alice, fake.bob, fake.carol]
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        await start_game(fake, players, seed=1)
        driver = PolicyDriver(fake, bot, players, seed=1)
        await play_checked(driver, 42)
        began = [m for m in public_messages(fake) if "had one possible move:" in m.content]
        assert began, "the seed no longer reaches a turn begun by the engine"
        assert "How many engineers on the Bank?" in began[0].content
        assert len(began[0].mentions) == 1


async def test_choices_at_the_start_of_a_round_ping_who_chooses(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The Nile Affair, 4 players, seed 5: after 111 choices round 3 began with a choice of
    machinery for the fourth player; nobody was told, and the last message pinged the player
    who had just confirmed the round's last turn (for nothing: that turn message said no
    more)."""
    fake = fake_discord
    players = [fake.alice, fake.bob, fake.carol, fake.dave]
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        await start_game(fake, players, seed=5, expansions="nile")
        driver = PolicyDriver(fake, bot, players, seed=5)
        await play_checked(driver, 113)
        asked = [m for m in public_messages(fake) if "Round 3 begins" in m.content]
        assert asked, "the seed no longer reaches round 3"
        # The message that began round 3 names the one player with a choice to make: Dave,
        # whose own Confirm ended round 2, so his panel went on to the choice and the
        # message does not ping him again.
        round_three = asked[0]
        assert "Choose 1 machinery" in round_three.content
        assert round_three.content.splitlines()[-1].startswith(f"➡️ <@{fake.dave.id}> (")
        assert round_three.notified == []


async def test_a_typed_answer_makes_the_open_panel_move_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A decision answered with /barrage do: the player's open panel answers that the game
    moved on (with the current decision) instead of acting."""
    fake = fake_discord
    players = [fake.alice, fake.bob]
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        game_id, _ = await start_game(fake, players, seed=8)
        driver = Driver(fake, bot, players, seed=8)
        found = await driver.deciding_user()
        assert found is not None
        user, panel = found
        opened = await driver.open_panel(user)
        before = await bot.service.store.version(game_id)
        target = panel.options[0].notation
        typed = await (await user.slash("barrage do", moves=target)).reply()
        assert typed.ephemeral and "❌" not in typed.content
        after = await bot.service.store.version(game_id)
        assert after > before
        # The old panel's choice: refused as out of date, nothing appended.
        buttons, select = option_ids(opened), select_of(opened)
        if buttons:
            stale = await (await user.click(opened, buttons[0])).reply()
        else:
            assert select is not None
            value = opened.component(select)["options"][0]["value"]
            stale = await (await user.select(opened, select, [value])).reply()
        assert "moved on" in stale.content
        assert await bot.service.store.version(game_id) == after


async def test_the_draft_names_people_and_its_views_say_what_is_chosen(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Full setup, 4 players: company and score tell the draft so far, a refusal names the
    player who must choose."""
    fake = fake_discord
    players: list[FakeUser] = [fake.alice, fake.bob, fake.carol, fake.dave]
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        _, first = await start_game(fake, players, seed=4, setup="full")
        assert "your pick in the draft" in first.content and len(first.mentions) == 1
        picker = fake.users[first.mentions[0]]
        other = next(p for p in players if p is not picker)
        company = await (await other.slash("barrage company")).reply()
        assert "The draft is in progress" in company.content and "Still on offer" in company.content
        score = await (await other.slash("barrage score")).reply()
        assert "0 of 4 players have chosen" in score.content
        assert f"<@{picker.id}>" in score.content  # next to choose, named
        refused = await (await other.slash("barrage do", moves="pick usa")).reply()
        assert refused.ephemeral and f"<@{picker.id}>" in refused.content
        assert "Seat" in refused.content and refused.mentions == []
        driver = PolicyDriver(fake, bot, players, seed=4)
        seen = await play_checked(driver, 2)  # the first pick and its starting contract
        assert "chose:" in seen[-1].content
        score = await (await other.slash("barrage score")).reply()
        assert "1 of 4 players have chosen" in score.content
        assert bot.service is not None
