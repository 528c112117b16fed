"""A text summary of a game state, for captions, accessibility and tests."""

from __future__ import annotations

from bot.rules.content import company_name
from bot.rules.state import NEUTRAL, GameState
from renderer.automa import automa_title, next_card
from renderer.content import content
from renderer.expansions import asking
from renderer.map_view import ROUNDS
from renderer.theme import get_theme
from renderer.words import phase_text, plural


def describe(state: GameState) -> str:
    """Return a plain-text summary: round, phase, turn order, each company, the map's water."""
    c = content(state.options.expansions)
    lines: list[str] = []
    if state.finished:
        ranking = state.result.get("ranking", [])
        places = ", ".join(
            f"{r['place']}. {company_name(r['company'])} {r['vp']} VP" for r in ranking
        )
        lines.append(f"Game over. {places}".rstrip())
    else:
        lines.append(f"Round {state.round} of {ROUNDS}, phase {phase_text(state.phase)}.")
    order = ", ".join(company_name(cid) for cid in state.turn_order)
    lines.append(f"Turn order: {order}.")
    if state.current and not state.finished:
        lines.append(f"{company_name(state.current)} to play.")
    styles = get_theme().companies
    for cid, co in state.companies.items():
        officer = c.officers.get(co.officer)
        placed = ", ".join(
            plural(co.placed.get(k, 0), k) for k in ("base", "elevation", "conduit", "powerhouse")
        )
        contracts = ", ".join(str(x) for x in co.contracts) or "none"
        marks = "; ".join(m for m in (automa_title(state, cid), next_card(state, cid)) if m)
        lines.append(
            f"{company_name(cid)} ({styles[cid].letter}, {styles[cid].shape}; "
            + (f"{marks}; " if marks else "")
            + f"{officer.name if officer else 'no officer'}): {co.vp} VP, {co.energy} energy, "
            f"{plural(co.credits, 'credit')}, {plural(co.excavators, 'excavator')}, "
            f"{plural(co.mixers, 'mixer')}, {plural(co.engineers, 'engineer')}; built {placed}; "
            f"contracts {contracts}; {len(co.fulfilled)} fulfilled."
        )
    dams = [
        f"{sid} {'neutral' if d.owner == NEUTRAL else company_name(d.owner)} level {d.level} "
        f"holding {plural(d.water, 'drop')}"
        for sid, d in state.dams.items()
    ]
    lines.append("Dams: " + ("; ".join(dams) if dams else "none") + ".")
    if state.conduits:
        lines.append(
            "Conduits: "
            + ", ".join(f"{s} {company_name(o)}" for s, o in state.conduits.items())
            + "."
        )
    if state.powerhouses:
        lines.append(
            "Powerhouses: "
            + ", ".join(f"{s} {company_name(o)}" for s, o in state.powerhouses.items())
            + "."
        )
    heads = [
        f"{hs} tile {state.headstream_tiles.get(hs, '?')} with "
        f"{plural(state.headstream_water.get(hs, 0), 'drop')} waiting"
        for hs in sorted(state.headstream_tiles)
    ]
    if heads:
        lines.append("Headstreams: " + "; ".join(heads) + ".")
    for describe_lines in asking(state.options.expansions, "describe_lines"):
        lines += describe_lines(state)
    return "\n".join(lines)
