"""Irrigation: the action, the Pumping Station, taking tokens, activating them, new rewards.

The action (rulebook "New action: irrigation"): `irrigate IZ_M_A2` puts 1 engineer on that
irrigation action space (a red one costs 3 credits); then `drain D2U` takes 1 drop out of an
own dam in a basin connected to the zone (the drop leaves the game: event `drop_removed`);
then `irrigation IM3` takes a visible token of the zone, face up. A space is offered only
when its engineer and credits, an own dam with a drop in a connected basin and a token in the
zone can all be had. Each space takes one company per round (`exclusive` in the map data).

The Pumping Station (`use pumping_station`, with The Leeghwater Project): the same from any
own dam (nile.toml open question: the connection rule is lifted, and the token may come from
any zone), then `drain D2U` again from the same dam for a second token, or `drain none`.

Activation (rulebook "New special action"): `activate IM3`, once per turn, before the main
action (a choice of the turn decision, after which the main action is asked) or after it (a
choice beside Confirm). The token turns face down and its effect applies at once. Decisions
where the texts are silent: a company with no engineers left may not activate before its main
action, and one that passed may not activate at Confirm (nile.toml open question); any
face-up token may be activated even when its effect can do nothing now (a contract token with
no contract to fulfil); the water effect is the base game's flowing drops reward, so 1 to n
drops may be placed (RULINGS 28); the contract effect fulfils one's own face-up private
contract only, never a national one ("in your personal supply").

Rewards (declared in expansion.toml, applied through `apply_reward_part`): `one_of` (contracts
216/316/416: `choose 1` / `choose 2`; an alternative that cannot be had now is not offered),
`take_irrigation_token_from_zones`, `irrigation_total_bonus_permanent` (A7),
`flip_used_irrigation_tokens_up_to` (B7: `flip IM3` one at a time, `flip none`),
`vp_plus_visible_irrigation_vp` (C7), `irrigate_from_any_own_dam` and
`second_irrigation_same_dam` (the Pumping Station), and `take_private_contracts` (the
reconstructed private-contract tokens: as the Contract Office's action).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.rules.actions import place_engineers, take_action, turn_options
from bot.rules.engine import Game
from bot.rules.expansions.nile.board import (
    NileTask,
    nile_task,
    take_token,
    tokens,
    visible_tokens,
    visible_vp,
    zones,
    zones_of_areas,
)
from bot.rules.moves import ID, Move, Single
from bot.rules.options import Option, counted
from bot.rules.rewards import apply_reward, describe_reward
from bot.rules.rulebook import RuleSet
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("nile.irrigation")


@dataclass(frozen=True, slots=True)
class Irrigate(Single):
    """`irrigate IS_1`: engineers on that irrigation action space."""

    verb: ClassVar[str] = "irrigate"
    args: ClassVar[str] = ID
    space: str


@dataclass(frozen=True, slots=True)
class Drain(Single):
    """`drain D1L`: one drop out of that own dam for irrigation; `drain none` takes none."""

    verb: ClassVar[str] = "drain"
    args: ClassVar[str] = rf"{ID}|none"
    space: str | None


@dataclass(frozen=True, slots=True)
class TakeToken(Single):
    """`irrigation IM2`: take that visible irrigation token."""

    verb: ClassVar[str] = "irrigation"
    args: ClassVar[str] = ID
    token: str


@dataclass(frozen=True, slots=True)
class Activate(Single):
    """`activate IM2`: turn that own token face down for its effect."""

    verb: ClassVar[str] = "activate"
    args: ClassVar[str] = ID
    token: str


@dataclass(frozen=True, slots=True)
class Flip(Single):
    """`flip IM2`: turn that used token face up again; `flip none` turns no more."""

    verb: ClassVar[str] = "flip"
    args: ClassVar[str] = rf"{ID}|none"
    token: str | None


@dataclass(frozen=True, slots=True)
class Choose(Single):
    """`choose 2`: the second of a reward's alternatives."""

    verb: ClassVar[str] = "choose"
    args: ClassVar[str] = r"\d"
    index: int


for _kind in (Irrigate, Drain, TakeToken, Activate, Flip, Choose):
    RULES.move(_kind)


def token_text(game: Game, token: str) -> str:
    """E.g. 'IM2 (2 pts): 5 credits'."""
    row = tokens(game)[token]
    effect = describe_reward(row["effect"], game.content)
    return f"{token} ({row['irrigation_points']} pts): {effect}"


