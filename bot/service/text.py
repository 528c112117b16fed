"""Turning engine events and states into short lines of text."""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules import Event, GameState
from bot.rules.content import load_content

#: The Leeghwater Project's key in the state's `extra` (and in GameOptions.expansions).
LEEGHWATER = "leeghwater"

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
    lines = []
    for e in events:
        who = company_name(e.company) if e.company else "Game"
        if e.kind == "answer":
            lines.append(f"{who}: {e.text}")
        elif e.kind == "auto":
            lines.append(f"{who}: {e.text} (only option)")
        elif e.kind == "skipped":
            lines.append(f"{who}: {e.text}")
        elif e.kind in _LOGGED_RESOURCES and e.amount:
            source = e.source or "?"
            lines.append(f"{who}: {e.amount:+d} VP ({source})")
        elif e.kind == "contracts_revealed":
            ids = ", ".join(str(i) for i in e.data.get("ids", ()))
            lines.append(f"New contracts revealed: {ids}")
        elif e.text and e.kind not in ("turn_end",):
            lines.append(f"{who}: {e.text}")
    return lines


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
    return text + _leeghwater_text(state, company)


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


#: Score breakdown groups of event sources whose first part alone says too little.
_GROUPS = {
    "end:building": "private buildings",
    "building": "building actions",
    "external_work": "external works",
}


def source_group(source: str) -> str:
    """The group of an event source in a score breakdown ('income:base:2' → 'income').

    Private Buildings' end VP ('end:building:cofferdam') are their own group, apart from the
    other end-of-game VP.
    """
    if not source:
        return "other"
    parts = source.split(":")
    return _GROUPS.get(":".join(parts[:2])) or _GROUPS.get(parts[0]) or parts[0]
