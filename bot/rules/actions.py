"""The Actions phase: a player's turn, the management board, the Bank, and Confirm.

On their turn a player places engineers on one free action space and performs its action
(rulebook "II. Actions"): `build` takes the next construction space of their company board;
a management space is named by its id (`turbine_plus2_left`, `water_place2_left`, ...);
`bank` puts any number of engineers on the Bank. A space is offered only when its engineers,
credits and action can all be had, because engineers may not be placed without performing the
action. The turn ends with `confirm`, which reveals hidden information (refilled contracts).
"""

from __future__ import annotations

from typing import Any

from bot.rules.construction import can_build
from bot.rules.content import ManagementSpace
from bot.rules.contracts import refill_contract_offer
from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.moves import Move, Space, Word
from bot.rules.notation import BANK, BUILD, CONFIRM, Engineers
from bot.rules.options import Option, counted
from bot.rules.production import can_produce
from bot.rules.rewards import apply_reward, describe_reward, rotate_wheel
from bot.rules.rulebook import RuleSet
from bot.rules.tasks import Task
from bot.rules.wording import SECTION_NAMES

RULES: RuleSet[Game] = RuleSet("actions")


def spaces_in_play(game: Game) -> list[ManagementSpace]:
    """Management spaces used in this game (player count and setup)."""
    players = game.state.options.players
    intro = game.state.options.setup == "intro"
    return [
        space
        for space in game.content.management_spaces
        if space.min_companies <= players and not (intro and space.not_in_introductory_game)
    ]


def space_is_free(game: Game, space: ManagementSpace) -> bool:
    """True when nobody has placed engineers on this exclusive space this round."""
    return not space.exclusive or not game.state.spaces.get(space.id)


def action_possible(game: Game, company_id: str, space: ManagementSpace, budget: int) -> bool:
    """Whether the action of this space can be performed with `budget` credits left."""
    effect = space.effect
    if "produce" in effect:
        return can_produce(game, company_id, effect.get("production_bonus", 0), budget)
    if "take_private_contracts" in effect:
        return any(game.state.private_offer.get(level) for level in ("green", "yellow", "red"))
    if "take_advanced_tile_slot" in effect:
        slot = effect["take_advanced_tile_slot"]
        offer = game.state.patent_offer
        return slot <= len(offer) and offer[slot - 1] is not None
    for ask in game.hooked(Hooks.action_possible):
        verdict = ask(game, company_id, space, budget)
        if verdict is not None:
            return verdict
    return True


def describe_space(game: Game, space: ManagementSpace) -> str:
    """A label such as 'Turbine Station +2 (2 engineers)'."""
    section = SECTION_NAMES.get(space.section, space.section)
    effect = space.effect
    if "produce" in effect:
        what = f"produce {effect.get('production_bonus', 0):+d}"
    elif "water_drops_delayed" in effect:
        what = f"place {effect['water_drops_delayed']} drops on headstreams"
    elif "water_drops_flowing" in effect:
        what = f"place {effect['water_drops_flowing']} flowing drop"
    elif "rotate_wheel" in effect:
        what = f"rotate wheel {effect['rotate_wheel']}"
    elif "take_private_contracts" in effect:
        what = f"take {counted(effect['take_private_contracts'], 'contract')}"
    elif "machinery_choice" in effect:
        what = f"{effect['machinery_choice']} machinery of choice"
    elif "take_advanced_tile_slot" in effect:
        slot = effect["take_advanced_tile_slot"]
        offer = game.state.patent_offer
        tile = offer[slot - 1] if slot <= len(offer) else None
        what = f"tile {game.content.tiles[tile].name}" if tile else "an advanced tile"
    else:
        what = describe_reward(effect, game.content)
    cost = space.extra_credits + space.action_cost
    costs = f"{space.engineers} eng." + (f", {counted(cost, 'credit')}" if cost else "")
    return f"{section}: {what} ({costs})"


# -- the turn ----------------------------------------------------------------------------


def can_act(game: Game, company_id: str) -> bool:
    """True when the company still takes turns this round: engineers left, or a turn action
    that needs none (an engineer-free technology tile)."""
    if game.company(company_id).engineers > 0:
        return True
    if game.automa_level(company_id) is not None:
        return False  # an automa acts only by its cards, which need engineers
    return any(action.options(game, company_id) for action in game.rules.turn_actions.values())


