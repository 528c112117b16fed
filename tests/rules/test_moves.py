"""Moves: every option's typed move writes its notation and reads back from it, on every board
and expansion mix; applying a parsed move is applying its text; bad text gets a clear error."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.rules import CATALOGUE, GameOptions, IllegalMove, MalformedNotation, new_game
from bot.rules.engine import Game
from bot.rules.moves import Move, Space, Word
from bot.rules.notation import Drops, Payment, Produce, Structure
from bot.rules.options import Decision, Option
from bot.rules.tasks import Task
from tests.golden import golden


def _mixes() -> Iterator[tuple[str, GameOptions]]:
    """Every set of expansions the catalogue allows (each on its own board), the introductory
    game's, the 4/5-player board and automa seats."""
    for names in CATALOGUE.combinations(GameOptions(players=3, setup="full")):
        yield "+".join(names) or "full", GameOptions(players=3, setup="full", expansions=names)
    for names in CATALOGUE.combinations(GameOptions(players=3, setup="intro")):
        yield "intro+" + "+".join(names), GameOptions(players=3, setup="intro", expansions=names)
    yield "five_player", GameOptions(players=4, setup="full", map="five_player")
    yield "automa", GameOptions(players=3, setup="full", automa=(2,))


MIXES = dict(_mixes())


def _with_seed(options: GameOptions, seed: int) -> GameOptions:
    return GameOptions(
        players=options.players,
        setup=options.setup,
        map=options.map,
        expansions=options.expansions,
        automa=options.automa,
        seed=seed,
    )


def _check_move(game: Game, option: Option) -> None:
    """The option's move writes its notation, and the text reads back to an equal move."""
    move = option.move
    text = option.notation
    assert isinstance(move, Move)
    assert move.notation == str(move) == text
    parsed = game.rules.grammar.parse(text)
    assert parsed == move and type(parsed) is type(move), text
    assert parsed.notation == text
    assert type(move).parse(text) == move, text
    assert game.read(f"  {text.upper() if isinstance(move, Word) else text} ") == move


def _check_option(game: Game, decision: Decision, option: Option) -> None:
    """A pending option: its move round-trips, and answers resolve to the option itself."""
    _check_move(game, option)
    move, text = option.move, option.notation
    parsed = game.rules.grammar.parse(text)
    # The engine resolves the parsed move, the offered move and the text to this very option,
    # so applying any of them runs the same handler on the same move.
    assert game.parse(parsed, decision.player) is option
    assert game.parse(move, decision.player) is option
    assert game.parse(text, decision.player) is option


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_every_option_round_trips_and_its_parsed_move_applies_as_its_text(
    mix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every decision the engine lists, also those it answers itself (a single option).
    listed: list[Decision] = []
    decision_for = Game._decision_for

    def listing(game: Game, entry: Task, *, simultaneous: bool = False) -> Decision:
        decision = decision_for(game, entry, simultaneous=simultaneous)
        listed.append(decision)
        return decision

    monkeypatch.setattr(Game, "_decision_for", listing)
    options = _with_seed(MIXES[mix], 11)
    by_text, by_move = new_game(options), new_game(options)
    rng = random.Random(mix)
    kinds: set[str] = set()
    while not by_text.is_over:
        for decision in listed:
            for option in decision.options:
                _check_move(by_text, option)
                kinds.add(type(option.move).__name__)
        listed.clear()
        decisions = by_text.decisions()
        assert [d.notations for d in decisions] == [d.notations for d in by_move.decisions()]
        for decision in decisions:
            for option in decision.options:
                _check_option(by_text, decision, option)
                kinds.add(type(option.move).__name__)
        decision = rng.choice(decisions)
        option = rng.choice(decision.options)
        # One game is answered in text, its twin with the move parsed from that text.
        parsed = by_move.read(option.notation)
        events = by_text.apply(option.notation, decision.player)
        assert by_move.apply(parsed, decision.player) == events
    assert by_move.is_over
    for decision in listed:
        for option in decision.options:
            _check_move(by_text, option)
    assert by_move.state.to_json() == by_text.state.to_json()
    assert {"Word", "Structure", "TileUse", "Payment"} <= kinds, kinds


def test_a_kind_writes_and_reads_its_own_notation() -> None:
    assert Payment(1, 0, 9).notation == "pay 1e 9c" and Payment.parse("PAY 1E 9C") == Payment(
        1, 0, 9
    )
    assert Payment.parse("pay 0") == Payment(0, 0, 0)
    assert Produce.parse("produce D1L C1L 2") == Produce("D1L", "C1L", 2)
    assert Produce.parse("produce none") == Produce(None) and str(Produce(None)) == "produce none"
    assert Drops.parse("drops none") == Drops(()) and str(Drops(("HA", "HB"))) == "drops HA HB"
    assert Structure.parse("base D5U") == Structure("base", "D5U")
    assert str(Structure("conduit", None)) == "conduit none"
    # What the listing knew takes no part in equality: a parsed move equals the offered one.
    assert Payment(4, 0, 0, fee=3) == Payment.parse("pay 4e")
    assert Space.parse("Turbine_Plus2_Left") == Space("turbine_plus2_left")


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        (Payment, "pay four"),
        (Payment, "produce D1L C1L 2"),
        (Produce, "produce D1L"),
        (Drops, "drops"),
        (Space, "9lives"),
    ],
)
def test_a_kind_refuses_text_that_is_not_one_of_its_moves(kind: type[Move], text: str) -> None:
    with pytest.raises(MalformedNotation, match="is not a"):
        kind.parse(text)


