"""The proof: the toy expansion (tests/rules/toy) plugs into every layer from its own package.

It adds a content table, a shared table of typed rows, a decision, a reward key, a drawing and
a help topic, and no product file names it: the engine, the renderer, the lobby's choices and help learn it from its
catalogue (`TOY_CATALOGUE`) like any expansion.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.rules import CATALOGUE, Game, GameOptions, new_game
from bot.rules.content import ContentError, build_content, packaged_files
from bot.rules.position import load_position
from bot.rules.wording import source_text
from bot.service.expansions import combinations, help_topics
from renderer.describe import describe
from renderer.expansions import use_catalogue
from renderer.layout import map_layout
from renderer.theme import get_theme
from tests.renderer.conftest import body_image
from tests.rules.toy import PLAQUES, TOY_CATALOGUE, YARD, Plaque

ROOT = Path(__file__).resolve().parent.parent
POSITION = '[game]\nplayers = 2\nturn_order = ["italy", "usa"]\nexpansions = ["toy"]\n'


@pytest.fixture
def toy_drawn() -> Iterator[None]:
    """The renderer asks the toy's catalogue (the product's again afterwards)."""
    use_catalogue(TOY_CATALOGUE)
    yield
    use_catalogue(CATALOGUE)


def statue_game(pose: str) -> Game:
    """Italy builds a statue on S5 in this pose and confirms."""
    game = load_position(POSITION, catalogue=TOY_CATALOGUE)
    game.apply(YARD, "italy")
    game.apply("statue S5", "italy")
    assert game.decision().kind == "toy_pose"
    game.apply(f"pose {pose}", "italy")
    game.apply("confirm", "italy")
    return game


def test_the_decision_offers_the_poses_of_its_content_table() -> None:
    game = load_position(POSITION, catalogue=TOY_CATALOGUE)
    game.apply(YARD, "italy")
    game.apply("statue S5", "italy")
    decision = game.decision()
    assert decision.prompt == "How does the statue stand?"
    assert [o.notation for o in decision.options] == ["pose standing", "pose waving"]
    # The reward key's wording comes from the toy's declaration.
    assert decision.options[1].label == "Statue on S5 waving: 2 credits per statue you have"


def test_the_reward_key_is_applied_by_its_rule() -> None:
    before = load_position(POSITION, catalogue=TOY_CATALOGUE).company("italy").credits
    waving = statue_game("waving")
    # 1 credit for the yard, then 2 credits for the one statue Italy has.
    assert waving.company("italy").credits == before - 1 + 2
    standing = statue_game("standing")
    assert standing.company("italy").credits == before - 1
    assert standing.company("italy").vp == waving.company("italy").vp + 1


def test_a_game_without_the_toy_knows_none_of_its_rules() -> None:
    game = new_game(GameOptions(players=2, seed=1), catalogue=TOY_CATALOGUE)
    assert "pose" not in game.rules.verbs and "toy_pose" not in game.rules.tasks
    assert "statue_credits" not in game.rules.rewards and "statue" not in game.rules.structures
    with pytest.raises(Exception, match="The Toy Statues, which this game does not use"):
        game.apply("pose waving", game.decision().player)


def test_random_toy_games_reach_the_end() -> None:
    for seed in range(3):
        game = new_game(
            GameOptions(players=3, seed=seed, expansions=("toy",)),
            TOY_CATALOGUE.content(),
            TOY_CATALOGUE,
        )
        rng = random.Random(seed)
        while not game.is_over:
            decision = rng.choice(game.decisions())
            game.apply(rng.choice(decision.options).notation, decision.player)
        assert game.state.result["ranking"]


def test_its_drawing_puts_the_statue_on_the_map_and_in_words(toy_drawn: None) -> None:
    game = statue_game("waving")
    assert "Statues: S5 Italy (waving)." in describe(game.state)
    image = body_image(game.state, view="map", theme="dark")
    x0, y0, x1, y1 = map_layout(game.state.options.map).basins[5].badge
    fill = get_theme("dark").company("italy").fill
    assert image.convert("RGB").getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == _rgb(fill)


def test_its_help_topic_and_lobby_choice_come_from_its_package() -> None:
    topics = {t.key: t for t in help_topics(TOY_CATALOGUE.content(), TOY_CATALOGUE)}
    assert "waving: 2 credits per statue you have" in topics["toy"].text
    labels = {c.value: c.label for c in combinations(TOY_CATALOGUE)}
    assert labels["toy"] == "The Toy Statues: statues on a yard, for tests"
    assert "toy" not in {c.value for c in combinations()}  # the product's lobby knows no toy


def test_its_shared_table_loads_through_its_rule_set() -> None:
    """The toy declares a table in its rule set; the one row parser reads it, typed."""
    content = TOY_CATALOGUE.content()
    assert PLAQUES in TOY_CATALOGUE.tables()
    assert PLAQUES.of(content)["gold"] == Plaque("gold", "Gold plaque", 3, "toy")
    assert list(PLAQUES.of(content)) == ["bronze", "gold"]
    # A toy game's content has it; event sources name its rows by the table's piece kind.
    game = new_game(GameOptions(players=2, seed=1, expansions=("toy",)), content, TOY_CATALOGUE)
    assert PLAQUES.of(game.content)["bronze"].vp == 1
    assert source_text("toy:plaque:gold", game.content, strict=True) == "Gold plaque"
    # The product's catalogue declares no such table.
    assert "plaque" not in CATALOGUE.content().tables


def test_a_broken_row_of_its_table_fails_at_load() -> None:
    infos = tuple(TOY_CATALOGUE.expansions.values())
    files = packaged_files(infos)
    files["toy.toml"] = files["toy.toml"].replace("vp = 3", "vp = 9")
    with pytest.raises(ContentError, match=r"^toy\.toml: \[\[plaque\]\] gold: .*'vp' = 9"):
        build_content(files, infos, TOY_CATALOGUE.tables())
    files["toy.toml"] = files["toy.toml"].replace('id = "gold"', 'id = "bronze"')
    with pytest.raises(ContentError, match=r"toy\.toml: \[\[plaque\]\] bronze: duplicate"):
        build_content(files, infos, TOY_CATALOGUE.tables())


def test_no_product_file_names_the_toy() -> None:
    named = [
        str(path.relative_to(ROOT))
        for package in ("bot", "renderer")
        for path in (ROOT / package).rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".toml")
        and "toy" in path.read_text(encoding="utf-8").lower()
    ]
    assert named == []


def _rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
