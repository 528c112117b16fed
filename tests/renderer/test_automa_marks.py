"""Pictures and their text alternative mark automa companies and their deck's top card."""

from __future__ import annotations

import io

from PIL import Image

from bot.rules import GameOptions, new_game
from bot.rules.automa.deck import top_card
from bot.rules.automa.play import play_automas
from renderer.automa import automa_title, next_card
from renderer.company_view import company_key
from renderer.describe import describe
from renderer.render import render


def test_automas_are_marked_with_their_level_and_next_card() -> None:
    game = new_game(GameOptions(players=3, seed=3, automa=(1, 3)))
    person, medium, expert = game.state.seats
    assert automa_title(game.state, person) == "" and next_card(game.state, person) == ""
    assert automa_title(game.state, medium) == "automa (medium)"
    assert automa_title(game.state, expert) == "automa (expert)"
    text = describe(game.state)
    card = top_card(game.state, expert)
    assert f"automa (expert); next card {card}" in text
    image = Image.open(io.BytesIO(render(game.state, view="company", company=expert)))
    assert image.size[0] > 0


def test_the_company_picture_changes_when_the_automa_flips_a_card() -> None:
    game = new_game(GameOptions(players=2, seed=8, automa=(1,)))
    automa = game.state.seats[1]
    before = company_key(game.state, automa)
    shown = next_card(game.state, automa)
    for _ in range(10):
        if play_automas(game):
            break
        decision = game.decisions()[0]
        game.apply(decision.options[-1].notation, decision.player)
    assert next_card(game.state, automa) != shown
    assert company_key(game.state, automa) != before
