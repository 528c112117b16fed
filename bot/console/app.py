"""The console's commands: hot seat and autoplay over a GameService and a SQLite store."""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bot.service import (
    Actor,
    Announcement,
    GameService,
    NewGameRefused,
    OutboxSender,
    ReminderNotice,
    RendererPool,
    ServiceError,
)
from bot.store import SqliteStore, system_clock

log = logging.getLogger(__name__)

GUILD = 1
CHANNEL = 1
#: Local players are users 1..N.
FIRST_USER = 1


def player_name(user_id: int) -> str:
    """How the console writes a person the service names: local players are users 1..N."""
    return f"Player {user_id}"


def refusal(exc: ServiceError) -> str:
    """A refusal in the console's words (a new game's options as command-line flags)."""
    text = exc.render(player_name)
    if isinstance(exc, NewGameRefused) and exc.option in ("players", "setup", "expansions"):
        text += f" Use --{exc.option} {exc.choose}." if exc.choose else f" Change --{exc.option}."
    return text


class ConsolePort:
    """Announcements go to the terminal; their images go to a folder."""

    def __init__(self, out: Path | None, *, quiet: bool = False) -> None:
        self.out = out
        self.quiet = quiet
        self.count = 0
        self.files: list[Path] = []

    async def post(self, announcement: Announcement) -> int:
        """Print the text, write the images; the message id is a counter."""
        self.count += 1
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            for image in announcement.images:
                path = self.out / f"{self.count:04d}-{image.filename}"
                path.write_bytes(image.data)
                self.files.append(path)
        if not self.quiet:
            print(f"\n--- {announcement.render(player_name)}")
        return self.count

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Terminal messages have no buttons."""

    async def remind(self, notice: ReminderNotice) -> None:
        """Reminders are printed."""
        print(notice.render(player_name))


def _actor(user: int) -> Actor:
    return Actor(user, GUILD, CHANNEL, True)


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="barrage-bot console", description=__doc__)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--setup", choices=("intro", "full"), default="intro")
    parser.add_argument(
        "--expansions",
        default="",
        help="comma-separated expansion names: leeghwater (The Leeghwater Project, "
        "with --setup full), colorado (The Colorado Connection) or nile (The Nile Affair); "
        "colorado and nile bring their own board and exclude each other",
    )
    parser.add_argument("--out", default=None, help="folder for the board images")
    parser.add_argument("--db", default=None, help="SQLite file (default: a temporary one)")
    parser.add_argument("--autoplay", action="store_true", help="random legal moves to the end")
    return parser.parse_args(list(argv))


def main(argv: Sequence[str]) -> int:
    """Run the console; the exit status is 0 when the game reached its final scoring."""
    args = _parse(argv)
    try:
        args.expansions = GameService.check_new_game(
            players=args.players,
            setup=args.setup,
            expansions=args.expansions.split(","),
        )
    except ServiceError as exc:
        # One line, like argparse's own refusals, and the same exit status.
        print(f"barrage-bot console: error: {refusal(exc)}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="barrage-console-") as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "console.sqlite3"
        try:
            return asyncio.run(_run(args, db))
        except KeyboardInterrupt:
            return 130


async def _run(args: argparse.Namespace, db: Path) -> int:
    store = await SqliteStore.open(db, clock=system_clock)
    pool = RendererPool(kind="thread")
    out = Path(args.out) if args.out else None
    port = ConsolePort(out, quiet=args.autoplay)
    try:
        service = GameService(store, clock=system_clock, renderer_pool=pool)
        sender = OutboxSender(store, port, system_clock, service=service)
        game_id = await _open(service, args)
        await sender.run_once()
        if args.autoplay:
            await _autoplay(service, sender, args)
        else:
            await _hot_seat(service, sender, args)
        return await _report(service, game_id, port)
    finally:
        pool.close()
        await store.close()


async def _open(service: GameService, args: argparse.Namespace) -> int:
    """The console's game: an active one in the database, or a new one started now."""
    existing = await service.store.active_game(CHANNEL)
    if existing is not None:
        return existing.id
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    outcome = await service.create_game(
        _actor(FIRST_USER),
        players=args.players,
        setup=args.setup,
        seed=seed,
        expansions=args.expansions,
    )
    for user in range(FIRST_USER + 1, FIRST_USER + args.players):
        await service.join(_actor(user))
    await service.start(_actor(FIRST_USER))
    return outcome.game_id


