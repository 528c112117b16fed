"""The round: income and headstreams, actions, water flow, scoring, end of round; end of game."""

from __future__ import annotations

from math import ceil

from bot.rules.automa.seats import economy
from bot.rules.construction import pieces_by_location, structure_count
from bot.rules.content import EnergyTrack
from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.patent import refresh_patent_office
from bot.rules.rewards import apply_reward, dam_owner_water
from bot.rules.rulebook import RuleSet
from bot.rules.tasks import Task
from bot.rules.water import flow_from_headstream

RULES: RuleSet[Game] = RuleSet("flow")

ACTIONS_PHASE = "actions"  # the phase in which the companies take their turns
ENERGY_CAP = 30  # RULINGS 5: energy past 30 counts as 30 for credits and the bonus tile.


# -- I. Income and headstreams ---------------------------------------------------------------


@RULES.task("round_start")
def _round_start(game: Game, entry: Task) -> None:
    """Every active income (RULINGS 4: cumulative), then water onto the headstream tiles.

    RULINGS 29: the choices incomes call for are asked of all players at once and applied in
    turn order once everyone has answered.
    """
    state = game.state
    state.phase = "income"
    game.emit("round", amount=state.round, text=f"Round {state.round} begins")
    pending: dict[str, list[Task]] = {}
    for company_id in state.turn_order:
        company = game.company(company_id)
        queue: list[Task] = []
        if not game.automa_has(company_id, "incomes_from"):
            continue  # an Easy automa takes no income
        for income in game.content.companies[company_id].income:
            if company.placed.get(income.track, 0) >= income.after_piece:
                source = f"income:{income.track}:{income.after_piece}"
                apply_reward(game, company_id, income.reward, source, defer=queue)
        for ask in game.hooked(Hooks.income):
            ask(game, company_id, queue)
        if queue:
            pending[company_id] = queue
    tasks: list[Task] = []
    if pending:
        tasks.append({"kind": "simultaneous", "pending": pending, "answers": []})
    tasks.append({"kind": "headstreams", "stop": entry.get("stop", False)})
    game.push(*tasks)


@RULES.task("answered")
def _answered(game: Game, entry: Task) -> None:
    """Apply an answer given during a simultaneous decision, now that its turn has come."""
    inner = entry["entry"]
    handler = game.rules.tasks[inner["kind"]]
    assert handler.options is not None and handler.apply is not None
    for option in handler.options(game, inner):
        if option.notation == entry["notation"]:
            handler.apply(game, inner, option.move)
            return
    raise AssertionError(f"stored answer {entry['notation']!r} is no longer legal")


@RULES.task("headstreams")
def _headstreams(game: Game, entry: Task) -> None:
    """Rounds 1-4: each headstream tile adds its drops for the round (then expansions' own)."""
    state = game.state
    rounds_with_water = len(game.content.headstream_tiles[0].drops_per_round)
    tiles = {tile.id: tile for tile in game.content.headstream_tiles}
    for headstream, tile_id in state.headstream_tiles.items():
        if state.round > rounds_with_water:
            break
        drops = tiles[tile_id].drops_per_round[state.round - 1]
        if drops:
            state.headstream_water[headstream] = state.headstream_water.get(headstream, 0) + drops
            game.emit("headstream", amount=drops, data={"at": headstream})
    for ask in game.hooked(Hooks.river_sources):
        ask(game)
    game.chain(entry, {"kind": "actions_start"})


@RULES.task("actions_start")
def _actions_start(game: Game, entry: Task) -> None:
    game.state.phase = ACTIONS_PHASE
    game.push({"kind": "next_turn", "after": None})


# -- III. Water flow ------------------------------------------------------------------------


@RULES.task("water_flow")
def _water_flow(game: Game, entry: Task) -> None:
    """All drops on headstream tiles flow, one at a time, headstreams left to right (RULINGS 23)."""
    state = game.state
    state.phase = "water_flow"
    for headstream in game.map.headstreams:
        drops = state.headstream_water.get(headstream, 0)
        state.headstream_water[headstream] = 0
        for _ in range(drops):
            flow_from_headstream(game, headstream, "water-flow")
    game.chain(entry, {"kind": "scoring"})


# -- IV. Scoring ----------------------------------------------------------------------------


def placement_awards(energies: dict[str, int], first: int, second: int) -> dict[str, int]:
    """VP for first and second place on the Energy Track (rulebook "IV. Scoring").

    Only companies with at least 1 energy take part. A tie for first shares first+second
    (rounded up) and nobody is second; a tie for second gives each tied company 1 VP.
    """
    eligible = {cid: energy for cid, energy in energies.items() if energy >= 1}
    if not eligible:
        return {}
    best = max(eligible.values())
    leaders = [cid for cid, energy in eligible.items() if energy == best]
    if len(leaders) > 1:
        share = ceil((first + second) / len(leaders))
        return dict.fromkeys(leaders, share)
    awards = {leaders[0]: first}
    rest = {cid: energy for cid, energy in eligible.items() if cid != leaders[0]}
    if rest:
        runner_up = max(rest.values())
        seconds = [cid for cid, energy in rest.items() if energy == runner_up]
        for cid in seconds:
            awards[cid] = second if len(seconds) == 1 else 1
    return awards


