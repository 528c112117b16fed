"""The game state: plain, mutable dataclasses that serialise to JSON and back exactly.

The state holds everything needed to continue a game: the options and seed, every pile in its
shuffled order, the map, each company's board and wheel, and the stack of pending tasks
(`stack`, top last) that drives the flow of the game. Nothing in it refers to content objects;
ids only, so a stored state stays readable by later engine versions (with `SCHEMA_VERSION`
migrations in `bot.rules.migrations`).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.rules.tasks import Task

SCHEMA_VERSION = 1
STRUCTURE_KINDS = ("base", "elevation", "conduit", "powerhouse")
NEUTRAL = "neutral"


@dataclass(slots=True)
class GameOptions:
    """What a game was created with; fixed for its whole life."""

    players: int
    setup: str = "intro"  # "intro" or "full"
    map: str = "base"
    expansions: tuple[str, ...] = ()
    seed: int = 0
    # Levels (0 easy .. 3 expert) of the automa companies, which take the last seats
    # (`bot.rules.automa.seats`); empty when people play every seat.
    automa: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-able dict (games without automas keep the key out)."""
        data: dict[str, Any] = {
            "players": self.players,
            "setup": self.setup,
            "map": self.map,
            "expansions": list(self.expansions),
            "seed": self.seed,
        }
        if self.automa:
            data["automa"] = list(self.automa)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOptions:
        """Build from `to_json` output."""
        return cls(
            players=int(data["players"]),
            setup=str(data.get("setup", "intro")),
            map=str(data.get("map", "base")),
            expansions=tuple(data.get("expansions", ())),
            seed=int(data.get("seed", 0)),
            automa=tuple(int(level) for level in data.get("automa", ())),
        )


@dataclass(slots=True)
class WheelSegment:
    """One of the six segments of a construction wheel."""

    tiles: list[str] = field(default_factory=list)
    excavators: int = 0
    mixers: int = 0

    def is_empty(self) -> bool:
        """True when nothing sits in this segment."""
        return not self.tiles and not self.excavators and not self.mixers


@dataclass(slots=True)
class Dam:
    """A built dam on a dam space: a Base plus Elevations, or a neutral dam."""

    owner: str  # company id or NEUTRAL
    level: int = 1
    water: int = 0


@dataclass(slots=True)
class Company:
    """One player's company: its board, supply, wheel and contracts."""

    id: str
    seat: int
    officer: str
    credits: int = 6
    excavators: int = 6
    mixers: int = 4
    engineers: int = 12
    vp: int = 10
    energy: int = 0  # energy produced this round (the Energy Track)
    tiles: list[str] = field(default_factory=list)  # technology tiles in the supply
    wheel: list[WheelSegment] = field(default_factory=lambda: [WheelSegment() for _ in range(6)])
    wheel_open: int = 0  # index of the open segment
    placed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STRUCTURE_KINDS, 0))
    contracts: list[int] = field(default_factory=list)  # face up, not yet fulfilled
    fulfilled: list[int] = field(default_factory=list)  # face down
    construction_spaces_used: int = 0  # this round, 0..4
    extra: dict[str, Any] = field(default_factory=dict)  # officer/expansion data

    def wheel_tiles(self) -> list[str]:
        """All technology tiles sitting on the wheel."""
        return [tile for segment in self.wheel for tile in segment.tiles]


@dataclass(slots=True)
class GameState:
    """The whole game."""

    options: GameOptions
    schema: int = SCHEMA_VERSION
    engine_version: str = ""
    round: int = 1
    phase: str = "setup"
    companies: dict[str, Company] = field(default_factory=dict)  # in seat order
    seats: list[str] = field(default_factory=list)  # company id per seat
    turn_order: list[str] = field(default_factory=list)
    current: str | None = None  # whose action turn it is
    turn_open: bool = False  # a turn has begun and awaits Confirm
    dams: dict[str, Dam] = field(default_factory=dict)
    conduits: dict[str, str] = field(default_factory=dict)
    powerhouses: dict[str, str] = field(default_factory=dict)
    headstream_tiles: dict[str, int] = field(default_factory=dict)
    headstream_water: dict[str, int] = field(default_factory=dict)
    # Management space id -> list of [company, engineers] placements this round.
    spaces: dict[str, list[list[Any]]] = field(default_factory=dict)
    bonus_tiles: list[str] = field(default_factory=list)  # one per round, round 1 first
    objective: str = ""
    national_offer: list[int] = field(default_factory=list)
    private_offer: dict[str, list[int]] = field(default_factory=dict)
    private_piles: dict[str, list[int]] = field(default_factory=dict)  # top of pile first
    # Private contract levels taken this turn: refilled (revealed) at Confirm.
    pending_refill: list[str] = field(default_factory=list)
    patent_offer: list[str | None] = field(default_factory=list)
    patent_piles: dict[str, list[str]] = field(default_factory=dict)
    stack: list[Task] = field(default_factory=list)  # pending tasks, top last
    history: list[dict[str, Any]] = field(default_factory=list)  # per-round summaries
    finished: bool = False
    result: dict[str, Any] = field(default_factory=dict)  # final ranking and breakdown
    decisions: int = 0  # decisions applied (answers given, automatic ones included)
    extra: dict[str, Any] = field(default_factory=dict)  # expansion state

    # -- convenience -------------------------------------------------------------------
    def company(self, company_id: str) -> Company:
        """Return one company."""
        return self.companies[company_id]

    def clone(self) -> GameState:
        """A deep copy (used to validate command sequences and to render)."""
        return copy.deepcopy(self)

    # -- JSON --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Return a JSON-able dict that `from_json` turns back into an equal state."""
        data = asdict(self)
        data["options"] = self.options.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from `to_json` output (of this schema version)."""
        data = copy.deepcopy(data)
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(
                f"state schema {data.get('schema')!r} is not {SCHEMA_VERSION}; migrate it first"
            )
        companies = {}
        for cid, raw in data.pop("companies").items():
            raw["wheel"] = [WheelSegment(**segment) for segment in raw["wheel"]]
            companies[cid] = Company(**raw)
        dams = {space: Dam(**raw) for space, raw in data.pop("dams").items()}
        options = GameOptions.from_json(data.pop("options"))
        return cls(options=options, companies=companies, dams=dams, **data)
