"""Every word a player reads: no ids, no numbers without their unit, right plurals, within
Discord's limits and never cut.

Random whole games of every setup (intro and full, each expansion and allowed combination,
2-4 seats, automa seats of each level) are read through the service; one through Discord
against the fake (every message body, panel, select, autocomplete answer, help topic and
refusal sent); one hot-seat console session. bench/texts.py reads 500 games the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord

from bot.commands.replies import split_message
from tests.texts.checker import Finding, check_message, check_text, count_by_kind
from tests.texts.console_play import console_findings
from tests.texts.discord_play import read_discord_game
from tests.texts.service_play import service_findings
from tests.texts.setups import Setup, all_setups

SETUPS = all_setups()
#: Through Discord: a person against an automa with an expansion (its turn lines, Leeghwater's
#: pieces), with every help topic.
DISCORD_SETUP = Setup(
    "full",
    ("leeghwater",),
    2,
    computers=1,
    level="expert",
    # Its deadlines are shown as Discord timestamps; its reminders come at half the allowance.
    extra={"clock": "24h", "timeout": "wait"},
)


def report(found: list[Finding]) -> str:
    """The counts by kind and the first finding of each kind and text."""
    seen: dict[tuple[str, str], Finding] = {}
    for finding in found:
        seen.setdefault((finding.kind, finding.what), finding)
    first = "\n".join(str(f)[:400] for f in list(seen.values())[:40])
    return f"{dict(count_by_kind(found))}\n{first}"


@pytest.mark.parametrize("setup", SETUPS, ids=[s.name for s in SETUPS])
async def test_service_texts(setup: Setup, tmp_path: Path) -> None:
    found = await service_findings(setup, 11 + SETUPS.index(setup), tmp_path / "game.db")
    assert not found, report(found)


async def test_discord_texts(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    found = await read_discord_game(fake_discord, DISCORD_SETUP, 5, tmp_path / "g.db", helps=True)
    assert not found, report(found)
    # Reminders and their DM copies were among what was read (every request the fake got).
    sent = [m for c in fake_discord.channels.values() for m in c.messages]
    assert any("is waiting for you" in (m.content or "") for m in sent)
    assert fake_discord.alice.dms


def test_console_texts(tmp_path: Path) -> None:
    found = console_findings(tmp_path / "console.db", "--automa", "1", "--setup", "full")
    assert not found, report(found)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Italy (automa) built a base with basic_powerhouse", "snake_case id"),
        ("USA: 3 VP (conduit-fee)", "kind:id source"),
        ("+2 VP (contract:12)", "kind:id source"),
        ("pay france 2", "company or officer id"),
        ("played card 10, placing by card 16", "card number"),
        ("Config(path='x')", "python repr"),
        ("starting contract None", "python repr"),
        ("• -4 VP", "number without unit"),
        ("start +16", "number without unit"),
        ("'foo' was refused: 'foo' is not legal now", "doubled refusal"),
        ("You get 1 credits", "wrong plural"),
        ("take 2 contract(s)", "wrong plural"),
        ("built 2 powerhouse", "wrong plural"),
    ],
)
def test_the_check_finds(text: str, kind: str) -> None:
    assert kind in {f.kind for f in check_text(text, "test")}


@pytest.mark.parametrize(
    "text",
    [
        "Italy (automa) built a dam at D5U with a basic powerhouse (2 mixers)",
        "Type `/barrage new automa_level:hard` or `base D5U`",
        "⏱️ <@1577458282946101255> (Germany) has until <t:1768003200:R>.",
        "There is no company 'atlantis' in this game (Italy, USA).",
        "USA: -4 VP (nothing produced this round)",
        "Turbine Station: produce +2 (2 eng.)",
        "1 credit, 2 credits, 1 excavator, 3 machinery of choice",
        "Powerhouse on P11_0 (plain): 2 mixers",
        "📈 Ratings: Ann 30 (+30), Di −33 (−33).",
    ],
)
def test_the_check_passes(text: str) -> None:
    assert check_text(text, "test") == []


@pytest.mark.parametrize(
    "message",
    [
        {"content": "x" * 1999 + "y"},  # text[:2000]
        {"content": "**Log**\n" + "a line of the log\n" * 110 + "…\nthe last line"},
        {"content": "Help: " + "word " * 300 + "10. S…"},
    ],
)
def test_the_check_finds_a_cut_text(message: dict[str, Any]) -> None:
    """A text cut to fit (at a limit, with its middle left out, or mid-word) is a finding."""
    assert "cut text" in {f.kind for f in check_message(message, "test")}


def test_a_text_split_into_whole_messages_passes() -> None:
    whole = "\n".join(f"• line {i} of a long message, with words" for i in range(120))
    parts = split_message(whole)
    assert len(parts) > 1
    for part in parts:
        assert check_message({"content": part}, "test") == []
