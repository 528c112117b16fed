"""A picture that cannot be drawn never holds up its turn: the text, the ping and the buttons go
out at once, the message says the picture is missing, and the picture is added when it can be."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.service import Announcement, GameService, OutboxSender, RendererPool
from bot.service.outbox import PICTURE_MISSING, SupportsPictureEdits
from bot.service.types import render_lines
from bot.store import SqliteStore
from tests.service.conftest import fake_png
from tests.service.helpers import FakeClock, RecordingPort, started_game


@dataclass
class FlakyRenderer:
    """A renderer whose first `fails` drawings raise (None: every one)."""

    fails: int | None = None
    calls: int = 0

    def __call__(self, state_json: object, view: str, company: str | None, theme: str) -> bytes:
        self.calls += 1
        if self.fails is None or self.calls <= self.fails:
            raise RuntimeError("the renderer broke")
        return fake_png(state_json, view, company, theme)


@dataclass
class EditingPort(RecordingPort):
    """A recording port that can add pictures to its messages later."""

    added: list[tuple[Announcement, int]] = field(default_factory=list)

    async def add_pictures(self, announcement: Announcement, message_id: int) -> None:
        self.added.append((announcement, message_id))


async def service_drawing_with(
    tmp_path: Path, clock: FakeClock, renderer: FlakyRenderer
) -> GameService:
    store = await SqliteStore.open(tmp_path / "pictures.sqlite3", clock=clock)
    pool = RendererPool(kind="inline", render_fn=renderer)
    return GameService(store, clock=clock, renderer_pool=pool)


def text(announcement: Announcement) -> str:
    return render_lines(announcement.lines, str)


async def test_a_broken_renderer_does_not_hold_up_the_turn(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    service = await service_drawing_with(tmp_path, clock, FlakyRenderer())
    try:
        game_id = await started_game(service)
        port = EditingPort()
        assert isinstance(port, SupportsPictureEdits)
        sender = OutboxSender(service.store, port, clock, service=service, picture_retries_s=(0, 0))
        with caplog.at_level(logging.INFO, logger="bot.service.outbox"):
            # Posted on the first try, the clock unmoved: nothing waits for a back-off.
            assert await sender.run_once() == 1
            [posted] = port.posted
            assert posted.images == () and PICTURE_MISSING in text(posted)
            assert posted.mentions and posted.play_button and posted.game_id == game_id
            assert await service.store.pending_outbox(game_id) == []
            await sender.settle_pictures()
        # Tried twice more, in vain: the note stays, which is true; the fault is an ERROR once.
        assert port.added == []
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and errors[0].exc_info is not None
        assert "could not be drawn after 2 more tries" in caplog.text
    finally:
        await service.store.close()


async def test_a_picture_drawn_later_is_added_and_the_note_goes(
    tmp_path: Path, clock: FakeClock
) -> None:
    renderer = FlakyRenderer(fails=1)
    service = await service_drawing_with(tmp_path, clock, renderer)
    try:
        await started_game(service)
        port = EditingPort()
        sender = OutboxSender(service.store, port, clock, service=service, picture_retries_s=(0,))
        assert await sender.run_once() == 1
        [posted] = port.posted
        assert posted.images == () and PICTURE_MISSING in text(posted)
        await sender.settle_pictures()
        [(late, message_id)] = port.added
        assert message_id == 900_001 and late.outbox_id == posted.outbox_id
        assert [i.data for i in late.images] == [fake_png(None, "map", None, "light")]
        assert PICTURE_MISSING not in text(late)
        assert late.lines == posted.lines[:-1] and late.mentions == posted.mentions
    finally:
        await service.store.close()


async def test_a_port_that_cannot_edit_keeps_the_note(tmp_path: Path, clock: FakeClock) -> None:
    service = await service_drawing_with(tmp_path, clock, FlakyRenderer(fails=1))
    try:
        await started_game(service)
        port = RecordingPort()
        assert not isinstance(port, SupportsPictureEdits)
        sender = OutboxSender(service.store, port, clock, service=service, picture_retries_s=(0,))
        assert await sender.run_once() == 1
        await sender.settle_pictures()
        [posted] = port.posted
        assert posted.images == () and PICTURE_MISSING in text(posted)
    finally:
        await service.store.close()
