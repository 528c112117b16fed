"""Help topics of The Colorado Connection: the overview, each Bridge tile, settlement type and tile.

Every number comes from the content tables (`content.of("colorado")` and its map), so a
corrected table corrects the help; the sentences around them are ours. Listed by the service
(`bot.service.expansions.help_topics`) through this expansion's declaration.
"""

from __future__ import annotations

from bot.rules.content import Content
from bot.rules.rewards import describe_reward

NAME = "The Colorado Connection"


def topics(content: Content) -> list[tuple[str, str, str]]:
    """(key, name, text) for the Colorado overview, each Bridge tile, settlement type and tile."""
    data = content.of("colorado")
    game_map = content.maps[data["setup"]["map"]].features
    bridge = data["bridge_rules"]
    toll = data["settlement_rules"]
    sites = tuple(game_map["construction_site"])
    costs = "; ".join(
        f"{s['area']} {', '.join(str(c) for c in s['bridge_cost_sequence'])}" for s in sites
    )
    contracts = ", ".join(str(c) for c in data["setup"]["private_contracts_added"])
    found = [
        (
            "colorado",
            f"Expansion: {NAME}",
            f"**{NAME}** (expansion; its own map)\n"
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
            f"• The bonus tile {content.bonus_tiles['bridges'].name}, the objective "
            f"{content.objective_tiles['dams_with_bridge'].name}, contracts "
            f"{contracts}; with Leeghwater the Heliport and External Works A6, B6, C6.\n"
            'In the panel: groups "Bridges" and "Settlements". Topics: `bridge:BR1`…, '
            "`settlements:A`, `settlement:SA1`…, `building:heliport`.",
        )
    ]
    for row in data["bridge_tile"]:
        effect = describe_reward(row["effect"], content)
        found.append(
            (
                f"bridge:{row['id']}",
                f"Bridge tile {row['id']}: {effect}",
                f"**Bridge tile {row['id']}** — {NAME}\n"
                f"Bonus when you build the Bridge: {effect}.\nThe tiles start at the "
                "Construction Sites, face up; a Bridge lies on one of your dams until the "
                "end and saves you its basin's toll on the settlement roads.",
            )
        )
    tiles = tuple(data["settlement_tile"])
    spaces = tuple(game_map["settlement_space"])
    for kind in sorted({row["type"] for row in tiles}):
        mine = [s for s in spaces if s["tile_type"] == kind]
        where = ", ".join(
            f"{s['id']} ({s['area']}, {s['engineers']} engineer{'s' if s['engineers'] != 1 else ''}, "
            f"{len(s['basins_crossed'])} basin{'s' if len(s['basins_crossed']) != 1 else ''} of "
            "road)"
            for s in mine
        )
        effects = "; ".join(
            f"{row['id']}: {describe_reward(row['effect'], content)}"
            for row in tiles
            if row["type"] == kind
        )
        found.append(
            (
                f"settlements:{kind}",
                f"Settlement tiles of type {kind}",
                f"**Productive Settlements of type {kind}** — {NAME}\n"
                f"Spaces: {where}.\nAt setup one tile of type {kind} is dealt face up to each "
                f"of these spaces, the others go back to the box.\nThe tiles: {effects}.",
            )
        )
    for row in tiles:
        effect = describe_reward(row["effect"], content)
        found.append(
            (
                f"settlement:{row['id']}",
                f"Settlement tile {row['id']} (type {row['type']}): {effect}",
                f"**Productive Settlement {row['id']}** (type {row['type']}) — {NAME}\n"
                f"Bonus: {effect}.\nYou get it by activating the settlement space it lies on "
                "(engineers and tolls, see `colorado`), or through contract 415, External Work "
                "B6 or the Heliport, which give a tile's bonus without engineers or tolls.",
            )
        )
    return found
