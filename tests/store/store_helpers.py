"""Helpers shared by the store tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.store import Game, Store
from tests.clock import FakeClock as FakeClock  # re-exported: the tests import it here

GUILD = 900_000_000_000_000_001
CHANNEL = 800_000_000_000_000_001
ALICE = 700_000_000_000_000_001
BOB = 700_000_000_000_000_002
CAROL = 700_000_000_000_000_003


async def new_game(store: Store, *, channel_id: int = CHANNEL, **overrides: Any) -> Game:
    """Create a two-player game with plausible Discord ids."""
    args: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": channel_id,
        "creator_id": ALICE,
        "options": {"players": 2, "expansions": []},
        "seed": 2**63 - 1,
        "engine_version": "0.1.0",
        "seats": [ALICE, BOB],
    }
    args.update(overrides)
    return await store.create_game(**args)


def decision(n: int, **extra: Any) -> dict[str, Any]:
    """A plausible decision record."""
    return {"kind": "decision", "user": ALICE, "notation": f"move-{n}", **extra}


@dataclass
class Backend:
    """How to reach one database of one backend: in-process and from a child process."""

    name: str
    #: What `bot.store.open_store` (and so a worker process) opens.
    spec: str
    #: Open another, independent store instance (its own connection) on the database.
    open: Callable[[FakeClock], Awaitable[Store]]
    #: The backend's own consistency check; returns "ok" when the database is sound.
    integrity: Callable[[], str]
