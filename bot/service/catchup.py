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
    Run,
    after_own,
    commits_after,
    last_turn,
    next_after,
    runs_of,
    seat_players,
)
from bot.service.loading import Loaded, engine_options
from bot.service.messages import UserOf
from bot.service.records import Cause, CommitRecord, DecisionRecord
from bot.service.turns import Step, apply_answer
from bot.service.types import Line, PanelView, UserRef
from bot.store import Store

log = logging.getLogger(__name__)

#: Commits whose runs are kept in memory (each a few lines), across games.
KEPT_COMMITS = 4096

#: The heading of a turn message's digest, before the line that asks the player to act.
SINCE_HEADING = "📰 Since your last turn:"
#: Since when an opening panel's map rings the changed spaces (its header and alt text).
SINCE_YOUR_TURN = "your last turn"


class CatchUp:
    """The digests of a store's games, with each commit's runs kept by (game, commit)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._runs: OrderedDict[tuple[int, int], tuple[Run, ...]] = OrderedDict()

    def remember(
        self, game_id: int, commit: int, steps: Sequence[Step], user_of: UserOf, round_no: int
    ) -> None:
        """Keep the runs of a commit just written (`round_no`: the round it began in)."""
        self._keep((game_id, commit), runs_of(steps, user_of, round_no))

    def _keep(self, key: tuple[int, int], runs: tuple[Run, ...]) -> None:
        self._runs[key] = runs
        self._runs.move_to_end(key)
        while len(self._runs) > KEPT_COMMITS:
            self._runs.popitem(last=False)

    @staticmethod
    def players_of(loaded: Loaded, user_id: int) -> frozenset[str] | None:
        """The engine player ids the user's seat answers as (None: not seated)."""
        if user_id not in loaded.seats:
            return None
        seat = loaded.seats.index(user_id)
        return seat_players(seat, loaded.company_of_seat(seat))

    async def mention_digest(
        self, loaded: Loaded, after: Loaded, steps: Sequence[Step]
    ) -> list[Line]:
        """The digest a turn message carries for the one person it asks to act: the turns
        before this commit since their last (this commit's turns are told above it); none
        when several are asked at once or the person took part in this step."""
        waiting = after.people_deciding()
        if len(waiting) != 1:
            return []
        user = after.user_of_player(waiting[0])
        seat = after.seat_of_player(waiting[0])
        if user is None or seat is None:
            return []
        mine = seat_players(seat, after.company_of_seat(seat))
        if any(s.player in mine and not s.on_behalf and s.record.user for s in steps):
            return []
        found = await self.digest(loaded, user, upto=loaded.commit_version)
        lines = found.lines if found is not None else []
        return [Line.of(SINCE_HEADING), *lines] if lines else []

    async def opening(self, loaded: Loaded, panel: PanelView) -> PanelView:
        """A panel opened on a decision not begun yet, with what changed since the player's
        last turn: the digest, and the spaces changed when that is more than the last
        commit's turn message rings."""
        if not panel.your_turn or panel.done or loaded.committed is None:
            return panel
        found = await self.digest(loaded, panel.user_id)
        if found is None or not found.parts:
            return panel
        changed: tuple[str, ...] = ()
        if found.beyond(loaded.commit_version):
            before = await self._state_after_own(loaded, panel.user_id, found)
            if before is not None and before.companies:
                from renderer.describe import changed_spaces

                changed = tuple(changed_spaces(before, loaded.committed))
        return replace(
            panel, since=tuple(found.lines), since_changed=changed, since_turns=found.turns
        )

    async def digest(
        self, loaded: Loaded, user_id: int, *, upto: int | None = None
    ) -> Digest | None:
        """What the others did after the user's last turn, up to the commit `upto` (default:
        the last one); None when the user is not seated."""
        mine = self.players_of(loaded, user_id)
        if mine is None:
            return None
        since = last_turn(loaded.chain, mine)
        upto = loaded.commit_version if upto is None else upto
        commits = [since, *commits_after(loaded.chain, since, upto)] if since else []
        missing = [c for c in commits if (loaded.meta.id, c) not in self._runs]
        if missing:
            await self._replay(loaded, missing[0], upto)
        parts: list[tuple[int, tuple[Line, ...]]] = []
        for commit in commits:
            runs = self._runs.get((loaded.meta.id, commit), ())
            if commit == since:
                runs = after_own(runs, mine)
            parts.extend((commit, run.lines) for run in runs)
        return Digest(since, tuple(parts))

    async def state_at(self, loaded: Loaded, version: int) -> GameState | None:
        """The committed state saved at `version` (None when none was saved there)."""
        snap = await self.store.latest_snapshot(loaded.meta.id, at_or_before=version)
        if snap is None or snap.version != version:
            return None
        return load_state(snap.state)

    async def _state_after_own(
        self, loaded: Loaded, user_id: int, found: Digest
    ) -> GameState | None:
        """The state just after the user's own last answer: the commit's saved state when
        nothing followed it there, else replayed to it from the commit before."""
        if not any(c == found.since for c, _ in found.parts):
            return await self.state_at(loaded, found.since)
        mine = self.players_of(loaded, user_id) or frozenset()
        before = _commit_before(loaded, found.since)
        game = await self._game_at(loaded, before)
        if game is None:
            return None
        last_own = max(
            (
                s
                for s, r in loaded.chain
                if before < s < found.since
                and isinstance(r, DecisionRecord)
                and r.player in mine
                and not r.auto
                and r.user
            ),
            default=before,
        )
        for seq, record in loaded.chain:
            if before < seq <= last_own and isinstance(record, DecisionRecord):
                try:
                    game.apply(record.notation, record.player)
                except RuleError:
                    return None
        return game.state

    async def _replay(self, loaded: Loaded, first: int, upto: int) -> None:
        """Tell the commits from `first` to `upto` again, from the state saved at the
        commit before `first` (else from the setup), and keep their runs."""
        before = _commit_before(loaded, first)
        game = await self._game_at(loaded, before)
        if game is None:
            return
        steps: list[Step] = []
        round_no = game.state.round
        for seq, record in loaded.chain:
            if seq <= before or seq > upto:
                continue
            if isinstance(record, DecisionRecord):
                try:
                    step = apply_answer(game, record.notation, record.player, record=record)
                except RuleError as exc:
                    log.warning("game %d: no digest past record %d: %s", loaded.meta.id, seq, exc)
                    return
                steps.append(step)
                continue
            if seq >= first and (loaded.meta.id, seq) not in self._runs:
                self._keep((loaded.meta.id, seq), runs_of(steps, loaded.user_of_player, round_no))
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
            if isinstance(record, DecisionRecord):
                try:
                    game.apply(record.notation, record.player)
                except RuleError:
                    return None
        return game


