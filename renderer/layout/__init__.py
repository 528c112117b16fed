"""Layout data: pixel geometry of every view, keyed by the engine's ids (schema in README.md)."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any

Rect = tuple[int, int, int, int]
Point = tuple[int, int]
Path = tuple[Point, ...]

AREA_NAMES = {"mountain": "MOUNTAINS", "hill": "HILLS", "plain": "PLAINS"}


@dataclass(frozen=True, slots=True)
class SpaceLayout:
    """Where one selectable map space is drawn; conduits also carry their pipe's path."""

    id: str
    kind: str  # "dam", "conduit", "powerhouse", "headstream" or "exit"
    rect: Rect
    path: Path = ()


@dataclass(frozen=True, slots=True)
class BasinLayout:
    """Where one basin is drawn: its panel, number badge, band and inner river line."""

    id: int
    band: str
    rect: Rect
    badge: Rect
    river: Path


@dataclass(frozen=True, slots=True)
class RiverLayout:
    """A river from a headstream or basin to a basin or exit, drawn along ``path``."""

    source: str | int
    target: str | int
    path: Path


@dataclass(frozen=True, slots=True)
class FeatureLayout:
    """An expansion map feature (construction site, settlement, irrigation zone or space, ...)."""

    id: str
    kind: str
    rect: Rect


@dataclass(frozen=True, slots=True)
class MapLayout:
    """The whole map view's geometry."""

    map_id: str
    width: int
    height: int
    title_at: Point
    bands: Mapping[str, tuple[Rect, Point]]  # area -> (rect, label position)
    basins: Mapping[int, BasinLayout]
    spaces: Mapping[str, SpaceLayout]
    rivers: tuple[RiverLayout, ...]
    course: Path = ()  # a great river's course, drawn as a broad band (a map layout's `course`)
    bridges: Mapping[int, Rect] = field(default_factory=dict)  # basin -> its Bridge tag's slot
    title: str = ""  # the view's heading ("Map" by default)


def _rect(v: Any) -> Rect:
    x0, y0, x1, y1 = (int(n) for n in v)
    return (x0, y0, x1, y1)


def _point(v: Any) -> Point:
    x, y = (int(n) for n in v)
    return (x, y)


def _path(v: Any) -> Path:
    return tuple(_point(p) for p in v)


def read_toml(name: str) -> dict[str, Any]:
    """Parse the packaged layout file ``name`` (e.g. "base.toml")."""
    return tomllib.loads(resources.files(__name__).joinpath(name).read_text("utf-8"))


def parse_map_layout(data: Mapping[str, Any]) -> MapLayout:
    """Build a MapLayout from parsed layout TOML."""
    view = data["view"]
    bands = {k: (_rect(v["rect"]), _point(v["label_at"])) for k, v in data["band"].items()}
    basins = {
        int(k): BasinLayout(
            int(k), v["band"], _rect(v["rect"]), _rect(v["badge"]), _path(v["river"])
        )
        for k, v in data["basin"].items()
    }
    spaces = {
        k: SpaceLayout(k, v["kind"], _rect(v["rect"]), _path(v.get("path", ())))
        for k, v in data["space"].items()
    }
    rivers = tuple(RiverLayout(r["from"], r["to"], _path(r["path"])) for r in data["river"])
    return MapLayout(
        map_id=view["map"],
        width=int(view["width"]),
        height=int(view["height"]),
        title_at=_point(view["title_at"]),
        title=str(view.get("title", view["map"])),
        bands=MappingProxyType(bands),
        basins=MappingProxyType(basins),
        spaces=MappingProxyType(spaces),
        rivers=rivers,
        course=_path(data.get("course", {}).get("path", ())),
        bridges=MappingProxyType(
            {int(k): _rect(v["rect"]) for k, v in data.get("bridge", {}).items()}
        ),
    )


def _packaged_layouts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(map ids, board layout names) of the packaged layout files: a map layout's [view]
    names its map; every other layout file is a board view's (an expansion's extension too)."""
    maps, boards = [], []
    for entry in sorted(resources.files(__name__).iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        view = tomllib.loads(entry.read_text("utf-8")).get("view", {})
        if "map" in view:
            maps.append(str(view["map"]))
        else:
            boards.append(entry.name.removesuffix(".toml"))
    return tuple(maps), tuple(boards)


MAP_LAYOUTS, BOARD_LAYOUTS = _packaged_layouts()


@functools.cache
def map_layout(map_id: str) -> MapLayout:
    """Return the packaged layout of the map ``map_id`` (cached)."""
    if map_id not in MAP_LAYOUTS:
        raise ValueError(f"no layout for map {map_id!r}; expected one of {list(MAP_LAYOUTS)}")
    return parse_map_layout(read_toml(f"{map_id}.toml"))


@dataclass(frozen=True, slots=True)
class FeatureView:
    """An expansion's features view: its size, the panel with its title and each feature."""

    name: str
    width: int
    height: int
    panel: Rect
    title: str
    features: Mapping[str, FeatureLayout]


@functools.cache
def feature_view(name: str) -> FeatureView:
    """Return the packaged layout of a features view (``<map id>_features``)."""
    data = read_toml(f"{name}.toml")
    panel = data["features"]
    return FeatureView(
        name=name,
        width=int(data["view"]["width"]),
        height=int(data["view"]["height"]),
        panel=_rect(panel["rect"]),
        title=str(panel.get("title", "")),
        features=MappingProxyType(
            {k: FeatureLayout(k, v["kind"], _rect(v["rect"])) for k, v in data["feature"].items()}
        ),
    )


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """A board view's geometry (shared boards, company board): named rects, rect lists, points.

    ``spaces`` places the selectable spaces of the board by engine id (management spaces);
    ``headings`` places section headings by section id, ``rows`` a row's name by row id.
    """

    name: str
    width: int
    height: int
    rects: Mapping[str, Rect]
    lists: Mapping[str, tuple[Rect, ...]]
    points: Mapping[str, Point]
    spaces: Mapping[str, Rect]
    headings: Mapping[str, Point]
    rows: Mapping[str, Point] = field(default_factory=dict)  # where a row's name goes


def parse_board_layout(name: str, data: Mapping[str, Any]) -> BoardLayout:
    """Build a BoardLayout from parsed layout TOML."""
    return BoardLayout(
        name=name,
        width=int(data["view"]["width"]),
        height=int(data["view"]["height"]),
        rects=MappingProxyType({k: _rect(v) for k, v in data.get("rect", {}).items()}),
        lists=MappingProxyType(
            {k: tuple(_rect(r) for r in v) for k, v in data.get("rects", {}).items()}
        ),
        points=MappingProxyType({k: _point(v) for k, v in data.get("point", {}).items()}),
        spaces=MappingProxyType({k: _rect(v) for k, v in data.get("space", {}).items()}),
        headings=MappingProxyType({k: _point(v) for k, v in data.get("heading", {}).items()}),
        rows=MappingProxyType({k: _point(v) for k, v in data.get("row", {}).items()}),
    )


@functools.cache
def board_layout(name: str) -> BoardLayout:
    """Return the packaged layout of the board view ``name`` ("shared" or "company")."""
    if name not in BOARD_LAYOUTS:
        raise ValueError(f"no board layout {name!r}; expected one of {list(BOARD_LAYOUTS)}")
    return parse_board_layout(name, read_toml(f"{name}.toml"))
