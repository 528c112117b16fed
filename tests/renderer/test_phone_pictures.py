"""Pictures a player reads at a glance on a phone, checked on what the renderer drew.

Random positions of every setup (the base game at each player count and both setups, the
4-5 player map, each expansion alone and with another) are drawn in every view; the texts come
from the recording canvas (`renderer.draw.recording`), the sizes from the glyphs drawn. Every
text is a name or a short notation, never an id, a Python repr or a label cut with "…"; the
smallest capital is at least width / 50 and the scoreboard's and turn line's width / 30; no
view (nor its preview) is taller than twice its width. The players' words (option labels, the
whole option texts, the log's event lines) are held to the same rule.
"""

from __future__ import annotations

import functools
import io
import random
import re

import pytest
from PIL import Image

from bot.rules import GameOptions, GameState, new_game
from bot.rules.catalogue import open_game
from bot.service.text import event_lines
from renderer import draw as d
from renderer import header, legend
from renderer.automa import automa_title
from renderer.expansions import expansion_views
from renderer.render import (
    clear_caches,
    forget_pictures,
    render,
    render_legend,
    render_score_sheet,
    views,
)
from renderer.shared_view import bonus_now
from renderer.theme import BOARD_CAPITAL_RATIO, PHONE_CAPITAL_RATIO, get_theme

SETUPS = {
    "intro-2p": GameOptions(players=2, seed=11),
    "intro-3p": GameOptions(players=3, seed=12),
    "full-4p": GameOptions(players=4, seed=13, setup="full"),
    "five-player-map": GameOptions(players=4, seed=14, map="five_player"),
    "leeghwater-full-3p": GameOptions(players=3, seed=15, setup="full", expansions=("leeghwater",)),
    "colorado-4p": GameOptions(players=4, seed=16, expansions=("colorado",)),
    "nile-3p": GameOptions(players=3, seed=17, expansions=("nile",)),
    "colorado-leeghwater-full-2p": GameOptions(
        players=2, seed=18, setup="full", expansions=("colorado", "leeghwater")
    ),
    "nile-leeghwater-full-4p": GameOptions(
        players=4, seed=19, setup="full", expansions=("nile", "leeghwater")
    ),
}
#: No view is taller than twice its width: not the 4-5 player map, not a preview (its mark
#: on top), not a view with every expansion's scoreboard column and key.
TALLEST = 2.0

# Lowercase words joined by "_" (an engine key), a Python repr, a label cut short.
ID_LIKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
REPR_LIKE = re.compile(r"\{'|\['|\('|mappingproxy|<\w[\w.]* object|\bNone\b|\bTrue\b|\bFalse\b")
CUT = re.compile(r"…|\.\.\.")
NOTATION = re.compile(r"\b\w*_\w*\b")
SHORT_NOTATION = 6


def _flaw(text: str) -> str | None:
    """What is wrong with a text a player reads, or None."""
    for pattern, what in ((ID_LIKE, "an id"), (REPR_LIKE, "a Python repr"), (CUT, "a cut")):
        found = pattern.search(text)
        if found:
            return f"{what} ({found.group(0)!r})"
    for word in NOTATION.findall(text):
        if len(word) > SHORT_NOTATION:
            return f"a notation longer than {SHORT_NOTATION} characters ({word!r})"
    return None


@functools.cache
def _positions(name: str) -> tuple[tuple[dict, tuple[str, ...], tuple[str, ...]], ...]:
    """Snapshots of a random playout: (state JSON, option texts seen, event lines seen since
    the last snapshot); the last snapshot is the finished game with all its events."""
    game = new_game(SETUPS[name])
    rng = random.Random(name)
    out = []
    words: list[str] = []
    events: list = []
    lines: list[str] = []
    step = 0
    while not game.is_over:
        decision = rng.choice(game.decisions())
        for option in decision.options:
            words += [option.label, option.full_text, option.description]
        option = rng.choice(decision.options)
        applied = game.apply(option.notation, decision.player)
        events += applied
        lines += event_lines(applied)
        step += 1
        if step % 97 == 0:
            out.append((game.state.to_json(), tuple(words), tuple(lines)))
            words, lines = [], []
    out.append((game.state.to_json(), tuple(words), tuple(lines)))
    _EVENTS[name] = events
    return tuple(out)


