"""The golden games' readable transcripts: built from events and notations, never wording,
and a difference from the recorded one shows as a diff of lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rules import Event
from tests.golden import golden


def test_an_event_is_told_from_its_kind_amount_source_and_data_not_its_text() -> None:
    worded = Event("credits", "usa", -5, "space:patent_1", text="pays 5 credits")
    assert golden.event_text(worded, "usa") == "cr-5"
    assert golden.event_text(Event("vp", "italy", 2, "conduit-use:C9L"), "usa") == (
        "italy vp+2(conduit-use:C9L)"
    )
    built = Event("build", "usa", 0, "conduit", data={"structure": "conduit", "space": "C8L"})
    assert golden.event_text(built, "usa") == "build conduit C8L"
    water = Event("water", None, 0, "water-flow", data={"path": [1, 8], "stopped_at": "D8L"})
    assert golden.event_text(water, "usa") == "water 1>8>D8L(water-flow)"
    taken = Event("contract_taken", "usa", 0, "space:contracts_take1_left", data={"id": 312})
    assert golden.event_text(taken, "usa") == "contract_taken 312"


def test_a_step_tells_its_events_with_resources_of_one_source_together() -> None:
    events = [
        Event("answer", "usa", data={"notation": "confirm"}),
        Event("credits", "usa", 3, "scoring:energy-track"),
        Event("vp", "usa", -3, "scoring:energy-track"),
        Event("credits", "italy", 3, "scoring:energy-track"),
        Event("turn_end", "usa", data={"revealed": []}),
    ]
    assert golden.events_text(events, "usa") == (
        "cr+3 vp-3(scoring:energy-track); italy cr+3(scoring:energy-track)"
    )


def test_a_changed_transcript_shows_as_a_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = golden.text_path_of("intro-2p").read_text(encoding="utf-8")
    monkeypatch.setattr(golden, "GAMES_DIR", tmp_path)
    (tmp_path / "intro-2p.txt").write_text(recorded, encoding="utf-8")
    assert golden.transcript_diff("intro-2p", recorded) == ""
    line = recorded.splitlines()[10]
    changed = recorded.replace(line + "\n", line + "; cr+1\n", 1)
    diff = golden.transcript_diff("intro-2p", changed)
    assert f"\n-{line}\n+{line}; cr+1" in diff
