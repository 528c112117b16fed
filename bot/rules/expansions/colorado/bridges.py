"""Construction Sites and Bridges (rulebook "New Action: Building a Bridge").

`site CS_M` places 1 Engineer on the mountain Construction Site (not exclusive) and pays its
cost: 1 credit plus 2 per Bridge already built in that area (the printed 1, 3, 5, 7). Then
`bridge BR5 D1L` puts a Bridge tile still at that site on one of your dams in the same area
and takes the tile's bonus at once. Not on a neutral or an opponent's dam, not on a dam with a
Bridge, not in a basin that has a Bridge (one per basin). A dam with a Bridge takes no more
Elevations (`structure_spaces`), except External Work C6's, which lifts the Bridge onto it.
The action is offered only when a tile is left, the credits are there and a dam can take it.

Rewards: contract 215 (`build_bridge_free`) builds a Bridge with no Engineer or credits, from
any site, on any eligible dam (`bridge none` declines it); External Work A6
(`build_base_with_bridge`) builds a free Base (the base game's reward build, RULINGS 26) and
then a Bridge on it from its area's site, when a tile is left there and its basin has none.

Decisions where the texts are silent: a free Bridge still takes a tile from its site, so it
raises that site's next cost like any Bridge ("2 credits for each Bridge previously built in
this Construction Site"); the Bridge tiles are all face up (reconstructed
`bridge_tiles_visible`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from bot.rules.actions import place_engineers
from bot.rules.engine import Game
from bot.rules.expansions.colorado.board import (
    ColoradoTask,
    bridge_cost,
    bridge_in_basin,
    co,
    colorado_task,
    site_of_area,
    sites,
)
from bot.rules.expansions.colorado.effects import perform_tile, tile_effect
from bot.rules.moves import ID, Move, Single
from bot.rules.options import Option, counted
from bot.rules.rewards import describe_reward
from bot.rules.rulebook import RuleSet
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("colorado.bridges")


@dataclass(frozen=True, slots=True)
class Site(Single):
    """`site CS_M`: an engineer on that Construction Site, to build a Bridge."""

    verb: ClassVar[str] = "site"
    args: ClassVar[str] = r"CS_[MHP]"
    site: str


@dataclass(frozen=True, slots=True)
class Bridge(Move):
    """`bridge BR3 D1L`: that Bridge tile on that own dam; `bridge none` builds none (`tile`
    None)."""

    verb: ClassVar[str] = "bridge"
    args: ClassVar[str] = rf"BR\d{{1,2}} {ID}|none"
    tile: str | None
    space: str = ""
    # The Construction Site the tile comes from (not written: the dam's area says it).
    site: str = field(default="", compare=False)

    @classmethod
    def read(cls, verb: str, rest: str) -> Self:
        if rest.lower() == "none":
            return cls(None)
        tile, space = rest.split(" ")
        return cls(tile, space)

    @property
    def notation(self) -> str:
        return "bridge none" if self.tile is None else f"bridge {self.tile} {self.space}"


RULES.move(Site)
RULES.move(Bridge)

AREA_NAMES = {"mountain": "Mountains", "hill": "Hills", "plain": "Plains"}


def eligible_dams(game: Game, company_id: str, area: str | None) -> list[str]:
    """Own dams (of `area`, or any) without a Bridge, in a basin without one."""
    out = []
    for space, dam in game.state.dams.items():
        if dam.owner != company_id:
            continue
        if area is not None and game.map.area_of(space) != area:
            continue
        if bridge_in_basin(game, game.map.dam_spaces[space].basin) is None:
            out.append(space)
    return out


def site_options(game: Game, company_id: str) -> list[Option]:
    """`site CS_M` for each Construction Site where the company can build a Bridge now."""
    company = game.company(company_id)
    out: list[Option] = []
    if company.engineers < 1:
        return out
    for site_id, site in sites(game).items():
        engineers = site["engineers"]
        cost = bridge_cost(game, site_id)
        if company.engineers < engineers or company.credits < cost:
            continue
        if not co(game)["sites"][site_id] or not eligible_dams(game, company_id, site["area"]):
            continue
        out.append(
            Option(
                Site(site_id),
                f"Construction Site ({AREA_NAMES[site['area']]}): build a Bridge "
                f"({engineers} eng., {counted(cost, 'credit')})",
                group="Bridges",
            )
        )
    return out


def perform_site(game: Game, company_id: str, site_id: str) -> None:
    """Place the Engineer, pay, then choose the tile and the dam."""
    site = sites(game)[site_id]
    source = f"space:{site_id}"
    cost = bridge_cost(game, site_id)
    place_engineers(game, company_id, site_id, site["engineers"], source)
    game.gain(company_id, "credits", -cost, source)
    game.push(bridge_task(company_id, area=site["area"], source=f"bridge:{site_id}"))


def bridge_task(
    company_id: str,
    *,
    area: str | None,
    source: str,
    optional: bool = False,
    dam: str | None = None,
) -> ColoradoTask:
    """A `colorado_bridge` decision: a tile and a dam (of `area`, or only `dam`)."""
    return {
        "kind": "colorado_bridge",
        "player": company_id,
        "area": area,
        "dam": dam,
        "optional": optional,
        "source": source,
    }


def _bridge_options(game: Game, entry: ColoradoTask) -> list[Option]:
    company_id = entry["player"]
    out = []
    for space in eligible_dams(game, company_id, entry.get("area")):
        if entry.get("dam") is not None and space != entry["dam"]:
            continue
        site_id = site_of_area(game, game.map.area_of(space))
        for tile in co(game)["sites"][site_id]:
            out.append(
                Option(
                    Bridge(tile, space, site_id),
                    f"Bridge {tile} on {space}: {describe_reward(tile_effect(game, tile), game.content)}",
                    group="Bridges",
                )
            )
    if out and entry.get("optional"):
        out.append(Option(Bridge(None), "Build no Bridge", group="Bridges"))
    return out


@RULES.task(
    "colorado_bridge",
    options=_bridge_options,
    prompt=lambda g, e: "Which Bridge tile, on which of your dams?",
)
def _bridge(game: Game, entry: ColoradoTask, move: Bridge) -> None:
    tile = move.tile
    if tile is None:
        return
    company_id = entry["player"]
    space = move.space
    co(game)["sites"][move.site].remove(tile)
    co(game)["bridges"][space] = tile
    game.emit(
        "bridge",
        company_id,
        source=entry["source"],
        data={"tile": tile, "space": space, "site": move.site},
    )
    perform_tile(game, company_id, tile, f"bridge:{tile}")


# -- reward keys and the Elevation rule -------------------------------------------------------


def apply_reward_part(
    game: Game, company_id: str, key: str, value: Any, source: str, tasks: list[Task]
) -> bool:
    """The Bridge reward keys; True when `key` is one of them."""
    if key == "build_bridge_free":
        tasks.extend(
            bridge_task(company_id, area=None, source=source, optional=True) for _ in range(value)
        )
    elif key == "build_base_with_bridge":
        tasks.append(
            {"kind": "reward_build", "player": company_id, "structure": "base", "source": source}
        )
        tasks.append(
            ColoradoTask(
                kind="colorado_bridge_on_new_base",
                player=company_id,
                before=sorted(game.state.dams),
                source=source,
            )
        )
    elif key == "elevation_may_lift_bridge":
        for entry in tasks:
            if entry.get("kind") == "reward_build" and entry.get("structure") == "elevation":
                colorado_task(entry)["lift_bridge"] = bool(value)
    else:
        return False
    return True


@RULES.task("colorado_bridge_on_new_base")
def _bridge_on_new_base(game: Game, entry: ColoradoTask) -> None:
    """External Work A6: the Bridge goes on the Base just built (if one was)."""
    new = [
        space
        for space, dam in game.state.dams.items()
        if space not in entry["before"] and dam.owner == entry["player"]
    ]
    if new:
        game.push(bridge_task(entry["player"], area=None, source=entry["source"], dam=new[0]))


def structure_spaces(
    game: Game, company_id: str, kind: str, constraint: Task, spaces: list[str]
) -> list[str]:
    """No Elevation on a dam with a Bridge, unless the reward lifts the Bridge (C6)."""
    if kind != "elevation" or colorado_task(constraint).get("lift_bridge"):
        return spaces
    bridged = co(game)["bridges"]
    return [space for space in spaces if space not in bridged]
