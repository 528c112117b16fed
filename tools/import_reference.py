"""Write the project's game data files (bot/rules/data/*.toml) from the shared reference data.

Developer tool, run by hand; it is not shipped and nothing in the product imports it. It is the
only code that reads ../shared/reference/barrage-data (the reference the facts come from), so
facts are carried over without typos while structure, comments and texts are the project's own:

    python tools/import_reference.py [--reference DIR] [--out DIR]

The reference marks every value of its Colorado and Nile files with a trailing `# from text` or
`# reconstructed` comment. Comments are not data, so this tool turns them into a `provenance`
inline table on each table or row (field -> "text" | "reconstructed").
"""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REFERENCE = ROOT.parent.parent / "shared" / "reference" / "barrage-data"
DEFAULT_OUT = ROOT / "bot" / "rules" / "data"

# ---------------------------------------------------------------------------------------------
# Texts in the project's own words (ids -> text). Facts stay in structured fields; these are
# only for people reading a label or a help page.
# ---------------------------------------------------------------------------------------------

COMPANY_TEXT = {
    "usa": (
        "Each drop that moves into a basin holding one of your powerhouses gives you 1 energy, "
        "in any phase and whoever's water it is. The basin where your production releases a "
        "drop does not count. This energy never fulfils a contract."
    ),
    "germany": (
        "Right after a production you may produce again with another of your powerhouses, "
        "without the action space's bonus or malus and without your board's bonus. That second "
        "production may fulfil a contract; it never leads to a third."
    ),
    "italy": (
        "Every production also moves your energy marker 3 extra steps; these steps never count "
        "toward the contract of that production."
    ),
    "france": (
        "A contract (private or national) fulfilled with the energy of a production needs 3 "
        "energy less than printed. Energy that does not come from a production gets no reduction."
    ),
    "netherlands": (
        "Right after a production you may put 1 drop from the supply into another of your own "
        "dams that has room (never a neutral dam, never the dam just used). It does not flow."
    ),
}

OFFICER_TEXT = {
    "wilhelm_adler": (
        "Every Base you build costs 3 excavators in any area. Elevations cost as usual and a "
        "red outline still costs 3 credits."
    ),
    "elon_audia": (
        "Begins without excavators or mixers but with 8 excamixers, each usable as either kind "
        "of machinery."
    ),
    "tommaso_battista": (
        "One of the 12 engineers is the Architect. Placed alone on a space that needs exactly "
        "one engineer, it gives you another turn at once; with other engineers it is a plain "
        "engineer."
    ),
    "graziano_del_monte": "Your level-3 dams hold 4 drops; lower levels hold the usual amount.",
    "viktor_fiesler": (
        "When a production's drops times conduit value is below 4, count it as 4, then add the "
        "bonuses and maluses."
    ),
    "margot_fouche": (
        "Her tile has a 1-engineer action space that runs the action of any Private Building you "
        "have activated, so one building's action can be used twice in a round."
    ),
    "gennaro_grasso": (
        "Adds a fifth construction action space, once per round, used like those on the company "
        "board."
    ),
    "solomon_p_jordan": (
        "When building, pay 3 credits in place of any machinery, as often as you like; those "
        "credits go to the general supply, not onto the wheel."
    ),
    "anton_krylov": (
        "Owns a special technology tile that, when building, imitates another technology tile "
        "on his wheel: what it builds and its effect."
    ),
    "simone_luciani": (
        "Holds up to 4 face-up contracts instead of 3, and one production may fulfil several "
        "contracts when its energy covers their total."
    ),
    "jill_mcdowell": (
        "May pay for a conduit entirely in mixers, 1 per production point; one conduit is never "
        "paid with both kinds."
    ),
    "mahiri_sekibo": (
        "Her tile's action space (1 engineer; 3 credits more the second time in a round) lends "
        "her another officer's ability for the rest of the turn, followed by a normal action. "
        "She may copy the other companies' officers and, at 2 or 3 players, the spare officers "
        "drawn at setup, so three are always on offer."
    ),
    "leslie_spencer": (
        "Owns a special tile. For an External Work she may put its machineries on her wheel with "
        "that tile and turn the wheel one segment, getting them back later, instead of "
        "discarding them; not while the tile is on the wheel."
    ),
    "wu_fang": (
        "Action space (1 engineer): produce as much energy as your dams hold drops, moving none "
        "and taking no bonus; it may fulfil a contract."
    ),
    "dr_octavius": (
        "When a production uses one of your powerhouses, its drops may come from several "
        "connected dams, yours or neutral ones."
    ),
    "amir_zahir": (
        "Drops you put on headstreams may flow at once, chosen drop by drop; drops that would "
        "flow at once may instead go straight into one of your dams with room."
    ),
}

COPY_RULE_TEXT = {
    "leslie_spencer": (
        "no special tile needed: the External Work's machineries go to the open wheel segment "
        "and the wheel turns 1"
    ),
    "margot_fouche": (
        "an engineer on the Bank (no credit) performs the action of a Private Building you "
        "activated"
    ),
    "simone_luciani": (
        "Contract Office: the limit is 4 until a contract is fulfilled; Turbine Station: that "
        "production may fulfil several contracts"
    ),
    "tommaso_battista": "one of your engineers may serve as the Architect",
}

