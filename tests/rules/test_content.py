"""The packaged content loads, matches the reference's counts and facts, and rejects broken data."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from bot.rules import content as content_module
from bot.rules import hooks as hooks_module
from bot.rules import water as water_module
from bot.rules.catalogue import CATALOGUE
from bot.rules.content import (
    AREAS,
    Content,
    ContentError,
    load_content,
    packaged_files,
)

# The modules of the content package (`bot/rules/content/`), its __init__ among them.
CONTENT_FILES = tuple(sorted(Path(content_module.__file__).parent.glob("*.py")))


@pytest.fixture(scope="module")
def c() -> Content:
    """The packaged content."""
    return load_content()


def test_loads_once(c: Content) -> None:
    """load_content() is cached: the same object each call."""
    assert load_content() is c


MAP_COUNTS = {
    # basins, dam spaces, conduit spaces, powerhouse spaces, headstreams, exits
    "base": (12, 20, 20, 23, 4, 2),
    "five_player": (16, 26, 26, 27, 5, 3),
    "colorado": (12, 20, 20, 23, 4, 2),
    "nile": (12, 20, 20, 23, 4, 2),
}


@pytest.mark.parametrize("map_id", sorted(MAP_COUNTS))
def test_map_counts(c: Content, map_id: str) -> None:
    """Counts of the reference's README table and [map] counts."""
    m = c.maps[map_id]
    counts = (
        len(m.basins),
        len(m.dam_spaces),
        len(m.conduit_spaces),
        len(m.powerhouse_spaces),
        len(m.headstreams),
        len(m.exits),
    )
    assert counts == MAP_COUNTS[map_id]
    assert len(m.neutral_dam_areas) == 3
    assert m.reconstructed == (map_id in ("colorado", "nile"))


def test_expansion_map_features(c: Content) -> None:
    """The expansion tables are kept with their sizes."""
    col, nile = c.maps["colorado"].features, c.maps["nile"].features
    assert len(col["construction_site"]) == 3
    assert len(col["settlement_space"]) == 10
    assert len(nile["irrigation_zone"]) == 3
    assert len(nile["irrigation_space"]) == 12
    assert len(nile["irrigation_action_space"]) == 6
    assert len(nile["river_source_token"]) == 8
    # Basin extension fields (Colorado roads, Nile course) are kept per basin.
    assert {b["id"]: b["road_position"] for b in col["basin"]}[4] == 4
    assert {b["id"]: b["on_nile"] for b in nile["basin"]}[2] is True
    assert nile["map"][0]["nile_headstream"] == "HB"
    assert {h["id"]: h["extra_drops_per_round"] for h in nile["headstream"]}["HB"] == 2


def test_reconstructed_marks_survive(c: Content) -> None:
    """Colorado and Nile values keep their text/reconstructed marks in machine-readable form."""
    for map_id in ("colorado", "nile"):
        m = c.maps[map_id]
        assert m.provenance["basin_count"] == "reconstructed"
        assert m.provenance["water_order_in_basin"] == "text"
        for table in (m.basins, m.dam_spaces, m.conduit_spaces, m.powerhouse_spaces):
            for item in table.values():
                assert item.provenance, f"{map_id} {item.id} lost its provenance"
                assert set(item.provenance.values()) <= {"text", "reconstructed"}
        assert m.conduit_spaces["C1L"].provenance["production"] == "reconstructed"
        for rows in m.features.values():
            for r in rows:
                assert r["provenance"], f"{map_id} feature row {r} lost its provenance"
    site = c.maps["colorado"].features["construction_site"][0]
    assert site["provenance"]["bridge_tiles_at_setup"] == "text"
    # The rules tables of colorado.toml / nile.toml keep their marks too.
    assert c.of("colorado")["settlement_tile"][0]["provenance"]["type"] == "reconstructed"
    assert (
        c.of("colorado")["setup"]["with_leeghwater"]["provenance"]["external_works_added"] == "text"
    )
    assert c.of("nile")["irrigation_scoring_token"][4]["provenance"]["penalty"] == "reconstructed"
    # Base-game maps are transcribed, not reconstructed.
    assert not c.maps["base"].provenance
    assert not c.maps["base"].dam_spaces["D1U"].provenance


