"""Which sets of expansions a game may be opened with: the declarations, `refuse`, a limit."""

from __future__ import annotations

import pytest

from bot.rules.catalogue import CATALOGUE, Catalogue
from bot.rules.state import GameOptions
from bot.service.expansions import MAX_CHOICES, combinations, offered


def test_without_options_every_set_the_declarations_allow() -> None:
    assert CATALOGUE.combinations() == [
        (),
        ("leeghwater",),
        ("colorado",),
        ("leeghwater", "colorado"),
        ("nile",),
        ("leeghwater", "nile"),
    ]


def test_with_options_only_what_refuse_lets_them_play() -> None:
    intro = GameOptions(players=3, setup="intro")
    assert CATALOGUE.combinations(intro) == [(), ("colorado",), ("nile",)]
    automas = GameOptions(players=3, setup="full", automa=(1,))
    assert CATALOGUE.combinations(automas) == [(), ("leeghwater",)]
    big_board = GameOptions(players=4, setup="full", map="five_player")
    assert CATALOGUE.combinations(big_board) == [(), ("leeghwater",)]
    for options in (intro, automas, big_board):
        for names in CATALOGUE.combinations(options):
            board = options.map if options.map != "base" else CATALOGUE.own_map(names) or "base"
            probe = GameOptions(
                players=options.players,
                setup=options.setup,
                map=board,
                expansions=names,
                automa=options.automa,
            )
            assert CATALOGUE.refuse(probe) is None, names


def test_the_lobby_offer_follows_the_options_and_words_each_choice() -> None:
    assert [c.value for c in offered(setup="intro")] == ["none", "colorado", "nile"]
    assert [c.value for c in offered(setup="full", automa=2)] == ["none", "leeghwater"]
    for combo in offered(setup="full"):
        assert 0 < len(combo.label) <= 100


def test_the_search_stops_at_the_limit_and_never_walks_every_subset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each listed set is tried with each expansion once at most, and nothing past the limit."""
    catalogue = Catalogue()
    asked: list[tuple[str, ...]] = []
    real = catalogue._allowed

    def counting(names: tuple[str, ...], options: GameOptions | None) -> bool:
        asked.append(names)
        return real(names, options)

    monkeypatch.setattr(catalogue, "_allowed", counting)
    assert catalogue.combinations(limit=3) == [(), ("leeghwater",), ("colorado",)]
    assert len(asked) <= 3 * len(catalogue.expansions)
    assert len(combinations(catalogue)) <= MAX_CHOICES
