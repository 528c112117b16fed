"""Turning engine events and states into short lines of text."""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules import Event, GameState
from bot.rules.content import load_content

#: The expansions' keys in the state's `extra` (and in GameOptions.expansions).
LEEGHWATER = "leeghwater"
COLORADO = "colorado"
NILE = "nile"

#: Resource changes worth a line of their own in a log (the rest shows in the pictures).
_LOGGED_RESOURCES = ("vp",)


def company_name(company: str | None) -> str:
    """'usa' → 'USA', 'germany' → 'Germany', 'seat1' → 'Seat 2'."""
    if company is None:
        return "nobody"
    if company.startswith("seat") and company[4:].isdigit():
        return f"Seat {int(company[4:]) + 1}"
    return "USA" if company == "usa" else company.replace("_", " ").title()


def event_lines(events: Iterable[Event]) -> list[str]:
    """One line per answer, automatic step and VP change, in order."""
    return [line for e in events if (line := event_line(e)) is not None]


def event_line(e: Event, *, who: bool = True) -> str | None:
    """An event as a line ('USA: +3 VP (contract:12)'), None for events shown only in pictures.

    `who=False` leaves out the company (when a heading already names it).
    """
    name = company_name(e.company) if e.company else "Game"
    if e.kind == "auto":
        text = f"{e.text} (only option)"
    elif e.kind in _LOGGED_RESOURCES and e.amount:
        text = f"{e.amount:+d} VP ({e.source or '?'})"
    elif e.kind == "contracts_revealed":
        ids = ", ".join(str(i) for i in e.data.get("ids", ()))
        return f"New contracts revealed: {ids}"
    elif e.kind in ("answer", "skipped") or (e.text and e.kind != "turn_end"):
        text = e.text
    else:
        return None
    if not text:
        return None
    return f"{name}: {text}" if who or not e.company else text


def company_text(state: GameState, company: str) -> str:
    """A short text summary of one company board."""
    c = state.companies[company]
    placed = ", ".join(f"{n} {kind}" for kind, n in c.placed.items() if n) or "nothing built"
    contracts = ", ".join(str(i) for i in c.contracts) or "none"
    text = (
        f"{company_name(company)} (seat {c.seat + 1}, officer {c.officer}): {c.vp} VP, "
        f"{c.credits} credits, {c.excavators} excavators, {c.mixers} mixers, "
        f"{c.engineers} engineers, {c.energy} energy this round; built: {placed}; "
        f"open contracts: {contracts}; fulfilled: {len(c.fulfilled)}"
    )
    return (
        text
        + _leeghwater_text(state, company)
        + _colorado_text(state, company)
        + _nile_text(state, company)
    )


def _leeghwater_text(state: GameState, company: str) -> str:
    """The Leeghwater Project's part: Private Buildings activated and External Works done."""
    board = state.extra.get(LEEGHWATER)
    if not isinstance(board, dict):
        return ""
    buildings = load_content().private_buildings
    mine = [
        buildings[tile].name if tile in buildings else tile
        for tile, who in board.get("building_spaces", {}).items()
        if company in who
    ]
    works = state.companies[company].extra.get("external_works", [])
    return (
        f"; Private Buildings: {', '.join(mine) or 'none'}; "
        f"External Works: {', '.join(works) or 'none'}"
    )


def _colorado_text(state: GameState, company: str) -> str:
    """The Colorado Connection's part: Bridges owned and settlements activated this round."""
    board = state.extra.get(COLORADO)
    if not isinstance(board, dict):
        return ""
    # A Bridge belongs to whoever owns the dam under it.
    bridges = [
        f"{tile} on {space}"
        for space, tile in board.get("bridges", {}).items()
        if (dam := state.dams.get(space)) is not None and dam.owner == company
    ]
    settled = [
        f"{space} ({board.get('settlements', {}).get(space, '?')})"
        for space in board.get("settlements", {})
        if any(who == company for who, *_ in state.spaces.get(space, ()))
    ]
    return (
        f"; Bridges: {', '.join(bridges) or 'none'}; "
        f"settlements this round: {', '.join(settled) or 'none'}"
    )


def _nile_text(state: GameState, company: str) -> str:
    """The Nile Affair's part: irrigation tokens (used ones marked) and scoring tokens won."""
    if not isinstance(state.extra.get(NILE), dict):
        return ""
    extra = state.companies[company].extra
    down = set(extra.get("irrigation_down", ()))
    tokens = [f"{t} (used)" if t in down else t for t in extra.get("irrigation", ())]
    won = extra.get("irrigation_scoring", ())
    bonus = extra.get("irrigation_bonus", 0)
    return (
        f"; irrigation tokens: {', '.join(tokens) or 'none'}"
        + (f" (+{bonus} irrigation)" if bonus else "")
        + f"; irrigation scoring tokens: {', '.join(won) or 'none'}"
    )


#: Score breakdown groups of event sources whose first part alone says too little.
_GROUPS = {
    "end:building": "private buildings",
    "building": "building actions",
    "external_work": "external works",
    "bridge": "bridges",
    "settlement": "settlements",
    "toll": "settlement tolls",
    "irrigation": "irrigation tokens",
}


def source_group(source: str) -> str:
    """The group of an event source in a score breakdown ('income:base:2' → 'income').

    Private Buildings' end VP ('end:building:cofferdam') are their own group, apart from the
    other end-of-game VP; the Nile's round scoring ('irrigation:round3') is apart from the
    irrigation tokens' own VP ('irrigation:IM7').
    """
    if not source:
        return "other"
    parts = source.split(":")
    if parts[0] == "irrigation" and len(parts) > 1 and parts[1].startswith("round"):
        return "irrigation scoring"
    return _GROUPS.get(":".join(parts[:2])) or _GROUPS.get(parts[0]) or parts[0]
