"""The renderer's caches of drawn pieces (stamps, flat texts, finished parts) change no pixel
and never carry one game's state into another's picture."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

from bot.rules import GameOptions, GameState, new_game
from renderer import canvas as canvas_module
from renderer import draw as d
from renderer.expansions import drawing
from renderer.render import clear_caches, clear_stamps, forget_pictures, render, views
from renderer.samples import midgame_state


def _pixels(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def _same(a: bytes, b: bytes) -> bool:
    return ImageChops.difference(_pixels(a), _pixels(b)).getbbox() is None


def _games() -> list[GameState]:
    return [
        midgame_state(),
        new_game(GameOptions(players=2, seed=5)).state,
        drawing("leeghwater").sample_state(),
        drawing("colorado").sample_state(),
        drawing("nile").sample_state(),
    ]


def test_a_game_drawn_after_others_is_drawn_as_when_nothing_was_cached() -> None:
    games = _games()
    fresh: dict[tuple[int, str], bytes] = {}
    for i, state in enumerate(games):
        for view in views(state.options):
            forget_pictures()
            fresh[i, view] = render(state, view=view)
    # Every game after every other, then the first again: caches full of the others' pictures.
    for i, state in [*enumerate(games), (0, games[0])]:
        for view in views(state.options):
            clear_caches()  # finished views forgotten: the stamps and backgrounds are kept
            assert render(state, view=view) == fresh[i, view], (i, view)


def test_stamps_and_flat_texts_draw_the_pixels_drawing_in_place_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = midgame_state()
    stamped = {view: render(state, view=view) for view in views(state.options)}
    forget_pictures()

    def in_place(draw, key, rect, paint, placed=False):  # type: ignore[no-untyped-def]
        paint(draw, rect)

    monkeypatch.setattr(d, "item", in_place)
    monkeypatch.setattr(d, "STAMPED_BOX_PIXELS", 0)
    monkeypatch.setattr(d.STAMPS, "get", lambda key, make: None)
    try:
        for view, png in stamped.items():
            assert _same(render(state, view=view), png), view
    finally:
        forget_pictures()


def test_a_stamp_is_refused_where_its_pixels_depend_on_what_is_under_it() -> None:
    def over_the_edge(canvas: d.Recorder) -> None:
        d.text(canvas, (10, 10), "Barrage", 30, "#000000", anchor="lm")

    def on_a_box(canvas: d.Recorder) -> None:
        canvas.rectangle((2, 2, 200, 60), fill="#ffffff")
        d.text(canvas, (10, 30), "Barrage", 30, "#000000", anchor="lm")

    assert d.stamp_of((120, 40), over_the_edge) is None  # antialiased over black and white
    assert d.stamp_of((210, 70), on_a_box) is not None


def test_a_text_said_to_be_on_a_colour_it_is_not_on_fails_the_check() -> None:
    image = Image.new("RGB", (200, 60), "#ffffff")
    canvas = d.canvas(image, [])
    canvas.rectangle((0, 0, 40, 60), fill="#000000")
    with d.check_flat(), pytest.raises(AssertionError, match="not #ffffff"):
        d.text(canvas, (10, 30), "Barrage", 30, "#333333", anchor="lm", on="#ffffff")


def test_a_piece_in_an_item_kept_apart_from_its_place_is_refused() -> None:
    from renderer.theme import get_theme

    style = get_theme().company("germany")
    canvas = d.canvas(Image.new("RGB", (300, 100), "#ffffff"), [])

    def paint(draw, rect):  # type: ignore[no-untyped-def]
        d.box(draw, rect, "#eeeeee", "#333333")
        d.piece(draw, (rect[0] + 30, (rect[1] + rect[3]) // 2), 19, style, 20)

    with pytest.raises(ValueError, match="placed=True"):
        d.item(canvas, ("test piece",), (10, 10, 200, 70), paint)
    d.item(canvas, ("test piece",), (10, 10, 200, 70), paint, placed=True)


def _stamp_painted_twice(
    size: tuple[int, int],
    paint: Callable[[d.Recorder], None],
    origin: d.Point = (0, 0),
    where: d.Point | None = None,
) -> d.Stamp | None:
    """The stamp as first made: painted over black and over white, compared band by band."""

    def any_band(image: Image.Image) -> Image.Image:
        r, g, b = image.split()
        return ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v else 0)

    black, white = (Image.new("RGB", size, under) for under in ((0, 0, 0), (255, 255, 255)))
    with d.not_recording():
        for canvas in (black, white):
            paint(d.Recorder(canvas, origin=where))
    painted = ImageChops.lighter(any_band(black), any_band(ImageChops.invert(white)))
    differ = any_band(ImageChops.difference(black, white))
    box = painted.getbbox()
    if box is None or ImageChops.multiply(differ, painted).getbbox() is not None:
        return None
    x0, y0, x1, y1 = box
    if x0 == 0 or y0 == 0 or x1 == size[0] or y1 == size[1]:
        return None
    offset = (x0 + origin[0], y0 + origin[1])
    mask = painted.crop(box).convert("1", dither=Image.Dither.NONE)
    return d.Stamp(black.crop(box), mask, offset)


def _played(options: GameOptions, every: int) -> list[GameState]:
    """Every ``every``-th position of a seeded random game."""
    game = new_game(options)
    rng = random.Random(options.seed)
    out: list[GameState] = []
    while not game.is_over:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
        if len(game.events) and rng.random() < 1 / every:
            out.append(game.state.clone())
    return out


def test_every_stamp_is_the_one_painting_over_black_and_white_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _stamp_painted_twice
    compared = [0, 0]  # stamps, refusals

    def both(size, paint, origin=(0, 0), where=None):  # type: ignore[no-untyped-def]
        stamp = real(size, paint, origin, where)
        expected = made(size, paint, origin, where)
        if expected is None:
            assert stamp is None, (size, origin, where)
            compared[1] += 1
            return None
        assert stamp is not None, (size, origin, where)
        assert stamp.offset == expected.offset
        assert stamp.rgb.tobytes() == expected.rgb.tobytes()
        assert expected.mask is not None and stamp.mask is not None
        assert stamp.mask.tobytes() == expected.mask.tobytes()
        compared[0] += 1
        return stamp

    real = d.stamp_of
    monkeypatch.setattr(d, "stamp_of", both)
    compared_twice = []  # the stamps painted twice after all: none, every call is followed
    monkeypatch.setattr(canvas_module, "_stamp_from", lambda *args: compared_twice.append(args))
    games = [
        GameOptions(players=4, seed=41, setup="full", expansions=("leeghwater", "colorado")),
        GameOptions(players=3, seed=42, setup="full", expansions=("nile", "leeghwater")),
        GameOptions(players=4, seed=43, map="five_player"),
    ]
    try:
        for options in games:
            for state in _played(options, 60)[:4]:
                for view in views(state.options):
                    clear_stamps()
                    render(state, view=view)
    finally:
        forget_pictures()
    assert compared[0] > 500 and compared[1] > 0, compared
    assert not compared_twice


def test_a_stamp_painted_on_the_palette_is_its_rgb_stamp_mapped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from renderer.palette import palette

    real = d.palette_stamp_of
    compared = [0, 0]  # painted on the palette, refused there
    made: list[tuple[d.Stamp, d.Stamp]] = []

    def both(size, paint, target, origin=(0, 0), where=None):  # type: ignore[no-untyped-def]
        try:
            stamp = real(size, paint, target, origin, where)
        except d.NotOnPalette:
            compared[1] += 1
            raise
        expected = d.stamp_of(size, paint, origin, where)
        if expected is None:
            assert stamp is None, (size, origin, where)
            return None
        assert stamp is not None and stamp.pixels is None
        pal = palette(target.theme)
        mapped = expected.rgb.quantize(palette=pal, dither=Image.Dither.NONE)
        assert stamp.offset == expected.offset and stamp.size == expected.rgb.size
        assert expected.mask is not None and stamp.mask is not None
        assert stamp.mask.tobytes() == expected.mask.tobytes()
        # The same pixels where it is pasted (through its mask: the rest is never seen).
        ours, theirs = (Image.new("P", stamp.size, 255) for _ in range(2))
        ours.paste(stamp.mapped[target.theme], (0, 0), stamp.mask)
        theirs.paste(mapped, (0, 0), stamp.mask)
        assert ours.tobytes() == theirs.tobytes()
        made.append((stamp, expected))
        compared[0] += 1
        return stamp

    monkeypatch.setattr(d, "palette_stamp_of", both)
    monkeypatch.setattr(d, "_PAINTED_IN_RGB", set())
    # The suite checks every flat claim, which draws in RGB: here pictures go on the palette.
    monkeypatch.setattr(d, "_CHECK_FLAT", [False])
    try:
        for state in _games():
            for view in views(state.options):
                clear_stamps()
                render(state, view=view)
                render(state, view=view, theme="dark")
        # Their RGB pixels, painted when a picture in RGB asks for them, are the RGB stamps'.
        for stamp, expected in made:
            assert stamp.remake is not None and stamp.rgb.tobytes() == expected.rgb.tobytes()
    finally:
        forget_pictures()
    assert compared[0] > 20 and compared[1] > 0, compared


def test_a_text_stamp_mapped_from_its_mask_is_its_rgb_mapped() -> None:
    from renderer.palette import palette

    for theme in ("light", "dark"):
        pal = palette(theme)
        pal.load()
        for fill, on in (("#1b1b1b", "#ffffff"), ("#ffffff", "#be2748"), ("#555555", "#f0e6d2")):
            mask, _left, _top = d.text_mask("Contract 12 · 5⚡ → 3 VP", 24, "regular", "lm")
            stamp = d._text_stamp(mask, fill, on)
            assert stamp.pixels is None and stamp.mapper is not None
            expected = stamp.rgb.quantize(palette=pal, dither=Image.Dither.NONE)
            assert stamp.mapper(theme, pal).tobytes() == expected.tobytes(), (theme, fill, on)


def test_the_stamp_cache_counts_what_its_stamps_hold() -> None:
    cache = canvas_module.StampCache(10**9)
    mask, _left, _top = d.text_mask("Barrage", 30, "bold", "mm")
    text = cache.get("text", lambda: d._text_stamp(mask, "#000000", "#ffffff"))
    box = cache.get("box", lambda: d._box_stamp(80, 40, "#eeeeee", "#333333", 2, 8))
    assert text is not None and box is not None
    w, h = mask.size
    assert text.nbytes() == w * h  # its mask, kept to draw it again
    assert cache.used == text.nbytes() + box.nbytes()
    cache.map_onto(text, "light", Image.new("P", mask.size))
    assert cache.used - box.nbytes() == text.nbytes() == 2 * w * h
    held = box.nbytes()
    bw, bh = box.size
    assert held == bw * bh * (4 + 1)  # RGB and its "1" mask, a byte a pixel each
    cache.map_onto(box, "light", Image.new("P", box.size))
    assert box.pixels is not None and cache.used == text.nbytes() + held + bw * bh
    with cache.forgotten():
        assert cache.used == 0 and "text" not in cache.items
        cache.get("other", lambda: None)
    assert cache.used == text.nbytes() + box.nbytes() and "other" not in cache.items


def test_a_scoreboard_pasted_whole_is_the_one_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    from renderer.render import board_ids

    found = d.BLOCKS.find
    pasted = [0]

    def counted(key):  # type: ignore[no-untyped-def]
        kept = found(key)
        pasted[0] += isinstance(kept, d.Stamp)
        return kept

    monkeypatch.setattr(d.BLOCKS, "find", counted)
    # The suite checks every flat claim, which draws in RGB: here pictures go on the palette.
    monkeypatch.setattr(d, "_CHECK_FLAT", [False])
    try:
        for state in _games():
            for view in views(state.options):
                for company in board_ids(state) if view == "company" else [None]:
                    for theme in ("light", "dark"):
                        d.BLOCKS.clear()
                        clear_caches()
                        drawn = render(state, view=view, company=company, theme=theme)
                        clear_caches()  # the scoreboard pasted from the one just drawn
                        again = render(state, view=view, company=company, theme=theme)
                        assert again == drawn, (view, company, theme)
    finally:
        forget_pictures()
    assert pasted[0] > 40, pasted
