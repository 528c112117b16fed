"""The 4/5-player board: offered for 4 players, refused with a clear reason otherwise."""

from __future__ import annotations

import pytest

from bot.service import LobbyError
from tests.service.conftest import MakeService
from tests.service.helpers import USERS, actor


async def test_the_big_board_needs_four_players(make_service: MakeService) -> None:
    service = await make_service()
    with pytest.raises(LobbyError, match="4/5-player board is played by 4 players"):
        await service.lobby.create_game(actor(USERS[0]), players=3, map="five_player")
    await service.lobby.create_game(actor(USERS[0]), players=4, map="five_player", seed=3)
    for user in USERS[1:3]:
        await service.lobby.join(actor(user))
    with pytest.raises(LobbyError, match="played by 4 players; 3 have joined"):
        await service.lobby.start(actor(USERS[0]))
    await service.lobby.join(actor(USERS[3]))
    await service.lobby.start(actor(USERS[0]))
    game = await service.store.active_game(actor(USERS[0]).channel_id)
    assert game is not None and game.options["map"] == "five_player"
