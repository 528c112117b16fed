"""The core knows no expansion's table: `Content`, the content package and the row parser name
none, and no core module reaches one (expansions declare their tables in their rule sets)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from bot.rules.catalogue import CATALOGUE
from bot.rules.content import PRIVATE_CONTRACTS, Content
from bot.rules.content import shared as shared_module
from tests.rules.toy import TOY_CATALOGUE

ROOT = Path(__file__).resolve().parent.parent.parent
CONTENT_PACKAGE = Path(shared_module.__file__).parent

# Every expansion the tests know (the product's and the toy), and the tables their rules declare.
EXPANSIONS = tuple(TOY_CATALOGUE.expansions)
TABLES = tuple(TOY_CATALOGUE.tables())


def _core_files() -> list[Path]:
    """The product's modules outside every expansion's own package or drawing module."""
    found = []
    for package in ("bot", "renderer"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            owned = any(
                parts[i] == "expansions" and Path(parts[i + 1]).stem in EXPANSIONS
                for i in range(len(parts) - 1)
            )
            if not owned:
                found.append(path)
    return found


def test_every_expansion_table_is_declared_by_a_rule_set() -> None:
    assert {"external_work", "private_building", "building_space", "plaque"} <= {
        t.name for t in TABLES
    }
    assert PRIVATE_CONTRACTS not in TABLES  # the base game's own table, joining its contracts


def test_content_has_no_field_of_an_expansion() -> None:
    fields = {f.name for f in dataclasses.fields(Content)}
    named = {t.name for t in TABLES} | {f"{t.name}s" for t in TABLES} | {t.piece for t in TABLES}
    assert not fields & named
    assert not [f for f in fields for name in EXPANSIONS if name in f]


def test_the_content_package_and_its_row_parser_name_no_expansion() -> None:
    words = [*EXPANSIONS, *(t.name for t in TABLES)]
    found = [
        (path.name, word)
        for path in sorted(CONTENT_PACKAGE.glob("*.py"))
        for word in words
        if re.search(rf"\b{re.escape(word)}\b", path.read_text(encoding="utf-8"), re.IGNORECASE)
    ]
    assert found == []


def test_no_core_module_reaches_an_expansion_table() -> None:
    """No core module imports an expansion's package (where the tables' handles live) or reads
    a table by its data name (`[[external_work]]`) or as a content field (`.external_works`)."""
    found = []
    for path in _core_files():
        text = path.read_text(encoding="utf-8")
        if re.search(r"(from|import) bot\.rules\.expansions\.\w", text):
            found.append((str(path.relative_to(ROOT)), "imports an expansion"))
        for table in TABLES:
            if f"[[{table.name}]]" in text or re.search(rf"\.{table.name}s\b", text):
                found.append((str(path.relative_to(ROOT)), table.name))
    assert found == []


def test_the_product_content_has_each_declared_table() -> None:
    content = CATALOGUE.content()
    assert set(content.tables) == {t.name for t in CATALOGUE.tables()}
    assert all(content.tables[t.name] for t in CATALOGUE.tables())
