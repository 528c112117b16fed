"""Game content: the packaged data files, loaded once into frozen dataclasses and validated.

`load_content()` reads the base game's data files (bot/rules/data/*.toml, through
importlib.resources) and every expansion's (those its expansion.toml declares,
`bot.rules.declarations`), checks every id, cross-reference, reward key and number, and
returns one immutable `Content`. An expansion's rows of the shared tables (`SHARED_ROWS`:
contracts, External Works, Private Buildings, building and work spaces) go through the one
parser of those rows (`_join_shared_rows`) and join the game's tables marked with its set; the
rest of its data is its own (`Content.of(name)`). A broken file
raises `ContentError` naming the file, the table or id, and what is wrong, so a bad edit fails
at start-up and never in the middle of a game.

Ids are the reference data's ids unchanged (basins 1.., D1U/D1L, C1L/C1R, P5_0, HA.., EXIT_L,
companies, officers, contract ints, tile ids, management space ids, External Works A1..).
Expansion maps are largely reconstructed: their rows carry a `provenance` mapping (field -> "text" | "reconstructed") and `MapData.reconstructed` is True.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeVar

from bot.rules.declarations import (
    ExpansionInfo,
    discover,
    hook_order,
    read_declaration,
    read_file,
)

Area = Literal["mountain", "hill", "plain"]
AREAS: tuple[Area, ...] = ("mountain", "hill", "plain")
DamPosition = Literal["upper", "lower"]
DAM_POSITIONS: tuple[DamPosition, ...] = ("upper", "lower")
IncomeTrack = Literal["base", "elevation", "conduit"]
INCOME_TRACKS: tuple[IncomeTrack, ...] = ("base", "elevation", "conduit")
TileKind = Literal["basic", "advanced", "special"]
TILE_KINDS: tuple[TileKind, ...] = ("basic", "advanced", "special")
ContractKind = Literal["starting", "national", "green", "yellow", "red"]

# An immutable reward/effect table: key -> int | bool | str | tuple (see `Content.rewards`).
Reward = MappingProxyType  # MappingProxyType[str, Any]

# The content sets and maps of the base game; each expansion adds its own (its expansion.toml).
BASE_SETS = ("base", "five_player", "other")
BASE_MAP_FILES = {"base": "base_map.toml", "five_player": "five_player_map.toml"}
CONTRACT_KINDS: tuple[ContractKind, ...] = ("starting", "national", "green", "yellow", "red")
OBJECTIVE_VP_BY_PLACE = (15, 10, 5)
# Tables of an expansion's data file that join the game's shared tables (marked with their set).
SHARED_ROWS = (
    "private_contract",
    "external_work",
    "private_building",
    "building_space",
    "external_work_space",
)

#: A member of a fixed set of strings (`_Rows.one_of`).
Choice = TypeVar("Choice", bound=str)

TILE_BUILDS = ("base", "elevation", "conduit", "powerhouse", "building", "any", "copy", "nothing")
EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[Any, Any]:
    """The shared empty mapping (a mappingproxy cannot be a dataclass default)."""
    return EMPTY


class ContentError(ValueError):
    """A data file is missing, malformed or inconsistent."""


# ---------------------------------------------------------------------------------------------
# Map model
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DamSpace:
    """A dam building space; upper spaces catch water first."""

    id: str
    basin: int
    position: DamPosition
    red_outline: bool
    extra_credits_for_base: int
    base_cost_excavators: int
    elevation_cost_mixers: int
    neutral_dam_candidate: bool
    area: Area
    provenance: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class ConduitSpace:
    """A conduit space: carries water from either dam of from_basin to powerhouses of to_basin."""

    id: str
    side: str
    from_basin: int
    to_basin: int
    production: int
    cost_excavators: int
    connects_powerhouse_spaces: tuple[str, ...]
    area: Area
    provenance: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class PowerhouseSpace:
    """A powerhouse space; water entering its basin passes it first."""

    id: str
    basin: int
    area: Area
    red_outline: bool
    extra_credits: int
    fed_by_conduits: tuple[str, ...]
    provenance: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Basin:
    """A basin: powerhouse spaces, then the upper and lower dam spaces, then river_to."""

    id: int
    area: Area
    dam_spaces: tuple[str, ...]
    conduit_spaces: tuple[str, ...]
    powerhouse_spaces: tuple[str, ...]
    fed_by_headstreams: tuple[str, ...]
    fed_by_basins: tuple[int, ...]
    river_to: int | str
    conduits_ending_here: tuple[str, ...] = ()
    provenance: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class NeutralDamArea:
    """Where setup places the neutral dam of one area, and its level."""

    area: Area
    dam_level: int
    count: int
    candidate_dam_spaces: tuple[str, ...]
    provenance: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class MapData:
    """One map: basins, spaces, headstreams and the river network."""

    id: str
    set: str
    reconstructed: bool
    headstreams: tuple[str, ...]
    headstream_feeds: Mapping[str, int]
    exits: tuple[str, ...]
    basins: Mapping[int, Basin]
    dam_spaces: Mapping[str, DamSpace]
    conduit_spaces: Mapping[str, ConduitSpace]
    powerhouse_spaces: Mapping[str, PowerhouseSpace]
    neutral_dam_areas: tuple[NeutralDamArea, ...]
    features: Mapping[str, tuple[Mapping[str, Any], ...]]
    neutral_dam_drops: int = 1
    provenance: Mapping[str, str] = field(default_factory=_empty)

    def space(self, space_id: str) -> DamSpace | ConduitSpace | PowerhouseSpace:
        """The dam, conduit or powerhouse space with this id."""
        for table in (self.dam_spaces, self.conduit_spaces, self.powerhouse_spaces):
            if space_id in table:
                return table[space_id]
        raise KeyError(f"no space {space_id!r} on map {self.id!r}")

    def area_of(self, space_id: str) -> Area:
        """The area of a dam, conduit (its source basin) or powerhouse space."""
        return self.space(space_id).area

    def basin_of(self, space_id: str) -> int:
        """The basin of a dam or powerhouse space, or the source basin of a conduit."""
        sp = self.space(space_id)
        return sp.from_basin if isinstance(sp, ConduitSpace) else sp.basin

    def downstream(self, basin_id: int) -> tuple[int, ...]:
        """The basins a drop enters after leaving basin_id, in order, until it reaches an exit."""
        out: list[int] = []
        nxt = self.basins[basin_id].river_to
        while isinstance(nxt, int):
            out.append(nxt)
            nxt = self.basins[nxt].river_to
        return tuple(out)

    def exit_of(self, basin_id: int) -> str:
        """The exit where water leaving basin_id ends up."""
        nxt = self.basins[basin_id].river_to
        while isinstance(nxt, int):
            nxt = self.basins[nxt].river_to
        return nxt

    def path_from_headstream(self, hs_id: str) -> tuple[int, ...]:
        """The basins a drop from this headstream enters, in order."""
        first = self.headstream_feeds[hs_id]
        return (first, *self.downstream(first))

    def dams_of(self, basin_id: int) -> tuple[DamSpace, ...]:
        """The dam spaces of a basin in water order (upper first)."""
        return tuple(self.dam_spaces[d] for d in self.basins[basin_id].dam_spaces)


# ---------------------------------------------------------------------------------------------
# Boards, pieces and tiles
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeadstreamTile:
    """A headstream tile: drops added in rounds 1-4."""

    id: int
    drops_per_round: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class IncomeEntry:
    """An income space, uncovered by the after_piece-th piece of a track."""

    track: IncomeTrack
    after_piece: int
    reward: Reward


@dataclass(frozen=True, slots=True)
class Company:
    """A company board."""

    id: str
    name: str
    set: str
    color: str
    color_hex: str
    ability_key: str
    ability_text: str
    income: tuple[IncomeEntry, ...]
    impl_id: int = 0


@dataclass(frozen=True, slots=True)
class ConstructionSpace:
    """One of the four construction action spaces of a company board."""

    ordinal: int
    engineers: int
    red_outline: bool
    extra_credits: int


@dataclass(frozen=True, slots=True)
class CommonBoard:
    """What every company board shares."""

    pieces: Mapping[str, int]
    starting_resources: Mapping[str, int]
    starting_vp: int
    powerhouse_bonus_after: Mapping[int, int]
    ability_after_powerhouses: int
    powerhouse_cost_mixers: tuple[int, ...]
    construction_spaces: tuple[ConstructionSpace, ...]
    income_after_piece: tuple[int, ...] = (2, 4, 5)


@dataclass(frozen=True, slots=True)
class Officer:
    """An Executive Officer."""

    id: str
    name: str
    set: str
    ability_text: str
    starting_resources: Mapping[str, int]
    personal_action_spaces: tuple[Mapping[str, Any], ...]
    special_tiles: tuple[str, ...]
    special_pieces: tuple[str, ...]
    contract_limit: int | None
    implemented: str = "always"
    copy_rules: tuple[Mapping[str, str], ...] = ()
    impl_id: int = 0


@dataclass(frozen=True, slots=True)
class TechTile:
    """A technology tile."""

    id: str
    kind: TileKind
    builds: str
    level: int | None
    set: str
    games: str | None
    engineer_free: bool
    effect_text: str
    officer: str | None = None
    counts_as_advanced: bool = False


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract: reach `energy` in one production to take `reward`."""

    id: int
    kind: ContractKind
    energy: int
    reward: Reward
    set: str


