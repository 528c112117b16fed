"""Loading the base game's other tables (companies, officers, tiles, contracts, boards) and an expansion's rows."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from bot.rules.content.model import (
    AREAS,
    CONTRACT_KINDS,
    INCOME_TRACKS,
    TILE_BUILDS,
    TILE_KINDS,
    BonusTile,
    CommonBoard,
    Company,
    ConstructionSpace,
    Contract,
    ContractKind,
    Costs,
    CreditThreshold,
    EnergyTrack,
    HeadstreamTile,
    IncomeEntry,
    ManagementSpace,
    ObjectiveTile,
    Officer,
    RewardWording,
    TechTile,
)
from bot.rules.content.reading import (
    DataFile,
    _provenance,
    freeze,
)
from bot.rules.content.shared import Table

# ---------------------------------------------------------------------------------------------
# Everything else
# ---------------------------------------------------------------------------------------------


def _load_headstream_tiles(f: DataFile) -> tuple[HeadstreamTile, ...]:
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


def _load_companies(f: DataFile) -> tuple[dict[str, Company], CommonBoard, list[dict[str, Any]]]:
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


def _load_officers(f: DataFile) -> dict[str, Officer]:
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
            summary=f.get(r, w, "summary", str),
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
        if len(out[r["id"]].summary) > 100:
            raise f.fail(w, "summary must fit an option's description (100 characters)")
    return out


def _load_tiles(f: DataFile) -> tuple[dict[str, TechTile], int]:
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
            name=f.get(r, w, "name", str),
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


def _load_contracts(f: DataFile) -> tuple[dict[int, Contract], Mapping[str, Any]]:
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


def _load_bonus(f: DataFile) -> dict[str, BonusTile]:
    """Bonus tiles."""
    rows = f.rows("bonus_tile")
    f.unique(rows, "bonus_tile")
    return {
        r["id"]: BonusTile(
            id=r["id"],
            name=f.get(r, w, "name", str),
            set=f.one_of(r, w, "set", f.sets),
            vp_each=f.int_in(r, w, "vp_each", 1, 20),
            counts_text=f.get(r, w, "counts_text", str),
            in_introductory_game=f.get(r, w, "in_introductory_game", bool),
        )
        for r in rows
        for w in (f"[[bonus_tile]] {r['id']}",)
    }


def _load_objectives(f: DataFile) -> tuple[dict[str, ObjectiveTile], tuple[int, ...]]:
    """Objective tiles and the VP by place."""
    rows = f.rows("objective_tile")
    f.unique(rows, "objective_tile")
    tiles = {
        r["id"]: ObjectiveTile(
            id=r["id"],
            name=f.get(r, w, "name", str),
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


def _load_management(f: DataFile) -> tuple[tuple[ManagementSpace, ...], Mapping[int, int]]:
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
            name=f.get(r, w, "name", str),
            short=f.get(r, w, "short", str),
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


def _load_energy(f: DataFile) -> EnergyTrack:
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


def _load_costs(f: DataFile, wheel_segments: int) -> Costs:
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


def _check_expansion(f: DataFile) -> Mapping[str, Any]:
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
    return cast("Mapping[str, Any]", freeze(f.data))


def _private_contract(f: DataFile, r: Mapping[str, Any], w: str, own_set: str) -> Contract:
    """An expansion's private contract, of a green, yellow or red level."""
    level = f.one_of(r, w, "level", tuple(PRIVATE_LEVELS))
    return Contract(
        id=f.int_in(r, w, "id", *PRIVATE_LEVELS[level]),
        kind=level,
        energy=f.int_in(r, w, "energy", 1, 30),
        reward=f.reward(r, w, "reward"),
        set=f.one_of(r, w, "set", f.sets, own_set),
    )


#: The ids of each level of private contracts.
PRIVATE_LEVELS: Mapping[ContractKind, tuple[int, int]] = MappingProxyType(
    {"green": (200, 299), "yellow": (300, 399), "red": (400, 499)}
)
#: An expansion's private contracts join the base game's contracts (`Content.contracts`).
PRIVATE_CONTRACTS: Table[int, Contract] = Table(
    "private_contract", "id", "contract", _private_contract
)


def _check_setup(
    f: DataFile, setup: Mapping[str, Any], content: Mapping[str, Mapping[str, Any]]
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


#: Reward keys read with another key, never on their own.
UNWORDED_REWARDS = frozenset({"production_bonus"})


def _load_rewards(f: DataFile) -> dict[str, RewardWording]:
    """The base game's reward keys and their wording."""
    out = {}
    for key, wording in f.table("reward").items():
        if not isinstance(wording, dict) or set(wording) - {"text", "short"}:
            raise f.fail(f"[reward] {key}", "gives only text and short")
        out[key] = RewardWording(key, str(wording.get("text", "")), str(wording.get("short", "")))
    return out


def _load_sources(f: DataFile) -> dict[str, str]:
    """The base game's event sources and how players read them."""
    out = {}
    for key, text in f.table("source").items():
        if not isinstance(text, str) or not text:
            raise f.fail(f"[source] {key}", "must be a text")
        out[key] = text
    return out
