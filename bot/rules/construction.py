"""Construction: structure kinds, where they may go, what they cost, and the build decisions.

A construction action (rulebook "Construction Action") runs as three decisions, each applied
automatically when it has one option: the structure and its space (`base D5U`), the technology
tile (`tile basic_base`), and the payment (`pay 4e`, or with Solomon `pay 2e 6c`). Only choices
that can be completed are listed, so a player never gets stuck half-way.

Structures built as a reward (RULINGS 26) need no engineers, tile or machinery; they still pay
3 credits on a red-outlined Base or Powerhouse space and reveal income at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.notation import Payment, Structure
from bot.rules.options import Option, counted
from bot.rules.rewards import apply_reward, rotate_wheel
from bot.rules.rulebook import RuleSet
from bot.rules.state import Dam
from bot.rules.structures import Cost, StructureKind, TileUse
from bot.rules.tasks import Task
from bot.rules.wording import piece_name, source_text

RULES: RuleSet[Game] = RuleSet("construction")

# Incomes are uncovered by the 2nd, 4th and 5th piece of these structure rows.
INCOME_TRACKS = ("base", "elevation", "conduit")


# -- the base game's four kinds ---------------------------------------------------------


def _base_spaces(game: Game, company_id: str, constraint: Task) -> list[str]:
    areas = constraint.get("areas")
    own_basins = {
        game.map.dam_spaces[space].basin
        for space, dam in game.state.dams.items()
        if dam.owner == company_id
    }
    return [
        space.id
        for space in game.map.dam_spaces.values()
        if space.id not in game.state.dams
        and space.basin not in own_basins
        and (not areas or game.map.area_of(space.id) in areas)
    ]


def _base_costs(game: Game, company_id: str, space_id: str) -> list[Cost]:
    space = game.map.dam_spaces[space_id]
    return [Cost("excavators", space.base_cost_excavators, space.extra_credits_for_base)]


def _place_base(game: Game, company_id: str, space_id: str) -> None:
    game.state.dams[space_id] = Dam(owner=company_id, level=1, water=0)
    game.keep_map_order()


def _elevation_spaces(game: Game, company_id: str, constraint: Task) -> list[str]:
    top = 1 + game.content.costs.max_elevations_per_base
    return [
        space
        for space, dam in game.state.dams.items()
        if dam.owner == company_id and dam.level < top
    ]


def _elevation_costs(game: Game, company_id: str, space_id: str) -> list[Cost]:
    # Elevations never pay the red-outline fee.
    return [Cost("mixers", game.map.dam_spaces[space_id].elevation_cost_mixers, 0)]


def _place_elevation(game: Game, company_id: str, space_id: str) -> None:
    game.state.dams[space_id].level += 1


def _conduit_spaces(game: Game, company_id: str, constraint: Task) -> list[str]:
    limit = constraint.get("max_production")
    return [
        space.id
        for space in game.map.conduit_spaces.values()
        if space.id not in game.state.conduits and (limit is None or space.production <= limit)
    ]


def _conduit_costs(game: Game, company_id: str, space_id: str) -> list[Cost]:
    space = game.map.conduit_spaces[space_id]
    return [Cost("excavators", space.cost_excavators, 0)]


def _place_conduit(game: Game, company_id: str, space_id: str) -> None:
    game.state.conduits[space_id] = company_id
    game.keep_map_order()


def _powerhouse_spaces(game: Game, company_id: str, constraint: Task) -> list[str]:
    own_basins = {
        game.map.powerhouse_spaces[space].basin
        for space, owner in game.state.powerhouses.items()
        if owner == company_id
    }
    return [
        space.id
        for space in game.map.powerhouse_spaces.values()
        if space.id not in game.state.powerhouses and space.basin not in own_basins
    ]


def _powerhouse_costs(game: Game, company_id: str, space_id: str) -> list[Cost]:
    built = game.company(company_id).placed["powerhouse"]
    table = game.content.common.powerhouse_cost_mixers
    mixers = table[min(built, len(table) - 1)]
    return [Cost("mixers", mixers, game.map.powerhouse_spaces[space_id].extra_credits)]


def _place_powerhouse(game: Game, company_id: str, space_id: str) -> None:
    game.state.powerhouses[space_id] = company_id
    game.keep_map_order()


def _pieces(kind: str) -> Callable[[Game], int]:
    return lambda game: game.content.common.pieces[kind]


for _kind in (
    StructureKind("base", _base_spaces, _base_costs, _place_base, _pieces("base")),
    StructureKind(
        "elevation", _elevation_spaces, _elevation_costs, _place_elevation, _pieces("elevation")
    ),
    StructureKind("conduit", _conduit_spaces, _conduit_costs, _place_conduit, _pieces("conduit")),
    StructureKind(
        "powerhouse",
        _powerhouse_spaces,
        _powerhouse_costs,
        _place_powerhouse,
        _pieces("powerhouse"),
    ),
):
    RULES.structure(_kind)


# -- payments ---------------------------------------------------------------------------


def credits_for_machinery(game: Game, company_id: str) -> int:
    """Credits that may replace each machinery of a cost (Solomon P. Jordan); 0 when none."""
    rate = 0
    for credits in game.hooked(Hooks.credits_for_machinery):
        rate = max(rate, credits(game, company_id))
    return rate


def payments(
    game: Game, company_id: str, cost: Cost, budget: int, *, rate: int | None = None
) -> list[Payment]:
    """Every affordable way to pay `cost` with `budget` credits left after the fee; `rate` is
    `credits_for_machinery` when the caller knows it already (it asks for many costs)."""
    company = game.company(company_id)
    have = company.excavators if cost.machinery == "excavators" else company.mixers
    # Solomon P. Jordan: each required machinery may be replaced by credits.
    rate = credits_for_machinery(game, company_id) if rate is None else rate
    replaceable = cost.amount if rate else 0
    out = []
    if cost.mixers:
        return _two_kind_payments(game, company_id, cost, budget, rate)
    for replaced in range(replaceable + 1):
        machinery = cost.amount - replaced
        credits = rate * replaced
        if credits + cost.fee > budget:
            continue
        if cost.machinery == "any":
            for excavators in range(min(machinery, company.excavators), -1, -1):
                if machinery - excavators <= company.mixers:
                    out.append(Payment(excavators, machinery - excavators, credits))
            continue
        if machinery > have:
            continue
        if cost.machinery == "excavators":
            out.append(Payment(machinery, 0, credits))
        else:
            out.append(Payment(0, machinery, credits))
    return out


def _two_kind_payments(
    game: Game, company_id: str, cost: Cost, budget: int, rate: int
) -> list[Payment]:
    """Payments of `amount` excavators plus `mixers` mixers (Solomon: 3 credits for any)."""
    company = game.company(company_id)
    out = []
    for swap_e in range(cost.amount + 1 if rate else 1):
        for swap_m in range(cost.mixers + 1 if rate else 1):
            credits = rate * (swap_e + swap_m)
            excavators, mixers = cost.amount - swap_e, cost.mixers - swap_m
            if credits + cost.fee > budget:
                continue
            if excavators <= company.excavators and mixers <= company.mixers:
                out.append(Payment(excavators, mixers, credits))
    return out


def structure_spaces(
    game: Game, company_id: str, kind: StructureKind[Game], constraint: Task
) -> list[str]:
    """Where `kind` may go now: its own rule, narrowed by the expansions in play."""
    spaces = kind.spaces(game, company_id, constraint)
    for narrow in game.hooked(Hooks.structure_spaces):
        spaces = narrow(game, company_id, kind.name, constraint, spaces)
    return spaces


def kinds_in_play(game: Game) -> list[StructureKind[Game]]:
    """Structure kinds of the base game and of this game's expansions."""
    return list(game.rules.structures.values())


