"""The content's frozen records: the map model, boards, pieces and tiles, and `Content`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeVar

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
#: A reward as the data files write it ({key: value}), frozen.
Reward = MappingProxyType[str, Any]

# The content sets and maps of the base game; each expansion adds its own (its expansion.toml).
BASE_SETS = ("base", "five_player", "other")
BASE_MAP_FILES = {"base": "base_map.toml", "five_player": "five_player_map.toml"}
CONTRACT_KINDS: tuple[ContractKind, ...] = ("starting", "national", "green", "yellow", "red")
OBJECTIVE_VP_BY_PLACE = (15, 10, 5)

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
    summary: str = ""  # the ability in at most 100 characters (option descriptions, pictures)


@dataclass(frozen=True, slots=True)
class TechTile:
    """A technology tile."""

    id: str
    kind: TileKind
    name: str  # what players read: "Base", "Conduit II", "Anton's tile"
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
    name: str  # what players read: "Powerhouses"
    set: str
    vp_each: int
    counts_text: str
    in_introductory_game: bool


@dataclass(frozen=True, slots=True)
class ObjectiveTile:
    """An end-game objective tile."""

    id: str
    name: str  # what players read: "Connected systems"
    set: str
    counts_text: str


@dataclass(frozen=True, slots=True)
class ManagementSpace:
    """A management board or Patent Office action space."""

    id: str
    section: str
    row: str
    side: str
    name: str  # its row's action as players read it: "Produce +2", "Rotate 3"
    short: str  # the row in the shared boards picture, under its section: "+2"
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
        as "" when false, "[s]" and "[y|ies]" agree with the value. Every key has both
        wordings (checked when the content loads): players never read a key."""
        wording = self.short if short else self.text
        if not wording:
            raise ValueError(f"reward key {self.key!r} has no {'short ' if short else ''}wording")
        if isinstance(value, bool) and "{}" not in wording:
            return wording if value else ""
        one = isinstance(value, int) and not isinstance(value, bool) and abs(value) == 1
        wording = _PLURAL.sub(lambda m: _agree(m.group(1), one), wording)
        shown = "/".join(str(v) for v in value) if isinstance(value, list | tuple) else value
        return wording.format(shown)


# A wording's number agreement: "[s]" is added when the value is not 1, "[y|ies]" picks the
# singular or the plural ("{} drop[s]", "{} machiner[y|ies]").
_PLURAL = re.compile(r"\[([^\]]*)\]")


def _agree(forms: str, one: bool) -> str:
    """'s' -> '' or 's'; 'y|ies' -> 'y' or 'ies'."""
    singular, _, plural = forms.rpartition("|") if "|" in forms else ("", "", forms)
    return singular if one else plural


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
    # Each expansion's own data (its data files' tables, checked and frozen), by its name.
    expansions: Mapping[str, Mapping[str, Any]]
    # Every reward and effect key the data may use, with its wording.
    rewards: Mapping[str, RewardWording]
    # What players read for event sources, by how a source starts (`bot.rules.wording`).
    sources: Mapping[str, str] = field(default_factory=_empty)
    objective_vp_by_place: tuple[int, ...] = OBJECTIVE_VP_BY_PLACE
    management_space_count_by_companies: Mapping[int, int] = field(default_factory=_empty)
    constants: Mapping[str, Any] = field(default_factory=_empty)
    contract_setup: Mapping[str, Any] = field(default_factory=_empty)
    # The shared tables its rule sets declare (`bot.rules.content.shared.Table`), by the table's
    # name: key -> record; read through the table (`WORKS.of(content)`).
    tables: Mapping[str, Mapping[Any, Any]] = field(default_factory=_empty)
    # Piece kind -> the table whose rows event sources name so (`{building}`: `Table.piece`).
    pieces: Mapping[str, str] = field(default_factory=_empty)

    def of(self, expansion: str) -> Mapping[str, Any]:
        """An expansion's own data tables (KeyError when its data was not loaded)."""
        return self.expansions[expansion]

    def named(self, kind: str) -> Mapping[str, Any] | None:
        """The rows of the shared table whose pieces are of this kind (each has a `name`);
        None when no table names pieces so."""
        table = self.pieces.get(kind)
        return None if table is None else self.tables[table]

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
