"""The Nile Affair in pictures: the irrigation zones, river source tokens, irrigation scoring.

The engine's state is `state.extra["nile"]` (bot/rules/expansions/nile/board.py): `zones`
({zone: {irrigation space: stack, bottom first}}: the visible token is the last; an empty
stack shows the space's VP) and `scoring_tokens` (IS1..IS5 not yet awarded). Per company
(`company.extra`): `irrigation` (tokens held), `irrigation_down` (activated, face down),
`irrigation_scoring` (scoring tokens won), `irrigation_bonus` (A7's permanent bonus). The
river source tokens lie on the headstreams (`state.headstream_tiles`, "RS3"). Engineers on
an irrigation action space are in `state.spaces` for the round. Every selectable thing carries
the id its notation uses: `irrigate IZ_M_A2`, `drain D2U`, `irrigation IM3`, `activate IM3`,
`flip IM3`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from PIL import Image

from bot.rules.content import company_name
from bot.rules.state import Company, GameOptions, GameState
from renderer import draw as d
from renderer.background import feature_background, feature_canvas, feature_fill
from renderer.content import content
from renderer.expansions.drawing import Drawing
from renderer.layout import Rect
from renderer.theme import Theme
from renderer.words import plural

KEY = "nile"


def active(options: GameOptions) -> bool:
    """True when the game plays The Nile Affair."""
    return KEY in options.expansions


def board(state: GameState) -> dict[str, Any]:
    """The expansion's part of the state ({} before setup)."""
    return state.extra.get(KEY) or {}


def _data(state: GameState) -> Any:
    return content(state.options.expansions).of(KEY)


def _map_rows(state: GameState, table: str) -> dict[str, Any]:
    features = content(state.options.expansions).maps[state.options.map].features
    return {row["id"]: row for row in features.get(table, ())}


def token_points(state: GameState) -> dict[str, int]:
    """Irrigation points of every irrigation token."""
    return {row["id"]: row["irrigation_points"] for row in _data(state)["irrigation_token"]}


def stacks(state: GameState) -> dict[str, list[str]]:
    """{irrigation space: its stack, bottom first} over every zone."""
    return {
        space: list(stack)
        for zone in board(state).get("zones", {}).values()
        for space, stack in zone.items()
    }


def visible_vp(state: GameState) -> int:
    """VP shown by the empty irrigation spaces (the round's irrigation scoring adds them)."""
    printed = {k: v["vp_when_empty"] for k, v in _map_rows(state, "irrigation_space").items()}
    return sum(printed.get(space, 0) for space, stack in stacks(state).items() if not stack)


def irrigation_total(state: GameState, company: Company) -> int:
    """A company's irrigation total: its tokens' points, scoring tokens' penalties, A7's bonus."""
    points = token_points(state)
    penalties: dict[str, int] = {
        row["id"]: row["penalty"] for row in _data(state)["irrigation_scoring_token"]
    }
    extra = company.extra
    return (
        sum(points.get(t, 0) for t in extra.get("irrigation", []))
        + sum(penalties.get(t, 0) for t in extra.get("irrigation_scoring", []))
        + int(extra.get("irrigation_bonus", 0))
    )


def scoreboard_columns() -> tuple[tuple[str, str, Any], ...]:
    """Its column of the scoreboard: each company's irrigation total (what irrigation scoring
    compares)."""
    return (("irr", "irrigation", lambda s, c: irrigation_total(s, s.companies[c])),)


def next_scoring_token(state: GameState) -> str | None:
    """The scoring token this round's irrigation scoring awards (None when none is left)."""
    left = board(state).get("scoring_tokens", [])
    for row in _data(state)["irrigation_scoring_token"]:
        if row["round"] == state.round and row["id"] in left:
            return str(row["id"])
    return None


def source_of(state: GameState, token: str) -> str | None:
    """The headstream a river source token lies on, if any."""
    for hs, tile in state.headstream_tiles.items():
        if str(tile) == token:
            return hs
    return None


