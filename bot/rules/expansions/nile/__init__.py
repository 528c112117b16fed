"""The Nile Affair (`GameOptions(map="nile", expansions=("nile",))`, with or without Leeghwater).

Everything comes through its rule set (`RULES`) and the engine's hook points
(`bot.rules.hooks`); the base game knows none of it. Modules: `board` (content, setup, the Nile's extra drops, the zones, irrigation
scoring, the objective and bonus tiles, the position table) and `irrigation` (the action, the
Pumping Station, token activation, the new rewards).

The map. The expansion declares its board (`map = "nile"` in expansion.toml): a game left on
the default map is set up on it, any other map is refused, and the base setup refuses the Nile
map without the expansion (the map's content set).

Setup (rulebook "Overall Setup"): the content set "nile" adds contracts 216/316/416 to the
private piles, the bonus tile `irrigation_tokens` to the bonus tiles drawn (5 of them) and the
objective `dams_on_irrigated_basins` to the objective tiles drawn (1); `extend_content` puts
the river source tokens RS1-RS8 in place of the headstream tiles; `board.setup_board` deals
the irrigation stacks and the scoring tokens and, with Leeghwater, thins the External Works
piles (the Pumping Station and A7/B7/C7 joined Leeghwater's pools through the content set).
Both the introductory and the full setup may be used ("Use all base game setup rules").

The round: 2 more drops on HB (the Nile's headwaters) in rounds 1-4; the irrigation action
and token activation (`irrigation`); after the base scoring of every round, irrigation
scoring (`board.round_scoring`).

Notation: `irrigate IZ_M_A1`, `drain D2U` / `drain none`, `irrigation IM3`, `activate IM3`,
`choose 1`, `flip IM3` / `flip none`; the Pumping Station is Leeghwater's `use
pumping_station`.

Decisions where the texts are silent (besides those in the modules' docstrings):
- Not combinable with The Colorado Connection (nile.toml, reconstructed): refused.
- Leeghwater's setup runs before the Nile's (`setup_after`) whatever the order of
  `expansions`, so the works removed come from piles that hold A7/B7/C7.
- External Works cost and reward data, the Pumping Station's cost, VP and spaces are the
  reconstructed values of nile.toml.
- Which rules rest on reconstructed data: the map (basins, which basins connect to which
  zone, HB feeding basin 2), the river source tokens' drops, the extra drops' rounds, every
  token's irrigation points and the energy/VP/private-contract token types, the empty
  spaces' VP, IS5's penalty (never applied: nothing scores after round 5), contracts' ids and
  energy, the works' piles and costs, the Pumping Station's data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.content import Content
from bot.rules.engine import Game
from bot.rules.expansions.nile import board, irrigation
from bot.rules.hooks import Expansion
from bot.rules.moves import Move
from bot.rules.options import Option
from bot.rules.prng import SplitMix64
from bot.rules.rulebook import RuleSet
from bot.rules.state import Company, GameOptions, GameState
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("nile")
RULES.include(irrigation.RULES, board.RULES)
# Leeghwater's Pumping Station (this expansion's Private Building) irrigates.
RULES.reward("irrigate_from_any_own_dam", possible=irrigation.pumping_possible)


@RULES.hook
class Nile(Expansion["Game"]):
    """The Nile Affair."""

    name = board.KEY
    company_extra = board.COMPANY_EXTRA

    def refuse(self, options: GameOptions) -> str | None:
        """No automas: their deck knows nothing of this expansion's spaces (bot/rules/automa)."""
        if options.automa:
            return "The Nile Affair cannot be played with automas: the automa's cards have no rules for its irrigation, river sources and map, so it would ignore half of the game; play it with people only"
        return None

    def company_summary(self, state: GameState, company: str) -> str:
        """The Nile Affair's part: irrigation tokens (used ones marked) and scoring tokens won."""
        if not isinstance(state.extra.get(self.name), dict):
            return ""
        extra = state.companies[company].extra
        down = set(extra.get("irrigation_down", ()))
        tokens = [f"{t} (used)" if t in down else t for t in extra.get("irrigation", ())]
        won = extra.get("irrigation_scoring", ())
        bonus = extra.get("irrigation_bonus", 0)
        return (
            f"; irrigation tokens: {', '.join(tokens) or 'none'}"
            + (f" (+{bonus} irrigation points)" if bonus else "")
            + f"; irrigation scoring tokens: {', '.join(won) or 'none'}"
        )

    def extend_content(self, content: Content) -> Content:
        return board.extend_content(content)

    def setup(self, game: Game, rng: SplitMix64) -> None:
        board.setup_board(game, rng)

    def redraw_hidden(self, game: Game, state: GameState, rng: SplitMix64) -> None:
        board.redraw_hidden(state, self.name, rng)

    def new_company(self, game: Game, company: Company) -> None:
        board.new_company(game, company)

    def load_position(self, game: Game, section: Mapping[str, Any]) -> None:
        board.load_position(game, section)

    def export_position(self, game: Game) -> dict[str, Any]:
        return board.export_position(game)

    def action_spaces(self, game: Game) -> list[str]:
        return [space["id"] for space in irrigation.action_spaces(game)]

    def river_sources(self, game: Game) -> None:
        board.river_sources(game)

    def turn_options(self, game: Game, company_id: str) -> list[Option]:
        return irrigation.action_options(game, company_id) + irrigation.before_main_options(
            game, company_id
        )

    def perform_turn_option(self, game: Game, company_id: str, move: Move) -> bool:
        if isinstance(move, irrigation.Irrigate):
            irrigation.perform_irrigate(game, company_id, move.space)
        elif isinstance(move, irrigation.Activate):
            irrigation.activate_before_main(game, company_id, move.token)
        else:
            return False
        return True

    def confirm_options(self, game: Game, entry: Task) -> list[Option]:
        return irrigation.confirm_options(game, entry)

    def perform_confirm_option(self, game: Game, entry: Task, move: Move) -> bool:
        if not isinstance(move, irrigation.Activate):
            return False
        irrigation.activate(game, entry["player"], move.token, entry)
        return True

    def apply_reward_part(
        self, game: Game, company_id: str, key: str, value: Any, source: str, tasks: list[Task]
    ) -> bool:
        return irrigation.apply_reward_part(game, company_id, key, value, source, tasks)

    def round_scoring(self, game: Game) -> None:
        board.round_scoring(game)

    def objective_count(self, game: Game, objective: str, company_id: str) -> int | None:
        return board.objective_count(game, objective, company_id)
