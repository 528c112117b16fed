"""The evaluation's goals: what the round bonus tiles will pay, judged on the energy a company
can really expect to make in each round, and how far one production can reach for contracts.

A bonus tile pays only if the round's energy reaches 6, and 4 VP less for each section of the
Energy Track (6 energy a round, the round-r section from 6r) the marker is behind (rulebook
"IV. Scoring"). The production systems' promise (`systems_outlook`) weighs each system by how
complete it is and how much water reaches it, so it runs at a third to a half of what companies
really make in a round (measured: 5-8 promised against 8-25 made, strong AI and Medium automa):
gated by it, every later tile counted nothing at all. The energy expected here is the larger
of that promise and the most the company has made in one round so far (this round included),
rising by a set amount each round on (the energy of a round grows as systems are built); the tile's reward is averaged over a spread of
energies around it, so one piece more or less still counts where the malus would swallow it at
one exact energy. This round's tile also counts, in part, what producing the water held before
the scoring would add.

A held contract counts a share of its reward by what can reach its energy; besides the water
held and the systems' promise, `production_reach` is one production through a complete
system with its dam full on the best Turbine Station space, so that contracts it can fulfil
are told from those it cannot.
"""

from __future__ import annotations

from bot.rules.engine import Game
from bot.rules.flow import ENERGY_CAP
from bot.rules.production import company_bonus
from bot.rules.state import NEUTRAL


def best_round_energy(game: Game, company_id: str) -> int:
    """The most energy the company has made in one round so far, this round included (public:
    the Energy Track of every round scored)."""
    made = [int(row.get("energy", {}).get(company_id, 0)) for row in game.state.history]
    return max([game.company(company_id).energy, *made])


def expected_energy(
    game: Game, company_id: str, per_round: float, round_number: int, growth: float
) -> float:
    """The energy the company can expect to make in a later round `round_number`."""
    base = max(per_round, float(best_round_energy(game, company_id)))
    ahead = max(0, round_number - game.state.round)
    return base + growth * ahead


def tile_reward(game: Game, full: int, energy: float, round_number: int) -> float:
    """A bonus tile's VP in round `round_number` with `full` VP counted, at this energy."""
    track = game.content.energy_track
    energy = min(energy, ENERGY_CAP)
    if energy < track.bonus_min_energy:
        return 0.0
    reached = sum(1 for start in track.bonus_section_min_energy if energy >= start)
    behind = max(0, round_number - reached)
    return float(max(0, full - track.malus_per_section * behind))


def expected_tile_reward(
    game: Game, full: int, energy: float, round_number: int, spread: float
) -> float:
    """`tile_reward` averaged over the energies `energy - spread`, `energy`, `energy + spread`."""
    points = (energy - spread, energy, energy + spread) if spread else (energy,)
    return sum(tile_reward(game, full, e, round_number) for e in points) / len(points)


def rest_of_round_tile(game: Game, company_id: str, now: int, engineers_needed: int) -> float:
    """What the current round's bonus tile would pay more if the company made `now` energy more
    before the scoring (its held water through its best system), with an action still to take;
    the tile on the energy made so far is counted as if the round ended now."""
    state = game.state
    company = game.company(company_id)
    if now <= 0 or company.engineers < engineers_needed:
        return 0.0
    if not 0 < state.round <= len(state.bonus_tiles):
        return 0.0
    tile_id = state.bonus_tiles[state.round - 1]
    counter = game.rules.bonus_counters.get(tile_id)
    if counter is None or tile_id not in game.content.bonus_tiles:
        return 0.0
    full = counter(game, company_id) * game.content.bonus_tiles[tile_id].vp_each
    made = float(company.energy)
    return tile_reward(game, full, made + now, state.round) - tile_reward(
        game, full, made, state.round
    )


BEST_SPACE_BONUS = 2  # the Turbine Station's best space: +2 energy to one production


def production_reach(game: Game, company_id: str) -> int:
    """The most energy one production of the company could make with a full dam: each complete
    system it can use now (a built conduit to its own powerhouse, fed by its own or a neutral
    dam of the conduit's basin) at the dam's capacity, on the best Turbine Station space, with
    its board's bonus."""
    state = game.state
    best = 0
    for conduit_space in state.conduits:
        conduit = game.map.conduit_spaces[conduit_space]
        powered = (state.powerhouses.get(p) for p in conduit.connects_powerhouse_spaces)
        if company_id not in powered:
            continue
        for dam_space in game.map.basins[conduit.from_basin].dam_spaces:
            dam = state.dams.get(dam_space)
            if dam is not None and dam.owner in (company_id, NEUTRAL):
                best = max(best, game.dam_capacity(dam_space) * conduit.production)
    if not best:
        return 0
    return best + BEST_SPACE_BONUS + company_bonus(game, company_id)
