"""An automa's turn: flip a card, do its actions in order, stop at the first that stops a turn.

The turn is one decision of the automa's company (`automa_turn`, one option, notation
`automa`), never applied by the engine on its own: the service (or a console, a test, a bench)
answers it with `bot.rules.automa.play.automa_answer`, so it is a record of the log like any
other and replays exactly. The bot/rules/automa package docstring gives the rules; this module
performs them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.rules.actions import place_engineers, spaces_in_play
from bot.rules.automa.criteria import choose_space, headstream_order
from bot.rules.automa.deck import flip
from bot.rules.automa.seats import automa_data, economy
from bot.rules.construction import (
    load_wheel,
    payments,
    place_structure,
    space_text,
    structure_spaces,
    tile_costs,
    uses_for,
)
from bot.rules.contracts import contract_discount, refill_contract_offer
from bot.rules.engine import AUTOMA_BUDGET, Game
from bot.rules.hooks import Hooks
from bot.rules.moves import Move, Word
from bot.rules.options import Option, counted
from bot.rules.patent import take_patent_tile
from bot.rules.production import production_energy, release_production, systems
from bot.rules.rewards import apply_reward, rotate_wheel
from bot.rules.rulebook import RuleSet
from bot.rules.structures import Cost, TileUse
from bot.rules.tasks import Task
from bot.rules.water import flow_drop, flow_from_headstream

RULES: RuleSet[Game] = RuleSet("automa")
AUTOMA = Word("automa")
RULES.move(Word, "automa")

# Action types after which the turn ends (when they were done).
STOPPING = frozenset(
    {"produce", "construct", "rotate_wheel", "gain_machinery", "patent", "external_work"}
)
CONSTRUCTION_EXTRA = "automa_construction"  # company.extra: engineers on its construction space
PATENT_SPACES = ("patent_1", "patent_2", "patent_3")
PRIVATE_LEVELS = ("green", "yellow", "red")


def card(card_id: int) -> dict[str, Any]:
    """One card of the deck, as the data file states it."""
    return next(c for c in automa_data()["card"] if int(c["id"]) == card_id)


@dataclass
class AutomaTurn:
    """One automa turn in progress: its cards and what it has done (for the announcement)."""

    game: Game
    company: str
    level: int
    actions_card: dict[str, Any]
    criteria_card: dict[str, Any]
    done: list[str] = field(default_factory=list)

    @property
    def engineers(self) -> int:
        """Engineers the automa has left."""
        return self.game.company(self.company).engineers

    def place(self, section: str, count: int, source: str) -> str:
        """Put engineers on the first free space of a section in the automa's order (the
        first one in play when all are taken); returns the space."""
        game = self.game
        in_play = {space.id for space in spaces_in_play(game)}
        order = [s for s in space_order(section) if s in in_play]
        space = next((s for s in order if not game.state.spaces.get(s)), order[0])
        printed = 0 if section == "bank" else count
        place_engineers(game, self.company, space, count, source, printed=printed)
        return space

    def place_on_board(self, count: int, source: str) -> None:
        """Engineers on its company board's single construction space (back at round end)."""
        game = self.game
        game.gain(self.company, "engineers", -count, source)
        extra = game.company(self.company).extra
        extra[CONSTRUCTION_EXTRA] = extra.get(CONSTRUCTION_EXTRA, 0) + count

    def pay_vp(self, action: Mapping[str, Any], source: str) -> None:
        """The VP an action costs the automa."""
        cost = int(action.get("vp_cost", 0))
        if cost:
            self.game.gain(self.company, "vp", -cost, source)

    def report(self, action: Mapping[str, Any], text: str, **data: Any) -> None:
        """Record one done action in words (the turn message reads these)."""
        self.done.append(text)
        self.game.emit(
            "automa_action",
            self.company,
            source=f"automa:{action['type']}",
            text=text,
            data={"type": action["type"], **data},
        )


#: A structure kind as a turn line names it ("built a Powerhouse on P5_0").
STRUCTURE_NAMES = {
    "base": "Base",
    "elevation": "Elevation",
    "conduit": "Conduit",
    "powerhouse": "Powerhouse",
    "building": "Building",
}


