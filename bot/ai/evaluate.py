"""The evaluation: an estimate, in final VP, of what a position is worth to each company.

A search that stops before the end of the game needs to know what the assets on the table will
still bring. `worth` adds to a company's VP:

- the scoring of the current round as it would be if the round ended now (Energy Track
  placement, the track's VP and credits, the round's bonus tile), so that the VP a production
  brings are seen the moment the energy is made, not only after scoring;
- resources, valued more while rounds remain to spend them (at the end 1 VP per 5);
- engineers not yet placed this round (each is an action still to take);
- production: the energy the company's best systems could make each remaining round (dam
  capacity × conduit value) and what its dams hold now (also 1 VP per drop at the end);
- structures, and the company board's incomes: each active one for every round still to
  receive it, those a piece or two away in part (the fifth piece of a kind brings 7 VP a round);
- the company ability (unlocked by the third powerhouse) as the energy a round it adds, for
  the rounds left, a powerhouse or two away in part;
- the later rounds' bonus tiles (face up) on the pieces built now, at the energy the company
  can expect to make in each of those rounds (`goals`: the systems' promise alone ran far
  below what companies make, and every later tile counted nothing);
- the objective tile's standing;
- contracts in hand: a share (by whether the water held, or only a system still to fill or
  finish, reaches the energy) of what their reward adds once applied — credits and machinery
  at this evaluation's rates, action-like rewards a fixed amount that a fulfilled contract
  keeps in part — so a contract held never looks better than fulfilled (measured: it had
  made the AI decline contracts it could fulfil).

The weights are hand-set in VP: they only need to rank positions, and the rollouts of the
search correct what they misjudge within a round. `worth_terms` names each of these parts
(`TERMS`); `worth` is their sum, each times a multiplier by the rounds left (`TERM_SCALE`)
fitted to the final VP of played games by bench/ai_fit.py ("Texel tuning"), applied as far as
`Weights.fitted` says. An automa's credits are VP to it, and its objective tile pays its own
table (`Weights.automa_exact`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.ai import goals
from bot.rules.automa.seats import economy
from bot.rules.companies import ITALY_ENERGY
from bot.rules.content import MapData
from bot.rules.engine import Game
from bot.rules.flow import (
    ENERGY_CAP,
    bonus_reward,
    objective_awards,
    objective_counts,
    placement_awards,
)
from bot.rules.production import company_bonus
from bot.rules.state import NEUTRAL, Company, Dam
from bot.rules.water import flow_drops

# What one unit of each plain reward is worth, in VP (other reward keys: REWARD_OTHER).
REWARD_VALUE = {"vp": 1.0, "credits": 0.45, "excavators": 0.9, "mixers": 0.9, "energy": 0.6}
REWARD_OTHER = 1.5
BEFORE_SCORING = ("draft", "income", "actions", "water_flow")


def reward_value(reward: Mapping[str, Any]) -> float:
    """A reward's rough worth in VP (an action-like reward counts REWARD_OTHER per unit)."""
    total = 0.0
    for key, amount in reward.items():
        count = amount if isinstance(amount, int) and not isinstance(amount, bool) else 1
        total += REWARD_VALUE.get(key, REWARD_OTHER) * count
    return total


# An action-like reward (drops, wheel rotations, a free structure) of a contract: what one unit
# counts while the contract is held, and (as `contract_now` of it) once fulfilled, since its
# effect often shows in `worth` as nothing (drops waiting on a headstream) — so a contract held
# never looks better than fulfilled.
HELD_OTHER = 1.0


def other_units(reward: Mapping[str, Any]) -> int:
    """The units of a reward's action-like parts (not VP, credits, machinery or energy)."""
    return sum(
        amount if isinstance(amount, int) and not isinstance(amount, bool) else 1
        for key, amount in reward.items()
        if key not in REWARD_VALUE
    )


def held_value(reward: Mapping[str, Any], credit: float, machine: float) -> float:
    """What a contract's reward adds to `worth` once taken, roughly (credits and machinery at
    the evaluation's own rates), so that a contract held never looks better than fulfilled."""
    total = 0.0
    for key, amount in reward.items():
        count = amount if isinstance(amount, int) and not isinstance(amount, bool) else 1
        unit = {"vp": 1.0, "credits": credit, "excavators": machine, "mixers": machine}.get(
            key, REWARD_VALUE.get(key, HELD_OTHER)
        )
        total += unit * count
    return total


def rounds_after(game: Game) -> int:
    """Rounds that will still be played after the current one's scoring."""
    return max(0, game.content.costs.rounds - game.state.round)


_UPSTREAM: dict[int, tuple[MapData, dict[int, int]]] = {}


