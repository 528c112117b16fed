"""The words of a turn message, as lines that name people (`UserRef`) but build no markup.

A turn message reads in the order a person expects: who played what (and what was played for
someone: a forced turn, a skipped seat), what the round's scoring gave when it ran, how the
next round began, then the one line that tells whoever must act next that it is their turn.
The final message ends with the winner(s), the ranking and the tie-break when one decided it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.rules import Event, Game, GameState
from bot.rules.content import company_name
from bot.service.computer import ai_level_of
from bot.service.text import event_line
from bot.service.turns import AUTOMA, FORCED_TURN, SKIPPED_SEAT, TIMED_OUT, Step
from bot.service.types import Line, Part, UserRef

#: The user deciding for an engine player id (None when nobody sits there).
UserOf = Callable[[str | None], int | None]
#: A computer seat's kind for an engine player id ("AI strong"), None for a person's.
KindOf = Callable[[str | None], str | None]

#: Event sources of the end-of-game scoring (objective tile, resources, water, expansions').
_FINAL_SOURCES = ("objective", "end:")
#: Event sources of a round's scoring.
_SCORING_SOURCES = ("scoring", "bonus", "irrigation:round")


def who(player: str | None, user_of: UserOf, *, name_people: bool = True) -> list[Part]:
    """'France (@alice)': the company and the person playing it."""
    user = user_of(player) if name_people else None
    if user is None:
        return [company_name(player)]
    return [company_name(player), " (", UserRef(user), ")"]


@dataclass
class _Section:
    """One paragraph of a turn message: whose (None: the game's own flow), how, bullets."""

    owner: str | None
    how: str
    heading: list[Part]
    bullets: list[str] = field(default_factory=list)

    def lines(self, limit: int) -> list[Line]:
        """The heading and at most `limit` bullets (a flow heading alone only for a round)."""
        if not self.bullets:
            if self.how == "round":
                return [Line.of(str(self.heading[0]).removesuffix(":") + ".")]
            return [] if self.owner is None else [Line.of(*self.heading)]
        shown = self.bullets[:limit]
        out = [Line.of(*self.heading), *(Line.of("• ", bullet) for bullet in shown)]
        if len(self.bullets) > len(shown):
            out.append(Line.of(f"• … {len(self.bullets) - len(shown)} more (see the log)"))
        return out


def _heading(how: str, owner: str | None, user_of: UserOf, name_people: bool) -> list[Part]:
    if how == "auto":
        return [f"{company_name(owner)} had one possible move:"]
    person = who(owner, user_of, name_people=name_people)
    if how == FORCED_TURN:
        return [*person, " had a single possible move; it was confirmed for them:"]
    if how == SKIPPED_SEAT:
        return [*person, " (seat skipped) played automatically:"]
    if how == TIMED_OUT:
        return [*person, " ran out of time; the turn was passed for them:"]
    if how == AUTOMA:
        return [company_name(owner), " (automa) played:"]
    level = ai_level_of(how)
    if level is not None:
        return [company_name(owner), f" (AI {level}) played:"]
    if how == "chose":
        return [*person, " chose:"]
    return [*person, " played:"]


def _flow_kind(event: Event, round_no: int) -> tuple[str, str] | None:
    """The paragraph a flow event belongs to, as (kind, heading), or None for any."""
    if event.kind == "round":
        return "round", f"Round {event.amount} begins:"
    if event.source.startswith(_FINAL_SOURCES) or event.kind == "game_over":
        return "final", "End of the game:"
    if event.source.startswith(_SCORING_SOURCES):
        return "scoring", f"Scoring of round {round_no}:"
    return None


def _how(step: Step) -> str:
    """How a step's own answer is told: played, chose, or given on the player's behalf."""
    if step.on_behalf:
        return step.on_behalf
    return "chose" if step.simultaneous or step.kind.startswith("draft") else "played"


def story(
    steps: Sequence[Step],
    user_of: UserOf,
    *,
    round_no: int,
    limit: int = 12,
    name_people: bool = True,
) -> list[Line]:
    """What the steps did, paragraph by paragraph (at most `limit` bullets each).

    `round_no` is the round the first step was played in. People are named in the headings
    unless `name_people` is False (the final message names everyone once, in its ranking).
    """
    sections: list[_Section] = []
    current: _Section | None = None

    def begin(owner: str | None, how: str, heading: list[Part] | None = None) -> _Section:
        section = _Section(owner, how, heading or _heading(how, owner, user_of, name_people))
        sections.append(section)
        return section

    for step in steps:
        for index, event in enumerate(step.events):
            if index == 0:
                how = _how(step)
                if current is not None and current.owner == step.player and how != current.how:
                    if current.how == "auto":
                        # A turn the engine began by itself, now played (or confirmed for
                        # its player): one paragraph.
                        current.how = how
                        current.heading = _heading(how, step.player, user_of, name_people)
                    else:
                        current = None
                if current is None or current.owner != step.player:
                    current = begin(step.player, how)
            elif event.kind == "turn_end":
                current = None
                continue
            elif (
                event.kind == "auto"
                and event.company
                and (current is None or current.owner != event.company)
            ):
                current = begin(event.company, "auto")
            elif current is None or current.owner is None:
                flow = _flow_kind(event, round_no)
                if event.kind == "round":
                    round_no = event.amount
                if flow is not None and (current is None or current.how != flow[0]):
                    current = begin(None, flow[0], [flow[1]])
            if current is None or event.kind == "round":
                continue  # the heading tells it, or it shows only in the pictures
            if event.kind == "answer" and event.data.get("notation") in ("confirm", "automa"):
                continue  # the heading says the turn was played
            line = event_line(event, who=event.company != current.owner)
            if line is not None:
                current.bullets.append(line)
    return [line for section in sections for line in section.lines(limit)]


def next_lines(game: Game, user_of: UserOf, kind_of: KindOf | None = None) -> list[Line]:
    """Who must act now: "➡️ @bob (USA), your turn", or everyone asked at once; a seat the
    AI plays is thinking (it is never pinged)."""
    decisions = game.decisions()
    if not decisions:
        return []
    if kind_of is not None:
        thinking = [d.player for d in decisions if kind_of(d.player)]
        if thinking and len(thinking) == len(decisions):
            names = _names(thinking)
            kinds = ", ".join(dict.fromkeys(str(kind_of(p)) for p in thinking))
            return [Line.of(f"⏳ {names} ({kinds}) to move.")]
        decisions = [d for d in decisions if not kind_of(d.player)]
    if len(decisions) == 1:
        decision = decisions[0]
        what = "your pick in the draft" if decision.kind.startswith("draft") else "your turn"
        detail = "" if decision.kind == "turn" else f" — {decision.prompt}"
        return [Line.of("➡️ ", *_person(decision.player, user_of), f", {what}{detail}")]
    lines = [Line.of("➡️ Your choices, all at once and in any order:")]
    for decision in decisions:
        lines.append(Line.of("• ", *_person(decision.player, user_of), f": {decision.prompt}"))
    return lines


def _person(player: str | None, user_of: UserOf) -> list[Part]:
    """'@bob (USA)': the person first, then what they play."""
    user = user_of(player)
    if user is None:
        return [company_name(player)]
    return [UserRef(user), f" ({company_name(player)})"]


def final_lines(
    state: GameState,
    user_of: UserOf,
    notes: Mapping[str, str] | None = None,
    kind_of: KindOf | None = None,
) -> list[Line]:
    """The winner(s), the ranking (every player named once, a computer seat with its kind;
    `notes` end a company's line: its player's rating change) and the tie-breaks that
    decided."""
    ranking = list(state.result.get("ranking", []))
    if not ranking:
        return [Line.of("🏁 The game is over.")]
    winners = [entry["company"] for entry in ranking if entry["place"] == 1]
    best = ranking[0]["vp"]
    if len(winners) == 1:
        head = f"🏁 The game is over. 🏆 {company_name(winners[0])} wins with {best} VP."
    else:
        head = (
            f"🏁 The game is over. 🏆 {_names(winners)} share the victory with {best} VP each "
            "(equal VP and equal energy)."
        )
    lines = [Line.of(head), Line.of("Final ranking:")]
    for entry in ranking:
        kind = kind_of(entry["company"]) if kind_of is not None else None
        seat = [company_name(entry["company"]), f" ({kind})"] if kind else None
        lines.append(
            Line.of(
                f"{entry['place']}. ",
                *(seat or who(entry["company"], user_of)),
                f": {entry['vp']} VP{(notes or {}).get(entry['company'], '')}",
            )
        )
    lines.extend(Line.of(text) for text in tie_breaks(state))
    return lines


def tie_breaks(state: GameState) -> list[str]:
    """Sentences for the VP ties of the ranking: how the last round's energy broke them,
    and which places stay shared (equal VP and equal energy; a shared win is told above)."""
    ranking = list(state.result.get("ranking", []))
    out = []
    groups: dict[int, list[dict]] = {}
    for entry in ranking:
        groups.setdefault(entry["vp"], []).append(entry)
    for vp, group in groups.items():
        if len(group) < 2:
            continue
        places: dict[int, list[str]] = {}
        for entry in group:
            places.setdefault(entry["place"], []).append(entry["company"])
        if len(places) > 1:
            energies = ", ".join(
                f"{company_name(e['company'])} {state.companies[e['company']].energy}"
                for e in group
            )
            both = "both" if len(group) == 2 else "all"
            out.append(
                f"Tie-break: {_names(e['company'] for e in group)} {both} have {vp} VP; more "
                f"energy produced in the last round ranks higher ({energies})."
            )
        for place, companies in places.items():
            if len(companies) > 1 and place > 1:
                out.append(
                    f"{_names(companies)} share {_ordinal(place)} place "
                    "(equal VP and equal energy)."
                )
    return out


def _ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th."""
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def _names(companies: Iterable[str]) -> str:
    """'France', 'France and USA', 'France, USA and Italy'."""
    names = [company_name(c) for c in companies]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def draft_lines(
    state: GameState, user_of_seat: Callable[[int], int | None], *, named: bool = True
) -> list[Line]:
    """The draft so far: who picked which company, officer and contract; what is left
    (`named`: each person beside their seat)."""
    from bot.rules.content import load_content

    content = load_content()
    draft = state.extra.get("draft") or {}
    order = list(draft.get("order", []))
    picks = list(draft.get("picks", []))

    def seat(index: int) -> list[Part]:
        user = user_of_seat(index)
        if user is None:
            return [f"Seat {index + 1} (automa)"]
        if not named:
            return [f"Seat {index + 1}"]
        return [f"Seat {index + 1} (", UserRef(user), ")"]

    def officer(officer_id: str) -> str:
        found = content.officers.get(officer_id)
        return found.name if found is not None else officer_id

    lines = [
        Line.of(
            f"The draft is in progress: {len(picks)} of {len(order)} players have chosen their "
            "company, executive officer and starting contract."
        )
    ]
    for index, board, officer_id, contract in picks:
        lines.append(
            Line.of(
                "• ",
                *seat(index),
                f": {company_name(board)} with {officer(officer_id)}"
                + (f", starting contract {contract}" if contract is not None else ""),
            )
        )
    offer = "; ".join(f"{company_name(b)} with {officer(o)}" for b, o in draft.get("pairs", []))
    if offer:
        lines.append(Line.of(f"Still on offer: {offer}."))
    contracts = ", ".join(str(c) for c in draft.get("starting", []))
    if contracts:
        lines.append(Line.of(f"Starting contracts left: {contracts}."))
    if len(picks) < len(order):
        lines.append(Line.of("Next to choose: ", *seat(order[len(picks)]), "."))
    lines.append(Line.of("Scores and company boards start with round 1, after the draft."))
    return lines


__all__ = ["draft_lines", "final_lines", "next_lines", "story", "tie_breaks", "who"]
