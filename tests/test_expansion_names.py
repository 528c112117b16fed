"""Outer layers ask, never name: outside the expansions' own packages, no product file names one.

An expansion's own packages are its rules package (`bot/rules/expansions/<name>/`) and its
drawing module (`renderer/expansions/<name>.py`); an expansion built on another (declared with
`after`) may name it in its own packages. Data files (`*.toml`), tests and docs may name any.
Everything else learns the expansions from the catalogue (`bot.rules.catalogue`).
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.rules import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("bot", "renderer")


def _own_files(name: str) -> set[Path]:
    """The files of an expansion's own packages."""
    info = CATALOGUE.info(name)
    package = ROOT.joinpath(*info.package.split("."))
    drawing = ROOT.joinpath(*info.drawing_module.split("."))
    own = set(package.rglob("*"))
    own |= {drawing.with_suffix(".py")} | set(drawing.rglob("*"))
    return own


def _code_files() -> list[Path]:
    return [
        path
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*"))
        if path.is_file()
        and path.suffix not in (".toml", ".md", ".ttf", ".otf", ".txt", ".png", ".pyc")
        and "__pycache__" not in path.parts
    ]


def offenders(names: list[str]) -> dict[str, list[str]]:
    """Product files outside the expansions' packages that name one: file -> names found."""
    own = set().union(*(_own_files(name) for name in names))
    pattern = re.compile("|".join(re.escape(name) for name in names), re.IGNORECASE)
    found: dict[str, list[str]] = {}
    for path in _code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        hits = {m.group(0).lower() for m in pattern.finditer(text)}
        hits = set() if path in own else hits
        if hits:
            found[str(path.relative_to(ROOT))] = sorted(hits)
    return found


def test_the_check_knows_every_expansion() -> None:
    assert set(CATALOGUE.expansions) >= {"leeghwater", "colorado", "nile"}


def test_no_product_file_names_an_expansion_outside_its_packages() -> None:
    found = offenders(list(CATALOGUE.expansions))
    assert not found, "files naming an expansion outside its packages:\n" + "\n".join(
        f"{path}: {', '.join(names)}" for path, names in sorted(found.items())
    )