def _upstream(game_map: MapData) -> dict[int, int]:
    """Per basin, how many headstreams feed it (directly or through the basins above); kept
    per map object (content is loaded once per process)."""
    known = _cached(_UPSTREAM, game_map)
    if known is not None:
        return known
    memo: dict[int, int] = {}

    def count(basin_id: int, seen: frozenset[int]) -> int:
        if basin_id in memo:
            return memo[basin_id]
        basin = game_map.basins[basin_id]
        total = len(basin.fed_by_headstreams) + sum(
            count(above, seen | {basin_id})
            for above in basin.fed_by_basins
            if above not in seen and above in game_map.basins
        )
        memo[basin_id] = total
        return total

    table = {basin_id: count(basin_id, frozenset()) for basin_id in game_map.basins}
    _UPSTREAM[id(game_map)] = (game_map, table)  # the map kept, so its id is never reused
    return table


def _cached(cache: dict[int, tuple[MapData, Any]], game_map: MapData) -> Any:
    """A per-map table kept in `cache` for this very map object, or None."""
    known = cache.get(id(game_map))
    return known[1] if known is not None and known[0] is game_map else None


# How much of a production system's worth counts, by how many of its three pieces
# (dam, conduit, powerhouse) are already usable by the company. (0, 0.35, 0.7, 1): -2.1 +-
# 10.2 VP over 46 games vs Medium (seeds 14000+, one_lap on both sides, paired; stopped).
COMPLETE = (0.0, 0.25, 0.55, 1.0)


_ABOVE: dict[int, tuple[MapData, dict[str, frozenset[str]]]] = {}


def _dams_above(game_map: MapData) -> dict[str, frozenset[str]]:
    """Per dam space, the dam spaces a drop meets before it: every dam space of the basins
    upstream, and the upper space of its own basin for a lower one (kept per map object)."""
    known = _cached(_ABOVE, game_map)
    if known is not None:
        return known

    def basins_above(basin_id: int, seen: frozenset[int]) -> set[int]:
        found: set[int] = set()
        for above in game_map.basins[basin_id].fed_by_basins:
            if above in game_map.basins and above not in seen:
                found |= {above} | basins_above(above, seen | {basin_id})
        return found

    table: dict[str, frozenset[str]] = {}
    for basin_id, basin in game_map.basins.items():
        upstream = [
            d
            for b in sorted(basins_above(basin_id, frozenset()))
            for d in game_map.basins[b].dam_spaces
        ]
        for index, space in enumerate(basin.dam_spaces):
            table[space] = frozenset(upstream) | frozenset(basin.dam_spaces[:index])
    _ABOVE[id(game_map)] = (game_map, table)  # the map kept, so its id is never reused
    return table


def water_guess(
    upstream: int, above: frozenset[str], dams: Mapping[str, Dam], weights: Weights
) -> float:
    """How full a dam space is each round, guessed from the `upstream` headstreams above its
    basin, and by `upstream_catch` for each built dam a drop meets first (those fill before
    it; `above` are the spaces a drop meets before this one)."""
    guess = min(1.0, weights.water_per_headstream * upstream)
    if weights.upstream_catch != 1.0 and guess:
        guess *= weights.upstream_catch ** len(above.intersection(dams))
    return guess


def headstream_guess(game: Game, space: str, weights: Weights) -> float:
    """`water_guess` for this dam space as the dams stand."""
    upstream = _upstream(game.map).get(game.map.dam_spaces[space].basin, 0)
    return water_guess(upstream, _dams_above(game.map)[space], game.state.dams, weights)


# A forecast of the headstream tiles' own water (the former bot/ai/water.py and its modes)
# measured worse in every form, strong vs Medium, seeds 9000-9023 (this guess: margin -14.3
# +- 14.3, 7.5 wins of 24): the dams' forecast catch -32.1 +- 12.4 (4 wins; round-1 energy
# 5.2 -> 0.6), the drops arriving -26.0 (5 games), this guess scaled by the share of the
# tiles' water arriving -13.2 +- 14.6 (paired +1.0 +- 11.1), a spill penalty for water held
# -9.1 (14 games). The tiles' water is the lesser part of what fills a dam: players add theirs
# by Water Management, contracts and incomes, and where is a choice the search plays, not one
# an evaluation can forecast; this guess (a dam with two headstreams above is full each round)
# is what companies that top their rivers up achieve. So the forecast was deleted.
def dam_drops(game: Game, space: str, dam: Dam | None, weights: Weights) -> float:
    """The drops a round this dam space can produce from: its capacity (a base's, if none is
    built) times how full the headstreams above keep it; a neutral dam's water is shared.
    `systems_outlook` computes the same from its table (tests/ai/test_outlook.py)."""
    water = headstream_guess(game, space, weights)
    if dam is None:
        return water
    return dam.level * (weights.neutral_share if dam.owner == NEUTRAL else water)


