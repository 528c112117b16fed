"""Short texts for the pictures: rewards, phases and names, short enough to fit their boxes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

PHASES = {
    "setup": "setup",
    "income": "income",
    "actions": "actions",
    "water_flow": "water flow",
    "scoring": "scoring",
    "end_of_round": "end of round",
    "end": "final scoring",
    "finished": "game over",
}

AREA_LETTERS = {"mountain": "M", "hill": "H", "plain": "P"}

# A technology tile's effect in a few words (the full text is tiles' ``effect_text``): what a
# patent tile or a tile in a supply does, short enough for its box on a phone.
TILE_EFFECTS = {
    "basic_base": "Base",
    "basic_elevation": "Elevation",
    "basic_conduit": "Conduit",
    "basic_powerhouse": "Powerhouse",
    "basic_wild": "any structure",
    "adv_1_base": "+1 drop dry dams",
    "adv_1_elevation": "rotate 1/Elev.",
    "adv_1_conduit": "2c per prod.",
    "adv_1_powerhouse": "no engineers",
    "adv_1_wild": "any, no red 3c",
    "adv_2_base": "produce: Bases",
    "adv_2_elevation": "fill the dam",
    "adv_2_conduit": "≤5 excavators",
    "adv_2_powerhouse": "produce +2",
    "adv_2_wild": "exc = mix",
    "adv_3_base": "no eng., no exc.",
    "adv_3_elevation": "3VP/dam lvl 2+",
    "adv_3_conduit": "produce 2×prod.",
    "adv_3_powerhouse": "3VP/P.house",
    "adv_3_wild": "any, 3VP/adv.",
    "anton_tile": "copies a tile",
    "adv_1_building": "use it at once",
    "adv_2_building": "one mach. kind",
    "adv_3_building": "its VP now too",
    "leslie_tile": "works onto wheel",
}


def tile_effect(tile_id: str) -> str:
    """Return a tile's effect in a few words ("" for an unknown tile)."""
    return TILE_EFFECTS.get(tile_id, "")


def reward_text(reward: Mapping[str, Any]) -> str:
    """Return a compact reward, e.g. "5VP 1exc" or "Base M/H" (what a contract or income gives)."""
    parts: list[str] = []
    for key, value in reward.items():
        match key:
            case "vp":
                parts.append(f"{value}VP")
            case "credits":
                parts.append(f"{value}c")
            case "excavators":
                parts.append(f"{value}exc")
            case "mixers":
                parts.append(f"{value}mix")
            case "machinery_choice":
                parts.append(f"{value}mach")
            case "rotate_wheel":
                parts.append(f"rot{value}")
            case "energy":
                parts.append(f"+{value}⚡")
            case "water_drops_flowing":
                parts.append(f"{value}flow")
            case "water_drops_delayed":
                parts.append(f"{value}drop")
            case "build_base_in_areas":
                parts.append("Base " + "/".join(AREA_LETTERS.get(a, a) for a in value))
            case "build_conduit_max_production":
                parts.append(f"Conduit≤{value}")
            case "build_elevation":
                parts.append("Elev." if value in (1, True) else f"{value} Elev.")
            case "build_powerhouse":
                parts.append("P.house")
            case "fulfill_contract_max_energy":
                parts.append(f"contract≤{value}⚡")
            case "fulfill_any_contract":
                parts.append("a contract")
            case "advanced_technology_tile":
                parts.append("adv. tile")
            case "energy_produced":
                parts.append(f"produce {value}⚡")
            # The Colorado Connection's External Works, in the piles when both are played.
            case "build_base_with_bridge":
                parts.append("Base+bridge")
            case "settlement_bonus_of_type":
                parts.append(f"settl. {value} bonus")
            case "elevation_may_lift_bridge":
                if value:
                    parts.append("(lifts bridge)")
            # The Colorado Connection's Bridge and settlement tiles.
            case "produce":
                parts.append(f"produce {reward.get('production_bonus', 0):+d}")
            case "production_bonus":
                pass
            case "water_drops_flowing_up_to":
                parts.append(f"≤{value}flow")
            case "take_back_machinery_per_wheel_segment":
                parts.append("mach. back")
            case "copy_own_bridge_effect":
                parts.append("copy Bridge")
            case "fulfill_contract_of_level":
                parts.append(f"{value} contract")
            case "vp_per_fulfilled_contract":
                parts.append(f"{value}VP/contract")
            case "vp_per_energy_section_reached":
                parts.append(f"{value}VP/section")
            case "energy_per_own_conduit_production":
                parts.append("⚡×conduit prod.")
            case "credits_per_drop_in_own_dams":
                parts.append(f"{value}c/drop")
            case "vp_per_own_bridge":
                parts.append(f"{value}VP/Bridge")
            case "energy_produced_per_own_powerhouse":
                parts.append(f"produce {value}⚡/P.house")
            case "construction_action_without_engineers":
                parts.append("build, no eng.")
            case "drop_in_each_own_dam":
                parts.append(f"{value} drop/dam")
            case "vp_per_credits_in_supply":
                parts.append(f"VP per {value}c")
            case "vp_per_machineries_in_supply":
                parts.append(f"VP per {value}mach")
            case "take_private_contracts":
                parts.append(f"{value} contracts")
            case _:
                parts.append(f"{key} {value}")
    return " ".join(parts)


def phase_text(phase: str) -> str:
    """Return the phase as players say it."""
    return PHASES.get(phase, phase.replace("_", " "))


def plural(n: int, word: str) -> str:
    """Return "1 drop" / "2 drops"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


DRAFT_VERBS = ("pick", "start")


def highlight_ids(notations: Iterable[str]) -> set[str]:
    """Return the ids named by option notations, to highlight: "base D5U" -> D5U, "take 210" -> 210.

    A bare action-space notation ("bank", "build") names itself; the verb of other notations
    is dropped, and ids are upper-cased the way the map spells them when they are map ids.
    """
    ids: set[str] = set()
    for notation in notations:
        words = notation.split()
        if len(words) == 2 and words[0] in DRAFT_VERBS:
            ids.add(notation)  # "pick usa", "start 3": the draft offer is keyed by notation
            continue
        if len(words) == 1:
            ids.add(words[0])
            continue
        for word in words[1:]:
            if word.isdigit() and len(word) < 3:
                continue  # a count ("engineers 3", drops in "produce D1L C1L 2")
            ids.add(
                word
                if word.islower() and "_" in word
                else word.upper()
                if word[0].isalpha() and len(word) <= 5
                else word
            )
    return ids
