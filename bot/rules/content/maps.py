"""Loading and checking a map's data file (basins, dams, conduits, powerhouses, topology)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from bot.rules.content.model import (
    AREAS,
    DAM_POSITIONS,
    Basin,
    ConduitSpace,
    DamSpace,
    MapData,
    NeutralDamArea,
    PowerhouseSpace,
)
from bot.rules.content.reading import (
    DataFile,
    _provenance,
    freeze,
)

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


def _load_map(f: DataFile, map_id: str) -> MapData:
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
        return cast("int", value)

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
    f: DataFile,
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
    f: DataFile,
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