def printed_costs(game: Game, company_id: str, kind: str, space: str) -> list[Cost]:
    """The ways to pay for a structure of `kind` on `space`: its rule, bent by the hooks
    (officers such as Wilhelm Adler and Jill McDowell)."""
    costs = game.rules.structures[kind].costs(game, company_id, space)
    for bend in game.hooked(Hooks.structure_costs):
        costs = bend(game, company_id, kind, space, costs)
    return costs


def tiles_for(game: Game, company_id: str, kind: str) -> list[str]:
    """Technology tiles in the supply that can build this kind of structure."""
    return list(dict.fromkeys(use.tile for use in uses_for(game, company_id, kind)))


def tile_uses(game: Game, company_id: str) -> list[TileUse]:
    """Every way to use the tiles in the company's supply."""
    out: list[TileUse] = []
    for tile_id in dict.fromkeys(game.company(company_id).tiles):
        special = game.rules.tile_uses.get(tile_id)
        out.extend(special(game, company_id, tile_id) if special else [TileUse(tile_id, tile_id)])
    return out


def uses_for(game: Game, company_id: str, kind: str, *, free_only: bool = False) -> list[TileUse]:
    """Tile uses that build this kind (only engineer-free tiles when `free_only`)."""
    return [
        use
        for use in tile_uses(game, company_id)
        if kind in tile_builds(game, company_id, use.acts_as)
        and (not free_only or game.content.tiles[use.acts_as].engineer_free)
    ]