#: Bad answers and what the player is told, word for word as before moves were typed.
REFUSED = {
    "intro": {
        "pay four": "'pay four' is malformed: 'pay' is written like 'pay 4e'",
        "PAY 4E 1E 2E 3E": "'PAY 4E 1E 2E 3E' is malformed: 'pay' is written like 'pay 4e'",
        "engineers 123": "'engineers 123' is malformed: 'engineers' is written like 'engineers 3'",
        "machines 2": "'machines 2' is malformed: 'machines' is written like 'machines 1e1m'",
        "tile a b c": "'tile a b c' is malformed: 'tile' is written like 'tile …'",
        "discard none": "'discard none' is malformed: 'discard' is written like 'discard …'",
        "bank 3": "'bank 3' is malformed: 'bank' is written like 'bank …'",
        "architect yes": "'architect yes' belongs to The Leeghwater Project, which this game "
        "does not use",
        "9lives": "'9lives' is not a move: it should start with an action space id or one of: "
        "`automa`, `bank`, `base`, `build`, `build_free`, `conduit`, `confirm`, `contract`, "
        "`copy`, `discard`, `drops`, `elevation`, `engineers`, `machines`, `mahiri`, `pass`, "
        "`patent`, `pay`, `pick`, `powerhouse`, `produce`, `start`, `take`, `tile`",
    },
    "leeghwater": {
        "architect maybe": "'architect maybe' is malformed: 'architect' is written like "
        "'architect …'",
        "segment 9 1e1m": "'segment 9 1e1m' is malformed: 'segment' is written like 'segment …'",
        "work hard": "'work hard' is malformed: 'work' is written like 'work …'",
        "site CS_X": "'site CS_X' belongs to The Colorado Connection, which this game does not use",
    },
    "nile": {
        "choose x": "'choose x' is malformed: 'choose' is written like 'choose …'",
        "flip": "'flip' is malformed: 'flip' is written like 'flip …'",
    },
    "colorado": {
        "bridge BR1": "'bridge BR1' is malformed: 'bridge' is written like 'bridge …'",
        "settle S_X1": "'settle S_X1' is malformed: 'settle' is written like 'settle …'",
        "settle S_M1": "'settle S_M1' is not legal now: the question is “Choose your company "
        "and executive officer”; answer with e.g. `pick italy`, `pick usa`, `pick france`",
    },
}