TILE_TEXT = {
    "basic_base": "Builds a Base.",
    "basic_elevation": "Builds an Elevation.",
    "basic_conduit": "Builds a Conduit.",
    "basic_powerhouse": "Builds a Powerhouse.",
    "basic_wild": "Builds any structure (introductory game only).",
    "basic_building": "Builds a Private Building (The Leeghwater Project).",
    "adv_1_base": (
        "Then each of your dams holding no water gets 1 drop from the supply; neutral dams and "
        "dams with water get none."
    ),
    "adv_1_elevation": (
        "Then turn your wheel 1 segment per Elevation you have built, this one included."
    ),
    "adv_1_conduit": "Then take credits worth twice the new conduit's production value.",
    "adv_1_powerhouse": (
        "Builds a Powerhouse with no engineers on a construction space; machinery and red-outline "
        "credits are still due. Usable as a last action with no engineers left."
    ),
    "adv_1_wild": (
        "Builds any structure and skips the 3 credits of a red-outlined map space (a red "
        "construction action space still costs 3)."
    ),
    "adv_1_building": (
        "Then you may use the action of the Private Building just activated at once, without "
        "engineers, paying any credits its action shows."
    ),
    "adv_2_base": (
        "Then produce energy equal to your Bases built, this one included; it may fulfil one "
        "private contract (not a national one)."
    ),
    "adv_2_elevation": "Then fill the dam just raised to capacity with drops from the supply.",
    "adv_2_conduit": "The conduit never costs more than 5 excavators.",
    "adv_2_powerhouse": (
        "Then you may produce with +2 using any of your powerhouses at no extra cost; your board "
        "bonus and abilities apply as usual."
    ),
    "adv_2_wild": (
        "Builds any structure; excavators and mixers stand in for each other freely in its cost."
    ),
    "adv_2_building": (
        "Pay only one of the two machinery kinds a Private Building costs, your choice; a "
        "one-kind cost becomes free."
    ),
    "adv_3_base": (
        "Builds a Base with no engineers on a construction space and no excavators on the wheel; "
        "red-outline credits still apply. Usable as a last action with no engineers left."
    ),
    "adv_3_elevation": "Then score 3 VP per dam of yours at level 2 or higher.",
    "adv_3_conduit": (
        "Then produce energy equal to twice the new conduit's production value; it may fulfil one "
        "private contract."
    ),
    "adv_3_powerhouse": "Then score 3 VP per Powerhouse you have built, this one included.",
    "adv_3_wild": (
        "Builds any structure, then scores 3 VP per Advanced Technology tile you own (supply and "
        "wheel, this one included)."
    ),
    "adv_3_building": (
        "Then score the end-game VP of the Private Building just activated at once; it scores "
        "again at the end."
    ),
    "anton_tile": (
        "When building, pick another technology tile on your wheel: this tile builds what that "
        "one builds, with its effect, then goes onto the wheel."
    ),
    "leslie_tile": (
        "Builds nothing. Lets an External Work's machineries go onto your wheel with this tile, "
        "turning it 1, instead of being discarded."
    ),
}

BONUS_TEXT = {
    "contracts": "each contract you have fulfilled, national ones included",
    "bases": "each Base you have built",
    "elevations": "each Elevation you have built",
    "conduits": "each Conduit you have built",
    "powerhouses": "each Powerhouse you have built",
    "advanced_tiles": (
        "each Advanced Technology tile you own, in supply or on the wheel (basic and officer "
        "tiles excluded)"
    ),
    "external_works": "each External Work you have completed, Loan Agency ones included",
    "buildings": "each Private Building you have activated",
    "bridges": "each Bridge you have built",
    "irrigation_tokens": "each irrigation token you hold",
}

OBJECTIVE_TEXT = {
    "red_outlined_spaces": "your Bases and Powerhouses standing on red-outlined map spaces",
    "most_in_one_area": "your structures of any kind in the area where you have the most",
    "connected_systems": (
        "your dams joined by your own conduit to your own powerhouse at its end; each dam "
        "counts once"
    ),
    "fewest_in_one_area": (
        "your structures in the area where you have the fewest (more is better)"
    ),
    "basins_with_one": (
        "basins holding at least one of your structures (12 at most on the base map)"
    ),
    "basins_with_three": "basins holding at least three of your structures",
    "dams_with_bridge": "the Bases and Elevations of your dams that carry a Bridge",
    "dams_on_irrigated_basins": (
        "your Bases and Elevations in basins connected to an irrigation zone"
    ),
}

BUILDING_TEXT = {
    "cofferdam": (
        "Put 1 drop from the supply straight into a neutral dam or one of yours with room."
    ),
    "control_station": "Produce with +3; your board bonus and company ability apply.",
    "customer_office": "Pay 3 credits to fulfil one face-up contract you hold without producing.",
    "development_office": (
        "Take one technology tile off your wheel back to your supply; the machineries of its "
        "segment stay."
    ),
    "energy_relay_field": "Pay 1 credit to move your energy marker 4 steps (never for a contract).",
    "financial_division": "Take 5 credits.",
    "loan_agency": (
        "Complete a face-up External Work paying 2 credits per machinery it shows instead of "
        "the machineries; it counts as completed."
    ),
    "research_lab": (
        "Pick a wheel segment and take back half its machineries, rounded down, your choice."
    ),
    "robot_factory": "Pay 1 credit to take 2 machineries in any mix.",
    "wind_farm": "Pay 2 credits to produce 5 energy, which may fulfil one private contract.",
}

# ---------------------------------------------------------------------------------------------
# Reading the reference
# ---------------------------------------------------------------------------------------------

HEADER_RE = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
KEY_RE = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")
MARK_RE = re.compile(r"#\s*(from text|reconstructed)")


def load(ref: Path, name: str) -> dict[str, Any]:
    """Parse one reference file."""
    with open(ref / name, "rb") as fh:
        return tomllib.load(fh)


