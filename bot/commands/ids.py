"""custom_id encoding: every component says which game, which version and which answer.

Scheme (all fields separated by ":", at most 100 characters):

- ``brg:o:{game}:{version}:{notation}`` an option button carrying the notation itself;
- ``brg:h:{game}:{version}:{hash}`` the same when the notation would not fit (or holds
  characters unsafe in an id): a 10-hex-digit hash checked against the current options;
- ``brg:s:{game}:{version}:{page}`` a select of one page of options; its values are
  notations (or ``#hash``);
- ``brg:pg:{game}:{version}:{page}`` a page button of the paged select;
- ``brg:rs:{game}:{version}`` Restart turn;
- ``brg:pr:{game}:{version}`` Preview: the turn in progress drawn for its player alone;
- ``brg:play:{game}`` the public "Play your turn" button (opens the panel where it was left);
- ``brg:lb:{game}:{action}`` the lobby buttons (join, leave, start);
- ``brg:pv:{game}:{view}`` "Post to channel" under a private view (it posts the view of
  the latest committed state: b_map, b_shared, b_full, c_{company}, log, score);
- the records' ids (bot/commands/records.py), where a filter travels as
  ``{players}.{setup}.{expansions}`` ("0", "any", "any" for none): ``brg:st:{filter}:{min
  games}:{user}`` posts statistics, ``brg:hp:{filter}:{user}:{page}`` turns a history page,
  ``brg:ho:{filter}:{user}:{page}`` is its menu of games, ``brg:ar:{number}:{action}`` an
  archived game's buttons (replay by round or by turn, post).

Never a bare index: an option is named by its notation, and a stale version is detected
by the service (the store's version check), so a click can never pick the wrong answer.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

PREFIX = "brg"
MAX_CUSTOM_ID = 100
MAX_SELECT_VALUE = 100
_SAFE = re.compile(r"^[A-Za-z0-9_ .\-+/|,=]+$")


def option_hash(notation: str) -> str:
    """A short stable hash of a notation (10 hex digits)."""
    return hashlib.sha1(notation.encode()).hexdigest()[:10]


def option_id(game_id: int, version: int, notation: str) -> str:
    """The custom_id of an option button."""
    plain = f"{PREFIX}:o:{game_id}:{version}:{notation}"
    if len(plain) <= MAX_CUSTOM_ID and _SAFE.match(notation):
        return plain
    return f"{PREFIX}:h:{game_id}:{version}:{option_hash(notation)}"


def select_value(notation: str) -> str:
    """The value of a select option: the notation, or '#hash' when it is too long."""
    if len(notation) <= MAX_SELECT_VALUE and not notation.startswith("#"):
        return notation
    return "#" + option_hash(notation)


def resolve(token: str, notations: Iterable[str], *, hashed: bool = False) -> str | None:
    """The current notation a button or select value names, or None if it names none.

    `token` is a notation (checked case-insensitively against `notations`), a hash when
    `hashed` is set, or a select value starting with '#'.
    """
    current = list(notations)
    if hashed or token.startswith("#"):
        wanted = token.removeprefix("#")
        return next((n for n in current if option_hash(n) == wanted), None)
    lowered = token.lower()
    return next((n for n in current if n.lower() == lowered), None)


def select_id(game_id: int, version: int, page: int) -> str:
    """The custom_id of the paged select showing `page`."""
    return f"{PREFIX}:s:{game_id}:{version}:{page}"


def page_id(game_id: int, version: int, page: int) -> str:
    """The custom_id of a button that turns the paged select to `page`."""
    return f"{PREFIX}:pg:{game_id}:{version}:{page}"


def restart_id(game_id: int, version: int) -> str:
    """The custom_id of Restart turn."""
    return f"{PREFIX}:rs:{game_id}:{version}"


def preview_id(game_id: int, version: int) -> str:
    """The custom_id of Preview (the turn in progress, privately)."""
    return f"{PREFIX}:pr:{game_id}:{version}"


def play_id(game_id: int) -> str:
    """The custom_id of the public Play your turn button."""
    return f"{PREFIX}:play:{game_id}"


def lobby_id(game_id: int, action: str) -> str:
    """The custom_id of a lobby button (join, leave, start, bot_add, bot_remove, ai_add,
    ai_remove)."""
    return f"{PREFIX}:lb:{game_id}:{action}"


def post_id(game_id: int, view: str) -> str:
    """The custom_id of Post to channel under a private view (e.g. 'b_map', 'score')."""
    return f"{PREFIX}:pv:{game_id}:{view}"


# Templates for discord.ui.DynamicItem (they must match the whole custom_id).
OPTION_TEMPLATE = rf"{PREFIX}:(?P<kind>[oh]):(?P<game>\d+):(?P<version>\d+):(?P<token>.+)"
SELECT_TEMPLATE = rf"{PREFIX}:s:(?P<game>\d+):(?P<version>\d+):(?P<page>\d+)"
PAGE_TEMPLATE = rf"{PREFIX}:pg:(?P<game>\d+):(?P<version>\d+):(?P<page>\d+)"
RESTART_TEMPLATE = rf"{PREFIX}:rs:(?P<game>\d+):(?P<version>\d+)"
PREVIEW_TEMPLATE = rf"{PREFIX}:pr:(?P<game>\d+):(?P<version>\d+)"
PLAY_TEMPLATE = rf"{PREFIX}:play:(?P<game>\d+)"
LOBBY_TEMPLATE = (
    rf"{PREFIX}:lb:(?P<game>\d+):(?P<action>join|leave|start|bot_add|bot_remove|ai_add|ai_remove)"
)
POST_TEMPLATE = rf"{PREFIX}:pv:(?P<game>\d+):(?P<view>[a-z0-9_]+)"
