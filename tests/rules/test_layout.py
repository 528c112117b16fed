"""The rules tests mirror bot/rules: a rule's tests are found from the module's name.

Every test file under tests/rules sits in the folder that mirrors its package of bot/rules
(tests/rules/expansions/nile for bot/rules/expansions/nile) and is named after one of that
package's modules: `test_<module>.py`, or `test_<module>_<aspect>.py` for one aspect of a
large module. `test_random_games*.py` plays whole games with that folder's rules.
"""

from __future__ import annotations

from pathlib import Path

RULES = Path(__file__).parents[2] / "bot" / "rules"
TESTS = Path(__file__).parent
#: Folders of tests/rules that are not test folders: the toy expansion (a package under test).
NOT_MIRRORED = {"toy"}
WHOLE_GAMES = "random_games"


def _modules(package: Path) -> set[str]:
    """The module names of a package of bot/rules (without `__init__`), its subpackages
    among them (bot/rules/content is tested by tests/rules/test_content*.py)."""
    files = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    return files | {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}


def _test_folders() -> list[Path]:
    return [
        folder
        for folder in [TESTS, *TESTS.rglob("*")]
        if folder.is_dir()
        and not NOT_MIRRORED & set(folder.relative_to(TESTS).parts)
        and folder.name != "__pycache__"
        and any(folder.glob("test_*.py"))
    ]


def test_every_test_folder_mirrors_a_package_of_bot_rules() -> None:
    for folder in _test_folders():
        package = RULES / folder.relative_to(TESTS)
        assert (package / "__init__.py").exists(), f"{folder} mirrors no package of bot/rules"


def test_every_test_file_is_named_after_a_module_of_its_package() -> None:
    misnamed = []
    for folder in _test_folders():
        modules = _modules(RULES / folder.relative_to(TESTS))
        for test in folder.glob("test_*.py"):
            stem = test.stem.removeprefix("test_")
            if stem.startswith(WHOLE_GAMES) or (folder == TESTS and stem == "layout"):
                continue
            if not any(stem == m or stem.startswith(f"{m}_") for m in modules):
                misnamed.append(str(test.relative_to(TESTS)))
    assert not misnamed, f"test files named after no module of their package: {misnamed}"


def test_every_expansion_package_has_its_test_folder() -> None:
    expansions = RULES / "expansions"
    for package in expansions.iterdir():
        if (package / "__init__.py").exists():
            folder = TESTS / "expansions" / package.name
            assert any(folder.glob("test_*.py")), f"no tests in {folder} for {package}"