def tile_costs(game: Game, company_id: str, kind: str, space: str, acts_as: str) -> list[Cost]:
    """The ways to pay for a structure built with a tile acting as `acts_as`."""
    costs = printed_costs(game, company_id, kind, space)
    modifier = game.rules.tile_costs.get(acts_as)
    return modifier(game, company_id, kind, space, costs) if modifier else costs


def tile_builds(game: Game, company_id: str, tile_id: str) -> set[str]:
    """The structure kinds a tile can build for this company now."""
    tile = game.content.tiles[tile_id]
    if tile.builds == "any":
        return {kind.name for kind in kinds_in_play(game)}
    builds = {tile.builds}
    for bend in game.hooked(Hooks.tile_builds):
        builds = bend(game, company_id, tile_id, builds)
    return builds


def build_choices(
    game: Game, company_id: str, budget: int, *, free_only: bool = False
) -> list[tuple[str, str, int]]:
    """(kind, space, cheapest credits) for every structure a construction action can build."""
    company = game.company(company_id)
    rate = credits_for_machinery(game, company_id)
    out = []
    for kind in kinds_in_play(game):
        if company.placed.get(kind.name, 0) >= kind.pieces(game):
            continue
        uses = uses_for(game, company_id, kind.name, free_only=free_only)
        if not uses:
            continue
        # Tiles without a cost rule share the printed costs: cost each rule once.
        modifiers = list(dict.fromkeys(game.rules.tile_costs.get(use.acts_as) for use in uses))
        for space in structure_spaces(game, company_id, kind, {"kind": "build_structure"}):
            printed = printed_costs(game, company_id, kind.name, space)
            best = None
            for modifier in modifiers:
                costs = (
                    modifier(game, company_id, kind.name, space, printed) if modifier else printed
                )
                for cost in costs:
                    for payment in payments(game, company_id, cost, budget, rate=rate):
                        total = payment.credits + cost.fee
                        best = total if best is None else min(best, total)
            if best is not None:
                out.append((kind.name, space, best))
    return out


def can_build(game: Game, company_id: str, budget: int, *, free_only: bool = False) -> bool:
    """True when at least one construction can be completed within `budget` credits."""
    return bool(build_choices(game, company_id, budget, free_only=free_only))


def tile_name(game: Game, tile: str) -> str:
    """A technology tile's name: 'Wild II'."""
    return piece_name("tile", tile, game.content)


