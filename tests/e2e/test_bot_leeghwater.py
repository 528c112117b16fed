"""A Leeghwater game through Discord: created with the option, played through the panel."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord

from bot.service import PanelView
from tests.commands.kit import Driver, FakeClock, barrage_bot, start_game

SEED = 3
#: The expansion's action groups on the panel.
LWP_GROUPS = ("External Works", "Private Buildings")


class LeeghwaterDriver(Driver):
    """The kit's seeded driver, keen on the expansion's actions whenever the panel offers one."""

    async def choose(self, panel: PanelView) -> str:
        ours = [o for o in panel.options if o.group in LWP_GROUPS]
        if ours and self.rng.random() < 0.7:
            return self.rng.choice(ours).notation
        return await super().choose(panel)


async def test_refusals_and_help_for_the_expansion(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Leeghwater with the introductory setup is refused, the full one opens a lobby that
    says so; help finds the expansion's pieces."""
    fake = fake_discord
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        refused = await (
            await fake.alice.slash("barrage new", setup="intro", expansions="leeghwater")
        ).reply()
        assert refused.ephemeral and "full game only" in refused.content
        # The refusal names the command's own option and choice, not the engine's.
        assert "`setup: full`" in refused.content and "setup=" not in refused.content
        assert await bot.service.store.active_game(fake.general.id) is None
        nile_big = await (
            await fake.alice.slash("barrage new", players=4, expansions="nile", board="4/5-player")
        ).reply()
        assert nile_big.ephemeral and "`board: standard`" in nile_big.content
        assert "map" not in nile_big.content
        threaded = await (
            await fake.alice.slash(
                "barrage new", setup="intro", expansions="leeghwater", thread=True
            )
        ).reply()
        assert threaded.ephemeral and "full game only" in threaded.content
        assert fake.threads() == []  # refused before a thread was opened

        lobby = await (
            await fake.alice.slash("barrage new", setup="full", expansions="leeghwater")
        ).reply()
        assert not lobby.ephemeral
        assert "3 players, full setup with The Leeghwater Project" in lobby.content

        # The lobby offers only what the options typed so far may play.
        offered = await fake.bob.autocomplete("barrage new", focused="expansions", expansions="")
        assert [c["value"] for c in offered] == ["none", "colorado", "nile"]  # intro by default
        offered = await fake.bob.autocomplete(
            "barrage new", focused="expansions", setup="full", automa=1, expansions=""
        )
        assert [c["value"] for c in offered] == ["none", "leeghwater"]  # no automas on the others
        offered = await fake.bob.autocomplete(
            "barrage new", focused="expansions", setup="full", expansions="lee"
        )
        assert [c["value"] for c in offered] == [
            "leeghwater",
            "leeghwater,colorado",
            "leeghwater,nile",
        ]
        choices = await fake.bob.autocomplete("barrage help", focused="topic", topic="loan agency")
        assert "building:loan_agency" in [c["value"] for c in choices]
        choices = await fake.bob.autocomplete("barrage help", focused="topic", topic="leeghwater")
        assert [c["value"] for c in choices] == ["leeghwater"]
        shown = await (await fake.bob.slash("barrage help", topic="work:B2")).reply()
        assert "External Work B2" in shown.content and "2 free elevations" in shown.content


async def test_three_players_play_leeghwater_rounds_through_the_panel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """`/barrage new setup:full expansions:leeghwater`, then the panel, past the first round."""
    fake = fake_discord
    players = [fake.alice, fake.bob, fake.carol]
    async with barrage_bot(fake, tmp_path / "games.sqlite3", FakeClock()) as bot:
        game_id, first = await start_game(
            fake, players, seed=SEED, setup="full", expansions="leeghwater"
        )
        meta = await bot.service.store.get_game(game_id)
        assert meta.options["expansions"] == ["leeghwater"] and meta.options["setup"] == "full"
        assert first.png is not None

        driver = LeeghwaterDriver(fake, bot, players, seed=SEED)
        for _ in range(400):
            score = await bot.service.views.score(game_id, by_game_id=True)
            if score.round >= 3:
                break
            assert await driver.play_turn(typed_share=0.05, restart_share=0.0)
        else:
            raise AssertionError("two rounds did not end")
        log = await bot.service.store.read_log(game_id)
        taken = [
            e.record["notation"]
            for e in log
            if e.kind == "decision" and e.record["notation"].startswith(("external_work", "use "))
        ]
        # Two whole rounds went by, with External Works and Building actions from the panel.
        assert any(n.startswith("external_work") for n in taken), taken
        assert any(n.startswith("use ") for n in taken), taken  # a Private Building's action
        assert driver.stats.buttons and driver.stats.selects
        lines = await bot.service.views.log_lines(game_id, 10_000, by_game_id=True)
        assert any("External Work" in line for line in lines)
        state = (await bot.service.desk.target(game_id, True)).committed
        assert state is not None and state.round == 3
        spaces = state.extra["leeghwater"]["building_spaces"]
        built = [t for t, who in spaces.items() if any(c in who for c in state.companies)]
        assert built, "nobody built a Private Building in two rounds"
        summary = await (await fake.dave.slash("barrage company", game=game_id)).reply()
        assert "Private Buildings:" in summary.content
