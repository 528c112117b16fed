"""A part of the service, a player's own moves: playing, confirming, restarting a turn in
progress, undoing a turn.

Owns: checking a player's answers against the engine; they are landed at the desk
(bot/service/core.py: `Desk.land` commits them when they complete a step, by the rules of
bot/service/turns.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.rules import RuleError
from bot.rules.content import company_name
from bot.service.commit import Landing
from bot.service.core import Desk
from bot.service.errors import GameMovedOn, InvalidMove, NotYourTurn, ServiceError
from bot.service.faults import refuse_store_faults
from bot.service.loading import Loaded, copy_game
from bot.service.records import RevertRecord
from bot.service.thinking import hinted_now
from bot.service.turns import Step, apply_answer
from bot.service.types import Actor, Line, Outcome, OutcomeKind, UserRef


@refuse_store_faults
class Moves:
    """A player's own moves and their turn's restart and undo."""

    def __init__(self, desk: Desk) -> None:
        """A player's moves at `desk` (loading, checking and landing games)."""
        self.desk = desk
        self.store = desk.store

    async def play(
        self,
        actor: Actor,
        notations: Sequence[str],
        *,
        expected_version: int | None = None,
        expected_game: int | None = None,
        listed: bool = False,
    ) -> Outcome:
        """Answer the actor's decision with one or more notations, all or nothing.

        A click on a panel names its game and version (`expected_game`, `expected_version`)
        and answers with one of the options it listed (`listed`): the notation must be
        exactly one of the current options, not merely something the engine would parse.
        """
        if isinstance(notations, str):
            notations = [notations]
        notations = [n for n in notations if n.strip()]
        if not notations:
            raise InvalidMove("Give at least one move (pick an option from the list).")
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor, expected_game)
            company = self.desk.company(loaded, actor)
            self._check_version(loaded, actor, expected_version)
            assert loaded.game is not None
            pilot = loaded.pilots.get(loaded.seats.index(actor.user_id))
            if pilot is not None:
                raise NotYourTurn(
                    f"The AI ({pilot[0]}) plays your seat now; `play` takes it back first. "
                    "Nothing was played."
                )
            decision = loaded.game.decision(company)
            if decision is None:
                raise NotYourTurn(
                    Line.of(
                        "It is not your decision now: waiting for ",
                        *self.desk.waiting_line(loaded),
                        ".",
                    )
                )
            if listed and (len(notations) != 1 or notations[0] not in decision.notations):
                raise InvalidMove(
                    "That choice is not one of the options of your panel; nothing was played."
                )
            settings = await self.store.get_user_settings(actor.user_id)
            trial = copy_game(loaded.game)
            steps: list[Step] = []
            for i, text in enumerate(notations):
                done = " Nothing was played." if i else ""
                if trial.decision(company) is None:
                    raise InvalidMove(
                        f"'{text}' was refused: after '{notations[i - 1]}' you have nothing "
                        f"more to decide.{done}",
                        text,
                    )
                try:
                    steps.append(apply_answer(trial, text, company, actor.user_id))
                except RuleError as exc:
                    # The engine's reason names the move it refuses; said once, not twice.
                    reason = str(exc)
                    said = reason if f"'{text}'" in reason else f"'{text}' was refused: {reason}"
                    raise InvalidMove(f"{said}.{done}", text) from None
            if hinted_now(loaded, company):
                # Counted on the score sheet.
                steps[0] = replace(steps[0], record=replace(steps[0].record, hint=True))
            following = trial.decision(company)
            if (
                settings.skip_confirm
                and following is not None
                and following.kind == "confirm"
                and not steps[-1].fresh_turn
            ):
                steps.append(apply_answer(trial, "confirm", company, actor.user_id))
            # The actor's reply is their panel at the decision after these answers: when the
            # game hands the next decision back to them, they are playing it already, so
            # the announcement names them without pinging them again.
            landing = Landing(user=actor.user_id, told=(actor.user_id,))
            return await self.desk.land(loaded, trial, steps, landing)

    async def confirm(self, actor: Actor, *, expected_version: int | None = None) -> Outcome:
        """Confirm the actor's turn (the same as playing "confirm")."""
        return await self.play(actor, ["confirm"], expected_version=expected_version)

    def _check_version(self, loaded: Loaded, actor: Actor, expected: int | None) -> None:
        if expected is not None and expected != loaded.version:
            raise GameMovedOn(
                f"The game moved on (that prompt was for version {expected}, it is now at "
                f"{loaded.version}); here is your current decision.",
                self.desk.panel(loaded, actor.user_id),
            )

    async def restart_turn(
        self,
        actor: Actor,
        *,
        expected_version: int | None = None,
        expected_game: int | None = None,
    ) -> Outcome:
        """Throw away the actor's turn in progress: back to where it began."""
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor, expected_game)
            company = self.desk.company(loaded, actor)
            self._check_version(loaded, actor, expected_version)
            if not loaded.tail:
                raise ServiceError("There is nothing to restart: your turn has not begun.")
            if any(r.player != company for r in loaded.tail):
                raise ServiceError(
                    Line.of(
                        "Only the player whose turn is in progress can restart it (",
                        *self.desk.waiting_line(loaded),
                        ").",
                    )
                )
            version = await self.desk.append(loaded, [RevertRecord(loaded.commit_version)])
            after = await self.desk.reload(loaded.meta.id)
            panel = self.desk.panel(after, actor.user_id)
            line = Line.of("Your turn was restarted.")
            return Outcome(OutcomeKind.RESTARTED, after.meta.id, version, (line,), decision=panel)

    async def last_turn_by(self, actor: Actor) -> int | None:
        """The user whose turn the channel's last commit confirmed: the only one who may undo
        it (None when that commit was no one's own turn: the start, a choice, an undo)."""
        loaded = await self.desk.playing(actor)
        last = loaded.commits[-1][1] if len(loaded.commits) > 1 else None
        return last.user if last is not None and last.own_turn else None

    async def undo(self, actor: Actor) -> Outcome:
        """Undo the actor's last committed turn, if no other person acted since and nothing
        was revealed.

        A forced turn confirmed on someone's behalf in that commit is undone with it, and so
        are the computer seats' steps after it (`Desk.undo_target`).
        """
        async with self.desk.locks[actor.channel_id]:
            loaded = await self.desk.playing(actor)
            company = self.desk.company(loaded, actor)
            target, refusal, computers = self.desk.undo_target(loaded, actor.user_id)
            if target is None:
                raise ServiceError(refusal or "There is no committed turn to undo.")
            after = " and the computer seats' turns after it" if computers else ""
            return await self.desk.revert(
                loaded,
                target,
                actor,
                Line.of(
                    f"{company_name(company)} (",
                    UserRef(actor.user_id),
                    f") took back their last turn{after}.",
                ),
                OutcomeKind.UNDONE,
                missing="That turn cannot be undone: its starting state was not saved.",
                told=(actor.user_id,),  # their reply is the panel of the turn taken back
            )