def tile_words(game: Game, tile: str) -> str:
    """A technology tile as a turn line names it: 'Powerhouse tile', 'Wild II tile'."""
    found = game.content.tiles.get(tile)
    return f"{found.name} tile" if found is not None else "technology tile"


def space_order(section: str) -> list[str]:
    """The automa's order of one management board section's spaces."""
    if section == "patent_office":
        return list(PATENT_SPACES)
    return list(automa_data()["space_order"][section])


def engineers_for(turn: AutomaTurn, action: Mapping[str, Any]) -> int:
    """The card's engineer count, capped by the engineers left."""
    return min(int(action["engineers"]), turn.engineers)


# -- produce ------------------------------------------------------------------------------------


def has_reason_to_produce(game: Game, company: str) -> bool:
    """Its energy is under 6 per round so far, or an opponent has at least as much."""
    energy = game.company(company).energy
    if energy < 6 * game.state.round:
        return True
    return any(
        game.company(other).energy >= energy for other in game.state.seats if other != company
    )


def best_production(game: Game, company: str, bonus: int) -> tuple[int, Any] | None:
    """(energy, system) of its strongest production with all the drops of a dam (the first
    such system in the map's order on a tie), or None."""
    best = None
    for system in systems(game, company):
        drops = game.state.dams[system.dam].water
        energy = production_energy(game, company, system.conduit, drops, bonus, second=False)
        if energy >= 1 and (best is None or energy > best[0]):
            best = (energy, system)
    return best


def board_contract(
    game: Game, company: str, energy: int, levels: tuple[str, ...] = PRIVATE_LEVELS
) -> int | None:
    """The face-up private contract of these levels with the highest requirement that this
    energy meets (the lowest id among equal requirements), or None."""
    discount = contract_discount(game, company)
    found = [
        contract_id
        for level in levels
        for contract_id in game.state.private_offer.get(level, [])
        if game.content.contracts[contract_id].energy - discount <= energy
    ]
    if not found:
        return None
    return max(found, key=lambda cid: (game.content.contracts[cid].energy, -cid))


