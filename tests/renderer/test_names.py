"""Players' names on the pictures: every script the bundled fonts cover is drawn, never boxes."""

from __future__ import annotations

import io
import unicodedata
from importlib import resources
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from bot.rules.computers import ComputerSeat
from renderer import names
from renderer.describe import alt_text
from renderer.people import Player
from renderer.render import render
from renderer.samples import midgame_state
from renderer.theme import get_theme
from tests.texts.checker import check_text

FONTS = Path(resources.files("renderer.fonts"))  # type: ignore[arg-type]
#: A name in each script the pictures promise, as players write them.
SCRIPTS = {
    "Latin": "Zoë Ångström-Łukasz",
    "Greek": "Σωκράτης",
    "Cyrillic": "Мария Ивановна",
    "Hebrew": "אברהם",
    "Arabic": "محمد علي",
    "Chinese": "王小明",
    "Japanese": "さくら・カタカナ",
    "Korean": "김민준",
    "emoji": "Dam builder 🌍⚡👍❤️",
    "emoji sequences": "👩\u200d🚀 🇫🇷 🏳️\u200d🌈 👍🏽 1️⃣ 👨\u200d👩\u200d👧",
}
#: Emoji people commonly put in display names: the most used ones, then games, animals,
#: fantasy, sport and the newer hearts and faces.
COMMON_EMOJI = (
    "😂❤️🤣👍😭🙏😘🥰😍😊🎉😁💕🥺😅🔥☺️🤦🤷🙄😆🤗😉🎂🤔👏🙂😳🥳😎👌💜😔💪✨💖👀😋😏😢👉💗😩💯"
    "🌹💞🎈💙😃😡💐😜🙈🤞😄🤤🙌🤪❣️😀💋💀👇💔😌💓🤩🙃😬😱😴🤭😐🌞😒😇🌸😈🎶✌️🎊🥵😞💚☀️🖤"
    "💰😚👑🎁💥🙋☹️😑🥴👈💩✅👋🤮😤🤢🌟❗😥🌈💛😝😫😲🖕‼️🔴🌻🤯💃👊🤬🏃😕👁️⚡☕🍀💦⭐🦋🤨"
    "🌺😹🤘🌷💝💤🤝🐰😓💘🍻😟😣🧐😠🤠😻🌙😛🤙🙊🎮🎲🕹️👾🤖🐉🦄🐺🦊🐱🐶🐼🐸🐧🦁🐯🐻🐨🐢🐍"
    "🦈🐙🌊🌍🌎🌏⚓🏆🥇🎯🚀🛸⛵🏔️🌋🍕🍔🍩🍺☠️👻🎃🧙🧛🥷🗡️⚔️🛡️🏹🔱♟️🧩🎸🎧📚💎🧠🫠🥹🫡🪐🤍"
    "🤎🧡"
)
#: Joined emoji (ZWJ sequences, flags, skin tones, keycaps): each drawn as one glyph.
JOINED_EMOJI = (
    "👩\u200d🚀", "👨\u200d💻", "🏳️\u200d🌈", "🏴\u200d☠️", "❤️\u200d🔥", "🐻\u200d❄️",
    "👨\u200d👩\u200d👧\u200d👦", "🧑\u200d🤝\u200d🧑", "😶\u200d🌫️", "🇫🇷", "🇺🇸", "🇯🇵", "🇧🇷",
    "👍🏽", "👋🏿", "💪🏻", "1️⃣", "#️⃣",
)  # fmt: skip


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_character_of_a_name_has_a_bundled_font(script: str) -> None:
    """The check the issue asks for: it fails when a glyph is missing from every font."""
    name = SCRIPTS[script]
    assert names.missing(name) == [], (script, name)
    assert names.drawable(name)
    assert names.width(name, 38) > 0


def test_emoji_people_put_in_their_names_are_drawn() -> None:
    """Each common emoji, and every pictograph of Unicode's emoji blocks (except the twelve
    heraldic crosses at U+1F900-1F90B, which are not emoji), has a glyph; a joined emoji is
    drawn as one glyph, not as its parts."""
    assert names.missing(COMMON_EMOJI) == []
    for joined in JOINED_EMOJI:
        assert names.missing(joined) == [], joined
        assert len(names.clean(joined)) == 1, joined
        assert names.width(joined, 38) < 2 * names.width("👍", 38), joined
    for code in range(0x1F300, 0x1FB00):
        char = chr(code)
        if unicodedata.category(char) == "So" and not 0x1F900 <= code <= 0x1F90B:
            assert names.face_of(char) is not None, hex(code)


def test_a_name_is_cut_between_emoji_never_inside_one() -> None:
    name = "👨\u200d👩\u200d👧\u200d👦" * 12
    cut = names.fitted(name, "", 38, 200)
    assert cut.endswith(names.ELLIPSIS) and set(cut[:-1]) == set(names.clean(name))