def test_base_map_facts(c: Content) -> None:
    """Spot checks of facts carried over from the reference."""
    m = c.maps["base"]
    assert m.basins[1].dam_spaces == ("D1U", "D1L")
    assert m.basins[1].river_to == 8
    assert m.basins[11].river_to == "EXIT_L"
    assert m.basins[10].fed_by_basins == (6, 7)
    c1l = m.conduit_spaces["C1L"]
    assert (c1l.production, c1l.to_basin, c1l.cost_excavators) == (5, 8, 10)
    assert c1l.connects_powerhouse_spaces == ("P8_0", "P8_1", "P8_2")
    assert m.powerhouse_spaces["P5_1"].red_outline
    assert m.powerhouse_spaces["P5_1"].extra_credits == 3
    assert m.powerhouse_spaces["P5_0"].fed_by_conduits == ("C1R", "C3L")
    d1u = m.dam_spaces["D1U"]
    assert (d1u.position, d1u.red_outline, d1u.extra_credits_for_base, d1u.area) == (
        "upper",
        True,
        3,
        "mountain",
    )
    assert m.area_of("P9_0") == "plain"
    assert m.area_of("C2L") == "mountain"
    assert m.basin_of("C2L") == 2
    assert m.basin_of("D7L") == 7
    assert m.path_from_headstream("HD") == (4, 7, 10, 12)
    assert m.downstream(6) == (10, 12)
    assert m.neutral_dam_areas[0].candidate_dam_spaces == ("D1L", "D2L", "D3L", "D4L")
    assert [a.dam_level for a in m.neutral_dam_areas] == [1, 2, 3]
    assert sum(cs.production for cs in m.conduit_spaces.values()) == 62
    assert sum(p.red_outline for p in m.powerhouse_spaces.values()) == 12
    assert c.maps["five_player"].basins[15].river_to == "EXIT_C"


def test_companies_and_common(c: Content) -> None:
    """Company boards, the common board and the introductory matchups."""
    assert list(c.companies) == ["usa", "germany", "italy", "france", "netherlands"]
    assert c.companies["netherlands"].set == "leeghwater"
    for company in c.companies.values():
        assert len(company.income) == 9
        fifth = [e.reward for e in company.income if e.after_piece == 5]
        assert fifth == [{"vp": 7}] * 3
    france = {(e.track, e.after_piece): dict(e.reward) for e in c.companies["france"].income}
    assert france[("base", 4)] == {"rotate_wheel": 2}
    assert c.common.powerhouse_bonus_after == {2: 1, 4: 2}
    assert c.common.ability_after_powerhouses == 3
    assert c.common.powerhouse_cost_mixers == (2, 3, 4, 5)
    assert [(s.engineers, s.extra_credits) for s in c.common.construction_spaces] == [
        (1, 0),
        (2, 0),
        (3, 0),
        (3, 3),
    ]
    assert c.common.starting_resources == {
        "engineers": 12,
        "credits": 6,
        "excavators": 6,
        "mixers": 4,
    }
    assert c.common.starting_vp == 10
    assert [tuple(m) for m in c.introductory_matchups] == [
        ("usa", "wilhelm_adler", 1),
        ("germany", "jill_mcdowell", 2),
        ("italy", "solomon_p_jordan", 3),
        ("france", "viktor_fiesler", 4),
    ]