def markers(ref: Path, name: str) -> dict[tuple[tuple[str, ...], int], dict[str, str]]:
    """Map (table path, row index) -> {key: "text" | "reconstructed"} from trailing comments."""
    out: dict[tuple[tuple[str, ...], int], dict[str, str]] = {}
    counts: dict[tuple[str, ...], int] = {}
    current: tuple[tuple[str, ...], int] = ((), 0)
    for line in (ref / name).read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("#") or not line.strip():
            continue
        header = HEADER_RE.match(line)
        if header:
            path = tuple(header.group(2).split("."))
            if header.group(1) == "[[":
                counts[path] = counts.get(path, -1) + 1
                current = (path, counts[path])
            else:
                current = (path, 0)
            continue
        key = KEY_RE.match(line)
        mark = MARK_RE.search(line)
        if key and mark:
            kind = "text" if mark.group(1) == "from text" else "reconstructed"
            out.setdefault(current, {})[key.group(1)] = kind
    return out


def attach_provenance(
    doc: dict[str, Any], marks: dict[tuple[tuple[str, ...], int], dict[str, str]]
) -> None:
    """Add a `provenance` inline table to every marked table or row of `doc`."""
    for (path, index), fields in marks.items():
        node: Any = doc
        for depth, part in enumerate(path):
            node = node[part]
            if isinstance(node, list):
                node = node[index] if depth == len(path) - 1 else node[-1]
        if path == ():
            continue
        node["provenance"] = dict(fields)


# ---------------------------------------------------------------------------------------------
# Writing TOML (stdlib has a reader only). Enough for our data: str, int, bool, lists, tables.
# ---------------------------------------------------------------------------------------------

BARE_KEY = re.compile(r"^[A-Za-z0-9_\-]+$")


def fmt_key(key: str) -> str:
    """A bare key when possible, else a quoted one."""
    return key if BARE_KEY.match(key) else fmt_value(key)


def fmt_value(value: Any) -> str:
    """One value in inline form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(fmt_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{fmt_key(k)} = {fmt_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r}")


def is_table_array(value: Any) -> bool:
    """Lists of tables are written as [[...]] blocks at table level."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def write_table(lines: list[str], path: str, table: dict[str, Any], notes: dict[str, str]) -> None:
    """Write the plain keys of `table`, then its sub-tables and arrays of tables."""
    for key, value in table.items():
        if isinstance(value, dict) and not _inline(value):
            continue
        if is_table_array(value) and not _inline_array(value):
            continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append(f"{fmt_key(key)} = [")
            lines.extend(f"  {fmt_value(v)}," for v in value)
            lines.append("]")
        else:
            lines.append(f"{fmt_key(key)} = {fmt_value(value)}")
    for key, value in table.items():
        sub = f"{path}.{key}" if path else key
        if isinstance(value, dict) and not _inline(value):
            lines.append("")
            _note(lines, sub, notes)
            lines.append(f"[{sub}]")
            write_table(lines, sub, value, notes)
        elif is_table_array(value) and not _inline_array(value):
            lines.append("")
            _note(lines, sub, notes)
            for row in value:
                lines.append(f"[[{sub}]]")
                write_table(lines, sub, row, notes)
                lines.append("")
            lines.pop()


def _note(lines: list[str], path: str, notes: dict[str, str]) -> None:
    """Write the comment block for a table path, if any."""
    if path in notes:
        lines.extend(f"# {line}".rstrip() for line in notes[path].strip().splitlines())


def _inline(table: dict[str, Any]) -> bool:
    """Tables marked Inline (rewards, costs, provenance) stay inline."""
    return isinstance(table, Inline)


def _inline_array(rows: list[Any]) -> bool:
    """Arrays of tables that stay inline (e.g. incomes, action spaces)."""
    return isinstance(rows, InlineList)


class Inline(dict):
    """A table written inline."""


class InlineList(list):
    """An array of tables written as an inline array."""


def inline_all(value: Any) -> Any:
    """Mark every nested table of a value inline (for rows' small tables)."""
    if isinstance(value, dict):
        return Inline({k: inline_all(v) for k, v in value.items()})
    if isinstance(value, list):
        items = [inline_all(v) for v in value]
        return InlineList(items) if items and all(isinstance(v, dict) for v in items) else items
    return value


def row(fields: dict[str, Any]) -> dict[str, Any]:
    """A row whose nested tables are inline."""
    return {k: inline_all(v) for k, v in fields.items()}


def dump(
    out: Path, name: str, header: str, doc: dict[str, Any], notes: dict[str, str] | None = None
) -> None:
    """Write one data file and check it parses back to the same data."""
    lines = [f"# {line}".rstrip() for line in header.strip().splitlines()]
    lines.append("")
    write_table(lines, "", doc, notes or {})
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).rstrip() + "\n"
    (out / name).write_text(text, encoding="utf-8")
    assert tomllib.loads(text) == _plain(doc), f"{name}: written TOML does not round-trip"


