"""Rewards and the small decisions they cause: wheel, water drops, machinery.

Where a drop goes once placed is `bot.rules.water`'s.

A reward is a table in the content's vocabulary (see the data files' header). `apply_reward`
applies the plain gains at once (credits, VP, machinery, energy), then the other parts in
printed order; parts that need a choice become tasks (decisions).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations_with_replacement
from typing import Any

from bot.rules.content import Content, load_content
from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.notation import Drops, Machines
from bot.rules.options import Option, counted, machinery_text
from bot.rules.patent import take_patent_tile
from bot.rules.rulebook import RuleSet
from bot.rules.state import NEUTRAL
from bot.rules.tasks import Task
from bot.rules.water import flow_from_headstream

RULES: RuleSet[Game] = RuleSet("rewards")

# -- the construction wheel ---------------------------------------------------------------


def rotate_wheel(game: Game, company_id: str, steps: int, source: str) -> None:
    """Turn a company's wheel `steps` single segments, taking back what reaches the opening.

    RULINGS 18: the wheel has 6 segments; content placed in the open segment comes back after
    six single-segment rotations counted from its placement.
    """
    company = game.company(company_id)
    segments = len(company.wheel)
    for _ in range(steps):
        company.wheel_open = (company.wheel_open + 1) % segments
        segment = company.wheel[company.wheel_open]
        if segment.is_empty():
            continue
        company.tiles.extend(segment.tiles)
        company.excavators += segment.excavators
        company.mixers += segment.mixers
        game.emit(
            "wheel_return",
            company_id,
            source=source,
            data={
                "tiles": list(segment.tiles),
                "excavators": segment.excavators,
                "mixers": segment.mixers,
            },
        )
        segment.tiles.clear()
        segment.excavators = 0
        segment.mixers = 0
    game.emit("wheel_rotate", company_id, steps, source)


# -- water drops ----------------------------------------------------------------------------


def _drops_options(game: Game, entry: Task) -> list[Option]:
    headstreams = game.map.headstreams
    options = []
    verb = "flowing" if entry["flowing"] else "on the headstream"
    for count in range(entry["n"], 0, -1):
        for combo in combinations_with_replacement(headstreams, count):
            label = f"{counted(count, 'drop')} {verb}: {', '.join(combo)}"
            options.append(Option(Drops(combo), label, group="water"))
    if entry.get("optional"):
        options.append(Option(Drops(()), "Place no water drops", group="water"))
    return options


def _drops_prompt(game: Game, entry: Task) -> str:
    how = "they flow at once" if entry["flowing"] else "they flow in the Water Flow phase"
    return f"Place up to {counted(entry['n'], 'water drop')} on headstreams ({how})"


@RULES.task("place_drops", options=_drops_options, prompt=_drops_prompt)
def _place_drops(game: Game, entry: Task, move: Drops) -> None:
    for headstream in move.at:  # none for "drops none"
        if entry["flowing"]:
            flow_from_headstream(game, headstream, entry["source"])
        else:
            game.state.headstream_water[headstream] = (
                game.state.headstream_water.get(headstream, 0) + 1
            )
            game.emit(
                "drop_placed", entry["player"], source=entry["source"], data={"at": headstream}
            )


# -- machinery ------------------------------------------------------------------------------


def _machinery_options(game: Game, entry: Task) -> list[Option]:
    total = entry["n"]
    options = []
    for excavators in range(total, -1, -1):
        mixers = total - excavators
        options.append(
            Option(
                Machines(excavators, mixers),
                "Take " + machinery_text(excavators, mixers),
                group="machinery",
            )
        )
    return options


@RULES.task(
    "machinery_choice",
    options=_machinery_options,
    prompt=lambda g, e: f"Choose {e['n']} machiner{'ies' if e['n'] > 1 else 'y'}",
)
def _machinery_choice(game: Game, entry: Task, move: Machines) -> None:
    game.gain(entry["player"], "excavators", move.excavators, entry["source"])
    game.gain(entry["player"], "mixers", move.mixers, entry["source"])


# -- rewards --------------------------------------------------------------------------------


def describe_reward(reward: Mapping[str, Any], content: Content | None = None) -> str:
    """A reward or effect table in words, e.g. '2 credits, rotate wheel 1'.

    Each key reads as its wording says (`Content.rewards`: the base game's rewards.toml and
    each expansion's declaration); a list value is joined with '/', a true flag without a
    value in its wording reads as the wording and a false one not at all, `one_of` lists its
    choices, and a production reads with its bonus ('produce +3').
    """
    wording = (content or load_content()).rewards
    parts = []
    for key, value in reward.items():
        if key == "production_bonus":
            continue
        if key == "produce":
            parts.append(f"produce {reward.get('production_bonus', 0):+d}")
            continue
        if key == "one_of":
            parts.append(" or ".join(describe_reward(choice, content) for choice in value))
            continue
        parts.append(wording[key].read(value))
    return ", ".join(p for p in parts if p)


def reward_drops(company_id: str, n: int, flowing: bool, source: str) -> Task:
    """The decision of a reward placing up to `n` drops on headstreams.

    RULINGS 28: a reward placing n drops may place 1 to n or be declined.
    """
    return {
        "kind": "place_drops",
        "player": company_id,
        "n": n,
        "flowing": flowing,
        "optional": True,
        "source": source,
    }


def produce_energy(
    game: Game, company_id: str, energy: int, source: str, tasks: list[Task]
) -> None:
    """Energy a reward produces: the marker moves, and one own contract may be fulfilled with it."""
    game.add_energy(company_id, energy, source)
    tasks.append(
        {
            "kind": "fulfil_contract",
            "player": company_id,
            "energy": energy,
            "production": False,
            "national": False,
            "source": source,
        }
    )


def reward_contract(
    company_id: str, source: str, *, max_energy: int | None = None, level: str | None = None
) -> Task:
    """The decision of a reward fulfilling one own contract without energy: of at most
    `max_energy` (None: any), or (with `level`) of that colour only."""
    task: Task = {"kind": "fulfil_contract", "player": company_id, "energy": 0}
    task["requires_energy"] = False
    if level is not None:
        task["levels"] = [level]
    else:
        task["max_energy"] = max_energy
    task["national"] = False
    task["source"] = source
    return task


def apply_reward(
    game: Game,
    company_id: str,
    reward: Mapping[str, Any],
    source: str,
    *,
    defer: list[Task] | None = None,
) -> None:
    """Apply a reward; choices become tasks (pushed, or collected into `defer`)."""
    tasks: list[Task] = []
    for key, value in game.reward_parts(reward):
        if key in ("credits", "vp", "excavators", "mixers"):
            game.gain(company_id, key, value, source)
        elif key == "energy":
            # RULINGS 21: plain energy never fulfils a contract.
            game.add_energy(company_id, value, source)
        elif key == "rotate_wheel":
            rotate_wheel(game, company_id, value, source)
        elif key == "machinery_choice":
            tasks.append(
                {"kind": "machinery_choice", "player": company_id, "n": value, "source": source}
            )
        elif key in ("water_drops_delayed", "water_drops_flowing"):
            tasks.append(reward_drops(company_id, value, key == "water_drops_flowing", source))
        elif key == "energy_produced":
            produce_energy(game, company_id, value, source, tasks)
        elif key in ("fulfill_contract_max_energy", "fulfill_any_contract"):
            cap = value if key == "fulfill_contract_max_energy" else None
            tasks.append(reward_contract(company_id, source, max_energy=cap))
        elif key == "build_elevation":
            tasks.extend(
                {
                    "kind": "reward_build",
                    "player": company_id,
                    "structure": "elevation",
                    "source": source,
                }
                for _ in range(value)
            )
        elif key == "build_powerhouse":
            tasks.append(
                {
                    "kind": "reward_build",
                    "player": company_id,
                    "structure": "powerhouse",
                    "source": source,
                }
            )
        elif key == "build_conduit_max_production":
            tasks.append(
                {
                    "kind": "reward_build",
                    "player": company_id,
                    "structure": "conduit",
                    "max_production": value,
                    "source": source,
                }
            )
        elif key == "build_base_in_areas":
            tasks.append(
                {
                    "kind": "reward_build",
                    "player": company_id,
                    "structure": "base",
                    "areas": list(value),
                    "source": source,
                }
            )
        elif key == "take_advanced_tile_slot":
            take_patent_tile(game, company_id, value, source)
        elif key == "advanced_technology_tile":
            tasks.extend(
                {"kind": "take_patent_free", "player": company_id, "source": source}
                for _ in range(value)
            )
        elif (rule := game.rules.rewards.get(key)) is not None and rule.apply is not None:
            rule.apply(game, company_id, value, source, tasks)
        else:
            for ask in game.hooked(Hooks.apply_reward_part):
                if ask(game, company_id, key, value, source, tasks):
                    break
            else:
                raise KeyError(f"reward key {key!r} ({source}) has no handler")
    if defer is not None:
        defer.extend(tasks)
    else:
        game.push(*tasks)


def dam_owner_water(game: Game, company_id: str) -> int:
    """Drops held by the company's own dams (end-game VP; RULINGS 19)."""
    return sum(
        dam.water
        for dam in game.state.dams.values()
        if dam.owner == company_id and dam.owner != NEUTRAL
    )
