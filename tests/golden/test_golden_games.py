"""The golden games replay exactly: every step's projection, every round-end picture and the
readable transcript (`<name>.txt`).

A failure names the game, the step and what differs, and shows the transcript's diff (recorded
against now), so a change of play reads as moves and events. If the change is deliberate (a
rule or a picture meant to change), re-record the games it touches with `tools/record_golden.py`
(it writes the hashes and the transcripts) and say why in the commit; otherwise the
refactoring changed behaviour. Rewording option labels or event texts changes only the hashes'
`texts` part (the transcript holds no wording): re-record, and the .txt files stay as they are.
A change of the transcript's own format is re-written with `tools/record_golden.py --text`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.rules import RuleError
from bot.rules.setup import resolve_options
from renderer import use_text_layout
from tests.golden import golden

NAMES = [spec.name for spec in golden.CATALOGUE]


@pytest.fixture(scope="module", autouse=True)
def basic_text_layout() -> Iterator[None]:
    """Pictures drawn with Pillow's basic text layout, whatever the host's text libraries."""
    use_text_layout("basic")
    yield
    use_text_layout("default")


def test_every_game_of_the_catalogue_is_recorded_and_nothing_else() -> None:
    files = sorted(path.name for path in golden.GAMES_DIR.iterdir())
    wanted = sorted(f"{name}{suffix}" for name in NAMES for suffix in (".json.gz", ".txt"))
    assert files == wanted, "run tools/record_golden.py for new games; delete stale ones"


def test_the_catalogue_covers_every_setup_and_expansion_mix() -> None:
    options = [resolve_options(spec.options) for spec in golden.CATALOGUE]
    played = {(o.setup, o.map, o.expansions, o.players) for o in options}
    mixes = {(map_, expansions) for _setup, map_, expansions, _players in played}
    assert mixes == {
        ("base", ()),
        ("five_player", ()),
        ("base", ("leeghwater",)),
        ("five_player", ("leeghwater",)),
        ("colorado", ("colorado",)),
        ("colorado", ("leeghwater", "colorado")),
        ("nile", ("nile",)),
        ("nile", ("leeghwater", "nile")),
    }
    for map_, expansions in mixes:
        counts = {p for _s, m, e, p in played if (m, e) == (map_, expansions)}
        assert counts == ({4} if map_ == "five_player" else {2, 3, 4}), (map_, expansions)
    assert {s for s, _m, e, _p in played if not e} == {"intro", "full"}
    assert {s for s, m, _e, _p in played if m in ("colorado", "nile")} == {"intro", "full"}
    assert len(golden.CATALOGUE) >= 20


def _where(data: dict[str, Any], index: int, round_: int) -> str:
    if index == 0:
        return f"golden game {data['name']!r}, the game as set up"
    player, notation, _ = data["steps"][index - 1]
    total = len(data["steps"])
    return (
        f"golden game {data['name']!r}, step {index} of {total} "
        f"(round {round_}, {player} answered {notation!r})"
    )


def _advice(data: dict[str, Any], index: int) -> str:
    return (
        f"\nIf this change is deliberate, re-record: python tools/record_golden.py {data['name']}"
        " (and say why in the commit). To compare the projection before and after the change:"
        f" python tools/record_golden.py --show {data['name']} {index}"
    )


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_replays_exactly(name: str) -> None:
    data = golden.load(golden.path_of(name))
    log = [(player, notation) for player, notation, _ in data["steps"]]
    expected = [data["start"], *(hashes for _, _, hashes in data["steps"])]
    renders: dict[str, dict[str, str]] = data["renders"]
    seen_renders = set()
    replayed: list[golden.Step] = []
    steps = golden.play(golden.options_of(data), log, theme=data["theme"])
    index, round_ = 0, 1
    failure = ""  # the first difference; the replay goes on to show the transcript's diff
    try:
        for step in steps:
            replayed.append(step)
            index, round_ = step.index, step.round
            if step.hashes != expected[index] and not failure:
                parts = golden.differing_parts(expected[index], step.hashes)
                failure = (
                    f"{_where(data, index, round_)}: differs in {', '.join(parts)} "
                    f"(hashes of {' '.join(golden.PARTS)}: recorded {expected[index]}, "
                    f"now {step.hashes})" + _advice(data, index)
                )
            wanted = renders.get(str(index), {})
            if step.renders != wanted and not failure:
                views = sorted(
                    view
                    for view in set(wanted) | set(step.renders)
                    if wanted.get(view) != step.renders.get(view)
                )
                failure = (
                    f"{_where(data, index, round_)}: the round-end pictures differ: "
                    f"{', '.join(views)}{_versions(data)}" + _advice(data, index)
                )
            if wanted:
                seen_renders.add(str(index))
    except RuleError as error:
        failure = failure or (
            f"{_where(data, index + 1, round_)}: the recorded answer is refused now: {error}"
            + _advice(data, index + 1)
        )
    except ValueError as error:  # the game ends at another step than recorded
        failure = failure or f"golden game {name!r}: {error}" + _advice(data, index)
    diff = golden.transcript_diff(name, golden.transcript(name, golden.options_of(data), replayed))
    if diff and not failure:
        # Every hash matched, so the transcript's format changed (or the file was edited).
        failure = (
            f"golden game {name!r}: the transcript differs though every hash matches; if its"
            f" format changed on purpose: python tools/record_golden.py --text {name}"
        )
    if failure:
        pytest.fail(failure + diff)
    assert seen_renders == set(renders), f"golden game {name!r}: renders after steps never reached"


def _versions(data: dict[str, Any]) -> str:
    """A note when the libraries that draw the pixels are not those the game was recorded with."""
    recorded, running = data["recorded_with"], golden.library_versions()
    if recorded == running:
        return ""
    return f" (recorded with {recorded}, running {running}: glyphs may rasterise differently)"