# -- the irrigation action ---------------------------------------------------------------------


def drain_dams(game: Game, company_id: str, zone_ids: Any | None) -> list[str]:
    """Own dams holding a drop, in a basin connected to one of the zones (None: any basin)."""
    connected = None
    if zone_ids is not None:
        every = zones(game)
        connected = {basin for zid in zone_ids for basin in every[zid]["connected_basins"]}
    return [
        space
        for space, dam in game.state.dams.items()
        if dam.owner == company_id
        and dam.water >= 1
        and (connected is None or game.map.dam_spaces[space].basin in connected)
    ]


def irrigation_possible(game: Game, company_id: str, zone_ids: Any | None) -> bool:
    """True when a drop can be taken from an own dam and a token from the zones."""
    every = list(zones(game)) if zone_ids is None else list(zone_ids)
    return bool(visible_tokens(game, every)) and bool(drain_dams(game, company_id, zone_ids))


def action_spaces(game: Game) -> list[Mapping[str, Any]]:
    """The six irrigation action spaces of the map."""
    return list(game.map.features["irrigation_action_space"])


def action_options(game: Game, company_id: str) -> list[Option]:
    """`irrigate <space>` for each free irrigation action space the company can use now."""
    company = game.company(company_id)
    out = []
    for space in action_spaces(game):
        if game.state.spaces.get(space["id"]) and space.get("exclusive", True):
            continue
        if company.engineers < space["engineers"] or company.credits < space["extra_credits"]:
            continue
        if not irrigation_possible(game, company_id, [space["zone"]]):
            continue
        area = zones(game)[space["zone"]]["area"]
        fee = f", {counted(space['extra_credits'], 'credit')}" if space["extra_credits"] else ""
        out.append(
            Option(
                Irrigate(space["id"]),
                f"Irrigate the {area} zone ({space['side']} space: "
                f"{counted(space['engineers'], 'engineer')}{fee})",
                group="Irrigation",
            )
        )
    return out


def perform_irrigate(game: Game, company_id: str, space_id: str) -> None:
    """Place the engineer on the irrigation action space, pay, then drain and take."""
    space = next(s for s in action_spaces(game) if s["id"] == space_id)
    source = f"space:{space_id}"
    place_engineers(game, company_id, space_id, space["engineers"], source)
    game.gain(company_id, "credits", -space["extra_credits"], source)
    game.push(drain_task(company_id, [space["zone"]], source))


def drain_task(
    company_id: str, zone_ids: list[str] | None, source: str, *, second: bool = False
) -> NileTask:
    """A `nile_drain` decision: which own dam gives the drop (zones None: any dam, any zone)."""
    return {
        "kind": "nile_drain",
        "player": company_id,
        "zones": zone_ids,
        "second": second,
        "source": source,
    }


def _drain_options(game: Game, entry: NileTask) -> list[Option]:
    zone_ids = entry["zones"]
    every = list(zones(game)) if zone_ids is None else zone_ids
    if not visible_tokens(game, every):
        return []
    out = []
    for space in drain_dams(game, entry["player"], zone_ids):
        dam = game.state.dams[space]
        out.append(
            Option(
                Drain(space),
                f"Take 1 drop out of your dam {space} ({dam.water}/{game.dam_capacity(space)})",
                group="Irrigation",
            )
        )
    return out


def remove_drop(game: Game, company_id: str, space: str, source: str) -> None:
    """A drop leaves an own dam for irrigation: back to the general supply."""
    game.state.dams[space].water -= 1
    game.emit("drop_removed", company_id, 1, source, data={"at": space})


@RULES.task(
    "nile_drain",
    options=_drain_options,
    prompt=lambda g, e: "Irrigation: which of your dams gives a water drop?",
)
def _drain(game: Game, entry: NileTask, move: Drain) -> None:
    company_id = entry["player"]
    space = move.space
    assert space is not None, "the first drop is never declined"
    remove_drop(game, company_id, space, entry["source"])
    zone_ids = entry["zones"] if entry["zones"] is not None else list(zones(game))
    tasks: list[Task] = [take_task(company_id, zone_ids, entry["source"])]
    if entry["second"]:
        tasks.append(
            NileTask(
                kind="nile_again",
                player=company_id,
                at=space,
                zones=zone_ids,
                source=entry["source"],
            )
        )
    game.push(*tasks)


