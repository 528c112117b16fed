"""The evaluation's goals (bot/ai/goals.py): the later bonus tiles, on stated positions."""

from __future__ import annotations

from bot.ai import evaluate, goals
from bot.ai.evaluate import worth
from bot.rules.engine import Game
from bot.rules.position import load_position

# Round 3 of 5; the round-4 tile is Powerhouses and Italy has built three. What the tile will
# pay depends on the energy Italy makes in round 4, which its round-2 production shows.
TILES = """
[game]
players = 2
seed = 3
round = 3
phase = "actions"
turn_order = ["italy", "usa"]
current = "italy"
bonus_tiles = ["bases", "conduits", "contracts", "powerhouses", "elevations"]

[map]
P12_0 = "italy"
P11_0 = "italy"
P5_1 = "italy"

[[history]]
round = 1
energy = { italy = 6, usa = 6 }
vp = { italy = 12, usa = 12 }

[[history]]
round = 2
energy = { italy = ENERGY, usa = 6 }
vp = { italy = 20, usa = 14 }
"""


def _tiles(energy: int) -> Game:
    return load_position(TILES.replace("ENERGY", str(energy)))


def test_a_later_tile_counts_at_the_energy_the_company_really_makes() -> None:
    # 3 powerhouses × 5 VP in round 4: 24 energy pays 15, 12 pays 7, 6 pays 3 (4 VP a section
    # behind). Gated by the systems' promise alone (no complete system here) it counted 0.
    strong, weak = _tiles(20), _tiles(2)
    assert goals.expected_energy(strong, "italy", 0.0, 4, 4.0) == 24.0
    assert evaluate.bonus_outlook(strong, "italy", 0.0, evaluate.W) > 0
    assert worth(strong, "italy") > worth(weak, "italy") + 1


def test_the_tile_reward_follows_the_rulebook_sections() -> None:
    game = _tiles(2)
    assert goals.tile_reward(game, 15, 5, 1) == 0  # under 6 energy: no reward
    assert goals.tile_reward(game, 15, 24, 4) == 15  # in the round-4 section: full
    assert goals.tile_reward(game, 15, 12, 4) == 7  # two sections behind: 15 - 8
    assert goals.tile_reward(game, 5, 6, 3) == 0  # never below 0
    assert goals.tile_reward(game, 15, 40, 5) == 15  # past 30 counts as 30