@pytest.mark.parametrize("mix", sorted(REFUSED))
def test_bad_notations_get_the_same_clear_error_and_change_nothing(mix: str) -> None:
    options = {
        "intro": GameOptions(players=3, seed=1),
        "leeghwater": GameOptions(players=3, seed=1, setup="full", expansions=("leeghwater",)),
        "nile": GameOptions(players=3, seed=1, setup="full", expansions=("nile",)),
        "colorado": GameOptions(players=3, seed=1, setup="full", expansions=("colorado",)),
    }[mix]
    game = new_game(options)
    before = game.state.to_json()
    player = game.decisions()[0].player
    for text, message in REFUSED[mix].items():
        with pytest.raises((MalformedNotation, IllegalMove)) as error:
            game.apply(text, player)
        assert str(error.value) == message
        if "not legal now" not in message:  # the text itself is refused, in any position
            with pytest.raises(type(error.value)) as read:
                game.read(text)
            assert str(read.value) == message
    assert game.state.to_json() == before


#: A notation of each verb of the product's rule sets (a new verb must add one).
SAMPLES = {
    "activate": "activate IM2",
    "architect": "architect no",
    "automa": "automa",
    "bank": "bank",
    "base": "base D5U",
    "bridge": "bridge BR3 D1L",
    "build": "build",
    "build_free": "build_free",
    "building": "building cofferdam_2",
    "choose": "choose 2",
    "conduit": "conduit none",
    "confirm": "confirm",
    "contract": "contract none",
    "copy": "copy viktor_fiesler",
    "copy_bridge": "copy_bridge BR12",
    "dam": "dam D1L",
    "discard": "discard 201",
    "drain": "drain none",
    "drops": "drops HA HA HB",
    "elevation": "elevation D5U",
    "engineers": "engineers 12",
    "flip": "flip IP1",
    "irrigate": "irrigate IS_1",
    "irrigation": "irrigation IM2",
    "loan": "loan B2",
    "machines": "machines 0e3m",
    "mahiri": "mahiri",
    "margot": "margot cofferdam",
    "margot_bank": "margot_bank research_lab",
    "pass": "pass",
    "patent": "patent 3",
    "pay": "pay 2e 1m 6c",
    "pick": "pick usa",
    "powerhouse": "powerhouse P5_0",
    "produce": "produce D1L C1L 2",
    "retrieve": "retrieve adv_2_base",
    "segment": "segment 0 2e0m",
    "settle": "settle S_M1",
    "settlement": "settlement S_P2",
    "site": "site CS_H",
    "start": "start 3",
    "take": "take 201",
    "tile": "tile anton_tile adv_2_base",
    "use": "use none",
    "work": "work wheel",
}


def test_every_verb_of_every_rule_set_reads_and_writes_its_kind() -> None:
    verbs: dict[str, type[Move]] = {}
    for names in CATALOGUE.combinations():
        verbs.update(CATALOGUE.rules(names).verbs)
    assert sorted(verbs) == sorted(SAMPLES)
    for verb, kind in verbs.items():
        grammar = CATALOGUE.rules(
            next(
                names for names in CATALOGUE.combinations() if verb in CATALOGUE.rules(names).verbs
            )
        ).grammar
        move = grammar.parse(SAMPLES[verb])
        assert type(move) is kind and move.notation == SAMPLES[verb]
        assert grammar.parse(move.notation) == move and kind.parse(SAMPLES[verb]) == move


def test_every_answer_of_the_golden_games_reads_back_to_its_text() -> None:
    """The stored format: each recorded notation is a move of its game that writes it again."""
    for path in sorted((Path(__file__).parents[1] / "golden" / "games").glob("*.json.gz")):
        data = golden.load(path)
        grammar = CATALOGUE.rules(golden.options_of(data).expansions).grammar
        for step in data["steps"]:
            assert grammar.parse(step[1]).notation == step[1], (path.name, step)
