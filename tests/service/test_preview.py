"""A private preview of a turn in progress: its player's alone, marked, cached apart from the
committed pictures, and showing nothing only Confirm reveals (the refilled contracts)."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.service import GameService, NotAPlayer, RendererPool, ServiceError
from bot.service.images import Preview, render_json
from bot.store import SqliteStore
from tests.service.helpers import USERS, FakeClock, actor, started_game


class Handed:
    """A render function that keeps what the service hands it (and draws it for real)."""

    def __init__(self) -> None:
        self.states: list[tuple[Any, str]] = []

    def __call__(self, state: Any, view: str, company: str | None, theme: str) -> bytes:
        self.states.append((state, view))
        return render_json(state, view, company, theme)


@pytest.fixture
async def real(tmp_path: Path) -> tuple[GameService, Handed]:
    """A service drawing real pictures inline, keeping what it draws."""
    clock = FakeClock()
    store = await SqliteStore.open(tmp_path / "preview.sqlite3", clock=clock)
    handed = Handed()
    pool = RendererPool(kind="inline", render_fn=handed)
    service = GameService(store, clock=clock, renderer_pool=pool)
    yield service, handed
    await store.close()


async def _turn_in_progress(service: GameService, players: int) -> int:
    """Play a seeded policy until a player has a turn in progress; return that user."""
    rng = random.Random(5)
    for _ in range(400):
        for user in USERS[:players]:
            panel = await service.views.panel(actor(user))
            if not panel.options:
                continue
            if panel.can_restart:
                return user
            pick = rng.choice(panel.options)
            await service.moves.play(actor(user), [pick.notation], expected_version=panel.version)
            break
    raise AssertionError("no turn in progress reached")


async def test_only_the_player_of_a_turn_in_progress_can_preview_it(
    real: tuple[GameService, Handed],
) -> None:
    service, handed = real
    await started_game(service, 2, seed=3)
    with pytest.raises(ServiceError, match="no turn in progress"):
        await service.views.preview_image(actor(USERS[0]))
    user = await _turn_in_progress(service, 2)
    other = next(u for u in USERS[:2] if u != user)
    with pytest.raises(ServiceError, match="no turn in progress"):
        await service.views.preview_image(actor(other))
    with pytest.raises(NotAPlayer):
        await service.views.preview_image(actor(USERS[3]))
    with pytest.raises(ServiceError, match="not the score"):
        await service.views.preview_image(actor(user), "score")
    with pytest.raises(ServiceError, match="no view 'nowhere'"):
        await service.views.preview_image(actor(user), "nowhere")

    preview = await service.views.preview_image(actor(user), "map")
    committed = await service.views.board_image(actor(user).channel_id, "map")
    assert preview != committed  # cached apart: the preview is not the committed picture
    assert Image.open(io.BytesIO(preview)).mode == "P"
    kinds = [type(state).__name__ for state, _view in handed.states]
    assert "Preview" in kinds
    # The preview carries its mark (beside the turn line, the same height); the committed
    # view does not.
    assert _marks(preview) > 2000 and _marks(committed) == 0
    assert Image.open(io.BytesIO(preview)).size == Image.open(io.BytesIO(committed)).size


def _marks(png: bytes) -> int:
    """Pixels of the preview's colour in the picture's header."""
    from renderer.theme import get_theme

    image = Image.open(io.BytesIO(png)).convert("RGB")
    top = image.crop((0, 0, image.width, 150))
    wanted = Image.new("RGB", (1, 1), get_theme().colour("preview")).getpixel((0, 0))
    return dict((c, n) for n, c in top.getcolors(top.width * top.height) or ()).get(wanted, 0)


async def test_a_preview_shows_no_refilled_contract(real: tuple[GameService, Handed]) -> None:
    service, handed = real
    game_id = await started_game(service, 2, seed=9)
    rng = random.Random(2)
    # Play until a player's turn in progress has taken a private contract (not yet refilled).
    for _ in range(600):
        loaded = await service.desk.game_for_reminder(game_id)
        assert loaded is not None and loaded.game is not None
        state = loaded.game.state
        if state.pending_refill:
            break
        user = service.desk.users_deciding(loaded)[0]
        panel = await service.views.panel(actor(user))
        takes = [o for o in panel.options if o.notation.startswith(("take", "contract"))]
        pick = rng.choice(takes or panel.options)
        await service.moves.play(actor(user), [pick.notation], expected_version=panel.version)
    else:
        raise AssertionError("no contract taken in a turn in progress")
    handed.states.clear()
    await service.views.preview_image(actor(user), "shared")
    (drawn, view), *_ = handed.states
    assert isinstance(drawn, Preview) and view == "shared"
    assert drawn.state.pending_refill == state.pending_refill  # Confirm has not refilled them
    # The offer is short of what was taken: Confirm alone draws the next contracts.
    for level in state.pending_refill:
        assert len(drawn.state.private_offer[level]) < len(loaded.committed.private_offer[level])
