"""Help texts: how to play with the bot, and every company, officer, tile and contract."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from bot.commands.help_boards import (
    COLORADO_NAME,
    NILE_NAME,
    colorado_topics,
    describe_effect,
    nile_topics,
)
from bot.rules.content import BuildingActionSpace, Content, load_content
from bot.rules.hooks import EXPANSIONS, game_content

MAX_HELP = 1900  # under the 2000-character message limit, with room for a header

HOW_TO_PLAY = """\
**Playing Barrage with this bot**
1. `/barrage new` opens a game in this channel (or `thread:true` for its own thread). \
Others press **Join** on the lobby message (or `/barrage join`); the creator presses **Start**.
2. After each turn the bot posts the board and pings the next player only. \
Press **Play your turn** — a private panel opens with your choices as buttons \
(or a menu with pages when there are many). Each choice is saved at once; \
**Restart turn** takes your turn back; **Confirm turn** ends it and passes play on.
3. Lost the panel? Press **Play your turn** again: it reopens where you left off.
4. Typing instead: `/barrage do` suggests the legal moves as you type; \
several moves can go in one command, separated by `;`.
5. Anyone can look: `/barrage board`, `company`, `log`, `score` answer privately, \
with a **Post to channel** button; `game:` picks another game by its number in this server.
6. `/barrage undo` takes back your last confirmed turn while nobody else has acted. \
`/barrage settings` sets reminders, quiet hours (your time zone) and DM notifications.
7. Moderators (Manage Channels, or Manage Threads in a thread) and the game's creator \
can `replace` or `skip` a player who vanished, `rewind` and `abandon`. \
To move a game: `/barrage export`, abandon it, then `/barrage import` the file elsewhere.
8. Expansions: `/barrage new expansions:` — The Leeghwater Project (full setup), \
The Colorado Connection or The Nile Affair (each with its own board), alone or with Leeghwater.
Topics: `/barrage help topic:` — a company, an officer, a tile, a contract, \
an External Work, a Private Building, `leeghwater`, `colorado` or `nile`."""

#: Display names of the content sets that are expansions (a topic says where its piece is from).
EXPANSION_SETS = {
    "leeghwater": "The Leeghwater Project",
    "colorado": COLORADO_NAME,
    "nile": NILE_NAME,
}

LEEGHWATER = """\
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


@dataclass(frozen=True, slots=True)
class Topic:
    """One help topic: a key for autocomplete, a display name and its text."""

    key: str
    name: str
    text: str


def _clip(text: str) -> str:
    """Keep a help text inside one message."""
    return text if len(text) <= MAX_HELP else text[: MAX_HELP - 1] + "…"


