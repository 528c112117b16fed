"""The strip on top of every phone view: the turn line and the scoreboard.

The turn line says the round and what happens now ("Round 3/5 · France to play"); the
scoreboard has one row per company in turn order (final ranking once the game is over) with
VP, credits, excavators, mixers, each expansion's own counts, energy this round, engineers
left and contracts fulfilled, and marks who acts now. Both are drawn at the theme's "board"
size, the largest text of a view after its title (a capital at least width / 30).
During the draft the rows are the seats in picking order, with the company each has picked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from PIL import ImageDraw

from bot.rules.content import company_name
from bot.rules.state import GameState
from renderer import draw as d
from renderer import names
from renderer.automa import automa_level
from renderer.expansions import asking, catalogue
from renderer.layout import Rect
from renderer.people import Player, by_company, computer
from renderer.theme import Theme, ViewStyle
from renderer.words import phase_text

ROUNDS = 5
#: The scoreboard's mark of a company an automa plays without a level (the legend says it).
AUTOMA_MARK = "A"
#: The scoreboard's name column: at least this wide, or names are not drawn.
NAME_MIN_W = 160
MARGIN = 12
PAD = 10
MARK_W = 44  # the "▶" or place column
PIECE_W = 64  # the company's piece
COLUMN_GAP = 18


@dataclass(frozen=True, slots=True)
class Column:
    """One scoreboard column: its heading (a short form the key explains) and each row's value."""

    heading: str
    meaning: str
    value: Callable[[GameState, str], int | str]


BASE_COLUMNS = (
    Column("VP", "victory points", lambda s, c: s.companies[c].vp),
    Column("c", "credits", lambda s, c: s.companies[c].credits),
    Column("exc", "excavators", lambda s, c: s.companies[c].excavators),
    Column("mix", "mixers", lambda s, c: s.companies[c].mixers),
)
TAIL_COLUMNS = (
    Column("⚡", "energy this round", lambda s, c: s.companies[c].energy),
    Column("eng", "engineers left", lambda s, c: s.companies[c].engineers),
    Column("✓", "contracts fulfilled", lambda s, c: len(s.companies[c].fulfilled)),
)


def columns(state: GameState) -> tuple[Column, ...]:
    """The scoreboard's columns: the base game's resources, each expansion's, then the round's."""
    extra = tuple(
        Column(heading, meaning, value)
        for own in asking(state.options.expansions, lambda each: each.scoreboard_columns)
        for heading, meaning, value in own()
    )
    return (*BASE_COLUMNS, *extra, *TAIL_COLUMNS)


def rows(state: GameState) -> list[str]:
    """The scoreboard's rows: companies in turn order, by rank once the game is over, or the
    draft's seats in picking order."""
    if state.finished and state.result.get("ranking"):
        return [r["company"] for r in state.result["ranking"] if r["company"] in state.companies]
    if state.companies:
        return [c for c in state.turn_order if c in state.companies] or list(state.companies)
    return [f"seat{seat}" for seat in (state.extra.get("draft") or {}).get("order", [])]


def acting(state: GameState) -> list[str]:
    """Who must act now (one player, or several answering at once; [] when nobody)."""
    if state.finished:
        return []
    from bot.rules.catalogue import open_game

    game = open_game(state, catalogue=catalogue())
    out = []
    for player in game.deciders():
        if player and player not in out:
            out.append(player)
    return out


def turn_line(state: GameState, now: Sequence[str] | None = None) -> str:
    """'Round 3/5 · France to play', 'Round 2/5 · income: 2 choosing', 'Game over · USA wins'
    (``now``: who acts, `acting`, when the caller has it)."""
    if state.finished:
        ranking = state.result.get("ranking", [])
        winners = [company_name(r["company"]) for r in ranking if r.get("place") == 1]
        if len(winners) == 1:
            return f"Game over · {winners[0]} wins"
        return "Game over · shared win" if winners else "Game over"
    now = acting(state) if now is None else now
    head = f"Round {state.round}/{ROUNDS}"
    if not state.companies:
        return f"{head} · draft" + (f" · {company_name(now[0])} picks" if now else "")
    if len(now) == 1:
        automa = " (automa)" if automa_level(state, now[0]) is not None else ""
        return f"{head} · {company_name(now[0])}{automa} to play"
    if now:
        return f"{head} · {phase_text(state.phase)}: {len(now)} choosing"
    return f"{head} · {phase_text(state.phase)}"