# A dam space as `systems_outlook` reads it: its id, its basin, the headstreams above the
# basin, the dam spaces a drop meets before it, and the basin's conduits (space, production,
# the powerhouse spaces it leads to).
Conduits = tuple[tuple[str, int, tuple[str, ...]], ...]
SystemSpace = tuple[str, int, int, frozenset[str], Conduits]
_SYSTEMS: dict[int, tuple[MapData, tuple[SystemSpace, ...]]] = {}


def _system_spaces(game_map: MapData) -> tuple[SystemSpace, ...]:
    """Every dam space with what `systems_outlook` reads of the map for it, in map order (kept
    per map object: the outlook is a large part of the search's CPU, and a map never changes)."""
    known = _cached(_SYSTEMS, game_map)
    if known is not None:
        return known
    upstream = _upstream(game_map)
    above = _dams_above(game_map)
    table = tuple(
        (
            dam_space,
            space.basin,
            upstream.get(space.basin, 0),
            above[dam_space],
            tuple(
                (
                    conduit_space,
                    game_map.conduit_spaces[conduit_space].production,
                    game_map.conduit_spaces[conduit_space].connects_powerhouse_spaces,
                )
                for conduit_space in game_map.basins[space.basin].conduit_spaces
            ),
        )
        for dam_space, space in game_map.dam_spaces.items()
    )
    _SYSTEMS[id(game_map)] = (game_map, table)  # the map kept, so its id is never reused
    return table


def conduit_standing(game: Game, company_id: str, conduits: Conduits) -> list[tuple[int, int, int]]:
    """Per conduit space of a basin that leads to a powerhouse space the company could use:
    (production, 1 if a conduit is built there, 1 if it leads to one of the company's own
    powerhouses). A rival's powerhouse is no use to the company; a rival's conduit counts as
    one's own (judging the toll measured no better: see the knobs removed, below `W`)."""
    state = game.state
    standing = []
    for conduit_space, production, houses in conduits:
        usable = -1  # no powerhouse space it could produce at
        for powerhouse in houses:
            owner = state.powerhouses.get(powerhouse)
            if owner == company_id:
                usable = 1
                break
            if owner is None:
                usable = 0
        if usable < 0:
            continue
        standing.append((production, 1 if conduit_space in state.conduits else 0, usable))
    return standing


def systems_outlook(
    game: Game, company_id: str, weights: Weights | None = None
) -> tuple[list[float], int]:
    """(the energy a round that each system, built or still to build, promises — weighted by
    how complete it is and how much water reaches it —, best first; the energy the water held
    now can make).

    A dam space's drops are `dam_drops`'s, from the map's table; of the systems through one conduit
    the one with the most pieces built counts (the energy is the same, the share larger)."""
    state = game.state
    judged = weights or W
    bonus = company_bonus(game, company_id)
    dams = state.dams
    basins: dict[int, list[tuple[int, int, int]]] = {}
    outlook: list[float] = []
    now = 0
    for dam_space, basin, upstream, above, conduits in _system_spaces(game.map):
        dam = dams.get(dam_space)
        if dam is None:
            have_dam = 0
        elif dam.owner == company_id or dam.owner == NEUTRAL:
            have_dam = 1
        else:
            continue
        if dam is not None and dam.owner == NEUTRAL:
            drops = dam.level * judged.neutral_share
        else:
            water = water_guess(upstream, above, dams, judged)
            drops = water if dam is None else dam.level * water
        standing = basins.get(basin)
        if standing is None:
            standing = basins[basin] = conduit_standing(game, company_id, conduits)
        extra = bonus if drops else 0
        held = dam.water if dam is not None else 0
        best = 0.0  # a dam's water is produced once: its best system counts
        for production, have_conduit, own_house in standing:
            pieces = have_dam + have_conduit + own_house
            energy = drops * production + extra
            promise = COMPLETE[pieces] * energy if energy > 0 else 0.0
            if promise > best:
                best = promise
            if pieces == 3 and held:
                now = max(now, held * production + bonus)
        if best:
            outlook.append(best)
    outlook.sort(reverse=True)
    return outlook, now