def _advanced_tiles(game: Game, company_id: str) -> int:
    company = game.company(company_id)
    tiles = game.content.tiles
    return sum(
        1 for tile in company.tiles + company.wheel_tiles() if tiles[tile].kind == "advanced"
    )


RULES.bonus_counter("contracts", lambda g, c: len(g.company(c).fulfilled))
RULES.bonus_counter("bases", lambda g, c: structure_count(g, c, "base"))
RULES.bonus_counter("elevations", lambda g, c: structure_count(g, c, "elevation"))
RULES.bonus_counter("conduits", lambda g, c: structure_count(g, c, "conduit"))
RULES.bonus_counter("powerhouses", lambda g, c: structure_count(g, c, "powerhouse"))
RULES.bonus_counter("advanced_tiles", _advanced_tiles)


def bonus_count(game: Game, company_id: str, tile_id: str) -> int:
    """What a company counts now for a bonus tile (its rule set's counter)."""
    return game.rules.bonus_counters[tile_id](game, company_id)


def bonus_malus(track: EnergyTrack, energy: float, round_number: int) -> int:
    """The VP a bonus tile loses in round `round_number` at this energy (at least 6): 4 for
    each section of the Energy Track the marker is behind."""
    sections = sum(1 for start in track.bonus_section_min_energy if energy >= start)
    return track.malus_per_section * max(0, round_number - sections)


def bonus_reward(game: Game, company_id: str, tile_id: str) -> tuple[int, str]:
    """VP from the round's bonus tile: full, reduced by 4 per section behind, or none."""
    track = game.content.energy_track
    energy = min(game.company(company_id).energy, ENERGY_CAP)
    if energy < track.bonus_min_energy:
        return 0, "no reward (under 6 energy)"
    count = bonus_count(game, company_id, tile_id)
    each = game.content.bonus_tiles[tile_id].vp_each
    full = count * each
    malus = bonus_malus(track, energy, game.state.round)
    vp = max(0, full - malus)
    if not malus:
        return vp, f"{count} × {each} VP = {vp} VP, full reward"
    return vp, f"{count} × {each} VP = {full} VP, reduced by {malus}: {vp} VP"


@RULES.task("scoring")
def _scoring(game: Game, entry: Task) -> None:
    state = game.state
    state.phase = "scoring"
    track = game.content.energy_track
    energies = {cid: game.company(cid).energy for cid in state.turn_order}
    for cid, vp in placement_awards(energies, track.first_vp, track.second_vp).items():
        game.gain(cid, "vp", vp, "scoring:energy-placement")
    for cid in state.turn_order:
        credits, vp = track.credits_for(min(energies[cid], ENERGY_CAP))
        game.gain(cid, "credits", credits, "scoring:energy-track")
        game.gain(cid, "vp", vp, "scoring:energy-track")
    tile_id = state.bonus_tiles[state.round - 1]
    for cid in state.turn_order:
        vp, how = bonus_reward(game, cid, tile_id)
        game.emit("bonus_tile", cid, vp, f"bonus:{tile_id}", text=how)
        game.gain(cid, "vp", vp, f"bonus:{tile_id}")
    for ask in game.hooked(Hooks.round_scoring):
        ask(game)
    state.history.append(
        {
            "round": state.round,
            "energy": energies,
            "vp": {cid: game.company(cid).vp for cid in state.seats},
        }
    )
    last = state.round >= game.content.costs.rounds
    game.chain(entry, {"kind": "end_game" if last else "end_of_round"})


# -- V. End of round --------------------------------------------------------------------------


def next_turn_order(order: list[str], energies: dict[str, int]) -> list[str]:
    """Least energy first; ties invert the tied companies' previous order."""
    position = {cid: index for index, cid in enumerate(order)}
    return sorted(order, key=lambda cid: (energies[cid], -position[cid]))


@RULES.task("end_of_round")
def _end_of_round(game: Game, entry: Task) -> None:
    """Rounds 1-4 only (RULINGS 6): turn order, energy reset, engineers back."""
    state = game.state
    state.phase = "end_of_round"
    energies = {cid: game.company(cid).energy for cid in state.turn_order}
    state.turn_order = next_turn_order(state.turn_order, energies)
    game.emit("turn_order", data={"order": list(state.turn_order)})
    for cid in state.seats:
        company = game.company(cid)
        company.energy = 0
        placed = sum(
            count for space in state.spaces.values() for owner, count in space if owner == cid
        )
        if placed:
            game.gain(cid, "engineers", placed, "end-of-round")
    state.spaces.clear()
    for cid in state.seats:
        company = game.company(cid)
        used = company.construction_spaces_used
        back = sum(space.engineers for space in game.content.common.construction_spaces[:used])
        if back:
            game.gain(cid, "engineers", back, "end-of-round")
        company.construction_spaces_used = 0
    refresh_patent_office(game)
    for ask in game.hooked(Hooks.end_of_round):
        ask(game)
    state.round += 1
    game.chain(entry, {"kind": "round_start"})


