"""A seeded mid-game 4-player position: the one shown in docs/, timed by bench/, used in tests."""

from __future__ import annotations

import random

from bot.rules import Event, GameOptions, GameState, new_game


def midgame_state(seed: int = 3, moves_into_round_3: int = 25) -> GameState:
    """Return round 3 of a seeded game played by random legal moves, engineers on the board."""
    game = new_game(GameOptions(players=4, seed=seed))
    # The engine's own PRNG shuffles; this Random only picks moves, so the position is fixed.
    rng = random.Random(1)
    while not game.is_over and game.state.round < 3:
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    for _ in range(moves_into_round_3):
        decision = rng.choice(game.decisions())
        game.apply(rng.choice(decision.options).notation, decision.player)
    return game.state


def played(options: GameOptions, verbs: tuple[str, ...], rounds: int, moves: int) -> GameState:
    """Play random legal moves, favouring ``verbs``, to ``moves`` into round ``rounds``."""
    game = new_game(options)
    rng = random.Random(1)

    def move() -> None:
        decision = rng.choice(game.decisions())
        ours = [o for o in decision.options if o.notation.split()[0] in verbs]
        choice = rng.choice(ours if ours and rng.random() < 0.7 else decision.options)
        game.apply(choice.notation, decision.player)

    while not game.is_over and game.state.round < rounds:
        move()
    for _ in range(moves):
        if game.is_over:
            break
        move()
    return game.state


def finished_game(seed: int = 4) -> tuple[GameState, list[Event]]:
    """A finished seeded 3-player game and its events (the score sheet's input)."""
    game = new_game(GameOptions(players=3, seed=seed))
    rng = random.Random(seed)
    events: list[Event] = []
    while not game.is_over:
        decision = rng.choice(game.decisions())
        events += game.apply(rng.choice(decision.options).notation, decision.player)
    return game.state, events


def draft_state() -> GameState:
    """Return the first pick of a seeded 4-player full game's draft."""
    return new_game(GameOptions(players=4, seed=4, setup="full")).state


def write_samples(folder: str) -> list[str]:
    """Write the docs/ sample renders into ``folder`` and return their file names."""
    from pathlib import Path

    from renderer.background import map_background
    from renderer.expansions import drawings, every_expansion
    from renderer.render import render, render_legend, render_score_sheet

    out = Path(folder)
    state = midgame_state()
    files = {
        f"sample-{view}.png": render(state, view=view) for view in ("map", "shared", "company")
    }
    files["sample-full.png"] = render(state, view="full")
    files["sample-draft-shared.png"] = render(draft_state(), view="shared")
    final, events = finished_game()
    files["sample-score.png"] = render_score_sheet(final, events)
    files["sample-symbols.png"] = render_legend(every_expansion())
    backgrounds = ["base"]
    for own in drawings(every_expansion()):
        for name, (sample, view) in (own.samples() if own.samples else {}).items():
            files[name] = render(sample, view=view)
        backgrounds += own.sample_backgrounds
    for name, png in files.items():
        (out / name).write_bytes(png)
    for map_id in backgrounds:
        map_background(map_id).save(out / f"renderer-background-{map_id}.png")
    return [*files, *(f"renderer-background-{map_id}.png" for map_id in backgrounds)]


if __name__ == "__main__":
    import sys

    print("\n".join(write_samples(sys.argv[1] if len(sys.argv) > 1 else "docs")))
