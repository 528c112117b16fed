"""Full-game states render: the draft offer, patent tiles, advanced tiles, Mahiri's spaces."""

from __future__ import annotations

import functools
import io
import random

import pytest
from PIL import Image, ImageChops, ImageColor

from bot.rules import GameOptions, GameState, new_game
from renderer import draw as d
from renderer.layout import board_layout
from renderer.render import render
from renderer.shared_view import _fitting_tile_name, draw_shared
from renderer.theme import get_theme
from renderer.words import highlight_ids, tile_effect, tile_name
from tests.renderer.conftest import body_image

VIEWS = ("map", "shared", "company", "full")


def _draft(players: int = 3, seed: int = 4):
    return new_game(GameOptions(players=players, seed=seed, setup="full"))


@functools.cache
def _played_json(players: int, seed: int, rounds: int) -> list[dict]:
    """Snapshots of a random full game: after the draft and every few decisions up to ``rounds``."""
    game = _draft(players, seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not game.is_over and game.state.round <= rounds:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
        step += 1
        if step % 40 == 0:
            out.append(game.state.to_json())
    out.append(game.state.to_json())
    return out


def _decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_view_renders_during_the_draft(players: int) -> None:
    game = _draft(players, seed=players)
    state = game.state
    assert not state.companies
    lit = highlight_ids(o.notation for o in game.decisions()[0].options)
    for view in VIEWS:
        assert _decode(render(state, view=view, highlight=lit)).width > 0
    offered = [board for board, _officer in state.extra["draft"]["pairs"]]
    for board in offered:
        image = body_image(state, view="company", company=board)
        assert image.size == (board_layout("company").width, board_layout("company").height)
    with pytest.raises(ValueError, match="spain"):
        render(state, view="company", company="spain")


def test_the_draft_offer_is_drawn_and_its_choices_highlighted() -> None:
    game = _draft()
    state = game.state
    layout = board_layout("shared")
    pairs = layout.lists["draft_pairs"]
    plain = body_image(state, view="shared")
    picks = highlight_ids(o.notation for o in game.decisions()[0].options)
    assert picks == {f"pick {b}" for b, _o in state.extra["draft"]["pairs"]}
    lit = body_image(state, view="shared", highlight=picks)
    highlight = ImageColor.getrgb(get_theme().colour("highlight"))
    for rect in pairs[: len(state.extra["draft"]["pairs"])]:
        x0, y0, _x1, _y1 = rect
        assert lit.getpixel((x0 + 40, y0 - 3)) == highlight
        assert plain.getpixel((x0 + 40, y0 - 3)) != highlight
    # The first offered company's colour is in its row.
    board = state.extra["draft"]["pairs"][0][0]
    fill = ImageColor.getrgb(get_theme().company(board).fill)
    colours = plain.crop(pairs[0]).getcolors(1 << 16) or []
    assert any(c == fill for _n, c in colours)
    # After a pick, the starting contracts are the choices.
    decision = game.decisions()[0]
    game.apply(decision.options[0].notation, decision.player)
    starts = highlight_ids(o.notation for o in game.decisions()[0].options)
    assert starts == {f"start {c}" for c in game.state.extra["draft"]["starting"]}


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (4, 7)])
def test_every_view_of_a_played_full_game_renders(players: int, seed: int) -> None:
    for data in _played_json(players, seed, rounds=2):
        state = GameState.from_json(data)
        for view in ("map", "shared", "full"):
            assert _decode(render(state, view=view)).width > 0
        for company in state.seats or [None]:
            assert _decode(render(state, view="company", company=company)).width > 0


def test_patent_tiles_show_their_name_within_their_row() -> None:
    from bot.rules.catalogue import CATALOGUE

    size = get_theme().views["shared"].text["label"]
    layout = board_layout("shared")
    room = layout.spaces["patent_1"][0] - layout.rows["tile_1"][0] - 8
    every = CATALOGUE.game_content(CATALOGUE.content(), tuple(CATALOGUE.expansions))
    for tile in every.tiles.values():
        if tile.kind == "advanced":
            name, weight = _fitting_tile_name(tile.name, size, room)
            assert d.text_width(name, size, weight) <= room, tile.id
    state = GameState.from_json(_played_json(3, 4, rounds=2)[-1])
    assert all(tile_effect(t) for t in state.patent_offer if t)
    with d.recording() as texts:
        draw_shared(state, get_theme())
    drawn = [t.content for t in texts]
    for tile in state.patent_offer:
        if tile:
            name = _fitting_tile_name(every.tiles[tile].name, size, room)[0]
            assert name in drawn, tile


def test_every_advanced_tile_of_the_content_has_a_short_effect() -> None:
    from renderer.content import content

    for tile in content().tiles.values():
        if tile.set == "base" and tile.kind in ("advanced", "special"):
            assert tile_effect(tile.id), tile.id


def test_mahiri_spaces_show_who_used_them() -> None:
    state = GameState.from_json(_played_json(3, 4, rounds=2)[-1])
    cid = state.seats[0]
    state.companies[cid].officer = "mahiri_sekibo"
    state.spaces.pop("mahiri_1", None)
    free = body_image(state, view="company", company=cid)
    state.spaces["mahiri_1"] = [[cid, 1]]
    used = body_image(state, view="company", company=cid)
    rect = board_layout("company").lists["officer_spaces"][0]
    assert ImageChops.difference(free.crop(rect), used.crop(rect)).getbbox() is not None
    fill = ImageColor.getrgb(get_theme().company(cid).fill)
    assert any(c == fill for _n, c in used.crop(rect).getcolors(1 << 16) or [])


def test_advanced_tiles_in_a_supply_carry_their_effect() -> None:
    state = GameState.from_json(_played_json(3, 4, rounds=2)[-1])
    cid = state.seats[0]
    state.companies[cid].tiles = ["basic_base"]
    plain = body_image(state, view="company", company=cid)
    state.companies[cid].tiles = ["basic_base", "adv_2_base"]
    more = body_image(state, view="company", company=cid)
    x0, y0, x1, y1 = board_layout("company").rects["tiles"]
    size = get_theme().views["company"].text["small"]
    chip_w = d.text_width(f"{tile_name('adv_2_base')}: {tile_effect('adv_2_base')}", size)
    box = ImageChops.difference(plain.crop((x0, y0, x1, y1)), more.crop((x0, y0, x1, y1))).getbbox()
    assert box is not None and box[2] - box[0] >= chip_w
