"""The Leeghwater Project through the service: options, whole games, views, export/import."""

from __future__ import annotations

import random

import pytest

from bot.rules.catalogue import CATALOGUE
from bot.rules.expansions.leeghwater import tables as lw_tables
from bot.service import GameService, LobbyError, NewGameRefused, OutboxSender
from bot.service.types import PanelView
from tests.service.helpers import (
    CHANNEL,
    OTHER_CHANNEL,
    SPECTATOR,
    USERS,
    FakeClock,
    RecordingPort,
    actor,
    finished_score,
    score_groups,
)

LEEGHWATER = ("leeghwater",)


async def leeghwater_game(service: GameService, players: int, seed: int) -> int:
    """Create, fill and start a full-setup Leeghwater game in CHANNEL; return its id."""
    outcome = await service.lobby.create_game(
        actor(USERS[0]), players=players, seed=seed, setup="full", expansions=LEEGHWATER
    )
    assert "The Leeghwater Project" in outcome.text
    for user in USERS[1:players]:
        await service.lobby.join(actor(user))
    await service.lobby.start(actor(USERS[0]))
    return outcome.game_id


async def deciding_panel(service: GameService, players: int) -> PanelView | None:
    """The panel of the first player with options (None once the game is over)."""
    if await service.store.active_game(CHANNEL) is None:
        return None
    for user in USERS[:players]:
        panel = await service.views.panel(actor(user))
        if panel.prompt == "The game is over.":
            return None
        if panel.options:
            return panel
    raise AssertionError("nobody has a decision, but the game is not over")


async def test_the_option_is_validated_and_stored(service: GameService) -> None:
    with pytest.raises(
        LobbyError, match="no expansion 'atlantis' \\(known: colorado, leeghwater, nile"
    ):
        await service.lobby.create_game(
            actor(USERS[0]), players=3, setup="full", expansions=["atlantis"]
        )
    with pytest.raises(NewGameRefused, match="full game only") as refused:
        await service.lobby.create_game(
            actor(USERS[0]), players=3, setup="intro", expansions=LEEGHWATER
        )
    assert (refused.value.option, refused.value.choose) == ("setup", "full")
    assert await service.store.active_game(CHANNEL) is None  # nothing was created
    outcome = await service.lobby.create_game(
        actor(USERS[0]), players=3, setup="full", expansions=[" Leeghwater", "leeghwater"]
    )
    meta = await service.store.get_game(outcome.game_id)
    assert meta.options["expansions"] == ["leeghwater"]
    assert outcome.text.startswith(
        f"New Barrage game #{outcome.game_id}: 3 players, full setup with The Leeghwater Project."
    )
    assert service.check_new_game(players=2, setup="full", expansions=()) == ()


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12)])
async def test_complete_leeghwater_game(
    service: GameService, clock: FakeClock, players: int, seed: int
) -> None:
    game_id = await leeghwater_game(service, players, seed)
    rng = random.Random(seed)
    groups: set[str] = set()
    completed = False
    for _ in range(5000):
        panel = await deciding_panel(service, players)
        if panel is None:
            break
        groups.update(o.group for o in panel.options)
        works = [o for o in panel.options if o.group == "External Works"]
        if works and not completed:
            # Autocomplete finds the expansion's options by their words.
            user = panel.user_id
            hits = await service.views.autocomplete(actor(user), "external work")
            assert {n for _, n in hits} >= {o.notation for o in works}
            # Taking one goes through the panel like any base action.
            notation = works[0].notation
            completed = True
        else:
            notation = rng.choice(panel.options).notation
        await service.moves.play(actor(panel.user_id), [notation], expected_version=panel.version)
        clock.advance(60_000)
    else:
        raise AssertionError("the game did not end")
    assert completed and "External Works" in groups and "Private Buildings" in groups

    score = await finished_score(service, game_id, players)
    sources = score_groups(score)
    # Each Private Building a company activated is worth its VP at the end, in its own group.
    state = (await service.desk.target(game_id, True)).committed
    assert state is not None
    built = [
        tile
        for tile, who in state.extra["leeghwater"]["building_spaces"].items()
        for cid in state.companies
        if cid in who
    ]
    content = CATALOGUE.content()
    building_vp = sum(dict(row.breakdown).get("Private Buildings", 0) for row in score.rows)
    assert built and building_vp == sum(lw_tables.BUILDINGS.of(content)[t].vp for t in built)
    assert "External Works" in sources  # these seeds' games score some External Works
    # The score sheet's categories, by name.
    assert not any(s.startswith("end:") or s == "external_work" for s in sources)

    lines = await service.views.log_lines(game_id, 10_000, by_game_id=True)
    assert any("External Work" in line for line in lines)
    summary = await service.views.company_summary(game_id, by_game_id=True)
    assert summary.count("Private Buildings:") == players
    assert summary.count("External Works:") == players

    # Every commit announced once, through to the final ranking.
    commits = [e for e in await service.store.read_log(game_id) if e.kind == "commit"]
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    assert await sender.run_once() == len(commits)
    assert port.posted[-1].reason == "end" and "The game is over." in port.posted[-1].text
    # (None: the player's own answer handed the next decision back to their open panel.)
    assert {a.mention_user_id for a in port.posted[:-1]} - {None} <= set(USERS[:players])


async def test_export_import_round_trip_of_a_leeghwater_game(service: GameService) -> None:
    game_id = await leeghwater_game(service, 3, seed=21)
    rng = random.Random(21)
    for _ in range(150):
        panel = await deciding_panel(service, 3)
        assert panel is not None
        notation = rng.choice(panel.options).notation
        await service.moves.play(actor(panel.user_id), [notation], expected_version=panel.version)
    doc = await service.moving.export_game(actor(USERS[0]))
    assert doc["options"]["expansions"] == ["leeghwater"]
    await service.moderation.abandon(actor(USERS[0]))  # one live copy: the original ends first
    outcome = await service.moving.import_game(
        actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True), doc
    )
    assert outcome.committed
    original = await service.desk.target(game_id, True)
    copy = await service.desk.target(outcome.game_id, True)
    assert original.committed is not None and copy.committed is not None
    assert copy.committed.extra["leeghwater"] == original.committed.extra["leeghwater"]
    assert copy.committed.to_json() == original.committed.to_json()
    assert copy.meta.options["expansions"] == ["leeghwater"]