def key_entries(view: str) -> tuple[tuple[str, str], ...]:
    """Its symbols in the compact key of the map and of its own view."""
    if view == "irrigation":
        return (
            ("IZ_M", "irrigation zone (mountains)"),
            ("→ 2 3", "basins it irrigates"),
            ("S1", "irrigation space"),
            ("+1", "tokens under the top one"),
            ("A1", "action space"),
            ("0-1-2-1", "drops per round"),
            ("piece", "company"),
        )
    return (("RS7", "river source token"), ("course", "the Nile's course")) if view == "map" else ()


def legend_sections() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Its sections of the legend picture."""
    return (
        (
            "The Nile Affair",
            (
                ("RS7", "river source token 7 on a headstream"),
                ("course", "the Nile's course over the map"),
                ("IZ_M", "irrigation zone of the mountains (H hills, P plains)"),
                ("→ 2 3", "the basins a zone irrigates"),
                ("S1", "irrigation space 1 of a zone; IM1 the token on it"),
                ("+1", "more tokens under the one on top"),
                ("A1", "a zone's action space (free, or its cost)"),
                ("0-1-2-1", "a source token's drops per round"),
            ),
        ),
    )


#: Its own view: the irrigation zones and the river source tokens (key: title).
VIEWS = {"irrigation": "Irrigation zones and river sources"}
FEATURES = "nile_features"


def view_background(view: str, theme_name: str) -> Image.Image:
    """The static part of the irrigation view: every zone, space and source token, labelled."""
    return feature_background(FEATURES, theme_name)


def draw_view(
    view: str,
    state: GameState,
    theme: Theme,
    highlight: Collection[str] = (),
    dirty: list[Rect] | None = None,
) -> Image.Image:
    """The zones' visible tokens, who used the action spaces, where each source lies."""
    image, draw, layout = feature_canvas(FEATURES, theme, dirty)
    sizes = theme.views["map"].text
    lit = {str(h) for h in highlight}
    text = theme.colour("text")
    on_spaces = stacks(state)
    space_rows = _map_rows(state, "irrigation_space")
    actions = _map_rows(state, "irrigation_action_space")
    zones = _map_rows(state, "irrigation_zone")
    sources = _map_rows(state, "river_source_token")
    for fid, feature in layout.features.items():
        x0, _y0, _x1, y1 = feature.rect
        line2 = (x0 + 10, y1 - 6 - (sizes["small"] + 8) // 2)
        # The state's line is drawn on the feature's box (`draw.text`'s ``on``).
        on = feature_fill(theme, feature.kind)
        ring = fid in lit
        if feature.kind == "irrigation_space":
            ink = theme.colour("space text")
            stack = on_spaces.get(fid, [])
            if stack:
                top = stack[-1]
                # The visible token, and how many lie under it.
                line = f"{top} +{len(stack) - 1}" if len(stack) > 1 else top
                ring = ring or top in lit
            else:
                line = f"{space_rows.get(fid, {}).get('vp_when_empty', 0)} VP"
            d.text(draw, line2, line, sizes["small"], ink, "bold", "lm", on=on)
        elif feature.kind == "irrigation_action":
            ink = theme.colour("space text")
            who = [str(c) for c, _n in state.spaces.get(fid, [])]
            if who:
                for k, company_id in enumerate(who):
                    at = (x0 + 28 + 46 * k, line2[1])
                    d.piece(draw, at, 20, theme.company(company_id), sizes["small"])
            else:
                credits = actions.get(fid, {}).get("extra_credits") or (
                    3 if actions.get(fid, {}).get("red_outline") else 0
                )
                line = f"{credits}c" if credits else "free"
                d.text(draw, line2, line, sizes["small"], ink, "regular", "lm", on=on)
        elif feature.kind == "irrigation_zone":
            basins = zones.get(fid, {}).get("connected_basins", [])
            line = "→ " + " ".join(str(b) for b in basins)
            d.text(draw, line2, line, sizes["small"], text, "regular", "lm", on=on)
        elif feature.kind == "river_source":
            hs = source_of(state, fid)
            drops = sources.get(fid, {}).get("drops_per_round", [])
            if hs:
                now = drops[state.round - 1] if 0 < state.round <= len(drops) else 0
                line = f"{hs} +{now}"
            else:
                line = "-".join(str(n) for n in drops) or "—"
            d.text(draw, line2, line, sizes["small"], text, "regular", "lm", on=on)
        elif feature.kind == SCORING:
            room = feature.rect[2] - x0 - 20
            line = d.first_fitting(scoring_lines(state), sizes["small"], room)
            d.text(draw, line2, line, sizes["small"], text, "regular", "lm", on=on)
        else:
            continue
        if ring:
            d.ring(draw, feature.rect, theme.colour("highlight"), text, width=5)
    return image


def company_lines(state: GameState, company: Company) -> list[tuple[str, ...]]:
    """The company's irrigation state in words, for its board: each line with its shorter
    forms (the tokens by side, then grouped by kind, then counted by kind)."""
    if not active(state.options):
        return []
    extra = company.extra
    tokens = list(extra.get("irrigation", []))
    down = [t for t in tokens if t in set(extra.get("irrigation_down", []))]
    up = [t for t in tokens if t not in down]
    held = [f"{t} (down)" if t in down else f"{t} (up)" for t in tokens]
    won = " ".join(extra.get("irrigation_scoring", [])) or "none"
    bonus = int(extra.get("irrigation_bonus", 0))
    total = irrigation_total(state, company)
    return [
        (
            f"Irrigation tokens ({len(held)}): " + (", ".join(held) if held else "none"),
            f"Tokens up: {' '.join(up) or 'none'} · down: {' '.join(down) or 'none'}",
            f"Tokens up: {_grouped(up)} · down: {_grouped(down)}",
            f"Tokens up: {_counted(up)} · down: {_counted(down)}",
        ),
        (
            f"Irrigation total {total} · permanent bonus +{bonus} · scoring tokens: {won}",
            f"Irrigation total {total} · bonus +{bonus} · scoring tokens: {won}",
            f"Total {total} · bonus +{bonus} · scoring: {won}",
        ),
    ]


def _kinds(tokens: list[str]) -> dict[str, list[str]]:
    """Tokens by kind: "IM" -> ["1", "7"] for IM1 and IM7."""
    out: dict[str, list[str]] = {}
    for token in tokens:
        out.setdefault(token[:2], []).append(token[2:])
    return out


def _grouped(tokens: list[str]) -> str:
    """ "IM1,7 IH6" for IM1, IM7 and IH6."""
    return " ".join(kind + ",".join(n) for kind, n in _kinds(tokens).items()) or "none"


def _counted(tokens: list[str]) -> str:
    """ "2 IM, 1 IH" for IM1, IM7 and IH6."""
    return ", ".join(f"{len(n)} {kind}" for kind, n in _kinds(tokens).items()) or "none"


def scoring_line(state: GameState) -> str:
    """The round's irrigation scoring: its token, the VP showing, each company's total and the
    tokens left (in words)."""
    return scoring_lines(state)[0]


def scoring_lines(state: GameState) -> tuple[str, str, str]:
    """`scoring_line` and its two shorter forms (the tokens left counted; the words "this
    round" and "showing" left out), for the irrigation view's scoring box."""
    token = next_scoring_token(state)
    totals = " ".join(
        f"{theme_letter(cid)}{irrigation_total(state, state.companies[cid])}"
        for cid in state.turn_order
        if cid in state.companies
    )
    tokens = board(state).get("scoring_tokens", [])
    left = " ".join(tokens) or "none"
    head = f"{token} this round" if token else "no token this round"
    vp = visible_vp(state)
    return (
        f"{head} · {vp}VP showing · totals {totals} · left {left}",
        f"{head} · {vp}VP showing · totals {totals} · {len(tokens)} left",
        f"{token or 'no token'} · {vp}VP · totals {totals} · {len(tokens)} left",
    )


def theme_letter(company_id: str) -> str:
    """A company's letter (as on its pieces)."""
    from renderer.theme import get_theme

    return get_theme().company(company_id).letter


def describe_lines(state: GameState) -> list[str]:
    """The Nile state in words, for ``describe``."""
    if not active(state.options):
        return []
    shown = []
    for space, stack in stacks(state).items():
        shown.append(f"{space} {stack[-1]} ({len(stack)} left)" if stack else f"{space} empty")
    lines = ["Irrigation spaces: " + "; ".join(shown) + "."]
    for cid, company in state.companies.items():
        held = company.extra.get("irrigation", [])
        down = set(company.extra.get("irrigation_down", []))
        tokens = ", ".join(f"{t}{' face down' if t in down else ''}" for t in held) or "none"
        lines.append(
            f"{company_name(cid)} irrigation: {plural(irrigation_total(state, company), 'point')}, "
            f"tokens {tokens}."
        )
    lines.append(f"Irrigation scoring: {scoring_line(state)}.")
    return lines


# -- the layout generator's rows (renderer.layout.generate_features) ---------------------

FEATURE_TITLE = "Irrigation zones and river source tokens"


def feature_rows(features: Any, width: int, gap: int) -> list[list[tuple[str, str, int]]]:
    """The layout generator's rows below the map (`renderer.layout.generate_features`): per
    zone, the zone, its irrigation spaces, its action spaces; then the source tokens."""
    rows = []
    for zone in features["irrigation_zone"]:
        members = len(zone["irrigation_spaces"]) + len(zone["action_spaces"])
        each = (width - gap * members) // (members + 1)
        row = [(zone["id"], "irrigation_zone", each)]
        row += [(s, "irrigation_space", each) for s in zone["irrigation_spaces"]]
        row += [(s, "irrigation_action", each) for s in zone["action_spaces"]]
        rows.append(row)
    tokens = features["river_source_token"]
    each = (width - gap * (len(tokens) - 1)) // len(tokens)
    rows.append([(t["id"], "river_source", each) for t in tokens])
    rows.append([("Scoring", SCORING, width)])  # the round's irrigation scoring
    return rows


#: The map topology's key of the great river's course (`renderer.layout.generate_features`).
COURSE_KEY = "nile_course"

#: The irrigation view's box for the round's irrigation scoring (no feature of the map).
SCORING = "irrigation_scoring"


# -- samples (renderer.samples, tests) ----------------------------------------------------------

SAMPLE_BACKGROUNDS = ("nile",)  # the docs show its static map


def sample_state(seed: int = 5, setup: str = "intro", leeghwater: bool = False) -> GameState:
    """Return round 3 of a seeded 3-player Nile game, irrigation in use."""
    expansions = ("nile", "leeghwater") if leeghwater else ("nile",)
    options = GameOptions(players=3, seed=seed, setup=setup, map="nile", expansions=expansions)
    from renderer.samples import played

    return played(options, ("irrigate", "drain", "irrigation", "activate"), 3, 20)


def samples() -> dict[str, tuple[GameState, str]]:
    """The docs' sample pictures of the expansion: file name -> (state, view)."""
    state = sample_state()
    return {
        "sample-nile-map.png": (state, "map"),
        "sample-nile-irrigation.png": (state, "irrigation"),
    }


#: What the renderer draws of the Nile (`renderer.expansions.drawing`).
DRAWING = Drawing(
    views=VIEWS,
    view_background=view_background,
    draw_view=draw_view,
    scoreboard_columns=scoreboard_columns,
    key_entries=key_entries,
    legend_sections=legend_sections,
    company_lines=company_lines,
    describe_lines=describe_lines,
    feature_rows=feature_rows,
    feature_title=FEATURE_TITLE,
    course_key=COURSE_KEY,
    samples=samples,
    sample_backgrounds=SAMPLE_BACKGROUNDS,
    sample_state=sample_state,
)
