"""A channel whose stored game cannot be loaded is never bricked."""

from __future__ import annotations

import logging

import pytest

from bot.service import GameService, GameUnreadable
from tests.service.helpers import GUILD, USERS, actor, started_game


async def broken_game(service: GameService) -> int:
    """A started game with a record an older bug could have written (a seat that is not)."""
    game_id = await started_game(service, seed=5)
    meta = await service.store.get_game(game_id)
    await service.store.append(game_id, meta.version, [{"kind": "skip", "seat": "3"}])
    service.desk.cache.clear()  # as a fresh process would
    return game_id


async def test_players_are_told_what_is_wrong_and_nothing_logs_an_error(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    await broken_game(service)
    with caplog.at_level(logging.INFO):
        for attempt in (
            service.views.panel(actor(USERS[0])),
            service.moves.play(actor(USERS[0]), ["pass"]),
            service.moves.restart_turn(actor(USERS[0])),
            service.views.score(2000),
            service.views.log_lines(2000),
        ):
            with pytest.raises(GameUnreadable) as told:
                await attempt
            message = str(told.value)
            assert "Game #1 cannot be loaded: record" in message and "(skip)" in message
            assert "export its records" in message and "abandon" in message
    assert await service.views.autocomplete(actor(USERS[0]), "") == []
    assert await service.moderation.rewind_points(actor(USERS[0])) == []
    [summary] = await service.views.my_games(GUILD, USERS[0])
    assert summary.stage == "broken" and summary.problem
    # Reported once, as the data's fault (a warning), not as a bug of the bot.
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING


async def test_moderation_still_works_and_frees_the_channel(service: GameService) -> None:
    game_id = await broken_game(service)
    doc = await service.moving.export_game(actor(USERS[1]))
    assert doc["log"][-1]["record"] == {"kind": "skip", "seat": "3"}  # the raw records
    outcome = await service.moderation.abandon(actor(USERS[0]))
    assert outcome.committed and "abandoned" in outcome.text
    assert (await service.store.get_game(game_id)).status == "abandoned"
    again = await service.lobby.create_game(actor(USERS[0]), players=2)
    assert again.game_id != game_id


async def test_a_log_that_stops_replaying_with_no_saved_state_is_unreadable(
    service: GameService,
) -> None:
    """Without a snapshot there is nothing to continue from: refused, never a crash."""
    meta = await service.store.create_game(
        guild_id=GUILD,
        channel_id=2000,
        creator_id=USERS[0],
        options={"players": 2, "setup": "intro", "map": "base", "expansions": []},
        seed=5,
        engine_version="test",
        seats=[USERS[0]],
    )
    records = [
        {"kind": "join", "user": USERS[1]},
        {"kind": "start", "seats": list(USERS[:2])},
        {"kind": "commit", "reason": "start", "player": None, "user": None, "undoable": False},
        {"kind": "decision", "notation": "fly", "player": "seat0", "user": USERS[0]},
    ]
    await service.store.append(meta.id, 0, records)  # no snapshot, as no release ever wrote
    with pytest.raises(GameUnreadable, match=r"no longer replays.*no saved state"):
        await service.views.panel(actor(USERS[0]))
