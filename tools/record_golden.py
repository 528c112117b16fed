"""Record the golden games (tests/golden/games): only for a deliberate change of a rule or a picture.

Developer tool, run by hand from the repository root; say in the commit why the games changed.

    python tools/record_golden.py                 # re-record every game from its stored log
    python tools/record_golden.py full-3p nile-intro-2p   # only these games
    python tools/record_golden.py --new full-3p   # play it afresh with the choosing policy
    python tools/record_golden.py --show full-3p 57   # print step 57's projection (JSON)
    python tools/record_golden.py --pictures full-3p 57 out/   # its round-end views as PNG
    python tools/record_golden.py --text          # rewrite only the readable transcripts
    python tools/record_golden.py --list          # the catalogue and what is stored

Re-recording replays each stored log and writes the hashes the code gives now and the
readable transcript beside each game (`<name>.txt`). `--text` writes only the transcripts
(for a change of their format), and refuses a game whose replay no longer gives its hashes. When a stored
answer is refused (a rule changed what is legal) or the game ends at another step, the game is
played on from that step by the policy, and the tool says so: such a game is a new game from
there, so check that the change is the one you meant. To see what changed at a step, run
`--show` before and after the change (e.g. with `git stash`) and compare the two outputs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.rules import RuleError, new_game  # noqa: E402
from renderer import use_text_layout  # noqa: E402
from tests.golden import golden  # noqa: E402


def record(spec: golden.GoldenSpec, *, fresh: bool) -> str:
    """Record one game; return a line saying what happened."""
    path = golden.path_of(spec.name)
    log: list[tuple[str, str]] = []
    if path.exists() and not fresh:
        log = [(player, notation) for player, notation, _ in golden.load(path)["steps"]]
    note = ""
    steps: list[golden.Step] = []
    try:
        steps.extend(_play(spec, log))
    except (RuleError, ValueError) as error:
        # Keep the answers that still play, then let the policy go on from the refused one.
        kept = max(len(steps) - 1, 0)
        note = f"; the stored log plays for {kept} steps ({error}), then the policy plays on"
        steps = list(_play(spec, log[:kept]))
    start, rest = steps[0], steps[1:]
    data = {
        "format": golden.FORMAT,
        "name": spec.name,
        "options": spec.options.to_json(),
        "theme": spec.theme,
        "recorded_with": golden.library_versions(),
        "start": start.hashes,
        "steps": [[s.player, s.notation, s.hashes] for s in rest],
        "renders": {str(s.index): s.renders for s in rest if s.renders},
    }
    golden.save(path, data)
    text = golden.text_path_of(spec.name)
    text.write_text(golden.transcript(spec.name, spec.options, steps), encoding="utf-8")
    size = f"{path.stat().st_size} + {text.stat().st_size} bytes"
    return f"{spec.name}: {len(rest)} steps, {size}{note}"


def write_text(spec: golden.GoldenSpec) -> str:
    """Write one game's transcript from its stored log, if the replay still gives its hashes."""
    data = golden.load(golden.path_of(spec.name))
    log = [(player, notation) for player, notation, _ in data["steps"]]
    expected = [data["start"], *(hashes for _, _, hashes in data["steps"])]
    steps = list(golden.play(golden.options_of(data), log, theme=data["theme"], render=False))
    changed = [s.index for s in steps if s.hashes != expected[s.index]]
    if changed:
        return f"{spec.name}: NOT written, the replay differs from step {changed[0]}; re-record it"
    text = golden.text_path_of(spec.name)
    text.write_text(golden.transcript(spec.name, golden.options_of(data), steps), encoding="utf-8")
    return f"{spec.name}: transcript of {len(steps) - 1} steps, {text.stat().st_size} bytes"


def _play(spec: golden.GoldenSpec, log: list[tuple[str, str]]) -> Iterator[golden.Step]:
    policy = random.Random(spec.policy_seed)
    return golden.play(spec.options, log, theme=spec.theme, policy=policy)


def show(name: str, index: int) -> None:
    """Print the canonical projection of one step of a stored game."""
    data = golden.load(golden.path_of(name))
    log = [(player, notation) for player, notation, _ in data["steps"]]
    if not 0 <= index <= len(log):
        sys.exit(f"{name} has steps 0..{len(log)}")
    game = new_game(golden.options_of(data))
    events = list(game.events)
    for player, notation in log[:index]:
        events = game.apply(notation, player)
    print(json.dumps(golden.projection(game, events), indent=1, sort_keys=True))


def pictures(name: str, index: int, out: Path) -> None:
    """Write the views hashed after one step of a stored game as PNG files, to look at."""
    from renderer import render, render_score_sheet

    data = golden.load(golden.path_of(name))
    log = [(player, notation) for player, notation, _ in data["steps"]]
    if not 1 <= index <= len(log):
        sys.exit(f"{name} has steps 1..{len(log)}")
    use_text_layout("basic")
    game = new_game(golden.options_of(data))
    events = list(game.events)
    for player, notation in log[:index]:
        before = game.state.round
        events.extend(game.apply(notation, player))
    out.mkdir(parents=True, exist_ok=True)
    theme = data["theme"]
    for view in golden.views_for(game, before, game.is_over):
        if view == "describe":
            continue
        if view == "score":
            png = render_score_sheet(game.state, events, theme=theme)
        elif view.startswith("company:"):
            png = render(game.state, view="company", company=view[8:], theme=theme)
        else:
            png = render(game.state, view=view, theme=theme)
        path = out / f"{name}-{index}-{view.replace(':', '-')}.png"
        path.write_bytes(png)
        print(path)


def main() -> None:
    """Parse the command line and record, show or list."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="games of the catalogue (default: all)")
    parser.add_argument("--new", action="store_true", help="play afresh, ignoring stored logs")
    parser.add_argument("--show", nargs=2, metavar=("NAME", "STEP"), help="print a projection")
    parser.add_argument(
        "--pictures", nargs=3, metavar=("NAME", "STEP", "DIR"), help="write a step's views"
    )
    parser.add_argument("--text", action="store_true", help="rewrite only the transcripts")
    parser.add_argument("--list", action="store_true", help="list the catalogue")
    args = parser.parse_args()
    if args.show:
        show(args.show[0], int(args.show[1]))
        return
    if args.pictures:
        pictures(args.pictures[0], int(args.pictures[1]), Path(args.pictures[2]))
        return
    catalogue = {spec.name: spec for spec in golden.CATALOGUE}
    if args.list:
        for name, spec in catalogue.items():
            stored = "stored" if golden.path_of(name).exists() else "not recorded"
            print(f"{name:32} {spec.options.to_json()} {stored}")
        return
    unknown = [name for name in args.names if name not in catalogue]
    if unknown:
        sys.exit(f"unknown games {unknown}; see --list")
    golden.GAMES_DIR.mkdir(parents=True, exist_ok=True)
    use_text_layout("basic")
    for name in args.names or list(catalogue):
        began = time.perf_counter()
        spec = catalogue[name]
        line = write_text(spec) if args.text else record(spec, fresh=args.new)
        print(f"{line} ({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