def space_text(game: Game, space_id: str, kind: StructureKind[Game] | None = None) -> str:
    """E.g. 'D5U (hill, red)'; an expansion's own space as its structure kind reads it."""
    if kind is not None and kind.space_text is not None:
        return kind.space_text(game, space_id)
    try:
        area = game.map.area_of(space_id)
    except KeyError:
        return space_id
    red = ""
    if space_id in game.map.dam_spaces and game.map.dam_spaces[space_id].red_outline:
        red = ", red"
    if space_id in game.map.powerhouse_spaces and game.map.powerhouse_spaces[space_id].red_outline:
        red = ", red"
    if space_id in game.map.conduit_spaces:
        return f"{space_id} ({area}, value {game.map.conduit_spaces[space_id].production})"
    return f"{space_id} ({area}{red})"


def _cost_text(game: Game, company_id: str, kind: str, space: str) -> str:
    costs = printed_costs(game, company_id, kind, space)
    return " or ".join(cost.describe() for cost in costs)


# -- the construction decisions ----------------------------------------------------------


def _structure_options(game: Game, entry: Task) -> list[Option]:
    company_id = entry["player"]
    options = []
    budget = game.budget(company_id)
    for kind, space, _credits in build_choices(
        game, company_id, budget, free_only=entry.get("free", False)
    ):
        where = space_text(game, space, game.rules.structures.get(kind))
        label = f"{kind.capitalize()} on {where}: {_cost_text(game, company_id, kind, space)}"
        options.append(Option(Structure(kind, space), label, group=kind))
    return options


@RULES.task(
    "build_structure", options=_structure_options, prompt=lambda g, e: "Build what, and where?"
)
def _build_structure(game: Game, entry: Task, move: Structure) -> None:
    assert move.space is not None, "a construction is never declined"
    game.push(
        {
            "kind": "build_tile",
            "player": entry["player"],
            "structure": move.kind,
            "space": move.space,
            "free": entry.get("free", False),
        }
    )


def _tile_options(game: Game, entry: Task) -> list[Option]:
    company_id = entry["player"]
    kind, space = entry["structure"], entry["space"]
    budget = game.budget(company_id)
    options = []
    for use in uses_for(game, company_id, kind, free_only=entry.get("free", False)):
        if not any(
            payments(game, company_id, cost, budget)
            for cost in tile_costs(game, company_id, kind, space, use.acts_as)
        ):
            continue
        tile = game.content.tiles[use.acts_as]
        label = f"Use {tile_name(game, use.tile)}"
        if use.acts_as != use.tile:
            label += f" as {tile.name}"
        options.append(
            Option(
                use,
                label,
                group="tiles",
                description=tile.effect_text,
                full_text=f"{label}: {tile.effect_text}" if tile.effect_text else label,
            )
        )
    return options


@RULES.task(
    "build_tile",
    options=_tile_options,
    prompt=lambda g, e: (
        f"Which technology tile builds the {e['structure']} on "
        f"{space_text(g, e['space'], g.rules.structures.get(e['structure']))}?"
    ),
)
def _build_tile(game: Game, entry: Task, move: TileUse) -> None:
    game.push({**entry, "kind": "build_pay", "tile": move.tile, "as": move.acts_as})


def _pay_options(game: Game, entry: Task) -> list[Option]:
    company_id = entry["player"]
    budget = game.budget(company_id)
    options = []
    acts_as = entry.get("as") or entry["tile"]
    for cost in tile_costs(game, company_id, entry["structure"], entry["space"], acts_as):
        for payment in payments(game, company_id, cost, budget):
            label = f"Pay {payment.describe()}"
            if cost.fee:
                label += f" (+{counted(cost.fee, 'credit')} for the red outline)"
            offered = Payment(payment.excavators, payment.mixers, payment.credits, cost.fee)
            options.append(Option(offered, label, group="payment"))
    return options


@RULES.task(
    "build_pay",
    options=_pay_options,
    prompt=lambda g, e: f"How do you pay for the {e['structure']}?",
)
def _build_pay(game: Game, entry: Task, move: Payment) -> None:
    company_id = entry["player"]
    tile_id = entry["tile"]
    load_wheel(game, company_id, tile_id, move.excavators, move.mixers)
    game.gain(company_id, "credits", -move.credits, "construction:machinery-as-credits")
    rotate_wheel(game, company_id, 1, "construction")
    place_structure(game, company_id, entry["structure"], entry["space"], fee=move.fee)
    effect = game.rules.tile_effects.get(entry.get("as") or tile_id)
    if effect is not None:
        effect(game, company_id, entry["structure"], entry["space"])