async def _deciding(service: GameService, players: int) -> int | None:
    """The first local player with a decision, or None when the game is over."""
    meta = await service.store.active_game(CHANNEL)
    if meta is None:
        return None
    for user in range(FIRST_USER, FIRST_USER + players):
        panel = await service.panel(_actor(user))
        if panel.options:
            return user
    raise RuntimeError("nobody must decide, yet the game is not over")


async def _autoplay(service: GameService, sender: OutboxSender, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    for _ in range(100_000):
        user = await _deciding(service, args.players)
        if user is None:
            return
        panel = await service.panel(_actor(user))
        notation = rng.choice(panel.options).notation
        outcome = await service.play(_actor(user), [notation], expected_version=panel.version)
        if outcome.committed:
            await sender.run_once()
    raise RuntimeError("the game did not end")


HELP = (
    "commands: <notation>[; <notation>...] | <option number> | options | restart | undo | "
    "board [view] [company] | score | log [N] | help | quit"
)


async def _hot_seat(service: GameService, sender: OutboxSender, args: argparse.Namespace) -> None:
    print(HELP)
    loop = asyncio.get_running_loop()
    while True:
        user = await _deciding(service, args.players)
        if user is None:
            return
        panel = await service.panel(_actor(user))
        print(f"\n[player {user}, {panel.company}] {panel.prompt}")
        for line in panel.done:
            print(f"  done: {line}")
        for i, option in enumerate(panel.options, 1):
            print(f"  {i:2d}. {option.label}   [{option.notation}]")
        line = await loop.run_in_executor(None, input, "> ")
        words = line.split()
        if not words:
            continue
        command = words[0].lower()
        try:
            if command in ("quit", "exit"):
                return
            if command == "help":
                print(HELP)
            elif command == "options":
                continue
            elif command == "restart":
                print((await service.restart_turn(_actor(user))).render(player_name))
            elif command == "undo":
                print((await service.undo(_actor(user))).render(player_name))
            elif command == "score":
                print((await service.score(CHANNEL)).text(player_name))
            elif command == "log":
                n = int(words[1]) if len(words) > 1 else 20
                print("\n".join(await service.log_lines(CHANNEL, n)))
            elif command == "board":
                view = words[1] if len(words) > 1 else "map"
                company = words[2] if len(words) > 2 else None
                png = await service.board_image(CHANNEL, view, company)
                path = Path(args.out or ".") / f"board-{view}{'-' + company if company else ''}.png"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(png)
                print(f"wrote {path}")
            else:
                notations = [
                    panel.options[int(n) - 1].notation if n.strip().isdigit() else n.strip()
                    for n in line.split(";")
                ]
                outcome = await service.play(
                    _actor(user), notations, expected_version=panel.version
                )
                if outcome.committed:
                    await sender.run_once()
        except (ServiceError, IndexError, ValueError) as exc:
            print(f"refused: {refusal(exc) if isinstance(exc, ServiceError) else exc}")


async def _report(service: GameService, game_id: int, port: ConsolePort) -> int:
    meta = await service.store.get_game(game_id)
    try:
        score = await service.score(game_id, by_game_id=True)
    except ServiceError as exc:
        print(f"no scores: {exc}", file=sys.stderr)
        return 1
    print(
        f"game #{game_id} ({meta.status}), round {score.round}; images written: {len(port.files)}"
    )
    print(score.text(player_name))
    return 0 if score.over and meta.status == "finished" else 1
