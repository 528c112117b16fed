"""The Nile board: content, setup, the Nile's extra drops, irrigation zones and scoring.

State (`state.extra["nile"]`):
- `zones`: {zone: {irrigation space: [token, token]}}: each space's stack, bottom first, so
  the visible token is the last; an empty stack shows the space's VP (`vp_when_empty`);
- `scoring_tokens`: the irrigation scoring tokens not yet awarded or discarded (IS1..IS5);
- `works_removed`: with The Leeghwater Project, the External Works returned to the box.

Per company (`company.extra`): `irrigation` (tokens held, in the order taken),
`irrigation_down` (those activated: face down), `irrigation_scoring` (scoring tokens won)
and `irrigation_bonus` (permanent bonus to the irrigation total, External Work A7).

Data. The map, the river source tokens, the irrigation tokens' points and three of their
effect types (energy, VP, private contracts), the contracts' ids and energy, the works' piles
and costs, the Pumping Station's cost, VP and action spaces, the empty spaces' VP and IS5's
penalty are RECONSTRUCTED in nile.toml / nile_map.toml (their `provenance` says which
fields); the engine uses them as given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from bot.rules.construction import pieces_by_location
from bot.rules.content import (
    Content,
    HeadstreamTile,
)
from bot.rules.engine import Game
from bot.rules.errors import PositionError
from bot.rules.hidden import shuffled
from bot.rules.position import company_tables
from bot.rules.prng import SplitMix64
from bot.rules.rulebook import RuleSet
from bot.rules.state import Company, GameState
from bot.rules.tasks import Task

#: Its bonus tiles' counts (the package's rule set includes it).
RULES: RuleSet[Game] = RuleSet("nile.board")

KEY = "nile"
MAP = "nile"
LEEGHWATER = "leeghwater"


class NileTask(Task, total=False):
    """A task of the Nile's kinds, with the keys they add to the base game's."""

    #: nile_drain, nile_take, nile_again: the zones concerned (None: any zone).
    zones: list[str] | None
    #: nile_again: the irrigation space just drained.
    at: str
    #: nile_choose: the rewards to choose one of.
    alternatives: list[dict[str, Any]]
    #: The turn's confirm task: an irrigation token was activated this turn.
    nile_activated: bool


def nile_task(entry: Task) -> NileTask:
    """The same task with the Nile's keys in view: the Nile marks the turn's confirm task."""
    return cast(NileTask, entry)


def nile(game: Game) -> dict[str, Any]:
    """The expansion's part of the state."""
    return cast("dict[str, Any]", game.state.extra[KEY])


# -- content ---------------------------------------------------------------------------------


def extend_content(content: Content) -> Content:
    """Put the Nile's river source tokens in place of the base headstream tiles ("Overall
    Setup": the expansion's river source tokens are used instead of the base game ones). Its
    contracts, External Works and Pumping Station joined the shared tables with its set."""
    sources = tuple(
        HeadstreamTile(id=row["id"], drops_per_round=tuple(row["drops_per_round"]))
        for row in content.maps[MAP].features["river_source_token"]
    )
    return dataclasses.replace(content, headstream_tiles=sources)


def tokens(game: Game) -> dict[str, Mapping[str, Any]]:
    """The irrigation tokens by id."""
    return {row["id"]: row for row in game.content.of(KEY)["irrigation_token"]}


def zones(game: Game) -> dict[str, Mapping[str, Any]]:
    """The irrigation zones of the map by id."""
    return {row["id"]: row for row in game.map.features["irrigation_zone"]}


def zones_of_areas(game: Game, areas: Any) -> list[str]:
    """The zones whose token set is one of these areas (mountain, hill, plain)."""
    return [zid for zid, zone in zones(game).items() if zone["token_set"] in areas]


def space_vp(game: Game) -> dict[str, int]:
    """VP printed under each irrigation space."""
    return {row["id"]: row["vp_when_empty"] for row in game.map.features["irrigation_space"]}


# -- setup -----------------------------------------------------------------------------------