def _plain(value: Any) -> Any:
    """Drop marker types for comparison."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------
# File builders
# ---------------------------------------------------------------------------------------------

MAP_HEADER = """\
Map {id}: topology, building spaces and costs. Ids are the reference's (README "Id conventions").
Water entering a basin passes its powerhouse spaces, then the upper dam space, then the lower dam
space, then follows river_to to the next basin or an exit. A drop stops in the first built dam
that still has room; unbuilt spaces and full dams let it pass.
Tables: [map], [[headstream]] (feeds_basin), [[basin]], [[dam_space]], [[conduit_space]]
(a conduit carries water from either dam of from_basin to any powerhouse space of to_basin),
[[powerhouse_space]], [neutral_dams] with [[neutral_dams.area]] (one neutral dam per area on a
random candidate space at setup).{extra}"""

RECON_NOTE = """
This map is RECONSTRUCTED from the expansion rulebook (no printed board is available as data).
Every table and row has `provenance`: field -> "text" (stated by the rule texts) or
"reconstructed" (inferred or designed; overwrite from the real board when known)."""


def build_map(ref: Path, out: Path, src: str, dst: str, reconstructed: bool) -> dict[str, Any]:
    """One map file; returns the reference document for cross-checks."""
    doc = load(ref, src)
    if reconstructed:
        attach_provenance(doc, markers(ref, src))
    # The river table repeats river_to; check it and keep river_to only.
    rivers = {(r["from"]): r["to"] for r in doc.pop("river")}
    for b in doc["basin"]:
        assert rivers[b["id"]] == b["river_to"], (src, b["id"])
    for h in doc["headstream"]:
        assert rivers[h["id"]] == h["feeds_basin"], (src, h["id"])
    assert len(rivers) == len(doc["basin"]) + len(doc["headstream"])
    m = doc["map"]
    m.setdefault("set", "base" if m["id"] == "base" else m["id"])
    m["reconstructed"] = reconstructed
    order = ["id", "set", "reconstructed"]
    new_map = {k: m[k] for k in order} | {k: v for k, v in m.items() if k not in order}
    if not reconstructed:
        new_map.pop("provenance", None)
    result: dict[str, Any] = {"map": row(new_map)}
    for table in doc:
        if table == "map":
            continue
        value = doc[table]
        if isinstance(value, list):
            if table == "headstream_tile":
                continue  # written to headstream_tiles.toml
            result[table] = [row(r) for r in value]
        else:
            sub = {
                k: v for k, v in value.items() if not isinstance(v, list) or not is_table_array(v)
            }
            sub = row(sub)
            for k, v in value.items():
                if is_table_array(v):
                    sub[k] = [row(r) for r in v]
            result[table] = sub
    extra = ""
    if reconstructed:
        extra = RECON_NOTE
        features = [
            t
            for t in result
            if t
            not in {
                "map",
                "headstream",
                "basin",
                "dam_space",
                "conduit_space",
                "powerhouse_space",
                "neutral_dams",
            }
        ]
        extra += "\nExpansion tables kept for later rules: " + ", ".join(features) + "."
    dump(out, dst, MAP_HEADER.format(id=m["id"], extra=extra), result)
    return doc


def build_headstream_tiles(ref: Path, out: Path) -> None:
    """The 8 headstream tiles (base and 4/5-player maps)."""
    doc = load(ref, "base_map.toml")
    tiles = [
        row({"id": t["id"], "drops_per_round": t["drops_per_round"]})
        for t in doc["headstream_tile"]
    ]
    dump(
        out,
        "headstream_tiles.toml",
        """\
Headstream tiles: one lies on each headstream of the base and 4/5-player maps (drawn at setup).
drops_per_round lists the drops added in rounds 1 to 4; none are added in round 5.""",
        {"headstream_tile": tiles},
    )


def build_companies(ref: Path, out: Path) -> None:
    """Company boards, the common board, construction spaces and introductory matchups."""
    doc = load(ref, "companies.toml")
    c = doc["common"]
    track = {t["after_piece"]: t for t in c["powerhouse_track"]}
    common = {
        "pieces": Inline(c["pieces"]),
        "starting_resources": Inline(c["starting_resources"]),
        "starting_vp": c["starting_vp"],
        "income_after_piece": c["income_after_piece"],
        "fifth_piece_income": Inline(c["fifth_piece_income"]),
        # after n powerhouses -> permanent production bonus added (2 -> +1, 4 -> +2 more)
        "powerhouse_bonus_after": Inline(
            {str(k): t["value"] for k, t in track.items() if t["effect"] == "production_bonus"}
        ),
        "ability_after_powerhouses": next(
            k for k, t in track.items() if t["effect"] == "special_ability"
        ),
        # The reference file places this key after [[common.powerhouse_track]], so TOML puts it
        # in the last track row; it is a board-wide fact.
        "powerhouse_cost_mixers": c["powerhouse_track"][-1]["powerhouse_cost_mixers_by_ordinal"],
    }
    companies = []
    for co in doc["company"]:
        companies.append(
            row(
                {
                    "id": co["id"],
                    "impl_id": co["impl_id"],
                    "name": co["name"],
                    "set": co["set"],
                    "color": co["color"],
                    "color_hex": co["color_hex"],
                    "ability_key": co["special_ability_key"],
                    "ability_text": COMPANY_TEXT[co["id"]],
                    "income": co["income"],
                }
            )
        )
    result = {
        "common": common,
        "construction_space": [row(s) for s in doc["construction_space"]],
        "company": companies,
        "introductory_matchup": [row(m) for m in doc["introductory_matchup"]],
    }
    dump(
        out,
        "companies.toml",
        """\
