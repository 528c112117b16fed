"""The evaluation's goals: what the round bonus tiles will pay, judged on the energy a company
can really expect to make in each round.

A bonus tile pays only if the round's energy reaches 6, and 4 VP less for each section of the
Energy Track (6 energy a round, the round-r section from 6r) the marker is behind (rulebook
"IV. Scoring"). The production systems' promise (`systems_outlook`) weighs each system by how
complete it is and how much water reaches it, so it runs at a third to a half of what companies
really make in a round (measured: 5-8 promised against 8-25 made, strong AI and Medium automa):
gated by it, every later tile counted nothing at all. The energy expected here is the larger
of that promise and the most the company has made in one round so far (this round included),
rising by a set amount each round on (the energy of a round grows as systems are built); the tile's reward is averaged over a spread of
energies around it, so one piece more or less still counts where the malus would swallow it at
one exact energy.
"""

from __future__ import annotations

from bot.rules.engine import Game
from bot.rules.flow import ENERGY_CAP, bonus_malus


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
    return float(max(0, full - bonus_malus(track, energy, round_number)))


def expected_tile_reward(
    game: Game, full: int, energy: float, round_number: int, spread: float
) -> float:
    """`tile_reward` averaged over the energies `energy - spread`, `energy`, `energy + spread`."""
    points = (energy - spread, energy, energy + spread) if spread else (energy,)
    return sum(tile_reward(game, full, e, round_number) for e in points) / len(points)