def test_the_coverage_file_is_what_the_fonts_have() -> None:
    """coverage.json is built from the fonts' own tables (tools/build_fonts.py --coverage),
    so a name said drawable is drawn with a real glyph."""
    for face, file in names.FACES:
        cmap = TTFont(FONTS / file).getBestCmap()
        for first, last in names.coverage()[face]:
            assert first in cmap and last in cmap, (face, hex(first), hex(last))
        covered = sum(last - first + 1 for first, last in names.coverage()[face])
        assert covered == len([c for c in cmap if c >= 0x20]), face
    emoji = TTFont(FONTS / dict(names.FACES)["emoji"]).getBestCmap()
    joined, _ = names._sequences()
    assert len(joined) > 3000 and all(ord(c) in emoji for c in joined.values())


def test_the_bundled_fonts_fit_in_20_mb_under_licences_we_ship() -> None:
    total = sum(p.stat().st_size for p in FONTS.iterdir() if p.suffix in (".ttf", ".otf"))
    assert total <= 20 * 1024 * 1024, total
    licence = (FONTS / "LICENSE-Noto.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    for _face, file in names.FACES[1:]:
        assert file in licence, file


def test_a_script_no_font_has_falls_back_to_the_username_then_nobody() -> None:
    thai = "สมชาย"
    assert not names.drawable(thai)
    assert names.fitted(thai, "somchai_99", 38, 400) == "somchai_99"
    assert names.fitted(thai, "Player 2", 38, 400) == "Player 2"
    # Characters joined in no font would be drawn as their parts: not drawn at all.
    assert not names.drawable("👩\u200d🦖")
    assert names.fitted("Rex 👩\u200d🦖", "rex_rider", 38, 400) == "rex_rider"
    assert names.fitted("Wave 🌊", "wave_rider", 38, 400) == "Wave 🌊"


def test_a_long_name_is_cut_with_an_ellipsis_to_fit() -> None:
    long = "Bartholomew Maximilian Featherstonehaugh"
    cut = names.fitted(long, "", 38, 300)
    assert cut.endswith("…") and long.startswith(cut[:-1])
    assert names.width(cut, 38) <= 300


def test_arabic_is_shaped_and_right_to_left_text_is_put_in_visual_order() -> None:
    shown = names.visual("محمد")
    # Joined forms (presentation forms B), last letter first.
    assert all(0xFE70 <= ord(c) <= 0xFEFF for c in shown)
    assert shown != "محمد"[::-1]
    assert names.visual("אבג") == "גבא"
    assert names.visual("Alice") == "Alice"


def test_the_scoreboard_draws_each_name_beside_its_symbol() -> None:
    state = midgame_state()
    players = [
        Player(c, SCRIPTS[s])
        for c, s in zip(state.companies, ("Arabic", "Chinese", "Greek", "emoji"), strict=False)
    ]
    with_names = Image.open(io.BytesIO(render(state, view="map", players=players)))
    without = Image.open(io.BytesIO(render(state, view="map")))
    assert with_names.size == without.size
    theme = get_theme()
    style = theme.views["map"]
    # The name column is left of the numbers: the row there has ink where it had none.
    row = (130, 140, 400, 200)
    assert with_names.convert("RGB").crop(row).getcolors(4096) != without.convert("RGB").crop(
        row
    ).getcolors(4096)
    assert style.width == with_names.width


def test_computer_seats_are_marked_with_kind_and_level() -> None:
    assert ComputerSeat.automa(2).mark() == "A2"
    assert ComputerSeat("ai", "casual").mark() == "AI1"
    assert ComputerSeat("automa", "hard").title() == "hard automa, level 2"
    assert ComputerSeat("ai", "strong").title() == "strong AI player, level 2"
    assert ComputerSeat("ai", "casual").named_mark() == "AI1 · AI player"
    state = midgame_state()
    cid = next(iter(state.companies))
    alt = alt_text(state, "The map", players=[Player(cid, computer=ComputerSeat("ai", "strong"))])
    assert "strong AI player, level 2" in alt
    with pytest.raises(ValueError, match="unknown computer kind"):
        ComputerSeat("robot", "strong")
    with pytest.raises(ValueError, match="unknown ai level 'hard'; expected one of casual, strong"):
        ComputerSeat("ai", "hard")


def test_an_alt_text_tells_a_repeated_turn_as_such_not_twice() -> None:
    """Two automa turns that did the same read "(twice)", a later one "Again, …": the text
    check finds a sentence said twice in one line."""
    state = midgame_state()
    wheel = ["Germany (automa) played:", "• turned its wheel 1 segment"]
    bank = ["France (Ann) played:", "• Bank: +2 credits"]
    alt = alt_text(state, "The map", last_turn=[*wheel, *wheel, *bank, *wheel])
    assert "played: turned its wheel 1 segment (twice). France" in alt
    assert "Again, Germany (automa) played: turned its wheel 1 segment." in alt
    assert check_text(alt, "test") == []
