"""Loading the content: reading the packaged files and building one validated `Content`."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any

from bot.rules.content.maps import (
    _load_map,
)
from bot.rules.content.model import (
    BASE_MAP_FILES,
    BASE_SETS,
    Content,
    ContentError,
    IntroductoryMatchup,
    RewardWording,
)
from bot.rules.content.reading import (
    DataFile,
    freeze,
)
from bot.rules.content.shared import Table, join_rows
from bot.rules.content.tables import (
    PRIVATE_CONTRACTS,
    UNWORDED_REWARDS,
    _check_expansion,
    _check_setup,
    _load_bonus,
    _load_companies,
    _load_contracts,
    _load_costs,
    _load_energy,
    _load_headstream_tiles,
    _load_management,
    _load_objectives,
    _load_officers,
    _load_rewards,
    _load_sources,
    _load_tiles,
)
from bot.rules.declarations import (
    ExpansionInfo,
    discover,
    hook_order,
    read_declaration,
    read_file,
)

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
) -> DataFile:
    """Parse one file, reporting TOML syntax errors with the file name."""
    try:
        return DataFile(name, tomllib.loads(text), sets, rewards)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{name}: not valid TOML: {exc}") from exc


def load_content(
    files: Mapping[str, str] | None = None, tables: Iterable[Table[Any, Any]] = ()
) -> Content:
    """The packaged content (the base game and the product's expansions), loaded and validated
    once; `files` (name -> TOML text) is for tests.

    `tables` are the shared tables the expansions' rule sets declare; without them their rows
    stay in each expansion's own data only. The game's content, with every table, is the
    catalogue's (`bot.rules.catalogue.CATALOGUE.content()`).
    """
    if files is None:
        return _load_packaged(tuple(tables))
    return build_content(files, tables=tables)


@functools.cache
def _load_packaged(tables: tuple[Table[Any, Any], ...]) -> Content:
    """Load the packaged data files once per process (for each set of declared tables)."""
    return build_content(packaged_files(), tables=tables)


def _guarded(f: DataFile, loader: Callable[..., Any], *args: Any) -> Any:
    """Run a loader; a shape no check foresaw still becomes a ContentError naming the file."""
    try:
        return loader(f, *args)
    except ContentError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        raise ContentError(f"{f.name}: malformed data ({type(exc).__name__}: {exc})") from exc


def build_content(
    files: Mapping[str, str],
    expansions: Iterable[ExpansionInfo] | None = None,
    tables: Iterable[Table[Any, Any]] = (),
) -> Content:
    """Build and validate Content from file texts (name -> TOML); tests pass broken copies.

    `expansions` are the declarations whose data files join the base game's (by default the
    product's); each brings its maps, its content sets, its reward keys and its data tables.
    `tables` are the shared tables their rule sets declare (`Table`): every data file's rows
    of them are read by the one row parser (`join_rows`) into `Content.tables`.
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
    # Players read every reward in words: a key without both wordings is a content error
    # (`production_bonus` is read with `produce`).
    for key, wording in rewards.items():
        if key not in UNWORDED_REWARDS and not (wording.text and wording.short):
            raise ContentError(f"reward key {key!r} needs both a text and a short wording")
    known = frozenset(rewards)
    sources = _guarded(_parse("rewards.toml", files["rewards.toml"]), _load_sources)
    for info in infos:
        for key, text in info.sources.items():
            if key in sources:
                raise ContentError(f"{info.name}: source {key!r} is worded twice")
            sources[key] = text
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
    declared = tuple(tables)
    shared: dict[str, dict[Any, Any]] = {PRIVATE_CONTRACTS.name: contracts}
    for table in declared:
        if table.name in shared:
            raise ContentError(f"two rule sets declare the table [[{table.name}]]")
        shared[table.name] = {}
    pieces: dict[str, str] = {}
    for table in (t for t in declared if t.piece):
        if table.piece in pieces:
            raise ContentError(f"two tables name pieces of the kind {table.piece!r}")
        pieces[table.piece] = table.name
    own: dict[str, Mapping[str, Any]] = {}
    pools = {"officers": officers, "companies": companies, "bonus": bonus}
    pools["objectives"] = objectives
    for info in infos:
        merged: dict[str, Any] = {}
        for name in info.data:
            data = _guarded(f[name], _check_expansion)
            default_set = info.content_sets[0] if info.content_sets else info.name
            _guarded(f[name], join_rows, default_set, (PRIVATE_CONTRACTS, *declared), shared)
            if "setup" in data:
                _check_setup(f[name], data["setup"], pools)
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
        expansions=MappingProxyType(own),
        rewards=MappingProxyType(rewards),
        sources=MappingProxyType(sources),
        objective_vp_by_place=vp_by_place,
        management_space_count_by_companies=space_counts,
        constants=freeze(gc.data),
        contract_setup=contract_setup,
        tables=MappingProxyType(
            {table.name: MappingProxyType(shared[table.name]) for table in declared}
        ),
        pieces=MappingProxyType(pieces),
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