def dam_capacity(game: Game, company_id: str, weights: Weights) -> float:
    """The drops the company's own dams can hold each round: each level, times how full the
    headstreams above it keep it, and by `dam_unconnected` where no built conduit leads from
    its basin to one of the company's powerhouses yet."""
    state = game.state
    game_map = game.map
    total = 0.0
    for space, dam in state.dams.items():
        if dam.owner != company_id:
            continue
        share = 1.0
        if weights.dam_unconnected != 1.0:
            basin = game_map.basins[game_map.dam_spaces[space].basin]
            linked = any(
                state.powerhouses.get(powerhouse) == company_id
                for conduit in basin.conduit_spaces
                if conduit in state.conduits
                for powerhouse in game_map.conduit_spaces[conduit].connects_powerhouse_spaces
            )
            share = 1.0 if linked else weights.dam_unconnected
        total += share * dam.level * headstream_guess(game, space, weights)
    return total


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's hand-set weights, in VP."""

    # an engineer not yet placed this round (0.6, with the search's one_lap: -1.7 +- 6.7 VP
    # over 100 games vs Medium, seeds 14000+, paired with one_lap alone; wins 46.0 -> 42.5)
    engineer: float = 0.3
    credit_end: float = 0.2  # a credit at the end (1 VP per 5 resources)
    credit_early: float = 0.1  # what a credit adds while rounds remain
    machine_end: float = 0.2
    # Measured, strong vs Medium, paired with the default (seeds 14000+, 100 games): 1.6 -7.4
    # +- 8.4 VP over 84 (stopped), wins 43.0 -> 27.5; 0.7 +0.6 +- 7.6, wins 46.0 -> 40.0.
    machine_early: float = 1.0
    # the share of a machine's worth lost per rotation it waits (0.06: +1.9 +- 7.6 VP over 100
    # games vs Medium, seeds 14000+, paired; wins 46.0 -> 46.5)
    wheel_rotation: float = 0.12
    tile: float = 1.0  # a basic tile in the supply (without it, no structure of its kind)
    # an energy a round the production systems promise (first 10); 1.8 measured worse (-8.1 +-
    # 10.1 VP over 37 games vs Medium, seeds 9000+, paired), as did 1.0 (-6.5 +- 8.0 over 30)
    energy_round: float = 1.3
    # each energy a round past 10 (1.0: +1.0 +- 1.6 VP over 48 games vs Medium, seeds 9000+,
    # paired, 37 unchanged: the outlook seldom passes 10)
    energy_round_more: float = 0.6
    # The second and third best systems' share of the energy a round (a company produces a
    # few times a round, from different dams; the best system counts whole). The outlook runs
    # well below what companies make (two games vs Medium, seeds 9000 and 9003: 6.9 estimated
    # at round 4's start against 13 and 24 made; 12.0 and 11.6 in round 5 against 30 and 32),
    # yet a higher energy_round measured worse, and so did 0.8 and 0.6 here: -7.2 +- 6.2 VP
    # over 100 games (50 each on seeds 12000+ and 13000+, paired with the default; 20
    # unchanged), wins 47.5 -> 39.5.
    second_system: float = 0.5
    third_system: float = 0.3
    held: float = 0.5  # a drop in one's own dam while rounds remain
    # a structure (2.0: +3.9 +- 5.7 VP over 99 games vs Medium, seeds 16000+, paired with the
    # default; wins 37.5 -> 41.5)
    structure: float = 1.0
    # a structure, for each round left (the incomes it uncovers); 0.8: +3.3 +- 5.9 over 99
    # (16000+; wins 37.5 -> 41.5), with dam_round 1.0 see there (no gain on fresh seeds)
    structure_round: float = 0.4
    objective_share: float = 0.6  # the objective tile's standing while rounds remain
    # how full a dam is each round, per headstream above it (0.85: -4.5 +- 6.8 VP over 73
    # games vs Medium, seeds 9000+, paired; stopped)
    water_per_headstream: float = 0.7
    # an active income, for each round left to receive it (1.4 vs Medium, paired, 100 games:
    # seeds 9000+ +2.1 +- 6.2 VP; 14000+ +2.0 +- 7.3, wins 46.0 -> 42.5)
    income: float = 1.0
    income_near: tuple[float, ...] = (0.0, 0.45, 0.15)  # share of an income 1, 2 pieces away
    # What an energy a round of the company ability (`ABILITY_ENERGY`) is worth, for each round
    # left. Measured, strong vs Medium, 0.6 paired with it off (0): seeds 18000+ +3.3 +- 4.7
    # VP over 100 games (41 unchanged), wins 44.0 -> 47.5; on fresh seeds 19000+ +3.5 +- 4.4
    # (38 unchanged), wins 46.5 -> 50.5; over the 200, +3.4 +- 3.2, wins 90.5 -> 98.0.
    # Against Expert (intro, seeds 17000+ and 17100+, 100 games): +3.7 +- 5.6, wins 40.5 ->
    # 40.5; seeds 13000+ and 13100+: +0.1 +- 4.3, wins 39.0 -> 41.0 (over the 200: +1.9 +-
    # 3.5). It builds its third powerhouse sooner (3.1 -> 3.3 a game against Expert, 10 games).
    # 1.0 against 0.6 (19000+, 100 games): +0.0 +- 4.2, wins 50.5 -> 48.0.
    ability: float = 0.6
    future_bonus: float = 0.6  # a later round's bonus tile, counted on the pieces built now
    contract_now: float = 0.6  # share of a held contract's reward: the water held reaches it
    contract_later: float = 0.35  # ... only a system still to fill or finish reaches it
    now_share: float = 0.5  # the energy the water held can make this round, while rounds remain
    now_share_last: float = 0.5  # ... in the last round
    # -- fitted term scales (ai-fit): 1 applies TERM_SCALE, 0 every term at 1 (hand-set) --
    fitted: float = 0.0
    # An automa's credits are VP at once (1 each: Energy Track, contracts) and its objective
    # tile pays 20/15/10; False judges it as a person (credits at REWARD_VALUE, 15/10/5).
    # Measured, strong vs Medium, paired with the default on seeds 9000+ (samples=2): True
    # +1.5 +- 2.7 VP over 70 games (stopped for time), wins 33.0 against 33.0, 44 of the 70
    # games unchanged (1 of 90 decisions of one game). Again with waiting and upstream_catch
    # on, 100 games (seeds 9000+; the default 50.0 %): +0.8 +- 1.7 VP, wins 48.0 against 50.0
    # (63 games unchanged): no gain in wins, so it stays off.
    automa_exact: bool = False
    # -- production and water (the forecast modes measured worse: see `dam_drops`) --
    # The share of a neutral dam's water a company counts (it is shared). The AI takes most of
    # its drops from neutral dams (86 % against the Expert automa's 33 %, 10 games, seeds
    # 11000+, bench/ai_vp.py); 0.3 turned it to its own (40 %, elevations 1.1 -> 2.1 a game)
    # but won fewer: -3.7 +- 6.6 VP over 100 games vs Medium (seeds 18000+, paired with the
    # default), wins 44.0 -> 38.0.
    neutral_share: float = 0.5
    # Each built dam a drop meets before this space's fills first: the guess times this per dam.
    upstream_catch: float = 0.8
    # Drops on the headstreams bound for own dams, as a share of a drop held (`held`): without
    # it, Water Management and a dam under drops waiting on a headstream looked worth nothing.
    # Measured, strong vs Medium, paired with both off (1.0 and 0) on seeds 9000+ and 9500+
    # (100 games each, samples=2): waiting 1.0 +4.7 +- 4.6 and -1.0 +- 5.6 VP (wins 44.5 to
    # 49.5 and 44.5 to 49.0); with upstream_catch 0.8, +4.8 +- 5.9 and +0.9 +- 6.0 (wins to
    # 50.0 and 46.0); upstream_catch alone (9000+) 0.8 +2.9 +- 4.9, 0.6 +2.6 +- 4.9. Against
    # Expert (intro, 6000+): waiting 1.0 +0.8 +- 4.4 (wins 28.5 to 29.5), with upstream_catch
    # 0.8 -0.8 +- 5.9 (wins 28.5 to 34.0), and on seeds 6500+ -0.5 +- 5.4 (wins 31.0 to 32.0).
    # Both on by default: together they gained most over the Medium seeds (+2.8 VP; the
    # bench's share 44.0 % to 48.0 % of 200, where the paired wins above count a VP tie half)
    # and won more against Expert (29.5 % to 33.0 %) at an even margin; every figure is within
    # noise of the others. About 7 % more CPU a decision (the flow simulated).
    waiting: float = 1.0
    # -- goals (bot/ai/goals.py): bonus tiles, contracts, objective, resources at the end --
    bonus_growth: float = 4.0  # energy a round more than the best round so far, each round on
    bonus_spread: float = 4.0  # a later tile's reward averaged over energies this far either side
    # -- own dams (ai-dams): a base or elevation is capacity for every later round --
    # Off: a lone base's system never ranks among the outlook's three, so a base counts only
    # its income share and flat structure worth. Measured, strong vs Medium, paired with the
    # base runs: dam_round 1.0 +1.9 +- 11.0 VP (40 games, seeds 9000+); 2.0 +0.9 +- 7.1 (100,
    # seeds 9000+) and -1.1 +- 11.3 (53, seeds 9500+); 2.0 with dam_unconnected 0.25 -3.0 +- 7.0
    # (100, seeds 9000+). At 2.0 the AI builds the bases and
    # elevations (their incomes 5.5 -> 21.9 and 1.9 -> 20.9 VP, 8 games) but makes almost no
    # energy in rounds 1-3 (0.0, 1.2, 4.2 against 5.3, 6.8, 12.4): the term must come with the
    # production it enables, e.g. dam_unconnected < 1. Again with one_lap (seeds 16000+, 100
    # games paired with the default, which won 37.9 % there): 1.0 +5.0 +- 7.0 (wins 37.5 ->
    # 47.0; 5 bases by round 4 in 2 of 3 games looked at), 1.5 +2.5 +- 7.9 (41.5); 1.0 with
    # structure_round 0.8 +6.5 +- 7.1 (49.0), and with structure 2.0 as well +5.5 +- 6.7
    # (43.0). On fresh seeds (17000+, the default 49.0 %) 1.0 with structure_round 0.8 gave
    # -7.9 +- 6.7 (wins 47.0 -> 40.0): over the 195 games -0.6 +- 5.0 VP, wins 84.5 -> 89.0.
    dam_round: float = 0.0  # a drop of own dam capacity (level x headstream guess), a round left
    dam_unconnected: float = 1.0  # its share for a dam no built conduit links to an own powerhouse