# -- end of the game --------------------------------------------------------------------------


def objective_counts(game: Game, objective: str) -> dict[str, int]:
    """Each company's count for the objective tile."""
    out = {}
    for cid in game.state.seats:
        pieces = pieces_by_location(game, cid)
        if objective == "red_outlined_spaces":
            count = sum(
                1
                for kind, _basin, space in pieces
                if (kind == "base" and game.map.dam_spaces[space].red_outline)
                or (kind == "powerhouse" and game.map.powerhouse_spaces[space].red_outline)
            )
        elif objective in ("most_in_one_area", "fewest_in_one_area"):
            per_area = dict.fromkeys(("mountain", "hill", "plain"), 0)
            for _kind, basin, _space in pieces:
                per_area[game.map.basins[basin].area] += 1
            values = per_area.values()
            count = max(values) if objective == "most_in_one_area" else min(values)
        elif objective == "connected_systems":
            count = connected_dams(game, cid)
        elif objective in ("basins_with_one", "basins_with_three"):
            per_basin: dict[int, int] = {}
            for _kind, basin, _space in pieces:
                per_basin[basin] = per_basin.get(basin, 0) + 1
            need = 1 if objective == "basins_with_one" else 3
            count = sum(1 for n in per_basin.values() if n >= need)
        else:
            count = 0
            for ask in game.hooked(Hooks.objective_count):
                found = ask(game, objective, cid)
                if found is not None:
                    count = found
        out[cid] = count
    return out


def connected_dams(game: Game, company_id: str) -> int:
    """RULINGS 27: own dams linked by an own conduit of that basin to an own powerhouse."""
    state = game.state
    count = 0
    for space, dam in state.dams.items():
        if dam.owner != company_id:
            continue
        basin = game.map.basins[game.map.dam_spaces[space].basin]
        if any(
            state.conduits.get(conduit) == company_id
            and any(
                state.powerhouses.get(ph) == company_id
                for ph in game.map.conduit_spaces[conduit].connects_powerhouse_spaces
            )
            for conduit in basin.conduit_spaces
        ):
            count += 1
    return count


def objective_awards(counts: dict[str, int], vp_by_place: tuple[int, ...]) -> dict[str, int]:
    """RULINGS 7: tied companies add up the VP of the places they occupy, split, round up."""
    awards = {}
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    place = 0
    while place < len(ranked):
        tied = [cid for cid, count in ranked if count == ranked[place][1]]
        pool = sum(
            vp_by_place[p] if p < len(vp_by_place) else 0 for p in range(place, place + len(tied))
        )
        for cid in tied:
            awards[cid] = ceil(pool / len(tied)) if pool else 0
        place += len(tied)
    return awards


@RULES.task("end_game")
def _end_game(game: Game, entry: Task) -> None:
    """Objective tile, resources (1 VP per 5, wheel excluded), water in own dams; the winner."""
    state = game.state
    state.phase = "end"
    counts = objective_counts(game, state.objective)
    awards = objective_awards(counts, game.content.objective_vp_by_place)
    if state.options.automa:
        # An automa's places on the objective tile pay it more (its own table).
        automa_awards = objective_awards(counts, economy().objective_vp_by_place)
        for cid in awards:
            if game.automa_level(cid) is not None:
                awards[cid] = automa_awards[cid]
    for cid, vp in awards.items():
        game.gain(cid, "vp", vp, f"objective:{state.objective}")
    per_vp = game.content.costs.resources_per_vp
    for cid in state.seats:
        company = game.company(cid)
        resources = company.credits + company.excavators + company.mixers
        game.gain(cid, "vp", resources // per_vp, "end:resources")
    for ask in game.hooked(Hooks.final_scoring):
        ask(game)
    for cid in state.seats:
        game.gain(cid, "vp", dam_owner_water(game, cid), "end:water")
    # Ranking: most VP; ties broken by the energy of the last round (the track is not reset).
    ranking = sorted(state.seats, key=lambda c: (-game.company(c).vp, -game.company(c).energy))
    places: list[int] = []
    for index, cid in enumerate(ranking):
        company = game.company(cid)
        if index and (company.vp, company.energy) == (
            game.company(ranking[index - 1]).vp,
            game.company(ranking[index - 1]).energy,
        ):
            places.append(places[-1])
        else:
            places.append(index + 1)
    state.result = {
        "ranking": [
            {"company": cid, "place": place, "vp": game.company(cid).vp}
            for cid, place in zip(ranking, places, strict=True)
        ],
        "objective_counts": counts,
    }
    state.finished = True
    state.phase = "finished"
    game.emit("game_over", data=state.result)
