"""The Colorado Connection (`GameOptions(expansions=("colorado",))`, with or without Leeghwater).

Everything comes through the engine's hook points (`bot.rules.hooks`); the base game knows
none of it. Modules: `board` (state, setup, counters, the position table), `bridges`
(Construction Sites, Bridges, the Elevation rule), `settlements` (Productive Settlements and
their tolls), `effects` (the Bridge and settlement tiles' effects and every Colorado reward key).

The map: the expansion declares `map = "colorado"`, so a game left on the default map is set
up on the Colorado map (`bot.rules.setup.resolve_options`; "Use the new Colorado Map in place
of the base standard map"); any other explicit map is refused, and the Colorado map without
the expansion is refused by the base setup.

Setup (rulebook "Setup"): the content set "colorado" adds the Bridges bonus tile to the bonus
pool (5 drawn), the objective tile "dams_with_bridge" to the objective pool, and contracts 215,
315, 415 to the private piles; `board.setup_board` deals the settlement and Bridge tiles. With
The Leeghwater Project, the Heliport joins the Private Buildings (5 drawn of 11) and External
Works A6, B6, C6 join the piles (Leeghwater's setup draws the tiles of the sets in play), then
one random tile per pile goes back to the box. The Heliport's action (2 credits: the bonus of
a type C settlement of your choice) runs through Leeghwater's building actions; its reward key
lands in this expansion.

Notation: `site CS_M` (Construction Site), `bridge BR5 D1L` / `bridge none`, `settle S_M3`,
`copy_bridge BR5`, `settlement S_H3`, `machines 1e0m` (SA4's wheel segment).

RECONSTRUCTED DATA these rules rest on (colorado.toml, colorado_map.toml; used as given):
the whole map topology (basins, dam/conduit/powerhouse spaces, which basins each road
crosses, the settlement spaces' types and most Engineer counts); which settlement tile has
which effect (the A/B/C letter-run reading, about 80% confident); the Heliport's cost, VP and
action spaces; contracts 215/315/415's levels and energy; External Works A6/B6/C6's piles and
costs; that the Bridge tiles are all visible; that a settlement tile stays on its space;
that Colorado is not combined with The Nile Affair; and the open questions' readings
(settlement bonus "of your choice" among the tiles on the map; copying with too few Bridges
gives nothing; SB2 counts every fulfilled contract; only SB8's energy may fulfil a contract).

Decisions where the texts are silent (besides those in the modules' docstrings):
- Colorado may be played with the introductory setup; the Bridges bonus tile is then left out
  like every tile marked `in_introductory_game = false`.
- Colorado with The Nile Affair is refused (reconstructed `combinable_with_nile = false`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.engine import Game
from bot.rules.expansions.colorado import board, bridges, effects, settlements
from bot.rules.hooks import Expansion
from bot.rules.moves import Move
from bot.rules.options import Option
from bot.rules.prng import SplitMix64
from bot.rules.rulebook import RuleSet
from bot.rules.state import GameOptions, GameState
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("colorado")
RULES.include(bridges.RULES, effects.RULES, settlements.RULES, board.RULES)


@RULES.hook
class Colorado(Expansion["Game"]):
    """The Colorado Connection."""

    name = board.KEY

    def refuse(self, options: GameOptions) -> str | None:
        """No automas: their deck knows nothing of this expansion's spaces (bot/rules/automa)."""
        if options.automa:
            return "The Colorado Connection cannot be played with automas: the automa's cards have no rules for its Bridges, settlements and map, so it would ignore half of the game; play it with people only"
        return None

    def company_summary(self, state: GameState, company: str) -> str:
        """The Colorado Connection's part: Bridges owned and settlements activated this round."""
        table = state.extra.get(self.name)
        if not isinstance(table, dict):
            return ""
        # A Bridge belongs to whoever owns the dam under it.
        bridges = [
            f"{tile} on {space}"
            for space, tile in table.get("bridges", {}).items()
            if (dam := state.dams.get(space)) is not None and dam.owner == company
        ]
        settled = [
            f"{space} ({table.get('settlements', {}).get(space, '?')})"
            for space in table.get("settlements", {})
            if any(who == company for who, *_ in state.spaces.get(space, ()))
        ]
        return (
            f"; Bridges: {', '.join(bridges) or 'none'}; "
            f"settlements this round: {', '.join(settled) or 'none'}"
        )

    def setup(self, game: Game, rng: SplitMix64) -> None:
        board.setup_board(game, rng)

    def load_position(self, game: Game, section: Mapping[str, Any]) -> None:
        board.load_position(game, section)

    def export_position(self, game: Game) -> dict[str, Any]:
        return board.export_position(game)

    def action_spaces(self, game: Game) -> list[str]:
        return [*board.sites(game), *board.settlement_spaces(game)]

    def turn_options(self, game: Game, company_id: str) -> list[Option]:
        return bridges.site_options(game, company_id) + settlements.settle_options(game, company_id)

    def perform_turn_option(self, game: Game, company_id: str, move: Move) -> bool:
        if isinstance(move, bridges.Site):
            bridges.perform_site(game, company_id, move.site)
        elif isinstance(move, settlements.Settle):
            settlements.perform_settle(game, company_id, move.space)
        else:
            return False
        return True

    def apply_reward_part(
        self, game: Game, company_id: str, key: str, value: Any, source: str, tasks: list[Task]
    ) -> bool:
        return bridges.apply_reward_part(
            game, company_id, key, value, source, tasks
        ) or effects.apply_reward_part(game, company_id, key, value, source, tasks)

    def structure_spaces(
        self, game: Game, company_id: str, kind: str, constraint: Task, spaces: list[str]
    ) -> list[str]:
        return bridges.structure_spaces(game, company_id, kind, constraint, spaces)

    def objective_count(self, game: Game, objective: str, company_id: str) -> int | None:
        if objective == "dams_with_bridge":
            return board.dams_with_bridge(game, company_id)
        return None


def _reason(text: str) -> Callable[[Game, str], str]:
    """An illegal-move reason that is always the same sentence."""
    return lambda game, company_id: text


RULES.reason(
    "site",
    _reason(
        "a Bridge needs 1 engineer, the site's credits (1, then 2 more per Bridge built there), "
        "a Bridge tile left at the site and one of your dams in that area in a basin without one"
    ),
)
RULES.reason(
    "settle",
    _reason(
        "a settlement needs to be free this round, its engineers, every toll of its road, and "
        "a bonus you can perform"
    ),
)
