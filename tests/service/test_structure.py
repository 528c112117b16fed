"""The service's shape: parts composed over ports, not mixed in (issue 25, item 2)."""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import pkgutil
from pathlib import Path

import bot.service
from bot.rules import Game
from bot.service import GameService
from bot.service.core import Desk
from bot.service.images import RendererPool
from bot.service.loading import Loaded
from bot.service.lobby import Lobby
from bot.service.ports import Doorbell
from bot.service.records import ClockRecord
from bot.service.types import Line, ServiceConfig
from bot.store import SqliteStore, UserSettings
from tests.service.helpers import USERS, FakeClock, actor, cheap_png

#: The modules of the service's parts: each one's docstring says what it owns.
PARTS = (
    "core",
    "lobby",
    "play",
    "moderation",
    "views",
    "pictures",
    "thinking",
    "timekeeping",
    "settings",
    "stats",
    "moving",
    "service",
)


def service_classes() -> list[type]:
    """Every class defined in a module of bot/service."""
    found = []
    for info in pkgutil.iter_modules(bot.service.__path__):
        module = importlib.import_module(f"bot.service.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                found.append(cls)
    return found


def may_inherit(cls: type) -> bool:
    """Error types, value records (dataclasses), enums and Protocols may build on one
    another; the working classes may not."""
    return (
        issubclass(cls, BaseException)
        or dataclasses.is_dataclass(cls)
        or issubclass(cls, enum.Enum)
        or bool(getattr(cls, "_is_protocol", False))
    )


def test_no_working_class_of_the_service_inherits_from_another() -> None:
    classes = service_classes()
    assert len(classes) > 40  # the walk found the service's classes
    mixed = {
        cls.__qualname__: [base.__qualname__ for base in cls.__mro__[1:-1]]
        for cls in classes
        if not may_inherit(cls)
        and any(base.__module__.startswith("bot.service") for base in cls.__mro__[1:])
    }
    assert mixed == {}


def test_the_service_has_no_bases_and_holds_its_parts() -> None:
    assert GameService.__bases__ == (object,)
    assert Desk.__bases__ == (object,)


def test_each_part_says_what_it_owns() -> None:
    root = Path(bot.service.__file__).parent
    for name in PARTS:
        doc = importlib.import_module(f"bot.service.{name}").__doc__ or ""
        assert "Owns:" in doc, name
        assert (root / f"{name}.py").read_text(encoding="utf-8").startswith('"""'), name


class Ports:
    """A turn clock and an AI-seat port that note what a commit asks and tells them."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, bool]] = []
        self.due: list[int] = []

    async def at_commit(self, loaded: Loaded, *, taken_back: bool) -> ClockRecord | None:
        self.asked.append(("at_commit", loaded.version, taken_back))
        return None

    async def lines(self, after: Loaded) -> list[Line]:
        self.asked.append(("lines", after.version, False))
        return [Line.of("⏱️ a line of the clock")]

    async def first_reminder_due(
        self, loaded: Loaded, user: int, settings: UserSettings, now: int
    ) -> int:
        return now + 1

    async def landed(self, after: Loaded) -> None:
        self.asked.append(("landed", after.version, False))

    def due_now(self, loaded: Loaded) -> None:
        self.due.append(loaded.version)


class Due:
    """The AI-seat port of `Ports`."""

    def __init__(self, ports: Ports) -> None:
        self.ports = ports

    def due(self, loaded: Loaded) -> None:
        self.ports.due_now(loaded)


async def test_a_commit_asks_the_ports_it_was_built_with(tmp_path: Path) -> None:
    """The desk's commit asks the turn clock and tells the AI seats through the ports given
    at construction: the clock's lines are in the announcement, a start goes back."""
    clock = FakeClock()
    store = await SqliteStore.open(tmp_path / "db.sqlite3", clock=clock)
    try:
        ports = Ports()
        desk = Desk(
            store,
            clock=clock,
            config=ServiceConfig(),
            renderer_pool=RendererPool(kind="inline", render_fn=cheap_png),
            publisher=Doorbell(),
            timekeeper=ports,
            computers=Due(ports),
        )
        lobby = Lobby(desk)
        await lobby.create_game(actor(USERS[0]), players=2, seed=7, setup="intro")
        await lobby.join(actor(USERS[1]))
        started = await lobby.start(actor(USERS[0]))
        kinds = [kind for kind, _, _ in ports.asked]
        assert kinds == ["at_commit", "lines", "landed"]
        assert ports.asked[0][2] is True  # a start begins the chain afresh: nothing charged
        assert ports.due == [started.version]  # told once the start landed
        [announcement] = await store.pending_outbox(started.game_id)
        assert "a line of the clock" in str(announcement.payload)
        assert isinstance((await desk.load(await store.get_game(started.game_id))).game, Game)
    finally:
        await store.close()