Company boards.
[common]: what every board shares. income_after_piece: an income space is uncovered by the 2nd,
4th and 5th piece of a track; every uncovered income pays in every income phase, and also at
once when it is uncovered. powerhouse_bonus_after: after building n powerhouses the permanent
production bonus grows by the value (keys are piece counts). The company ability works from the
ability_after_powerhouses-th powerhouse on. powerhouse_cost_mixers: cost of the 1st..4th.
[[construction_space]]: the four construction action spaces of each board, used left to right.
[[company]]: income = {track, after_piece, reward} with the reward vocabulary of content.py.
[[introductory_matchup]]: the fixed company / officer / starting contract sets of the
introductory game.""",
        result,
    )


def build_officers(ref: Path, out: Path) -> None:
    """Executive Officers."""
    doc = load(ref, "officers.toml")
    rows = []
    for o in doc["officer"]:
        r: dict[str, Any] = {
            "id": o["id"],
            "impl_id": o["impl_id"],
            "name": o["name"],
            "set": o["set"],
            "implemented": o["implemented"].split(" ")[0],
            "ability_text": OFFICER_TEXT[o["id"]],
            "starting_resources": o["starting_resources"],
        }
        for key in ("personal_action_spaces", "special_tiles", "special_pieces", "contract_limit"):
            if key in o:
                r[key] = o[key]
        if "copy_rules" in o:
            r["copy_rules"] = [
                {"officer": cr["officer"], "rule": COPY_RULE_TEXT[cr["officer"]]}
                for cr in o["copy_rules"]
            ]
        rows.append(row(r))
    dump(
        out,
        "officers.toml",
        """\
Executive Officers. set: "base", "leeghwater", or "other" (described by the reference's source
but never dealt there; their numbers are partly unknown). implemented: "always", "with" (an
option or expansion) or "never". personal_action_spaces: action spaces printed on the officer
tile. contract_limit: face-up contract limit when not 3. copy_rules: how Mahiri copies the
Leeghwater officers.""",
        {"officer": rows},
    )


def build_tiles(ref: Path, out: Path) -> None:
    """Technology tiles in one table with a `kind`."""
    doc = load(ref, "technology_tiles.toml")
    rows = []
    for t in doc["basic_tile"]:
        rows.append(
            row(
                {
                    "id": t["id"],
                    "kind": "basic",
                    "builds": t["builds"],
                    "set": "leeghwater" if t["games"] == "leeghwater_only" else "base",
                    "games": t["games"],
                    "engineer_free": False,
                    "effect_text": TILE_TEXT[t["id"]],
                }
            )
        )
    for t in doc["advanced_tile"]:
        rows.append(
            row(
                {
                    "id": t["id"],
                    "kind": "advanced",
                    "builds": t["builds"],
                    "level": t["level"],
                    "set": t["set"],
                    "engineer_free": t.get("engineer_free", False),
                    "effect_text": TILE_TEXT[t["id"]],
                }
            )
        )
    for t in doc["special_tile"]:
        rows.append(
            row(
                {
                    "id": t["id"],
                    "kind": "special",
                    "builds": t["builds"],
                    "set": "leeghwater" if t["officer"] == "leslie_spencer" else "base",
                    "officer": t["officer"],
                    "engineer_free": False,
                    "counts_as_advanced": t["counts_as_advanced_for_bonus"],
                    "effect_text": TILE_TEXT[t["id"]],
                }
            )
        )
    dump(
        out,
        "technology_tiles.toml",
        """\
