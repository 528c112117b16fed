"""Help texts: how to play with the bot, and every company, officer, tile and contract."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bot.rules.catalogue import CATALOGUE
from bot.rules.rewards import describe_reward
from bot.service.clock import describe_rule
from bot.service.expansions import combinations, expansions, help_topics, with_automas

_HOW_TO_PLAY = """\
**Playing Barrage with this bot**
1. `/barrage new` opens a game in this channel (or `thread:true` for its own thread). \
Others press **Join** on the lobby message (or `/barrage join`); the creator presses **Start**.
2. After each turn the bot posts the board and pings the next player only. \
Press **Play your turn** — a private panel opens with what the others did since your \
last turn (and, after several turns, a map ringing what they changed), then your choices \
as buttons (or a menu with pages when there are many). Each choice is saved at once; \
**Restart turn** takes your turn back; **Confirm turn** ends it and passes play on.
3. Lost the panel? Press **Play your turn** again: it reopens where you left off.
4. Typing instead: `/barrage do` suggests the legal moves as you type; \
several moves can go in one command, separated by `;`.
5. Anyone can look: `/barrage board`, `company`, `log`, `score` answer privately, \
with a **Post to channel** button; `game:` picks another game by its number in this server. \
**Preview** on your panel shows your turn so far to you alone; `topic:symbols` explains pictures.
6. `/barrage undo` takes back your last confirmed turn while nobody else has acted. \
`/barrage settings` sets reminders, quiet hours (your time zone), DM notifications and \
`heads_up:True` (a mention when the player before you begins, so you know you're next).
7. Moderators (Manage Channels, or Manage Threads in a thread) and the game's creator \
can `replace` or `skip` a player who vanished (`replace ai:` lets the AI play their seat \
until they take it back with `/barrage play`), `rewind` and `abandon`. \
To move a game: `/barrage export`, abandon it, then `/barrage import` the file elsewhere \
(a game whose channel was deleted ends by itself: `/barrage export game:N` still fetches it).
8. Records: `/barrage stats` (the server's leaderboard by rating; `player:` one player's \
record), \
`/barrage history` (finished games: score sheet, charts, export; `replay:` posts \
an animated replay).
9. Expansions: `/barrage new expansions:` — {expansions}.
10. Short of players? `ai:` on `/barrage new` or **Add AI** seats AI players (the full \
rules, any board), `automa:` or **Add automa** automa companies (`topic:automa`). \
`/barrage new hints:True` lets players ask `/barrage hint` (such games are not rated).
11. A turn clock: `/barrage new clock:24h timeout:ai` gives each player 24 hours a turn plus a bank; `/barrage away days:` stops your clock and reminders, at most 14 days per game (`topic:clock`).
Topics: `/barrage help topic:` — a company, an officer, a tile, a contract, \
an expansion's pieces, or an expansion: {topics}."""


def _how_to_play() -> str:
    """How to play, with the expansions the catalogue offers."""
    offered = []
    for view in expansions():
        notes = []
        if view.setups == ("full",):
            notes.append("full setup")
        if view.board:
            notes.append("its own board")
        offered.append(view.display_name + (f" ({', '.join(notes)})" if notes else ""))
    combos = [c for c in combinations() if len(c.names) > 1]
    together = "; together: " + ", ".join(c.label for c in combos) if combos else ""
    return _HOW_TO_PLAY.format(
        expansions=", ".join(offered) + together,
        topics=", ".join(f"`{view.name}`" for view in expansions()) or "none",
    )


HOW_TO_PLAY = _how_to_play()

_AUTOMA_HELP = """\
**Automa opponents**
An automa is a computer company: 1 to 3 of them can take seats (people and automas are 2 to 4 \
players). Add them with `/barrage new automa:2 automa_level:hard` or the lobby's **Add automa** \
button; they sit after the people.
• **Its turn** happens at once after the person before it confirms: it flips a card of its own \
20-card deck and does the card's actions in order, each one it can, until it produces, builds, \
turns its wheel, takes machinery or a tile, or completes an External Work. Where it builds is \
chosen by the criteria of its face-up card. The turn message says what it did.
• **Its economy**: 16 VP to start, no credits (it pays none; credits it would earn are VP), no \
contracts of its own (it fulfils one from the board when it produces); the objective tile pays \
it 20/15/10.
• **Levels**: Easy (no income, no production bonus), Medium (incomes and bonus), Hard (also its \
tiles' effects and its company's ability), Expert (also its officer's ability).
• Your undo takes back the automa's turns after yours too (while no other person has acted).
• {expansions}
The company board picture shows an automa's level and the card on top of its deck."""


def _automa_help() -> str:
    """The automa topic, with the expansions that take automas and those that do not."""
    taken, refused = with_automas()
    text = "With the introductory or full setup"
    if taken:
        text += ", also with " + " or ".join(taken)
    if refused:
        text += "; " + " and ".join(refused) + (" are" if len(refused) > 1 else " is")
        text += " played by people only"
    return _AUTOMA_HELP.format(expansions=text + ".")


AUTOMA_HELP = _automa_help()


@dataclass(frozen=True, slots=True)
class Topic:
    """One help topic: a key for autocomplete, a display name and its text."""

    key: str
    name: str
    text: str


@cache
def topics() -> dict[str, Topic]:
    """Every help topic by key: 'play', 'company:usa', 'officer:…', 'tile:…', 'bonus:…',
    'contract:…', and each expansion's (its help module's: its overview under its name, its
    pieces)."""
    # Every expansion's pieces: the contracts, works and buildings some add to a game's content.
    content = CATALOGUE.game_content(CATALOGUE.content(), tuple(CATALOGUE.expansions))
    found = [
        Topic("play", "How to play with the bot", HOW_TO_PLAY),
        Topic(SYMBOLS_KEY, "Symbols in the pictures", SYMBOLS_TEXT),
        Topic("automa", "Automa opponents", AUTOMA_HELP),
        Topic("clock", "The turn clock and time away", f"**The turn clock**\n{describe_rule()}"),
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
                f"Tile: {tile.name}",
                f"**{tile.name}** ({tile.kind}{level} technology tile, builds: {builds})"
                f"{_from(tile.set)}\n{tile.effect_text}",
            )
        )
    found.extend(Topic(t.key, t.title, t.text) for t in help_topics(content))
    track = content.energy_track
    for bonus in content.bonus_tiles.values():
        found.append(
            Topic(
                f"bonus:{bonus.id}",
                f"Bonus tile: {bonus.name}",
                f"**Bonus tile: {bonus.name}**{_from(bonus.set)}\n"
                f"Scored at the end of its round: {bonus.vp_each} VP for {bonus.counts_text}. "
                f"Nothing with under {track.bonus_min_energy} energy that round; "
                f"{track.malus_per_section} VP less for each section of the energy track "
                f"you are behind the round number.",
            )
        )
    vp = "/".join(str(v) for v in content.objective_vp_by_place)
    for objective in content.objective_tiles.values():
        found.append(
            Topic(
                f"objective:{objective.id}",
                f"Objective tile: {objective.name}",
                f"**Objective tile: {objective.name}**{_from(objective.set)}\n"
                f"Scored at the end of the game: {vp} VP for the most, second and third most "
                f"of {objective.counts_text}.",
            )
        )
    for contract in content.contracts.values():
        found.append(
            Topic(
                f"contract:{contract.id}",
                f"Contract {contract.id} ({contract.kind})",
                f"**Contract {contract.id}** ({contract.kind}){_from(contract.set)}\n"
                f"Produce {contract.energy} energy in one production to fulfil it; "
                f"reward: {describe_reward(contract.reward, content)}.",
            )
        )
    # A long text is sent as several whole messages (`replies.send`), never cut.
    return {t.key: Topic(t.key, t.name[:100], t.text) for t in found}


def _from(content_set: str) -> str:
    """' — <display name>' for an expansion's piece ('' for the base game's)."""
    name = CATALOGUE.set_name(content_set)
    return f" — {name}" if name else ""


def find_topics(typed: str, limit: int = 25) -> list[Topic]:
    """Topics whose key or name contains what was typed (all words), at most `limit`."""
    words = typed.lower().split()
    hits = [
        t
        for t in topics().values()
        if all(w in t.key.lower() or w in t.name.lower() for w in words)
    ]
    return hits[:limit]


SYMBOLS_KEY = "symbols"
SYMBOLS_TEXT = (
    "**What the pictures show**: every symbol and short form of the map, the shared boards, "
    "the company boards and the scoreboard on top of each picture, with each expansion's."
)


def is_symbols(key: str | None) -> bool:
    """True for the symbols topic (answered with the legend picture)."""
    return (key or "").strip().lower() in (SYMBOLS_KEY, "symbols in the pictures", "legend")


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
