"""What each expansion declares about itself: its package's `expansion.toml`, read as data.

The catalogue (`bot.rules.catalogue`) and the content loader (`bot.rules.content`) both read
the declarations; neither imports an expansion's code to do so. See docs/expansions.md for the
keys.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType

ROOT = "bot.rules.expansions"
DECLARATION = "expansion.toml"
SETUPS = ("intro", "full")


class CatalogueError(ValueError):
    """An expansion's declaration is not one the catalogue can use."""


@dataclass(frozen=True, slots=True)
class ExpansionInfo:
    """What an expansion declares about itself (its `expansion.toml`).

    `data` and `maps` name its data files (looked up in its package, then in
    `bot/rules/data/`); `maps` by the map id each file holds. `rewards` are the reward and
    effect keys its data files may use, each with its wording (`text`, `short`); `score` names
    the score sheet's row of its VP events' sources (a key ending in `*` matches sources that
    start with it, before the others); `sources` how players read its events' sources
    (`bot.rules.wording`).
    """

    name: str
    display_name: str
    package: str
    summary: str = ""
    map: str = ""
    setups: tuple[str, ...] = SETUPS
    content_sets: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    data: tuple[str, ...] = ()
    maps: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    rewards: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    score: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    help: str = ""
    drawing: str = ""

    @property
    def drawing_module(self) -> str:
        """The module that draws this expansion's pieces and boards."""
        return self.drawing or f"renderer.expansions.{self.name}"

    @property
    def files(self) -> tuple[str, ...]:
        """Every data file it brings: its maps', then its rules data."""
        return (*self.maps.values(), *self.data)


_STRINGS = ("name", "display_name", "summary", "map", "help", "drawing")
_LISTS = ("setups", "content_sets", "after", "excludes", "data")
_TABLES = ("maps", "rewards", "score", "sources")


def read_declaration(package: str) -> ExpansionInfo:
    """Read a package's `expansion.toml` (without importing the package's code)."""
    where = f"{package}/{DECLARATION}"
    try:
        text = resources.files(package).joinpath(DECLARATION).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError) as error:
        raise CatalogueError(f"{package} has no {DECLARATION}") from error
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(f"{where} is not valid TOML: {error}") from error
    for key in ("name", "display_name"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise CatalogueError(f"{where} needs a {key}")
    unknown = set(raw) - {*_STRINGS, *_LISTS, *_TABLES}
    if unknown:
        raise CatalogueError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")
    for key in _STRINGS:
        if not isinstance(raw.get(key, ""), str):
            raise CatalogueError(f"{where}: {key} must be a string")
    for key in _LISTS:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise CatalogueError(f"{where}: {key} must list strings")
    for key in _TABLES:
        if not isinstance(raw.get(key, {}), dict):
            raise CatalogueError(f"{where}: {key} must be a table")
    setups = tuple(raw.get("setups", SETUPS))
    if not setups or set(setups) - set(SETUPS):
        raise CatalogueError(f"{where}: setups must be among {', '.join(SETUPS)}")
    rewards = {}
    for key, wording in raw.get("rewards", {}).items():
        if not isinstance(wording, dict) or set(wording) - {"text", "short"}:
            raise CatalogueError(f"{where}: [rewards] {key} gives only text and short")
        rewards[key] = MappingProxyType({k: str(v) for k, v in wording.items()})
    return ExpansionInfo(
        name=raw["name"],
        display_name=raw["display_name"],
        package=package,
        summary=raw.get("summary", ""),
        map=raw.get("map", ""),
        setups=setups,
        content_sets=tuple(raw.get("content_sets", ())),
        after=tuple(raw.get("after", ())),
        excludes=tuple(raw.get("excludes", ())),
        data=tuple(raw.get("data", ())),
        maps=MappingProxyType({str(k): str(v) for k, v in raw.get("maps", {}).items()}),
        rewards=MappingProxyType(rewards),
        score=MappingProxyType({str(k): str(v) for k, v in raw.get("score", {}).items()}),
        sources=MappingProxyType({str(k): str(v) for k, v in raw.get("sources", {}).items()}),
        help=raw.get("help", ""),
        drawing=raw.get("drawing", ""),
    )


def discover(root: str = ROOT) -> list[str]:
    """The packages under `root` that declare an expansion, by name."""
    found = []
    for entry in sorted(resources.files(root).iterdir(), key=lambda e: e.name):
        if entry.is_dir() and entry.joinpath(DECLARATION).is_file():
            found.append(f"{root}.{entry.name}")
    return found


def read_file(package: str, name: str) -> str:
    """The text of a data file an expansion brings: in its package, else in bot/rules/data."""
    own = resources.files(package).joinpath(name)
    if own.is_file():
        return own.read_text(encoding="utf-8")
    return resources.files("bot.rules.data").joinpath(name).read_text(encoding="utf-8")


def hook_order(infos: Mapping[str, ExpansionInfo], names: list[str]) -> list[str]:
    """`names` (sorted) with every expansion after those it declares `after`."""
    out: list[str] = []
    pending = list(names)
    while pending:
        for name in pending:
            if not any(other in pending for other in infos[name].after):
                out.append(name)
                pending.remove(name)
                break
        else:
            raise CatalogueError(f"expansions wait for each other: {', '.join(pending)}")
    return out