Technology tiles. kind: basic (every company), advanced (Patent Office piles I-III = level 1-3),
special (an officer's own tile). builds: base | elevation | conduit | powerhouse | building | any,
or copy / nothing for the officers' tiles. games (basic tiles): all | introductory_only |
leeghwater_only. engineer_free: the build needs no engineers on a construction space.
A tile used to build goes onto the construction wheel and comes back after a full turn.""",
        {"wheel": {"segments": doc["wheel"]["segments"]}, "tile": rows},
    )


def build_contracts(ref: Path, out: Path) -> None:
    """Starting, national and private contracts in one table."""
    doc = load(ref, "contracts.toml")
    rows = []
    for kind in ("starting", "national", "green", "yellow", "red"):
        for c in doc[f"{kind}_contract"]:
            rows.append(
                row(
                    {
                        "id": c["id"],
                        "kind": kind,
                        "energy": c["energy"],
                        "reward": c["reward"],
                        "set": "base",
                    }
                )
            )
    s = doc["setup"]
    setup = {
        "national_contracts_drawn": "companies_minus_1",
        "face_up_per_private_level": s["face_up_per_private_level"],
        "face_up_limit_in_hand": s["face_up_limit_in_hand"],
        "starting_contracts_pool": s["starting_contracts_pool"],
    }
    assert s["national_contracts_drawn"] == "companies - 1"
    dump(
        out,
        "contracts.toml",
        """\
Contracts. kind: starting (1-4), national (100-105), green (2xx), yellow (3xx), red (4xx).
energy: what one production (or an effect that says it may fulfil a contract) must reach.
reward: the reward vocabulary of content.py, applied in the written order.""",
        {"setup": setup, "contract": rows},
    )


def build_bonus_objectives(ref: Path, out: Path) -> None:
    """Bonus tiles and objective tiles."""
    bonus = load(ref, "bonus_tiles.toml")
    rows = []
    for b in bonus["bonus_tile"]:
        r = {
            "id": b["id"],
            "set": b["set"],
            "vp_each": b["vp_each"],
            "counts_text": BONUS_TEXT[b["id"]],
            "in_introductory_game": b["in_introductory_game"],
        }
        if "impl_id" in b:
            r["impl_id"] = b["impl_id"]
        rows.append(row(r))
    dump(
        out,
        "bonus_tiles.toml",
        """\
Bonus tiles: one scored per round, vp_each for each thing counted. Filter by set; the Colorado and
Nile tiles belong to those expansions only. The reduction per energy section behind is in
energy_track.toml.""",
        {"bonus_tile": rows},
    )
    obj = load(ref, "objective_tiles.toml")
    rows = []
    for o in obj["objective_tile"]:
        r = {"id": o["id"], "set": o["set"], "counts_text": OBJECTIVE_TEXT[o["id"]]}
        if "impl_id" in o:
            r["impl_id"] = o["impl_id"]
        rows.append(row(r))
    sc = obj["scoring"]
    assert sc["ties"].startswith("sum the VP of the tied places")
    dump(
        out,
        "objective_tiles.toml",
        """\
Objective tiles: one scored at the end of the game; higher counts rank first on every tile.
Tied companies add up the VP of the places they occupy and share it equally, rounding up.""",
        {
            "scoring": {
                "vp_by_place": sc["vp_by_place"],
                "vp_by_place_automa": sc["vp_by_place_automa"],
                "ties": "split_rounded_up",
            },
            "objective_tile": rows,
        },
    )


def build_energy_track(ref: Path, out: Path) -> None:
    """Energy track: credits, sections, placement awards."""
    doc = load(ref, "energy_track.toml")
    pa = doc["placement_award"]
    assert pa["tie_first_rounding"] == "up"
    result = {
        "track": {"flip_at": doc["track"]["flip_at"], "spaces_drawn": doc["track"]["spaces_drawn"]},
        "credit_threshold": [
            row(
                {
                    "min_energy": t["min_energy"],
                    **({"max_energy": t["max_energy"]} if "max_energy" in t else {}),
                    "credits": t["credits"],
                    "vp": t.get("vp", 0),
                }
            )
            for t in doc["credit_threshold"]
        ],
        "bonus_sections": {
            "minimum_energy_for_any_bonus": doc["bonus_sections"]["minimum_energy_for_any_bonus"],
            "malus_per_section_behind": doc["bonus_sections"]["malus_per_section_behind"],
            "section": [row(s) for s in doc["bonus_sections"]["section"]],
        },
        "placement_award": row(
            {
                "first_vp": pa["first_vp"],
                "second_vp": pa["second_vp"],
                "requires_energy_at_least": pa["requires_energy_at_least"],
                "tie_first_total_vp": pa["tie_first_total_vp"],
                "tie_first_rounding": "up",
                "tie_second_vp_each": pa["tie_second_vp_each"],
            }
        ),
        "turn_order": {"by": "energy_ascending", "ties": "reverse_previous_order"},
        "tile_slots": dict(doc["tile_slots"]),
    }
    dump(
        out,
        "energy_track.toml",
        """\
Energy track (energy produced this round). [[credit_threshold]]: credits and VP for the band the
marker ends in (no max_energy = open-ended; 0 energy gives 3 credits and -3 VP). Past flip_at the
marker counts as flip_at for credits and bonus tiles. [bonus_sections]: the round-r section
starts at 6r; below the minimum no bonus at all, and each section behind costs the malus.
[placement_award]: first and second place each round and how ties share. [turn_order]: least
energy goes first; ties reverse their previous order.""",
        result,
    )


def build_management(ref: Path, out: Path) -> None:
    """Management board and Patent Office spaces, in board order."""
    doc = load(ref, "management_board.toml")
    rows = []
    for s in doc["space"]:
        r = {
            "id": s["id"],
            "impl_uid": s["impl_uid"],
            "section": s["section"],
            "row": s["row"],
            "side": s["side"],
            "engineers": s["engineers"],
            "red_outline": s["red_outline"],
            "extra_credits": s["extra_credits"],
            "action_cost": s["action_cost"],
            "effect": s["effect"],
        }
        for key in ("min_companies", "exclusive", "not_in_introductory_game"):
            if key in s:
                r[key] = s[key]
        rows.append(row(r))
    counts = doc["space_count_by_companies"]
    dump(
        out,
        "management_board.toml",
        """\
Management board and Patent Office action spaces, in board order. Each row of a section has a
left space and a right (second-chance) space. engineers = 0 means any number (the Bank, the only
non-exclusive space). red_outline spaces also cost extra_credits; action_cost is the price printed
in the action symbol. min_companies: the space exists only with at least that many companies
(automas count; default 2). not_in_introductory_game: the Patent Office.
[space_count_by_companies]: exclusive spaces (Bank excluded) in play for 2/3/4 companies.""",
        {"space_count_by_companies": dict(counts), "space": rows},
    )


def build_constants(ref: Path, out: Path) -> None:
    """Game constants: costs, limits, production, setup, end of game."""
    doc = load(ref, "game_constants.toml")
    g, cost = doc["game"], doc["cost"]
    prod, setup, end = doc["production"], doc["setup"], doc["end_game"]
    result = {
        "game": {
            "rounds": g["rounds"],
            "companies_min": g["companies_min"],
            "companies_max": g["companies_max"],
            "phases": g["phases"],
        },
        "cost": {
            "base": row(
                {
                    "machinery": cost["base"]["machinery"],
                    "by_area": cost["base"]["by_area"],
                    "red_outline_extra_credits": cost["base"]["red_outline_extra_credits"],
                }
            ),
            "elevation": row(
                {
                    "machinery": cost["elevation"]["machinery"],
                    "by_area": cost["elevation"]["by_area"],
                    "red_outline_extra_credits": cost["elevation"]["red_outline_extra_credits"],
                    "max_per_base": cost["elevation"]["max_per_base"],
                }
            ),
            "conduit": row(
                {
                    "machinery": cost["conduit"]["machinery"],
                    "per_production_point": cost["conduit"]["per_production_point"],
                    "red_outline_extra_credits": cost["conduit"]["red_outline_extra_credits"],
                }
            ),
            "powerhouse": row(
                {
                    "machinery": cost["powerhouse"]["machinery"],
                    "by_ordinal": cost["powerhouse"]["by_ordinal"],
                    "red_outline_extra_credits": cost["powerhouse"]["red_outline_extra_credits"],
                }
            ),
            "building": {
                "red_outline_extra_credits": cost["building"]["red_outline_extra_credits"]
            },
        },
        "placement_limits": dict(doc["placement_limits"]),
        "dams": {"capacity_by_level": doc["dams"]["capacity_by_level"]},
        "production": {
            "minimum_energy": prod["minimum_energy"],
            "foreign_conduit_fee_credits_per_drop": prod["foreign_conduit_fee_credits_per_drop"],
            "foreign_conduit_owner_vp_per_drop": prod["foreign_conduit_owner_vp_per_drop"],
            "contracts_per_production": prod["contracts_per_production"],
        },
        "setup": {
            "headstream_tiles_in_box": 8,
            "bonus_tiles_drawn": setup["bonus_tiles_drawn"],
            "objective_tiles_drawn": setup["objective_tiles_drawn"],
            "national_contracts": "companies_minus_1",
            "private_contracts_face_up_per_level": setup["private_contracts_face_up_per_level"],
            "advanced_tiles_face_up": setup["advanced_tiles_face_up"],
            "starting_vp": setup["starting_vp"],
        },
        "end_game": {
            "objective_tile_vp": end["objective_tile_vp"],
            "resources_per_vp": end["resources_per_vp"],
            "vp_per_drop_in_own_dams": end["vp_per_drop_in_own_dams"],
            "order": end["order"],
        },
        "wheel": {"segments": 6},
    }
    assert setup["national_contracts"] == "companies - 1"
    dump(
        out,
        "game_constants.toml",
        """\
Game constants. [cost]: machinery per structure (base and elevation by area, conduit per
production point, powerhouse by how many you have built) and the red-outline credits. An
Elevation never pays the red-outline fee. [dams]: capacity by level (Graziano: level 3 holds 4).
[production]: a production must make at least minimum_energy; water through another company's
conduit pays its owner 1 credit and 1 VP per drop. [end_game]: objective 15/10/5, 1 VP per
resources_per_vp credits+machineries in supply (not on the wheel), 1 VP per drop in dams whose
Base is yours; ties broken by the last round's energy.""",
        result,
    )


