"""Automa companies through the service: options and lobby, automa turns committed with the
person's Confirm and told in words, undo taking the automa's turns back with the person's,
no pings or reminders for automas, solo play to the end, export and import."""

from __future__ import annotations

import random

import pytest

from bot.service import GameService, LobbyError, OutboxSender, ServiceError
from bot.service.errors import NewGameRefused
from tests.service.helpers import CHANNEL, GUILD, USERS, RecordingPort, actor

ME = USERS[0]


async def solo(service: GameService, automa: int = 1, level: str = "medium", **options) -> int:
    """One person against `automa` automas, started; the game's id."""
    outcome = await service.lobby.create_game(
        actor(ME), players=1 + automa, seed=5, automa=automa, automa_level=level, **options
    )
    await service.lobby.start(actor(ME))
    return outcome.game_id


async def play_until_automa_played(service: GameService, game_id: int) -> None:
    """The person plays turns (first option, then Confirm) until an automa turn followed."""
    for _ in range(200):
        panel = await service.views.panel(actor(ME))
        notation = panel.options[0].notation
        await service.moves.play(actor(ME), [notation], expected_version=panel.version)
        log = await service.store.read_log(game_id)
        if notation == "confirm" and log[-2].record.get("auto") == "automa":
            return
    raise AssertionError("no automa turn followed")


async def test_new_game_options_are_checked(service: GameService) -> None:
    with pytest.raises(NewGameRefused, match="no seat for a person"):
        service.check_new_game(players=2, setup="intro", automa=2)
    with pytest.raises(NewGameRefused, match="0 to 3 automas"):
        service.check_new_game(players=4, setup="intro", automa=4)
    with pytest.raises(NewGameRefused, match="not one of easy, medium, hard, expert"):
        service.check_new_game(players=3, setup="intro", automa=1, automa_level="brutal")
    with pytest.raises(LobbyError, match="cannot be played with automas"):
        service.check_new_game(players=3, setup="full", expansions=("colorado",), automa=1)
    assert service.check_new_game(players=2, setup="full", expansions=("leeghwater",), automa=1)


async def test_lobby_buttons_add_and_remove_automas(service: GameService) -> None:
    outcome = await service.lobby.create_game(actor(ME), players=3, seed=1)
    assert "1/3" in outcome.lines[0].render()
    with pytest.raises(ServiceError, match="creator"):
        await service.lobby.add_automa(actor(USERS[1]))
    added = await service.lobby.add_automa(actor(ME), "hard")
    assert "automa (hard) joined" in added.lines[0].render() and "2/3" in added.lines[0].render()
    await service.lobby.add_automa(actor(ME))  # the last automa's level again
    assert await service.lobby.lobby_automas(outcome.game_id) == ["hard", "hard"]
    with pytest.raises(LobbyError, match="full"):
        await service.lobby.join(actor(USERS[1]))
    with pytest.raises(LobbyError, match="full"):
        await service.lobby.add_automa(actor(ME))
    await service.lobby.remove_automa(actor(ME))
    await service.lobby.join(actor(USERS[1]))
    started = await service.lobby.start(actor(ME))
    text = started.lines[0].render()
    assert "(automa, hard)" in text and text.count("automa") == 1
    with pytest.raises(LobbyError, match="already started"):
        await service.lobby.add_automa(actor(ME))


async def test_remove_refuses_without_an_automa_and_start_alone_needs_one(
    service: GameService,
) -> None:
    await service.lobby.create_game(actor(ME), players=2, seed=1)
    with pytest.raises(LobbyError, match="no automa"):
        await service.lobby.remove_automa(actor(ME))
    with pytest.raises(LobbyError, match="add an AI player or an automa"):
        await service.lobby.start(actor(ME))
    await service.lobby.add_automa(actor(ME), "easy")
    assert (await service.lobby.start(actor(ME))).lines


async def test_automa_turns_are_committed_with_the_confirm_and_told_in_words(
    service: GameService,
) -> None:
    game_id = await solo(service, automa=2)
    await play_until_automa_played(service, game_id)
    log = await service.store.read_log(game_id)
    # The Confirm, the automa answers after it and the commit are one append: the commit is
    # the last record and nothing of the person's follows the Confirm.
    confirm = max(e.seq for e in log if e.record.get("notation") == "confirm")
    after = [e.record for e in log if e.seq > confirm]
    assert after[-1]["kind"] == "commit" and after[-1]["automa"] is True
    assert all(r.get("auto") == "automa" and r.get("user") is None for r in after[:-1])
    pending = await service.store.pending_outbox(game_id)
    text = str(pending[-1].payload)
    assert "(automa) played:" in text and "played card" not in text
    # Only the person is pinged; no reminder for an automa.
    reminders = await service.store.reminders(game_id)
    assert {r.user_id for r in reminders} == {ME}


async def test_undo_takes_the_automa_turns_back_with_the_persons(service: GameService) -> None:
    game_id = await solo(service)
    for _ in range(20):
        await play_until_automa_played(service, game_id)
        log = await service.store.read_log(game_id)
        if log[-1].record["undoable"]:
            break  # a Confirm that revealed no contract and ended no round
    else:
        raise AssertionError("every automa turn revealed contracts or ended a round")
    before = await service.store.latest_snapshot(game_id)
    panel = await service.views.panel(actor(ME))
    assert panel.can_undo
    outcome = await service.moves.undo(actor(ME))
    assert "took back their last turn" in outcome.lines[0].render()
    log = await service.store.read_log(game_id)
    # Back to the commit before the person's turn: the automa's turns are gone with it.
    commits = [e.seq for e in log if e.record["kind"] == "commit"]
    revert = next(e.record for e in reversed(log) if e.record["kind"] == "revert")
    assert before is not None and revert["to"] < before.version and revert["to"] in commits


async def test_a_solo_game_plays_to_the_end_and_exports(service: GameService) -> None:
    game_id = await solo(service, automa=3, level="expert", setup="full")
    rng = random.Random(3)
    port = RecordingPort()
    sender = OutboxSender(service.store, port, service.clock, service=service)
    for _ in range(3000):
        if (await service.store.get_game(game_id)).status != "active":
            break
        panel = await service.views.panel(actor(ME))
        option = rng.choice(panel.options)
        await service.moves.play(actor(ME), [option.notation], expected_version=panel.version)
    else:
        raise AssertionError("the solo game did not end")
    await sender.run_once()
    final = port.posted[-1]
    assert "The game is over." in final.text and list(final.mentions) == [ME]
    assert all(set(a.mentions) <= {ME} for a in port.posted)
    exported = await service.moving.export_game(actor(ME), game_id)
    assert exported["options"]["automa"] == [3, 3, 3]
    # Its results: the automa seats are kept as such and count in no statistic; an import of
    # the finished game gets the same results from its log (replayed with its automas).
    kept = await service.store.game_result(game_id)
    assert kept is not None
    assert [(s.user_id, s.automa) for s in kept.result.seats] == [(ME, False)] + [(None, True)] * 3
    stats = await service.records.server_stats(GUILD, min_games=1)
    assert [p.key for p in stats.players] == [ME] and stats.companies[0].games == 1
    imported = await service.moving.import_game(
        actor(ME, channel=CHANNEL + 1, manage=True), exported
    )
    again = await service.store.game_result(imported.game_id)
    assert again is not None and again.result == kept.result