def _commit_before(loaded: Loaded, commit: int) -> int:
    """The seq of the commit before `commit` on the chain (0: none)."""
    return max(
        (s for s, r in loaded.chain if isinstance(r, CommitRecord) and s < commit), default=0
    )


async def heads_up(
    store: Store, after: Loaded, asked: Sequence[int], told: Sequence[int], now: int
) -> tuple[int, Line] | None:
    """Whom to mention as the player before them begins a turn, and the line that says so:
    a person who asked for it (`heads_up`), seated and not skipped, not in quiet hours, not
    among `asked` (who must decide now, pinged or told). Never for a computer's seat or a
    computer's turn; never again for a turn begun again after an undo, or for a turn its
    player's own command began (`told`: another turn of theirs, an officer's extra turn:
    the player after them was told as their first one began)."""
    game = after.game
    if game is None or game.is_over:
        return None
    if after.commits and after.commits[-1][1].reason in (Cause.UNDO, Cause.REWIND):
        return None  # a turn played again after an undo: its heads-up went out the first time
    decisions = game.decisions()
    if len(decisions) != 1 or decisions[0].kind != "turn":
        return None
    player = decisions[0].player
    if after.computer_of(player) is not None or after.user_of_player(player) in told:
        return None
    following = next_after(game, player)
    if following is None or after.computer_of(following) or after.is_skipped(following):
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
