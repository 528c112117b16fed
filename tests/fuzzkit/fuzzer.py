"""The fuzzer: seeded inputs through the fake Discord, each judged by the oracle first.

Inputs are slash commands (with their arguments), autocomplete requests, component clicks
(buttons and select values, as the bot's messages carry them or forged as a modified client
can send them) and import files. Most start as a valid input built from the game as it
stands; at least half then get exactly one field mutated: a game id, a version, a notation
token, a select value, a game number, a setting, one import record or the acting user.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fakediscord import Channel, FakeDiscord, FakeDiscordError, FakeUser, Message
from fakediscord.users import Invocation

from bot.commands import ids
from bot.store import Store

from .oracle import (
    CRASH_MARK,
    Oracle,
    State,
    Verdict,
    is_refusal,
    parse_component,
    resolve_token,
    resolve_value,
)

BUTTON, SELECT = 2, 3
#: Share of inputs that get one field mutated.
MUTATED_SHARE = 0.6
ZONES = ("Europe/Berlin", "America/Denver", "Asia/Tokyo", "UTC", "Etc/GMT+3")
BAD_ZONES = ("Etc", "America", "Mars/Olympus", "x" * 300, "../../etc/passwd", "Europe/Berlin/x")
QUIET = ("22-7", "22:30-07:00", "off", "0-6")
BAD_QUIET = ("25-7", "22-", "noon", "7-99", "22:61-7")
COMPANIES = ("usa", "germany", "italy", "france", "netherlands")


@dataclass
class World:
    """Two servers, their channels and members (built before the bot connects)."""

    fake: FakeDiscord
    homes: list[Channel]
    archives: list[Channel]
    members: dict[int, list[FakeUser]]
    managers: set[int]

    def guild_of(self, channel: Channel) -> int:
        return channel.guild_id or 0

    def people(self, channel: Channel) -> list[FakeUser]:
        return self.members[self.guild_of(channel)]

    def manager(self, channel: Channel) -> FakeUser:
        return next(u for u in self.people(channel) if u.id in self.managers)


def build_world(fake: FakeDiscord) -> World:
    """The default server (general, games, archive) and a second one (elsewhere, archive)."""
    fake_guild = fake.guild
    owner = fake.add_user("owner-b", guild=None)
    other = fake.add_guild("Other Club", owner=owner)
    mod_b = fake.add_role("Moderator", 0x10 | 0x400000000, guild=other)
    erin = fake.add_user("erin", guild=other)
    frank = fake.add_user("frank", guild=other)
    grace = fake.add_user("grace", roles=[mod_b], guild=other)
    elsewhere = fake.add_channel("elsewhere", guild=other)
    archive_b = fake.add_channel("archive-b", guild=other)
    archive = fake.add_channel("archive")
    return World(
        fake,
        homes=[fake.general, fake.games, elsewhere],
        archives=[archive, archive_b],
        members={
            fake_guild.id: [fake.alice, fake.bob, fake.carol, fake.dave],
            other.id: [erin, frank, grace],
        },
        managers={fake.carol.id, grace.id},
    )


@dataclass
class Input:
    """One fuzz input and what the fuzzer knows about it."""

    kind: str  # "component", "slash", "autocomplete"
    label: str
    user: FakeUser
    channel: Channel
    mutated: str | None = None
    message: Message | None = None
    custom_id: str = ""
    values: list[str] | None = None
    component_type: int = BUTTON
    forged: bool = False
    command: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    focused: str | None = None
    #: For imports: whether the file is one the bot must accept (when the channel is free).
    valid_file: bool = False
    doc: dict[str, Any] | None = None

    def describe(self) -> str:
        what = self.custom_id or self.command
        extra = self.values if self.values is not None else self.options
        return f"{self.label} by {self.user.name} in #{self.channel.name}: {what} {extra}"[:300]


@dataclass
class Report:
    """What a fuzz run did."""

    inputs: int = 0
    mutated: int = 0
    labels: Counter[str] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    cross_server_reads: int = 0
    #: Inputs that must change nothing (refusals, reads), and how many of them changed a game.
    must_not_change: int = 0
    changed_anyway: int = 0
    #: Of those, the mutated or forged ones (a game id, version, token or value changed).
    mutated_must_not_change: int = 0
    mutated_changed_anyway: int = 0
    games_played: int = 0
    imports_refused: int = 0
    imports_accepted: int = 0

    def count_change(self, verdict: str, mutated: bool, before: State, after: State) -> None:
        """Count an input judged to change nothing (a refusal or a read), and whether any game
        changed all the same."""
        if verdict not in ("refuse", "read"):
            return
        changed = before.games != after.games
        self.must_not_change += 1
        self.changed_anyway += changed
        if mutated:
            self.mutated_must_not_change += 1
            self.mutated_changed_anyway += changed

    def summary(self) -> str:
        lines = [
            f"inputs {self.inputs} (mutated {self.mutated}, "
            f"{100 * self.mutated / max(self.inputs, 1):.0f}%), "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.verdicts.items())),
            f"violations {len(self.violations)}, cross-server reads {self.cross_server_reads}, "
            f"imports accepted {self.imports_accepted} / refused {self.imports_refused}, "
            f"games started {self.games_played}",
            f"state changes by inputs that must change nothing: {self.changed_anyway} of "
            f"{self.must_not_change} (mutated or forged: {self.mutated_changed_anyway} of "
            f"{self.mutated_must_not_change})",
            "by input: " + ", ".join(f"{k} {v}" for k, v in self.labels.most_common()),
        ]
        lines += [f"  ! {v}" for v in self.violations[:20]]
        return "\n".join(lines)


class Fuzzer:
    """Generates, judges, sends and checks inputs, one at a time."""

    def __init__(
        self,
        world: World,
        store: Store,
        *,
        seed: int,
        errors: Callable[[], list[str]],
        reply_timeout: float = 10.0,
    ) -> None:
        self.world = world
        self.fake = world.fake
        users = [u.id for people in world.members.values() for u in people]
        self.oracle = Oracle(store, users)
        self.store = store
        self.rng = random.Random(seed)
        self.errors = errors
        self.reply_timeout = reply_timeout
        self.report = Report()
        #: Export files seen (bytes and their document), to import later.
        self.exports: list[tuple[bytes, dict[str, Any]]] = []
        #: Private views with a Post button, by user.
        self.private_views: dict[int, Message] = {}

    # -- the loop -------------------------------------------------------------------------

    async def run(self, count: int) -> Report:
        """Send `count` inputs (the setup's interactions are not counted)."""
        for _ in range(count):
            await self.step()
        return self.report

    async def step(self) -> None:
        channel = self.rng.choice(self.world.homes * 8 + self.world.archives)
        made = await self.make(channel)
        verdict = await self.judge(made)
        before = await self.oracle.state()
        self._posted_before = len(self.fake.channel_messages(made.channel))
        problems: list[str] = []
        reply_text: str | None = None
        reply: Message | None = None
        try:
            reply, reply_text = await self.send(made)
        except FakeDiscordError as error:
            problems.append(f"fake: {str(error)[:300]}")
        problems += [f"logged: {e[:300]}" for e in self.errors()]
        after = await self.oracle.state()
        problems += await self.oracle.violations(verdict, before, after, made.channel.id)
        problems += self.check_reply(made, verdict, reply_text)
        problems += await self.check_isolation(made, verdict, reply)
        self.record(made, verdict, problems, before, after)
        if verdict.kind == "act":
            await self.settle()

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until the announcements an action wrote are posted and old buttons stripped.

        They go out in the background; the next input is judged on the messages as they
        stand, so the fuzzer waits for them (a real user's click racing an announcement is
        what the forged and old-panel inputs stand for).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            calls = len(self.fake.calls)
            games = await self.store.list_games(status="active", limit=1000)
            pending = [g for g in games if await self.store.pending_outbox(g.id)]
            await asyncio.sleep(0.03)
            if not pending and len(self.fake.calls) == calls:
                return

    def record(
        self, made: Input, verdict: Verdict, problems: list[str], before: State, after: State
    ) -> None:
        report = self.report
        report.inputs += 1
        report.mutated += made.mutated is not None
        report.labels[made.label + (" (mutated)" if made.mutated else "")] += 1
        report.verdicts[verdict.kind] += 1
        report.count_change(verdict.kind, made.mutated is not None or made.forged, before, after)
        if made.command == "barrage import":
            if verdict.kind == "act":
                report.imports_accepted += 1
            else:
                report.imports_refused += 1
        if verdict.why == "start" and verdict.kind == "act":
            report.games_played += 1
        for problem in problems:
            report.violations.append(
                f"{made.describe()} [{verdict.kind}: {verdict.why}]: {problem}"
            )

    # -- sending --------------------------------------------------------------------------

    async def send(self, made: Input) -> tuple[Message | None, str | None]:
        user, channel = made.user, made.channel
        if made.kind == "autocomplete":
            assert made.focused is not None
            choices = await user.autocomplete(
                made.command, focused=made.focused, in_channel=channel, **made.options
            )
            if len(choices) > 25:
                raise FakeDiscordError(f"{len(choices)} choices")
            return None, None
        invocation: Invocation
        if made.kind == "slash":
            invocation = await user.slash(made.command, in_channel=channel, **made.options)
        elif made.forged:
            assert made.message is not None
            invocation = await user.forge(
                made.message,
                made.custom_id,
                values=made.values,
                component_type=made.component_type,
            )
        elif made.values is not None:
            assert made.message is not None
            invocation = await user.select(made.message, made.custom_id, made.values)
        else:
            assert made.message is not None
            invocation = await user.click(made.message, made.custom_id)
        reply = await invocation.reply(timeout=self.reply_timeout)
        self.remember(made, reply)
        return reply, reply.content

    def remember(self, made: Input, reply: Message) -> None:
        """Keep what later inputs build on: private views, export files."""
        if any(c.startswith("brg:pv:") for c in reply.custom_ids):
            self.private_views[made.user.id] = reply
        if made.command == "barrage export" and reply.attachments:
            data = reply.attachments[0].data
            self.exports.append((data, json.loads(data)))
            del self.exports[:-8]

    # -- checking ---------------------------------------------------------------------------

    def check_reply(self, made: Input, verdict: Verdict, text: str | None) -> list[str]:
        if made.kind == "autocomplete":
            return []
        if text is None:
            return ["no reply"]
        if CRASH_MARK in text:
            return [f"unexpected error reply: {text[:200]}"]
        refused = is_refusal(text)
        if verdict.kind == "refuse" and not refused:
            return [f"expected a refusal, got: {text[:200]}"]
        if verdict.kind in ("act", "settings") and refused:
            return [f"expected it to be done, got: {text[:200]}"]
        if verdict.kind == "read" and verdict.about is not None and refused:
            return [f"expected a view, got: {text[:200]}"]
        return []

    async def check_isolation(
        self, made: Input, verdict: Verdict, reply: Message | None
    ) -> list[str]:
        """No answer shows, or posts, a game of another server (counted as cross-server)."""
        guild = self.world.guild_of(made.channel)
        problems = []
        shown = list(reply.custom_ids) if reply is not None else []
        new_public = self.fake.channel_messages(made.channel)[self._posted_before :]
        for message in new_public:
            shown += message.custom_ids
        for custom_id in shown:
            parsed = parse_component(custom_id)
            if parsed is None or parsed[0] != "post":
                continue
            game = int(parsed[1]["game"])
            meta = (await self.oracle.state()).games.get(game)
            if meta is None or meta.guild_id != guild:
                self.report.cross_server_reads += 1
                problems.append(f"shows game {game} of another server")
            elif verdict.about is not None and game != verdict.about:
                problems.append(f"shows game {game}, asked for {verdict.about}")
        if made.label == "post" and verdict.kind == "refuse":
            shared = [m for m in new_public if "shared by" in m.content]
            if shared:
                self.report.cross_server_reads += 1
                problems.append("posted a view it should have refused")
        return problems

    # -- judging ----------------------------------------------------------------------------

    async def judge(self, made: Input) -> Verdict:
        if made.kind == "autocomplete":
            return Verdict("read", "autocomplete")
        if made.kind == "component":
            return await self.judge_component(made)
        return await self.judge_slash(made)

    async def judge_component(self, made: Input) -> Verdict:
        assert made.message is not None
        message = self.fake.messages[made.message.id]
        on_message = any(
            c.get("custom_id") == made.custom_id and c.get("type") == made.component_type
            for c in message.all_components()
        )
        if not on_message:
            return Verdict("refuse", "not on its message")
        parsed = parse_component(made.custom_id)
        if parsed is None:
            return Verdict("refuse", "unknown component")
        kind, fields = parsed
        channel, user = made.channel.id, made.user.id
        manager = user in self.world.managers
        if kind in ("option", "select"):
            game, version = int(fields["game"]), int(fields["version"])
            _, loaded = await self.oracle.channel_game(channel)
            company = loaded.company_of_user(user) if loaded is not None else None
            decision = (
                loaded.game.decision(company)
                if loaded is not None and loaded.game is not None and company
                else None
            )
            notations = decision.notations if decision is not None else []
            if kind == "option":
                notation = resolve_token(fields["kind"], fields["token"], notations)
            elif not made.values:
                return Verdict("refuse", "no value")
            else:
                notation = resolve_value(made.values[0], notations)
            return await self.oracle.option(channel, user, game, version, notation)
        if kind == "restart":
            return await self.oracle.restart(
                channel, user, int(fields["game"]), int(fields["version"])
            )
        if kind in ("page", "play"):
            verdict = await self.oracle.restart(channel, user, int(fields["game"]), None)
            if verdict.why in ("another game's panel", "no game being played", "game over"):
                return Verdict("refuse", verdict.why)
            if verdict.why == "not a player":
                return Verdict("refuse", "not a player")
            return Verdict("read", kind)
        if kind == "lobby":
            return await self.oracle.lobby(
                channel, user, manager, fields["action"], int(fields["game"])
            )
        assert kind == "post"
        view = fields["view"]
        verdict = await self.oracle.post(self.world.guild_of(made.channel), int(fields["game"]))
        if verdict.kind == "read" and not _known_view(view):
            return Verdict("refuse", "unknown view")
        return verdict

    async def judge_slash(self, made: Input) -> Verdict:
        channel, user = made.channel.id, made.user.id
        manager = user in self.world.managers
        guild = self.world.guild_of(made.channel)
        command, options = made.command, made.options
        if command == "barrage do":
            moves = [m.strip() for m in options["moves"].split(";") if m.strip()]
            return await self.oracle.typed_moves(channel, user, moves)
        if command == "barrage restart":
            return await self.oracle.restart(channel, user, None, None)
        if command == "barrage undo":
            return await self.oracle.undo(channel, user)
        if command == "barrage rewind":
            return await self.oracle.rewind(channel, user, manager, options["version"])
        if command in ("barrage join", "barrage leave", "barrage start"):
            return await self.oracle.lobby(channel, user, manager, command.split()[1], None)
        if command == "barrage new":
            return await self.oracle.new_game(channel)
        if command == "barrage abandon":
            return await self.oracle.abandon(channel, user, manager)
        if command == "barrage import":
            return await self.oracle.import_file(channel, manager, made.valid_file, made.doc)
        if command == "barrage settings":
            return Verdict("refuse" if made.mutated else "settings", "settings")
        if command == "barrage play":
            verdict = await self.oracle.restart(channel, user, None, None)
            if verdict.why in ("no game being played", "game over", "not a player"):
                return Verdict("refuse", verdict.why)
            return Verdict("read", "panel")
        if command == "barrage export":
            meta = await self.store.active_game(channel)
            return Verdict("read" if meta else "refuse", "export")
        if command in ("barrage board", "barrage score", "barrage log", "barrage company"):
            verdict = await self.oracle.view(channel, guild, options.get("game"))
            company = options.get("company")
            if (
                verdict.kind == "read"
                and company
                and (command == "barrage company" or options.get("view") == "company")
            ):
                meta = await self.store.get_game(verdict.about or 0)
                loaded = await self.oracle.loaded(meta)
                if loaded is None or loaded.committed is None:
                    return Verdict("refuse", "unreadable")
                if company not in loaded.committed.companies:
                    return Verdict("refuse", "no such company in the game")
            return verdict
        return Verdict("read", command)

    # -- making inputs ----------------------------------------------------------------------

    async def make(self, channel: Channel) -> Input:
        """A valid input for this channel as it stands, then perhaps one field mutated."""
        mutate = self.rng.random() < MUTATED_SHARE
        meta, loaded = await self.oracle.channel_game(channel.id)
        if meta is None:
            made = await self.make_lobby(channel, None)
        elif loaded is not None and not loaded.started:
            made = await self.make_lobby(channel, meta.id)
        else:
            makers = [
                (self.make_panel_click, 30),
                (self.make_typed_move, 14),
                (self.make_play_click, 6),
                (self.make_view, 9),
                (self.make_post, 3),
                (self.make_settings, 4),
                (self.make_autocomplete, 10),
                (self.make_restart, 4),
                (self.make_undo, 2),
                (self.make_rewind, 2),
                (self.make_export, 2),
                (self.make_import, 3),
                (self.make_abandon, 3),
            ]
            maker = self.rng.choices([m for m, _ in makers], [w for _, w in makers])[0]
            made = await maker(channel)
        if mutate and made.mutated is None:
            await self.mutate(made)
        return made

    def anyone(self, channel: Channel) -> FakeUser:
        return self.rng.choice(self.world.people(channel))

    async def deciding(self, channel: Channel) -> FakeUser:
        """Someone who must decide in the channel's game (else anyone there)."""
        _, loaded = await self.oracle.channel_game(channel.id)
        if loaded is not None and loaded.started:
            users = [loaded.user_of_player(p) for p in loaded.players_deciding()]
            people = [u for u in self.world.people(channel) if u.id in users]
            if people:
                return self.rng.choice(people)
        return self.anyone(channel)

    async def make_lobby(self, channel: Channel, game_id: int | None) -> Input:
        people = self.world.people(channel)
        if game_id is None:
            if channel in self.world.archives or self.rng.random() < 0.3:
                return await self.make_import(channel)
            creator = self.rng.choice(people[:3])
            players = self.rng.choice((2, 3)) if len(people) >= 3 else 2
            return Input(
                "slash",
                "new game",
                creator,
                channel,
                command="barrage new",
                options={"players": players, "seed": self.rng.randrange(1000)},
            )
        _, loaded = await self.oracle.channel_game(channel.id)
        assert loaded is not None
        size = int(loaded.options.get("players", 2))
        outside = [u for u in people if u.id not in loaded.lobby]
        if len(loaded.lobby) < size and outside:
            action, user = "join", self.rng.choice(outside)
        else:
            action, user = "start", next(u for u in people if u.id == loaded.meta.creator_id)
        lobby = self._newest(channel, "brg:lb:")
        if lobby is not None and self.rng.random() < 0.7:
            return Input(
                "component",
                f"lobby {action}",
                user,
                channel,
                message=lobby,
                custom_id=ids.lobby_id(game_id, action),
            )
        return Input("slash", f"typed {action}", user, channel, command=f"barrage {action}")

    def _newest(self, channel: Channel, prefix: str) -> Message | None:
        for message in reversed(self.fake.channel_messages(channel)):
            if any(c.startswith(prefix) for c in message.custom_ids):
                return message
        return None

    def _panels_of(self, user: FakeUser, channel: Channel) -> list[Message]:
        """The user's panels in the channel that still show options, newest first."""
        return [
            message
            for message in reversed(user.ephemerals(channel))
            if any(c.startswith(("brg:o:", "brg:h:", "brg:s:")) for c in message.custom_ids)
        ]

    def _panel_of(self, user: FakeUser, channel: Channel) -> Message | None:
        panels = self._panels_of(user, channel)
        return panels[0] if panels else None

    async def make_play_click(self, channel: Channel) -> Input:
        user = await self.deciding(channel) if self.rng.random() < 0.8 else self.anyone(channel)
        turn = self._newest(channel, "brg:play:")
        if turn is None:
            return Input("slash", "typed play", user, channel, command="barrage play")
        custom_id = next(c for c in turn.custom_ids if c.startswith("brg:play:"))
        return Input("component", "play button", user, channel, message=turn, custom_id=custom_id)

    async def make_panel_click(self, channel: Channel) -> Input:
        user = await self.deciding(channel)
        meta, _ = await self.oracle.channel_game(channel.id)
        panels = self._panels_of(user, channel)
        panel = panels[0] if panels else None
        current = (
            meta is not None
            and panel is not None
            and any(f":{meta.id}:{meta.version}:" in c for c in panel.custom_ids)
        )
        stale = None
        if len(panels) > 1 and self.rng.random() < 0.15:
            # A panel left over from an earlier turn (or game): real buttons, old ids.
            panel = stale = self.rng.choice(panels[1:])
        elif panel is None or (not current and self.rng.random() < 0.8):
            return await self.make_play_click(channel)
        choices = [c for c in panel.custom_ids if c.startswith(("brg:o:", "brg:h:", "brg:s:"))]
        pages = [c for c in panel.custom_ids if c.startswith("brg:pg:")]
        if pages and self.rng.random() < 0.15:
            enabled = [c for c in pages if not panel.component(c).get("disabled")]
            if enabled:
                custom_id = self.rng.choice(enabled)
                return Input(
                    "component", "page button", user, channel, message=panel, custom_id=custom_id
                )
        custom_id = self.rng.choice(choices)
        made = self._click(user, channel, panel, custom_id)
        if (
            stale is not None
            and meta is not None
            and f":{meta.id}:{meta.version}:" not in custom_id
        ):
            made.label, made.mutated = "old panel", "version (an earlier panel)"
        return made

    def _click(self, user: FakeUser, channel: Channel, panel: Message, custom_id: str) -> Input:
        """A real click on an option button or a pick in the select, as the panel shows it."""
        if custom_id.startswith("brg:s:"):
            values = [o["value"] for o in panel.component(custom_id)["options"]]
            return Input(
                "component",
                "select value",
                user,
                channel,
                message=panel,
                custom_id=custom_id,
                values=[self.rng.choice(values)],
                component_type=SELECT,
            )
        return Input(
            "component", "option button", user, channel, message=panel, custom_id=custom_id
        )

    async def make_typed_move(self, channel: Channel) -> Input:
        user = await self.deciding(channel)
        _, loaded = await self.oracle.channel_game(channel.id)
        moves = "pass"
        if loaded is not None and loaded.game is not None and not loaded.game.is_over:
            company = loaded.company_of_user(user.id)
            decision = loaded.game.decision(company) if company else None
            if decision is not None:
                moves = self.rng.choice(decision.notations)
        return Input(
            "slash", "typed move", user, channel, command="barrage do", options={"moves": moves}
        )

    async def make_restart(self, channel: Channel) -> Input:
        user = await self.deciding(channel)
        panel = self._panel_of(user, channel)
        restart = [c for c in panel.custom_ids if c.startswith("brg:rs:")] if panel else []
        if restart:
            return Input(
                "component", "restart button", user, channel, message=panel, custom_id=restart[0]
            )
        return Input("slash", "typed restart", user, channel, command="barrage restart")

    async def make_undo(self, channel: Channel) -> Input:
        _, loaded = await self.oracle.channel_game(channel.id)
        user = self.anyone(channel)
        if loaded is not None and loaded.commits:
            last = loaded.commits[-1][1].user
            user = next((u for u in self.world.people(channel) if u.id == last), user)
        return Input("slash", "undo", user, channel, command="barrage undo")

    async def make_rewind(self, channel: Channel) -> Input:
        _, loaded = await self.oracle.channel_game(channel.id)
        versions = [s for s, _ in loaded.commits][-6:-1] if loaded is not None else []
        version = self.rng.choice(versions) if versions else 1
        manager = self.world.manager(channel)
        return Input(
            "slash",
            "rewind",
            manager,
            channel,
            command="barrage rewind",
            options={"version": version},
        )

    async def make_view(self, channel: Channel) -> Input:
        user = self.anyone(channel)
        command = self.rng.choice(("board", "score", "log", "company"))
        options: dict[str, Any] = {}
        if self.rng.random() < 0.5:
            guild = self.world.guild_of(channel)
            games = [g for g in (await self.oracle.state()).games.values() if g.guild_id == guild]
            if games:
                options["game"] = self.rng.choice(games).number
        if command == "board":
            options["view"] = self.rng.choice(("map", "shared", "full", "company"))
        if command in ("company", "board") and self.rng.random() < 0.6:
            _, loaded = await self.oracle.channel_game(channel.id)
            if loaded is not None and loaded.committed is not None:
                options["company"] = self.rng.choice(list(loaded.committed.companies))
        return Input(
            "slash", f"view {command}", user, channel, command=f"barrage {command}", options=options
        )

    async def make_post(self, channel: Channel) -> Input:
        for user in self.rng.sample(self.world.people(channel), len(self.world.people(channel))):
            view = self.private_views.get(user.id)
            if view is not None and view.channel_id == channel.id:
                custom_id = next(c for c in view.custom_ids if c.startswith("brg:pv:"))
                return Input("component", "post", user, channel, message=view, custom_id=custom_id)
        return await self.make_view(channel)

    async def make_settings(self, channel: Channel) -> Input:
        user = self.anyone(channel)
        if self.rng.random() < 0.5:
            options = {"time_zone": self.rng.choice(ZONES)}
        else:
            options = {"quiet_hours": self.rng.choice(QUIET)}
        return Input(
            "slash", "settings", user, channel, command="barrage settings", options=options
        )

    async def make_autocomplete(self, channel: Channel) -> Input:
        user = await self.deciding(channel)
        which = self.rng.random()
        if which < 0.5:
            typed = self.rng.choice(("", "p", "ba", "build", "pass; ", "conf", "zz9", "1"))
            return Input(
                "autocomplete", "autocomplete moves", user, channel,
                command="barrage do", focused="moves", options={"moves": typed},
            )  # fmt: skip
        if which < 0.7:
            typed = self.rng.choice(("eur", "Etc", "", "x" * 80, "america/den"))
            return Input(
                "autocomplete", "autocomplete zone", user, channel,
                command="barrage settings", focused="time_zone", options={"time_zone": typed},
            )  # fmt: skip
        if which < 0.85:
            typed = self.rng.choice(("", "ital", "leeg", "officer", "#!"))
            return Input(
                "autocomplete", "autocomplete help", user, channel,
                command="barrage help", focused="topic", options={"topic": typed},
            )  # fmt: skip
        return Input(
            "autocomplete", "autocomplete rewind", self.world.manager(channel), channel,
            command="barrage rewind", focused="version", options={"version": "round"},
        )  # fmt: skip

    async def make_export(self, channel: Channel) -> Input:
        return Input("slash", "export", self.anyone(channel), channel, command="barrage export")

    async def make_import(self, channel: Channel) -> Input:
        """A moderator imports a file seen earlier into a channel (an archive if free)."""
        server = [
            c for c in self.world.homes + self.world.archives if c.guild_id == channel.guild_id
        ]
        free = [c for c in server if await self.store.active_game(c.id) is None]
        target = self.rng.choice(free) if free else server[-1]
        manager = self.world.manager(target)
        if not self.exports:
            return await self.make_export(channel)
        # Mostly files of games that ended since (those may be continued elsewhere).
        ended = []
        for data, doc in self.exports:
            live = await self.store.list_games(seed=doc["seed"], status="active")
            if not any(g.created_at == doc["created_at"] for g in live):
                ended.append((data, doc))
        data, doc = self.rng.choice(ended if ended and self.rng.random() < 0.8 else self.exports)
        return Input(
            "slash",
            "import",
            manager,
            target,
            command="barrage import",
            options={"file": ("game.json", data)},
            valid_file=True,
            doc=doc,
        )

    async def make_abandon(self, channel: Channel) -> Input:
        _, loaded = await self.oracle.channel_game(channel.id)
        user = self.world.manager(channel) if self.rng.random() < 0.5 else self.anyone(channel)
        exported = loaded is not None and any(
            doc["seed"] == loaded.meta.seed and doc["created_at"] == loaded.meta.created_at
            for _, doc in self.exports
        )
        if (
            loaded is None
            or loaded.game is None
            or loaded.game.state.decisions < 20
            or not exported
        ):
            # Let games get somewhere first, and keep their file to continue them elsewhere.
            return await self.make_export(channel)
        return Input(
            "slash", "abandon", user, channel, command="barrage abandon", options={"confirm": True}
        )

    # -- mutating ---------------------------------------------------------------------------

    async def mutate(self, made: Input) -> None:
        """Change exactly one field of a valid input."""
        if made.kind == "component":
            self.mutate_component(made)
        elif made.kind == "autocomplete":
            value = made.options[made.focused or ""]
            made.options[made.focused or ""] = value + self.rng.choice(("\0", "💥", ";;", " " * 30))
            made.mutated = "typed text"
        elif made.command == "barrage do":
            self.mutate_moves(made)
        elif made.command == "barrage import":
            self.mutate_import(made)
        elif made.command == "barrage settings":
            key = next(iter(made.options))
            bad = BAD_ZONES if key == "time_zone" else BAD_QUIET
            made.options[key] = self.rng.choice(bad)
            made.mutated = key
        elif made.command == "barrage rewind":
            made.options["version"] = max(0, made.options["version"] + self.rng.choice((-1, 1, 7)))
            made.mutated = "version"
        elif "game" in made.options or made.command.split()[-1] in ("board", "score", "log"):
            made.options["game"] = self.rng.choice((1, 2, 3, 5, 40, 2**53))
            made.mutated = "game number"
        else:
            others = [u for u in self.world.people(made.channel) if u is not made.user]
            made.user = self.rng.choice(others)
            made.mutated = "actor"

    def mutate_component(self, made: Input) -> None:
        parts = made.custom_id.split(":")
        choice = self.rng.random()
        if made.values is not None and choice < 0.4:
            select = made.message.component(made.custom_id) if made.message else {}
            values = [o["value"] for o in select.get("options", [])]
            made.values = [
                self.rng.choice(
                    [*values, made.values[0].upper(), "#0123456789", "", "pass", "x" * 100]
                )
            ]
            made.values = [v for v in made.values if v] or []
            made.forged, made.mutated = True, "select value"
            return
        if len(parts) >= 3 and parts[2].isdigit() and choice < 0.55:
            parts[2] = str(self.rng.choice((int(parts[2]) + 1, int(parts[2]) - 1, 2**64 + 5, 0)))
            made.mutated = "game id"
        elif len(parts) >= 4 and parts[3].isdigit() and choice < 0.8:
            parts[3] = str(self.rng.choice((int(parts[3]) + 1, int(parts[3]) - 1, 10**30)))
            made.mutated = "version"
        elif parts[1] in ("o", "h") and len(parts) >= 5:
            token = ":".join(parts[4:])
            parts = [*parts[:4], self.rng.choice((token.upper(), token[:-1], "pass", "zz9"))]
            made.mutated = "notation token"
        else:
            parts[-1] = self.rng.choice(("zzz", "9999", "b_moon", "join", ""))
            made.mutated = "component field"
        made.custom_id = ":".join(parts)[:100]
        made.forged = True

    def mutate_moves(self, made: Input) -> None:
        moves = made.options["moves"]
        choice = self.rng.random()
        if choice < 0.3:
            made.options["moves"] = f"{moves}; {self.rng.choice(('zz9', 'confirm', moves))}"
        elif choice < 0.6:
            made.options["moves"] = self.rng.choice((moves.upper(), moves[:-1] or "x", "build zz9"))
        else:
            others = [u for u in self.world.people(made.channel) if u is not made.user]
            made.user = self.rng.choice(others)
            made.mutated = "actor"
            return
        made.mutated = "notation token"

    def mutate_import(self, made: Input) -> None:
        assert made.doc is not None
        doc = copy.deepcopy(made.doc)
        entries = doc["log"]
        mutations: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
            ("decision", lambda r: r.__setitem__("notation", "zz9 " + r["notation"])),
            ("decision", lambda r: r.__setitem__("notation", 7)),
            ("decision", lambda r: r.__setitem__("player", "nobody")),
            ("commit", lambda r: r.__setitem__("undoable", "yes")),
            ("commit", lambda r: r.pop("reason")),
            ("join", lambda r: r.__setitem__("user", "x")),
            ("start", lambda r: r.__setitem__("seats", 3)),
            ("revert", lambda r: r.__setitem__("to", None)),
            ("decision", lambda r: r.__setitem__("kind", "teleport")),
        ]
        # Decisions and commits a revert dropped are never replayed (the bot checks only
        # their shape), so a mutation of one may be harmless: mutate those in force.
        in_force = {seq for seq, _ in _chain(made.doc)}
        kind, change = self.rng.choice(mutations)
        candidates = [
            e
            for e in entries
            if e["record"].get("kind") == kind and (kind not in CHAIN or e["seq"] in in_force)
        ]
        if not candidates:
            kind, change = mutations[0]
            candidates = [
                e for e in entries if e["seq"] in in_force and e["record"]["kind"] == "decision"
            ]
        if candidates:
            change(self.rng.choice(candidates)["record"])
        made.options["file"] = ("game.json", json.dumps(doc).encode())
        made.valid_file = not candidates
        made.mutated = "import record"


CHAIN = ("decision", "commit")


def _chain(doc: dict[str, Any]) -> list[tuple[int, Any]]:
    """The (seq, record) pairs of decisions and commits in force after every revert."""
    nodes: list[Any] = [None]
    for entry in doc["log"]:
        record = entry["record"]
        if record.get("kind") in CHAIN:
            nodes.append((entry["seq"], record, nodes[-1]))
        elif record.get("kind") == "revert":
            nodes.append(nodes[record["to"]])
        else:
            nodes.append(nodes[-1])
    chain, node = [], nodes[-1]
    while node is not None:
        chain.append((node[0], node[1]))
        node = node[2]
    return chain[::-1]


def _known_view(view: str) -> bool:
    if view in ("log", "score", "c_all"):
        return True
    if view.startswith("b_"):
        return view[2:] in ("map", "shared", "company", "full")
    return view.startswith("c_")
