"""Colorado and Nile games through Discord: created with the choice, played through the panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakediscord import FakeDiscord

from bot.service import PanelView
from tests.commands.kit import Driver, FakeClock, barrage_bot, start_game

SEED = 3  # a seed whose games use the expansions' actions in their first rounds
#: The expansions' action groups on the panel.
NEW_GROUPS = ("Bridges", "Settlements", "Irrigation", "Irrigation tokens")
#: What each expansion's answers start with in the log.
VERBS = {"colorado": ("site ", "settle "), "nile": ("irrigate ", "activate ")}


class BoardDriver(Driver):
    """The kit's seeded driver, keen on the expansion's actions whenever the panel offers one."""

    async def choose(self, panel: PanelView) -> str:
        ours = [o for o in panel.options if o.group in NEW_GROUPS]
        if ours and self.rng.random() < 0.7:
            return self.rng.choice(ours).notation
        return await super().choose(panel)


@pytest.mark.parametrize(
    ("expansion", "name", "rounds"),
    # Irrigating needs an own dam with water, so the Nile game plays two rounds.
    [("nile", "The Nile Affair", 2), ("colorado", "The Colorado Connection", 1)],
)
async def test_three_players_play_a_round_through_the_panel(
    fake_discord: FakeDiscord, tmp_path: Path, expansion: str, name: str, rounds: int
) -> None:
    """`/barrage new expansions:<choice>`, then the panel, for a round or two."""
    fake = fake_discord
    players = [fake.alice, fake.bob, fake.carol]
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        refused = await (
            await fake.alice.slash("barrage new", expansions=f"leeghwater,{expansion}")
        ).reply()
        assert refused.ephemeral and "full game only" in refused.content
        game_id, first = await start_game(fake, players, seed=SEED, expansions=expansion)
        meta = await bot.service.store.get_game(game_id)
        assert meta.options["expansions"] == [expansion] and meta.options["map"] == expansion
        assert first.png is not None
        lobby = [m for m in fake.general.messages if f"with {name}" in m.content]
        assert lobby, "the lobby and start messages name the expansion"

        driver = BoardDriver(fake, bot, players, seed=SEED)
        for _ in range(600):
            score = await bot.service.views.score(game_id, by_game_id=True)
            if score.round > rounds:
                break
            assert await driver.play_turn(typed_share=0.05, restart_share=0.0)
        else:
            raise AssertionError(f"{rounds} rounds did not end")
        log = await bot.service.store.read_log(game_id)
        taken = [e.record["notation"] for e in log if e.kind == "decision"]
        assert any(n.startswith(VERBS[expansion]) for n in taken), taken
        assert driver.stats.buttons
        summary = await (await fake.dave.slash("barrage company", game=game_id)).reply()
        assert ("irrigation tokens:" if expansion == "nile" else "Bridges:") in summary.content

        choices = await fake.bob.autocomplete("barrage help", focused="topic", topic=expansion)
        assert expansion in [c["value"] for c in choices]
        shown = await (await fake.bob.slash("barrage help", topic=expansion)).reply()
        assert name in shown.content
