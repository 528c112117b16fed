"""Delivering committed announcements: the AnnouncementPort and the OutboxSender.

Every commit wrote its announcement to the outbox in the commit's own transaction; the
sender claims due items (one atomic update, so of several processes one sends each), renders
their images, posts them through the port, records the message id and marks them sent. A
failed post is retried with the store's back-off; items left over by a crash are sent at the
next start-up. Exactly once: a commit writes one outbox row, and a row is marked sent once.
A crash after the port posted but before `mark_sent` would post again after the lease: the
port gets `outbox_id` so that it can deduplicate (Discord: use it as an enforced nonce).

A picture never holds up its turn: the text, the ping and the buttons are posted at once with
the pictures that could be drawn, and a picture that could not says so in the message. A port
that can edit its messages (`SupportsPictureEdits`) gets the pictures later, when they can be
drawn (`PICTURE_RETRIES_S`), and the message loses its note.

A claim is never left behind by a live sender: every claimed item ends in `mark_sent`,
`retry_outbox` (a failed post) or `release_outbox` (not attempted, cancelled mid-post, or the
bookkeeping itself failed). Each claim names its owner (`ClaimOwner`: the deployment instance
and this run of it) and holds a short lease that the live sender renews every
`RENEW_EVERY_S`, so a peer never takes a claim from a sender that is alive, however slow its
post. What a crashed process held is posted again within seconds of the next start of its
instance (`recover_outbox_claims` at start-up), or by any peer once the lease has lapsed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import socket
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from bot.service.faults import DATABASE_DOWN
from bot.service.ports import Doorbell, OutboxGames
from bot.service.records import CHANNEL_UNKNOWN, ended_for_lost_channel
from bot.service.types import Announcement, Image, ImageRequest, Line, ReminderNotice
from bot.store import ABANDONED, ClaimOwner, Clock, OutboxItem, Store, SupportsWakeups

log = logging.getLogger(__name__)

#: How long a claim lasts without renewal: three renewals may be missed before a peer may
#: presume the owner dead.
LEASE_MS = 30_000
#: How often a live sender renews its claims.
RENEW_EVERY_S = 10.0
#: How often a sender looks for due announcements without being woken: often when nothing
#: else wakes it (SQLite), rarely when the database wakes every process (PostgreSQL's
#: NOTIFY), where the poll only catches what a lost wake-up or a lapsed lease left behind.
POLL_S = 5.0
SAFETY_POLL_S = 30.0
#: How many claimed announcements (each of another game) are on their way at once. An
#: announcement mostly waits (the store, the picture, Discord): one at a time, a sender on
#: PostgreSQL, whose every operation is round trips, fell behind 20 commits a second
#: (bench/announce.py: a backlog of 15 s).
AT_ONCE = 8
#: When a picture that could not be drawn is tried again, in seconds after the previous try
#: (the message went out without it): a renderer that was overloaded or restarting has had
#: time; a picture that fails every time leaves the message saying it could not be drawn.
PICTURE_RETRIES_S = (5.0, 30.0, 120.0)
#: How long a player's panel can be edited after their command: Discord's interaction token
#: lasts 15 minutes. A player named but not pinged because their own command's reply (their
#: panel) shows the decision is pinged after all when the turn message goes out later than
#: that (a post delayed by an outage or a restart): nothing they see is sure to be current.
PANEL_EDITABLE_MS = 15 * 60_000
#: The line a turn message gets while a picture of it could not be drawn.
PICTURE_MISSING = "🖼️ The picture could not be drawn; it is added here if it can be later."


def poll_interval(store: Store) -> float:
    """How often a sender on this store polls."""
    return SAFETY_POLL_S if isinstance(store, SupportsWakeups) else POLL_S


def process_owner(instance: str | None = None) -> ClaimOwner:
    """This process as a claim owner: `instance` (default: the host name) and a fresh run."""
    run = f"{os.getpid()}-{secrets.token_hex(4)}"
    return ClaimOwner(instance or socket.gethostname() or "localhost", run)


#: Why an announcement was given up unsent: its game ended when its channel or thread went.
GONE = "the game's channel or thread no longer exists"


class DestinationGone(Exception):
    """The port cannot deliver: the game's channel or thread no longer exists."""


