"""Catching a player up: the digest of what the others did since their last turn, and the
spaces changed since then (the panel's ringed map).

A turn's lines are kept from the commit that wrote them (`remember`, from the words of its
turn message); a turn this process did not see (after a restart, or committed by another
process) is replayed from the saved state before it, so the log stays the only truth and the
memory only saves work. The words themselves are bot/service/digest.py's.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace

from bot.rules import Game, GameState, RuleError, load_state, new_game, open_game
from bot.rules.content import company_name
from bot.service import quiet
from bot.service.digest import (
    Digest,
    commits_after,
    last_turn,
    next_after,
    seat_players,
    turn_line_parts,
)
from bot.service.loading import Loaded, engine_options
from bot.service.messages import story
from bot.service.turns import Step, apply_answer
from bot.service.types import Line, PanelView, UserRef
from bot.store import Store

log = logging.getLogger(__name__)

#: Turns kept in memory (each a few lines), across games.
KEPT_TURNS = 4096

#: The heading of a turn message's digest, before the line that asks the player to act.
SINCE_HEADING = "📰 Since your last turn:"
#: Since when an opening panel's map rings the changed spaces (its header and alt text).
SINCE_YOUR_TURN = "your last turn"


class CatchUp:
    """The digests of a store's games, with the turns' lines kept by (game, commit)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._turns: OrderedDict[tuple[int, int], tuple[Line, ...]] = OrderedDict()

    def remember(self, game_id: int, commit: int, happened: Sequence[Line]) -> None:
        """Keep the lines of a turn just committed (its turn message's story)."""
        self._turns[(game_id, commit)] = turn_line_parts(happened)
        self._turns.move_to_end((game_id, commit))
        while len(self._turns) > KEPT_TURNS:
            self._turns.popitem(last=False)

    def since_of(self, loaded: Loaded, user_id: int) -> int | None:
        """The commit of the user's last turn in the loaded game (None: not seated)."""
        if user_id not in loaded.seats:
            return None
        seat = loaded.seats.index(user_id)
        return last_turn(loaded.chain, seat_players(seat, loaded.company_of_seat(seat)))

    async def mention_digest(
        self, loaded: Loaded, after: Loaded, steps: Sequence[Step]
    ) -> list[Line]:
        """The digest a turn message carries for the one person it asks to act: the turns
        before this commit since their last (this commit's turn is told above it); none when
        several are asked at once or the person took part in this step."""
        waiting = after.people_deciding()
        if len(waiting) != 1:
            return []
        user = after.user_of_player(waiting[0])
        seat = after.seat_of_player(waiting[0])
        if user is None or seat is None:
            return []
        mine = seat_players(seat, after.company_of_seat(seat))
        if any(s.player in mine and not s.on_behalf and s.record.get("user") for s in steps):
            return []
        found = await self.digest(loaded, user, upto=loaded.commit_version)
        lines = found.lines if found is not None else []
        return [Line.of(SINCE_HEADING), *lines] if lines else []

    async def opening(self, loaded: Loaded, panel: PanelView) -> PanelView:
        """A panel opened on a decision not begun yet, with what changed since the player's
        last turn: the digest, and the spaces changed when that is more than one turn."""
        if not panel.your_turn or panel.done or loaded.committed is None:
            return panel
        found = await self.digest(loaded, panel.user_id)
        if found is None or not found.turns:
            return panel
        changed: tuple[str, ...] = ()
        if len(found.turns) > 1 and found.since:
            before = await self.state_at(loaded, found.since)
            if before is not None and before.companies:
                from renderer.describe import changed_spaces

                changed = tuple(changed_spaces(before, loaded.committed))
        return replace(
            panel, since=tuple(found.lines), since_changed=changed, since_turns=len(found.turns)
        )

    async def digest(
        self, loaded: Loaded, user_id: int, *, upto: int | None = None, since: int | None = None
    ) -> Digest | None:
        """What the others did after the user's last turn, up to the commit `upto` (default:
        the last one); None when the user is not seated."""
        since = self.since_of(loaded, user_id) if since is None else since
        if since is None:
            return None
        upto = loaded.commit_version if upto is None else upto
        commits = commits_after(loaded.chain, since, upto)
        missing = [c for c in commits if (loaded.meta.id, c) not in self._turns]
        if missing:
            await self._replay(loaded, missing[0], upto)
        turns = tuple(lines for c in commits if (lines := self._turns.get((loaded.meta.id, c), ())))
        return Digest(since, turns)

    async def state_at(self, loaded: Loaded, version: int) -> GameState | None:
        """The committed state saved at `version` (None when none was saved there)."""
        snap = await self.store.latest_snapshot(loaded.meta.id, at_or_before=version)
        if snap is None or snap.version != version:
            return None
        return load_state(snap.state)

    async def _replay(self, loaded: Loaded, first: int, upto: int) -> None:
        """Tell the turns from commit `first` to `upto` again, from the state saved at the
        commit before `first` (else from the setup), and keep their lines."""
        before = max((s for s, r in loaded.chain if r["kind"] == "commit" and s < first), default=0)
        game = await self._game_at(loaded, before)
        if game is None:
            return
        steps: list[Step] = []
        round_no = game.state.round
        for seq, record in loaded.chain:
            if seq <= before or seq > upto:
                continue
            if record["kind"] == "decision":
                try:
                    steps.append(
                        apply_answer(game, record["notation"], record["player"], record=record)
                    )
                except RuleError as exc:
                    log.warning("game %d: no digest past record %d: %s", loaded.meta.id, seq, exc)
                    return
                continue
            if seq >= first and (loaded.meta.id, seq) not in self._turns:
                happened = story(steps, loaded.user_of_player, round_no=round_no, limit=1000)
                self.remember(loaded.meta.id, seq, happened)
            steps, round_no = [], game.state.round

    async def _game_at(self, loaded: Loaded, version: int) -> Game | None:
        """The game as committed at `version`: its saved state, else replayed from the setup
        when the log's chain begins there (an imported game keeps no saved states)."""
        if version:
            state = await self.state_at(loaded, version)
            if state is not None:
                return open_game(state)
        if loaded.flag is not None:
            return None
        options = engine_options(loaded.meta, len(loaded.seats), loaded.automa, len(loaded.ai))
        game = new_game(options)
        for seq, record in loaded.chain:
            if seq > version:
                break
            if record["kind"] == "decision":
                try:
                    game.apply(record["notation"], record["player"])
                except RuleError:
                    return None
        return game


async def heads_up(
    store: Store, after: Loaded, asked: Sequence[int], now: int
) -> tuple[int, Line] | None:
    """Whom to mention as the player before them begins a turn, and the line that says so:
    a person who asked for it (`heads_up`), not in their quiet hours, not among `asked` (who
    must decide now, pinged or told), never for a computer's seat or a computer's turn."""
    game = after.game
    if game is None or game.is_over:
        return None
    decisions = game.decisions()
    if len(decisions) != 1 or decisions[0].kind != "turn":
        return None
    player = decisions[0].player
    if after.computer_of(player) is not None:
        return None
    following = next_after(game, player)
    if following is None or after.computer_of(following) is not None:
        return None
    user = after.user_of_player(following)
    if user is None or user in asked or user == after.user_of_player(player):
        return None
    settings = await store.get_user_settings(user)
    if not settings.heads_up or quiet.in_quiet_hours(settings, now):
        return None
    line = Line.of(
        "🔜 ",
        UserRef(user),
        f" ({company_name(following)}), you're next, after {company_name(player)} (heads-up).",
    )
    return user, line


__all__ = ["SINCE_HEADING", "SINCE_YOUR_TURN", "CatchUp", "heads_up"]
