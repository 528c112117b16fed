"""The private preview through Discord: a turn in progress shown to its player alone.

Mid-turn, the deciding player presses Preview on the panel and runs `/barrage board
preview:true`: both answers are ephemeral (the fake shows an ephemeral message to its user
only, and refuses a click on a message the clicker cannot see), carry pictures marked as a
preview, and nothing public is posted; the other player and a spectator see nothing new and
are refused a preview privately. After Confirm the public turn message comes as usual, with a
picture that is not marked.
"""

from __future__ import annotations

import io
from pathlib import Path

from fakediscord import FakeDiscord, FakeUser, Message
from PIL import Image

from bot.commands import ids
from renderer.theme import get_theme
from tests.commands.kit import (
    FakeClock,
    barrage_bot,
    option_ids,
    select_of,
    start_game,
    turn_messages,
    wait_turn_message,
)


def _marked_as_preview(png: bytes) -> bool:
    """Whether a picture carries the preview's mark: a patch of its colour at the top."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colour = get_theme().colour("preview").lstrip("#")
    wanted = tuple(int(colour[i : i + 2], 16) for i in (0, 2, 4))
    band = image.crop((0, 0, image.width, min(image.height, 120)))
    found = dict((c, n) for n, c in band.getcolors(band.width * band.height) or ()).get(wanted, 0)
    return found > 2000  # the mark beside the turn line (or a banner), not a stray pixel


def _control(message: Message, kind: str) -> str | None:
    """The custom_id of a panel control (``pr`` Preview, ``rs`` Restart turn), if shown."""
    return next((c for c in message.custom_ids if c.startswith(f"{ids.PREFIX}:{kind}:")), None)


async def _press_first(player: FakeUser, panel: Message) -> Message:
    """Answer the panel's first choice (a button, or the select's first value)."""
    buttons = option_ids(panel)
    if buttons:
        confirm = [c for c in buttons if c.endswith(":confirm")]
        return await (await player.click(panel, (confirm or buttons)[0])).reply()
    select = select_of(panel)
    assert select is not None, panel.content
    value = panel.component(select)["options"][0]["value"]
    return await (await player.select(panel, select, [value])).reply()


async def test_preview_is_private_and_marked_until_confirm(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    players = [fake.alice, fake.bob]
    spectator = fake.dave
    async with barrage_bot(fake, tmp_path / "db.sqlite3", FakeClock()):
        game_id, turn = await start_game(fake, players, seed=9)
        player = fake.users[turn.mentions[0]]
        other = next(p for p in players if p is not player)
        assert not _marked_as_preview(turn.png)

        # Mid-turn: one answer given, the turn not confirmed.
        play = next(c for c in turn.custom_ids if c.startswith("brg:play:"))
        panel = await (await player.click(turn, play)).reply()
        assert _control(panel, "pr") is None  # nothing to preview before the first answer
        panel = await _press_first(player, panel)
        assert "Done this turn" in panel.content
        preview_id = _control(panel, "pr")
        assert preview_id == ids.preview_id(game_id, int(preview_id.split(":")[3]))

        public = fake.channel_messages(fake.general)
        seen = {u.id: list(u.visible_messages(fake.general)) for u in (other, spectator)}
        pings = {u.id: len(u.pings()) for u in (*players, spectator)}

        # The panel's Preview button: the map and the shared boards, for the player alone.
        pressed = await (await player.click(panel, preview_id)).reply()
        assert pressed.ephemeral and pressed.visible_to == player.id
        assert "only you see it" in pressed.content
        names = [a.filename for a in pressed.attachments]
        assert names == ["preview-map.png", "preview-shared.png"]
        assert all(_marked_as_preview(a.data) for a in pressed.attachments)

        # The slash command: the view asked for, privately.
        board = await (await player.slash("barrage board", view="map", preview=True)).reply()
        assert board.ephemeral and board.visible_to == player.id
        assert [a.filename for a in board.attachments] == ["preview-map.png"]
        assert _marked_as_preview(board.png)
        assert board.png != turn.png  # the turn so far, not the committed board

        # The other player and a spectator: a private refusal saying why, and no picture.
        for asker, why in ((other, "no turn in progress"), (spectator, "not playing")):
            refusal = await (await asker.slash("barrage board", preview=True)).reply()
            assert refusal.ephemeral and refusal.visible_to == asker.id
            assert why in refusal.content and not refusal.attachments
            # They cannot press the player's Preview: its panel is not theirs to see.
            assert not panel.visible_for(asker.id) and not pressed.visible_for(asker.id)

        # Nothing public was posted; nobody else saw or was pinged about the preview.
        assert fake.channel_messages(fake.general) == public
        for user in (other, spectator):
            mine = [m for m in user.visible_messages(fake.general) if m not in seen[user.id]]
            assert all(m.visible_to == user.id for m in mine), "only their own refusal"
            assert not any(m.attachments for m in mine)
        assert {u.id: len(u.pings()) for u in (*players, spectator)} == pings

        # Confirm: the public turn message comes as usual, its picture unmarked.
        while option_ids(panel) or select_of(panel):
            panel = await _press_first(player, panel)
        following = await wait_turn_message(fake, after=turn.id)
        assert not following.ephemeral and following.visible_to is None
        assert not _marked_as_preview(following.png)
        assert following.mentions == [other.id]
        assert following in turn_messages(fake)
        # The preview stays the player's own after the turn is public.
        assert all(not m.visible_for(other.id) for m in (pressed, board))
