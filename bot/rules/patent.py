"""The Patent Office (full game): three piles of advanced technology tiles and three face-up slots.

Setup (rulebook "Game Setup" 12): the base game's advanced tiles are divided by level into piles
I, II and III, each shuffled separately; three tiles from pile I are placed face up. A Patent
Office action space (2 engineers, 5 credits; RULINGS 12) takes the tile in its slot into the
supply, usable at once. End of round: leftovers are discarded and three new tiles are drawn,
from pile I, then II when I is empty, then III. A taken slot stays empty until then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.rules.content import Content
from bot.rules.engine import Game
from bot.rules.moves import Single
from bot.rules.options import Option
from bot.rules.prng import SplitMix64
from bot.rules.rulebook import RuleSet
from bot.rules.state import GameState
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("patent")

PILES = ("I", "II", "III")
SLOTS = 3


@dataclass(frozen=True, slots=True)
class Patent(Single):
    """`patent 2`: the free tile of a reward, by its slot of the Patent Office."""

    verb: ClassVar[str] = "patent"
    args: ClassVar[str] = r"[1-3]"
    slot: int


RULES.move(Patent)


def deal_patent_office(
    state: GameState, content: Content, rng: SplitMix64, sets: tuple[str, ...] = ("base",)
) -> None:
    """Shuffle piles I, II, III (in that order) and turn up three tiles (tiles of `sets`)."""
    for level, pile in enumerate(PILES, start=1):
        tiles = [
            tile.id
            for tile in content.tiles.values()
            if tile.kind == "advanced" and tile.set in sets and tile.level == level
        ]
        rng.shuffle(tiles)
        state.patent_piles[pile] = tiles
    state.patent_offer = draw_tiles(state, SLOTS)


def draw_tiles(state: GameState, count: int) -> list[str | None]:
    """Take `count` tiles from the top of pile I, then II, then III (None when all are empty)."""
    out: list[str | None] = []
    for _ in range(count):
        pile = next((state.patent_piles[p] for p in PILES if state.patent_piles.get(p)), None)
        out.append(pile.pop(0) if pile else None)
    return out


def refresh_patent_office(game: Game) -> None:
    """End of round: discard what is left face up, turn up three new tiles."""
    state = game.state
    if not state.patent_offer:
        return  # no Patent Office in this game (introductory)
    discarded = [tile for tile in state.patent_offer if tile is not None]
    state.patent_offer = draw_tiles(state, SLOTS)
    game.emit("patent_refresh", data={"discarded": discarded, "offer": list(state.patent_offer)})


def take_patent_tile(game: Game, company_id: str, slot: int, source: str) -> None:
    """Move the tile of a slot (1-3) into the company's supply."""
    tile = game.state.patent_offer[slot - 1]
    if tile is None:
        raise AssertionError(f"patent slot {slot} is empty ({source})")
    game.state.patent_offer[slot - 1] = None
    game.company(company_id).tiles.append(tile)
    game.emit("tile_taken", company_id, source=source, data={"tile": tile, "slot": slot})


def _free_tile_options(game: Game, entry: Task) -> list[Option]:
    options = []
    for slot, tile_id in enumerate(game.state.patent_offer, start=1):
        if tile_id is None:
            continue
        tile = game.content.tiles[tile_id]
        options.append(
            Option(
                Patent(slot),
                f"Take {tile.name}",
                group="Patent Office",
                description=tile.effect_text,
                full_text=f"Take {tile.name}: {tile.effect_text}",
            )
        )
    return options


@RULES.task(
    "take_patent_free",
    options=_free_tile_options,
    prompt=lambda g, e: "Take an advanced technology tile from the Patent Office (free)",
)
def _take_patent_free(game: Game, entry: Task, move: Patent) -> None:
    """Reward `advanced_technology_tile`: one face-up tile, no engineers, no credits."""
    take_patent_tile(game, entry["player"], move.slot, entry["source"])
