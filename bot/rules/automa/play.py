"""How an automa answers the engine's decisions, and playing every automa decision in a row.

An automa's own turn is the `automa_turn` decision (one option). Any other decision an automa
faces comes from a rule it shares with people (a reward's choice, the draft, an income's
choice, Germany's second production); it answers by these rules, in this order:

1. an expansion's `automa_answer` hook, for that expansion's own decisions;
2. a free structure (`reward_build`): the space the criteria of its flipped card choose
   (declining only when no space is listed); with no card flipped yet, the first space;
3. water drops (`place_drops`): the headstreams whose drops reach its dams, in the flipped
   card's order (`drops none` when none does and it may decline; else the first option);
4. a production (Germany's second): the most energy; a contract to fulfil: of its own, the
   one needing the most energy; never a national one (it declines);
5. machinery of its choice: the kind it has fewer of, excavators on a tie;
6. a free advanced tile: the highest level, the lowest slot on a tie;
7. anything else: the first option the engine lists (the draft: the first pair in the order
   they were dealt).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.rules.automa.criteria import choose_space
from bot.rules.automa.deck import deck_of
from bot.rules.automa.turn import card, drops_to_own_dams, machinery_wanted
from bot.rules.engine import Game
from bot.rules.events import Event
from bot.rules.hooks import Hooks
from bot.rules.notation import Drops, Fulfil, Machines, Produce, Structure
from bot.rules.options import Decision, Option
from bot.rules.patent import Patent


def pending_automa(game: Game) -> Decision | None:
    """The first pending decision that an automa answers, or None."""
    if not game.state.options.automa or game.is_over:
        return None
    for decision in game.decisions():
        if game.automa_level(decision.player) is not None:
            return decision
    return None


def flipped_card(game: Game, player: str) -> dict[str, Any] | None:
    """The automa's flipped card (its criteria), or None before its first turn."""
    if player not in game.state.companies:
        return None
    flipped = deck_of(game.state, player)["flipped"]
    return None if flipped is None else card(flipped)


def automa_answer(game: Game, decision: Decision) -> Option:
    """The option the automa picks for one of its decisions (see the module docstring)."""
    options = decision.options
    for ask in game.hooked(Hooks.automa_answer):
        chosen = ask(game, decision)
        if chosen is not None:
            return chosen
    player = decision.player
    kind = decision.kind
    criteria = flipped_card(game, player)
    if kind == "reward_build":
        spaces = {
            o.move.space: o
            for o in options
            if isinstance(o.move, Structure) and o.move.space is not None
        }
        if spaces and criteria is not None:
            structure = options[0].notation.partition(" ")[0]
            space = choose_space(game, player, structure, list(spaces), criteria)
            if space is not None:
                return spaces[space]
        return next(iter(spaces.values()), options[0])
    if kind == "place_drops" and criteria is not None:
        wanted = drops_to_own_dams(game, player, len(_drops_at(options[0])), criteria)
        for option in options:
            if list(_drops_at(option)) == wanted:
                return option
        declined = [o for o in options if o.move == Drops(())]
        if declined:
            return declined[0]
    if kind == "produce":
        producing = {
            o: o.move.energy
            for o in options
            if isinstance(o.move, Produce) and o.move.dam is not None
        }
        if producing:
            return max(producing, key=producing.__getitem__)
    if kind == "fulfil_contract":
        # Its own contracts only (it holds none unless an expansion gave it one): national
        # contracts are never an automa's.
        contracts = {
            o: (game.content.contracts[o.move.contract].energy, -o.move.contract)
            for o in options
            if isinstance(o.move, Fulfil)
            and o.move.contract is not None
            and o.group == "contracts own"
        }
        if contracts:
            return max(contracts, key=contracts.__getitem__)
        declined = [o for o in options if o.move == Fulfil(None)]
        if declined:
            return declined[0]
    if kind == "machinery_choice":
        total = len(options) - 1
        excavators, mixers = machinery_wanted(game, player, {"any": total})
        for option in options:
            if option.move == Machines(excavators, mixers):
                return option
    if kind == "take_patent_free":

        def level(option: Option) -> tuple[int, int]:
            assert isinstance(option.move, Patent)
            tile = game.state.patent_offer[option.move.slot - 1]
            assert tile is not None, "a tile is offered in every slot an option names"
            return (game.content.tiles[tile].level or 0, -option.move.slot)

        return max(options, key=level)
    return options[0]


def _drops_at(option: Option) -> tuple[str, ...]:
    """The headstreams a `place_drops` option drops at (none for "drops none")."""
    return option.move.at if isinstance(option.move, Drops) else ()


def automa_steps(game: Game) -> Iterator[tuple[str, str, list[Event]]]:
    """Answer every automa decision until a person must decide or the game ends; yields
    (player, notation, events) for each answer, already applied."""
    while True:
        decision = pending_automa(game)
        if decision is None:
            return
        option = automa_answer(game, decision)
        events = game.apply(option.notation, decision.player)
        yield decision.player, option.notation, events


def play_automas(game: Game) -> list[tuple[str, str, list[Event]]]:
    """Every automa answer due now, applied (see `automa_steps`)."""
    return list(automa_steps(game))
