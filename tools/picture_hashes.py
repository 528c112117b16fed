"""Hash every picture of random positions of every setup, to prove a renderer change keeps pixels.

Plays seeded random games of every setup (the base game at 2-4 players, both setups and with an automa, the
4-5 player map, each expansion alone and with another), and at every ``--every``-th move renders
each view of the position (every company's board, the full table, now and then with highlights,
as a preview or in the dark theme), then the score sheet of each finished game and the legends.
The renders of different games interleave, so a cache that leaked one game's state into
another's picture would show. Writes {picture: SHA-256 of its decoded pixels and palette} as
JSON; with ``--compare`` it prints the pictures whose pixels differ from an earlier run's
(e.g. made on main):

    PYTHONHASHSEED=0 python tools/picture_hashes.py --out /tmp/main.json      # on main
    PYTHONHASHSEED=0 python tools/picture_hashes.py --compare /tmp/main.json  # the branch

The pictures do not depend on PYTHONHASHSEED (highlight rings are drawn in sorted order, so
where two overlap the same one is on top); a fixed one is kept in the examples all the same.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import random
import sys
from collections.abc import Iterator

from PIL import Image

from bot.rules import GameOptions, new_game
from bot.rules.events import Event
from bot.rules.state import GameState
from renderer.draw import check_flat
from renderer.render import board_ids, render, render_legend, render_score_sheet, views

SETUPS = {
    "intro-2p": GameOptions(players=2, seed=21),
    "intro-3p": GameOptions(players=3, seed=22),
    "intro-4p": GameOptions(players=4, seed=23),
    "full-4p": GameOptions(players=4, seed=24, setup="full"),
    "full-4p-automa": GameOptions(players=3, seed=25, setup="full", automa=(1,)),
    "five-player-map-4p": GameOptions(players=4, seed=26, map="five_player"),
    "leeghwater-full-3p": GameOptions(players=3, seed=27, setup="full", expansions=("leeghwater",)),
    "colorado-4p": GameOptions(players=4, seed=28, expansions=("colorado",)),
    "nile-3p": GameOptions(players=3, seed=29, expansions=("nile",)),
    "colorado-leeghwater-full-2p": GameOptions(
        players=2, seed=30, setup="full", expansions=("colorado", "leeghwater")
    ),
    "nile-leeghwater-full-4p": GameOptions(
        players=4, seed=31, setup="full", expansions=("nile", "leeghwater")
    ),
}


def _positions(name: str, every: int) -> Iterator[GameState | tuple[GameState, list[Event]]]:
    """A seeded random playout's position every ``every`` moves; last (state, events) at the end."""
    game = new_game(SETUPS[name])
    rng = random.Random(name)
    events: list[Event] = []
    step = 0
    while not game.is_over:
        decision = rng.choice(game.decisions())
        events += game.apply(rng.choice(decision.options).notation, decision.player)
        step += 1
        if step % every == 0:
            yield game.state.clone()
    yield game.state.clone(), events


def _highlights(state: GameState, rng: random.Random) -> tuple[str, ...]:
    """A few ids a view may mark: spaces, contracts, tiles on offer."""
    ids = [*state.spaces]
    ids += [str(c) for offer in state.private_offer.values() for c in offer]
    ids += [str(c) for c in state.national_offer] + [str(t) for t in state.patent_offer if t]
    return tuple(rng.sample(ids, min(len(ids), 3)))


def _pictures(state: GameState, label: str, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    for view in views(state.options):
        companies: list[str | None] = [None]
        if view == "company":
            companies = list(board_ids(state)) or [None]
        for company in companies:
            yield f"{label} {view} {company}", render(state, view=view, company=company)
    extra = rng.random()
    view = rng.choice([v for v in views(state.options) if v != "full"])
    if extra < 0.3:
        lit = _highlights(state, rng)
        yield f"{label} {view} lit {lit}", render(state, view=view, highlight=lit)
    elif extra < 0.5:
        yield f"{label} {view} preview", render(state, view=view, preview=True)
    elif extra < 0.6:
        yield f"{label} {view} dark", render(state, view=view, theme="dark")


def hashes(every: int) -> dict[str, str]:
    """{picture: SHA-256 of its PNG} of every setup's positions, the games interleaved."""
    out: dict[str, str] = {}
    games = {name: _positions(name, every) for name in SETUPS}
    rng = random.Random(every)
    step = 0
    while games:
        for name in list(games):
            position = next(games[name], None)
            if position is None:
                del games[name]
                continue
            if isinstance(position, tuple):
                state, events = position
                out[f"{name} score sheet"] = _sha(render_score_sheet(state, events))
            else:
                state = position
            for key, png in _pictures(state, f"{name} #{step}", rng):
                out[key] = _sha(png)
        step += 1
    for expansions in ((), ("leeghwater",), ("colorado", "nile")):
        out[f"legend {expansions}"] = _sha(render_legend(expansions))
    return out


def _sha(png: bytes) -> str:
    """The hash of a PNG's decoded picture: its mode, size, palette and pixels (not its bytes:
    how they are deflated may change, `renderer.png.encode_over`)."""
    picture = Image.open(io.BytesIO(png))
    picture.load()
    found = hashlib.sha256(f"{picture.mode} {picture.size}".encode())
    found.update(bytes(picture.getpalette() or []))
    found.update(picture.tobytes())
    return found.hexdigest()


def main() -> int:
    """Write the hashes, or compare them with an earlier run's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=40, help="moves between positions")
    parser.add_argument("--out", help="write the hashes to this JSON file")
    parser.add_argument("--compare", help="compare with the hashes in this JSON file")
    parser.add_argument(
        "--check-flat",
        action="store_true",
        help="check that every text drawn 'on' a colour is (renderer.draw.check_flat)",
    )
    args = parser.parse_args()
    with check_flat() if args.check_flat else contextlib.nullcontext():
        found = hashes(args.every)
    print(f"{len(found)} pictures")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(found, f, indent=0, sort_keys=True)
    if args.compare:
        with open(args.compare, encoding="utf-8") as f:
            before: dict[str, str] = json.load(f)
        differ = sorted(k for k in before.keys() | found.keys() if before.get(k) != found.get(k))
        for key in differ:
            print("differs:", key)
        print(f"{len(differ)} of {len(before.keys() | found.keys())} pictures differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