def build_leeghwater(ref: Path, out: Path) -> None:
    """The Leeghwater Project: setup, External Works, Private Buildings, spaces."""
    doc = load(ref, "leeghwater.toml")
    s = doc["setup"]
    setup = {k: v for k, v in s.items() if k != "each_company_gets"}
    setup["building_pieces_per_company"] = 5
    setup["basic_tile_added"] = "basic_building"
    setup["external_works_discard_and_draw"] = doc["round_refresh"][
        "external_works_discard_and_draw"
    ]
    works = [
        row(
            {
                "id": w["id"],
                "impl_id": w["impl_id"],
                "pile": w["pile"],
                "cost": w["cost"],
                "reward": w["reward"],
                "set": "leeghwater",
            }
        )
        for w in doc["external_work"]
    ]
    buildings = [
        row(
            {
                "id": b["id"],
                "name": b["name"],
                "set": "leeghwater",
                "cost": b["cost"],
                "vp": b["vp"],
                "action_text": BUILDING_TEXT[b["id"]],
                "action_effect": b["action_effect"],
                "action_spaces": b["action_spaces"],
            }
        )
        for b in doc["private_building"]
    ]
    dump(
        out,
        "leeghwater.toml",
        """\
The Leeghwater Project. [setup]: what the expansion adds. [[external_work_space]]: the three
External Work spaces (one per face-up tile). [[external_work]]: cost = machineries paid from your
supply, reward = reward vocabulary. [[private_building]]: cost, end-game vp, the action's effect
and its four action spaces [left, right, right, right] as {engineers, extra_credits}; the first
user in a round takes the left one. [[building_space]]: the four spaces beside each building
tile where Building pieces go; min_players as in the reference (uncertain at 2-3 players).
The Heliport and Pumping Station live in colorado.toml and nile.toml.""",
        {
            "setup": row(setup),
            "external_work_space": [row(w) for w in doc["external_work_space"]],
            "external_work": works,
            "private_building": buildings,
            "building_space": [row(b) for b in doc["building_space"]],
        },
    )


def build_expansion(ref: Path, out: Path, name: str, title: str) -> None:
    """Colorado / Nile rules tables, kept whole with their provenance marks."""
    doc = load(ref, name)
    attach_provenance(doc, markers(ref, name))
    result: dict[str, Any] = {}
    for table, value in doc.items():
        if isinstance(value, list):
            rows = []
            for r in value:
                r = dict(r)
                # A structured effect carries the fact; the prose copy is dropped (labels are
                # rendered from the effect).
                if "text" in r and _has_effect(r):
                    r.pop("text")
                    r.get("provenance", {}).pop("text", None)
                rows.append(row(r))
            result[table] = rows
        else:
            # A nested table with its own provenance was a [a.b] header; others were inline.
            sub = {}
            for k, v in value.items():
                is_header = isinstance(v, dict) and "provenance" in v
                sub[k] = row(v) if is_header else inline_all(v)
            result[table] = sub
    dump(
        out,
        name,
        f"""\
{title}: setup and rules tables, kept for the expansion's own issue. Largely RECONSTRUCTED:
every table and row has `provenance` (field -> "text" | "reconstructed"). Filter by set.""",
        result,
    )