def test_officers_and_tiles(c: Content) -> None:
    """Officers by set, technology tiles by kind."""
    by_set: dict[str, int] = {}
    for o in c.officers.values():
        by_set[o.set] = by_set.get(o.set, 0) + 1
    assert by_set == {"base": 7, "leeghwater": 4, "other": 5}
    assert c.officers["simone_luciani"].contract_limit == 4
    assert c.officers["wilhelm_adler"].contract_limit is None
    assert c.officers["mahiri_sekibo"].starting_resources["credits"] == 9
    assert c.officers["anton_krylov"].special_tiles == ("anton_tile",)
    kinds: dict[str, int] = {}
    for t in c.tiles.values():
        kinds[t.kind] = kinds.get(t.kind, 0) + 1
    assert kinds == {"basic": 6, "advanced": 18, "special": 2}
    advanced = [t for t in c.tiles.values() if t.kind == "advanced"]
    assert sum(t.set == "base" for t in advanced) == 15
    assert {t.id for t in c.tiles.values() if t.engineer_free} == {"adv_1_powerhouse", "adv_3_base"}
    assert c.tiles["basic_wild"].games == "introductory_only"


def test_contracts(c: Content) -> None:
    """55 base contracts: 4 starting, 6 national, 15 of each colour; Colorado adds 3."""
    base = [contract for contract in c.contracts.values() if contract.set == "base"]
    assert len(base) == 55
    counts = {
        kind: sum(1 for contract in base if contract.kind == kind)
        for kind in ("starting", "national", "green", "yellow", "red")
    }
    assert counts == {"starting": 4, "national": 6, "green": 15, "yellow": 15, "red": 15}
    colorado = {cid for cid, contract in c.contracts.items() if contract.set == "colorado"}
    assert colorado == {215, 315, 415}
    assert c.contracts[209].energy == 3
    assert dict(c.contracts[209].reward) == {"vp": 4, "credits": 2}
    assert c.contracts[305].reward["build_base_in_areas"] == ("plain", "hill")
    # The printed order of a reward is kept (tiles apply parts in order).
    assert list(c.contracts[303].reward) == ["vp", "water_drops_flowing", "rotate_wheel"]
    assert all(
        c.id // 100 == {"starting": 0, "national": 1, "green": 2, "yellow": 3, "red": 4}[c.kind]
        for c in c.contracts.values()
    )


def test_bonus_and_objective_tiles(c: Content) -> None:
    """Bonus tiles (6 base) and objective tiles (6 base) with their sets."""
    base_bonus = [b for b in c.bonus_tiles.values() if b.set == "base"]
    assert len(base_bonus) == 6
    assert len(c.bonus_tiles) == 10
    assert [b.id for b in base_bonus if not b.in_introductory_game] == ["advanced_tiles"]
    assert c.bonus_tiles["powerhouses"].vp_each == 5
    assert len([o for o in c.objective_tiles.values() if o.set == "base"]) == 6
    assert len(c.objective_tiles) == 8
    assert c.objective_vp_by_place == (15, 10, 5)


def test_management_board(c: Content) -> None:
    """36 spaces; 25/29/35 exclusive spaces in play for 2/3/4 companies."""
    assert len(c.management_spaces) == 36
    for n, expected in ((2, 25), (3, 29), (4, 35)):
        assert sum(s.exclusive for s in c.management_spaces_for(n)) == expected
    assert len(c.management_spaces_for(4, introductory=True)) == 36 - 3
    bank = c.space("bank")
    assert (bank.engineers, bank.exclusive) == (0, False)
    assert c.space("turbine_plus1_left").min_companies == 4
    assert c.space("turbine_minus2_left").effect == {"produce": True, "production_bonus": -2}
    assert c.management_spaces[0].id == "turbine_plus2_left"
    with pytest.raises(KeyError):
        c.space("nowhere")


