"""Short texts for the pictures: rewards, phases and names, short enough to fit their boxes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from renderer.content import content

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


def tile_name(tile_id: str) -> str:
    """A technology tile's name ("Wild II")."""
    return str(content().tiles[tile_id].name)


def tile_effect(tile_id: str) -> str:
    """Return a tile's effect in a few words ("" for an unknown tile)."""
    return TILE_EFFECTS.get(tile_id, "")


def reward_text(reward: Mapping[str, Any]) -> str:
    """Return a compact reward, e.g. "5VP 1exc" or "Base M/H" (what a contract or income gives).

    Each key reads as its `short` wording says (the base game's rewards.toml, each expansion's
    declaration; `{}` is the value, a list's items joined with "/"); a flag without a value in
    its wording shows when true; a production shows its bonus, a list of areas their letters,
    one Elevation no count, `one_of` its choices.
    """
    wording = content().rewards
    parts: list[str] = []
    for key, value in reward.items():
        if key == "production_bonus":
            continue
        if key == "produce":
            parts.append(f"produce {reward.get('production_bonus', 0):+d}")
        elif key == "one_of":
            parts.append(" or ".join(reward_text(choice) for choice in value))
        elif isinstance(value, list | tuple) and value and set(value) <= set(AREA_LETTERS):
            # Areas by their letters ("Base M/H", "token P/H/M"): the legend says them.
            letters = [AREA_LETTERS[area] for area in value]
            parts.append(wording[key].read(letters, short=True))
        elif key == "build_elevation" and value in (1, True):
            parts.append("Elev.")
        else:
            parts.append(wording[key].read(value, short=True))
    return " ".join(p for p in parts if p)


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