def turn_options(game: Game, company_id: str) -> list[Option]:
    """Every action the player can take now."""
    company = game.company(company_id)
    options: list[Option] = []
    construction = game.content.common.construction_spaces
    used = company.construction_spaces_used
    if used < len(construction):
        next_space = construction[used]
        budget = company.credits - next_space.extra_credits
        if (
            company.engineers >= next_space.engineers
            and budget >= 0
            and can_build(game, company_id, budget)
        ):
            fee = (
                f", {counted(next_space.extra_credits, 'credit')}"
                if next_space.extra_credits
                else ""
            )
            options.append(
                Option(
                    BUILD,
                    f"Build a structure (construction space {next_space.ordinal}: {next_space.engineers} eng.{fee})",
                    group="Company board",
                )
            )
    for space in spaces_in_play(game):
        if space.engineers == 0:
            continue  # the Bank, offered below
        if not space_is_free(game, space) or company.engineers < space.engineers:
            continue
        budget = company.credits - space.extra_credits - space.action_cost
        if budget < 0 or not action_possible(game, company_id, space, budget):
            continue
        options.append(
            Option(
                Space(space.id),
                describe_space(game, space),
                group=SECTION_NAMES.get(space.section, space.section),
            )
        )
    for action in game.rules.turn_actions.values():
        options.extend(action.options(game, company_id))
    for ask in game.hooked(Hooks.turn_options):
        options.extend(ask(game, company_id))
    if company.engineers > 0 and any(s.engineers == 0 for s in spaces_in_play(game)):
        options.append(Option(BANK, "Bank: 1 credit per engineer placed", group="Bank"))
    return options


def _turn_prompt(game: Game, entry: Task) -> str:
    company = game.company(entry["player"])
    return f"Round {game.state.round}: choose an action ({counted(company.engineers, 'engineer')} left)"


@RULES.task("turn", options=lambda g, e: turn_options(g, e["player"]), prompt=_turn_prompt)
def _turn(game: Game, entry: Task, move: Move) -> None:
    company_id = entry["player"]
    game.state.turn_open = True
    game.state.current = company_id
    game.push({"kind": "confirm", "player": company_id})
    take_action(game, company_id, move)


def _management_space(game: Game, space_id: str) -> ManagementSpace | None:
    """The management board's space of this id; None for another board's (an expansion's)."""
    for space in game.content.management_spaces:
        if space.id == space_id:
            return space
    return None


def take_action(game: Game, company_id: str, move: Move) -> None:
    """Perform one turn action's move (after `turn`, or after Mahiri's copy)."""
    management = _management_space(game, move.space) if isinstance(move, Space) else None
    action = game.rules.turn_actions.get(move.word) if isinstance(move, Word) else None
    if move == BUILD:
        company = game.company(company_id)
        space = game.content.common.construction_spaces[company.construction_spaces_used]
        company.construction_spaces_used += 1
        game.gain(company_id, "engineers", -space.engineers, f"construction:{space.ordinal}")
        for placed in game.hooked(Hooks.engineers_placed):
            placed(
                game, company_id, f"construction_{space.ordinal}", space.engineers, space.engineers
            )
        game.gain(company_id, "credits", -space.extra_credits, f"construction:{space.ordinal}")
        game.push({"kind": "build_structure", "player": company_id, "mode": "construction"})
    elif move == BANK:
        game.push({"kind": "bank", "player": company_id})
    elif management is not None:
        perform_space(game, company_id, management)
    elif action is not None:
        action.perform(game, company_id, move)
    else:
        for perform in game.hooked(Hooks.perform_turn_option):
            if perform(game, company_id, move):
                break
        else:
            raise AssertionError(f"no handler for turn option {move.notation!r}")


def place_engineers(
    game: Game,
    company_id: str,
    space_id: str,
    engineers: int,
    source: str,
    *,
    printed: int | None = None,
) -> None:
    """Put engineers from the supply on an action space (`printed`: what the space shows,
    0 for any number as on the Bank; by default the engineers placed)."""
    game.gain(company_id, "engineers", -engineers, source)
    game.state.spaces.setdefault(space_id, []).append([company_id, engineers])
    shown = engineers if printed is None else printed
    for ask in game.hooked(Hooks.engineers_placed):
        ask(game, company_id, space_id, engineers, shown)


def perform_space(game: Game, company_id: str, space: ManagementSpace) -> None:
    """Place engineers on a management space, pay, and perform its action."""
    source = f"space:{space.id}"
    place_engineers(game, company_id, space.id, space.engineers, source)
    game.gain(company_id, "credits", -(space.extra_credits + space.action_cost), source)
    perform_effect(game, company_id, space.effect, source)


