"""Who may do what: the permission matrix, every refusal specific."""

from __future__ import annotations

import pytest

from bot.service import (
    GameMovedOn,
    GameService,
    InvalidMove,
    LobbyError,
    NoGameHere,
    NotAPlayer,
    NotYourTurn,
    PermissionDenied,
)
from tests.service.helpers import OTHER_CHANNEL, SPECTATOR, USERS, actor, started_game


async def deciding_user(service: GameService, players: int = 2) -> tuple[int, int]:
    """(user who must decide, another player)."""
    for user in USERS[:players]:
        if (await service.views.panel(actor(user))).options:
            other = next(u for u in USERS[:players] if u != user)
            return user, other
    raise AssertionError("nobody decides")


async def test_spectator_cannot_play_but_can_look(service: GameService) -> None:
    game_id = await started_game(service)
    with pytest.raises(NotAPlayer, match="do not play"):
        await service.moves.play(actor(SPECTATOR), ["bank"])
    with pytest.raises(NotAPlayer):
        await service.views.panel(actor(SPECTATOR))
    assert (await service.views.board_image(actor(SPECTATOR).channel_id)).startswith(b"PNG")
    assert (await service.views.score(game_id, by_game_id=True)).rows
    assert "VP" in await service.views.company_summary(game_id, by_game_id=True)


async def test_wrong_turn_names_who_decides(service: GameService) -> None:
    await started_game(service)
    user, other = await deciding_user(service)
    company = (await service.views.panel(actor(user))).company
    with pytest.raises(NotYourTurn, match="waiting for"):
        await service.moves.play(actor(other), ["bank"])
    assert company is not None


async def test_other_channel_has_no_game(service: GameService) -> None:
    await started_game(service)
    user, _ = await deciding_user(service)
    with pytest.raises(NoGameHere):
        await service.moves.play(actor(user, channel=OTHER_CHANNEL), ["bank"])


async def test_invalid_notation_names_the_first_failing_one(service: GameService) -> None:
    await started_game(service)
    user, _ = await deciding_user(service)
    panel = await service.views.panel(actor(user))
    good = panel.options[0].notation
    with pytest.raises(InvalidMove) as caught:
        await service.moves.play(actor(user), [good, "fly to the moon"])
    assert caught.value.notation == "fly to the moon"
    assert "Nothing was played" in str(caught.value)
    assert (await service.views.panel(actor(user))).version == panel.version  # all or nothing


async def test_stale_version_gets_the_current_decision(service: GameService) -> None:
    await started_game(service)
    user, _ = await deciding_user(service)
    panel = await service.views.panel(actor(user))
    with pytest.raises(GameMovedOn) as caught:
        await service.moves.play(
            actor(user), [panel.options[0].notation], expected_version=panel.version - 1
        )
    assert caught.value.current is not None and caught.value.current.version == panel.version


@pytest.mark.parametrize("command", ["abandon", "replace", "skip", "rewind", "start"])
async def test_managing_needs_creator_or_manager(service: GameService, command: str) -> None:
    if command == "start":
        await service.lobby.create_game(actor(USERS[0]), players=2, seed=1)
        await service.lobby.join(actor(USERS[1]))
    else:
        await started_game(service)
    intruder = actor(USERS[1])  # a player, neither creator nor manager
    with pytest.raises(PermissionDenied, match="Manage"):
        if command == "abandon":
            await service.moderation.abandon(intruder)
        elif command == "replace":
            await service.moderation.replace_seat(intruder, 0, SPECTATOR)
        elif command == "skip":
            await service.moderation.skip_seat(intruder, 0)
        elif command == "rewind":
            await service.moderation.rewind(intruder, 1)
        else:
            await service.lobby.start(intruder)


async def test_rewind_is_for_managers_even_against_the_creator(service: GameService) -> None:
    await started_game(service)
    with pytest.raises(PermissionDenied):
        await service.moderation.rewind(actor(USERS[0]), 1)


async def test_manager_may_replace_and_the_log_keeps_both(service: GameService) -> None:
    game_id = await started_game(service)
    outcome = await service.moderation.replace_seat(actor(SPECTATOR, manage=True), 1, 77)
    assert outcome.committed
    meta = await service.store.get_game(game_id)
    assert meta.player_ids == (USERS[0], 77)
    assert USERS[1] in {s.user_id for s in meta.seat_history}
    log = await service.store.read_log(game_id)
    assert any(e.kind == "replace" and e.record["old"] == USERS[1] for e in log)


async def test_lobby_refusals(service: GameService) -> None:
    lobby = await service.lobby.create_game(actor(USERS[0]), players=2, seed=1)
    with pytest.raises(LobbyError, match="already joined"):
        await service.lobby.join(actor(USERS[0]))
    with pytest.raises(LobbyError, match="Not enough players"):
        await service.lobby.start(actor(USERS[0]))
    await service.lobby.join(actor(USERS[1]))
    with pytest.raises(LobbyError, match="full"):
        await service.lobby.join(actor(USERS[2]))
    # The refusal names the channel's game by its number here, never by an internal id.
    number = (await service.store.get_game(lobby.game_id)).number
    with pytest.raises(LobbyError, match=rf"already has game #{number} going; finish or abandon"):
        await service.lobby.create_game(actor(USERS[2]), players=2)
    games = await service.views.my_games(actor(USERS[1]).guild_id, USERS[1])
    assert [g.stage for g in games] == ["lobby"]
    await service.lobby.start(actor(USERS[0]))
    with pytest.raises(LobbyError, match="already started"):
        await service.lobby.join(actor(USERS[2]))
    games = await service.views.my_games(actor(USERS[1]).guild_id, USERS[1])
    assert games[0].stage == "playing" and len(games[0].waiting_for) == 1