W = Weights()

# Knobs measured and removed (strong vs Medium, 100 games paired with the default unless
# stated); none won more games:
# - this round's scoring terms (placement, track, bonus_now) times 1.5 while rounds remain:
#   -2.6 +- 5.6 VP (seeds 9000+, wins 36.0 against 44.5), with dam_round 2.0 -5.4 +- 10.8 over
#   50 (the bases took round 1 before any system could produce), 0.7 -2.6 +- 9.4 over 42;
# - the Energy Track placement judged at each company's energy plus 1 per engineer it has yet
#   to place (not as if the round ended now): +7.9 +- 6.3 (11000+), -4.4 +- 7.1 (9000+),
#   +4.2 +- 9.8 over 50 (12000+), then on fresh seeds -1.0 +- 6.6 (12000+) and -3.1 +- 6.9
#   (13000+): over 450 games +0.3 VP, wins 206.0 -> 207.0;
# - a system through a rival's conduit judged with the toll (a credit and the rival's VP a
#   drop) taken from each drop's energy: -1.1 +- 6.3 (9000+, wins 45.5 against 50.0).

# The named parts of `worth` (`worth_terms`), in the order they are added.
TERMS = (
    "vp",  # VP scored so far
    "placement",  # this round's Energy Track placement VP, if it ended now
    "track",  # the track's VP and credits for the energy made this round
    "bonus_now",  # this round's bonus tile at the energy made
    "engineers",  # engineers still to place this round
    "resources",  # credits and machinery in the supply
    "tiles",  # basic tiles, and machinery and tiles on the wheel
    "systems",  # the energy a round the production systems promise, for the rounds left
    "incomes",  # the company board's incomes still to come
    "ability",  # the company ability (3rd powerhouse) for the rounds left (`Weights.ability`)
    "dams",  # own dams' capacity for the rounds left (dam_round; 0 by default)
    "bonus_later",  # the later rounds' bonus tiles on the pieces built now
    "held",  # water held in own dams
    "waiting",  # drops on the headstreams that the Water Flow will bring to own dams
    "now",  # the energy the water held can still make this round
    "structures",  # structures built (the incomes they uncover)
    "contracts",  # contracts held (a share of their reward), and fulfilled ones' kept part
    "objective",  # the objective tile's standing
)