# ---------------------------------------------------------------------------------------------
# Verification: re-read both sides and compare the facts the transforms carried over.
# ---------------------------------------------------------------------------------------------


def _strip_provenance(value: Any) -> Any:
    """The data without provenance tables."""
    if isinstance(value, dict):
        return {k: _strip_provenance(v) for k, v in value.items() if k != "provenance"}
    if isinstance(value, list):
        return [_strip_provenance(v) for v in value]
    return value


def verify(ref: Path, out: Path) -> None:
    """Fail loudly if a written file lost or changed a fact of the reference."""

    def ours(name: str) -> dict[str, Any]:
        return _strip_provenance(load(out, name))

    for name in ("base_map.toml", "five_player_map.toml", "colorado_map.toml", "nile_map.toml"):
        theirs, mine = load(ref, name), ours(name)
        for table, value in theirs.items():
            if table in ("river", "headstream_tile"):
                continue  # checked against river_to / written to headstream_tiles.toml
            if table == "map":
                assert all(mine["map"][k] == v for k, v in value.items()), (name, table)
            else:
                assert _strip_provenance(value) == mine[table], (name, table)
    for name in ("colorado.toml", "nile.toml"):
        theirs, mine = load(ref, name), ours(name)
        for table, value in theirs.items():
            if isinstance(value, list):
                value = [
                    {k: v for k, v in r.items() if not (k == "text" and _has_effect(r))}
                    for r in value
                ]
            assert _strip_provenance(value) == mine[table], (name, table)
    theirs = load(ref, "contracts.toml")
    facts = {
        c["id"]: (c["energy"], c["reward"])
        for k, v in theirs.items()
        if k.endswith("_contract")
        for c in v
    }
    assert facts == {
        c["id"]: (c["energy"], c["reward"]) for c in ours("contracts.toml")["contract"]
    }
    assert load(ref, "management_board.toml")["space"] == ours("management_board.toml")["space"]
    lwp, mine = load(ref, "leeghwater.toml"), ours("leeghwater.toml")
    assert lwp["external_work"] == [
        {k: v for k, v in w.items() if k != "set"} for w in mine["external_work"]
    ]
    keys = ("id", "name", "cost", "vp", "action_effect", "action_spaces")
    assert [[b[k] for k in keys] for b in lwp["private_building"]] == [
        [b[k] for k in keys] for b in mine["private_building"]
    ]
    assert lwp["building_space"] == mine["building_space"]
    assert lwp["external_work_space"] == mine["external_work_space"]
    comp, mine = load(ref, "companies.toml"), ours("companies.toml")
    for table in ("construction_space", "introductory_matchup"):
        assert comp[table] == mine[table], table
    assert [c["income"] for c in comp["company"]] == [c["income"] for c in mine["company"]]
    keys = (
        "id",
        "impl_id",
        "name",
        "set",
        "starting_resources",
        "personal_action_spaces",
        "special_tiles",
        "special_pieces",
        "contract_limit",
    )
    officers = zip(
        load(ref, "officers.toml")["officer"], ours("officers.toml")["officer"], strict=True
    )
    assert all(o.get(k) == m.get(k) for o, m in officers for k in keys)
    tiles = {t["id"]: t for t in ours("technology_tiles.toml")["tile"]}
    for kind, rows in load(ref, "technology_tiles.toml").items():
        for t in rows if isinstance(rows, list) else []:
            for key in ("builds", "level", "set", "engineer_free", "games"):
                assert key not in t or tiles[t["id"]][key] == t[key], (kind, t["id"], key)
    energy, mine = load(ref, "energy_track.toml"), ours("energy_track.toml")
    assert [{**t, "vp": t.get("vp", 0)} for t in energy["credit_threshold"]] == mine[
        "credit_threshold"
    ]
    assert energy["bonus_sections"] == mine["bonus_sections"]
    keys = ("id", "set", "vp_each", "in_introductory_game")
    bonus = zip(
        load(ref, "bonus_tiles.toml")["bonus_tile"],
        ours("bonus_tiles.toml")["bonus_tile"],
        strict=True,
    )
    assert all(b[k] == m[k] for b, m in bonus for k in keys)
    tiles_ref = load(ref, "base_map.toml")["headstream_tile"]
    assert tiles_ref == ours("headstream_tiles.toml")["headstream_tile"]


def _has_effect(r: dict[str, Any]) -> bool:
    """The row carries a structured effect, so its prose copy was dropped."""
    return any(k in r for k in ("effect", "reward", "action_effect"))


def main() -> None:
    """Write every data file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    ref, out = args.reference, args.out
    out.mkdir(parents=True, exist_ok=True)
    build_map(ref, out, "base_map.toml", "base_map.toml", False)
    build_map(ref, out, "five_player_map.toml", "five_player_map.toml", False)
    build_map(ref, out, "colorado_map.toml", "colorado_map.toml", True)
    build_map(ref, out, "nile_map.toml", "nile_map.toml", True)
    build_headstream_tiles(ref, out)
    build_companies(ref, out)
    build_officers(ref, out)
    build_tiles(ref, out)
    build_contracts(ref, out)
    build_bonus_objectives(ref, out)
    build_energy_track(ref, out)
    build_management(ref, out)
    build_constants(ref, out)
    build_leeghwater(ref, out)
    build_expansion(ref, out, "colorado.toml", "The Colorado Connection")
    build_expansion(ref, out, "nile.toml", "The Nile Affair")
    verify(ref, out)


if __name__ == "__main__":
    main()
