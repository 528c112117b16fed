"""The Leeghwater Project's shared tables: External Works, Private Buildings and their spaces.

Declared in the expansion's rule set (`RULES.table`), so the catalogue's content reads them
with the one row parser (`bot.rules.content.shared.join_rows`) from every data file: other
expansions add works and buildings to these piles with rows marked with their own set
(Colorado's heliport, the Nile's Pumping Station). Readers get the rows through the tables:
`WORKS.of(game.content)["A1"]`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from bot.rules.content import DataFile, Reward, Table

#: The action spaces beside each Private Building tile (left, right, right, right).
BUILDING_ACTION_SPACES = 4


@dataclass(frozen=True, slots=True)
class ExternalWork:
    """An External Work tile."""

    id: str
    pile: str
    cost: Mapping[str, int]
    reward: Reward
    set: str
    impl_id: int = 0


@dataclass(frozen=True, slots=True)
class BuildingActionSpace:
    """One action space beside a Private Building tile."""

    engineers: int
    extra_credits: int


@dataclass(frozen=True, slots=True)
class PrivateBuilding:
    """A Private Building tile."""

    id: str
    name: str
    cost: Mapping[str, int]
    vp: int
    action_effect: Reward
    action_spaces: tuple[BuildingActionSpace, ...]
    set: str
    action_text: str = ""


@dataclass(frozen=True, slots=True)
class BuildingSpace:
    """A space beside each Private Building tile where a Building piece goes."""

    index: int
    red_outline: bool
    extra_credits: int
    min_players: int


@dataclass(frozen=True, slots=True)
class ExternalWorkSpace:
    """An External Work action space (one per face-up tile)."""

    id: str
    engineers: int
    tile_slot: int
    impl_uid: str = ""


def _machinery(f: DataFile, row: Mapping[str, Any], where: str, key: str) -> Mapping[str, int]:
    """A machinery cost table: excavators and/or mixers."""
    cost = f.get(row, where, key, dict)
    for k, v in cost.items():
        if (
            k not in ("excavators", "mixers")
            or not isinstance(v, int)
            or isinstance(v, bool)
            or v < 0
        ):
            raise f.fail(
                where, f"{key} may only give non-negative excavators and mixers, not {k} = {v!r}"
            )
    return MappingProxyType(dict(cost))


def _work(f: DataFile, r: Mapping[str, Any], w: str, own_set: str) -> ExternalWork:
    return ExternalWork(
        id=f.get(r, w, "id", str),
        pile=f.one_of(r, w, "pile", ("A", "B", "C")),
        cost=_machinery(f, r, w, "cost"),
        reward=f.reward(r, w, "reward"),
        set=f.one_of(r, w, "set", f.sets, own_set),
        impl_id=f.get(r, w, "impl_id", int, 0),
    )


def _building(f: DataFile, r: Mapping[str, Any], w: str, own_set: str) -> PrivateBuilding:
    spaces = tuple(
        BuildingActionSpace(
            engineers=f.int_in(s, w, "engineers", 1, 5),
            extra_credits=f.int_in(s, w, "extra_credits", 0, 10),
        )
        for s in f.get(r, w, "action_spaces", list)
    )
    if len(spaces) != BUILDING_ACTION_SPACES:
        raise f.fail(w, "action_spaces must list 4 spaces (left, right, right, right)")
    return PrivateBuilding(
        id=f.get(r, w, "id", str),
        name=f.get(r, w, "name", str),
        cost=_machinery(f, r, w, "cost"),
        vp=f.int_in(r, w, "vp", 0, 20),
        action_effect=f.reward(r, w, "action_effect"),
        action_spaces=spaces,
        set=f.one_of(r, w, "set", f.sets, own_set),
        action_text=f.get(r, w, "action_text", str),
    )


def _building_space(f: DataFile, s: Mapping[str, Any], w: str, own_set: str) -> BuildingSpace:
    return BuildingSpace(
        index=f.int_in(s, w, "index", 0, 3),
        red_outline=f.get(s, w, "red_outline", bool),
        extra_credits=f.int_in(s, w, "extra_credits", 0, 10),
        min_players=f.int_in(s, w, "min_players", 1, 5),
    )


def _work_space(f: DataFile, s: Mapping[str, Any], w: str, own_set: str) -> ExternalWorkSpace:
    return ExternalWorkSpace(
        id=f.get(s, w, "id", str),
        engineers=f.int_in(s, w, "engineers", 1, 5),
        tile_slot=f.int_in(s, w, "tile_slot", 1, 3),
        impl_uid=f.get(s, w, "impl_uid", str, ""),
    )


#: The External Works of the three piles, by id ("A1").
WORKS: Table[str, ExternalWork] = Table("external_work", "id", "External Work", _work)
#: The Private Buildings, by id ("cofferdam"); event sources name them (`{building}`).
BUILDINGS: Table[str, PrivateBuilding] = Table(
    "private_building", "id", "Private Building", _building, piece="building"
)
#: The four building spaces beside each Private Building tile, by index (0..3, board order).
BUILDING_SPACES: Table[int, BuildingSpace] = Table(
    "building_space", "index", "building space", _building_space
)
#: The three External Work spaces, by id ("external_work_1").
WORK_SPACES: Table[str, ExternalWorkSpace] = Table(
    "external_work_space", "id", "External Work space", _work_space
)
TABLES = (WORKS, BUILDINGS, BUILDING_SPACES, WORK_SPACES)