def setup_board(game: Game, rng: SplitMix64) -> None:
    """ "In addition to base setup": the irrigation stacks and scoring tokens; with The
    Leeghwater Project, one External Work of each pile back to the box.

    Draws after the base setup (and after Leeghwater's, `setup_after`): the mountain, hill and
    plain tokens are shuffled (zone order of the map) and dealt two by two onto the zone's
    spaces in order; then, with Leeghwater, the three face-up works go back on top of pile A,
    one random work leaves each pile A, B, C, and three works are turned up again (as with
    the Patent Office in Leeghwater's setup). The Pumping Station and A7/B7/C7 joined the
    Leeghwater piles through this expansion's content set; contracts 216/316/416, the bonus
    and objective tiles joined the base pools the same way; the river source tokens replace
    the headstream tiles (`extend_content`).
    """
    state = game.state
    setup = game.content.of(KEY)["setup"]
    per_stack = setup["irrigation_tokens_per_stack"]
    all_tokens = game.content.of(KEY)["irrigation_token"]
    layout: dict[str, dict[str, list[str]]] = {}
    for zid, zone in zones(game).items():
        pool = [row["id"] for row in all_tokens if row["zone_set"] == zone["token_set"]]
        rng.shuffle(pool)
        layout[zid] = {
            space: pool[index * per_stack : (index + 1) * per_stack]
            for index, space in enumerate(zone["irrigation_spaces"])
        }
    state.extra[KEY] = {
        "zones": layout,
        "scoring_tokens": [row["id"] for row in game.content.of(KEY)["irrigation_scoring_token"]],
        "works_removed": [],
    }
    if LEEGHWATER in state.options.expansions and LEEGHWATER in state.extra:
        from bot.rules.expansions.leeghwater.board import draw_works

        board = state.extra[LEEGHWATER]
        piles = board["work_piles"]
        piles["A"] = [w for w in board["works"] if w is not None] + piles["A"]
        removed = []
        for pile in ("A", "B", "C"):
            for _ in range(
                game.content.of(KEY)["setup"]["with_leeghwater"]["external_works_removed_per_pile"]
            ):
                if piles[pile]:
                    removed.append(piles[pile].pop(rng.below(len(piles[pile]))))
        board["works"] = draw_works(
            game, game.content.of("leeghwater")["setup"]["external_works_face_up"]
        )
        nile(game)["works_removed"] = removed


def new_company(game: Game, company: Company) -> None:
    """Every company starts with no irrigation tokens."""
    company.extra.setdefault("irrigation", [])
    company.extra.setdefault("irrigation_down", [])
    company.extra.setdefault("irrigation_scoring", [])
    company.extra.setdefault("irrigation_bonus", 0)


# -- the Nile's headwaters -------------------------------------------------------------------


def river_sources(game: Game) -> None:
    """ "Income and River Sources Phase": 2 more drops on the Nile's headwaters (HB).

    Rounds 1-4 only (nile_map.toml `extra_drops_rounds`, reconstructed): the base game places
    no source drops in round 5 and the +2 comes with them.
    """
    state = game.state
    for row in game.map.features["headstream"]:
        if not row.get("nile_headwaters") or state.round not in row["extra_drops_rounds"]:
            continue
        drops = row["extra_drops_per_round"]
        state.headstream_water[row["id"]] = state.headstream_water.get(row["id"], 0) + drops
        game.emit("headstream", amount=drops, source="nile:headwaters", data={"at": row["id"]})


# -- the zones ------------------------------------------------------------------------------


def visible_tokens(game: Game, zone_ids: Any) -> list[str]:
    """The visible (top) token of every non-empty stack of these zones, in board order."""
    layout, board = nile(game)["zones"], zones(game)
    # The map's space order, not the table's key order (a store may reorder JSON keys).
    stacks = (layout[zid][space] for zid in zone_ids for space in board[zid]["irrigation_spaces"])
    return [stack[-1] for stack in stacks if stack]


def visible_vp(game: Game) -> int:
    """The VP shown by the empty irrigation spaces of the three zones."""
    printed = space_vp(game)
    return sum(
        printed[space]
        for zone in nile(game)["zones"].values()
        for space, stack in zone.items()
        if not stack
    )