class DeliveryFailed(Exception):
    """The port could not deliver now (the platform refused or failed); try again later."""


@runtime_checkable
class AnnouncementPort(Protocol):
    """Where announcements go (Discord, the console, tests)."""

    async def post(self, announcement: Announcement) -> int:
        """Post an announcement to its channel; return the message id. DestinationGone
        when the channel no longer exists (the announcement is given up)."""
        ...

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Remove the buttons of an earlier announcement (it is out of date now)."""
        ...

    async def remind(self, notice: ReminderNotice) -> None:
        """Deliver a reminder ping (and a DM when `notice.dm`); DestinationGone when the
        channel no longer exists, DeliveryFailed when a later try may succeed."""
        ...


@runtime_checkable
class SupportsPictureEdits(Protocol):
    """A port that can add pictures to a message it posted (Discord)."""

    async def add_pictures(self, announcement: Announcement, message_id: int) -> None:
        """Make message `message_id` the announcement: its lines and images (the buttons are
        left as they are)."""
        ...


class OutboxSender:
    """Posts claimed outbox items through the port, once per commit."""

    def __init__(
        self,
        store: Store,
        port: AnnouncementPort,
        clock: Clock,
        *,
        service: OutboxGames | None = None,
        owner: ClaimOwner | None = None,
        lease_ms: int = LEASE_MS,
        renew_every_s: float = RENEW_EVERY_S,
        picture_retries_s: tuple[float, ...] = PICTURE_RETRIES_S,
        doorbell: Doorbell | None = None,
    ) -> None:
        """`doorbell`: the service's publisher; its ring wakes the sender (bot/service/ports.py)."""
        self.store = store
        self.port = port
        self.clock = clock
        self.service = service
        self.owner = owner or process_owner()
        self.lease_ms = lease_ms
        self.renew_every_s = renew_every_s
        self.picture_retries_s = picture_retries_s
        self._wake = (doorbell or Doorbell()).rung
        self._timers: set[asyncio.TimerHandle] = set()
        #: Pictures drawn after their message went out (`_add_pictures`), while they run.
        self._late_pictures: set[asyncio.Task[None]] = set()

    def wake(self) -> None:
        """Deliver soon (called after a commit)."""
        self._wake.set()

    def _wake_at(self, due_ms: int) -> None:
        """Wake when a retried announcement is due again (sooner than a poll may come)."""
        handle: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(handle)
            self.wake()

        delay = max(0.0, (due_ms - self.clock()) / 1000)
        handle = asyncio.get_running_loop().call_later(delay, fire)
        self._timers.add(handle)

    async def run_once(self) -> int:
        """Claim and deliver what is due now; return how many were delivered."""
        delivered = 0
        while True:
            items = await self._claim()
            if not items:
                return delivered
            results = await self._deliver_batch(items)
            delivered += sum(results)
            if not all(results):
                return delivered  # do not spin on a store whose back-off is zero

    async def _deliver_batch(self, items: list[OutboxItem]) -> list[bool]:
        """Deliver a claimed batch, `AT_ONCE` items at a time; whether each was delivered.

        A claim holds one item per game, so they are independent: a failure (its game now
        waits for its back-off) does not hold up the rest. Cancelled (shutdown), the items
        not yet tried are given back now, or they would wait out the lease (forever under a
        test clock that does not move); a failure of the store is raised once every item
        was tried (each that fails gives its own claim back).
        """
        gate = asyncio.Semaphore(AT_ONCE)
        started: set[int] = set()

        async def deliver(item: OutboxItem) -> bool:
            async with gate:
                started.add(item.id)
                return await self._deliver(item)

        try:
            results = await asyncio.gather(
                *(deliver(item) for item in items), return_exceptions=True
            )
        except BaseException:
            await self._release([item for item in items if item.id not in started])
            raise
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return [bool(result) for result in results]

    async def _claim(self) -> list[OutboxItem]:
        """Claim due items; a cancellation during the claim gives them back."""
        # The store finishes a transaction even when its caller is cancelled, so a claim
        # can land after we stopped waiting for it: wait for it anyway and release it.
        claim = asyncio.ensure_future(
            self.store.claim_outbox(owner=self.owner, lease_ms=self.lease_ms)
        )
        try:
            return await asyncio.shield(claim)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await self._release(await claim)
            raise

    async def _release(self, items: list[OutboxItem]) -> None:
        """Give claims back unattempted (shielded: this also runs while being cancelled)."""
        for item in items:
            assert item.claim is not None
            try:
                await asyncio.shield(self.store.release_outbox(item.id, item.claim))
            except DATABASE_DOWN:
                log.debug("announcement %d waits for its lease: the database is down", item.id)
            except Exception:
                log.exception("could not release announcement %d; it waits for its lease", item.id)

    async def is_destination_gone(self, item: OutboxItem) -> bool:
        """Whether the item's game was ended because its channel or thread is gone after the
        item was written (a member's abandonment is still announced)."""
        meta = await self.store.get_game(item.game_id)
        if meta.status != ABANDONED or meta.version <= item.version:
            return False
        last = await self.store.read_log(item.game_id, after=meta.version - 1)
        return bool(last) and ended_for_lost_channel(last[-1].record)

    async def _deliver(self, item: OutboxItem) -> bool:
        """Deliver one claimed item; whatever happens, its claim does not outlive this call."""
        settled: list[bool] = []  # appended to once mark_sent or retry_outbox has run
        try:
            return await self._post(item, settled)
        except BaseException:
            if not settled:
                await self._release([item])
            raise

    async def _post(self, item: OutboxItem, settled: list[bool]) -> bool:
        assert item.claim is not None
        payload = item.payload
        if await self.is_destination_gone(item):
            await self.store.retry_outbox(item.id, item.claim, GONE, give_up=True)
            settled.append(True)
            log.debug("announcement %d of game %d dropped: %s", item.id, item.game_id, GONE)
            return False
        try:
            requests = [ImageRequest.from_json(data) for data in payload.get("images", ())]
            last = tuple(Line.from_json(line) for line in payload.get("last", ()))
            images, undrawn = await self._draw(item, requests, first=True, last=last)
            previous = await self.store.last_message_id(item.game_id, before_item=item.id)
            lines, mentions, waiting = payload_lines(payload)
            if payload.get("reason") != "end":
                mentions = await self._still_deciding(item, mentions)
                late = await self._still_deciding(item, self._told_long_ago(item))
                warned = tuple(int(u) for u in payload.get("heads_up", ()))
                mentions = tuple(dict.fromkeys((*mentions, *late, *warned)))
            announcement = Announcement(
                outbox_id=item.id,
                game_id=item.game_id,
                version=item.version,
                channel_id=item.channel_id,
                lines=(*lines, Line.of(PICTURE_MISSING)) if undrawn else lines,
                images=images,
                mentions=mentions,
                waiting_for=waiting,
                silent=bool(payload.get("silent", False)),
                previous_message_id=previous,
                play_button=bool(payload.get("play_button", True)),
                reason=str(payload.get("reason", "turn")),
                heads_up=tuple(u for u in mentions if u in payload.get("heads_up", ())),
            )
            message_id = int(await self.port.post(announcement))
        except DestinationGone as gone:
            await self.store.retry_outbox(item.id, item.claim, str(gone), give_up=True)
            settled.append(True)
            ended = None
            if self.service is not None:
                ended = await self.service.moderation.destination_gone(
                    item.channel_id, CHANNEL_UNKNOWN
                )
            # The service logged the game's end (now, or when Discord told of the deletion
            # while this item was on its way), which says it all.
            if ended is None and not await self.is_destination_gone(item):
                log.warning("announcement %d of game %d given up: %s", item.id, item.game_id, gone)
            return False
        except Exception as exc:
            due = await self.store.retry_outbox(item.id, item.claim, f"{type(exc).__name__}: {exc}")
            settled.append(True)
            if due is not None:
                self._wake_at(due)
            log.warning(
                "announcement %d of game %d failed (%s); retry at %s",
                item.id,
                item.game_id,
                exc,
                due,
            )
            return False
        sent = await self.store.mark_sent(item.id, item.claim, message_id)
        settled.append(True)
        if not sent:
            log.warning("announcement %d: claim lost after posting message %d", item.id, message_id)
            return False
        if undrawn:
            self._draw_later(dataclasses.replace(announcement, lines=lines), requests, message_id)
        if previous is not None:
            try:
                await self.port.strip_buttons(item.channel_id, previous)
            except Exception:  # cosmetic: an old button only answers "the game moved on"
                log.exception("could not strip the buttons of message %d", previous)
        return True

    async def _still_deciding(self, item: OutboxItem, mentions: tuple[int, ...]) -> tuple[int, ...]:
        """The users among `mentions` who have not answered since this commit: one who made
        their choice of several asked at once (from the panel, before this post) is named
        by the message but not pinged for what they have done."""
        if self.service is None or not mentions:
            return mentions
        return await self.service.desk.still_to_decide(item.game_id, item.version, mentions)

    def _told_long_ago(self, item: OutboxItem) -> tuple[int, ...]:
        """The players the commit named without a ping (their panel showed the decision),
        if that panel can no longer be edited by now: the commit (which wrote the item) was
        longer ago than `PANEL_EDITABLE_MS`."""
        told = tuple(int(u) for u in item.payload.get("told", ()))
        if not told or self.clock() - item.created_at < PANEL_EDITABLE_MS:
            return ()
        return told

    async def _draw(
        self,
        item: OutboxItem | Announcement,
        requests: list[ImageRequest],
        *,
        first: bool,
        last: Sequence[Line] = (),
    ) -> tuple[tuple[Image, ...], bool]:
        """The pictures that can be drawn now, with their alt text (``last``: what the turn
        did), and whether any could not (those are left out: the text, the ping and the
        buttons never wait for a picture). A database that is down is not the picture's
        fault: it raises, and the whole post waits as every write does."""
        if self.service is None:
            return (), False
        images = []
        undrawn = False
        for request in requests:
            try:
                picture = await self.service.views.request_picture(request, last)
            except DATABASE_DOWN:
                raise
            except Exception as exc:
                undrawn = True
                where = (request.view, item.game_id, request.version)
                if first:  # a fault of the renderer: reported once, with its traceback
                    log.exception(
                        "the %s picture of game %d at version %d could not be drawn", *where
                    )
                else:
                    log.info("the %s picture of game %d at version %d still fails: %s", *where, exc)
                continue
            name = f"barrage-{request.game_id}-{request.version}-{request.view}.png"
            images.append(Image(name, picture.data, picture.description))
        return tuple(images), undrawn

    def _draw_later(
        self, announcement: Announcement, requests: list[ImageRequest], message_id: int
    ) -> None:
        """Try the pictures of a message that went out without some again, in the background."""
        if not isinstance(self.port, SupportsPictureEdits) or not self.picture_retries_s:
            return  # the message says the picture could not be drawn, which stays true
        task = asyncio.get_running_loop().create_task(
            self._add_pictures(announcement, requests, message_id),
            name=f"late pictures of announcement {announcement.outbox_id}",
        )
        self._late_pictures.add(task)
        task.add_done_callback(self._late_pictures.discard)

    async def _add_pictures(
        self, announcement: Announcement, requests: list[ImageRequest], message_id: int
    ) -> None:
        """Draw the pictures again after each delay; once all are drawn, add them to the
        message (which loses its note). After the last try the note stays: it is true."""
        assert isinstance(self.port, SupportsPictureEdits)
        for delay in self.picture_retries_s:
            await asyncio.sleep(delay)
            try:
                images, undrawn = await self._draw(announcement, requests, first=False)
                if undrawn:
                    continue
                await self.port.add_pictures(
                    dataclasses.replace(announcement, images=images), message_id
                )
            except DATABASE_DOWN as exc:
                log.debug("late pictures of announcement %d wait: %s", announcement.outbox_id, exc)
                continue
            except Exception as exc:  # the platform refused the edit: the next try may do
                log.warning(
                    "could not add the pictures to message %d: %s", message_id, exc, exc_info=True
                )
                continue
            log.info("the pictures of announcement %d were added later", announcement.outbox_id)
            return
        log.warning(
            "the pictures of announcement %d of game %d could not be drawn after %d more tries; "
            "its message says so",
            announcement.outbox_id,
            announcement.game_id,
            len(self.picture_retries_s),
        )

    async def settle_pictures(self) -> None:
        """Wait until the pictures being drawn late are added or given up (tests, shutdown)."""
        while self._late_pictures:
            await asyncio.gather(*self._late_pictures, return_exceptions=True)

    async def recover(self) -> int:
        """Take back what earlier runs of this instance held when they died; return how many."""
        recovered = await self.store.recover_outbox_claims(self.owner)
        if recovered:
            log.info(
                "taking back %d announcement(s) left claimed by an earlier run of %s",
                recovered,
                self.owner.instance,
            )
        return recovered

    async def renew(self, stop: asyncio.Event) -> None:
        """Renew this sender's leases every `renew_every_s` until `stop`."""
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), self.renew_every_s)
            try:
                await self.store.renew_outbox_claims(self.owner, lease_ms=self.lease_ms)
            except DATABASE_DOWN as exc:  # the store logged the outage once
                log.debug("could not renew the outbox leases: %s", exc)
            except Exception as exc:  # the next renewal tries again, well within the lease
                log.warning("could not renew the outbox leases: %s", exc)

    async def run(self, stop: asyncio.Event, *, interval_s: float | None = None) -> None:
        """Deliver at start-up, after each wake-up, and every `interval_s` (default: by the
        store, see `poll_interval`), until `stop`.

        Starts by taking back what a crashed earlier run of this instance held, and renews
        its own leases while it runs. On a store shared by several processes, a commit in
        any of them wakes this sender.
        """
        if interval_s is None:
            interval_s = poll_interval(self.store)
        if isinstance(self.store, SupportsWakeups):
            try:
                await self.store.subscribe("outbox", self.wake)
            except Exception as exc:  # the poll stands in until the next start
                log.warning(
                    "no wake-ups from the database (%s); polling every %g s", exc, interval_s
                )
        try:
            await self.recover()
        except DATABASE_DOWN as exc:  # the claims run out with their lease instead
            log.debug("could not take back the claims of an earlier run: %s", exc)
        except Exception:
            log.exception("could not take back the claims of an earlier run")
        renewer = asyncio.create_task(self.renew(stop), name="outbox lease renewal")
        try:
            await self._deliver_until(stop, interval_s)
        finally:
            renewer.cancel()
            for task in self._late_pictures:
                task.cancel()
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
            # A picture not added by now is not added: its message says it could not be drawn.
            await asyncio.gather(*self._late_pictures, return_exceptions=True)

    async def _deliver_until(self, stop: asyncio.Event, interval_s: float) -> None:
        """The delivery loop of `run`."""
        while not stop.is_set():
            # Cleared before delivering: a commit that wakes us during a delivery must not
            # be forgotten until the next poll.
            self._wake.clear()
            try:
                await self.run_once()
            except DATABASE_DOWN as exc:
                log.debug("outbox delivery waits for the database: %s", exc)
            except Exception:
                log.exception("outbox delivery failed; trying again shortly")
            waiters = {asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())}
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait(waiters, timeout=interval_s, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()


def payload_lines(
    payload: Mapping[str, Any],
) -> tuple[tuple[Line, ...], tuple[int, ...], tuple[int, ...]]:
    """An outbox payload's lines, users to ping and users who must act next.

    Payloads written before announcements were lines (`text` and one `mention_user_id`) are
    still read, so an upgrade delivers what an older release committed.
    """
    if "lines" in payload:
        lines = tuple(Line.from_json(line) for line in payload["lines"])
        mentions = tuple(int(u) for u in payload.get("mentions", ()))
        return lines, mentions, tuple(int(u) for u in payload.get("waiting_for", ()))
    legacy = payload.get("mention_user_id")
    mentions = (int(legacy),) if legacy else ()
    return (Line.of(str(payload.get("text", ""))),), mentions, mentions
