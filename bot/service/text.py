"""Turning engine events and states into short lines of text."""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules import Event, GameState
from bot.rules.catalogue import CATALOGUE
from bot.rules.content import company_name, load_content
from bot.rules.options import counted
from bot.rules.wording import source_text

#: Resource changes worth a line of their own in a log (the rest shows in the pictures).
_LOGGED_RESOURCES = ("vp",)


def event_lines(events: Iterable[Event]) -> list[str]:
    """One line per answer, automatic step and VP change, in order."""
    return [line for e in events if (line := event_line(e)) is not None]


def event_line(e: Event, *, who: bool = True) -> str | None:
    """An event as a line ('USA: +3 VP (contract 12)'), None for events shown only in pictures.

    `who=False` leaves out the company (when a heading already names it).
    """
    name = company_name(e.company) if e.company else "Game"
    if e.kind == "auto":
        text = f"{e.text} (only option)"
    elif e.kind in _LOGGED_RESOURCES and e.amount:
        why = source_text(e.source, CATALOGUE.content()) if e.source else ""
        text = f"{e.amount:+d} VP ({why})" if why else f"{e.amount:+d} VP"
    elif e.kind == "contracts_revealed":
        ids = ", ".join(str(i) for i in e.data.get("ids", ()))
        return f"New contracts revealed: {ids}"
    elif e.kind == "answer" and e.data.get("notation") == "confirm":
        text = "confirmed the turn"  # not the button's "Confirm turn"
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
    placed = ", ".join(counted(n, kind) for kind, n in c.placed.items() if n) or "nothing built"
    contracts = ", ".join(str(i) for i in c.contracts) or "none"
    text = (
        f"{company_name(company)} (seat {c.seat + 1}, officer {officer_name(c.officer)}): "
        f"{c.vp} VP, {counted(c.credits, 'credit')}, {counted(c.excavators, 'excavator')}, "
        f"{counted(c.mixers, 'mixer')}, {counted(c.engineers, 'engineer')}, "
        f"{c.energy} energy this round; built: {placed}; "
        f"open contracts: {contracts}; {counted(len(c.fulfilled), 'contract')} fulfilled"
    )
    for name in CATALOGUE.hook_order(e for e in state.options.expansions if e in CATALOGUE):
        text += CATALOGUE.hooks_class(name)().company_summary(state, company)
    return text


def officer_name(officer: str) -> str:
    """An executive officer's name ('solomon_p_jordan' -> 'Solomon P. Jordan')."""
    found = load_content().officers.get(officer)
    return found.name if found is not None else "an officer"


def _score_groups() -> tuple[dict[str, str], dict[str, str]]:
    """The expansions' score rows by event source (their declarations' `score`), lower case:
    (by source prefix, by a prefix of the whole source)."""
    rows: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    for info in CATALOGUE.expansions.values():
        for source, row in info.score.items():
            if source.endswith("*"):
                prefixes[source.removesuffix("*")] = row.lower()
            else:
                rows[source] = row.lower()
    return rows, prefixes


def source_key(source: str) -> str:
    """The part of an event source that decides its score row: a prefix an expansion declares
    ('irrigation:round'), a two-part source it declares ('end:building'), else the source's
    first part ('income:base:2' → 'income'). Results keep VP by these keys, so the score
    sheet's rows and the breakdown's groups can be read back from them without a replay."""
    if not source:
        return "other"
    rows, prefixes = _score_groups()
    for prefix in prefixes:
        if source.startswith(prefix):
            return prefix
    parts = source.split(":")
    two = ":".join(parts[:2])
    return two if two in rows else parts[0]


def source_group(source: str) -> str:
    """The group of an event source in a score breakdown ('income:base:2' → 'income').

    Expansions name the groups of their sources (the score sheet's rows): a two-part source
    ('end:building:cofferdam') may have a group apart from its first part's, and a source may
    be grouped by how it starts ('irrigation:round3').
    """
    key = source_key(source)
    rows, prefixes = _score_groups()
    return prefixes.get(key) or rows.get(key) or key
