"""Import = load: every hostile export is refused with a specific reason and stores nothing."""

from __future__ import annotations

import copy
import json
import logging
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.service import ChannelRef, GameService, ImportRefused, LobbyError
from bot.store.export import MAX_EXPORT_BYTES, nesting_depth
from tests.service.helpers import GUILD, OTHER_CHANNEL, SPECTATOR, USERS, actor, random_step
from tests.service.helpers import started_game as start

Doc = dict[str, Any]
MANAGER = actor(SPECTATOR, channel=OTHER_CHANNEL, manage=True)


async def played_export(service: GameService, steps: int = 30, seed: int = 3) -> Doc:
    """An export of a 2-player game after `steps` random answers; the original abandoned."""
    game_id = await start(service, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        await random_step(service, rng, 2, game_id)
    doc = await service.moving.export_game(actor(USERS[0]))
    await service.moderation.abandon(actor(USERS[0]))
    return doc


def _records(doc: Doc) -> list[dict[str, Any]]:
    return [entry["record"] for entry in doc["log"]]


def _seq(doc: Doc, kind: str, index: int = -1) -> int:
    return [e["seq"] for e in doc["log"] if e["record"]["kind"] == kind][index]


def appended(record: dict[str, Any]) -> Callable[[Doc], None]:
    """A mutation that appends one record."""

    def mutate(doc: Doc) -> None:
        doc["log"].append({"seq": len(doc["log"]) + 1, "at": 1, "record": record})

    return mutate


def edited(kind: str, field: str, value: Any, index: int = -1) -> Callable[[Doc], None]:
    """A mutation that sets one field of the index-th record of a kind (None: deletes it)."""

    def mutate(doc: Doc) -> None:
        record = [r for r in _records(doc) if r["kind"] == kind][index]
        if value is None:
            record.pop(field, None)
        else:
            record[field] = value

    return mutate


def top(field: str, value: Any) -> Callable[[Doc], None]:
    """A mutation of one top-level field (None: deletes it)."""

    def mutate(doc: Doc) -> None:
        if value is None:
            doc.pop(field, None)
        else:
            doc[field] = value

    return mutate


def option(field: str, value: Any) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        doc["options"][field] = value

    return mutate


def flag_on_last_commit(doc: Doc) -> None:
    appended({"kind": "flag", "reason": "edited", "base": _seq(doc, "commit")})(doc)


def revert_to_a_decision(doc: Doc) -> None:
    appended({"kind": "revert", "to": _seq(doc, "decision")})(doc)


def after_abandon(doc: Doc) -> None:
    appended({"kind": "abandon", "by": USERS[0]})(doc)
    appended({"kind": "commit", "reason": "turn", "player": None, "user": None})(doc)


def seq_gap(doc: Doc) -> None:
    doc["log"][-1]["seq"] += 1


def decision_of_the_other_player(doc: Doc) -> None:
    record = [r for r in _records(doc) if r["kind"] == "decision"][-1]
    record["user"] = USERS[1] if record["user"] == USERS[0] else USERS[0]


def swap_notation(doc: Doc) -> None:
    edited("decision", "notation", "build D5U base")(doc)


#: Every hostile file: (name, mutation, what the refusal must say).
def hint_twice(doc: Doc) -> None:
    """Two hint records for the same seat and decision."""
    tip = [e["seq"] for e in doc["log"] if e["record"]["kind"] in ("decision", "commit")][-1]
    for _ in range(2):
        appended({"kind": "hint", "seat": 0, "at": tip})(doc)


HOSTILE: list[tuple[str, Callable[[Doc], None], str]] = [
    ("flag record", flag_on_last_commit, "saved state that exports do not carry"),
    ("commit without fields", appended({"kind": "commit"}), "(commit): 'reason' is nothing"),
    (
        "commit of no player",
        appended({"kind": "commit", "reason": "turn", "player": "x", "user": USERS[0]}),
        "'x' is not a player",
    ),
    (
        "commit undoable not a bool",
        appended({"kind": "commit", "reason": "turn", "player": None, "undoable": "yes"}),
        "'undoable' is 'yes'",
    ),
    (
        "replace seat not a number",
        appended({"kind": "replace", "seat": "x", "old": USERS[0], "new": 5}),
        "'seat' is 'x'",
    ),
    (
        "replace seat out of range",
        appended({"kind": "replace", "seat": 9, "old": USERS[0], "new": 5}),
        "'seat' is 9; this game has seats 0 to 1",
    ),
    (
        "replace of someone not seated",
        appended({"kind": "replace", "seat": 0, "old": 77, "new": 5}),
        "user 77 does not sit at seat 0",
    ),
    (
        "replace by a seated player",
        appended({"kind": "replace", "seat": 0, "old": USERS[0], "new": USERS[1]}),
        "already plays in this game",
    ),
    ("skip seat out of range", appended({"kind": "skip", "seat": -1}), "'seat' is -1"),
    ("hint at no decision", appended({"kind": "hint", "seat": 0, "at": 1}), "not the turn chain's"),
    ("hint seat out of range", appended({"kind": "hint", "seat": 5, "at": 0}), "'seat' is 5"),
    ("hint shown twice", hint_twice, "already shown a hint for this decision"),
    ("skip seat a bool", appended({"kind": "skip", "seat": True}), "'seat' is true"),
    ("join user not a number", edited("join", "user", "x"), "(join): 'user' is 'x'"),
    ("join user negative", edited("join", "user", -5), "'user' is -5"),
    ("join user beyond 64 bits", edited("join", "user", 2**70), str(2**70)),
    ("join user of 40 digits", edited("join", "user", 10**40), "a 41-digit number"),
    ("join after the start", appended({"kind": "join", "user": 5}), "already started"),
    ("start seats missing", edited("start", "seats", None), "'seats' is nothing"),
    ("start seats not a list", edited("start", "seats", 7), "'seats' is 7"),
    ("start seats not who joined", edited("start", "seats", [USERS[1], USERS[0]]), "join order"),
    ("second start", appended({"kind": "start", "seats": list(USERS[:2])}), "already started"),
    ("notation not a string", edited("decision", "notation", 5), "'notation' is 5"),
    ("notation a list", edited("decision", "notation", ["pass"]), "'notation' is a list"),
    ("notation that does not replay", swap_notation, "the moves do not replay"),
    ("decision player missing", edited("decision", "player", None), "'player' is nothing"),
    ("decision by the wrong user", decision_of_the_other_player, "does not play"),
    ("revert to null", appended({"kind": "revert"}), "'to' is nothing"),
    ("revert to a list", appended({"kind": "revert", "to": [1]}), "'to' is a list"),
    ("revert beyond the log", appended({"kind": "revert", "to": 10**6}), "'to' is 1000000"),
    ("revert to a decision", revert_to_a_decision, "not an earlier commit"),
    ("unknown kind", appended({"kind": "teleport"}), "unknown kind 'teleport'"),
    ("record kind missing", appended({"turn": 1}), "needs a string 'kind'"),
    ("abandon by no one", appended({"kind": "abandon", "by": 0}), "'by' is 0"),
    ("record after abandon", after_abandon, "(commit) comes after the game was abandoned"),
    ("seq gap", seq_gap, "expected"),
    ("seats missing", top("seats", None), "missing field 'seats'"),
    ("seats not a list", top("seats", {"0": 1}), "'seats' has the wrong type"),
    ("log not a list", top("log", "x"), "'log' has the wrong type"),
    ("seed a string", top("seed", "7"), "'seed' has the wrong type"),
    ("seed beyond 64 bits", top("seed", 2**64), "does not fit in 64 bits"),
    ("format wrong", top("format", "chess/pgn"), "'format' must be"),
    ("options not an object", top("options", [3]), "'options' has the wrong type"),
    ("expansions a number", option("expansions", 5), "'expansions' is 5"),
    ("expansions unknown", option("expansions", ["atlantis"]), "unknown expansion 'atlantis'"),
    ("players 100", option("players", 100), "'players' is 100"),
    ("players a string", option("players", "2"), "'players' is '2'"),
    ("setup unknown", option("setup", "speed"), "setup must be 'intro' or 'full'"),
    ("map unknown", option("map", "moon"), "unknown map 'moon'"),
    ("reminder hours negative", option("reminder_hours", -3), "'reminder_hours' is -3"),
]


@pytest.mark.parametrize(
    ("mutate", "expected"), [(m, e) for _, m, e in HOSTILE], ids=[n for n, _, _ in HOSTILE]
)
async def test_a_hostile_export_is_refused_with_its_reason_and_stores_nothing(
    service: GameService,
    caplog: pytest.LogCaptureFixture,
    mutate: Callable[[Doc], None],
    expected: str,
) -> None:
    doc = await played_export(service)
    mutate(doc)
    games = await service.store.list_games(guild_id=GUILD)
    with caplog.at_level(logging.WARNING), pytest.raises(ImportRefused) as refused:
        await service.moving.import_game(MANAGER, json.dumps(doc).encode())
    assert expected in str(refused.value)
    assert await service.store.list_games(guild_id=GUILD) == games
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_the_untouched_export_is_accepted_and_loads(service: GameService) -> None:
    """The control for the table above: the same file, unmutated, imports and plays on."""
    doc = await played_export(service)
    outcome = await service.moving.import_game(MANAGER, json.dumps(doc).encode())
    assert outcome.committed
    service.desk.cache.clear()
    panels = [await service.views.panel(actor(u, channel=OTHER_CHANNEL)) for u in USERS[:2]]
    assert any(p.options for p in panels)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nests lists and objects 100000 deep"),
        (b'{"a":' * 65 + b"1" + b"}" * 65, "65 deep"),
        (b"[" * 100_000, "100000 deep"),
        (b" " * (MAX_EXPORT_BYTES + 1), "at most 5 MB"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"{no", "not valid JSON"),
        (b'{"format": NaN}', "not valid JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b"", "not valid JSON"),
    ],
    ids=["deep-100000", "deep-65", "unclosed", "over-5MB", "utf16", "junk", "nan", "list", "empty"],
)
async def test_files_are_refused_before_parsing_when_too_big_or_too_deep(
    service: GameService, caplog: pytest.LogCaptureFixture, data: bytes, expected: str
) -> None:
    with caplog.at_level(logging.WARNING), pytest.raises(ImportRefused) as refused:
        await service.moving.import_game(MANAGER, data)
    assert expected in str(refused.value)
    assert not caplog.records