_EVENTS: dict[str, list] = {}


def _drawn_views(state: GameState) -> list[tuple[str, str | None]]:
    """Every phone view of a state: each board view, each company's board."""
    shown: list[tuple[str, str | None]] = []
    for view in views(state.options):
        if view == "full":
            continue
        if view == "company":
            shown += [(view, cid) for cid in state.companies or [None]]
        else:
            shown.append((view, None))
    return shown


def _capital(text: d.DrawnText) -> int:
    """The measured height of a capital of the font a text was drawn in (its glyph's box)."""
    mask, _left, _top = d.text_mask("H", text.size, text.weight, "ls")
    return mask.height // 2 if text.half else mask.height


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_picture_of_random_positions_reads_well_on_a_phone(name: str) -> None:
    positions = _positions(name)
    forget_pictures()  # static backgrounds are drawn again, so their texts are read too
    theme = get_theme()
    problems: list[str] = []
    every = range(0, len(positions), max(1, len(positions) // 4))
    for index in sorted({*every, len(positions) - 1}):
        data = positions[index][0]
        state = GameState.from_json(data)
        for view, company in _drawn_views(state):
            with d.recording() as texts:
                png = render(state, view=view, company=company)
            image = Image.open(io.BytesIO(png))
            width, height = image.size
            assert image.mode == "P", (view, "a palette PNG")
            assert height <= TALLEST * width, (name, view, image.size)
            if index == 0 and view != "company":
                preview = Image.open(io.BytesIO(render(state, view=view, preview=True)))
                assert preview.height <= TALLEST * preview.width, (name, view, "preview")
            assert texts, (name, view)
            for text in texts:
                flaw = _flaw(text.content)
                if flaw:
                    problems.append(f"{view}: {text.content!r} has {flaw}")
                least = width / (
                    BOARD_CAPITAL_RATIO if text.role == "board" else PHONE_CAPITAL_RATIO
                )
                if _capital(text) < least:
                    problems.append(
                        f"{view}: {text.content!r} capital {_capital(text)}px < {least:.1f}px"
                    )
                x0, y0, x1, y1 = text.box
                if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                    problems.append(f"{view}: {text.content!r} leaves the picture {text.box}")
    final = GameState.from_json(positions[-1][0])
    with d.recording() as texts:
        render_score_sheet(final, _EVENTS[name], theme=theme.name)
    problems += [
        f"score sheet: {t.content!r} has {_flaw(t.content)}" for t in texts if _flaw(t.content)
    ]
    assert not problems, "\n".join(sorted(set(problems))[:40])


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_option_labels_texts_and_log_lines_use_names(name: str) -> None:
    problems = []
    for _data, words, lines in _positions(name):
        problems += [f"option: {w!r} has {_flaw(w)}" for w in words if w and _flaw(w)]
        problems += [f"log: {w!r} has {_flaw(w)}" for w in lines if _flaw(w)]
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_the_game_over_picture_names_the_winner() -> None:
    final = GameState.from_json(_positions("intro-2p")[-1][0])
    ranking = final.result["ranking"]
    winners = [r["company"] for r in ranking if r["place"] == 1]
    line = header.turn_line(final)
    assert line.startswith("Game over")
    if len(winners) == 1:
        from bot.rules.content import company_name

        assert line == f"Game over · {company_name(winners[0])} wins"
    # The scoreboard lists the companies by their final rank.
    assert header.rows(final) == [r["company"] for r in ranking]


def test_every_view_has_a_scoreboard_with_everyones_counts() -> None:
    state = GameState.from_json(_positions("colorado-4p")[1][0])
    forget_pictures()
    for view, company in _drawn_views(state):
        with d.recording() as texts:
            render(state, view=view, company=company)
        board = [t.content for t in texts if t.role == "board"]
        assert header.turn_line(state) in board, view
        headings = [c.heading for c in header.columns(state)]
        assert all(h in [t.content for t in texts] for h in headings), view
        for company_state in state.companies.values():
            assert str(company_state.vp) in board and str(company_state.credits) in board, view
        assert "▶" in board or not header.acting(state), view


def test_the_energy_track_says_its_rules_and_every_marker_its_number() -> None:
    state = GameState.from_json(_positions("intro-3p")[1][0])
    forget_pictures()
    with d.recording() as texts:
        render(state, view="shared")
    drawn = [t.content for t in texts]
    clear_caches()  # the state's drawing again, without the static key's sample marker
    with d.recording() as on_state:
        render(state, view="shared")
    assert "1st +6 · 2nd +2 VP · 0⚡: +3c -3 VP · −4 VP/section behind" in drawn
    for energy in (0, 6, 12, 18, 24, 30):
        assert str(energy) in drawn  # the scale
    for credits in range(1, 9):
        assert f"{credits}c" in drawn  # each band's credits
    # This round's bonus tile, its section's start, and every company's bonus as it stands.
    start = 6 * state.round
    assert any(t.startswith(f"R{state.round} · {start}+") for t in drawn)
    for cid, now in bonus_now(state).items():
        assert now.label() in drawn, cid
    # Every marker carries its number (drawn in the marker, beside the company's piece).
    markers = [t for t in on_state if t.role == "marker"]
    assert sorted(int(t.content) for t in markers) == sorted(
        c.energy for c in state.companies.values()
    )


def test_bonus_now_is_the_engines_reward_full_and_cut() -> None:
    from bot.rules.flow import bonus_reward

    for data, _words, _lines in _positions("full-4p"):
        state = GameState.from_json(data)
        if state.finished or not state.companies:
            continue
        game = open_game(state)
        tile = state.bonus_tiles[state.round - 1]
        for cid, now in bonus_now(state).items():
            assert now.vp == bonus_reward(game, cid, tile)[0]
            assert now.vp == (max(0, now.full - now.cut) if now.eligible else 0)
            assert now.cut % 4 == 0 and now.cut <= 4 * (state.round - 1)


@pytest.mark.parametrize(
    "expansions", [(), ("leeghwater",), ("colorado",), ("nile",), ("colorado", "leeghwater")]
)
def test_the_legend_explains_every_key_and_heading(expansions: tuple[str, ...]) -> None:
    forget_pictures()
    with d.recording() as texts:
        png = render_legend(expansions)
    assert Image.open(io.BytesIO(png)).mode == "P"
    drawn = " ".join(t.content for t in texts)
    sections = legend.legend_sections(expansions)
    for _title, entries in sections:
        for entry in entries:
            assert entry.meaning.split()[0] in drawn, entry
            if entry.symbol not in legend.SYMBOLS:
                assert entry.symbol in drawn, entry
    # Whatever a view's compact key or the scoreboard shows is in the legend.
    explained = {e.symbol for _t, entries in sections for e in entries}
    own = [key for key, _title, _module in expansion_views(expansions)]
    for view in (*legend.KEYED_VIEWS, *own):
        assert legend.keyed(view, expansions), view  # every view with symbols has a key
        for entry in legend.key_entries(view, expansions):
            assert entry.symbol in explained or entry.symbol in {
                c.heading for c in header.BASE_COLUMNS + header.TAIL_COLUMNS
            }, (view, entry)
    for text in texts:
        assert _flaw(text.content) is None, text.content


def test_the_scoreboard_marks_automas_and_the_legend_says_so() -> None:
    game = new_game(GameOptions(players=3, seed=3, automa=(1, 3)))
    state = game.state
    forget_pictures()
    with d.recording() as texts:
        render(state, view="map")
    automas = [cid for cid in state.seats if automa_title(state, cid)]
    # A computer seat's mark names its kind and level ("A1": an automa at level 1).
    marks = [t for t in texts if re.fullmatch(r"A\d", t.content)]
    acting = set(header.acting(state))
    assert len(marks) == len([cid for cid in automas if cid not in acting])
    explained = {e.symbol for _t, entries in legend.legend_sections(()) for e in entries}
    assert {"A2", "AI2"} <= explained
