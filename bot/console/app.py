"""The console's commands: hot seat and autoplay over a GameService and a SQLite store."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.console.lines import LineReader
from bot.rules.content import company_name
from bot.service import (
    Actor,
    Announcement,
    GameService,
    InvalidMove,
    LobbyError,
    NewGameRefused,
    OptionView,
    OutboxSender,
    Outcome,
    PanelView,
    ReminderNotice,
    RendererPool,
    ServiceConfig,
    ServiceError,
)
from bot.service.clock import CLOCKS, POLICIES
from bot.service.computer import AI_LEVELS
from bot.service.expansions import combinations
from bot.service.stats import REPLAY_PACES
from bot.service.timekeeping import ClockRunner
from bot.store import Clock, DatabaseUnusable, SqliteStore, StoreError, system_clock
from bot.store import Game as StoredGame

log = logging.getLogger(__name__)

GUILD = 1
CHANNEL = 1
#: Local players are users 1..N.
FIRST_USER = 1
#: Where a hot-seat game is kept unless --db says otherwise (in the working directory).
DEFAULT_DB = "barrage-console.sqlite3"
#: The most log lines `log N` prints.
MAX_LOG_LINES = 1000
#: The automa levels, weakest first (a stored game keeps the level's index).
AUTOMA_LEVELS = ("easy", "medium", "hard", "expert")

HELP = """\
Type what the player whose name is shown decides:
  3                 the option numbered 3 in the list
  base D5U          an option's notation (shown in [brackets]); several: a; b; c
Or one of these commands:
  options           show the decision again        restart   throw away this turn's moves
  undo              take back the last confirmed turn (before the next player acts)
  score             the scores now                 log [N]   the last N log lines (20)
  company [X]       a company's board as text (X: its name, e.g. Italy; all without it)
  board [map|shared|company|score|full|...] [company]   write a picture of the board
  preview [map|shared|...]    write a picture of your turn so far (only for you)
  clock             each player's bank and deadline (a game with --clock)
  help              this text                      quit      save and leave (also Ctrl-D)"""


class Names:
    """Local players' names by user id: how the console writes the people the service names
    (and any `<@id>` in texts written before the service named people as data)."""

    def __init__(self, names: Sequence[str]) -> None:
        self._names = {FIRST_USER + i: name for i, name in enumerate(names)}

    def __call__(self, user_id: int) -> str:
        """The name of a local player."""
        return self._names.get(user_id, f"Player {user_id}")

    async def lookup(self, guild_id: int, users: Sequence[int]) -> dict[int, tuple[str, str]]:
        """(name, name) of the local players named with --names (the pictures' names)."""
        return {u: (self._names[u], self._names[u]) for u in users if u in self._names}

    def render(self, text: str) -> str:
        """`text` with every Discord-style mention (<@id>) written as the player's name."""
        return re.sub(r"<@!?(\d+)>", lambda m: self(int(m[1])), text)


def refusal(exc: ServiceError, names: Names) -> str:
    """A refusal in the console's words (a new game's options as command-line flags)."""
    text = exc.render(names)
    if isinstance(exc, NewGameRefused) and exc.option in (
        "players",
        "setup",
        "expansions",
        "automa",
        "automa_level",
        "ai",
        "ai_level",
    ):
        flag = exc.option.replace("_", "-")
        text += f" Use --{flag} {exc.choose}." if exc.choose else f" Change --{flag}."
    return text


#: What `--views` may name ("company" is every company's board, "all" every view there is).
CONSOLE_VIEWS = ("map", "shared", "company", "score", "works", "sites", "irrigation", "full", "all")


class ViewWriter:
    """Writes the chosen views of the game after each announced turn (`--views`), and a
    progress line when a round ends."""

    def __init__(self, service: GameService, out: Path, views: Sequence[str], number: int) -> None:
        self.service = service
        self.out = out
        self.views = list(views)
        #: The game's number, which every file name carries.
        self.number = number
        self.round = 0
        self.turns = 0
        self.written = 0

    async def write(self, version: int) -> list[Path]:
        """Write the views of the game as it is now (the commit at `version`), each named
        after the game and the announcement."""
        known = await self.service.views.board_views(CHANNEL)
        score = await self.service.views.score(CHANNEL)
        wanted = [*known, "score"] if "all" in self.views else self.views
        paths = []
        for view in wanted:
            if view not in (*known, "score"):
                continue  # an expansion's view in a game without it
            companies = [row.company for row in score.rows] if view == "company" else [None]
            for company in companies:
                png = await self.service.views.board_image(CHANNEL, view, company)
                name = picture_name(self.number, version, view, company)
                path = self.out / name
                path.write_bytes(png)
                paths.append(path)
        self.turns += 1
        self.written += len(paths)
        if score.round != self.round or score.over:
            if self.round:
                print(
                    f"round {self.round} done: {self.turns} turns, {self.written} pictures "
                    f"in {self.out}",
                    flush=True,
                )
            self.round, self.turns, self.written = score.round, 0, 0
        return paths


class ConsolePort:
    """Announcements go to the terminal; their images go to a folder."""

    def __init__(self, out: Path | None, names: Names, *, quiet: bool = False) -> None:
        self.out = out
        self.names = names
        self.quiet = quiet
        self.count = 0
        self.files: list[Path] = []
        #: Writes every chosen view after each turn (`--views`), when given.
        self.views: ViewWriter | None = None
        #: The game's number, which every picture's file name carries.
        self.number = 0

    async def post(self, announcement: Announcement) -> int:
        """Print the text, write the images; the message id is a counter."""
        self.count += 1
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            for image in announcement.images:
                # The image's own name ends in its view: "...-map.png", "...-score.png".
                view = image.filename.rsplit("-", 1)[-1].removesuffix(".png")
                path = self.out / picture_name(self.number, announcement.version, view)
                path.write_bytes(image.data)
                self.files.append(path)
            if self.views is not None:
                self.files.extend(await self.views.write(announcement.version))
        if not self.quiet:
            print(f"\n--- {announcement.render(self.names)}")
        return self.count

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Terminal messages have no buttons."""

    async def remind(self, notice: ReminderNotice) -> None:
        """Reminders are printed."""
        print(notice.render(self.names))


def picture_name(number: int, version: int, view: str, company: str | None = None) -> str:
    """A picture's file name: the game's number, then the turn's version (so that the files
    sort in the order of play, and a continued game or a new one never overwrites them)."""
    return f"game-{number}-{version:05d}-{view}{'-' + company if company else ''}.png"


def _actor(user: int) -> Actor:
    return Actor(user, GUILD, CHANNEL, True)


DESCRIPTION = """\
Play Barrage in a terminal, without Discord: several players take turns at one keyboard
(hot seat), or watch a game of random moves played to its end (--autoplay). It is the
same game as on Discord, through the same game service, with the board pictures written
to a folder (--out).