def take_token(game: Game, company_id: str, token: str, source: str) -> None:
    """Take a visible token from its stack, face up into the company's supply."""
    for zone in nile(game)["zones"].values():
        for stack in zone.values():
            if stack and stack[-1] == token:
                stack.pop()
                game.company(company_id).extra["irrigation"].append(token)
                game.emit("irrigation_token", company_id, source=source, data={"token": token})
                return
    raise AssertionError(f"irrigation token {token} is not visible")


# -- scoring ---------------------------------------------------------------------------------


def irrigation_total(game: Game, company_id: str) -> int:
    """Points of the tokens held (face up or down), scoring tokens' penalties, A7's bonus."""
    extra = game.company(company_id).extra
    points = tokens(game)
    penalties = {
        row["id"]: row["penalty"] for row in game.content.of(KEY)["irrigation_scoring_token"]
    }
    total: int = (
        sum(points[t]["irrigation_points"] for t in extra.get("irrigation", []))
        + sum(penalties[t] for t in extra.get("irrigation_scoring", []))
        + extra.get("irrigation_bonus", 0)
    )
    return total


def irrigation_awards(
    totals: Mapping[str, int], visible: int, first_vp: int = 3, last_vp: int = -2
) -> tuple[dict[str, int], str | None]:
    """VP per company and the taker of the round's scoring token (rulebook "Scoring Phase").

    1st: first_vp + visible, takes the token; a tie for 1st: each tied company gets the 2nd
    award instead and the token is discarded, and the next total still takes the normal 2nd
    award. 2nd: visible // 2, each tied company in full. Last: last_vp each. All equal:
    nothing, token discarded. Decisions where the text is silent (nile.toml open questions):
    with 2 companies the lower one is both 2nd and last; when all but one tie for 1st, the
    remaining one is 2nd and last.
    """
    awards = dict.fromkeys(totals, 0)
    if len(set(totals.values())) <= 1:
        return awards, None
    second = visible // 2
    best = max(totals.values())
    leaders = [cid for cid, total in totals.items() if total == best]
    taker = None
    if len(leaders) == 1:
        taker = leaders[0]
        awards[taker] += first_vp + visible
    else:
        for cid in leaders:
            awards[cid] += second
    rest = {cid: total for cid, total in totals.items() if total != best}
    runner_up = max(rest.values())
    worst = min(totals.values())
    for cid, total in totals.items():
        if total == runner_up:
            awards[cid] += second
        if total == worst:
            awards[cid] += last_vp
    return awards, taker


def round_scoring(game: Game) -> None:
    """After the base scoring: irrigation VP and the round's scoring token."""
    state = game.state
    rules = game.content.of(KEY)["irrigation_scoring"]
    if state.round not in rules["rounds"]:
        return
    totals = {cid: irrigation_total(game, cid) for cid in state.turn_order}
    visible = visible_vp(game)
    awards, taker = irrigation_awards(totals, visible, rules["first_vp_fixed"], rules["last_vp"])
    token = next(
        (
            row["id"]
            for row in game.content.of(KEY)["irrigation_scoring_token"]
            if row["round"] == state.round and row["id"] in nile(game)["scoring_tokens"]
        ),
        None,
    )
    game.emit(
        "irrigation_scoring",
        data={"totals": totals, "visible_vp": visible, "taker": taker, "token": token},
    )
    for cid in state.turn_order:
        game.gain(cid, "vp", awards[cid], f"irrigation:round{state.round}")
    if token is not None:
        nile(game)["scoring_tokens"].remove(token)
        if taker is not None:
            game.company(taker).extra["irrigation_scoring"].append(token)


def objective_count(game: Game, objective: str, company_id: str) -> int | None:
    """ "dams_on_irrigated_basins": own Bases and Elevations in basins connected to a zone."""
    if objective != "dams_on_irrigated_basins":
        return None
    connected = {basin for zone in zones(game).values() for basin in zone["connected_basins"]}
    return sum(
        1
        for kind, basin, _space in pieces_by_location(game, company_id)
        if kind in ("base", "elevation") and basin in connected
    )


