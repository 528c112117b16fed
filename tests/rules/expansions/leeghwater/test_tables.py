"""The Leeghwater Project's shared tables: declared by its rule set, read by the one row parser."""

from __future__ import annotations

import pytest

from bot.rules.catalogue import CATALOGUE
from bot.rules.content import ContentError, load_content, packaged_files
from bot.rules.expansions.leeghwater import RULES
from bot.rules.expansions.leeghwater.tables import (
    BUILDING_SPACES,
    BUILDINGS,
    TABLES,
    WORK_SPACES,
    WORKS,
)


def test_its_rule_set_declares_the_four_tables() -> None:
    assert tuple(RULES.tables.values()) == TABLES
    assert set(TABLES) <= set(CATALOGUE.tables())


def test_the_tables_hold_every_expansions_rows() -> None:
    c = CATALOGUE.content()
    assert sum(1 for w in WORKS.of(c).values() if w.set == "leeghwater") == 15
    assert {w.id for w in WORKS.of(c).values() if w.set == "colorado"} == {"A6", "B6", "C6"}
    assert {w.id for w in WORKS.of(c).values() if w.set == "nile"} == {"A7", "B7", "C7"}
    assert sorted({w.pile for w in WORKS.of(c).values()}) == ["A", "B", "C"]
    assert WORKS.of(c)["B1"].reward == {"credits": 5, "energy_produced": 6}
    assert sum(1 for b in BUILDINGS.of(c).values() if b.set == "leeghwater") == 10
    assert BUILDINGS.of(c)["heliport"].set == "colorado"
    assert BUILDINGS.of(c)["financial_division"].action_spaces[1].engineers == 2
    assert list(BUILDING_SPACES.of(c)) == [0, 1, 2, 3]
    assert [s.min_players for s in BUILDING_SPACES.of(c).values()] == [2, 4, 2, 2]
    assert [s.tile_slot for s in WORK_SPACES.of(c).values()] == [1, 2, 3]
    # Event sources name its buildings (`{building}`) through the table's piece kind.
    assert c.named("building") is BUILDINGS.of(c)


def test_content_without_its_rules_has_no_such_table() -> None:
    """The base loader knows none of them: only the rows stay in the expansion's own data."""
    plain = load_content()
    assert plain.tables == {} and plain.named("building") is None
    assert len(plain.of("leeghwater")["external_work"]) == 15
    with pytest.raises(KeyError, match="no table 'external_work'"):
        WORKS.of(plain)


@pytest.mark.parametrize(
    ("name", "old", "new", "words"),
    [
        ("leeghwater.toml", "cost = { excavators = 1 }", "cost = { excavators = -1 }", ["A1"]),
        ("colorado.toml", 'id = "A6"', 'id = "A1"', ["External Work A1 already exists"]),
        ("colorado.toml", 'pile = "A"', 'pile = "D"', ["[[external_work]] A6", "pile"]),
        ("leeghwater.toml", "index = 3", "index = 2", ["building space 2 already exists"]),
        ("leeghwater.toml", "tile_slot = 3", "tile_slot = 4", ["external_work_3", "tile_slot"]),
    ],
)
def test_a_broken_row_fails_at_load_naming_file_and_row(
    name: str, old: str, new: str, words: list[str]
) -> None:
    files = packaged_files()
    assert old in files[name]
    files[name] = files[name].replace(old, new, 1)
    with pytest.raises(ContentError, match=rf"^{name}: ") as info:
        load_content(files, CATALOGUE.tables())
    for word in words:
        assert word in str(info.value)
