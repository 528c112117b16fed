"""Help topics of the expansions that replace the board: The Colorado Connection, The Nile Affair.

Every number comes from the content tables (`load_content().colorado` / `.nile` and the two
maps), so a corrected table corrects the help; the sentences around them are ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.rules.content import Content
from bot.rules.expansions.colorado.effects import describe as describe_colorado
from bot.rules.expansions.nile.irrigation import EFFECT_TEXT

COLORADO_NAME = "The Colorado Connection"
NILE_NAME = "The Nile Affair"

#: The Nile's irrigation token types as a player would name them.
TOKEN_TYPES = {
    "machinery": "Machinery",
    "credits": "Credits",
    "water": "Water",
    "wheel": "Wheel",
    "contract": "Contract",
    "energy": "Energy",
    "vp": "Victory points",
    "private_contract": "Private contracts",
}


#: The Nile's reward keys as a player reads them (Colorado's are in its `describe`).
_NILE_REWARDS = {
    "irrigation_total_bonus_permanent": "+{} to your irrigation total for the rest of the game",
    "flip_used_irrigation_tokens_up_to": "turn up to {} used irrigation tokens face up again",
    "vp_plus_visible_irrigation_vp": "as many VP again as the empty irrigation spaces show",
    "irrigate_from_any_own_dam": "irrigate from any own dam",
    "second_irrigation_same_dam": "again from the same dam",
}


def _rows(table: Any) -> Sequence[Mapping[str, Any]]:
    return tuple(table)


def describe_effect(effect: Mapping[str, Any]) -> str:
    """A reward or tile effect of any set in words ('a production (+3 energy)', '5 VP or …')."""
    parts = []
    rest: dict[str, Any] = {}
    for key, value in effect.items():
        if key == "one_of":
            parts.append(" or ".join(describe_effect(choice) for choice in value))
        elif key == "take_irrigation_token_from_zones":
            parts.append(
                f"an irrigation token from the {'/'.join(value)} zone (no engineer, no drop)"
            )
        elif key == "produce":
            bonus = effect.get("production_bonus", 0)
            parts.append("a production action" + (f" ({bonus:+d} energy)" if bonus else ""))
        elif key in _NILE_REWARDS:
            if value is not False:
                parts.append(_NILE_REWARDS[key].format(value))
        elif key != "production_bonus":
            rest[key] = value
    if rest:
        parts.append(describe_colorado(rest))
    return ", ".join(p for p in parts if p)


def colorado_topics(content: Content) -> list[tuple[str, str, str]]:
    """(key, name, text) for the Colorado overview, each Bridge tile, settlement type and tile."""
    data = content.of("colorado")
    game_map = content.maps[data["setup"]["map"]].features
    bridge = data["bridge_rules"]
    toll = data["settlement_rules"]
    sites = _rows(game_map["construction_site"])
    costs = "; ".join(
        f"{s['area']} {', '.join(str(c) for c in s['bridge_cost_sequence'])}" for s in sites
    )
    contracts = ", ".join(str(c) for c in data["setup"]["private_contracts_added"])
    found = [
        (
            "colorado",
            f"Expansion: {COLORADO_NAME}",
            f"**{COLORADO_NAME}** (expansion; its own map)\n"
            "Start it with `/barrage new expansions:` and pick it (with Leeghwater too if you "
            "like; not with The Nile Affair). The game moves to the Colorado map. New:\n"
            f"• **Bridges** — put {bridge['engineers']} engineer on an area's Construction Site "
            f"(not exclusive) and pay its next cost ({costs} credits), take a Bridge tile "
            "still there and lay it on one of your own dams in that area: you get the tile's "
            f"bonus at once. One Bridge per basin, none on a neutral or opponent's dam; a dam "
            "with a Bridge takes no more Elevations.\n"
            "• **Productive Settlements** — put the engineers a settlement space shows on it "
            "(one company per round), pay a toll for every basin the road crosses from the "
            f"site: {toll['toll_no_bridge_credits_to_supply']} credits to the bank with no "
            "Bridge, nothing over your own Bridge, and the basin's road position in credits "
            f"to the owner of another's Bridge, who also scores "
            f"{toll['toll_other_bridge_owner_vp']} VP. Then take the bonus of the tile "
            "lying there (it stays).\n"
            f"• The bonus tile `bridges`, the objective `dams_with_bridge`, contracts "
            f"{contracts}; with Leeghwater the Heliport and External Works A6, B6, C6.\n"
            'In the panel: groups "Bridges" and "Settlements". Topics: `bridge:BR1`…, '
            "`settlements:A`, `settlement:SA1`…, `building:heliport`.",
        )
    ]
    for row in data["bridge_tile"]:
        effect = describe_effect(row["effect"])
        found.append(
            (
                f"bridge:{row['id']}",
                f"Bridge tile {row['id']}: {effect}",
                f"**Bridge tile {row['id']}** — {COLORADO_NAME}\n"
                f"Bonus when you build the Bridge: {effect}.\nThe tiles start at the "
                "Construction Sites, face up; a Bridge lies on one of your dams until the "
                "end and saves you its basin's toll on the settlement roads.",
            )
        )
    tiles = _rows(data["settlement_tile"])
    spaces = _rows(game_map["settlement_space"])
    for kind in sorted({row["type"] for row in tiles}):
        mine = [s for s in spaces if s["tile_type"] == kind]
        where = ", ".join(
            f"{s['id']} ({s['area']}, {s['engineers']} engineer{'s' if s['engineers'] != 1 else ''}, "
            f"{len(s['basins_crossed'])} basin{'s' if len(s['basins_crossed']) != 1 else ''} of "
            "road)"
            for s in mine
        )
        effects = "; ".join(
            f"{row['id']}: {describe_effect(row['effect'])}" for row in tiles if row["type"] == kind
        )
        found.append(
            (
                f"settlements:{kind}",
                f"Settlement tiles of type {kind}",
                f"**Productive Settlements of type {kind}** — {COLORADO_NAME}\n"
                f"Spaces: {where}.\nAt setup one tile of type {kind} is dealt face up to each "
                f"of these spaces, the others go back to the box.\nThe tiles: {effects}.",
            )
        )
    for row in tiles:
        effect = describe_effect(row["effect"])
        found.append(
            (
                f"settlement:{row['id']}",
                f"Settlement tile {row['id']} (type {row['type']}): {effect}",
                f"**Productive Settlement {row['id']}** (type {row['type']}) — {COLORADO_NAME}\n"
                f"Bonus: {effect}.\nYou get it by activating the settlement space it lies on "
                "(engineers and tolls, see `colorado`), or through contract 415, External Work "
                "B6 or the Heliport, which give a tile's bonus without engineers or tolls.",
            )
        )
    return found


def _token_effect(effect: Mapping[str, Any]) -> str:
    """'5 credits' for an irrigation token's effect."""
    return ", ".join(EFFECT_TEXT.get(k, "{} " + k).format(v) for k, v in effect.items())


