"""Help topics of The Leeghwater Project: the overview, each External Work and Private Building.

Every number comes from the content tables, so a corrected table corrects the help; the
sentences around them are ours. Listed by the service (`bot.service.expansions.help_topics`)
through this expansion's declaration. Works and buildings that other expansions add to its
piles get a topic here too, naming where they come from.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.rules.catalogue import CATALOGUE
from bot.rules.content import Content
from bot.rules.expansions.leeghwater.tables import BUILDINGS, WORKS, BuildingActionSpace
from bot.rules.rewards import describe_reward

NAME = "The Leeghwater Project"


def piece_of(content_set: str) -> str:
    """' — The Colorado Connection' for a piece of an expansion's set ('' for the base game's)."""
    name = CATALOGUE.set_name(content_set)
    return f" — {name}" if name else ""


OVERVIEW = """\
**The Leeghwater Project** (expansion; full setup only)
Start it with `/barrage new setup:full expansions:leeghwater`. It adds:
• **External Works** — three face-up tiles on the Extra Management board, drawn from piles \
A, then B, then C, and replaced each round. Put 2 engineers on a tile's space, give the \
machineries it shows from your personal supply (never from the wheel) back to the general \
supply, and take its reward at once. Each tile is taken by one company per round.
• **Private Buildings** — five of the ten tiles are in play. Build a Building like any \
structure: engineers on your company board, the Building technology tile and the \
machineries the tile shows on your wheel (plus 3 credits on a red-outlined space); one \
Building of yours per tile. An activated tile gives you its special action (the first \
player in a round takes the cheap left space, later ones a right space; once per round) \
and its VP at the end of the game.
• The **Netherlands** company, four officers (Leslie Spencer, Margot Fouché, Simone \
Luciani, Tommaso Battista), the basic Building tile for everyone, three advanced Building \
tiles (one random advanced tile of each level leaves the game) and two bonus tiles.
In the panel the new actions are in the groups "External Works" and "Private Buildings".
Topics: `work:A1`…`work:C5`, `building:cofferdam`…, `company:netherlands`, \
`officer:leslie_spencer`, `tile:basic_building`, `bonus:buildings`."""


def _machineries(cost: Mapping[str, int]) -> str:
    """'2 excavators + 1 mixer'."""
    parts = []
    for kind, n in cost.items():
        noun = kind if n != 1 else kind.removesuffix("s")
        parts.append(f"{n} {noun}")
    return " + ".join(parts) or "nothing"


def topics(content: Content) -> list[tuple[str, str, str]]:
    """The overview, then one topic per External Work and per Private Building."""
    found = [("leeghwater", f"Expansion: {NAME}", OVERVIEW)]
    for work in WORKS.of(content).values():
        reward = describe_reward(work.reward, content)
        found.append(
            (
                f"work:{work.id}",
                f"External Work {work.id}: {reward}",
                f"**External Work {work.id}** (pile {work.pile}){piece_of(work.set)}\n"
                f"Put 2 engineers on its space and give {_machineries(work.cost)} from your "
                f"personal supply (not the wheel) to the general supply; reward at once: "
                f"{reward}.",
            )
        )
    for building in BUILDINGS.of(content).values():
        left, *right = building.action_spaces
        later = right[0] if right else left
        found.append(
            (
                f"building:{building.id}",
                f"Private Building: {building.name}",
                f"**{building.name}** (Private Building){piece_of(building.set)}\n"
                f"Build it for {_machineries(building.cost)} on your wheel with the Building "
                f"tile (3 credits more on a red-outlined space); worth {building.vp} VP at the "
                f"end of the game.\nAction, once per round for those who built it: "
                f"{building.action_text.rstrip('.')}.\nThe first company to use it in a round puts "
                f"{_engineers(left)} on the left space; later ones put {_engineers(later)} on "
                f"a right space.",
            )
        )
    return found


def _engineers(space: BuildingActionSpace) -> str:
    """'1 engineer' or '2 engineers and pay 3 credits'."""
    text = f"{space.engineers} engineer{'s' if space.engineers != 1 else ''}"
    return text + (f" and pay {space.extra_credits} credits" if space.extra_credits else "")