# The bonus tile counts every token held, face up or face down (nile.toml open question).
RULES.bonus_counter("irrigation_tokens", lambda g, c: len(g.company(c).extra.get("irrigation", [])))


# -- positions --------------------------------------------------------------------------------


def load_position(game: Game, section: Mapping[str, Any]) -> None:
    """The position's `[nile]` table.

        [nile]
        zones = { IZ_M = { IZ_M_S1 = ["IM1", "IM2"], IZ_M_S2 = [] } }   # stacks, bottom first
        scoring_tokens = ["IS2", "IS3", "IS4", "IS5"]
        works_removed = ["A3"]       # with Leeghwater: External Works out of the game

        [nile.company.usa]           # tokens held (in the order taken), activated, scoring
        irrigation = ["IM1"]         # tokens won, permanent bonus (External Work A7)
        irrigation_down = []
        irrigation_scoring = ["IS1"]
        irrigation_bonus = 0

    The same fields may go in `[company.X] extra = { irrigation = ["IM1"], ... }`.
    """
    unknown = set(section) - {"zones", "scoring_tokens", "works_removed", "company"}
    if unknown:
        raise PositionError(f"[nile] has unknown keys: {', '.join(sorted(unknown))}")
    known = tokens(game)
    layout = nile(game)["zones"]
    for zid, spaces in section.get("zones", {}).items():
        if zid not in layout:
            raise PositionError(f"[nile] zones: unknown irrigation zone {zid!r}")
        for space, stack in spaces.items():
            if space not in layout[zid]:
                raise PositionError(f"[nile] zones: {space!r} is not a space of {zid}")
            for token in stack:
                if token not in known:
                    raise PositionError(f"[nile] zones: unknown irrigation token {token!r}")
            layout[zid][space] = list(stack)
    if "scoring_tokens" in section:
        nile(game)["scoring_tokens"] = list(section["scoring_tokens"])
    if "works_removed" in section:
        nile(game)["works_removed"] = [str(work) for work in section["works_removed"]]
    for company, fields in company_tables(game, KEY, section, COMPANY_EXTRA):
        for key, value in fields.items():
            company.extra[key] = (
                int(value) if key == "irrigation_bonus" else [str(t) for t in value]
            )
    for company_id in game.state.seats:
        new_company(game, game.company(company_id))


# Per-company state (`company.extra`), stated in `[nile.company.X]`.
COMPANY_EXTRA = ("irrigation", "irrigation_down", "irrigation_scoring", "irrigation_bonus")


def export_position(game: Game) -> dict[str, Any]:
    """The `[nile]` table stating the irrigation zones, tokens and each company's tokens."""
    board = nile(game)
    return {
        "zones": {
            zone: {space: list(stack) for space, stack in spaces.items()}
            for zone, spaces in board["zones"].items()
        },
        "scoring_tokens": list(board["scoring_tokens"]),
        "works_removed": list(board.get("works_removed", [])),
        "company": {
            company_id: {
                "irrigation": list(extra.get("irrigation", [])),
                "irrigation_down": list(extra.get("irrigation_down", [])),
                "irrigation_scoring": list(extra.get("irrigation_scoring", [])),
                "irrigation_bonus": int(extra.get("irrigation_bonus", 0)),
            }
            for company_id in game.state.seats
            for extra in [game.company(company_id).extra]
        },
    }


def redraw_hidden(state: GameState, key: str, rng: SplitMix64) -> None:
    """Re-draw the face-down irrigation tokens of `state` (a copy a seat searches): those under
    the top of each stack, shuffled within their zone (the tops are face up)."""
    own = state.extra.get(key)
    if not own or "zones" not in own:
        return
    for zone in own["zones"].values():
        hidden = shuffled([token for stack in zone.values() for token in stack[:-1]], rng)
        for space in zone:
            stack = zone[space]
            under = len(stack) - 1
            if under > 0:
                zone[space] = [*hidden[:under], stack[-1]]
                hidden = hidden[under:]