def test_energy_track(c: Content) -> None:
    """Credits by band, the 0-energy penalty, energy past 30, sections."""
    track = c.energy_track
    expected = {
        0: (3, -3),
        1: (1, 0),
        2: (2, 0),
        3: (2, 0),
        4: (3, 0),
        6: (3, 0),
        7: (4, 0),
        10: (4, 0),
        11: (5, 0),
        15: (5, 0),
        16: (6, 0),
        21: (6, 0),
        22: (7, 0),
        28: (7, 0),
        29: (8, 0),
        30: (8, 0),
        45: (8, 0),
    }
    for energy, result in expected.items():
        assert track.credits_for(energy) == result
    assert len(track.credit_thresholds) == 9
    assert track.bonus_section_min_energy == (6, 12, 18, 24, 30)
    assert (track.bonus_min_energy, track.malus_per_section, track.flip_at) == (6, 4, 30)
    assert (
        track.first_vp,
        track.second_vp,
        track.tie_first_total_vp,
        track.tie_second_vp_each,
    ) == (6, 2, 8, 1)


def test_costs_and_setup_tables(c: Content) -> None:
    """Costs, headstream tiles and an expansion's setup table."""
    k = c.costs
    assert k.base_excavators_by_area == {"mountain": 5, "hill": 4, "plain": 3}
    assert k.elevation_mixers_by_area == {"mountain": 4, "hill": 3, "plain": 2}
    assert (
        k.conduit_excavators_per_production,
        k.red_outline_extra_credits,
        k.max_elevations_per_base,
    ) == (2, 3, 2)
    assert k.powerhouse_mixers_by_ordinal == (2, 3, 4, 5)
    assert (k.wheel_segments, k.dam_capacity_by_level, k.resources_per_vp) == (6, (1, 2, 3), 5)
    assert (k.rounds, k.starting_vp) == (5, 10)
    assert len(c.headstream_tiles) == 8
    assert c.headstream_tiles[1].drops_per_round == (0, 0, 1, 3)
    assert c.of("leeghwater")["setup"]["private_buildings_in_game"] == 5


def test_expansion_tables_kept(c: Content) -> None:
    """colorado.toml and nile.toml tables keep their sizes."""
    sizes = {
        name: len(c.of("colorado")[name])
        for name in (
            "bridge_tile",
            "settlement_tile",
            "private_building",
            "private_contract",
            "external_work",
            "worked_example",
        )
    }
    assert sizes == {
        "bridge_tile": 10,
        "settlement_tile": 24,
        "private_building": 1,
        "private_contract": 3,
        "external_work": 3,
        "worked_example": 2,
    }
    sizes = {
        name: len(c.of("nile")[name])
        for name in (
            "irrigation_token",
            "irrigation_effect_type",
            "irrigation_scoring_token",
            "private_contract",
            "external_work",
            "private_building",
            "worked_example",
        )
    }
    assert sizes == {
        "irrigation_token": 24,
        "irrigation_effect_type": 8,
        "irrigation_scoring_token": 5,
        "private_contract": 3,
        "external_work": 3,
        "private_building": 1,
        "worked_example": 2,
    }


def _rewards(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every reward/effect table anywhere in a structure."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name in ("reward", "effect", "action_effect"):
                yield item
            yield from _rewards(item)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if key in ("reward", "effect", "action_effect") and isinstance(item, Mapping):
                yield item
            yield from _rewards(item)
    elif isinstance(value, tuple):
        for item in value:
            yield from _rewards(item)


def test_every_reward_key_is_known(c: Content) -> None:
    """All reward/effect keys anywhere in the content are in the known vocabulary."""
    found = list(_rewards(c))
    assert len(found) > 150
    for reward in found:
        for key in reward:
            assert key in c.rewards, key
            if key == "one_of":
                for option in reward[key]:
                    assert set(option) <= set(c.rewards)


def _immutable(value: Any, path: str = "content") -> None:
    """No list, dict or set anywhere in the content."""
    assert not isinstance(value, list | dict | set), path
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)
        for f in dataclasses.fields(value):
            _immutable(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, MappingProxyType):
        for key, item in value.items():
            _immutable(item, f"{path}[{key!r}]")
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            _immutable(item, f"{path}[{i}]")


def test_content_is_immutable(c: Content) -> None:
    """Frozen dataclasses, tuples and mapping proxies all the way down."""
    _immutable(c)