def playing_lines(company_ids: Sequence[str]) -> list[str]:
    """Every turn line of one company to play ('Round 3/5 · France to play', an automa's too)
    of these companies: a picture's commonest new text (`render.warm` lays them out)."""
    return [
        f"Round {number}/{ROUNDS} · {company_name(cid)}{automa} to play"
        for cid in company_ids
        for number in range(1, ROUNDS + 1)
        for automa in ("", " (automa)")
    ]


def preview_line(state: GameState) -> str:
    """A private preview's turn line: 'Round 3/5 · your turn' (it is the viewer's turn in
    progress; short, so the preview's mark fits beside it)."""
    return f"Round {state.round}/{ROUNDS} · your turn"


def _line(style: ViewStyle) -> int:
    return style.text["board"] + 10


def height(
    state: GameState, style: ViewStyle, preview: bool = False, who: Who | None = None
) -> int:
    """The header's height for this state in a view of this style (a preview's banner, the
    last turn's changed spaces too)."""
    count = max(len(rows(state)), 1)
    banner = _banner(style) + 4 if preview and _preview_tag(state, style) is None else 0
    changes = _banner(style) if who is not None and who.changed and state.companies else 0
    deadlines = _banner(style) if who is not None and who.deadlines else 0
    return banner + deadlines + changes + least_height(count, style)


def least_height(rows: int, style: ViewStyle) -> int:
    """The header's height with ``rows`` scoreboard rows and no banner or extra line."""
    return MARGIN + _line(style) + style.text["small"] + 14 + rows * _line(style) + MARGIN


def _banner(style: ViewStyle) -> int:
    """A preview banner's height: one line of small text (the views stay within 2:1)."""
    return style.text["small"] + 14


#: The banner of a private preview: a turn in progress that nobody else sees.
PREVIEW_BANNER = "Preview · only you see this · Confirm to play it"
#: A preview's mark beside the turn line, the longest that fits (the view's title gives way).
PREVIEW_TAGS = ("Preview · only you see this", "Preview · only you", "Preview")
TAG_PAD = 14


def _preview_tag(state: GameState, style: ViewStyle) -> str | None:
    """The preview's mark that fits beside the turn line, or None: then it is a banner above,
    which makes the picture taller."""
    small = style.text["small"]
    head = preview_line(state)
    room = style.width - 2 * MARGIN - 24 - d.text_width(head, style.text["board"], "bold")
    for tag in PREVIEW_TAGS:
        if d.text_width(tag, small, "bold") + 2 * TAG_PAD <= room:
            return tag
    return None


@dataclass(frozen=True, slots=True)
class Who:
    """Who plays each company and what the last turn changed, as the header shows them."""

    players: tuple[Player, ...] = ()
    changed: tuple[str, ...] = ()
    #: Since when ``changed`` counts ("your last turn"); "" for the last turn.
    since: str = ""
    #: When each player asked to act must have acted: (company or draft seat, UTC epoch ms),
    #: soonest first (a clocked game; a posted picture never updates, so never a countdown).
    deadlines: tuple[tuple[str, int], ...] = ()


NOBODY = Who()

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def utc_time(ms: int) -> str:
    """An absolute time as every reader reads it alike: 'Thu 3 Dec, 14:00 UTC' (the names
    spelled here, whatever the process's locale)."""
    at = datetime.fromtimestamp(ms / 1000, UTC)
    return f"{DAYS[at.weekday()]} {at.day} {MONTHS[at.month - 1]}, {at:%H:%M} UTC"


def deadline_parts(who: Who) -> list[str]:
    """Each deadline as said: 'Italy: by Thu 3 Dec, 14:00 UTC', soonest first."""
    ordered = sorted(who.deadlines, key=lambda each: each[1])
    return [f"{company_name(player)}: by {utc_time(ms)}" for player, ms in ordered]


def deadline_line(who: Who, fits: Callable[[str], bool] = lambda _line: True) -> str:
    """The deadlines on one line: each that ``fits``, else the soonest and '+N' for the
    others ('' for none)."""
    parts = deadline_parts(who)
    if not parts:
        return ""
    every = " · ".join(parts)
    if len(parts) == 1 or fits(every):
        return every
    return f"{parts[0]} · +{len(parts) - 1}"