def perform_effect(game: Game, company_id: str, effect: Any, source: str) -> None:
    """The action of a management space."""
    if "produce" in effect:
        game.push(
            {
                "kind": "produce",
                "player": company_id,
                "bonus": effect.get("production_bonus", 0),
                "second": False,
                "source": source.removeprefix("space:"),
            }
        )
    elif "water_drops_delayed" in effect or "water_drops_flowing" in effect:
        flowing = "water_drops_flowing" in effect
        game.push(
            {
                "kind": "place_drops",
                "player": company_id,
                "n": effect["water_drops_flowing" if flowing else "water_drops_delayed"],
                "flowing": flowing,
                "optional": False,
                "source": source,
            }
        )
    elif "take_private_contracts" in effect:
        game.push(
            {
                "kind": "take_contract",
                "player": company_id,
                "remaining": effect["take_private_contracts"],
                "source": source,
            },
            {"kind": "discard_contract", "player": company_id},
        )
    elif "rotate_wheel" in effect:
        rotate_wheel(game, company_id, effect["rotate_wheel"], source)
    else:
        for ask in game.hooked(Hooks.perform_effect):
            if ask(game, company_id, effect, source):
                return
        apply_reward(game, company_id, effect, source)


def _bank_options(game: Game, entry: Task) -> list[Option]:
    engineers = game.company(entry["player"]).engineers
    return [
        Option(
            Engineers(count),
            f"Place {counted(count, 'engineer')} on the Bank: +{counted(count, 'credit')}",
            group="Bank",
        )
        for count in range(1, engineers + 1)
    ]


@RULES.task("bank", options=_bank_options, prompt=lambda g, e: "How many engineers on the Bank?")
def _bank(game: Game, entry: Task, move: Engineers) -> None:
    count = move.count
    bank = next(space for space in spaces_in_play(game) if space.engineers == 0)
    place_engineers(game, entry["player"], bank.id, count, "space:bank", printed=0)
    game.gain(
        entry["player"], "credits", count * bank.effect.get("credits_per_engineer", 1), "space:bank"
    )


# -- confirm and the next turn -------------------------------------------------------------


def _confirm_options(game: Game, entry: Task) -> list[Option]:
    """Confirm, and the free actions expansions allow after the main action."""
    options = [Option(CONFIRM, "Confirm turn", group="turn")]
    for ask in game.hooked(Hooks.confirm_options):
        options.extend(ask(game, entry))
    return options


@RULES.task(
    "confirm",
    options=_confirm_options,
    prompt=lambda g, e: "Confirm your turn (or restart it)",
    always_ask=True,
)
def _confirm(game: Game, entry: Task, move: Move) -> None:
    if move != CONFIRM:
        # An expansion's free action: Confirm is asked again once it is done.
        again = entry.copy()
        game.push(again)
        for ask in game.hooked(Hooks.perform_confirm_option):
            if ask(game, again, move):
                return
        raise AssertionError(f"no handler for {move.notation!r} at Confirm")
    revealed = refill_contract_offer(game)
    game.state.turn_open = False
    game.emit("turn_end", entry["player"], data={"revealed": revealed})
    game.push({"kind": "next_turn", "after": entry["player"]})


# The decision kinds that begin a company's turn: a person's (or AI's), an automa's.
TURN_KINDS = ("turn", "automa_turn")


def turn_task(game: Game, company_id: str) -> Task:
    """The task of a company's turn: a person's choice of action, or an automa's card."""
    kind = TURN_KINDS[0] if game.automa_level(company_id) is None else TURN_KINDS[1]
    return {"kind": kind, "player": company_id}


@RULES.task("next_turn")
def _next_turn(game: Game, entry: Task) -> None:
    """Pass the turn to the next player in turn order who still has engineers (an automa
    takes no extra turn: its cards give none)."""
    after = entry.get("after")
    # Nobody confirmed before a round's first turn: no extra turn to take then.
    if after is not None and game.automa_level(after) is None:
        for extra_turn in game.hooked(Hooks.extra_turn):
            if extra_turn(game, after):
                return
    order = game.state.turn_order
    start = order.index(after) + 1 if after in order else 0
    for offset in range(len(order)):
        company_id = order[(start + offset) % len(order)]
        if can_act(game, company_id):
            game.state.current = company_id
            game.push(turn_task(game, company_id))
            return
    game.state.current = None
    game.push({"kind": "water_flow"})
