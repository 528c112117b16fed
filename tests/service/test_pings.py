"""No ping for a player who is already playing: their own answer's reply is the panel of
their next decision, so the announcement names them without pinging them; a choice asked of
several at once pings only those who have not made it when the announcement is posted."""

from __future__ import annotations

import random

from bot.service import GameService, OutboxSender, OutcomeKind
from bot.service.loading import Loaded
from bot.service.types import named_users
from tests.service.helpers import USERS, FakeClock, RecordingPort, actor, play_policy, started_game

ME = USERS[0]


async def test_a_solo_game_pings_its_player_only_at_the_start_and_the_end(
    service: GameService, clock: FakeClock
) -> None:
    """Against automas every Confirm hands the next turn back to the person: it is named in
    each turn message (which the channel still sees, with its picture), but the only pings
    are the first turn's and the final result's."""
    outcome = await service.lobby.create_game(
        actor(ME), players=3, seed=5, automa=2, automa_level="medium"
    )
    await service.lobby.start(actor(ME))
    game_id = outcome.game_id
    rng = random.Random(5)
    port = RecordingPort()
    sender = OutboxSender(service.store, port, clock, service=service)
    await sender.run_once()
    for _ in range(3000):
        if (await service.store.get_game(game_id)).status != "active":
            break
        panel = await service.views.panel(actor(ME))
        played = await service.moves.play(
            actor(ME), [rng.choice(panel.options).notation], expected_version=panel.version
        )
        if played.announced:
            # The reply goes on to the person's next decision (the game is not over yet).
            after = played.decision
            assert after is not None
            assert after.options or played.kind is OutcomeKind.GAME_OVER
            await sender.run_once()
            assert {r.user_id for r in await service.store.reminders(game_id)} <= {ME}
    else:
        raise AssertionError("the solo game did not end")
    first, *middle, final = port.posted
    assert first.mentions == (ME,) and final.mentions == (ME,)
    assert len(middle) > 20
    for announcement in middle:
        assert announcement.mentions == ()
        assert announcement.waiting_for == (ME,) and ME in named_users(announcement.lines)
        assert announcement.images and announcement.play_button  # still posted publicly


def choosing_at_once(loaded: Loaded) -> bool:
    """Two or more players are asked a choice at once."""
    game = loaded.game
    return game is not None and len([d for d in game.decisions() if d.simultaneous]) > 1


async def test_a_choice_made_before_its_announcement_is_posted_is_not_pinged(
    service: GameService, clock: FakeClock
) -> None:
    """Intro, 3 players, seed 4: round 5 asks two players to choose at once; the one who
    was not the last to confirm makes the choice (say from /barrage panel) before the turn
    message is posted: the message still names both and pings neither (the other's panel
    went on from their own Confirm to the choice)."""
    game_id = await started_game(service, 3, seed=4)
    loaded = await play_policy(service, game_id, 4, choosing_at_once)
    deciders = set(service.desk.users_deciding(loaded))
    confirmed_by = loaded.commits[-1][1].user
    assert confirmed_by in deciders and len(deciders) == 2
    [other] = deciders - {confirmed_by}
    panel = await service.views.panel(actor(other))
    noted = await service.moves.play(actor(other), [panel.options[0].notation])
    assert noted.kind is OutcomeKind.NOTED
    port = RecordingPort()
    await OutboxSender(service.store, port, clock, service=service).run_once()
    message = port.posted[-1]
    assert message.version == loaded.commit_version
    assert deciders <= set(named_users(message.lines)) and "all at once" in message.text
    assert message.mentions == ()
    # An older announcement is left as it was written: it pinged whoever it asked then.
    assert any(a.mentions for a in port.posted[1:-1])
