"""The Colorado Connection and The Nile Affair through the service: options, whole games, export."""

from __future__ import annotations

import random

import pytest

from bot.service import GameService, LobbyError, NewGameRefused, OutboxSender
from bot.service.text import source_group
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
from tests.service.test_leeghwater import deciding_panel

#: The panel groups of the two expansions' new actions (scripted players favour them).
NEW_GROUPS = {"Bridges", "Settlements", "Irrigation", "Irrigation tokens"}


async def expansion_game(
    service: GameService, expansions: tuple[str, ...], players: int, seed: int
) -> int:
    """Create, fill and start a game with these expansions in CHANNEL; return its id."""
    setup = "full" if "leeghwater" in expansions else "intro"
    outcome = await service.lobby.create_game(
        actor(USERS[0]), players=players, seed=seed, setup=setup, expansions=expansions
    )
    for user in USERS[1:players]:
        await service.lobby.join(actor(user))
    started = await service.lobby.start(actor(USERS[0]))
    name = "The Nile Affair" if "nile" in expansions else "The Colorado Connection"
    assert name in outcome.text and name in started.text.split(". Seats")[0]
    return outcome.game_id


async def test_options_are_checked_with_the_engines_reasons(service: GameService) -> None:
    """Refusals say what is wrong and which option to change, in no command's syntax."""
    refusals = [
        (["colorado", "nile"], "base", "expansions", None, "cannot be played together"),
        (["nile", "colorado"], "base", "expansions", None, "cannot be played together"),
        (["colorado"], "five_player", "map", "base", "cannot be played on the 4/5-player"),
        (["nile"], "colorado", "map", "base", "The Nile Affair brings its own board"),
        (["leeghwater", "nile"], "base", "setup", "full", "full game only"),
    ]
    for expansions, board, option, choose, words in refusals:
        with pytest.raises(NewGameRefused, match=words) as refused:
            await service.lobby.create_game(
                actor(USERS[0]), players=4, expansions=expansions, map=board
            )
        assert (refused.value.option, refused.value.choose) == (option, choose)
        assert "=" not in str(refused.value) and "map" not in str(refused.value)
    with pytest.raises(LobbyError, match="belongs to the colorado expansion"):
        await service.lobby.create_game(actor(USERS[0]), players=3, map="colorado")
    assert await service.store.active_game(CHANNEL) is None  # nothing was created

    # Nobody names the board: each expansion brings its own.
    nile = await service.lobby.create_game(actor(USERS[0]), players=3, expansions=["Nile"])
    meta = await service.store.get_game(nile.game_id)
    assert meta.options["map"] == "nile" and meta.options["expansions"] == ["nile"]
    assert nile.text.startswith(
        f"New Barrage game #{nile.game_id}: 3 players, intro setup with The Nile Affair."
    )
    colorado = await service.lobby.create_game(
        actor(USERS[0], channel=OTHER_CHANNEL),
        players=2,
        setup="full",
        expansions=["leeghwater", "colorado"],
    )
    meta = await service.store.get_game(colorado.game_id)
    assert meta.options["map"] == "colorado"
    assert "with The Leeghwater Project and The Colorado Connection." in colorado.text
    assert GameService.check_new_game(players=2, setup="intro", expansions=["colorado"]) == (
        "colorado",
    )


def test_score_groups_of_the_new_sources() -> None:
    assert source_group("bridge:BR5") == "bridges"
    assert source_group("settlement:SC8") == "settlements"
    assert source_group("toll:S_M1") == "bridges"  # the Bridge's owner scores the toll
    assert source_group("irrigation:round3") == "irrigation scoring"
    assert source_group("irrigation:IM7") == "irrigation tokens"


@pytest.mark.parametrize(
    ("expansions", "seed"),
    [
        (("colorado",), 31),
        (("leeghwater", "colorado"), 32),
        (("nile",), 33),
        (("leeghwater", "nile"), 34),
    ],
)
async def test_complete_game(
    service: GameService, clock: FakeClock, expansions: tuple[str, ...], seed: int
) -> None:
    players = 3
    game_id = await expansion_game(service, expansions, players, seed)
    rng = random.Random(seed)
    groups: set[str] = set()
    for _ in range(6000):
        panel = await deciding_panel(service, players)
        if panel is None:
            break
        groups.update(o.group for o in panel.options)
        new = [o for o in panel.options if o.group in NEW_GROUPS]
        # Scripted players favour the expansion's actions so the game uses them.
        choices = new if new and rng.random() < 0.6 else panel.options
        notation = rng.choice(choices).notation
        await service.moves.play(actor(panel.user_id), [notation], expected_version=panel.version)
        clock.advance(60_000)
    else:
        raise AssertionError("the game did not end")
    nile = "nile" in expansions
    assert ({"Irrigation"} if nile else {"Bridges", "Settlements"}) <= groups
    if "leeghwater" in expansions:
        assert "External Works" in groups

    score = await finished_score(service, game_id, players)
    sources = score_groups(score)
    assert not {"bridge", "toll", "settlement", "irrigation"} & sources  # all named groups
    if nile:
        assert "Irrigation scoring" in sources
    else:
        assert "Bridges" in sources

    summary = await service.views.company_summary(game_id, by_game_id=True)
    if nile:
        assert summary.count("irrigation tokens:") == players
        assert "Bridges:" not in summary
    else:
        assert summary.count("Bridges:") == players
        assert summary.count("settlements this round:") == players
        assert " on D" in summary  # somebody owns a Bridge on a dam
    assert (summary.count("Private Buildings:") == players) == ("leeghwater" in expansions)

    commits = [e for e in await service.store.read_log(game_id) if e.kind == "commit"]
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    assert await sender.run_once() == len(commits)
    assert port.posted[-1].reason == "end" and "The game is over." in port.posted[-1].text


async def test_export_import_round_trip_of_a_nile_game(service: GameService) -> None:
    game_id = await expansion_game(service, ("nile",), 3, seed=44)
    rng = random.Random(44)
    for _ in range(200):
        panel = await deciding_panel(service, 3)
        assert panel is not None
        new = [o for o in panel.options if o.group in NEW_GROUPS]
        notation = rng.choice(new or panel.options).notation
        await service.moves.play(actor(panel.user_id), [notation], expected_version=panel.version)
    doc = await service.moving.export_game(actor(USERS[0]))
    assert doc["options"]["expansions"] == ["nile"] and doc["options"]["map"] == "nile"
    await service.moderation.abandon(actor(USERS[0]))  # one live copy: the original ends first
    outcome = await service.moving.import_game(
        actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True), doc
    )
    assert outcome.committed
    original = await service.desk.target(game_id, True)
    copy = await service.desk.target(outcome.game_id, True)
    assert original.committed is not None and copy.committed is not None
    assert any(c.extra["irrigation"] for c in original.committed.companies.values())
    assert copy.committed.extra["nile"] == original.committed.extra["nile"]
    assert copy.committed.to_json() == original.committed.to_json()
    assert copy.meta.options["map"] == "nile"
