"""A text summary of a game state, for captions, accessibility and tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.rules.content import company_name
from bot.rules.state import NEUTRAL, GameState
from renderer.automa import automa_title, next_card
from renderer.content import content
from renderer.expansions import asking
from renderer.header import Who, acting, deadline_parts, rows
from renderer.map_view import ROUNDS
from renderer.people import Player, by_company, computer
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
    for describe_lines in asking(state.options.expansions, lambda each: each.describe_lines):
        lines += describe_lines(state)
    return "\n".join(lines)


#: Discord's limit on an attachment's description (its alt text).
ALT_LIMIT = 1024


def person(state: GameState, company: str, players: Mapping[str, Player]) -> str:
    """'France (Alice)', 'Italy (hard automa, level 2)' or 'France' when nobody is named."""
    player = players.get(company)
    seat = computer(state, company, player)
    who = seat.title() if seat is not None else (player.name or player.fallback if player else "")
    return f"{company_name(company)} ({who})" if who else company_name(company)


def alt_text(
    state: GameState,
    what: str,
    *,
    players: Iterable[Player] = (),
    last_turn: Sequence[str] = (),
    changed: Sequence[str] = (),
    changed_since: str = "",
    deadlines: Sequence[tuple[str, int]] = (),
) -> str:
    """A picture's alt text (at most ALT_LIMIT characters): what it shows, whose turn it is
    (and by when, as the header says it), each company with its score, and what the last turn
    did."""
    named = by_company(players)
    head = f"{what}."
    if state.finished:
        ranking = state.result.get("ranking", [])
        places = ", ".join(
            f"{r['place']}. {person(state, r['company'], named)} {r['vp']} VP" for r in ranking
        )
        status = f"Game over: {places}." if places else "Game over."
    elif not state.companies:
        status = f"Round {state.round} of {ROUNDS}, the draft of companies."
    else:
        now = [cid for cid in acting(state) if cid in state.companies]
        whose = (
            f"{person(state, now[0], named)} to play"
            if len(now) == 1
            else f"{len(now)} companies choosing"
            if now
            else phase_text(state.phase)
        )
        scores = ", ".join(
            f"{person(state, cid, named)} {state.companies[cid].vp} VP" for cid in rows(state)
        )
        status = f"Round {state.round} of {ROUNDS}: {whose}. Scores: {scores}."
    parts = [head, status]
    due = deadline_parts(Who(deadlines=tuple(deadlines)))
    if due:
        parts.append("; ".join(due) + ".")
    if changed:
        since = f"since {changed_since}" if changed_since else "by the last turn"
        parts.append(f"Changed {since}: {', '.join(changed)}.")
    if last_turn:
        parts.append("Last turn: " + " ".join(_sentences(last_turn)))
    return _within(" ".join(parts), ALT_LIMIT)


def _sentences(lines: Iterable[str]) -> list[str]:
    """A turn message's lines as sentences: a heading ending in ':' takes the bullet lines
    under it as one sentence ("USA (automa) played: took 1 mixer; turned its wheel."), so
    each sentence says whose it is and two companies' equal lines never read as one repeated."""
    out: list[str] = []
    heading: list[str] | None = None
    for raw in lines:
        line = " ".join(raw.split())
        if not line:
            continue
        bullet = line[0] in "•·-"
        line = line.lstrip("•·- ").rstrip()
        if bullet and heading is not None:
            heading.append(line.rstrip("."))
            continue
        if heading is not None:
            out.append(_joined(heading))
            heading = None
        if line.endswith(":"):
            heading = [line]
        else:
            out.append(line if line.endswith((".", "!", "?")) else f"{line}.")
    if heading is not None:
        out.append(_joined(heading))
    return _repeats_told(out)


def _repeats_told(sentences: list[str]) -> list[str]:
    """Sentences said again (an automa turning its wheel on each of its turns) told as such:
    a run of equal ones once with how often ("… 1 segment (twice)."), a later one "Again, …"."""
    runs: list[tuple[str, int]] = []
    for sentence in sentences:
        if runs and runs[-1][0] == sentence:
            runs[-1] = (sentence, runs[-1][1] + 1)
        else:
            runs.append((sentence, 1))
    out: list[str] = []
    seen: set[str] = set()
    for sentence, times in runs:
        told = f"Again, {sentence}" if sentence in seen else sentence
        if times > 1:
            how = "twice" if times == 2 else f"{times} times"
            told = f"{told[:-1]} ({how}){told[-1]}"
        seen.add(sentence)
        out.append(told)
    return out


def _joined(heading: list[str]) -> str:
    """A heading and its items as one sentence."""
    head, *items = heading
    if not items:
        return head.rstrip(":") + "."
    return f"{head} {'; '.join(items)}."


def _within(text: str, limit: int) -> str:
    """``text`` to at most ``limit`` characters, ending with '…' when cut: at the last whole
    sentence or clause that fits (never inside a number and its unit), else at a word."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    for mark in (". ", "; "):
        at = cut.rfind(mark)
        if at > limit // 2:
            return cut[: at + 1].rstrip(" ;") + " …"
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;") + "…"


def changed_spaces(before: GameState, after: GameState) -> list[str]:
    """The map's spaces whose pieces or water differ between two states, in map order
    (dams, conduits, powerhouses, headstreams; an expansion's own pieces are not listed)."""
    out: list[str] = []
    for sid in sorted(set(before.dams) | set(after.dams)):
        was, now = before.dams.get(sid), after.dams.get(sid)
        if (
            was is None
            or now is None
            or (was.owner, was.level, was.water)
            != (
                now.owner,
                now.level,
                now.water,
            )
        ):
            out.append(sid)
    for old, new in ((before.conduits, after.conduits), (before.powerhouses, after.powerhouses)):
        out += [sid for sid in sorted(set(old) | set(new)) if old.get(sid) != new.get(sid)]
    heads = set(before.headstream_water) | set(after.headstream_water)
    out += [
        hs
        for hs in sorted(heads)
        if before.headstream_water.get(hs, 0) != after.headstream_water.get(hs, 0)
    ]
    return list(dict.fromkeys(out))