@dataclass(frozen=True, slots=True)
class BonusTile:
    """A round bonus tile: vp_each per counted thing."""

    id: str
    set: str
    vp_each: int
    counts_text: str
    in_introductory_game: bool


@dataclass(frozen=True, slots=True)
class ObjectiveTile:
    """An end-game objective tile."""

    id: str
    set: str
    counts_text: str


@dataclass(frozen=True, slots=True)
class ManagementSpace:
    """A management board or Patent Office action space."""

    id: str
    section: str
    row: str
    side: str
    engineers: int
    red_outline: bool
    extra_credits: int
    action_cost: int
    effect: Reward
    min_companies: int = 2
    exclusive: bool = True
    not_in_introductory_game: bool = False
    impl_uid: str = ""


@dataclass(frozen=True, slots=True)
class CreditThreshold:
    """An energy band of the scoring phase: credits and VP."""

    min_energy: int
    max_energy: int | None
    credits: int
    vp: int


@dataclass(frozen=True, slots=True)
class EnergyTrack:
    """Energy track scoring facts."""

    credit_thresholds: tuple[CreditThreshold, ...]
    bonus_min_energy: int
    bonus_section_min_energy: tuple[int, ...]
    malus_per_section: int
    first_vp: int
    second_vp: int
    tie_first_total_vp: int
    tie_second_vp_each: int
    flip_at: int
    award_min_energy: int = 1

    def credits_for(self, energy: int) -> tuple[int, int]:
        """(credits, vp) for ending the round at `energy` (past flip_at counts as flip_at)."""
        energy = min(max(energy, 0), self.flip_at)
        for band in self.credit_thresholds:
            if energy >= band.min_energy and (band.max_energy is None or energy <= band.max_energy):
                return band.credits, band.vp
        raise ValueError(f"no credit band for energy {energy}")


@dataclass(frozen=True, slots=True)
class Costs:
    """Construction costs and other numeric rules."""

    base_excavators_by_area: Mapping[str, int]
    elevation_mixers_by_area: Mapping[str, int]
    conduit_excavators_per_production: int
    powerhouse_mixers_by_ordinal: tuple[int, ...]
    red_outline_extra_credits: int
    max_elevations_per_base: int
    wheel_segments: int
    dam_capacity_by_level: tuple[int, ...]
    resources_per_vp: int
    rounds: int
    starting_vp: int
    minimum_production_energy: int = 1
    foreign_conduit_credits_per_drop: int = 1
    foreign_conduit_vp_per_drop: int = 1
    vp_per_drop_in_own_dams: int = 1


@dataclass(frozen=True, slots=True)
class ExternalWork:
    """An External Work tile (an expansion's, in the shared tables)."""

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
    """A Private Building tile (an expansion's, in the shared tables)."""

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


class IntroductoryMatchup(NamedTuple):
    """A fixed (company, officer, starting contract) set of the introductory game."""

    company: str
    officer: str
    starting_contract: int


@dataclass(frozen=True, slots=True)
class RewardWording:
    """How a reward key reads: `text` in sentences, `short` in a picture's box (`{}` is the
    value; "" when none is given)."""

    key: str
    text: str = ""
    short: str = ""

    def read(self, value: Any, *, short: bool = False) -> str:
        """The key with this value in words (its `text`, or its `short`): a list's items are
        joined with '/', a flag whose wording has no `{}` reads as the wording when true and
        as "" when false; a key without that wording reads 'key value'."""
        wording = self.short if short else self.text
        if not wording:
            return f"{self.key} {value}"
        if isinstance(value, bool) and "{}" not in wording:
            return wording if value else ""
        shown = "/".join(str(v) for v in value) if isinstance(value, list | tuple) else value
        return wording.format(shown)


@dataclass(frozen=True, slots=True)
class Content:
    """All game content, immutable."""

    maps: Mapping[str, MapData]
    companies: Mapping[str, Company]
    common: CommonBoard
    officers: Mapping[str, Officer]
    tiles: Mapping[str, TechTile]
    contracts: Mapping[int, Contract]
    bonus_tiles: Mapping[str, BonusTile]
    objective_tiles: Mapping[str, ObjectiveTile]
    management_spaces: tuple[ManagementSpace, ...]
    energy_track: EnergyTrack
    costs: Costs
    headstream_tiles: tuple[HeadstreamTile, ...]
    introductory_matchups: tuple[IntroductoryMatchup, ...]
    external_works: Mapping[str, ExternalWork]
    private_buildings: Mapping[str, PrivateBuilding]
    # Each expansion's own data (its data files' tables, checked and frozen), by its name.
    expansions: Mapping[str, Mapping[str, Any]]
    # Every reward and effect key the data may use, with its wording.
    rewards: Mapping[str, RewardWording]
    building_spaces: tuple[BuildingSpace, ...] = ()
    external_work_spaces: tuple[ExternalWorkSpace, ...] = ()
    objective_vp_by_place: tuple[int, ...] = OBJECTIVE_VP_BY_PLACE
    management_space_count_by_companies: Mapping[int, int] = field(default_factory=_empty)
    constants: Mapping[str, Any] = field(default_factory=_empty)
    contract_setup: Mapping[str, Any] = field(default_factory=_empty)

    def of(self, expansion: str) -> Mapping[str, Any]:
        """An expansion's own data tables (KeyError when its data was not loaded)."""
        return self.expansions[expansion]

    def contracts_of_kind(self, kind: str) -> tuple[Contract, ...]:
        """Contracts of one kind, by id."""
        return tuple(c for c in self.contracts.values() if c.kind == kind)

    def space(self, space_id: str) -> ManagementSpace:
        """The management board space with this id."""
        for sp in self.management_spaces:
            if sp.id == space_id:
                return sp
        raise KeyError(f"no management space {space_id!r}")

    def management_spaces_for(
        self, companies: int, *, introductory: bool = False
    ) -> tuple[ManagementSpace, ...]:
        """The spaces in play for a number of companies (board order)."""
        return tuple(
            s
            for s in self.management_spaces
            if s.min_companies <= companies and not (introductory and s.not_in_introductory_game)
        )


# ---------------------------------------------------------------------------------------------
# Reading helpers
# ---------------------------------------------------------------------------------------------