# Each term's multiplier by the rounds after the current one (index 0: the last round, 4: the
# first of five), fitted by bench/ai_fit.py to the final VP of played games; a term not listed
# counts once. Off by default (`fitted` 0): neither fit measured better (strong vs Medium,
# seeds 9000+, paired with the base). Fitted on 2,604 step ends of 30 games, seeds 20000-20029
# (strong against the Medium (15) and Expert (8) automa and against itself (7), automa_exact
# on), `fit --aim vp --shape linear --ridge 0.1`, clamped to 0.3-2:
# - each term apart (held-out share of the VP to come explained 0.651 hand-set -> 0.729):
#   -10.8 +- 11.3 VP over 43 games, wins 22 % against 45 % (and at fitted 0.5 -16.9 +- 17.7
#   over 15). It scaled the water held ("now" x1.5-2) above the energy it makes (placement,
#   track x0.3-0.6), so holding water looked better than producing it.
# - terms one converts into another tied (--tie placement+track+bonus_now+now+held,
#   resources+tiles+structures+systems+incomes+bonus_later; explained 0.702): this table,
#   -1.1 +- 7.0 VP over 100 games, wins 32.0 % against 36.5 %: no gain.
TERM_SCALE: dict[str, tuple[float, ...]] = {
    "engineers": (2.00, 2.00, 2.00, 2.00, 2.00),
    "contracts": (0.64, 0.88, 1.11, 1.35, 1.59),
    "objective": (1.14, 1.19, 1.23, 1.27, 1.31),
    # each tied group was fitted as one multiplier
    **dict.fromkeys(
        ("placement", "track", "bonus_now", "now", "held", "waiting"),
        (0.65, 0.65, 0.64, 0.64, 0.64),
    ),
    **dict.fromkeys(
        ("resources", "tiles", "structures", "systems", "incomes", "bonus_later"),
        (0.99, 0.95, 0.90, 0.86, 0.82),
    ),
}