Hot seat: the prompt names who decides; type an option's number or its notation, or a
command (`help` lists them: options, restart, undo, board, company, score, log, quit).
The game is kept in barrage-console.sqlite3 (or --db FILE) after every move, with its
players' names; run the console again to continue it. Options for a new game (--players,
--seed, --setup, --expansions, --automa, --automa-level) that differ from the kept game
are refused: add --new to start a new game in its place, or use another --db FILE.
`quit`, Ctrl-D and a finished game exit with 0, Ctrl-C with 130; the game is saved.

--autoplay plays random legal moves (against a temporary database, or --db FILE) and
prints the final scores: exit status 0 only when the game reached its final scoring (or,
with --turns N, once N turns were played).

--db FILE --replay-of N writes the replay of that database's finished game #N.
A refused option or an unusable --db file exits with 2 and one line on stderr."""


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="barrage-bot console",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        choices=(2, 3, 4),
        help="people and automas of a new game (default 2, or one person and the automas)",
    )
    parser.add_argument("--seed", type=int, default=None, help="a new game's seed (default random)")
    parser.add_argument(
        "--setup", choices=("intro", "full"), default=None, help="a new game's setup (intro)"
    )
    parser.add_argument(
        "--expansions",
        default=None,
        help="a new game's expansions, comma-separated, one of: "
        + "; ".join(f"{c.value} ({c.label})" for c in combinations()[1:]),
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="start a new game even if the --db file holds one (that one is abandoned, and "
        "stays in the file)",
    )
    parser.add_argument(
        "--names",
        default="",
        help="comma-separated player names, kept with a new game (default: Player 1, ...)",
    )
    parser.add_argument(
        "--clock",
        default=None,
        choices=tuple(CLOCKS),
        help="a new game's turn clock: each player's time for a turn, plus a bank of two "
        "turns (default none); the times are kept with the game",
    )
    parser.add_argument(
        "--timeout",
        default=None,
        choices=POLICIES,
        help="when a player's time runs out: wait, ai (the AI plays that turn) or skip "
        "(default wait)",
    )
    parser.add_argument("--out", default=None, help="folder for the board images")
    parser.add_argument(
        "--views",
        default="",
        help="the pictures to write to --out after every turn, comma-separated: map, shared, "
        "company (every company's board), score (the score sheet), an expansion's own view "
        "(works, sites, irrigation), full; or all (default: the turn messages' pictures only)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help=f"SQLite file that keeps the game; run the same command to continue it "
        f"(default: {DEFAULT_DB}; with --autoplay a temporary file)",
    )
    parser.add_argument("--autoplay", action="store_true", help="random legal moves to the end")
    parser.add_argument(
        "--turns",
        type=int,
        metavar="N",
        default=None,
        help="with --autoplay: stop after N committed turns (a quick look; exit status 0)",
    )
    parser.add_argument(
        "--replay",
        nargs="?",
        const="round",
        choices=REPLAY_PACES,
        help="when the game ends, also write its replay (an animated GIF of the map) to --out:"
        " one frame per round (the default) or per turn",
    )
    parser.add_argument(
        "--replay-of",
        type=int,
        metavar="N",
        help="write the replay of the database's finished game #N to --out, then stop",
    )
    parser.add_argument(
        "--automa",
        type=int,
        default=None,
        choices=(0, 1, 2, 3),
        help="automa companies taking the last seats of a new game (people and automas: "
        "--players, default one person and the automas)",
    )
    parser.add_argument(
        "--theme",
        default="light",
        choices=("light", "dark", "colourblind"),
        help="colours of the pictures (colourblind: company colours told apart by every "
        "colour vision)",
    )
    parser.add_argument(
        "--automa-level",
        default=None,
        choices=AUTOMA_LEVELS,
        help="how strong the automas play (default medium)",
    )
    parser.add_argument(
        "--ai",
        type=int,
        default=0,
        choices=(0, 1, 2, 3, 4),
        help="AI players taking the seats after the people (before any automas; --players "
        "counts every seat; with --autoplay the seats may all be computers)",
    )
    parser.add_argument(
        "--ai-level",
        default="casual",
        choices=AI_LEVELS,
        help="how strong the AI players play (default casual)",
    )
    return parser.parse_args(list(argv))


def _fail(message: str) -> int:
    """One line on stderr, like argparse's own refusals, and the same exit status."""
    print(f"barrage-bot console: error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str], *, clock: Clock = system_clock) -> int:
    """Run the console; see the package's docstring for the exit statuses. `clock`: the
    time the game's clock reads (tests drive expiries with their own)."""
    args = _parse(argv)
    # What was given for a new game (to compare with a kept one), then the defaults.
    args.given = {flag: value for flag, value in new_game_flags(args).items() if value is not None}
    args.automa = args.automa or 0
    args.automa_level = args.automa_level or "medium"
    args.setup = args.setup or "intro"
    computers = args.automa + args.ai
    args.total = args.players or max(2, computers + 1)
    # Autoplay may seat computers only (an AI against an automa); hot seat keeps a person.
    args.computers_only = bool(args.autoplay and args.ai and computers == args.total)
    try:
        args.expansions = GameService.check_new_game(
            players=args.total,
            setup=args.setup,
            expansions=(args.expansions or "").split(","),
            automa=args.automa,
            automa_level=args.automa_level,
            ai=args.ai,
            ai_level=args.ai_level,
            computers_only=args.computers_only,
        )
    except ServiceError as exc:
        return _fail(refusal(exc, Names([])))
    if args.turns is not None and (not args.autoplay or args.turns < 1):
        return _fail("--turns N stops an --autoplay game after N turns (N at least 1)")
    args.views = [v.strip().lower() for v in args.views.split(",") if v.strip()]
    unknown = [v for v in args.views if v not in CONSOLE_VIEWS]
    if unknown:
        return _fail(f"--views: no view {unknown[0]!r}; choose from {', '.join(CONSOLE_VIEWS)}")
    if args.views and not args.out:
        return _fail("--views writes pictures: give the folder with --out")
    args.names = [n.strip() for n in args.names.split(",") if n.strip()]
    if len(args.names) > 4:
        return _fail(f"--names lists {len(args.names)} names; a game has at most 4 players")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    with tempfile.TemporaryDirectory(prefix="barrage-console-") as tmp:
        if args.db:
            db, kept = Path(args.db), True
        elif args.autoplay:
            db, kept = Path(tmp) / "console.sqlite3", False
        else:
            db, kept = Path(DEFAULT_DB), True
        try:
            return asyncio.run(_run(args, db, clock))
        except DatabaseUnusable as exc:
            return _fail(f"{exc}; choose another file with --db")
        except NotThisGame as exc:
            return _fail(str(exc))
        except KeyboardInterrupt:
            where = f": the game is saved in {db}, run the same command to continue" if kept else ""
            print(f"\nStopped{where}.")
            return 130


async def _run(args: argparse.Namespace, db: Path, clock: Clock = system_clock) -> int:
    store = await SqliteStore.open(db, clock=clock)
    pool = RendererPool(kind="thread", theme=args.theme)
    out = Path(args.out) if args.out else None
    port = ConsolePort(out, Names(args.names), quiet=args.autoplay)
    try:
        # The console lands the AI's steps itself, between the people's moves (`_deciding`).
        config = ServiceConfig(extra={"ai_manual": True})
        # The pictures name the local players as the game keeps them (`port.names`).
        service = GameService(
            store,
            clock=clock,
            renderer_pool=pool,
            config=config,
            people_namer=lambda guild, users: port.names.lookup(guild, users),
        )
        if args.replay_of is not None:
            return await _write_replay(service, args.replay_of, args.replay or "round", out)
        sender = OutboxSender(store, port, clock, service=service)
        session = await _open(service, sender, port, args, db)
        port.names, port.number = session.names, session.number
        port.views = (
            ViewWriter(service, out, args.views, session.number) if args.views and out else None
        )
        await sender.run_once()
        if args.autoplay:
            played = await _autoplay(service, sender, session, args.seed, args.turns)
            if not played:
                print(f"stopped after {args.turns} turns; images written: {len(port.files)}")
                return 0
            return await _finish(service, session, port, args.replay, out)
        finished = await _hot_seat(service, sender, session, LineReader(), out)
        if finished:
            return await _finish(service, session, port, args.replay, out)
        print(f"\nGame #{session.game_id} is saved in {db}; run the same command to continue it.")
        return 0
    finally:
        pool.close()
        if "service" in locals():
            service.thinker.close()
        await store.close()


@dataclass
class Session:
    """The console's game: which one, how many local players, what they are called."""

    game_id: int
    #: The game's number in the database (#1, #2...), as players and file names know it.
    number: int
    players: int
    names: Names

    @property
    def users(self) -> range:
        """The local players' user ids."""
        return range(FIRST_USER, FIRST_USER + self.players)


class NotThisGame(Exception):
    """The database holds a game that the options given for a new one do not describe."""


def new_game_flags(args: argparse.Namespace) -> dict[str, object]:
    """The options of a new game by their flag, as given (None when left out)."""
    return {
        "--players": args.players,
        "--seed": args.seed,
        "--setup": args.setup,
        "--expansions": args.expansions,
        "--automa": args.automa,
        "--automa-level": args.automa_level,
        "--clock": args.clock,
        "--timeout": args.timeout,
    }


def kept_flags(existing: StoredGame) -> dict[str, object]:
    """A kept game's options as the flags that would have made it."""
    options = existing.options
    levels = list(options.get("automa", []))
    return {
        "--players": int(options.get("players", len(existing.seats))),
        "--seed": existing.seed,
        "--setup": options.get("setup", "intro"),
        "--expansions": tuple(sorted(options.get("expansions", []))),
        "--automa": len(levels),
        "--automa-level": AUTOMA_LEVELS[levels[0]] if levels else None,
        "--clock": options.get("clock", "none"),
        "--timeout": options.get("timeout", "wait") if options.get("clock") else None,
    }


def differing(args: argparse.Namespace, existing: StoredGame) -> list[str]:
    """The new-game options given that the kept game does not have, as 'flag value'."""
    kept = kept_flags(existing)
    found = []
    for flag, value in args.given.items():
        want: object = value
        if flag == "--expansions":
            want = tuple(sorted(args.expansions))
        if want != kept[flag]:
            shown = ",".join(args.expansions) if flag == "--expansions" else value
            found.append(f"{flag} {shown}".rstrip())
    return found


def describe(existing: StoredGame) -> str:
    """A kept game in a few words: '#1 (3 players, intro setup, 2 automas)'."""
    kept = kept_flags(existing)
    automa = len(existing.options.get("automa", []))
    expansions = ", ".join(sorted(existing.options.get("expansions", [])))
    parts = [f"{kept['--players']} players", f"{kept['--setup']} setup"]
    if expansions:
        parts.append(expansions)
    if automa:
        parts.append(f"{automa} {kept['--automa-level']} automa{'s' if automa > 1 else ''}")
    else:
        parts.append("no automas")
    return f"game #{existing.number} ({', '.join(parts)})"


async def _open(
    service: GameService,
    sender: OutboxSender,
    port: ConsolePort,
    args: argparse.Namespace,
    db: Path,
) -> Session:
    """The active game in the database, or a new one started now.

    Options for a new game that the kept one does not have are refused (NotThisGame), saying
    how to start one: --new (the kept game is abandoned) or another --db file.
    """
    existing = await service.store.active_game(CHANNEL)
    if existing is not None and args.new:
        port.names = Names(existing.options.get("names", []))  # who abandons it
        await service.moderation.abandon(_actor(existing.creator_id))
        await sender.run_once()
        print(f"(Game #{existing.number} stays in {db}, abandoned.)")
        existing = None
    if existing is not None:
        wrong = differing(args, existing)
        if wrong:
            raise NotThisGame(
                f"{db} holds {describe(existing)}, which {' and '.join(wrong)} would not "
                f"change: leave {'them' if len(wrong) > 1 else 'it'} out to continue that "
                "game, add --new to start a new game in its place (the kept one is "
                "abandoned), or give another file with --db FILE to keep both"
            )
        players = int(existing.options.get("players", len(existing.seats)))
        people = (
            players - len(existing.options.get("automa", [])) - len(existing.options.get("ai", []))
        )
        kept_names = list(existing.options.get("names", []))
        session = Session(existing.id, existing.number, people, Names(args.names or kept_names))
        await _seat_everyone(service, session)
        if not args.autoplay:
            print(f"Continuing game #{existing.number} ({players} players) from {db}.")
        return session
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    people = args.total - args.automa - args.ai
    if len(args.names) > people:
        raise NotThisGame(
            f"--names lists {len(args.names)} names for {people} "
            f"{'person' if people == 1 else 'people'} (the automas are named by their company)"
        )
    outcome = await service.lobby.create_game(
        _actor(FIRST_USER),
        players=args.total,
        setup=args.setup,
        seed=seed,
        expansions=args.expansions,
        automa=args.automa,
        automa_level=args.automa_level,
        ai=args.ai,
        ai_level=args.ai_level,
        computers_only=args.computers_only,
        names=args.names,
        clock=args.clock or "none",
        timeout=args.timeout or "wait",
    )
    number = (await service.store.get_game(outcome.game_id)).number
    session = Session(outcome.game_id, number, people, Names(args.names))
    await _seat_everyone(service, session)
    if not args.autoplay:
        print(f"New game #{number}, saved in {db} after every move.")
    return session


async def _seat_everyone(service: GameService, session: Session) -> None:
    """Join every local player and start the game (each step only if not yet done)."""
    if not session.players:
        # Computers only: a game the console watches (its creator holds no seat).
        with contextlib.suppress(LobbyError):
            await service.lobby.start(_actor(FIRST_USER))
        return
    for user in session.users[1:]:
        with contextlib.suppress(LobbyError):  # joined already, or the game has started
            await service.lobby.join(_actor(user))
    with contextlib.suppress(LobbyError):  # started already
        await service.lobby.start(_actor(FIRST_USER))


async def _deciding(service: GameService, session: Session, sender: OutboxSender) -> int | None:
    """The first local player with a decision, or None when the game is over."""
    meta = await service.store.active_game(CHANNEL)
    if meta is None:
        return None
    # A player whose time ran out (a clocked game: the times kept with it), then the AI
    # seats' steps (in a worker process), until a person must decide.
    if await ClockRunner(service, service.clock, instance="console").run_once():
        await sender.run_once()
    if await service.computers.play_computers(meta.id):
        await sender.run_once()
    meta = await service.store.active_game(CHANNEL)
    if meta is None:
        return None
    for user in session.users:
        panel = await service.views.panel(_actor(user))
        if panel.options:
            return user
    raise RuntimeError("nobody must decide, yet the game is not over")


async def _autoplay(
    service: GameService,
    sender: OutboxSender,
    session: Session,
    seed: int | None,
    turns: int | None = None,
) -> bool:
    """Random legal moves until the game ends (True) or `turns` turns were committed."""
    rng = random.Random(seed)
    committed = 0
    for _ in range(100_000):
        user = await _deciding(service, session, sender)
        if user is None:
            return True
        if turns is not None and committed >= turns:
            return False
        panel = await service.views.panel(_actor(user))
        notation = rng.choice(panel.options).notation
        outcome = await service.moves.play(_actor(user), [notation], expected_version=panel.version)
        if outcome.committed:
            committed += 1
            await sender.run_once()
    raise RuntimeError("the game did not end")


class Refusal(Exception):
    """A console line that means nothing; the message says what would."""


async def _hot_seat(
    service: GameService,
    sender: OutboxSender,
    session: Session,
    reader: LineReader,
    out: Path | None,
) -> bool:
    """Play until the game ends (True) or the players leave (False)."""
    print("Type 'help' for the commands.")
    show = True
    while True:
        user = await _deciding(service, session, sender)
        if user is None:
            return True
        panel = await service.views.panel(_actor(user))
        if show:
            _show(panel, session.names(user))
        line = await reader.readline(f"{session.names(user)}> ")
        if line is None:  # Ctrl-D
            print()
            return False
        words = line.split()
        show = False
        if not words:
            continue
        try:
            command = words[0].lower()
            if command in ("quit", "exit"):
                return False
            show = await _command(service, sender, session, user, panel, line, out)
        except Refusal as exc:
            print(f"{exc}")
        except InvalidMove as exc:
            print(f"refused: {exc.render(session.names)} (type 'help' for the commands)")
        except ServiceError as exc:
            print(f"refused: {refusal(exc, session.names)}")


def _show(panel: PanelView, name: str) -> None:
    """The decision: whose, what so far, and the numbered options."""
    company = f", {company_name(panel.company)}" if panel.company else ""
    print(f"\n[{name}{company}] {panel.prompt}")
    for line in panel.done:
        print(f"  done: {line}")
    for i, option in enumerate(panel.options, 1):
        print(f"  {i:2d}. {option.label}   [{option.notation}]")


async def _command(
    service: GameService,
    sender: OutboxSender,
    session: Session,
    user: int,
    panel: PanelView,
    line: str,
    out: Path | None,
) -> bool:
    """Carry out one line; True when the decision should be shown again."""
    words = line.split()
    command, rest = words[0].lower(), words[1:]
    names = session.names
    if command == "help":
        print(HELP)
        return False
    if command == "options":
        return True
    if command == "restart":
        print((await service.moves.restart_turn(_actor(user))).render(names))
        return True
    if command == "undo":
        print((await _undo(service, session, panel)).render(names))
        await sender.run_once()
        return True
    if command == "score":
        print((await service.views.score(CHANNEL)).text(names))
        return False
    if command == "clock":
        print(
            "\n".join(line.render(names) for line in await service.timekeeping.clock_lines(CHANNEL))
        )
        return False
    if command == "log":
        count = _count(rest)
        lines = await service.views.log_lines(CHANNEL, count)
        print(names.render("\n".join(lines)) if lines else "(nothing in the log yet)")
        return False
    if command == "company":
        print(await service.views.company_summary(CHANNEL, " ".join(rest) or None))
        return False
    if command == "preview":
        view = rest[0] if rest else "map"
        png = await service.views.preview_image(_actor(user), view)
        path = (out or Path(".")) / f"game-{session.number}-preview-{view}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        print(f"wrote {path}")
        return False
    if command == "board":
        view = rest[0] if rest else "map"
        company = rest[1] if len(rest) > 1 else None
        png = await service.views.board_image(CHANNEL, view, company)
        named = f"-{company.lower()}" if company else ""
        path = (out or Path(".")) / f"game-{session.number}-board-{view}{named}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        print(f"wrote {path}")
        return False
    outcome = await service.moves.play(
        _actor(user),
        _notations(line, panel.options),
        expected_version=panel.version,
    )
    if outcome.committed:
        await sender.run_once()
    return True


async def _undo(service: GameService, session: Session, panel: PanelView) -> Outcome:
    """Undo the last confirmed turn, as the local player who confirmed it (not the player
    to move); in the middle of a turn, `restart` is what takes moves back."""
    if panel.can_restart:
        raise Refusal(
            "Your turn is in progress: type 'restart' to take back its moves. 'undo' takes "
            "back a confirmed turn, before the next player acts."
        )
    committer = await service.moves.last_turn_by(_actor(panel.user_id))
    if committer is None or committer not in session.users:
        raise Refusal(
            "There is no confirmed turn to undo now: the last step was the start of the "
            "game, a choice, or a turn already taken back."
        )
    return await service.moves.undo(_actor(committer))


def _count(words: Sequence[str]) -> int:
    """The N of `log N`: a whole number of lines, 20 when left out."""
    if not words:
        return 20
    if len(words) > 1 or not words[0].isdecimal() or not 1 <= int(words[0]) <= MAX_LOG_LINES:
        raise Refusal(
            f"'log' takes a number of lines from 1 to {MAX_LOG_LINES}, like 'log 20'"
            f" (not '{' '.join(words)[:40]}')."
        )
    return int(words[0])


def _notations(line: str, options: Sequence[OptionView]) -> list[str]:
    """The notations a line names: one option number, or notations separated by ';'."""
    parts = [part.strip() for part in line.split(";") if part.strip()]
    numbers = [part for part in parts if part.lstrip("+-").isdecimal()]
    if not numbers:
        return parts
    if len(parts) > 1:
        raise Refusal(
            "Option numbers work one at a time (the list changes after each answer); "
            "in a list separated by ';' type the notations shown in [brackets]."
        )
    number = int(numbers[0])
    if not 1 <= number <= len(options):
        choose = f"1 to {len(options)}" if len(options) > 1 else "1"
        raise Refusal(f"There is no option {number}: choose {choose}, or type a notation.")
    return [options[number - 1].notation]


async def _finish(
    service: GameService, session: Session, port: ConsolePort, replay: str | None, out: Path | None
) -> int:
    """The final scores, and the replay when asked for."""
    status = await _report(service, session, port)
    if status == 0 and replay is not None:
        number = (await service.store.get_game(session.game_id)).number
        return await _write_replay(service, number, replay, out)
    return status


async def _write_replay(service: GameService, number: int, pace: str, out: Path | None) -> int:
    """Write the replay of finished game #number as a GIF; 0 when it was written."""
    try:
        game = await service.records.archived_game(GUILD, number)
        gif = await service.records.replay(game, pace=pace)
    except ServiceError as exc:
        return _fail(f"no replay: {exc}")
    folder = out or Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game-{number}-replay.gif"
    path.write_bytes(gif)
    print(f"wrote {path} ({len(gif) // 1024} KB, one frame per {pace})")
    return 0


async def _report(service: GameService, session: Session, port: ConsolePort) -> int:
    """The final scores; 0 when the game reached its final scoring."""
    try:
        meta = await service.store.get_game(session.game_id)
        score = await service.views.score(session.game_id, by_game_id=True)
    except (ServiceError, StoreError) as exc:
        print(f"no scores: {exc}", file=sys.stderr)
        return 1
    print(
        f"game #{session.game_id} ({meta.status}), round {score.round}; "
        f"images written: {len(port.files)}"
    )
    print(score.text(session.names))
    return 0 if score.over and meta.status == "finished" else 1
