"""A toy expansion, for tests only: proves the hook points without editing a base module.

A package like any expansion (`expansion.toml` and `RULES`); tests find it through
`TOY_CATALOGUE`, the product's expansions plus this package.

It adds an action space (the Statue Yard: 1 engineer and 1 credit), a structure kind (a
statue on a basin's statue spot `S<basin>`, built free from the yard), a scoring step (1 VP
per statue in every Scoring phase), a content table (`toy.toml`: the poses), a decision (the
new statue's pose: `pose waving`), a reward key (`statue_credits`: credits per statue), a
drawing (`drawing.py`: statues on the map, a line of the text alternative) and a help topic
(`help.py`). Touching no file outside this package is the proof.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.rules.catalogue import ROOT, Catalogue
from bot.rules.construction import Cost, StructureKind
from bot.rules.content import DataFile, Table
from bot.rules.engine import Game, Task
from bot.rules.hooks import Expansion
from bot.rules.moves import Move, Single, Space
from bot.rules.notation import Structure
from bot.rules.options import Option
from bot.rules.rewards import apply_reward, describe_reward
from bot.rules.rulebook import RuleSet

RULES: RuleSet[Game] = RuleSet("toy")


@dataclass(frozen=True, slots=True)
class Plaque:
    """A plaque a statue's base may carry: a shared table's typed row."""

    id: str
    name: str
    vp: int
    set: str


def _plaque(f: DataFile, row: Mapping[str, Any], where: str, own_set: str) -> Plaque:
    return Plaque(
        id=f.get(row, where, "id", str),
        name=f.get(row, where, "name", str),
        vp=f.int_in(row, where, "vp", 0, 5),
        set=f.one_of(row, where, "set", f.sets, own_set),
    )


#: The toy's shared table (`[[plaque]]` rows of any data file), declared in its rule set only:
#: no file of the product's content package names it.
PLAQUES: Table[str, Plaque] = Table("plaque", "id", "plaque", _plaque, piece="plaque")
RULES.table(PLAQUES)

YARD = "toy_statue_yard"


def _statue_spaces(game: Game, company_id: str, constraint: dict) -> list[str]:
    taken = game.state.extra.get("statues", {})
    return [f"S{basin}" for basin in game.map.basins if f"S{basin}" not in taken]


def _place_statue(game: Game, company_id: str, space: str) -> None:
    game.state.extra.setdefault("statues", {})[space] = company_id
    game.push({"kind": "toy_pose", "player": company_id, "space": space})


def poses(game: Game) -> dict[str, Any]:
    """The toy's content table: pose id -> its row."""
    return {row["id"]: row for row in game.content.of("toy")["pose"]}


@dataclass(frozen=True, slots=True)
class Pose(Single):
    """`pose waving`: how the new statue stands (the toy's own kind of move)."""

    verb: ClassVar[str] = "pose"
    args: ClassVar[str] = r"[a-z]+"
    pose: str


def _pose_options(game: Game, entry: Task) -> list[Option]:
    return [
        Option(
            Pose(pose),
            f"Statue on {entry['space']} {pose}: {describe_reward(row['reward'], game.content)}",
            group="Toy",
        )
        for pose, row in poses(game).items()
    ]


@RULES.task("toy_pose", options=_pose_options, prompt=lambda g, e: "How does the statue stand?")
def _pose(game: Game, entry: Task, move: Pose) -> None:
    pose = move.pose
    game.state.extra.setdefault("statue_poses", {})[entry["space"]] = pose
    apply_reward(game, entry["player"], poses(game)[pose]["reward"], f"toy:pose:{pose}")


def _statue_credits(game: Game, company_id: str, value: Any, source: str, tasks: list) -> None:
    """The reward key `statue_credits`: that many credits per statue of the company."""
    statues = [s for s, owner in game.state.extra.get("statues", {}).items() if owner == company_id]
    game.gain(company_id, "credits", value * len(statues), source)


RULES.reward("statue_credits", apply=_statue_credits)
RULES.move(Pose)


RULES.structure(
    StructureKind(
        "statue",
        _statue_spaces,
        lambda game, company_id, space: [Cost("excavators", 1, 0)],
        _place_statue,
        lambda game: 2,
    )
)
RULES.move(Structure, "statue", args=r"S\d+|none")


@RULES.hook
class ToyExpansion(Expansion["Game"]):
    """Statues: an action space, a structure kind and a scoring step."""

    name = "toy"

    def turn_options(self, game: Game, company_id: str) -> list[Option]:
        company = game.company(company_id)
        if game.state.spaces.get(YARD) or company.engineers < 1 or company.credits < 1:
            return []
        if company.placed.get("statue", 0) >= 2:
            return []
        return [Option(Space(YARD), "Statue Yard: build a statue (1 eng., 1 credit)", group="Toy")]

    def perform_turn_option(self, game: Game, company_id: str, move: Move) -> bool:
        if move != Space(YARD):
            return False
        game.gain(company_id, "engineers", -1, f"space:{YARD}")
        game.state.spaces.setdefault(YARD, []).append([company_id, 1])
        game.gain(company_id, "credits", -1, f"space:{YARD}")
        game.push(
            {"kind": "reward_build", "player": company_id, "structure": "statue", "source": YARD}
        )
        return True

    def round_scoring(self, game: Game) -> None:
        for space, owner in sorted(game.state.extra.get("statues", {}).items()):
            game.gain(owner, "vp", 1, f"toy:statue:{space}")


#: The product's expansions and the toy (a test's catalogue; the product's knows no toy).
TOY_CATALOGUE = Catalogue(roots=(ROOT,), packages=(__name__,))