def do_produce(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Produce with its best system and fulfil the strongest board contract it reaches."""
    game, company = turn.game, turn.company
    bonus = int(action.get("production_bonus", 0))
    if not has_reason_to_produce(game, company):
        return False
    best = best_production(game, company, bonus)
    if best is None or board_contract(game, company, best[0], (action["contract_level"],)) is None:
        return False
    energy, system = best
    source = "automa:produce"
    space = turn.place("turbine_station", engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    drops = game.state.dams[system.dam].water  # all of them
    # Its share of a conduit fee is nothing: it never pays credits (Game.gain).
    release_production(game, company, system, drops, energy, f"production:{space}")
    game.push(
        {
            "kind": "after_production",
            "player": company,
            "second": False,
            "powerhouse": system.powerhouse,
            "dam": system.dam,
        }
    )
    contract_id = board_contract(game, company, energy)
    text = (
        f"produced {energy} energy ({counted(drops, 'drop')} {system.dam}→{system.conduit}→"
        f"{system.powerhouse}, bonus {bonus:+d})"
    )
    if contract_id is not None:
        contract = game.content.contracts[contract_id]
        level = contract.kind
        game.state.private_offer[level].remove(contract_id)
        game.state.pending_refill.append(level)
        game.company(company).fulfilled.append(contract_id)
        game.emit("contract", company, source=f"contract:{contract_id}", data={"id": contract_id})
        apply_reward(game, company, contract.reward, f"contract:{contract_id}")
        text += f" and fulfilled {level} contract {contract_id}"
    turn.report(action, text, energy=energy, contract=contract_id, system=system.dam)
    return True


# -- water ---------------------------------------------------------------------------------------


def drops_to_own_dams(game: Game, company: str, count: int, card_: Mapping[str, Any]) -> list[str]:
    """Headstreams for up to `count` drops, one by one: the first in the card's order whose
    drop would end in one of its dams (the drops already chosen counted in)."""
    water = game.water_levels()
    capacity = game.capacities()
    chosen: list[str] = []
    for _ in range(count):
        for headstream in headstream_order(game, card_):
            result = flow_drop(game.map, game.map.headstream_feeds[headstream], capacity, water)
            stop = result.stopped_at
            if stop is not None and game.state.dams[stop].owner == company:
                water[stop] = water.get(stop, 0) + 1
                chosen.append(headstream)
                break
    return chosen


def do_place_drops(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Drops on the headstreams whose water would reach its dams (flowing now, or later)."""
    game, company = turn.game, turn.company
    chosen = drops_to_own_dams(game, company, int(action["drops"]), turn.criteria_card)
    if not chosen:
        return False
    source = "automa:place_drops"
    space = turn.place("water_management", engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    flowing = bool(action.get("flow_immediately"))
    for headstream in chosen:
        if flowing:
            flow_from_headstream(game, headstream, f"space:{space}")
        else:
            game.state.headstream_water[headstream] += 1
            game.emit("drop_placed", company, source=f"space:{space}", data={"at": headstream})
    how = "flowing at once" if flowing else "on the headstreams"
    turn.report(action, f"placed {counted(len(chosen), 'drop')} {how}: {', '.join(chosen)}")
    return True


# -- construction --------------------------------------------------------------------------------


def ranked_uses(game: Game, company: str, level: int, kind: str) -> list[TileUse]:
    """Its tiles that build this kind, best first: advanced by level, then the tile made for
    the kind before a wild one; an officer's own tile only at the Expert level."""
    out = []
    for use in uses_for(game, company, kind):
        tile = game.content.tiles[use.tile]
        if tile.kind == "special" and level < economy().officer_ability_from:
            continue
        out.append(use)

    def rank(use: TileUse) -> tuple[int, int, int, str]:
        tile = game.content.tiles[use.tile]
        return (tile.kind != "advanced", -(tile.level or 0), tile.builds != kind, use.notation)

    return sorted(out, key=rank)


def automa_costs(
    game: Game, company: str, level: int, kind: str, space: str, acts_as: str
) -> list[Cost]:
    """Its ways to pay: the printed cost, bent by tiles' cost rules from the Hard level on."""
    if level >= economy().tile_effects_from:
        return tile_costs(game, company, kind, space, acts_as)
    return game.rules.structures[kind].costs(game, company, space)


def build_plan(
    game: Game, company: str, level: int, kind: str, space: str
) -> tuple[TileUse, Cost, Any] | None:
    """The tile (its best one that can build there) and machinery for one space, or None."""
    for use in ranked_uses(game, company, level, kind):
        for cost in automa_costs(game, company, level, kind, space, use.acts_as):
            found = payments(game, company, cost, AUTOMA_BUDGET, rate=0)
            if found:
                return use, cost, found[0]
    return None


def construct_spaces(
    game: Game, company: str, level: int, action: Mapping[str, Any]
) -> dict[str, tuple[TileUse, Cost, Any]]:
    """Every space where the card's structure can be built now, with its plan."""
    kind_name = action["structure"]
    kind = game.rules.structures.get(kind_name)
    if kind is None or game.company(company).placed.get(kind_name, 0) >= kind.pieces(game):
        return {}
    constraint: Task = {"kind": "build_structure"}  # a build of the turn, no reward limits
    if action.get("areas"):
        constraint["areas"] = list(action["areas"])
    spaces = structure_spaces(game, company, kind, constraint)
    least = action.get("min_conduit_production")
    if least is not None:
        spaces = [s for s in spaces if game.map.conduit_spaces[s].production >= int(least)]
    plans = {}
    for space in spaces:
        plan = build_plan(game, company, level, kind_name, space)
        if plan is not None:
            plans[space] = plan
    return plans


def build(
    turn: AutomaTurn,
    action: Mapping[str, Any],
    kind: str,
    space: str,
    plan: tuple[TileUse, Cost, Any],
) -> None:
    """Build one structure: engineers on its board, the tile and machinery on the wheel, the
    wheel turns, the piece goes on the map (its tile's effect from the Hard level on)."""
    game, company = turn.game, turn.company
    use, _cost, payment = plan
    source = f"automa:construct:{kind}"
    turn.place_on_board(engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    load_wheel(game, company, use.tile, payment.excavators, payment.mixers, source)
    rotate_wheel(game, company, 1, "construction")
    place_structure(game, company, kind, space, fee=0)
    if turn.level >= economy().tile_effects_from:
        effect = game.rules.tile_effects.get(use.acts_as)
        if effect is not None:
            effect(game, company, kind, space)


def do_construct(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Build the card's structure on the space its flipped card's criteria choose."""
    game, company = turn.game, turn.company
    kind = action["structure"]
    for ask in game.hooked(Hooks.automa_action):
        verdict = ask(game, company, action, turn)
        if verdict is not None:
            return verdict
    plans = construct_spaces(game, company, turn.level, action)
    fired: list[str] = []
    space = choose_space(game, company, kind, list(plans), turn.criteria_card, fired)
    if space is None:
        return False
    use, _cost, payment = plans[space]
    build(turn, action, kind, space, plans[space])
    paid = []
    if payment.excavators:
        paid.append(counted(payment.excavators, "excavator"))
    if payment.mixers:
        paid.append(counted(payment.mixers, "mixer"))
    built = STRUCTURE_NAMES.get(kind, kind)
    article = "an" if built[:1] in "AEIOU" else "a"
    turn.report(
        action,
        f"built {article} {built} on {space_text(game, space)} with its "
        f"{tile_words(game, use.tile)}" + (f" ({' + '.join(paid)})" if paid else ""),
        structure=kind,
        space=space,
        criteria=fired,
    )
    return True


# -- the other actions ----------------------------------------------------------------------------


def do_rotate_wheel(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Turn its wheel, if anything is on it."""
    game, company = turn.game, turn.company
    if all(segment.is_empty() for segment in game.company(company).wheel):
        return False
    source = "automa:rotate_wheel"
    space = turn.place("workshop", engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    rotate_wheel(game, company, int(action["segments"]), f"space:{space}")
    turn.report(action, f"turned its wheel {counted(int(action['segments']), 'segment')}")
    return True


def machinery_wanted(game: Game, company: str, machinery: Mapping[str, int]) -> tuple[int, int]:
    """(excavators, mixers) an action gives; `any` is the kind it has fewer of (excavators on
    a tie)."""
    excavators = int(machinery.get("excavator", 0))
    mixers = int(machinery.get("mixer", 0))
    for _ in range(int(machinery.get("any", 0))):
        own = game.company(company)
        if own.mixers + mixers < own.excavators + excavators:
            mixers += 1
        else:
            excavators += 1
    return excavators, mixers


def do_gain_machinery(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Take machinery (never in the last round when the card says so)."""
    game, company = turn.game, turn.company
    if action.get("not_in_last_round") and game.state.round >= game.content.costs.rounds:
        return False
    excavators, mixers = machinery_wanted(game, company, action["machinery"])
    source = "automa:gain_machinery"
    space = turn.place("machinery_shop", engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    game.gain(company, "excavators", excavators, f"space:{space}")
    game.gain(company, "mixers", mixers, f"space:{space}")
    parts = [counted(n, word) for n, word in ((excavators, "excavator"), (mixers, "mixer")) if n]
    turn.report(action, f"took {' and '.join(parts)}")
    return True


def do_gain_vp(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """VP on the Bank (always possible)."""
    source = "automa:gain_vp"
    turn.place("bank", engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    turn.game.gain(turn.company, "vp", int(action["vp"]), "space:bank")
    turn.report(action, f"took {action['vp']} VP at the Bank")
    return True


def do_clear_contracts(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Discard the face-up private contracts of a level (under their pile) and gain energy."""
    game, company = turn.game, turn.company
    level = action["contract_level"]
    cleared = list(game.state.private_offer.get(level, []))
    if not cleared:
        return False
    source = "automa:clear_contracts"
    space = turn.place("contract_office", engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    game.state.private_offer[level] = []
    game.state.private_piles.setdefault(level, []).extend(cleared)
    game.state.pending_refill.extend([level] * len(cleared))
    game.emit("contracts_cleared", company, source=f"space:{space}", data={"ids": cleared})
    game.add_energy(company, int(action["energy"]), "automa:clear_contracts")
    turn.report(
        action,
        f"cleared the {level} contracts {', '.join(map(str, cleared))} and gained "
        f"{action['energy']} energy",
    )
    return True


def patent_slot(game: Game, structure: str) -> int | None:
    """The Patent Office slot of the highest-level tile that builds this structure (the
    lowest slot on a tie), or None."""
    best = None
    for slot, tile_id in enumerate(game.state.patent_offer, start=1):
        if tile_id is None:
            continue
        tile = game.content.tiles[tile_id]
        if tile.builds not in (structure, "any"):
            continue
        if best is None or (tile.level or 0) > best[0]:
            best = (tile.level or 0, slot)
    return None if best is None else best[1]


def do_patent(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """Take the best advanced tile for a structure from the Patent Office, free."""
    game, company = turn.game, turn.company
    slot = patent_slot(game, action["structure"])
    if slot is None:
        return False
    source = "automa:patent"
    space = PATENT_SPACES[slot - 1]
    place_engineers(game, company, space, engineers_for(turn, action), source)
    turn.pay_vp(action, source)
    tile = game.state.patent_offer[slot - 1]
    take_patent_tile(game, company, slot, f"space:{space}")
    taken = tile_words(game, tile) if tile else "advanced tile"
    turn.report(action, f"took the {taken} from the Patent Office")
    return True


def do_hooked(turn: AutomaTurn, action: Mapping[str, Any]) -> bool:
    """An action an expansion performs (External Works); not possible without it."""
    for ask in turn.game.hooked(Hooks.automa_action):
        verdict = ask(turn.game, turn.company, action, turn)
        if verdict is not None:
            return verdict
    return False


PERFORM = {
    "produce": do_produce,
    "place_drops": do_place_drops,
    "construct": do_construct,
    "external_work": do_hooked,
    "rotate_wheel": do_rotate_wheel,
    "gain_machinery": do_gain_machinery,
    "gain_vp": do_gain_vp,
    "clear_contracts": do_clear_contracts,
    "patent": do_patent,
}


# -- the turn ------------------------------------------------------------------------------------


def play_card(turn: AutomaTurn) -> None:
    """Go through the card's actions: do each one it can, stop after a stopping one."""
    for action in turn.actions_card["actions"]:
        if turn.engineers < 1:
            break
        if PERFORM[action["type"]](turn, action) and action["type"] in STOPPING:
            break
    if not turn.done:
        turn.game.emit("automa_action", turn.company, text="passed", data={"type": "pass"})


def _turn_options(game: Game, entry: Task) -> list[Option]:
    return [Option(AUTOMA, "Play the automa's turn", group="automa")]


@RULES.task(
    "automa_turn",
    options=_turn_options,
    prompt=lambda g, e: "The automa plays its turn",
    always_ask=True,
)
def _automa_turn(game: Game, entry: Task, move: Move) -> None:
    company = entry["player"]
    game.state.current = company
    actions_id, criteria_id, reshuffled = flip(game.state, company)
    game.emit(
        "automa_card",
        company,
        # The card's actions are told one by one; its number says nothing in words.
        text="reshuffled its deck" if reshuffled else "",
        data={"actions": actions_id, "criteria": criteria_id, "reshuffled": reshuffled},
    )
    game.push({"kind": "automa_end", "player": company})
    level = game.automa_level(company)
    assert level is not None
    play_card(AutomaTurn(game, company, level, card(actions_id), card(criteria_id)))


@RULES.task("automa_end")
def _automa_end(game: Game, entry: Task) -> None:
    """The automa's turn ends: contracts it took or cleared are replaced, the turn passes."""
    revealed = refill_contract_offer(game)
    game.emit("turn_end", entry["player"], data={"revealed": revealed})
    game.push({"kind": "next_turn", "after": entry["player"]})


@RULES.hook
class AutomaHooks(Hooks["Game"]):
    """Engineers on an automa's construction space come back at the end of a round."""

    def end_of_round(self, game: Game) -> None:
        for company_id in game.state.seats:
            extra = game.company(company_id).extra
            back = extra.pop(CONSTRUCTION_EXTRA, 0)
            if back:
                game.gain(company_id, "engineers", back, "end-of-round")
