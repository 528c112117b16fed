"""The evaluation's goals (bot/ai/goals.py): bonus tiles and contracts, on stated positions."""

from __future__ import annotations

import dataclasses

from bot.ai import evaluate, goals
from bot.ai.evaluate import margin, worth
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


# Round 2; the tile of this round is Bases and Italy has 3 of them; it made 8 energy and its
# dam holds 2 drops for C7R (3): one more production makes 14 energy, in the round-2 section,
# and the tile pays 12 VP instead of 8.
REST = """
[game]
players = 2
seed = 3
round = 2
phase = "actions"
turn_order = ["italy", "usa"]
current = "italy"
bonus_tiles = ["conduits", "bases", "contracts", "powerhouses", "elevations"]

[company.italy]
energy = 8

[map]
D7U = { owner = "italy", level = 2, water = 2 }
D3U = { owner = "italy", level = 1, water = 0 }
D4U = { owner = "italy", level = 1, water = 0 }
C7R = "italy"
P12_0 = "italy"
"""


def test_the_rest_of_the_round_counts_towards_this_rounds_tile() -> None:
    game = load_position(REST)
    _, now = evaluate.systems_outlook(game, "italy")
    assert now == 6  # 2 drops × 3
    assert goals.rest_of_round_tile(game, "italy", now, 2) == 4
    without = dataclasses.replace(evaluate.W, tile_rest=0.0)
    assert worth(game, "italy") - worth(game, "italy", without) == evaluate.W.tile_rest * 4


# Round 2; Italy's one system (its dam of 2 drops, C7R of value 3, P12_0) makes at most
# 2 × 3 + 2 = 8 energy in one production: the yellow 310 (7 energy: 6 VP, an excavator) is in
# reach, the red 412 (10 energy: 8 VP, a drop) is not, though its reward is larger.
CONTRACTS = """
[game]
players = 2
seed = 3
round = 2
phase = "actions"
turn_order = ["italy", "usa"]
current = "italy"

[contracts]
yellow = [310, 301]
red = [412, 400]

[map]
D7U = { owner = "italy", level = 2, water = 0 }
C7R = "italy"
P12_0 = "italy"
"""


def test_a_contract_in_reach_is_taken_before_a_richer_one_out_of_reach() -> None:
    values = {}
    for notation in ("take 310", "take 412"):
        game = load_position(CONTRACTS)
        assert goals.production_reach(game, "italy") == 8
        game.apply("contracts_take1_left", game.decisions()[0].player)
        game.apply(notation, game.decisions()[0].player)
        values[notation] = margin(game, "italy")
    assert values["take 310"] > values["take 412"]