def wheel_worth(company: Company, per_machine: float, weights: Weights) -> float:
    """Machinery and tiles on the wheel: worth less the more rotations they wait."""
    segments = len(company.wheel)
    total = 0.0
    for index, segment in enumerate(company.wheel):
        if segment.is_empty():
            continue
        wait = (index - company.wheel_open) % segments or segments
        share = max(0.0, 1.0 - weights.wheel_rotation * wait)
        total += share * (per_machine * (segment.excavators + segment.mixers))
        total += share * weights.tile * len(segment.tiles)
    return total


def near_share(away: int, weights: Weights) -> float:
    """The share of what a piece unlocks that counts with `away` pieces still to build: whole
    once built, `Weights.income_near` a piece or two away."""
    if away <= 0:
        return 1.0
    return weights.income_near[away] if away < len(weights.income_near) else 0.0


def income_worth(game: Game, company: Company, later: int, weights: Weights) -> float:
    """The company board's incomes still to be received: those active for every later round,
    those a piece or two away in part."""
    if not later or not game.automa_has(company.id, "incomes_from"):
        return 0.0
    total = 0.0
    for income in game.content.companies[company.id].income:
        away = income.after_piece - company.placed.get(income.track, 0)
        total += near_share(away, weights) * reward_value(income.reward)
    return total * later * weights.income


# The company ability (unlocked by the `ability_after_powerhouses`-th powerhouse) as the energy a
# round it is about worth, by its key: the Expert and Hard automas build 3-4 powerhouses and
# make their later rounds' energy with it (Italy's 3 a production) while the AI, with nothing
# counting it, stopped at 2 (bench/ai_vp.py). Guesses at about 2.5 productions a round.
PRODUCTIONS_A_ROUND = 2.5
ABILITY_ENERGY = {
    "italy_plus3_energy": ITALY_ENERGY * PRODUCTIONS_A_ROUND,  # 3 energy on each production
    "germany_second_production": 4.0,  # a second production on about half of them
    "usa_flow_energy": 3.0,  # drops entering the basins of its powerhouses
    "france_contract_minus3": 2.0,  # contracts 3 energy larger within reach
    "netherlands_refill_dam": 3.0,  # a drop into another own dam after a production
}
ABILITY_OTHER = 2.0  # an ability not listed


def ability_worth(game: Game, company: Company, later: int, weights: Weights) -> float:
    """The company ability for every later round once unlocked, a powerhouse or two away in
    part (`near_share`), at `Weights.ability` VP an energy a round."""
    if not game.automa_has(company.id, "company_ability_from"):
        return 0.0
    away = game.content.common.ability_after_powerhouses - company.placed.get("powerhouse", 0)
    key = game.content.companies[company.id].ability_key
    return (
        near_share(away, weights) * ABILITY_ENERGY.get(key, ABILITY_OTHER) * weights.ability * later
    )


def bonus_outlook(game: Game, company_id: str, per_round: float, weights: Weights) -> float:
    """The later rounds' bonus tiles (face up) on what is built now, at the energy the company
    can expect to make in each of those rounds (`goals.expected_energy`)."""
    state = game.state
    total = 0.0
    for round_index in range(state.round, min(len(state.bonus_tiles), game.content.costs.rounds)):
        tile_id = state.bonus_tiles[round_index]
        counter = game.rules.bonus_counters.get(tile_id)
        if counter is None or tile_id not in game.content.bonus_tiles:
            continue
        full = counter(game, company_id) * game.content.bonus_tiles[tile_id].vp_each
        if not full:
            continue
        energy = goals.expected_energy(
            game, company_id, per_round, round_index + 1, weights.bonus_growth
        )
        total += goals.expected_tile_reward(
            game, full, energy, round_index + 1, weights.bonus_spread
        )
    return total * weights.future_bonus


def waiting_drops(game: Game, company_id: str) -> int:
    """The drops now on the headstream tiles that this round's Water Flow will bring to the
    company's own dams, as the dams stand (they flow one at a time, headstreams in order)."""
    state = game.state
    capacity = game.capacities()
    water = game.water_levels()
    caught = 0
    for headstream in game.map.headstreams:
        drops = state.headstream_water.get(headstream, 0)
        if not drops:
            continue
        start = game.map.headstream_feeds[headstream]
        for result in flow_drops(game.map, start, drops, capacity, water):
            if result.stopped_at is not None:
                water[result.stopped_at] = water.get(result.stopped_at, 0) + 1
                caught += state.dams[result.stopped_at].owner == company_id
    return caught