def changed_line(who: Who) -> str:
    """The line under the scoreboard naming the spaces the last turn changed ('' for none)."""
    if not who.changed:
        return ""
    if who.since:
        return f"Changed since {who.since}: " + ", ".join(who.changed)
    return "Last turn changed: " + ", ".join(who.changed)


@dataclass(frozen=True, slots=True)
class Drawn:
    """What the header drew: the texts a reader sees, for the text alternative and tests."""

    turn_line: str
    rows: tuple[str, ...]
    #: The deadlines' line under the scoreboard ('' for none).
    deadline: str = ""


def draw_header(
    draw: ImageDraw.ImageDraw,
    state: GameState,
    theme: Theme,
    style: ViewStyle,
    title: str,
    top: int = 0,
    *,
    preview: bool = False,
    who: Who = NOBODY,
) -> Drawn:
    """Draw the turn line (with the view's title when both fit) and the scoreboard at `top`,
    with each player's name beside their company's symbol; a preview's banner first, the
    spaces the last turn changed last."""
    width = style.width
    sizes = style.text
    text, muted = theme.colour("text"), theme.colour("text muted")
    # The header is drawn on a blank of the background's colour: a text over it, or inside a
    # box drawn for it, is said to be so (`draw.text`'s ``on``: drawn once, mapped once).
    blank = theme.colour("background")
    board, small = sizes["board"], sizes["small"]
    line = _line(style)
    y = top + MARGIN
    tag = _preview_tag(state, style) if preview else None
    if preview and tag is None:
        tall = _banner(style)
        banner = (MARGIN, y - 4, width - MARGIN, y + tall - 4)
        d.box(draw, banner, theme.colour("preview"), theme.colour("text"), 3, 10)
        label = PREVIEW_BANNER if d.fits(PREVIEW_BANNER, small, width - 60, "bold") else "Preview"
        at = (width // 2, y + tall // 2 - 4)
        d.text(draw, at, label, small, "#ffffff", on=theme.colour("preview"))
        y += tall + 4
    acts = acting(state)
    head = preview_line(state) if preview else turn_line(state, acts)
    at = (MARGIN + 6, y + line // 2)
    d.text(draw, at, head, board, text, anchor="lm", role="board", on=blank)
    room = width - 2 * MARGIN - 24 - d.text_width(head, board, "bold")
    if tag is not None:
        # A private preview: its mark takes the title's place, in the preview's colour.
        tag_w = round(d.text_width(tag, small, "bold")) + 2 * TAG_PAD
        box = (width - MARGIN - tag_w, y + 6, width - MARGIN, y + line - 6)
        d.box(draw, box, theme.colour("preview"), theme.colour("text"), 3, 10)
        at = ((box[0] + box[2]) // 2, y + line // 2)
        d.text(draw, at, tag, small, "#ffffff", on=theme.colour("preview"))
    elif title and d.text_width(title, small, "bold") <= room:
        at = (width - MARGIN - 6, y + line // 2)
        d.text(draw, at, title, small, muted, anchor="rm", on=blank)
    y += line
    now = set(acts)
    ids = rows(state)
    if not state.companies:
        y = _draft_rows(draw, state, theme, style, ids, now, y)
        return Drawn(head, tuple(ids), _deadlines(draw, who, theme, style, y))
    cols = columns(state)
    values = [[str(col.value(state, cid)) for col in cols] for cid in ids]
    widths = [
        max(
            d.text_width(col.heading, small, "bold"),
            *(d.text_width(v[i], board, "bold") for v in values),
        )
        + COLUMN_GAP
        for i, col in enumerate(cols)
    ]
    spare = width - 2 * MARGIN - MARK_W - PIECE_W - sum(widths)
    players = by_company(who.players)
    name_size = sizes["heading"]
    # A name takes at most a third of the width: the numbers stay the scoreboard's widest.
    shown = _names(state, players, ids, name_size, int(min(spare - COLUMN_GAP, width // 3)))
    name_w = 0
    if any(shown.values()):
        name_w = max(names.width(n, name_size) for n in shown.values() if n) + COLUMN_GAP
        spare -= name_w
    # Spread what is left over the columns, so the table fills the width.
    widths = [w + max(spare, 0) // len(widths) for w in widths]
    x0 = MARGIN + MARK_W + PIECE_W + name_w
    centres = []
    x: float = x0
    for w in widths:
        centres.append(x + w / 2)
        x += w
    ranks = {r["company"]: r["place"] for r in state.result.get("ranking", [])}
    marks, seats = {}, {}
    for cid in ids:
        marks[cid] = f"{ranks[cid]}." if state.finished and cid in ranks else ""
        seat = computer(state, cid, players.get(cid))
        seats[cid] = seat.mark() if seat is not None and cid not in now else ""
    board_rows = tuple(
        (cid, cid in now, marks[cid], seats[cid], shown.get(cid, ""), tuple(vals))
        for cid, vals in zip(ids, values, strict=True)
    )
    scoreboard = Scoreboard(
        theme,
        width,
        small,
        board,
        name_size,
        line,
        tuple(c.heading for c in cols),
        tuple(centres),
        board_rows,
    )
    if style.partial:
        # The same in every phone view of this style of the position (the map's, the shared
        # boards', each company's): drawn once, then pasted whole (on the header's blank,
        # nothing drawn there before it; its pieces reach into the margin below). The full
        # board is drawn once a position: it is not kept.
        bottom = y + small + 14 + len(ids) * line + MARGIN
        d.drawn_once(draw, scoreboard.key(), (0, y, width, bottom), scoreboard.at(y))
    else:
        scoreboard.draw(draw, y)
    y += small + 14 + len(ids) * line
    said = changed_line(who)
    if said:
        said = d.fit(said, small, width - 2 * MARGIN - 12, "regular")
        at = (MARGIN + 6, y + _banner(style) // 2)
        d.text(draw, at, said, small, text, "regular", anchor="lm", on=blank)
        y += _banner(style)
    return Drawn(head, tuple(ids), _deadlines(draw, who, theme, style, y))


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """What the scoreboard draws under the turn line: its columns' headings and centres, and
    each row's company, whether it acts, its place or computer mark, name and values."""

    theme: Theme
    width: int
    small: int
    board: int
    name_size: int
    line: int
    headings: tuple[str, ...]
    centres: tuple[float, ...]
    #: (company, acts now, place mark, computer mark, name, values) by row.
    rows: tuple[tuple[str, bool, str, str, str, tuple[str, ...]], ...]

    def key(self) -> tuple[object, ...]:
        """Everything it is drawn from (its theme by name)."""
        return ("scoreboard", self.theme.name, *(getattr(self, f) for f in _BOARD_FIELDS))

    def at(self, top: int) -> Callable[[ImageDraw.ImageDraw], None]:
        """Its painter at ``top`` (`draw.drawn_once`)."""
        return functools.partial(self.draw, top=top)

    def draw(self, draw: ImageDraw.ImageDraw, top: int) -> None:
        """Draw the headings and rows from ``top`` on the header's blank."""
        theme, small, board, line = self.theme, self.small, self.board, self.line
        text, muted = theme.colour("text"), theme.colour("text muted")
        blank, lit = theme.colour("background"), theme.colour("highlight")
        header_y = top + (small + 14) // 2
        for heading, cx in zip(self.headings, self.centres, strict=True):
            d.text(draw, (cx, header_y), heading, small, muted, on=blank)
        y = top + small + 14
        for cid, acts, mark, seat, name, vals in self.rows:
            cy = y + line // 2
            if acts:
                # The highlight box with its "▶" mark, drawn as one item: the mark's box
                # reaches the box's rounded corner, over the header's blank.
                paint = functools.partial(_acting_row, theme=theme, size=board, line=line)
                row = (MARGIN, y + 2, self.width - MARGIN, y + line - 2)
                d.item(draw, ("acting row", theme.name, board, line), row, paint)
            ink = "#1b1b1b" if acts else text
            under = lit if acts else blank
            if mark:
                at = (MARGIN + MARK_W // 2 + 2, cy)
                d.text(draw, at, mark, board, ink, role="board", on=blank)
            elif seat:  # a computer plays it
                d.text(draw, (MARGIN + MARK_W // 2 + 2, cy), seat, small, muted, on=under)
            d.piece(draw, (MARGIN + MARK_W + PIECE_W // 2, cy), 24, theme.company(cid), small)
            if name:
                at = (MARGIN + MARK_W + PIECE_W + 4, cy)
                masked = names.masked(name, self.name_size, "lm")
                d.coverage(
                    draw,
                    at,
                    masked,
                    name,
                    self.name_size,
                    ink,
                    "regular",
                    "lm",
                    on=under,
                    face="n",
                )
            for value, cx in zip(vals, self.centres, strict=True):
                d.text(draw, (cx, cy), value, board, ink, role="board", on=under)
            y += line


_BOARD_FIELDS = ("width", "small", "board", "name_size", "line", "headings", "centres", "rows")


def _deadlines(draw: ImageDraw.ImageDraw, who: Who, theme: Theme, style: ViewStyle, y: int) -> str:
    """Draw the deadlines' line at ``y`` (nothing without a clock); what it says."""
    small, room = style.text["small"], style.width - 2 * MARGIN - 12
    said = deadline_line(who, lambda line: d.fits(line, small, room, "bold"))
    if said:
        said = d.fit(said, small, room, "bold")
        at = (MARGIN + 6, y + _banner(style) // 2)
        blank = theme.colour("background")
        d.text(draw, at, said, small, theme.colour("text"), anchor="lm", on=blank)
    return said


def _names(
    state: GameState, players: dict[str, Player], ids: Sequence[str], size: int, room: int
) -> dict[str, str]:
    """What each row shows beside its symbol: the player's name cut to ``room`` pixels (or
    their fallback; a computer seat's mark is its name); none when there is no room."""
    if room < NAME_MIN_W:
        return {}
    out = {}
    for cid in ids:
        player = players.get(cid)
        seat = computer(state, cid, player)
        if seat is not None:
            out[cid] = names.fitted(seat.named_mark(), "", size, room)
        elif player is not None:
            out[cid] = names.fitted(player.name, player.fallback, size, room)
    return out


def _acting_row(
    draw: ImageDraw.ImageDraw, rect: Rect, *, theme: Theme, size: int, line: int
) -> None:
    """The scoreboard row's highlight box of whoever acts, with its "▶" mark, in ``rect`` on
    the header's blank (painted first: the item is then the same over anything)."""
    x0, y0, _x1, _y1 = rect
    draw.rectangle(rect, fill=theme.colour("background"))
    d.box(draw, rect, theme.colour("highlight"), theme.colour("text"), 2, 10)
    at = (x0 + MARK_W // 2 + 2, y0 - 2 + line // 2)
    d.text(draw, at, "▶", size, "#1b1b1b", role="board")


def _draft_rows(
    draw: ImageDraw.ImageDraw,
    state: GameState,
    theme: Theme,
    style: ViewStyle,
    seats: Sequence[str],
    now: set[str],
    y: int,
) -> int:
    """The draft's seats in picking order: who picked which company, who picks now; where
    they end."""
    sizes = style.text
    board, small = sizes["board"], sizes["small"]
    text, muted = theme.colour("text"), theme.colour("text muted")
    picks = {
        f"seat{seat}": company
        for seat, company, _officer, _contract in (state.extra.get("draft") or {}).get("picks", [])
    }
    d.text(
        draw,
        (MARGIN + MARK_W + PIECE_W, y + (small + 14) // 2),
        "picking order",
        small,
        muted,
        anchor="lm",
        on=theme.colour("background"),
    )
    y += small + 14
    line = _line(style)
    for seat in seats:
        cy = y + line // 2
        if seat in now:
            # The same highlight box and "▶" mark as the scoreboard's (one item).
            paint = functools.partial(_acting_row, theme=theme, size=board, line=line)
            row = (MARGIN, y + 2, style.width - MARGIN, y + line - 2)
            d.item(draw, ("acting row", theme.name, board, line), row, paint)
        ink = "#1b1b1b" if seat in now else text
        under = theme.colour("highlight" if seat in now else "background")
        picked = picks.get(seat)
        if picked:
            d.piece(draw, (MARGIN + MARK_W + PIECE_W // 2, cy), 24, theme.company(picked), small)
        words = company_name(seat) + (f" · {company_name(picked)}" if picked else "")
        x = MARGIN + MARK_W + PIECE_W + 8
        d.text(draw, (x, cy), words, board, ink, anchor="lm", role="board", on=under)
        y += line
    return y
