"""The turn clock's rows: deadlines claimed like reminders, time away, heartbeats, outages.

Every SQL backend inherits these operations (`ClockSqlStore`), written once in portable SQL.

- A **deadline** (table `deadlines`) wakes the service when something is due in a game: a
  player's time running out (`EXPIRY`, one row per player) or a computer seat's pending step
  (`AI_STEP`, user 0). Processes claim due rows with one atomic UPDATE (PostgreSQL skips rows
  another is claiming), so exactly one acts; the action itself is then an input committed
  against the game's version, like a click.
- **Time away** (table `away`): a player's spans, kept so a turn is charged over its length.
- **Outages**: time the bot could not answer. Each process writes a heartbeat every minute
  (`beat`); when a beat finds that no process (itself included) beat for longer than the
  gap allowed, the silence is recorded as an outage. No clock is charged for an outage.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.base import DEADLINE_KINDS, Deadline, check_int64
from bot.store.errors import InvalidDataError
from bot.store.sql import SqlStore, Tx, new_claim

_COLUMNS = "game_id, user_id, kind, due_at, version, claim_token"


def _row(row: Sequence[Any]) -> Deadline:
    return Deadline(int(row[0]), int(row[1]), str(row[2]), int(row[3]), int(row[4]), row[5])


class ClockSqlStore(SqlStore):
    """The clock's operations, shared by every SQL backend."""

    async def set_deadlines(
        self, game_id: int, kind: str, due: Sequence[tuple[int, int]], *, version: int
    ) -> None:
        """Replace the game's deadlines of `kind` by `due` ((user id, due at) pairs); any
        claim on the old ones is void."""
        if kind not in DEADLINE_KINDS:
            raise InvalidDataError(f"deadline kind must be one of {sorted(DEADLINE_KINDS)}")
        for user_id, due_at in due:
            check_int64(user_id, "user_id")
            check_int64(due_at, "due_at")

        async def body(db: Tx) -> None:
            await db.execute(
                "DELETE FROM deadlines WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
            await db.executemany(
                "INSERT INTO deadlines (game_id, user_id, kind, due_at, version)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, user, kind, at, version) for user, at in due],
            )

        await self._tx(body)

    async def deadlines(self, game_id: int) -> list[Deadline]:
        """The game's deadlines, soonest first."""

        async def body(db: Tx) -> list[Deadline]:
            rows = await db.fetch(
                f"SELECT {_COLUMNS} FROM deadlines WHERE game_id = ?"
                " ORDER BY due_at, user_id, kind",
                (game_id,),
            )
            return [_row(r) for r in rows]

        return await self._tx(body, write=False)

    async def claim_deadlines(
        self, kind: str, *, limit: int = 50, lease_ms: int = 120_000
    ) -> list[Deadline]:
        """Claim the due deadlines of `kind` in active games (one atomic UPDATE: a row is
        handed to one claimant until its lease ends)."""

        async def body(db: Tx) -> list[Deadline]:
            now = self._clock()
            rows = await db.fetch(
                "UPDATE deadlines SET claim_token = ?, claimed_until = ?"
                " WHERE (game_id, user_id, kind) IN (SELECT d.game_id, d.user_id, d.kind"
                "  FROM deadlines AS d JOIN games AS g ON g.id = d.game_id"
                "  WHERE g.status = 'active' AND d.kind = ? AND d.due_at <= ?"
                "  AND (d.claimed_until IS NULL OR d.claimed_until <= ?)"
                f"  ORDER BY d.due_at, d.game_id, d.user_id LIMIT ?{self._skip_locked('d')})"
                f" RETURNING {_COLUMNS}",
                (new_claim(), now + lease_ms, kind, now, now, limit),
            )
            return sorted((_row(r) for r in rows), key=lambda d: (d.due_at, d.game_id, d.user_id))

        return await self._tx(body)

    async def deadline_done(self, deadline: Deadline, *, next_due_at: int | None = None) -> bool:
        """Drop a claimed deadline, or move it to `next_due_at`; False when the claim was
        lost (its lease ended, or a commit wrote the game's deadlines again)."""
        if deadline.claim is None:
            raise InvalidDataError("deadline_done needs a deadline from claim_deadlines")
        key = (deadline.game_id, deadline.user_id, deadline.kind, deadline.claim)

        async def body(db: Tx) -> bool:
            if next_due_at is None:
                changed = await db.execute(
                    "DELETE FROM deadlines WHERE game_id = ? AND user_id = ? AND kind = ?"
                    " AND claim_token = ?",
                    key,
                )
            else:
                changed = await db.execute(
                    "UPDATE deadlines SET due_at = ?, claim_token = NULL, claimed_until = NULL"
                    " WHERE game_id = ? AND user_id = ? AND kind = ? AND claim_token = ?",
                    (next_due_at, *key),
                )
            return changed == 1

        return await self._tx(body)

    # -- time away ---------------------------------------------------------------------

    async def set_away(self, user_id: int, until_at: int | None) -> None:
        """End the user's time away now, and start a new one until `until_at` (None: none)."""
        check_int64(user_id, "user_id")

        async def body(db: Tx) -> None:
            now = self._clock()
            await db.execute(
                "UPDATE away SET until_at = ? WHERE user_id = ? AND until_at > ?",
                (now, user_id, now),
            )
            await db.execute(
                "DELETE FROM away WHERE user_id = ? AND until_at <= start_at", (user_id,)
            )
            if until_at is not None and until_at > now:
                await db.execute(
                    "INSERT INTO away (user_id, start_at, until_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (user_id, start_at) DO UPDATE SET until_at = excluded.until_at",
                    (user_id, now, until_at),
                )

        await self._tx(body)

    async def away_spans(self, user_id: int, *, since: int = 0) -> list[tuple[int, int]]:
        """The user's time away that ends after `since`, in order."""

        async def body(db: Tx) -> list[tuple[int, int]]:
            rows = await db.fetch(
                "SELECT start_at, until_at FROM away WHERE user_id = ? AND until_at > ?"
                " ORDER BY start_at",
                (user_id, since),
            )
            return [(int(r[0]), int(r[1])) for r in rows]

        return await self._tx(body, write=False)

    # -- heartbeats and outages --------------------------------------------------------

    async def beat(self, instance: str, *, gap_ms: int) -> tuple[int, int] | None:
        """Write this process's heartbeat; when no process beat for over `gap_ms` before it,
        record that silence as an outage and return it."""

        async def body(db: Tx) -> tuple[int, int] | None:
            now = self._clock()
            row = await db.fetchone("SELECT MAX(beat_at) FROM heartbeats")
            last = None if row is None or row[0] is None else int(row[0])
            outage = None
            if last is not None and now - last > gap_ms:
                outage = (last, now)
                await db.execute(
                    "INSERT INTO outages (start_at, end_at) VALUES (?, ?)"
                    " ON CONFLICT (start_at) DO UPDATE SET end_at = excluded.end_at"
                    " WHERE outages.end_at < excluded.end_at",
                    outage,
                )
            await db.execute(
                "INSERT INTO heartbeats (instance, beat_at) VALUES (?, ?)"
                " ON CONFLICT (instance) DO UPDATE SET beat_at = excluded.beat_at",
                (instance, now),
            )
            return outage

        return await self._tx(body)

    async def outages(self, *, since: int = 0) -> list[tuple[int, int]]:
        """The outages that end after `since`, in order."""

        async def body(db: Tx) -> list[tuple[int, int]]:
            rows = await db.fetch(
                "SELECT start_at, end_at FROM outages WHERE end_at > ? ORDER BY start_at",
                (since,),
            )
            return [(int(r[0]), int(r[1])) for r in rows]

        return await self._tx(body, write=False)
