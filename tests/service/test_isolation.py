"""Panels act only on the game and version they name; servers never see each other's games."""

from __future__ import annotations

import pytest

from bot.service import (
    Actor,
    GameMovedOn,
    GameService,
    InvalidMove,
    InvalidSettings,
    NoGameHere,
    OtherGame,
)
from tests.service.helpers import CHANNEL, GUILD, USERS, actor, started_game

ELSEWHERE = GUILD + 1


async def deciding(service: GameService) -> tuple[Actor, object]:
    for user in USERS[:2]:
        panel = await service.views.panel(actor(user))
        if panel.options:
            return actor(user), panel
    raise AssertionError("nobody decides")


async def test_a_panel_of_an_earlier_game_in_the_channel_cannot_play(
    service: GameService,
) -> None:
    old = await started_game(service, seed=6)
    await deciding(service)
    await service.moderation.abandon(actor(USERS[0]))
    new = await started_game(service, seed=6)  # same seed: the same options are on offer
    who, panel = await deciding(service)
    version = await service.store.version(new)
    notation = panel.options[0].notation
    with pytest.raises(OtherGame, match="belongs to another game"):
        await service.moves.play(who, [notation], expected_version=version, expected_game=old)
    with pytest.raises(OtherGame):
        await service.moves.restart_turn(who, expected_version=version, expected_game=old)
    with pytest.raises(OtherGame):
        await service.views.panel(who, expected_game=old)
    assert await service.store.version(new) == version
    outcome = await service.moves.play(
        who, [notation], expected_version=version, expected_game=new, listed=True
    )
    assert outcome.version > version


async def test_a_stale_version_and_an_unlisted_notation_change_nothing(
    service: GameService,
) -> None:
    game = await started_game(service, seed=6)
    who, panel = await deciding(service)
    version = await service.store.version(game)
    with pytest.raises(GameMovedOn, match="moved on"):
        await service.moves.play(
            who, [panel.options[0].notation], expected_version=version - 1, expected_game=game
        )
    upper = panel.options[0].notation.upper()
    with pytest.raises(InvalidMove, match="not one of the options"):
        await service.moves.play(
            who, [upper], expected_version=version, expected_game=game, listed=True
        )
    assert await service.store.version(game) == version


async def test_lobby_buttons_of_another_game_do_nothing(service: GameService) -> None:
    first = await service.lobby.create_game(actor(USERS[0]), players=2)
    await service.moderation.abandon(actor(USERS[0]))
    await service.lobby.create_game(actor(USERS[0]), players=2)
    for action in (service.lobby.join, service.lobby.leave, service.lobby.start):
        with pytest.raises(OtherGame, match="lobby buttons belong to another game"):
            await action(actor(USERS[1]), expected_game=first.game_id)


async def test_games_are_numbered_and_found_per_server_only(service: GameService) -> None:
    here = await started_game(service, seed=6)
    there = await service.lobby.create_game(Actor(USERS[2], ELSEWHERE, 3000), players=2)
    await service.lobby.join(Actor(USERS[3], ELSEWHERE, 3000))
    await service.lobby.start(Actor(USERS[2], ELSEWHERE, 3000))
    meta_here = await service.store.get_game(here)
    meta_there = await service.store.get_game(there.game_id)
    assert (meta_here.number, meta_there.number) == (1, 1)
    assert "game #1" in there.text.lower()
    assert await service.desk.game_id_of(GUILD, 1) == here
    assert await service.desk.game_id_of(ELSEWHERE, 1) == there.game_id
    with pytest.raises(NoGameHere, match=r"no game #2 in this server"):
        await service.desk.game_id_of(GUILD, 2)
    with pytest.raises(NoGameHere):
        await service.desk.game_id_of(GUILD, 2**80)
    # By store id, another server's game answers exactly like a game that does not exist.
    refusals = []
    for game_id in (there.game_id, 10**6, 2**70):
        for view in (
            service.views.score(game_id, by_game_id=True, guild_id=GUILD),
            service.views.log_lines(game_id, by_game_id=True, guild_id=GUILD),
            service.views.company_summary(game_id, by_game_id=True, guild_id=GUILD),
            service.views.board_image(game_id, "map", by_game_id=True, guild_id=GUILD),
        ):
            with pytest.raises(NoGameHere) as refused:
                await view
            refusals.append(str(refused.value))
        with pytest.raises(NoGameHere) as refused:
            await service.moving.export_game(actor(USERS[0]), game_id)
        refusals.append(str(refused.value))
    assert set(refusals) == {"There is no such game in this server."}
    assert (await service.views.score(here, by_game_id=True, guild_id=GUILD)).rows


@pytest.mark.parametrize(
    "zone", ["Etc", "America", "x" * 5000, "../../etc/passwd", "Europe/Nowhere", "\0"]
)
async def test_a_time_zone_that_is_not_one_is_refused_by_name(
    service: GameService, zone: str
) -> None:
    with pytest.raises(InvalidSettings, match="is not a time zone"):
        await service.user_settings.update(USERS[0], time_zone=zone)
    assert (await service.user_settings.get(USERS[0])).time_zone is None
    assert (
        await service.user_settings.update(USERS[0], time_zone="Etc/UTC")
    ).time_zone == "Etc/UTC"


async def test_the_channel_of_another_server_is_not_this_servers(service: GameService) -> None:
    await started_game(service, seed=6)
    stranger = Actor(USERS[0], ELSEWHERE, CHANNEL)
    with pytest.raises(NoGameHere):
        await service.views.panel(stranger)
