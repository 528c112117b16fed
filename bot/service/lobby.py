"""A part of the service, the lobby: creating a game (and checking its options), joining,
leaving, adding and removing computer seats, starting.

Owns: the lobby's records and refusals; it works at the desk (bot/service/core.py).

The lobby lives in the log: a game exists in the store from creation (status "active",
the creator in seat 0); `join` / `leave` records list who is in, and the store's seats are
kept equal to that list (`Store.set_seats`) so "my games" finds lobbies too. `start` writes
the seats in join order and the first commit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from bot.rules import RuleError, SetupError, new_game
from bot.rules.automa.seats import level_name, parse_level
from bot.rules.catalogue import CATALOGUE, SETUP_NAMES
from bot.rules.content import company_name, load_content
from bot.rules.engine import ENGINE_VERSION
from bot.rules.setup import check_options
from bot.rules.state import GameOptions
from bot.service.clock import CLOCKS, DEFAULT_POLICY, POLICIES, clock_text
from bot.service.commit import Landing, replace_loaded
from bot.service.computer import parse_ai_level
from bot.service.core import Desk
from bot.service.errors import GameMovedOn, LobbyError, NewGameRefused, OtherGame
from bot.service.faults import refuse_store_faults
from bot.service.loading import Loaded, engine_options
from bot.service.records import (
    MAX_AIS,
    MAX_AUTOMAS,
    MAX_NAME,
    MAX_PLAYERS,
    AiAddRecord,
    AiRemoveRecord,
    AutomaAddRecord,
    AutomaRemoveRecord,
    Cause,
    JoinRecord,
    LeaveRecord,
    LogRecord,
    StartRecord,
)
from bot.service.types import Actor, Line, Outcome, OutcomeKind, UserRef
from bot.store import USER_THEMES, ChannelBusyError, StaleVersionError

SETUPS = ("intro", "full")


@refuse_store_faults
class Lobby:
    """Create, join, leave and start a game."""

    def __init__(self, desk: Desk) -> None:
        """The lobby's commands at `desk` (loading, checking and landing games)."""
        self.desk = desk
        self.store = desk.store

    async def create_game(
        self,
        actor: Actor,
        *,
        players: int,
        setup: str = "intro",
        expansions: Sequence[str] = (),
        seed: int | None = None,
        map: str = "base",
        reminder_hours: int | None = None,
        automa: int = 0,
        automa_level: str | int = "medium",
        ai: int = 0,
        ai_level: str = "casual",
        hints: bool = False,
        computers_only: bool = False,
        names: Sequence[str] = (),
        theme: str | None = None,
        clock: str = "none",
        timeout: str = DEFAULT_POLICY,
    ) -> Outcome:
        """Open a lobby in the actor's channel for up to `players` companies (people, `ai`
        AI players of `ai_level` and `automa` automa companies of `automa_level`); the
        creator joins, unless the seats are all computers' (`computers_only`: the console's
        autoplay, never a Discord game).

        `names` are the people's names by seat, kept with the game for a client that has no
        accounts of its own (the console's local players); Discord names its users itself.
        ``theme``: the colours of the pictures posted in the channel (None: the server's).
        ``clock``: each player's time for a turn (bot/service/clock.py), ``timeout``: what
        happens when it runs out.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**62)
        expansions = self.check_new_game(
            players=players,
            setup=setup,
            expansions=expansions,
            map=map,
            automa=automa,
            automa_level=automa_level,
            ai=ai,
            ai_level=ai_level,
            computers_only=computers_only,
        )
        levels = [parse_level(automa_level)] * automa
        ai_levels = [parse_ai_level(ai_level)] * ai
        # An expansion's own board comes with it: nobody has to name it.
        map = map_for(expansions, map)
        try:
            new_game(engine_options_for(players, setup, map, expansions, seed, levels))
            if computers_only and ai + automa != players:
                raise ValueError(f"{players - ai - automa} seats would have nobody to play them")
        except (SetupError, RuleError, ValueError, KeyError) as exc:
            raise LobbyError(f"These options cannot start a game: {exc}") from None
        if reminder_hours is not None and reminder_hours <= 0:
            raise LobbyError("Reminder hours must be a positive number of hours.")
        if clock not in CLOCKS:
            raise LobbyError(
                f"There is no clock '{str(clock)[:20]}'; choose one of {', '.join(CLOCKS)}."
            )
        if timeout not in POLICIES:
            raise LobbyError(
                f"There is no timeout '{str(timeout)[:20]}'; choose one of {', '.join(POLICIES)}."
            )
        if theme is not None and theme not in USER_THEMES:
            raise LobbyError(
                f"There is no picture theme '{str(theme)[:40]}'; choose one of "
                f"{', '.join(USER_THEMES)}."
            )
        options = {
            "players": players,
            "setup": setup,
            "map": map,
            "expansions": list(expansions),
            "reminder_hours": reminder_hours,
        }
        if levels:
            options["automa"] = levels
        if ai_levels:
            options["ai"] = ai_levels
        # The AI's own seed (never the setup's: that one fixes the hidden draws).
        options["ai_seed"] = random.SystemRandom().randrange(2**62)
        if hints:
            options["hints"] = True
        if computers_only:
            options["computers_only"] = True
        if theme is not None:
            options["theme"] = theme
        if clock != "none":
            options["clock"] = clock
            options["timeout"] = timeout
        if names:
            if len(names) > MAX_PLAYERS or not all(
                isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names
            ):
                raise LobbyError(
                    f"Give at most {MAX_PLAYERS} names, each 1 to {MAX_NAME} characters long."
                )
            options["names"] = list(names)
        try:
            meta = await self.store.create_game(
                guild_id=actor.guild_id,
                channel_id=actor.channel_id,
                creator_id=actor.user_id,
                options=options,
                seed=seed,
                engine_version=ENGINE_VERSION,
                seats=[] if computers_only else [actor.user_id],
            )
        except ChannelBusyError as busy:
            raise await self.desk.channel_busy(
                busy, "finish or abandon it first, or use another channel or thread."
            ) from None
        taken = len(levels) + len(ai_levels) + (0 if computers_only else 1)
        line = Line.of(
            f"New Barrage game #{meta.number}: {players} players, {setup} setup"
            f"{expansions_text(expansions)}{automa_text(levels)}{ai_text(ai_levels)}"
            f"{', with hints' if hints else ''}{clock_text(clock, timeout)}. ",
            *(() if computers_only else (UserRef(actor.user_id), " joined ")),
            f"({taken}/{players}). Join it, then the creator starts it.",
        )
        return Outcome(OutcomeKind.CREATED, meta.id, meta.version, (line,), public=True)

    @staticmethod
    def check_new_game(
        *,
        players: int,
        setup: str,
        expansions: Sequence[str] = (),
        map: str = "base",
        automa: int = 0,
        automa_level: str | int = "medium",
        ai: int = 0,
        ai_level: str = "casual",
        computers_only: bool = False,
    ) -> tuple[str, ...]:
        """The expansion names to store (known, each once), or NewGameRefused saying what is
        wrong and which option to change.

        Cheap and without side effects, so a caller can check before it opens a thread. The
        refusals follow the engine's own (an expansion with the wrong setup or map, two
        expansions that each replace the board), worded without any command's syntax.
        """
        if setup not in SETUPS:
            raise NewGameRefused(
                f"There is no setup '{setup}': the setups are {' and '.join(SETUPS)}.", "setup"
            )
        if not 2 <= players <= 4:
            raise NewGameRefused(f"A game has 2 to 4 players, not {players}.", "players")
        if not 0 <= automa <= MAX_AUTOMAS:
            raise NewGameRefused(
                f"A game has 0 to {MAX_AUTOMAS} automas, not {automa}.", "automa", "1"
            )
        most = MAX_AIS if computers_only else MAX_AIS - 1  # a person keeps a seat
        if not 0 <= ai <= most:
            raise NewGameRefused(f"A game has 0 to {most} AI players, not {ai}.", "ai", "1")
        if ai and automa + ai >= players and not computers_only:
            raise NewGameRefused(
                f"With {ai} AI players and {automa} automas a game of {players} players has no "
                "seat for a person: choose more players or fewer computers (people, AI "
                "players and automas are 2 to 4 in all).",
                "ai",
                str(max(0, players - 1 - automa)),
            )
        if automa + ai > players or (automa >= players and not computers_only):
            raise NewGameRefused(
                f"With {automa} automas a game of {players} players has no seat for a person: "
                f"choose more players or fewer automas (people and automas are 2 to 4).",
                "automa",
                str(players - 1),
            )
        try:
            parse_ai_level(ai_level)
        except ValueError as exc:
            raise NewGameRefused(f"{exc}.", "ai_level", "casual") from None
        try:
            levels = (parse_level(automa_level),) * automa
        except ValueError as exc:
            raise NewGameRefused(f"{exc}.", "automa_level", "medium") from None
        names = tuple(dict.fromkeys(e.strip().lower() for e in expansions if e.strip()))
        known = sorted(CATALOGUE.expansions)
        for name in names:
            if name not in CATALOGUE:
                raise NewGameRefused(
                    f"There is no expansion '{name}' (known: {', '.join(known) or 'none'}).",
                    "expansions",
                )
        options = GameOptions(
            players=players, setup=setup, map=map_for(names, map), expansions=names, automa=levels
        )
        refused = _new_game_refusal(options)
        if refused is not None:
            raise refused
        if map == "five_player" and players != 4:
            raise NewGameRefused(
                f"The 4/5-player board is played by 4 players, not {players}.", "map", "base"
            )
        try:
            check_options(options, load_content())
        except SetupError as exc:
            raise LobbyError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
        return names

    async def _lobby(self, actor: Actor, expected_game: int | None) -> Loaded:
        """The channel's game for a lobby action (a lobby button names its game)."""
        try:
            return await self.desk.here(actor, expected_game)
        except OtherGame:
            raise OtherGame(
                "Those lobby buttons belong to another game; use the newest lobby message."
            ) from None

    async def join(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Join the lobby in the actor's channel."""
        return await self._lobby_change(actor, "join", expected_game)

    async def leave(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Leave the lobby (the creator cannot: abandon the lobby instead)."""
        return await self._lobby_change(actor, "leave", expected_game)

    async def add_automa(
        self, actor: Actor, level: str | int | None = None, *, expected_game: int | None = None
    ) -> Outcome:
        """Seat one more automa company in the lobby (creator or manager); by default of the
        level of the lobby's last automa, else Medium."""
        return await self._automa_change(actor, "automa_add", level, expected_game)

    async def remove_automa(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Take the lobby's last automa out (creator or manager)."""
        return await self._automa_change(actor, "automa_remove", None, expected_game)

    async def _automa_change(
        self,
        actor: Actor,
        kind: Literal["automa_add", "automa_remove"],
        level: str | int | None,
        expected_game: int | None,
    ) -> Outcome:
        async with self.desk.locks[actor.channel_id]:
            loaded = await self._lobby(actor, expected_game)
            size = self._computers_lobby(loaded, actor, "automa")
            record: AutomaAddRecord | AutomaRemoveRecord
            if kind == "automa_add":
                self._computer_seat_free(loaded, size, loaded.automa, MAX_AUTOMAS, "automa")
                default = loaded.automa[-1] if loaded.automa else 1
                try:
                    new_level = default if level is None else parse_level(level)
                except ValueError as exc:
                    raise LobbyError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
                reason = _new_game_refusal(
                    engine_options(
                        loaded.meta, len(loaded.lobby), [*loaded.automa, new_level], len(loaded.ai)
                    )
                )
                if reason is not None:
                    raise LobbyError(str(reason))
                record = AutomaAddRecord(actor.user_id, new_level)
                automa = [*loaded.automa, new_level]
                news = f"An automa ({level_name(new_level)}) joined"
            else:
                if not loaded.automa:
                    raise LobbyError("There is no automa in this lobby to remove.")
                record = AutomaRemoveRecord(actor.user_id)
                automa = loaded.automa[:-1]
                news = f"An automa ({level_name(loaded.automa[-1])}) left"
            version = await self.desk.append(loaded, [record])
            taken = len(loaded.lobby) + len(automa) + len(loaded.ai)
            line = Line.of(f"{news} game #{loaded.meta.number} ({taken}/{size}).")
            outcome_kind = OutcomeKind.JOINED if kind == "automa_add" else OutcomeKind.LEFT
            return Outcome(outcome_kind, loaded.meta.id, version, (line,), public=True)

    def _computers_lobby(self, loaded: Loaded, actor: Actor, noun: str) -> int:
        """The lobby's size, when the actor may seat computers (`noun`s) in it now."""
        if loaded.started:
            raise LobbyError(f"The game has already started; {noun}s join before the start.")
        self.desk.may_manage(loaded, actor, f"add or remove {noun}s")
        return int(loaded.options.get("players", 4))

    @staticmethod
    def _computer_seat_free(
        loaded: Loaded, size: int, seated: Sequence[object], most: int, noun: str
    ) -> None:
        """A seat for one more computer (`noun`), else LobbyError saying why not."""
        if len(seated) >= most:
            raise LobbyError(f"A game has at most {most} {noun}s.")
        if _taken(loaded) >= size:
            raise LobbyError(
                f"The game is full ({size} of {size}); there is no seat for an {noun}."
            )

    async def add_ai(
        self, actor: Actor, level: str | None = None, *, expected_game: int | None = None
    ) -> Outcome:
        """Seat one more AI player in the lobby (creator or manager); by default of the level
        of the lobby's last AI player, else casual."""
        async with self.desk.locks[actor.channel_id]:
            loaded = await self._lobby(actor, expected_game)
            size = self._computers_lobby(loaded, actor, "AI player")
            self._computer_seat_free(loaded, size, loaded.ai, MAX_AIS - 1, "AI player")
            try:
                new_level = parse_ai_level(level or (loaded.ai[-1] if loaded.ai else "casual"))
            except ValueError as exc:
                raise LobbyError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
            record: AiAddRecord = AiAddRecord(actor.user_id, new_level)
            version = await self.desk.append(loaded, [record])
            line = Line.of(
                f"An AI player ({new_level}) joined game #{loaded.meta.number} "
                f"({_taken(loaded) + 1}/{size})."
            )
            return Outcome(OutcomeKind.JOINED, loaded.meta.id, version, (line,), public=True)

    async def remove_ai(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Take the lobby's last AI player out (creator or manager)."""
        async with self.desk.locks[actor.channel_id]:
            loaded = await self._lobby(actor, expected_game)
            self._computers_lobby(loaded, actor, "AI player")
            if not loaded.ai:
                raise LobbyError("There is no AI player in this lobby to remove.")
            record: AiRemoveRecord = AiRemoveRecord(actor.user_id)
            version = await self.desk.append(loaded, [record])
            size = int(loaded.options.get("players", 4))
            line = Line.of(
                f"An AI player ({loaded.ai[-1]}) left game #{loaded.meta.number} "
                f"({_taken(loaded) - 1}/{size})."
            )
            return Outcome(OutcomeKind.LEFT, loaded.meta.id, version, (line,), public=True)

    async def lobby_ais(self, game_id: int) -> list[str]:
        """The levels of the AI players in a game's lobby (or seated)."""
        return list((await self.desk.reload(game_id)).ai)

    async def lobby_automas(self, game_id: int) -> list[str]:
        """The levels of the automas in a game's lobby (or seated), by name."""
        return [level_name(level) for level in (await self.desk.reload(game_id)).automa]

    async def _lobby_change(
        self, actor: Actor, kind: Literal["join", "leave"], expected_game: int | None
    ) -> Outcome:
        for _ in range(5):  # a race with another join only means: read again and retry
            loaded = await self._lobby(actor, expected_game)
            if loaded.started:
                raise LobbyError("The game has already started; ask for a seat replacement.")
            size = int(loaded.options.get("players", 4))
            if kind == "join":
                if actor.user_id in loaded.lobby:
                    raise LobbyError("You have already joined this game.")
                if _taken(loaded) >= size:
                    raise LobbyError(
                        f"The game is full ({size} of {size}"
                        + (", computers included" if loaded.automa or loaded.ai else "")
                        + ")."
                    )
                lobby = [*loaded.lobby, actor.user_id]
            else:
                if actor.user_id not in loaded.lobby:
                    raise LobbyError("You are not in this game's lobby.")
                if actor.user_id == loaded.meta.creator_id:
                    raise LobbyError("The creator cannot leave; abandon the game instead.")
                lobby = [u for u in loaded.lobby if u != actor.user_id]
            record = JoinRecord(actor.user_id) if kind == "join" else LeaveRecord(actor.user_id)
            try:
                version = await self.store.append(
                    loaded.meta.id, loaded.version, [record.to_json()]
                )
            except StaleVersionError:
                continue
            await self.store.set_seats(loaded.meta.id, lobby)
            verb = "joined" if kind == "join" else "left"
            taken = len(lobby) + len(loaded.automa) + len(loaded.ai)
            line = Line.of(
                UserRef(actor.user_id), f" {verb} game #{loaded.meta.number} ({taken}/{size})."
            )
            outcome_kind = OutcomeKind.JOINED if kind == "join" else OutcomeKind.LEFT
            return Outcome(outcome_kind, loaded.meta.id, version, (line,), public=True)
        raise GameMovedOn("The lobby is busy; try again.")

    async def start(self, actor: Actor, *, expected_game: int | None = None) -> Outcome:
        """Start the lobby's game (creator or manager): seats in join order, then setup."""
        async with self.desk.locks[actor.channel_id]:
            loaded = await self._lobby(actor, expected_game)
            self.desk.may_manage(loaded, actor, "start the game")
            if loaded.started:
                raise LobbyError("The game has already started.")
            automa = list(loaded.automa)
            ai = list(loaded.ai)
            if _taken(loaded) < 2:
                raise LobbyError(
                    f"Not enough players: {len(loaded.lobby)} joined, at least 2 are needed "
                    "(add an AI player or an automa to play alone)."
                )
            seats = list(loaded.lobby)
            if loaded.meta.options.get("map") == "five_player" and _taken(loaded) != 4:
                raise LobbyError(
                    f"The 4/5-player board is played by 4 players; {_taken(loaded)} have joined."
                )
            game = new_game(engine_options(loaded.meta, len(seats), automa, len(ai)))
            records: list[LogRecord] = [StartRecord(tuple(seats), tuple(ai), tuple(automa))]
            started = replace_loaded(loaded, seats)
            started.game = game
            names = expansions_text(loaded.options.get("expansions", ()))
            parts: list[str | UserRef] = [f"The game begins{names}. Seats: "]
            for i, user in enumerate(seats):
                parts.extend([", " if i else "", f"{i + 1}. ", UserRef(user)])
                parts.append(f" ({company_name(started.company_of_seat(i))})")
            for i, ai_level in enumerate(ai, len(seats)):
                parts.append(
                    f", {i + 1}. {company_name(started.company_of_seat(i))} (AI, {ai_level})"
                )
            for i, level in enumerate(automa, len(seats) + len(ai)):
                parts.append(
                    f", {i + 1}. {company_name(started.company_of_seat(i))} "
                    f"(automa, {level_name(level)})"
                )
            landing = Landing(
                user=actor.user_id,
                records=tuple(records),
                cause=Cause.START,
                header=(Line.of(*parts, "."),),
                kind=OutcomeKind.STARTED,
            )
            return await self.desk.land(started, game, (), landing)


def expansions_text(names: Sequence[str]) -> str:
    """' with <display names>' for a lobby message ('' without expansions)."""
    if not names:
        return ""
    return " with " + " and ".join(
        CATALOGUE.display_name(n) if n in CATALOGUE else n for n in names
    )


#: The boards as players call them.
BOARD_NAMES = {"base": "standard", "five_player": "4/5-player"}


def _new_game_refusal(probe: GameOptions) -> NewGameRefused | None:
    """Why these options' expansions cannot be played so, with the one option to change;
    None when they can. From the catalogue's declarations (setups, own board, exclusions),
    worded without any command's syntax; combinations first, so that two expansions that
    each bring a board hear that they cannot be played together."""
    names = CATALOGUE.hook_order(probe.expansions)
    for name in names:
        info = CATALOGUE.info(name)
        for other in names:
            if other != name and (other in info.excludes or name in CATALOGUE.info(other).excludes):
                return NewGameRefused(
                    f"{info.display_name} and {CATALOGUE.display_name(other)} cannot be played "
                    "together.",
                    "expansions",
                )
    for name in names:
        info = CATALOGUE.info(name)
        if probe.setup not in info.setups:
            wanted = info.setups[0]
            return NewGameRefused(
                f"{info.display_name} is played with the {SETUP_NAMES[wanted]} only, not with "
                f"the {SETUP_NAMES.get(probe.setup, probe.setup)}.",
                "setup",
                wanted,
            )
        if info.map and probe.map != info.map:
            board = BOARD_NAMES.get(probe.map, probe.map.replace("_", " ").capitalize())
            return NewGameRefused(
                f"{info.display_name} brings its own board; it cannot be played on the {board} "
                "board.",
                "map",
                "base",
            )
    reason = CATALOGUE.refuse(probe)
    if reason is not None:  # an expansion's own rule beyond its declaration
        return NewGameRefused(f"{reason[:1].upper()}{reason[1:]}.", "expansions")
    return None


def map_for(expansions: Sequence[str], map: str = "base") -> str:
    """The map a new game is set up on: an expansion's own board replaces the default one."""
    if map != "base":
        return map
    return CATALOGUE.own_map(name for name in expansions if name in CATALOGUE) or map


def engine_options_for(
    players: int,
    setup: str,
    map: str,
    expansions: Sequence[str],
    seed: int,
    automa: Sequence[int] = (),
) -> Any:
    """Engine options from create_game's arguments (`players`: people and automas)."""
    from bot.rules import GameOptions

    return GameOptions(
        players=players,
        setup=setup,
        map=map,
        expansions=tuple(expansions),
        seed=seed,
        automa=tuple(automa),
    )


def _taken(loaded: Loaded) -> int:
    """Seats taken in a lobby: people, AI players and automas."""
    return len(loaded.lobby) + len(loaded.automa) + len(loaded.ai)


def ai_text(levels: Sequence[str]) -> str:
    """', with 2 AI players (casual)' for a lobby line; '' without AI players."""
    if not levels:
        return ""
    names = ", ".join(dict.fromkeys(levels))
    count = "1 AI player" if len(levels) == 1 else f"{len(levels)} AI players"
    return f", with {count} ({names})"


def automa_text(levels: Sequence[int]) -> str:
    """', with 2 automas (medium)' for a lobby line; '' without automas."""
    if not levels:
        return ""
    names = ", ".join(dict.fromkeys(level_name(level) for level in levels))
    count = "1 automa" if len(levels) == 1 else f"{len(levels)} automas"
    return f", with {count} ({names})"
