"""Executive officers whose abilities are actions: Mahiri Sekibo (full game).

Most base officers bend one rule where it is applied: Wilhelm Adler (Base costs) and Jill
McDowell (conduits in mixers) in `construction`, Solomon P. Jordan (credits for machinery) in
`construction.payments`, Viktor Fiesler in `production`, Graziano Del Monte in
`Game.dam_capacity`, Anton Krylov's tile in `advanced_tiles`.

Mahiri Sekibo (RULINGS 14): her tile has two action spaces, `mahiri` on the turn menu (1
engineer; the second use in a round costs 3 credits more; there is no third). She picks another
officer (`copy viktor_fiesler`): the officers of the other companies and, at 2 or 3 players,
the spare officers drawn at setup, three in all. She has that ability for the rest of the turn
and then takes a normal action; the copy ends when that action is done. Her engineers return
at the end of the round like any others. Copying Anton Krylov gives nothing: his ability lives
in his tile, which she does not own (BGA lists him all the same).
"""

from __future__ import annotations

from bot.rules.actions import (
    TURN_ACTION_REASONS,
    place_engineers,
    register_turn_action,
    take_action,
    turn_options,
)
from bot.rules.engine import Game, Task, task
from bot.rules.notation import register_verb
from bot.rules.options import Option

MAHIRI = "mahiri_sekibo"
MAHIRI_SPACES = (("mahiri_1", 0), ("mahiri_2", 3))  # (space id, extra credits)

register_verb("mahiri", r"")
register_verb("copy", r"[A-Za-z0-9_]+")


def _next_space(game: Game, company_id: str) -> tuple[str, int] | None:
    for space, credits in MAHIRI_SPACES:
        if not any(owner == company_id for owner, _n in game.state.spaces.get(space, [])):
            return space, credits
    return None


def copyable_officers(game: Game, company_id: str) -> list[str]:
    """Officers Mahiri may copy: the other companies' officers and the spares (RULINGS 14)."""
    others = [game.officer_of(cid) for cid in game.state.seats if cid != company_id]
    spares = game.state.extra.get("spare_officers", [])
    return [officer for officer in dict.fromkeys([*others, *spares]) if officer != MAHIRI]


def _mahiri_options(game: Game, company_id: str) -> list[Option]:
    company = game.company(company_id)
    if company.officer != MAHIRI:
        return []
    space = _next_space(game, company_id)
    # One engineer for the copy, at least one more for the normal action that follows.
    if space is None or company.engineers < 2 or company.credits < space[1]:
        return []
    if not copyable_officers(game, company_id):
        return []
    fee = f", {space[1]} credits" if space[1] else ""
    return [
        Option(
            "mahiri",
            f"Mahiri: copy another officer's ability this turn, then act (1 eng.{fee})",
            group="Executive officer",
            data=(("action", "mahiri"),),
        )
    ]


def _mahiri(game: Game, company_id: str, option: Option) -> None:
    space = _next_space(game, company_id)
    assert space is not None
    space_id, credits = space
    place_engineers(game, company_id, space_id, 1, f"officer:{space_id}")
    game.gain(company_id, "credits", -credits, f"officer:{space_id}")
    game.push(
        {"kind": "mahiri_copy", "player": company_id},
        {"kind": "turn_after_copy", "player": company_id},
        {"kind": "mahiri_end", "player": company_id},
    )


register_turn_action("mahiri", _mahiri_options, _mahiri)


def _why_not_mahiri(game: Game, company_id: str) -> str:
    company = game.company(company_id)
    if company.officer != MAHIRI:
        return "only Mahiri Sekibo's company has that action space"
    space = _next_space(game, company_id)
    if space is None:
        return "both of Mahiri's action spaces are used this round"
    if company.engineers < 2:
        return "Mahiri needs 1 engineer to copy and 1 more for the action that follows"
    return f"the second use costs {space[1]} credits; you have {company.credits}"


TURN_ACTION_REASONS["mahiri"] = _why_not_mahiri


def _copy_options(game: Game, entry: Task) -> list[Option]:
    out = []
    for officer_id in copyable_officers(game, entry["player"]):
        officer = game.content.officers[officer_id]
        out.append(
            Option(
                f"copy {officer_id}",
                f"Copy {officer.name}",
                group="Executive officer",
                description=officer.ability_text,
                data=(("officer", officer_id),),
            )
        )
    return out


@task(
    "mahiri_copy", options=_copy_options, prompt=lambda g, e: "Which officer's ability do you copy?"
)
def _mahiri_copy(game: Game, entry: Task, option: Option) -> None:
    game.company(entry["player"]).extra["copied_officer"] = option.get("officer")
    game.emit(
        "officer_copied",
        entry["player"],
        source="officer:mahiri",
        data={"officer": option.get("officer")},
    )


def _after_copy_options(game: Game, entry: Task) -> list[Option]:
    return [
        option for option in turn_options(game, entry["player"]) if option.get("action") != "mahiri"
    ]


@task(
    "turn_after_copy",
    options=_after_copy_options,
    prompt=lambda g, e: "Now take your action (with the copied ability)",
)
def _turn_after_copy(game: Game, entry: Task, option: Option) -> None:
    take_action(game, entry["player"], option)


@task("mahiri_end")
def _mahiri_end(game: Game, entry: Task) -> None:
    """The copy lasts for the rest of the turn only."""
    officer = game.company(entry["player"]).extra.pop("copied_officer", None)
    if officer:
        for expansion in game.expansions:
            expansion.copy_ends(game, entry["player"], officer)