def test_nesting_depth_ignores_brackets_in_strings_and_escapes() -> None:
    assert nesting_depth(b'{"a": "[[[[", "b": [1]}') == 2
    assert nesting_depth(b'["\\\\", [[]]]') == 3  # an escaped backslash ends no string
    assert nesting_depth(b'["\\"[[", []]') == 2  # an escaped quote does not end one
    assert nesting_depth(b"[][][]") == 1
    assert nesting_depth(b"") == 0


async def test_a_game_still_active_elsewhere_is_refused_naming_its_channel(
    service: GameService,
) -> None:
    game_id = await start(service, seed=4)
    doc = await service.moving.export_game(actor(USERS[0]))
    with pytest.raises(ImportRefused, match=r"still active in channel 2000 \(game #1\)") as info:
        await service.moving.import_game(MANAGER, doc)
    # The service names the channel as data; Discord writes it as a link (<#2000>).
    assert ChannelRef(2000) in info.value.line.parts
    other_server = type(MANAGER)(SPECTATOR, GUILD + 1, 7000, True)
    with pytest.raises(ImportRefused, match="still active in another server"):
        await service.moving.import_game(other_server, doc)
    await service.moderation.abandon(actor(USERS[0]))
    copy_ = await service.moving.import_game(MANAGER, copy.deepcopy(doc))
    assert copy_.game_id != game_id
    # The copy is now the live one: importing the file a third time is refused again.
    with pytest.raises(ImportRefused, match=r"still active in channel 2001 \(game #2\)"):
        await service.moving.import_game(actor(SPECTATOR, channel=2002, manage=True), doc)


async def test_an_import_into_a_channel_with_a_game_names_that_game(service: GameService) -> None:
    doc = await played_export(service)
    lobby = await service.lobby.create_game(actor(USERS[2], channel=OTHER_CHANNEL), players=2)
    number = (await service.store.get_game(lobby.game_id)).number
    with pytest.raises(LobbyError, match=rf"already has game #{number} going; abandon it first"):
        await service.moving.import_game(MANAGER, json.dumps(doc).encode())