def test_areas() -> None:
    """The three areas, top to bottom."""
    assert AREAS == ("mountain", "hill", "plain")


# ---------------------------------------------------------------------------------------------
# Broken copies
# ---------------------------------------------------------------------------------------------


def broken(name: str, old: str, new: str, count: int = 1) -> dict[str, str]:
    """The packaged files with one text replacement in one file."""
    files = packaged_files()
    assert old in files[name], f"{old!r} not in {name}"
    files[name] = files[name].replace(old, new, count)
    return files


BREAKAGES = [
    # (file, old text, new text, words the message must contain)
    (
        "base_map.toml",
        'id = "C1L"\nside = "left"\nfrom_basin = 1',
        'id = "C1L"\nside = "left"\nfrom_basin = 99',
        ["base_map.toml", "C1L", "99"],
    ),
    ("base_map.toml", "river_to = 8\n", "river_to = 1\n", ["base_map.toml", "[[basin]] 1:"]),
    (
        "base_map.toml",
        'river_to = "EXIT_L"',
        'river_to = "EXIT_X"',
        ["base_map.toml", "[[basin]] 11", "EXIT_X"],
    ),
    ("base_map.toml", 'id = "D1L"', 'id = "D1U"', ["base_map.toml", "D1U", "duplicate"]),
    (
        "base_map.toml",
        'connects_powerhouse_spaces = ["P8_0", "P8_1", "P8_2"]',
        'connects_powerhouse_spaces = ["P8_0", "P8_1", "P9_9"]',
        ["base_map.toml", "C1L"],
    ),
    (
        "five_player_map.toml",
        "production = 5",
        "production = 0",
        ["five_player_map.toml", "production"],
    ),
    ("nile_map.toml", 'area = "mountain"', 'area = "moon"', ["nile_map.toml", "area", "moon"]),
    (
        "colorado_map.toml",
        "basins_crossed = [1]",
        "basins_crossed = [42]",
        ["colorado_map.toml", "S_M1", "42"],
    ),
    (
        "contracts.toml",
        "reward = { vp = 4, credits = 2 }",
        "reward = { vp = 4, gold = 2 }",
        ["contracts.toml", "209", "gold"],
    ),
    ("contracts.toml", 'kind = "green"', 'kind = "blue"', ["contracts.toml", "blue"]),
    (
        "companies.toml",
        'officer = "jill_mcdowell"',
        'officer = "jill_nobody"',
        ["companies.toml", "introductory_matchup", "jill_nobody"],
    ),
    (
        "companies.toml",
        "starting_contract = 3",
        "starting_contract = 203",
        ["companies.toml", "introductory_matchup", "203"],
    ),
    (
        "management_board.toml",
        "effect = { rotate_wheel = 1 }",
        "effect = { spin = 1 }",
        ["management_board.toml", "workshop_rotate1_left", "spin"],
    ),
    (
        "management_board.toml",
        "companies_3 = 29",
        "companies_3 = 30",
        ["management_board.toml", "companies_3"],
    ),
    (
        "management_board.toml",
        "engineers = 2\n",
        "engineers = 9\n",
        ["management_board.toml", "turbine_plus2_left"],
    ),
    (
        "energy_track.toml",
        "min_energy = 4\n",
        "min_energy = 5\n",
        ["energy_track.toml", "credit_threshold"],
    ),
    (
        "officers.toml",
        'special_tiles = ["anton_tile"]',
        'special_tiles = ["no_tile"]',
        ["officers.toml", "anton_krylov", "no_tile"],
    ),
    (
        "leeghwater.toml",
        "cost = { excavators = 1 }",
        "cost = { excavators = -1 }",
        ["leeghwater.toml", "A1"],
    ),
    (
        "colorado.toml",
        "effect = { credits = 5 }",
        "effect = { credits = 5, fly = 1 }",
        ["colorado.toml", "BR2", "fly"],
    ),
    (
        "game_constants.toml",
        "per_production_point = 2",
        "per_production_point = 3",
        ["cost_excavators"],
    ),
    (
        "headstream_tiles.toml",
        "drops_per_round = [0, 2, 2, 0]",
        "drops_per_round = [0, 2, 2]",
        ["headstream_tiles.toml", "headstream_tile", "1"],
    ),
    (
        "technology_tiles.toml",
        'builds = "base"',
        'builds = "castle"',
        ["technology_tiles.toml", "castle"],
    ),
    (
        "bonus_tiles.toml",
        "vp_each = 2",
        'vp_each = "two"',
        ["bonus_tiles.toml", "contracts", "vp_each"],
    ),
]