def nile_topics(content: Content) -> list[tuple[str, str, str]]:
    """(key, name, text) for the Nile overview, irrigation, token types, scoring, sources."""
    data = content.of("nile")
    game_map = content.maps[data["setup"]["map"]].features
    action = data["irrigation_action"]
    scoring = data["irrigation_scoring"]
    sources = data["river_sources"]
    contracts = ", ".join(str(c) for c in data["setup"]["private_contracts_added"])
    zones = ", ".join(
        f"{z['area']} ({z['id']}, basins {'/'.join(str(b) for b in z['connected_basins'])})"
        for z in game_map["irrigation_zone"]
    )
    found = [
        (
            "nile",
            f"Expansion: {NILE_NAME}",
            f"**{NILE_NAME}** (expansion; its own board)\n"
            "Start it with `/barrage new expansions:` and pick it (with Leeghwater too if you "
            "like; not with The Colorado Connection). The game is played on the Nile board. "
            "New:\n"
            f"• **Irrigation** — a new action: spend a drop from one of your dams to take an "
            "irrigation token (see `irrigation`).\n"
            "• **Irrigation tokens** — once per turn, before or after your action, use a "
            "face-up token for its effect; it turns face down and still counts for "
            "irrigation scoring.\n"
            "• **Irrigation scoring** after every round's scoring (see `irrigation_scoring`).\n"
            f"• **River source tokens** replace the headstream tiles, and the Nile's "
            f"headwaters ({sources['nile_source']}) get {sources['nile_extra_drops_per_round']} "
            "more drops each round (see `river_sources`).\n"
            f"• The bonus tile `irrigation_tokens`, the objective `dams_on_irrigated_basins`, "
            f"contracts {contracts}; with Leeghwater the Pumping Station and External Works "
            "A7, B7, C7.\n"
            'In the panel: groups "Irrigation" and "Irrigation tokens". Topics: '
            "`irrigation`, `tokens:water`…, `token:IM1`…, `building:pumping_station`.",
        ),
        (
            "irrigation",
            "Nile: the irrigation action",
            f"**Irrigation** — {NILE_NAME}\n"
            f"Put {action['engineers']} engineer on a free irrigation action space of a zone "
            f"(a red-outlined one costs {action['red_space_extra_credits']} credits more; each "
            f"space takes one company per round). Remove {action['drops_removed']} drop from "
            "one of your own dams in a basin connected to that zone (it leaves the game), then "
            "take a visible token of the zone, face up. The zones: "
            f"{zones}.\nA zone's stacks empty as tokens go; an empty space shows VP that the "
            "C7 work and the scoring count.\nActivating a token (once per turn, before or "
            "after your main action) applies its effect and turns it face down for good.",
        ),
        (
            "irrigation_scoring",
            "Nile: irrigation scoring tokens",
            _scoring_text(data, scoring),
        ),
        (
            "river_sources",
            "Nile: river source tokens",
            f"**River source tokens** — {NILE_NAME}\n"
            "They replace the headstream tiles: one lies on each headstream and says how many "
            "drops it gets in rounds 1 to 4:\n"
            + "\n".join(
                f"• {row['id']}: {', '.join(str(d) for d in row['drops_per_round'])}"
                for row in game_map["river_source_token"]
            )
            + f"\nThe Nile's headwaters ({sources['nile_source']}) get "
            f"{sources['nile_extra_drops_per_round']} more drops each round besides.",
        ),
    ]
    tokens = _rows(data["irrigation_token"])
    for kind, name in TOKEN_TYPES.items():
        mine = [t for t in tokens if t["type"] == kind]
        if not mine:
            continue
        listed = "; ".join(
            f"{t['id']} ({t['zone_set']}, {t['irrigation_points']} pts): "
            f"{_token_effect(t['effect'])}"
            for t in mine
        )
        found.append(
            (
                f"tokens:{kind}",
                f"Irrigation tokens: {name}",
                f"**{name} irrigation tokens** — {NILE_NAME}\n{listed}.\nTaken by irrigating; "
                "used once, face down afterwards; their points count in irrigation scoring "
                "either way.",
            )
        )
    for t in tokens:
        effect = _token_effect(t["effect"])
        found.append(
            (
                f"token:{t['id']}",
                f"Irrigation token {t['id']}: {effect}",
                f"**Irrigation token {t['id']}** ({TOKEN_TYPES.get(t['type'], t['type'])}, "
                f"{t['zone_set']} zone) — {NILE_NAME}\nEffect when used: {effect}.\n"
                f"Worth {t['irrigation_points']} irrigation points in every irrigation scoring.",
            )
        )
    return found


def _scoring_text(data: Mapping[str, Any], scoring: Mapping[str, Any]) -> str:
    """The irrigation scoring rules and tokens."""
    penalties = ", ".join(
        f"{t['id']} (round {t['round']}: {t['penalty']:+d} points in later scorings)"
        for t in data["irrigation_scoring_token"]
    )
    return (
        f"**Irrigation scoring** — {NILE_NAME}\n"
        "After each round's usual scoring, every company adds up the irrigation points of its "
        "tokens (face up or down) and its bonuses.\n"
        f"• The highest total scores {scoring['first_vp_fixed']} VP plus the VP visible on "
        "the empty irrigation spaces, and takes that round's scoring token.\n"
        "• The second scores half the visible VP, rounded down.\n"
        f"• The lowest scores {scoring['last_vp']} VP.\n"
        "Ties: tied leaders both get the second award and the round's token is discarded; "
        "tied seconds each get the full award; tied last places each lose; when everybody is "
        "equal nobody scores.\n"
        f"Scoring tokens: {penalties}. A token counts against its holder's total in the "
        "scorings after the one it was won in."
    )
