"""The expansions as the outer layers see them: what to offer in a lobby, their boards, help.

Everything comes from the catalogue (`bot.rules.catalogue.CATALOGUE`), so the Discord and
console layers name no expansion: a new expansion package appears here by itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.catalogue import CATALOGUE, Catalogue
from bot.rules.content import Content, ContentError
from bot.rules.declarations import CatalogueError
from bot.rules.state import GameOptions

SETUP_WORDS = {"intro": "introductory setup", "full": "full setup"}


@dataclass(frozen=True, slots=True)
class ExpansionView:
    """One expansion: its name (what commands take), what players read, its board."""

    name: str
    display_name: str
    summary: str
    board: str  # the map it is played on ("" when the game's own)
    setups: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Combination:
    """A set of expansions that may be played together, as a lobby offers it."""

    names: tuple[str, ...]
    label: str  # at most 100 characters (a Discord choice's name)

    @property
    def value(self) -> str:
        """The choice's value: the names joined by commas ("none" for the base game)."""
        return ",".join(self.names) or "none"


@dataclass(frozen=True, slots=True)
class HelpTopic:
    """A help topic an expansion gives: its key, its title and its text."""

    key: str
    title: str
    text: str


def expansions(catalogue: Catalogue = CATALOGUE) -> list[ExpansionView]:
    """Every expansion, in the catalogue's order."""
    return [
        ExpansionView(info.name, info.display_name, info.summary, info.map, info.setups)
        for info in catalogue.expansions.values()
    ]


#: Discord's most choices for one option.
MAX_CHOICES = 25


def combinations(
    catalogue: Catalogue = CATALOGUE,
    options: GameOptions | None = None,
    limit: int = MAX_CHOICES,
) -> list[Combination]:
    """The playable sets of expansions with their labels, the base game first: those these
    options (setup, board, automas) may play, or every one the declarations allow; at most
    `limit` (`Catalogue.combinations`)."""
    out = [Combination((), "None: the base game")]
    for names in catalogue.combinations(options, limit)[1:]:
        infos = [catalogue.info(name) for name in names]
        setups = set.intersection(*(set(info.setups) for info in infos))
        only = f" ({SETUP_WORDS[next(iter(setups))]})" if len(setups) == 1 else ""
        if len(infos) == 1:
            label = f"{infos[0].display_name}: {infos[0].summary}" if infos[0].summary else ""
            label = (label or infos[0].display_name).removesuffix(only) + only
        else:
            label = " + ".join(info.display_name for info in infos) + only
        out.append(Combination(tuple(names), label[:100]))
    return out


def offered(
    *,
    players: int = 3,
    setup: str = "intro",
    map: str = "base",
    automa: int = 0,
    catalogue: Catalogue = CATALOGUE,
) -> list[Combination]:
    """The combinations a new game with these options may be opened with (a lobby's offer):
    those its expansions' declarations and `refuse` allow (options that cannot be played at
    all are refused, saying why, when the command is sent)."""
    probe = GameOptions(players=players, setup=setup, map=map, automa=(1,) * max(0, min(automa, 3)))
    return combinations(catalogue, probe)


def with_automas(catalogue: Catalogue = CATALOGUE) -> tuple[list[str], list[str]]:
    """Display names of the expansions that take automa companies, and of those that refuse
    them (each asked through its own `refuse` hook, with one Medium automa)."""
    taken: list[str] = []
    refused: list[str] = []
    for info in catalogue.expansions.values():
        options = GameOptions(
            players=2,
            setup=info.setups[-1],
            map=catalogue.own_map((info.name,)) or "base",
            expansions=(info.name,),
            automa=(1,),
        )
        (refused if catalogue.refuse(options) else taken).append(info.display_name)
    return taken, refused


def names_text(names: Sequence[str], catalogue: Catalogue = CATALOGUE) -> str:
    """Expansions' display names joined by 'and' (unknown names as given)."""
    return " and ".join(catalogue.display_name(n) if n in catalogue else n for n in names)


def help_topics(content: Content, catalogue: Catalogue = CATALOGUE) -> list[HelpTopic]:
    """Every expansion's help topics (its help module's `topics(content)`), in order."""
    found = []
    for info in catalogue.expansions.values():
        module = importlib.import_module(info.help or f"{info.package}.help")
        found += [HelpTopic(key, title, text) for key, title, text in module.topics(content)]
    return found


def missing_drawings(catalogue: Catalogue = CATALOGUE) -> list[str]:
    """What is wrong with the expansions' drawing modules, one sentence each (none: all there).

    Checked at start-up: a game of an expansion whose pictures cannot be drawn must not start.
    """
    from renderer.expansions.drawing import Drawing

    found: list[str] = []
    for info in catalogue.expansions.values():
        module = info.drawing_module
        try:
            drawing = vars(importlib.import_module(module)).get("DRAWING")
            if not isinstance(drawing, Drawing):
                what = f"its drawing module {module} defines no DRAWING (a renderer.expansions.drawing.Drawing)"
                found.append(f"expansion {info.name!r} ({info.package}): {what}")
        except ModuleNotFoundError as exc:
            if exc.name is not None and (module == exc.name or module.startswith(f"{exc.name}.")):
                what = f"its drawing module {module} does not exist"
            else:
                what = f"its drawing module {module} needs {exc.name}, which is not installed"
            found.append(f"expansion {info.name!r} ({info.package}): {what}")
        except Exception as exc:  # any fault of the module itself, named with the module
            what = f"its drawing module {module} cannot be imported ({type(exc).__name__}: {exc})"
            found.append(f"expansion {info.name!r} ({info.package}): {what}")
    return found


def content_problem(catalogue: Catalogue = CATALOGUE) -> str | None:
    """Why the game's content cannot be loaded (a data file, or a row of a table an
    expansion's rules declare, is broken), naming the file and the row; None when it loads.

    Checked at start-up, so a bad edit stops the bot before a game reads the broken row.
    """
    try:
        catalogue.content()
    except (ContentError, CatalogueError) as exc:
        return str(exc)
    return None