def freeze(value: Any) -> Any:
    """Deep-freeze parsed TOML: tables -> MappingProxyType, arrays -> tuple."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


class _File:
    """One parsed data file with error helpers that name it."""

    def __init__(
        self,
        name: str,
        data: dict[str, Any],
        sets: tuple[str, ...] = BASE_SETS,
        rewards: frozenset[str] = frozenset(),
    ) -> None:
        """Wrap parsed data; `sets` and `rewards` are the content sets and reward keys known."""
        self.name = name
        self.data = data
        self.sets = sets
        self.rewards = rewards

    def fail(self, where: str, message: str) -> ContentError:
        """An error naming this file and the table/id."""
        return ContentError(f"{self.name}: {where}: {message}")

    def table(self, key: str) -> dict[str, Any]:
        """A required table."""
        value = self.data.get(key)
        if not isinstance(value, dict):
            raise self.fail(f"[{key}]", "missing table")
        return value

    def rows(self, key: str) -> list[dict[str, Any]]:
        """A required array of tables."""
        value = self.data.get(key)
        if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
            raise self.fail(f"[[{key}]]", "missing array of tables")
        return value

    def get(
        self,
        row: Mapping[str, Any],
        where: str,
        key: str,
        kind: type | tuple[type, ...],
        default: Any = ...,
    ) -> Any:
        """A field of a row, type-checked (bool is never accepted as int)."""
        if key not in row:
            if default is not ...:
                return default
            raise self.fail(where, f"missing field {key!r}")
        value = row[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(where, f"field {key!r} must be {_kind_name(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(where, f"field {key!r} must be {_kind_name(kinds)}, not {value!r}")
        return value

    def int_in(
        self, row: Mapping[str, Any], where: str, key: str, lo: int, hi: int, default: Any = ...
    ) -> int:
        """An int field within [lo, hi]."""
        value = self.get(row, where, key, int, default)
        if value is not None and not lo <= value <= hi:
            raise self.fail(where, f"field {key!r} = {value} is outside {lo}..{hi}")
        return value

    def str_list(
        self, row: Mapping[str, Any], where: str, key: str, default: Any = ...
    ) -> tuple[str, ...]:
        """A list of strings."""
        value = self.get(row, where, key, list, default)
        if not all(isinstance(v, str) for v in value):
            raise self.fail(where, f"field {key!r} must list strings")
        return tuple(value)

    def int_list(
        self, row: Mapping[str, Any], where: str, key: str, default: Any = ...
    ) -> tuple[int, ...]:
        """A list of ints."""
        value = self.get(row, where, key, list, default)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(where, f"field {key!r} must list integers")
        return tuple(value)

    def one_of(
        self,
        row: Mapping[str, Any],
        where: str,
        key: str,
        allowed: Iterable[Choice],
        default: Any = ...,
    ) -> Choice:
        """A string field from a fixed set (typed as the set's members)."""
        allowed = tuple(allowed)
        value = self.get(row, where, key, str, default)
        if value not in allowed:
            raise self.fail(where, f"field {key!r} = {value!r} is not one of {', '.join(allowed)}")
        return value

    def one_of_or_none(
        self, row: Mapping[str, Any], where: str, key: str, allowed: Iterable[Choice]
    ) -> Choice | None:
        """An optional string field from a fixed set: None when the row leaves it out."""
        return self.one_of(row, where, key, allowed) if key in row else None

    def reward(self, row: Mapping[str, Any], where: str, key: str, default: Any = ...) -> Reward:
        """A reward/effect table whose keys are all known."""
        value = self.get(row, where, key, dict, default)
        check_reward(value, lambda msg: self.fail(where, f"{key}: {msg}"), self.rewards)
        return freeze(value)

    def unique(self, rows: Iterable[Mapping[str, Any]], table: str, key: str = "id") -> None:
        """Ids of a table are unique."""
        seen: set[Any] = set()
        for r in rows:
            if key not in r:
                raise self.fail(f"[[{table}]]", f"a row has no {key!r}: {dict(r)!r}")
            if r[key] in seen:
                raise self.fail(f"[[{table}]] {r[key]}", f"duplicate {key}")
            seen.add(r[key])


def _kind_name(kinds: tuple[type, ...]) -> str:
    """Human name of the accepted types."""
    names = {
        int: "an integer",
        str: "a string",
        bool: "true/false",
        list: "an array",
        dict: "a table",
    }
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def check_reward(
    table: Mapping[str, Any], fail: Callable[[str], ContentError], known: Iterable[str]
) -> None:
    """Every key is known (`Content.rewards`); values are int, bool, str or lists of them."""
    known = frozenset(known)
    for key, value in table.items():
        if key not in known:
            raise fail(f"unknown reward key {key!r}")
        if key == "one_of":
            if not isinstance(value, list | tuple) or not all(
                isinstance(v, dict | Mapping) for v in value
            ):
                raise fail("one_of must list reward tables")
            for option in value:
                check_reward(option, fail, known)
        elif isinstance(value, list | tuple):
            if not all(isinstance(v, int | str) for v in value):
                raise fail(f"{key} must list integers or strings")
            if key == "build_base_in_areas" and not all(v in AREAS for v in value):
                raise fail(f"{key} names an unknown area in {value!r}")
        elif not isinstance(value, int | str):
            raise fail(f"{key} = {value!r} is not an integer, true/false or a string")


def _provenance(f: _File, row: Mapping[str, Any], where: str) -> Mapping[str, str]:
    """The row's provenance marks, checked."""
    marks = f.get(row, where, "provenance", dict, {})
    for key, mark in marks.items():
        if mark not in ("text", "reconstructed"):
            raise f.fail(
                where, f"provenance of {key!r} must be 'text' or 'reconstructed', not {mark!r}"
            )
    return MappingProxyType(dict(marks))


# ---------------------------------------------------------------------------------------------
# Maps
# ---------------------------------------------------------------------------------------------

_BASIN_FIELDS = {
    "id",
    "area",
    "dam_spaces",
    "conduit_spaces",
    "powerhouse_spaces",
    "fed_by_headstreams",
    "fed_by_basins",
    "river_to",
    "conduits_ending_here",
    "provenance",
}
_HEADSTREAM_FIELDS = {"id", "feeds_basin", "provenance"}
_MAP_FIELDS = {
    "id",
    "set",
    "reconstructed",
    "headstreams",
    "exits",
    "water_order_in_basin",
    "provenance",
    "basin_count",
    "basins_with_dams",
    "dam_space_count",
    "conduit_space_count",
    "powerhouse_space_count",
}
_MAP_TABLES = {
    "map",
    "headstream",
    "basin",
    "dam_space",
    "conduit_space",
    "powerhouse_space",
    "neutral_dams",
}


def _load_map(f: _File, map_id: str) -> MapData:
    """Parse and check one map file."""
    m = f.table("map")
    if m.get("id") != map_id:
        raise f.fail("[map]", f"id must be {map_id!r}, not {m.get('id')!r}")
    where = f"[map] {map_id}"
    headstreams = f.str_list(m, where, "headstreams")
    exits = f.str_list(m, where, "exits")
    order = f.str_list(m, where, "water_order_in_basin")
    if order != ("powerhouse_spaces", "upper_dam", "lower_dam", "river_to"):
        raise f.fail(where, f"water_order_in_basin {order!r} is not the order the flow model uses")

    hs_rows = f.rows("headstream")
    f.unique(hs_rows, "headstream")
    feeds = {
        f.get(h, f"[[headstream]] {h['id']}", "id", str): f.get(
            h, f"[[headstream]] {h['id']}", "feeds_basin", int
        )
        for h in hs_rows
    }
    if tuple(feeds) != headstreams:
        raise f.fail(
            where,
            f"headstreams {headstreams!r} do not match the [[headstream]] rows {tuple(feeds)!r}",
        )

    basin_rows = f.rows("basin")
    f.unique(basin_rows, "basin")
    basins: dict[int, Basin] = {}
    for b in basin_rows:
        w = f"[[basin]] {b['id']}"
        river_to = f.get(b, w, "river_to", (int, str))
        basins[f.get(b, w, "id", int)] = Basin(
            id=b["id"],
            area=f.one_of(b, w, "area", AREAS),
            dam_spaces=f.str_list(b, w, "dam_spaces"),
            conduit_spaces=f.str_list(b, w, "conduit_spaces"),
            powerhouse_spaces=f.str_list(b, w, "powerhouse_spaces"),
            fed_by_headstreams=f.str_list(b, w, "fed_by_headstreams"),
            fed_by_basins=f.int_list(b, w, "fed_by_basins"),
            river_to=river_to,
            conduits_ending_here=f.str_list(b, w, "conduits_ending_here", []),
            provenance=_provenance(f, b, w),
        )

    dam_rows, conduit_rows, ph_rows = (
        f.rows("dam_space"),
        f.rows("conduit_space"),
        f.rows("powerhouse_space"),
    )
    f.unique([*dam_rows, *conduit_rows, *ph_rows], "dam_space/conduit_space/powerhouse_space")

    def basin_ref(w: str, row: Mapping[str, Any], key: str) -> int:
        value = f.get(row, w, key, int)
        if value not in basins:
            raise f.fail(w, f"{key} {value} is not a basin of this map")
        return value

    dams: dict[str, DamSpace] = {}
    for d in dam_rows:
        w = f"[[dam_space]] {d['id']}"
        basin = basin_ref(w, d, "basin")
        dams[d["id"]] = DamSpace(
            id=d["id"],
            basin=basin,
            position=f.one_of(d, w, "position", DAM_POSITIONS),
            red_outline=f.get(d, w, "red_outline", bool),
            extra_credits_for_base=f.int_in(d, w, "extra_credits_for_base", 0, 10),
            base_cost_excavators=f.int_in(d, w, "base_cost_excavators", 0, 20),
            elevation_cost_mixers=f.int_in(d, w, "elevation_cost_mixers", 0, 20),
            neutral_dam_candidate=f.get(d, w, "neutral_dam_candidate", bool),
            area=basins[basin].area,
            provenance=_provenance(f, d, w),
        )
        if dams[d["id"]].red_outline != (dams[d["id"]].extra_credits_for_base > 0):
            raise f.fail(w, "red_outline and extra_credits_for_base disagree")

    conduits: dict[str, ConduitSpace] = {}
    for c in conduit_rows:
        w = f"[[conduit_space]] {c['id']}"
        frm, to = basin_ref(w, c, "from_basin"), basin_ref(w, c, "to_basin")
        if "from_area" in c and c["from_area"] != basins[frm].area:
            raise f.fail(w, f"from_area {c['from_area']!r} is not the area of basin {frm}")
        conduits[c["id"]] = ConduitSpace(
            id=c["id"],
            side=f.one_of(c, w, "side", ("left", "right")),
            from_basin=frm,
            to_basin=to,
            production=f.int_in(c, w, "production", 1, 9),
            cost_excavators=f.int_in(c, w, "cost_excavators", 0, 30),
            connects_powerhouse_spaces=f.str_list(c, w, "connects_powerhouse_spaces"),
            area=basins[frm].area,
            provenance=_provenance(f, c, w),
        )

    powerhouses: dict[str, PowerhouseSpace] = {}
    for p in ph_rows:
        w = f"[[powerhouse_space]] {p['id']}"
        basin = basin_ref(w, p, "basin")
        if "area" in p and p["area"] != basins[basin].area:
            raise f.fail(w, f"area {p['area']!r} is not the area of basin {basin}")
        powerhouses[p["id"]] = PowerhouseSpace(
            id=p["id"],
            basin=basin,
            area=basins[basin].area,
            red_outline=f.get(p, w, "red_outline", bool),
            extra_credits=f.int_in(p, w, "extra_credits", 0, 10),
            fed_by_conduits=f.str_list(p, w, "fed_by_conduits"),
            provenance=_provenance(f, p, w),
        )
        if powerhouses[p["id"]].red_outline != (powerhouses[p["id"]].extra_credits > 0):
            raise f.fail(w, "red_outline and extra_credits disagree")

    _check_topology(f, map_id, headstreams, feeds, exits, basins, dams, conduits, powerhouses)

    nd = f.table("neutral_dams")
    areas = []
    for i, a in enumerate(f.get(nd, "[neutral_dams]", "area", list)):
        w = f"[[neutral_dams.area]] #{i + 1}"
        area = f.one_of(a, w, "area", AREAS)
        cands = f.str_list(a, w, "candidate_dam_spaces")
        for cand in cands:
            if cand not in dams or dams[cand].area != area:
                raise f.fail(w, f"candidate {cand!r} is not a dam space in the {area} area")
        areas.append(
            NeutralDamArea(
                area=area,
                dam_level=f.int_in(a, w, "dam_level", 1, 3),
                count=f.int_in(a, w, "count", 0, 5),
                candidate_dam_spaces=cands,
                provenance=_provenance(f, a, w),
            )
        )
    if sorted(a.area for a in areas) != sorted(AREAS):
        raise f.fail("[neutral_dams]", "needs exactly one entry per area")

    counts = {
        "basin_count": len(basins),
        "dam_space_count": len(dams),
        "conduit_space_count": len(conduits),
        "powerhouse_space_count": len(powerhouses),
        "basins_with_dams": sum(1 for b in basins.values() if b.dam_spaces),
    }
    for key, actual in counts.items():
        if key in m and m[key] != actual:
            raise f.fail(where, f"{key} says {m[key]} but the file has {actual}")

    features: dict[str, tuple[Mapping[str, Any], ...]] = {}
    extra_map = {k: v for k, v in m.items() if k not in _MAP_FIELDS or k == "provenance"}
    if len(extra_map) > (1 if "provenance" in extra_map else 0):
        features["map"] = (freeze(extra_map),)
    for table, rows, fields in (
        ("basin", basin_rows, _BASIN_FIELDS),
        ("headstream", hs_rows, _HEADSTREAM_FIELDS),
    ):
        extras = [
            {"id": r["id"], **{k: v for k, v in r.items() if k not in fields or k == "provenance"}}
            for r in rows
        ]
        if any(len(e) > (2 if "provenance" in e else 1) for e in extras):
            features[table] = tuple(freeze(e) for e in extras)
    for table, value in f.data.items():
        if table in _MAP_TABLES:
            continue
        if not isinstance(value, list):
            raise f.fail(f"[{table}]", "unknown table in a map file")
        features[table] = tuple(freeze(r) for r in f.rows(table))
    _check_features(f, features, basins, dams)

    return MapData(
        id=map_id,
        set=f.one_of(m, where, "set", f.sets),
        reconstructed=f.get(m, where, "reconstructed", bool),
        headstreams=headstreams,
        headstream_feeds=MappingProxyType(feeds),
        exits=exits,
        basins=MappingProxyType(basins),
        dam_spaces=MappingProxyType(dams),
        conduit_spaces=MappingProxyType(conduits),
        powerhouse_spaces=MappingProxyType(powerhouses),
        neutral_dam_areas=tuple(areas),
        features=MappingProxyType(features),
        neutral_dam_drops=f.int_in(nd, "[neutral_dams]", "drops_each", 0, 3, 1),
        provenance=_provenance(f, m, where),
    )


def _check_topology(
    f: _File,
    map_id: str,
    headstreams: tuple[str, ...],
    feeds: Mapping[str, int],
    exits: tuple[str, ...],
    basins: Mapping[int, Basin],
    dams: Mapping[str, DamSpace],
    conduits: Mapping[str, ConduitSpace],
    powerhouses: Mapping[str, PowerhouseSpace],
) -> None:
    """Cross-references of a map agree both ways and every river reaches an exit."""
    for hs, target in feeds.items():
        if target not in basins:
            raise f.fail(f"[[headstream]] {hs}", f"feeds_basin {target} is not a basin")
    for b in basins.values():
        w = f"[[basin]] {b.id}"
        if b.dam_spaces:
            positions = [dams[d].position if d in dams else None for d in b.dam_spaces]
            if positions != ["upper", "lower"]:
                raise f.fail(
                    w, f"dam_spaces {b.dam_spaces!r} must name an upper then a lower dam space"
                )
        # The basin each listed space belongs to (a conduit's is where its water comes from).
        owners: tuple[tuple[str, tuple[str, ...], Mapping[str, int]], ...] = (
            ("dam", b.dam_spaces, {sid: d.basin for sid, d in dams.items()}),
            ("conduit", b.conduit_spaces, {sid: c.from_basin for sid, c in conduits.items()}),
            ("powerhouse", b.powerhouse_spaces, {sid: p.basin for sid, p in powerhouses.items()}),
        )
        for kind, ids, owner_of in owners:
            for sid in ids:
                if sid not in owner_of:
                    raise f.fail(w, f"{kind} space {sid!r} does not exist")
                owner = owner_of[sid]
                if owner != b.id:
                    raise f.fail(w, f"{kind} space {sid!r} belongs to basin {owner}")
        if isinstance(b.river_to, int):
            if b.river_to not in basins:
                raise f.fail(w, f"river_to {b.river_to} is not a basin")
            if b.id not in basins[b.river_to].fed_by_basins:
                raise f.fail(w, f"basin {b.river_to} does not list it in fed_by_basins")
        elif b.river_to not in exits:
            raise f.fail(w, f"river_to {b.river_to!r} is neither a basin nor an exit")
        for src in b.fed_by_basins:
            if src not in basins or basins[src].river_to != b.id:
                raise f.fail(w, f"fed_by_basins names {src}, whose river does not flow here")
        for hs in b.fed_by_headstreams:
            if feeds.get(hs) != b.id:
                raise f.fail(w, f"fed_by_headstreams names {hs!r}, which does not feed it")
        ending = tuple(c.id for c in conduits.values() if c.to_basin == b.id)
        if set(b.conduits_ending_here) != set(ending):
            raise f.fail(w, f"conduits_ending_here {b.conduits_ending_here!r} should be {ending!r}")
        # Walk the river: it must reach an exit without visiting a basin twice.
        seen = {b.id}
        nxt = b.river_to
        while isinstance(nxt, int):
            if nxt in seen:
                raise f.fail(w, f"the river from basin {b.id} loops through basin {nxt}")
            seen.add(nxt)
            nxt = basins[nxt].river_to
    for hs, target in feeds.items():
        if hs not in basins[target].fed_by_headstreams:
            raise f.fail(
                f"[[headstream]] {hs}", f"basin {target} does not list it in fed_by_headstreams"
            )
    for c in conduits.values():
        w = f"[[conduit_space]] {c.id}"
        if c.id not in basins[c.from_basin].conduit_spaces:
            raise f.fail(w, f"basin {c.from_basin} does not list it")
        if set(c.connects_powerhouse_spaces) != set(basins[c.to_basin].powerhouse_spaces):
            raise f.fail(
                w, f"connects_powerhouse_spaces must be the powerhouse spaces of basin {c.to_basin}"
            )
        if not c.connects_powerhouse_spaces:
            raise f.fail(w, f"basin {c.to_basin} has no powerhouse space to connect")
    for p in powerhouses.values():
        w = f"[[powerhouse_space]] {p.id}"
        if p.id not in basins[p.basin].powerhouse_spaces:
            raise f.fail(w, f"basin {p.basin} does not list it")
        feeding = {c.id for c in conduits.values() if c.to_basin == p.basin}
        if set(p.fed_by_conduits) != feeding:
            raise f.fail(
                w, f"fed_by_conduits {p.fed_by_conduits!r} should be {tuple(sorted(feeding))!r}"
            )
    for d in dams.values():
        if d.id not in basins[d.basin].dam_spaces:
            raise f.fail(f"[[dam_space]] {d.id}", f"basin {d.basin} does not list it")
    if len(set(exits)) != len(exits) or len(set(headstreams)) != len(headstreams):
        raise f.fail(f"[map] {map_id}", "duplicate headstream or exit")


def _check_features(
    f: _File,
    features: Mapping[str, tuple[Mapping[str, Any], ...]],
    basins: Mapping[int, Basin],
    dams: Mapping[str, DamSpace],
) -> None:
    """Expansion tables: unique ids and basin references that resolve."""
    for table, rows in features.items():
        if table in ("map", "basin", "headstream"):
            continue
        f.unique(rows, table)
        for r in rows:
            w = f"[[{table}]] {r['id']}"
            for key in ("basins_crossed", "road_basins_in_order", "connected_basins"):
                for b in r.get(key, ()):
                    if b not in basins:
                        raise f.fail(w, f"{key} names {b}, which is not a basin")
            for key in ("left_basin", "right_basin"):
                if key in r and r[key] not in basins:
                    raise f.fail(w, f"{key} {r[key]} is not a basin")
            if "area" in r and r["area"] not in AREAS:
                raise f.fail(w, f"area {r['area']!r} is not an area")
            for mark in r.get("provenance", {}).values():
                if mark not in ("text", "reconstructed"):
                    raise f.fail(w, f"provenance mark {mark!r} must be 'text' or 'reconstructed'")


# ---------------------------------------------------------------------------------------------
# Everything else
# ---------------------------------------------------------------------------------------------


def _load_headstream_tiles(f: _File) -> tuple[HeadstreamTile, ...]:
    """The headstream tiles."""
    rows = f.rows("headstream_tile")
    f.unique(rows, "headstream_tile")
    out = []
    for r in rows:
        w = f"[[headstream_tile]] {r['id']}"
        drops = f.int_list(r, w, "drops_per_round")
        if len(drops) != 4 or min(drops) < 0:
            raise f.fail(w, "drops_per_round must give 4 non-negative counts (rounds 1-4)")
        out.append(HeadstreamTile(id=f.get(r, w, "id", int), drops_per_round=drops))
    return tuple(out)


def _load_companies(f: _File) -> tuple[dict[str, Company], CommonBoard, list[dict[str, Any]]]:
    """Companies, the common board, and the raw introductory matchups (checked later)."""
    c = f.table("common")
    w = "[common]"
    spaces = []
    for s in f.rows("construction_space"):
        ws = f"[[construction_space]] {s.get('ordinal')}"
        spaces.append(
            ConstructionSpace(
                ordinal=f.int_in(s, ws, "ordinal", 1, 9),
                engineers=f.int_in(s, ws, "engineers", 1, 5),
                red_outline=f.get(s, ws, "red_outline", bool),
                extra_credits=f.int_in(s, ws, "extra_credits", 0, 10),
            )
        )
    if [s.ordinal for s in spaces] != list(range(1, len(spaces) + 1)):
        raise f.fail("[[construction_space]]", "ordinals must run 1, 2, 3, ...")
    bonus = f.get(c, w, "powerhouse_bonus_after", dict)
    try:
        bonus_after = {int(k): v for k, v in bonus.items()}
    except ValueError as exc:
        raise f.fail(w, "powerhouse_bonus_after keys must be piece counts") from exc
    pieces = f.get(c, w, "pieces", dict)
    common = CommonBoard(
        pieces=MappingProxyType(dict(pieces)),
        starting_resources=MappingProxyType(dict(f.get(c, w, "starting_resources", dict))),
        starting_vp=f.int_in(c, w, "starting_vp", 0, 100),
        powerhouse_bonus_after=MappingProxyType(bonus_after),
        ability_after_powerhouses=f.int_in(
            c, w, "ability_after_powerhouses", 1, pieces.get("powerhouse", 4)
        ),
        powerhouse_cost_mixers=f.int_list(c, w, "powerhouse_cost_mixers"),
        construction_spaces=tuple(spaces),
        income_after_piece=f.int_list(c, w, "income_after_piece"),
    )
    if len(common.powerhouse_cost_mixers) != pieces.get("powerhouse"):
        raise f.fail(w, "powerhouse_cost_mixers needs one cost per powerhouse piece")
    rows = f.rows("company")
    f.unique(rows, "company")
    companies = {}
    for r in rows:
        wc = f"[[company]] {r['id']}"
        income = []
        for i, e in enumerate(f.get(r, wc, "income", list)):
            we = f"{wc} income #{i + 1}"
            track = f.one_of(e, we, "track", INCOME_TRACKS)
            after = f.get(e, we, "after_piece", int)
            if after not in common.income_after_piece:
                raise f.fail(we, f"after_piece {after} is not one of {common.income_after_piece!r}")
            income.append(
                IncomeEntry(track=track, after_piece=after, reward=f.reward(e, we, "reward"))
            )
        keys = [(e.track, e.after_piece) for e in income]
        if len(set(keys)) != len(keys):
            raise f.fail(wc, "two incomes on the same track and piece")
        companies[r["id"]] = Company(
            id=r["id"],
            name=f.get(r, wc, "name", str),
            set=f.one_of(r, wc, "set", f.sets),
            color=f.get(r, wc, "color", str),
            color_hex=f.get(r, wc, "color_hex", str),
            ability_key=f.get(r, wc, "ability_key", str),
            ability_text=f.get(r, wc, "ability_text", str),
            income=tuple(income),
            impl_id=f.get(r, wc, "impl_id", int, 0),
        )
    return companies, common, f.rows("introductory_matchup")


def _load_officers(f: _File) -> dict[str, Officer]:
    """Executive Officers."""
    rows = f.rows("officer")
    f.unique(rows, "officer")
    out = {}
    for r in rows:
        w = f"[[officer]] {r['id']}"
        limit = f.get(r, w, "contract_limit", int, None)
        spaces = f.get(r, w, "personal_action_spaces", list, [])
        for s in spaces:
            f.int_in(s, f"{w} personal_action_spaces", "engineers", 1, 5)
            f.int_in(s, f"{w} personal_action_spaces", "extra_credits", 0, 10)
        out[r["id"]] = Officer(
            id=r["id"],
            name=f.get(r, w, "name", str),
            set=f.one_of(r, w, "set", f.sets),
            ability_text=f.get(r, w, "ability_text", str),
            starting_resources=MappingProxyType(dict(f.get(r, w, "starting_resources", dict))),
            personal_action_spaces=tuple(freeze(s) for s in spaces),
            special_tiles=f.str_list(r, w, "special_tiles", []),
            special_pieces=f.str_list(r, w, "special_pieces", []),
            contract_limit=limit,
            implemented=f.one_of(r, w, "implemented", ("always", "with", "never")),
            copy_rules=tuple(freeze(c) for c in f.get(r, w, "copy_rules", list, [])),
            impl_id=f.get(r, w, "impl_id", int, 0),
        )
        for res, n in out[r["id"]].starting_resources.items():
            if not isinstance(n, int) or n < 0:
                raise f.fail(w, f"starting_resources {res} must be a non-negative integer")
    return out


def _load_tiles(f: _File) -> tuple[dict[str, TechTile], int]:
    """Technology tiles and the wheel size."""
    rows = f.rows("tile")
    f.unique(rows, "tile")
    out = {}
    for r in rows:
        w = f"[[tile]] {r['id']}"
        kind = f.one_of(r, w, "kind", TILE_KINDS)
        level = f.int_in(r, w, "level", 1, 3, None)
        if (kind == "advanced") != (level is not None):
            raise f.fail(w, "advanced tiles, and only they, have a level")
        out[r["id"]] = TechTile(
            id=r["id"],
            kind=kind,
            builds=f.one_of(r, w, "builds", TILE_BUILDS),
            level=level,
            set=f.one_of(r, w, "set", f.sets),
            games=f.one_of_or_none(
                r, w, "games", ("all", "introductory_only", *(f"{x}_only" for x in f.sets))
            ),
            engineer_free=f.get(r, w, "engineer_free", bool),
            effect_text=f.get(r, w, "effect_text", str),
            officer=f.get(r, w, "officer", str, None),
            counts_as_advanced=f.get(r, w, "counts_as_advanced", bool, kind == "advanced"),
        )
    wheel = f.table("wheel")
    return out, f.int_in(wheel, "[wheel]", "segments", 1, 12)


def _load_contracts(f: _File) -> tuple[dict[int, Contract], Mapping[str, Any]]:
    """All contracts, by id, and the contract setup table."""
    rows = f.rows("contract")
    f.unique(rows, "contract")
    ranges = {
        "starting": (1, 99),
        "national": (100, 199),
        "green": (200, 299),
        "yellow": (300, 399),
        "red": (400, 499),
    }
    out = {}
    for r in rows:
        w = f"[[contract]] {r['id']}"
        kind = f.one_of(r, w, "kind", CONTRACT_KINDS)
        cid = f.int_in(r, w, "id", *ranges[kind])
        out[cid] = Contract(
            id=cid,
            kind=kind,
            energy=f.int_in(r, w, "energy", 1, 30),
            reward=f.reward(r, w, "reward"),
            set=f.one_of(r, w, "set", f.sets),
        )
    setup = f.table("setup")
    for cid in f.int_list(setup, "[setup]", "starting_contracts_pool"):
        if cid not in out or out[cid].kind != "starting":
            raise f.fail("[setup]", f"starting_contracts_pool names {cid}, not a starting contract")
    return dict(sorted(out.items())), freeze(setup)


def _load_bonus(f: _File) -> dict[str, BonusTile]:
    """Bonus tiles."""
    rows = f.rows("bonus_tile")
    f.unique(rows, "bonus_tile")
    return {
        r["id"]: BonusTile(
            id=r["id"],
            set=f.one_of(r, w, "set", f.sets),
            vp_each=f.int_in(r, w, "vp_each", 1, 20),
            counts_text=f.get(r, w, "counts_text", str),
            in_introductory_game=f.get(r, w, "in_introductory_game", bool),
        )
        for r in rows
        for w in (f"[[bonus_tile]] {r['id']}",)
    }


def _load_objectives(f: _File) -> tuple[dict[str, ObjectiveTile], tuple[int, ...]]:
    """Objective tiles and the VP by place."""
    rows = f.rows("objective_tile")
    f.unique(rows, "objective_tile")
    tiles = {
        r["id"]: ObjectiveTile(
            id=r["id"],
            set=f.one_of(r, w, "set", f.sets),
            counts_text=f.get(r, w, "counts_text", str),
        )
        for r in rows
        for w in (f"[[objective_tile]] {r['id']}",)
    }
    vp = f.int_list(f.table("scoring"), "[scoring]", "vp_by_place")
    if list(vp) != sorted(vp, reverse=True):
        raise f.fail("[scoring]", "vp_by_place must not increase")
    return tiles, vp


def _load_management(f: _File) -> tuple[tuple[ManagementSpace, ...], Mapping[int, int]]:
    """Management board spaces in board order, checked against the per-count summary."""
    rows = f.rows("space")
    f.unique(rows, "space")
    out = []
    for r in rows:
        w = f"[[space]] {r['id']}"
        space = ManagementSpace(
            id=r["id"],
            section=f.get(r, w, "section", str),
            row=f.get(r, w, "row", str),
            side=f.one_of(r, w, "side", ("left", "right", "single")),
            engineers=f.int_in(r, w, "engineers", 0, 5),
            red_outline=f.get(r, w, "red_outline", bool),
            extra_credits=f.int_in(r, w, "extra_credits", 0, 10),
            action_cost=f.int_in(r, w, "action_cost", 0, 20),
            effect=f.reward(r, w, "effect"),
            min_companies=f.int_in(r, w, "min_companies", 2, 5, 2),
            exclusive=f.get(r, w, "exclusive", bool, True),
            not_in_introductory_game=f.get(r, w, "not_in_introductory_game", bool, False),
            impl_uid=f.get(r, w, "impl_uid", str, ""),
        )
        if space.red_outline != (space.extra_credits > 0):
            raise f.fail(w, "red_outline and extra_credits disagree")
        if (space.engineers == 0) != (not space.exclusive):
            raise f.fail(
                w, "only a non-exclusive space may take any number of engineers (engineers = 0)"
            )
        out.append(space)
    summary = f.table("space_count_by_companies")
    counts = {}
    for key, expected in summary.items():
        n = int(key.removeprefix("companies_"))
        actual = sum(1 for s in out if s.exclusive and s.min_companies <= n)
        if actual != expected:
            raise f.fail(
                "[space_count_by_companies]", f"{key} = {expected} but the spaces give {actual}"
            )
        counts[n] = expected
    return tuple(out), MappingProxyType(counts)


def _load_energy(f: _File) -> EnergyTrack:
    """The energy track."""
    bands = []
    for i, t in enumerate(f.rows("credit_threshold")):
        w = f"[[credit_threshold]] #{i + 1}"
        bands.append(
            CreditThreshold(
                min_energy=f.int_in(t, w, "min_energy", 0, 100),
                max_energy=f.int_in(t, w, "max_energy", 0, 100, None),
                credits=f.int_in(t, w, "credits", 0, 20),
                vp=f.int_in(t, w, "vp", -10, 10, 0),
            )
        )
    expect = 0
    for i, band in enumerate(bands):
        if band.min_energy != expect:
            raise f.fail(
                f"[[credit_threshold]] #{i + 1}",
                f"min_energy should be {expect} (bands must be contiguous)",
            )
        if band.max_energy is None:
            if i != len(bands) - 1:
                raise f.fail(
                    f"[[credit_threshold]] #{i + 1}", "only the last band may be open-ended"
                )
            break
        expect = band.max_energy + 1
    else:
        raise f.fail("[[credit_threshold]]", "the last band must be open-ended")
    sec = f.table("bonus_sections")
    sections = tuple(
        f.int_in(s, "[[bonus_sections.section]]", "min_energy", 1, 100)
        for s in f.get(sec, "[bonus_sections]", "section", list)
    )
    pa = f.table("placement_award")
    return EnergyTrack(
        credit_thresholds=tuple(bands),
        bonus_min_energy=f.int_in(sec, "[bonus_sections]", "minimum_energy_for_any_bonus", 0, 100),
        bonus_section_min_energy=sections,
        malus_per_section=f.int_in(sec, "[bonus_sections]", "malus_per_section_behind", 0, 20),
        first_vp=f.int_in(pa, "[placement_award]", "first_vp", 0, 20),
        second_vp=f.int_in(pa, "[placement_award]", "second_vp", 0, 20),
        tie_first_total_vp=f.int_in(pa, "[placement_award]", "tie_first_total_vp", 0, 40),
        tie_second_vp_each=f.int_in(pa, "[placement_award]", "tie_second_vp_each", 0, 20),
        flip_at=f.int_in(f.table("track"), "[track]", "flip_at", 1, 100),
        award_min_energy=f.int_in(pa, "[placement_award]", "requires_energy_at_least", 0, 10),
    )


def _load_costs(f: _File, wheel_segments: int) -> Costs:
    """Construction costs and numeric constants."""
    cost, g = f.table("cost"), f.table("game")
    end, setup, prod = f.table("end_game"), f.table("setup"), f.table("production")
    base, elev = cost["base"], cost["elevation"]

    def by_area(t: Mapping[str, Any], w: str) -> Mapping[str, int]:
        table = f.get(t, w, "by_area", dict)
        if set(table) != set(AREAS):
            raise f.fail(w, "by_area must give mountain, hill and plain")
        return MappingProxyType(dict(table))

    segments = f.int_in(f.table("wheel"), "[wheel]", "segments", 1, 12)
    if segments != wheel_segments:
        raise f.fail(
            "[wheel]", f"segments {segments} disagree with technology_tiles.toml ({wheel_segments})"
        )
    return Costs(
        base_excavators_by_area=by_area(base, "[cost.base]"),
        elevation_mixers_by_area=by_area(elev, "[cost.elevation]"),
        conduit_excavators_per_production=f.int_in(
            cost["conduit"], "[cost.conduit]", "per_production_point", 1, 10
        ),
        powerhouse_mixers_by_ordinal=f.int_list(
            cost["powerhouse"], "[cost.powerhouse]", "by_ordinal"
        ),
        red_outline_extra_credits=f.int_in(base, "[cost.base]", "red_outline_extra_credits", 0, 10),
        max_elevations_per_base=f.int_in(elev, "[cost.elevation]", "max_per_base", 0, 5),
        wheel_segments=segments,
        dam_capacity_by_level=f.int_list(f.table("dams"), "[dams]", "capacity_by_level"),
        resources_per_vp=f.int_in(end, "[end_game]", "resources_per_vp", 1, 20),
        rounds=f.int_in(g, "[game]", "rounds", 1, 10),
        starting_vp=f.int_in(setup, "[setup]", "starting_vp", 0, 100),
        minimum_production_energy=f.int_in(prod, "[production]", "minimum_energy", 0, 10),
        foreign_conduit_credits_per_drop=f.int_in(
            prod, "[production]", "foreign_conduit_fee_credits_per_drop", 0, 10
        ),
        foreign_conduit_vp_per_drop=f.int_in(
            prod, "[production]", "foreign_conduit_owner_vp_per_drop", 0, 10
        ),
        vp_per_drop_in_own_dams=f.int_in(end, "[end_game]", "vp_per_drop_in_own_dams", 0, 10),
    )


BUILDING_ACTION_SPACES = 4


def _machinery(f: _File, row: Mapping[str, Any], where: str, key: str) -> Mapping[str, int]:
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


def _check_expansion(f: _File) -> Mapping[str, Any]:
    """An expansion's data file: reward keys known, provenance marks valid, ids unique."""
    for table, value in f.data.items():
        rows = value if isinstance(value, list) else [value]
        if isinstance(value, list) and all("id" in r for r in rows):
            f.unique(rows, table)
        for i, r in enumerate(rows):
            w = f"[[{table}]] {r.get('id', i + 1)}" if isinstance(value, list) else f"[{table}]"
            for key in ("effect", "reward", "action_effect"):
                if key in r:
                    f.reward(r, w, key)
            _provenance(f, r, w)
            for sub, sv in r.items():
                if isinstance(sv, dict) and "provenance" in sv:
                    _provenance(f, sv, f"{w}.{sub}")
    return freeze(f.data)


def _join_shared_rows(
    f: _File,
    default_set: str,
    contracts: dict[int, Contract],
    works: dict[str, ExternalWork],
    buildings: dict[str, PrivateBuilding],
    building_spaces: list[BuildingSpace],
    work_spaces: list[ExternalWorkSpace],
) -> None:
    """An expansion data file's shared rows join the game's tables (`SHARED_ROWS`), each marked
    with its `set` (the expansion's own by default): setups draw only the sets in play, so a
    game without the expansion never sees them. The one parser of these rows."""
    ranges: dict[ContractKind, tuple[int, int]] = {
        "green": (200, 299),
        "yellow": (300, 399),
        "red": (400, 499),
    }
    for r in f.rows("private_contract") if "private_contract" in f.data else []:
        w = f"[[private_contract]] {r.get('id')}"
        level = f.one_of(r, w, "level", tuple(ranges))
        cid = f.int_in(r, w, "id", *ranges[level])
        if cid in contracts:
            raise f.fail(w, f"contract {cid} already exists")
        contracts[cid] = Contract(
            id=cid,
            kind=level,
            energy=f.int_in(r, w, "energy", 1, 30),
            reward=f.reward(r, w, "reward"),
            set=f.one_of(r, w, "set", f.sets, default_set),
        )
    for r in f.rows("external_work") if "external_work" in f.data else []:
        w = f"[[external_work]] {r.get('id')}"
        if r.get("id") in works:
            raise f.fail(w, "External Work already exists")
        works[r["id"]] = ExternalWork(
            id=r["id"],
            pile=f.one_of(r, w, "pile", ("A", "B", "C")),
            cost=_machinery(f, r, w, "cost"),
            reward=f.reward(r, w, "reward"),
            set=f.one_of(r, w, "set", f.sets, default_set),
            impl_id=f.get(r, w, "impl_id", int, 0),
        )
    for r in f.rows("private_building") if "private_building" in f.data else []:
        w = f"[[private_building]] {r.get('id')}"
        if r.get("id") in buildings:
            raise f.fail(w, "Private Building already exists")
        spaces = tuple(
            BuildingActionSpace(
                engineers=f.int_in(s, w, "engineers", 1, 5),
                extra_credits=f.int_in(s, w, "extra_credits", 0, 10),
            )
            for s in f.get(r, w, "action_spaces", list)
        )
        if len(spaces) != BUILDING_ACTION_SPACES:
            raise f.fail(w, "action_spaces must list 4 spaces (left, right, right, right)")
        buildings[r["id"]] = PrivateBuilding(
            id=r["id"],
            name=f.get(r, w, "name", str),
            cost=_machinery(f, r, w, "cost"),
            vp=f.int_in(r, w, "vp", 0, 20),
            action_effect=f.reward(r, w, "action_effect"),
            action_spaces=spaces,
            set=f.one_of(r, w, "set", f.sets, default_set),
            action_text=f.get(r, w, "action_text", str),
        )
    for s in f.rows("building_space") if "building_space" in f.data else []:
        w = f"[[building_space]] {s.get('index')}"
        building_spaces.append(
            BuildingSpace(
                index=f.int_in(s, w, "index", 0, 3),
                red_outline=f.get(s, w, "red_outline", bool),
                extra_credits=f.int_in(s, w, "extra_credits", 0, 10),
                min_players=f.int_in(s, w, "min_players", 1, 5),
            )
        )
    for s in f.rows("external_work_space") if "external_work_space" in f.data else []:
        w = f"[[external_work_space]] {s.get('id')}"
        work_spaces.append(
            ExternalWorkSpace(
                id=s["id"],
                engineers=f.int_in(s, w, "engineers", 1, 5),
                tile_slot=f.int_in(s, w, "tile_slot", 1, 3),
                impl_uid=f.get(s, w, "impl_uid", str, ""),
            )
        )


def _check_setup(
    f: _File, setup: Mapping[str, Any], content: Mapping[str, Mapping[str, Any]]
) -> None:
    """An expansion's [setup] names only components that exist."""
    names = {
        "officers_added": "officers",
        "company_added": "companies",
        "bonus_tiles_added": "bonus",
        "bonus_tile_added": "bonus",
        "objective_tile_added": "objectives",
    }
    for key, table in names.items():
        if key not in setup:
            continue
        value = setup[key]
        for item in value if isinstance(value, tuple | list) else (value,):
            if item not in content[table]:
                raise f.fail("[setup]", f"{key} names {item!r}, which does not exist")


def _load_rewards(f: _File) -> dict[str, RewardWording]:
    """The base game's reward keys and their wording."""
    out = {}
    for key, wording in f.table("reward").items():
        if not isinstance(wording, dict) or set(wording) - {"text", "short"}:
            raise f.fail(f"[reward] {key}", "gives only text and short")
        out[key] = RewardWording(key, str(wording.get("text", "")), str(wording.get("short", "")))
    return out


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------

BASE_DATA_FILES = (
    *BASE_MAP_FILES.values(),
    "headstream_tiles.toml",
    "companies.toml",
    "officers.toml",
    "technology_tiles.toml",
    "contracts.toml",
    "bonus_tiles.toml",
    "objective_tiles.toml",
    "energy_track.toml",
    "management_board.toml",
    "game_constants.toml",
    "rewards.toml",
)


@functools.cache
def product_expansions() -> tuple[ExpansionInfo, ...]:
    """The declarations of the expansions shipped with the product (`bot/rules/expansions`)."""
    infos = {info.name: info for info in map(read_declaration, discover())}
    return tuple(infos[name] for name in hook_order(infos, sorted(infos)))


def data_files(expansions: Iterable[ExpansionInfo] | None = None) -> tuple[str, ...]:
    """The names of every data file: the base game's, then each expansion's."""
    infos = product_expansions() if expansions is None else tuple(expansions)
    return (*BASE_DATA_FILES, *(name for info in infos for name in info.files))


def _read_packaged(name: str) -> str:
    """The text of a base data file."""
    return resources.files("bot.rules.data").joinpath(name).read_text(encoding="utf-8")


def _parse(
    name: str,
    text: str,
    sets: tuple[str, ...] = BASE_SETS,
    rewards: frozenset[str] = frozenset(),
) -> _File:
    """Parse one file, reporting TOML syntax errors with the file name."""
    try:
        return _File(name, tomllib.loads(text), sets, rewards)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{name}: not valid TOML: {exc}") from exc


def load_content(files: Mapping[str, str] | None = None) -> Content:
    """The packaged content (the base game and the product's expansions), loaded and validated
    once; `files` (name -> TOML text) is for tests."""
    if files is None:
        return _load_packaged()
    return build_content(files)


@functools.cache
def _load_packaged() -> Content:
    """Load the packaged data files once per process."""
    return build_content(packaged_files())


def _guarded(f: _File, loader: Callable[..., Any], *args: Any) -> Any:
    """Run a loader; a shape no check foresaw still becomes a ContentError naming the file."""
    try:
        return loader(f, *args)
    except ContentError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        raise ContentError(f"{f.name}: malformed data ({type(exc).__name__}: {exc})") from exc


def build_content(
    files: Mapping[str, str], expansions: Iterable[ExpansionInfo] | None = None
) -> Content:
    """Build and validate Content from file texts (name -> TOML); tests pass broken copies.

    `expansions` are the declarations whose data files join the base game's (by default the
    product's); each brings its maps, its content sets, its reward keys and its data tables.
    """
    infos = product_expansions() if expansions is None else tuple(expansions)
    missing = [n for n in data_files(infos) if n not in files]
    if missing:
        raise ContentError(f"{missing[0]}: missing data file")
    sets = (*BASE_SETS, *(s for info in infos for s in (info.name, *info.content_sets)))
    sets = tuple(dict.fromkeys(sets))
    rewards = _guarded(_parse("rewards.toml", files["rewards.toml"]), _load_rewards)
    for info in infos:
        for key, wording in info.rewards.items():
            if key in rewards:
                raise ContentError(f"{info.name}: reward key {key!r} is declared twice")
            rewards[key] = RewardWording(key, wording.get("text", ""), wording.get("short", ""))
    known = frozenset(rewards)
    f = {name: _parse(name, files[name], sets, known) for name in data_files(infos)}
    map_files = {**BASE_MAP_FILES, **{k: v for info in infos for k, v in info.maps.items()}}

    maps = {map_id: _guarded(f[name], _load_map, map_id) for map_id, name in map_files.items()}
    companies, common, matchup_rows = _guarded(f["companies.toml"], _load_companies)
    officers = _guarded(f["officers.toml"], _load_officers)
    tiles, wheel = _guarded(f["technology_tiles.toml"], _load_tiles)
    contracts, contract_setup = _guarded(f["contracts.toml"], _load_contracts)
    bonus = _guarded(f["bonus_tiles.toml"], _load_bonus)
    objectives, vp_by_place = _guarded(f["objective_tiles.toml"], _load_objectives)
    spaces, space_counts = _guarded(f["management_board.toml"], _load_management)
    works: dict[str, ExternalWork] = {}
    buildings: dict[str, PrivateBuilding] = {}
    bspaces: list[BuildingSpace] = []
    wspaces: list[ExternalWorkSpace] = []
    own: dict[str, Mapping[str, Any]] = {}
    tables = {"officers": officers, "companies": companies, "bonus": bonus}
    tables["objectives"] = objectives
    for info in infos:
        merged: dict[str, Any] = {}
        for name in info.data:
            data = _guarded(f[name], _check_expansion)
            default_set = info.content_sets[0] if info.content_sets else info.name
            _guarded(
                f[name],
                _join_shared_rows,
                default_set,
                contracts,
                works,
                buildings,
                bspaces,
                wspaces,
            )
            if "setup" in data:
                _check_setup(f[name], data["setup"], tables)
            merged.update(data)
        own[info.name] = freeze(merged)

    fc = f["companies.toml"]
    matchups = []
    for i, m in enumerate(matchup_rows):
        w = f"[[introductory_matchup]] #{i + 1}"
        company, officer = fc.get(m, w, "company", str), fc.get(m, w, "officer", str)
        contract = fc.get(m, w, "starting_contract", int)
        if company not in companies:
            raise fc.fail(w, f"company {company!r} does not exist")
        if officer not in officers:
            raise fc.fail(w, f"officer {officer!r} does not exist")
        if contract not in contracts or contracts[contract].kind != "starting":
            raise fc.fail(w, f"starting_contract {contract} is not a starting contract")
        matchups.append(IntroductoryMatchup(company, officer, contract))
    fo = f["officers.toml"]
    for o in officers.values():
        for t in o.special_tiles:
            if t not in tiles or tiles[t].kind != "special":
                raise fo.fail(f"[[officer]] {o.id}", f"special tile {t!r} is not a special tile")
        for rule in o.copy_rules:
            if rule.get("officer") not in officers:
                raise fo.fail(
                    f"[[officer]] {o.id}",
                    f"copy rule names unknown officer {rule.get('officer')!r}",
                )
    ft = f["technology_tiles.toml"]
    for t in tiles.values():
        if t.officer is not None and t.officer not in officers:
            raise ft.fail(f"[[tile]] {t.id}", f"officer {t.officer!r} does not exist")

    gc = f["game_constants.toml"]
    costs = _guarded(gc, _load_costs, wheel)
    if costs.powerhouse_mixers_by_ordinal != common.powerhouse_cost_mixers:
        raise gc.fail(
            "[cost.powerhouse]", "by_ordinal disagrees with companies.toml powerhouse_cost_mixers"
        )
    for m in maps.values():
        for d in m.dam_spaces.values():
            if d.base_cost_excavators != costs.base_excavators_by_area[d.area] or (
                d.elevation_cost_mixers != costs.elevation_mixers_by_area[d.area]
            ):
                raise f[map_files[m.id]].fail(
                    f"[[dam_space]] {d.id}", "costs disagree with game_constants.toml"
                )
        for c in m.conduit_spaces.values():
            if c.cost_excavators != c.production * costs.conduit_excavators_per_production:
                raise f[map_files[m.id]].fail(
                    f"[[conduit_space]] {c.id}", "cost_excavators is not production x per point"
                )

    return Content(
        maps=MappingProxyType(maps),
        companies=MappingProxyType(companies),
        common=common,
        officers=MappingProxyType(officers),
        tiles=MappingProxyType(tiles),
        contracts=MappingProxyType(contracts),
        bonus_tiles=MappingProxyType(bonus),
        objective_tiles=MappingProxyType(objectives),
        management_spaces=spaces,
        energy_track=_guarded(f["energy_track.toml"], _load_energy),
        costs=costs,
        headstream_tiles=_guarded(f["headstream_tiles.toml"], _load_headstream_tiles),
        introductory_matchups=tuple(matchups),
        external_works=MappingProxyType(works),
        private_buildings=MappingProxyType(buildings),
        expansions=MappingProxyType(own),
        rewards=MappingProxyType(rewards),
        building_spaces=tuple(bspaces),
        external_work_spaces=tuple(wspaces),
        objective_vp_by_place=vp_by_place,
        management_space_count_by_companies=space_counts,
        constants=freeze(gc.data),
        contract_setup=contract_setup,
    )


def company_name(company: str | None, content: Content | None = None) -> str:
    """What players read for a company: 'usa' → 'USA'; a draft seat 'seat1' → 'Seat 2';
    None → 'nobody'; any other id unchanged. The one place companies get their names."""
    if company is None:
        return "nobody"
    if company.startswith("seat") and company[4:].isdigit():
        return f"Seat {int(company[4:]) + 1}"
    found = (content or load_content()).companies.get(company)
    return found.name if found else company


def packaged_files(expansions: Iterable[ExpansionInfo] | None = None) -> dict[str, str]:
    """The packaged data files as name -> text (for tests that break a copy)."""
    infos = product_expansions() if expansions is None else tuple(expansions)
    out = {name: _read_packaged(name) for name in BASE_DATA_FILES}
    for info in infos:
        out.update({name: read_file(info.package, name) for name in info.files})
    return out


__all__ = [
    "AREAS",
    "OBJECTIVE_VP_BY_PLACE",
    "Area",
    "Basin",
    "BonusTile",
    "BuildingActionSpace",
    "BuildingSpace",
    "CommonBoard",
    "Company",
    "ConduitSpace",
    "ConstructionSpace",
    "Content",
    "ContentError",
    "Contract",
    "Costs",
    "CreditThreshold",
    "DamSpace",
    "EnergyTrack",
    "ExternalWork",
    "ExternalWorkSpace",
    "HeadstreamTile",
    "IncomeEntry",
    "IntroductoryMatchup",
    "ManagementSpace",
    "MapData",
    "NeutralDamArea",
    "ObjectiveTile",
    "Officer",
    "PowerhouseSpace",
    "PrivateBuilding",
    "Reward",
    "TechTile",
    "build_content",
    "company_name",
    "load_content",
    "packaged_files",
]
