"""Help topics of The Nile Affair: the overview, irrigation, token types, scoring, sources.

Every number comes from the content tables (`content.of("nile")` and its map), so a corrected
table corrects the help; the sentences around them are ours. Listed by the service
(`bot.service.expansions.help_topics`) through this expansion's declaration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.content import Content
from bot.rules.rewards import describe_reward

NAME = "The Nile Affair"

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


def topics(content: Content) -> list[tuple[str, str, str]]:
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
            f"Expansion: {NAME}",
            f"**{NAME}** (expansion; its own board)\n"
            "Start it with `/barrage new expansions:` and pick it (with Leeghwater too if you "
            "like; not with The Colorado Connection). The game is played on the Nile board. "
            "New:\n"
            f"• **Irrigation** — a new action: spend a drop from one of your dams to take an "
            'irrigation token (help topic "Nile: the irrigation action").\n'
            "• **Irrigation tokens** — once per turn, before or after your action, use a "
            "face-up token for its effect; it turns face down and still counts for "
            "irrigation scoring.\n"
            "• **Irrigation scoring** after every round's scoring (help topic \"Nile: irrigation "
            'scoring tokens").\n'
            f"• **River source tokens** replace the headstream tiles, and the Nile's "
            f"headwaters ({sources['nile_source']}) get {sources['nile_extra_drops_per_round']} "
            'more drops each round (help topic "Nile: river source tokens").\n'
            f"• The bonus tile {content.bonus_tiles['irrigation_tokens'].name}, the objective "
            f"{content.objective_tiles['dams_on_irrigated_basins'].name}, "
            f"contracts {contracts}; with Leeghwater the Pumping Station and External Works "
            "A7, B7, C7.\n"
            'In the panel: groups "Irrigation" and "Irrigation tokens". Topics: '
            "`irrigation`, `tokens:water`…, `token:IM1`…, `building:pumping_station`.",
        ),
        (
            "irrigation",
            "Nile: the irrigation action",
            f"**Irrigation** — {NAME}\n"
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
            f"**River source tokens** — {NAME}\n"
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
    tokens = tuple(data["irrigation_token"])
    for kind, name in TOKEN_TYPES.items():
        mine = [t for t in tokens if t["type"] == kind]
        if not mine:
            continue
        listed = "; ".join(
            f"{t['id']} ({t['zone_set']}, {t['irrigation_points']} pts): "
            f"{describe_reward(t['effect'], content)}"
            for t in mine
        )
        found.append(
            (
                f"tokens:{kind}",
                f"Irrigation tokens: {name}",
                f"**{name} irrigation tokens** — {NAME}\n{listed}.\nTaken by irrigating; "
                "used once, face down afterwards; their points count in irrigation scoring "
                "either way.",
            )
        )
    for t in tokens:
        effect = describe_reward(t["effect"], content)
        found.append(
            (
                f"token:{t['id']}",
                f"Irrigation token {t['id']}: {effect}",
                f"**Irrigation token {t['id']}** ({TOKEN_TYPES.get(t['type'], t['type'])}, "
                f"{t['zone_set']} zone) — {NAME}\nEffect when used: {effect}.\n"
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
        f"**Irrigation scoring** — {NAME}\n"
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