@pytest.mark.parametrize(("name", "old", "new", "words"), BREAKAGES)
def test_broken_copy_raises_content_error(name: str, old: str, new: str, words: list[str]) -> None:
    """A deliberately broken copy fails at load with a message naming the file and the id."""
    with pytest.raises(ContentError) as info:
        load_content(broken(name, old, new), CATALOGUE.tables())
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_unexpected_shape_still_names_the_file() -> None:
    """A row of the wrong shape is a ContentError naming the file, not a crash."""
    files = broken(
        "companies.toml", '{ track = "base", after_piece = 2, reward = { rotate_wheel = 1 } }', "3"
    )
    with pytest.raises(ContentError, match=r"^companies\.toml: "):
        load_content(files)


def test_provenance_mark_must_be_known() -> None:
    """A provenance mark other than text/reconstructed is refused."""
    files = broken("nile.toml", 'provenance = { id = "text"', 'provenance = { id = "guess"')
    with pytest.raises(ContentError, match=r"nile\.toml: .*guess"):
        load_content(files)


def test_syntax_error_names_the_file() -> None:
    """Invalid TOML is reported with the file's name."""
    with pytest.raises(ContentError, match=r"^officers\.toml: not valid TOML"):
        load_content(broken("officers.toml", "[[officer]]", "[[officer]"))


def test_missing_file_names_it() -> None:
    """A missing file is named."""
    files = packaged_files()
    del files["nile_map.toml"]
    with pytest.raises(ContentError, match=r"^nile_map\.toml: missing data file"):
        load_content(files)


def test_unreachable_exit_loop_is_refused() -> None:
    """A river that loops back is refused (topology check)."""
    files = packaged_files()
    text = files["base_map.toml"]
    # Basin 11 flows into 8 and 8 into 11: a loop with no exit.
    text = text.replace('river_to = "EXIT_L"', "river_to = 8")
    text = re.sub(
        r"(id = 8\narea = \"plain\"\n(?:.*\n)*?fed_by_basins = )\[1\]", r"\1[1, 11]", text, count=1
    )
    files["base_map.toml"] = text
    with pytest.raises(ContentError, match=r"base_map\.toml: .* loops through basin"):
        load_content(files)


def test_packaged_files_are_the_defaults() -> None:
    """Loading the packaged texts explicitly gives equal content."""
    assert load_content(packaged_files()) == load_content()


def test_rules_package_stays_pure() -> None:
    """The content package's modules and water.py import only pure stdlib modules, each other and
    the expansions' declarations (data read without importing an expansion's code); water.py
    names the engine only for its types, and asks its hook through `bot.rules.hooks`, which is
    as pure (checked here too)."""
    allowed = {
        "__future__",
        "functools",
        "tomllib",
        "collections.abc",
        "dataclasses",
        "importlib",
        "re",
        "types",
        "typing",
        "bot.rules.content",
        *(f"bot.rules.content.{path.stem}" for path in CONTENT_FILES),
        "bot.rules.declarations",
        "bot.rules.hooks",
    }
    assert len(CONTENT_FILES) > 1, "the content package's modules are found"
    for path in (*CONTENT_FILES, Path(water_module.__file__), Path(hooks_module.__file__)):
        source = path.read_text(encoding="utf-8")
        imports = set(re.findall(r"^(?:from|import) ([a-z_.]+)", source, re.M))
        assert imports <= allowed, path.name