def take_task(company_id: str, zone_ids: list[str] | None, source: str) -> NileTask:
    """A `nile_take` decision: which visible token of these zones."""
    return {"kind": "nile_take", "player": company_id, "zones": zone_ids, "source": source}


def _take_options(game: Game, entry: NileTask) -> list[Option]:
    return [
        Option(TakeToken(token), f"Take {token_text(game, token)}", group="Irrigation")
        for token in visible_tokens(game, entry["zones"])
    ]


@RULES.task(
    "nile_take",
    options=_take_options,
    prompt=lambda g, e: "Irrigation: which visible irrigation token do you take?",
)
def _take(game: Game, entry: NileTask, move: TakeToken) -> None:
    take_token(game, entry["player"], move.token, entry["source"])


def _again_options(game: Game, entry: NileTask) -> list[Option]:
    space = entry["at"]
    dam = game.state.dams.get(space)
    if dam is None or dam.water < 1 or not visible_tokens(game, entry["zones"]):
        return []
    return [
        Option(
            Drain(space),
            f"Irrigate again: 1 more drop out of {space} ({dam.water}/{game.dam_capacity(space)})",
            group="Irrigation",
        ),
        Option(Drain(None), "Do not irrigate a second time", group="Irrigation"),
    ]


@RULES.task(
    "nile_again",
    options=_again_options,
    prompt=lambda g, e: "Pumping Station: irrigate a second time from the same dam?",
)
def _again(game: Game, entry: NileTask, move: Drain) -> None:
    space = move.space
    if space is None:
        return
    remove_drop(game, entry["player"], space, entry["source"])
    game.push(take_task(entry["player"], entry["zones"], entry["source"]))


def pumping_possible(game: Game, company_id: str, budget: int) -> bool:
    """The Pumping Station's action: an own dam with a drop and a token anywhere."""
    return irrigation_possible(game, company_id, None)


# -- activating tokens ---------------------------------------------------------------------------


def face_up(game: Game, company_id: str) -> list[str]:
    """The company's tokens that can still be activated."""
    extra = game.company(company_id).extra
    down = set(extra.get("irrigation_down", []))
    return [t for t in extra.get("irrigation", []) if t not in down]


def _confirm_entry(game: Game, company_id: str) -> NileTask | None:
    """The confirm task of the company's open turn (pushed when the turn began)."""
    for entry in reversed(game.state.stack):
        if entry["kind"] == "confirm" and entry["player"] == company_id:
            return nile_task(entry)
    return None


def activation_options(game: Game, company_id: str) -> list[Option]:
    """`activate <token>` for each face-up token (once per turn)."""
    return [
        Option(Activate(token), f"Activate {token_text(game, token)}", group="Irrigation tokens")
        for token in face_up(game, company_id)
    ]


def before_main_options(game: Game, company_id: str) -> list[Option]:
    """Activation offered by the turn decision: not yet done this turn, engineers left."""
    entry = _confirm_entry(game, company_id)
    if (entry is not None and entry.get("nile_activated")) or game.company(
        company_id
    ).engineers < 1:
        return []
    return activation_options(game, company_id)


def confirm_options(game: Game, entry: Task) -> list[Option]:
    """Activation offered beside Confirm: not yet done this turn, not after passing."""
    company_id = entry["player"]
    if nile_task(entry).get("nile_activated"):
        return []
    if game.company(company_id).extra.get("passed_round") == game.state.round:
        return []
    return activation_options(game, company_id)


def activate(game: Game, company_id: str, token: str, confirm: Task | None) -> None:
    """Turn the token face down and apply its effect; the turn's activation is used."""
    if confirm is not None:
        nile_task(confirm)["nile_activated"] = True
    game.company(company_id).extra["irrigation_down"].append(token)
    source = f"irrigation:{token}"
    game.emit("irrigation_activated", company_id, source=source, data={"token": token})
    apply_reward(game, company_id, tokens(game)[token]["effect"], source)


def activate_before_main(game: Game, company_id: str, token: str) -> None:
    """Activation chosen as the turn's first answer: the main action is asked after it."""
    game.push({"kind": "nile_main", "player": company_id})
    activate(game, company_id, token, _confirm_entry(game, company_id))


def _main_options(game: Game, entry: Task) -> list[Option]:
    return [
        option
        for option in turn_options(game, entry["player"])
        if not isinstance(option.move, Activate)
    ]


@RULES.task(
    "nile_main",
    options=_main_options,
    prompt=lambda g, e: "Token activated: now choose your main action",
)
def _main(game: Game, entry: Task, move: Move) -> None:
    take_action(game, entry["player"], move)


