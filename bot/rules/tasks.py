"""The pending task as the state's stack holds it: a typed record of plain JSON values.

A task is data in the state (a stored game continues where it stopped), so it stays a dict;
this record names every key the base game's tasks use, with its type, so that a task pushed
with a misspelt key or a wrong value is a type error. `kind` is the one key every task has;
which other keys a kind uses is said by the module that declares the kind. An expansion's
tasks extend the record in its own package (`class <Name>Task(Task, total=False)`), so the
base record names no expansion.
"""

from __future__ import annotations

from typing import Any, Required, TypedDict

# The functional form, because one key ("as": what a construction tile is used as) is a
# Python keyword.
Task = TypedDict(
    "Task",
    {
        # The task kind: a key of the game's rule tables (`RuleTables.tasks`).
        "kind": Required[str],
        # The company that decides or is concerned (absent for tasks of the whole game).
        "player": str,
        # What caused it, as the events name sources ("space:...", "contract:...").
        "source": str,
        # Run this one phase only (positions set up a single phase this way).
        "stop": bool,
        # Draft: the seat choosing, and the company/officer pair chosen.
        "seat": int,
        "pair": list[str],
        # Turns: the action performed last (None at the start of a turn).
        "after": str | None,
        # Construction: the structure kind and space, the tile and what it is used as,
        # a build with free (reward) structures only.
        "structure": str,
        "space": str,
        "tile": str,
        "as": str,
        "free": bool,
        # Construction rewards: a conduit's highest production, the areas a base may go in.
        "max_production": int,
        "areas": list[str],
        # Production: bonus energy, the credits that may be spent, a powerhouse that may not
        # produce again, Germany's second production.
        "bonus": int,
        "budget": int,
        "exclude": str | None,
        "second": bool,
        # After a production: the powerhouse and dam that produced.
        "powerhouse": str,
        "dam": str | None,
        # Rewards: how many (drops, machineries, contracts), whether drops flow, the contract
        # levels allowed, a national contract, a contract fulfilled by production.
        "n": int,
        "flowing": bool,
        "remaining": int,
        "levels": list[str],
        "national": bool,
        "production": bool,
        # Fulfilling a contract: the energy produced, whether a contract needs that much,
        # the largest contract allowed.
        "energy": int,
        "requires_energy": bool,
        "max_energy": int | None,
        "optional": bool,
        # Decisions taken at the same time (income): each company's queue of decisions, and
        # the answers given so far as [company, task, notation] (lists: JSON has no tuples).
        "pending": dict[str, list["Task"]],
        "answers": list[list[Any]],
        # A decision answered for a player (a water flow's nested task and its answer).
        "entry": "Task",
        "notation": str,
        # A reward as the engine applies it: its key's value per machinery.
        "per": int,
        "mode": str,
    },
    total=False,
)

__all__ = ["Task"]