@cache
def topics() -> dict[str, Topic]:
    """Every help topic by key: 'play', 'leeghwater', 'company:usa', 'officer:…', 'tile:…',
    'contract:…', 'work:A1', 'building:cofferdam', 'bonus:…', 'colorado', 'bridge:BR1',
    'nile', 'token:IM1'…"""
    # Every expansion's pieces: the contracts, works and buildings some add to a game's content.
    content = game_content(load_content(), tuple(EXPANSIONS))
    found = [
        Topic("play", "How to play with the bot", HOW_TO_PLAY),
        Topic("leeghwater", "Expansion: The Leeghwater Project", LEEGHWATER),
    ]
    for company in content.companies.values():
        found.append(
            Topic(
                f"company:{company.id}",
                f"Company: {company.name}",
                f"**{company.name}** (colour {company.color}){_from(company.set)}\n"
                f"Special ability, unlocked by the third powerhouse: {company.ability_text}",
            )
        )
    for officer in content.officers.values():
        resources = ", ".join(f"{n} {k}" for k, n in officer.starting_resources.items())
        extra = f"\nStarts with {resources}." if resources else ""
        found.append(
            Topic(
                f"officer:{officer.id}",
                f"Officer: {officer.name}",
                f"**{officer.name}** (executive officer){_from(officer.set)}\n"
                f"{officer.ability_text}{extra}",
            )
        )
    for tile in content.tiles.values():
        level = f" level {tile.level}" if tile.level else ""
        builds = tile.builds if tile.builds != "wild" else "any structure"
        found.append(
            Topic(
                f"tile:{tile.id}",
                f"Tile: {tile.id}",
                f"**{tile.id}** ({tile.kind}{level} technology tile, builds: {builds})"
                f"{_from(tile.set)}\n{tile.effect_text}",
            )
        )
    found.extend(_leeghwater_topics(content))
    for key, name, text in (*colorado_topics(content), *nile_topics(content)):
        found.append(Topic(key, name, text))
    track = content.energy_track
    for bonus in content.bonus_tiles.values():
        found.append(
            Topic(
                f"bonus:{bonus.id}",
                f"Bonus tile: {bonus.id.replace('_', ' ')}",
                f"**Bonus tile {bonus.id}**{_from(bonus.set)}\n"
                f"Scored at the end of its round: {bonus.vp_each} VP for {bonus.counts_text}. "
                f"Nothing with under {track.bonus_min_energy} energy that round; "
                f"{track.malus_per_section} VP less for each section of the energy track "
                f"you are behind the round number.",
            )
        )
    for contract in content.contracts.values():
        found.append(
            Topic(
                f"contract:{contract.id}",
                f"Contract {contract.id} ({contract.kind})",
                f"**Contract {contract.id}** ({contract.kind}){_from(contract.set)}\n"
                f"Produce {contract.energy} energy in one production to fulfil it; "
                f"reward: {describe_effect(contract.reward)}.",
            )
        )
    return {t.key: Topic(t.key, t.name[:100], _clip(t.text)) for t in found}


def _from(content_set: str) -> str:
    """' — The Leeghwater Project' for an expansion's piece ('' for the base game's)."""
    name = EXPANSION_SETS.get(content_set)
    return f" — {name}" if name else ""


def _machineries(cost: Mapping[str, int]) -> str:
    """'2 excavators + 1 mixer'."""
    parts = []
    for kind, n in cost.items():
        noun = kind if n != 1 else kind.removesuffix("s")
        parts.append(f"{n} {noun}")
    return " + ".join(parts) or "nothing"


def _leeghwater_topics(content: Content) -> list[Topic]:
    """One topic per External Work and per Private Building."""
    found = []
    for work in content.external_works.values():
        reward = describe_effect(work.reward)
        found.append(
            Topic(
                f"work:{work.id}",
                f"External Work {work.id}: {reward}",
                f"**External Work {work.id}** (pile {work.pile}){_from(work.set)}\n"
                f"Put 2 engineers on its space and give {_machineries(work.cost)} from your "
                f"personal supply (not the wheel) to the general supply; reward at once: "
                f"{reward}.",
            )
        )
    for building in content.private_buildings.values():
        left, *right = building.action_spaces
        later = right[0] if right else left
        found.append(
            Topic(
                f"building:{building.id}",
                f"Private Building: {building.name}",
                f"**{building.name}** (Private Building){_from(building.set)}\n"
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


def find_topics(typed: str, limit: int = 25) -> list[Topic]:
    """Topics whose key or name contains what was typed (all words), at most `limit`."""
    words = typed.lower().split()
    hits = [
        t
        for t in topics().values()
        if all(w in t.key.lower() or w in t.name.lower() for w in words)
    ]
    return hits[:limit]


def help_text(key: str | None) -> str | None:
    """The text for a topic key or name (None: how to play), or None if unknown."""
    if not key:
        return HOW_TO_PLAY
    table = topics()
    if key in table:
        return table[key].text
    lowered = key.strip().lower()
    for topic in table.values():
        if lowered in (topic.key.lower(), topic.name.lower()):
            return topic.text
    hits = find_topics(key, limit=2)
    return hits[0].text if len(hits) == 1 else None