# -- rewards -----------------------------------------------------------------------------------


def thaw(value: Any) -> Any:
    """A content value (mappingproxy, tuple) as plain JSON data for a task."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(item) for item in value]
    return value


def alternative_possible(game: Game, company_id: str, reward: Mapping[str, Any]) -> bool:
    """Whether one alternative of a `one_of` reward can be had now."""
    areas = reward.get("take_irrigation_token_from_zones")
    if areas is not None:
        return bool(visible_tokens(game, zones_of_areas(game, areas)))
    return True


def _choose_options(game: Game, entry: NileTask) -> list[Option]:
    return [
        Option(Choose(index), f"Take {describe_alternative(game, reward)}", group="reward")
        for index, reward in enumerate(entry["alternatives"], start=1)
        if alternative_possible(game, entry["player"], reward)
    ]


def describe_alternative(game: Game, reward: Mapping[str, Any]) -> str:
    """E.g. 'an irrigation token (plain/hill)' or '5 VP'."""
    return describe_reward(reward, game.content)


@RULES.task("nile_choose", options=_choose_options, prompt=lambda g, e: "Choose one reward")
def _choose(game: Game, entry: NileTask, move: Choose) -> None:
    reward = entry["alternatives"][move.index - 1]
    apply_reward(game, entry["player"], reward, entry["source"])


def _flip_options(game: Game, entry: Task) -> list[Option]:
    down = game.company(entry["player"]).extra.get("irrigation_down", [])
    out = [
        Option(Flip(token), f"Turn {token_text(game, token)} face up", group="Irrigation")
        for token in dict.fromkeys(down)
    ]
    if out:
        out.append(Option(Flip(None), "Turn no more tokens face up", group="Irrigation"))
    return out


@RULES.task(
    "nile_flip",
    options=_flip_options,
    prompt=lambda g, e: f"Turn up to {counted(e['remaining'], 'used irrigation token')} face up",
)
def _flip(game: Game, entry: Task, move: Flip) -> None:
    token = move.token
    if token is None:
        return
    extra = game.company(entry["player"]).extra
    extra["irrigation_down"].remove(token)
    game.emit("irrigation_flipped", entry["player"], source=entry["source"], data={"token": token})
    if entry["remaining"] > 1:
        game.push({**entry, "remaining": entry["remaining"] - 1})


def apply_reward_part(
    game: Game, company_id: str, key: str, value: Any, source: str, tasks: list[Task]
) -> bool:
    """The Nile's reward keys (see the module docstring)."""
    if key == "one_of":
        tasks.append(
            NileTask(kind="nile_choose", player=company_id, alternatives=thaw(value), source=source)
        )
    elif key == "take_irrigation_token_from_zones":
        tasks.append(take_task(company_id, zones_of_areas(game, value), source))
    elif key == "irrigation_total_bonus_permanent":
        extra = game.company(company_id).extra
        extra["irrigation_bonus"] = extra.get("irrigation_bonus", 0) + value
        game.emit("irrigation_bonus", company_id, value, source)
    elif key == "flip_used_irrigation_tokens_up_to":
        tasks.append(
            {"kind": "nile_flip", "player": company_id, "remaining": value, "source": source}
        )
    elif key == "vp_plus_visible_irrigation_vp":
        if value:
            game.gain(company_id, "vp", visible_vp(game), source)
    elif key == "irrigate_from_any_own_dam":
        tasks.append(drain_task(company_id, None, source))
    elif key == "second_irrigation_same_dam":
        for entry in reversed(tasks):
            if entry["kind"] == "nile_drain":
                entry["second"] = bool(value)
                break
    elif key == "take_private_contracts":
        tasks.extend(
            [
                {
                    "kind": "take_contract",
                    "player": company_id,
                    "remaining": value,
                    "source": source,
                },
                {"kind": "discard_contract", "player": company_id},
            ]
        )
    else:
        return False
    return True


def _reason(text: str) -> Callable[[Game, str], str]:
    """An illegal-move reason that is always the same sentence."""
    return lambda game, company_id: text


RULES.reason(
    "irrigate",
    _reason(
        "an irrigation space is free once per round and needs its engineer and credits, an own "
        "dam holding a drop in a basin connected to the zone, and a token left in the zone"
    ),
)
RULES.reason(
    "activate",
    _reason("you may activate one face-up irrigation token you hold, once per turn"),
)