def load_wheel(
    game: Game, company_id: str, tile_id: str | None, excavators: int, mixers: int, source: str = ""
) -> None:
    """Move a tile (if any) and machinery from the supply into the wheel's open segment."""
    company = game.company(company_id)
    segment = company.wheel[company.wheel_open]
    if tile_id is not None:
        company.tiles.remove(tile_id)
        segment.tiles.append(tile_id)
    company.excavators -= excavators
    company.mixers -= mixers
    segment.excavators += excavators
    segment.mixers += mixers
    game.emit(
        "wheel_load",
        company_id,
        source=source,
        data={"tile": tile_id, "excavators": excavators, "mixers": mixers},
    )


def place_structure(game: Game, company_id: str, kind: str, space: str, *, fee: int) -> None:
    """Put a structure piece on the map: pay the fee, place it, uncover income at once."""
    game.gain(company_id, "credits", -fee, f"red-outline:{space}")
    game.rules.structures[kind].place(game, company_id, space)
    company = game.company(company_id)
    company.placed[kind] = company.placed.get(kind, 0) + 1
    count = company.placed[kind]
    game.emit(
        "build", company_id, source=kind, data={"structure": kind, "space": space, "piece": count}
    )
    # An Easy automa takes no income, not even when a piece uncovers it.
    if kind in INCOME_TRACKS and game.automa_has(company_id, "incomes_from"):
        for income in game.content.companies[company_id].income:
            if income.track == kind and income.after_piece == count:
                apply_reward(game, company_id, income.reward, f"income:{kind}:{count}")


# -- structures as rewards -----------------------------------------------------------------


def _reward_build_options(game: Game, entry: Task) -> list[Option]:
    company_id = entry["player"]
    kind = game.rules.structures[entry["structure"]]
    company = game.company(company_id)
    if company.placed.get(kind.name, 0) >= kind.pieces(game):
        return []
    options = []
    for space in structure_spaces(game, company_id, kind, entry):
        fee = kind.costs(game, company_id, space)[0].fee
        if fee > game.budget(company_id):
            continue
        label = f"Free {kind.name} on {space_text(game, space, kind)}"
        if fee:
            label += f" (pay {counted(fee, 'credit')})"
        options.append(Option(Structure(kind.name, space, fee), label, group=kind.name))
    if options:
        options.append(Option(Structure(kind.name, None), f"Build no {kind.name}", group=kind.name))
    return options


@RULES.task(
    "reward_build",
    options=_reward_build_options,
    prompt=lambda g, e: f"Build a free {e['structure']} ({source_text(e['source'], g.content)})?",
)
def _reward_build(game: Game, entry: Task, move: Structure) -> None:
    if move.space is None:
        return
    place_structure(game, entry["player"], entry["structure"], move.space, fee=move.fee)


def structure_count(game: Game, company_id: str, kind: str) -> int:
    """Pieces of this kind the company has on the map."""
    return game.company(company_id).placed.get(kind, 0)


def pieces_by_location(game: Game, company_id: str) -> list[tuple[str, int, Any]]:
    """(kind, basin, space) for every piece the company has on the map (elevations included)."""
    out: list[tuple[str, int, Any]] = []
    for space, dam in game.state.dams.items():
        if dam.owner == company_id:
            basin = game.map.dam_spaces[space].basin
            out.append(("base", basin, space))
            out.extend(("elevation", basin, space) for _ in range(dam.level - 1))
    for space, owner in game.state.conduits.items():
        if owner == company_id:
            out.append(("conduit", game.map.conduit_spaces[space].from_basin, space))
    for space, owner in game.state.powerhouses.items():
        if owner == company_id:
            out.append(("powerhouse", game.map.powerhouse_spaces[space].basin, space))
    return out