def worth_terms(game: Game, company_id: str, weights: Weights | None = None) -> dict[str, float]:
    """The parts of `worth`, by name (`TERMS`), before `TERM_SCALE`: what each asset of the
    company is judged to bring (only the terms that apply to the position are present)."""
    w = weights or W
    state = game.state
    company = state.companies[company_id]
    terms: dict[str, float] = {"vp": float(company.vp)}
    if state.finished:
        return terms
    later = rounds_after(game)
    track = game.content.energy_track
    pending = state.phase in BEFORE_SCORING
    automa = w.automa_exact and game.automa_level(company_id) is not None
    if pending:
        energies = {cid: state.companies[cid].energy for cid in state.turn_order}
        terms["placement"] = float(
            placement_awards(energies, track.first_vp, track.second_vp).get(company_id, 0)
        )
        credits, vp = track.credits_for(min(company.energy, ENERGY_CAP))
        terms["track"] = vp + credits * (1.0 if automa else REWARD_VALUE["credits"])
        if state.round - 1 < len(state.bonus_tiles):
            terms["bonus_now"] = float(
                bonus_reward(game, company_id, state.bonus_tiles[state.round - 1])[0]
            )
        terms["engineers"] = w.engineer * company.engineers
    spend = min(1.0, later / 2)  # resources are spent while rounds remain
    per_machine = w.machine_end + w.machine_early * spend
    terms["resources"] = (
        company.credits * (w.credit_end + w.credit_early * spend)
        + (company.excavators + company.mixers) * per_machine
    )
    if later:
        terms["tiles"] = w.tile * len(company.tiles) + wheel_worth(company, per_machine, w)
    outlook, now = systems_outlook(game, company_id, w)
    per_round = sum(
        weight * min(e, 16)
        for weight, e in zip((1.0, w.second_system, w.third_system), outlook, strict=False)
    )
    energy_value = w.energy_round * min(per_round, 10) + w.energy_round_more * max(
        0.0, per_round - 10
    )
    terms["systems"] = energy_value * (later + (0.3 if pending else 0.0))
    terms["incomes"] = income_worth(game, company, later, w)
    if later and w.ability:
        terms["ability"] = ability_worth(game, company, later, w)
    if later and w.dam_round:
        terms["dams"] = w.dam_round * later * dam_capacity(game, company_id, w)
    if later and w.future_bonus:
        terms["bonus_later"] = bonus_outlook(game, company_id, per_round, w)
    held = sum(d.water for d in state.dams.values() if d.owner == company_id)
    terms["held"] = held * (1.0 if later == 0 else w.held)
    if w.waiting and later and any(state.headstream_water.values()):
        terms["waiting"] = w.waiting * w.held * waiting_drops(game, company_id)
    if pending:
        terms["now"] = (w.now_share if later else w.now_share_last) * now
    built = sum(company.placed.values())
    terms["structures"] = built * (w.structure + w.structure_round * later)
    best = outlook[0] if outlook else 0.0
    credit = 1.0 if automa else w.credit_end + w.credit_early * spend
    contracts = 0.0
    for contract_id in company.contracts:
        contract = game.content.contracts[contract_id]
        if now >= contract.energy:
            chance = w.contract_now
        elif best >= contract.energy and later:
            chance = w.contract_later
        else:
            chance = 0.1 if later else 0.0
        contracts += chance * held_value(contract.reward, credit, per_machine)
    for contract_id in company.fulfilled:
        contracts += (
            w.contract_now * HELD_OTHER * other_units(game.content.contracts[contract_id].reward)
        )
    terms["contracts"] = contracts
    if state.objective:
        counts = objective_counts(game, state.objective)
        table = economy().objective_vp_by_place if automa else game.content.objective_vp_by_place
        awards = objective_awards(counts, table)
        terms["objective"] = awards.get(company_id, 0) * (1.0 if later == 0 else w.objective_share)
    return terms


def term_scale(term: str, later: int, weights: Weights) -> float:
    """The multiplier of one term of `worth` with `later` rounds after this one (`TERM_SCALE`,
    blended towards 1 by `weights.fitted`)."""
    scales = TERM_SCALE.get(term)
    if scales is None or not weights.fitted:
        return 1.0
    return 1.0 + weights.fitted * (scales[min(later, len(scales) - 1)] - 1.0)


def worth(game: Game, company_id: str, weights: Weights | None = None) -> float:
    """A company's VP now plus an estimate of what its position will still bring: the sum of
    its `worth_terms`, each times its fitted `term_scale`."""
    w = weights or W
    terms = worth_terms(game, company_id, w)
    later = rounds_after(game)
    return sum(term_scale(name, later, w) * value for name, value in terms.items())


def margin(game: Game, company_id: str) -> float:
    """`worth` of this company minus the best of the others'."""
    others = [worth(game, other) for other in game.state.companies if other != company_id]
    return worth(game, company_id) - (max(others) if others else 0.0)
