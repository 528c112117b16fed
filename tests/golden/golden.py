"""Golden games: whole games recorded as logs with a hash of what the engine showed after each step.

A golden game is one gzipped JSON file in `tests/golden/games/`:

    {"format": 1, "name": "full-leeghwater-3p", "options": {...GameOptions...}, "theme": "light",
     "recorded_with": {"pillow": "13.0.0", "freetype": "2.14.3"},
     "start": "<hashes>",                      # the game as set up, before any answer
     "steps": [["usa", "build", "<hashes>"], ...],   # who answered what, in order
     "renders": {"57": {"map": "<hash>", ...}, ...}}  # after these steps (round ends)

`<hashes>` holds one 32-bit hash per part of the step's canonical projection (`PARTS`), each
of a canonical JSON text (sorted keys, no spaces), so nothing depends on how the engine keeps
its state or how its modules are organised:

- `position`: the position format's export (`bot.rules.position.export_position`);
- `decisions`: whether a turn is in progress, whether the game is over, and the pending
  decisions (player, kind, simultaneous, option notations in order);
- `events`: the step's events (kind, company, amount, source, data), in order;
- `texts`: what players read: the prompts, option labels, descriptions and groups, and the
  events' texts.

At each round end (the step after which the position's round has moved on, and the last step)
the renderer's views are drawn with Pillow's basic text layout and the hash of each view's
decoded pixels is kept (`views_for` says which views; the sizing is in its docstring).

Beside each game, `<name>.txt` is its readable transcript (`transcript`), as OpenSpiel's
playthroughs are, so a change shows as a diff a person can read: one line per step (number,
who, the notation, its place among the legal options, then the step's events in a few
characters), and a position summary (`position_summary`) at set-up, after each round end and
at the end. It is built only from notations, events' kinds, companies, amounts, sources and
data, and the position format's export -- never from labels or texts, so rewording what
players read changes the hashes' `texts` part but not the transcript.

The games are replayed by `tests/golden/test_golden_games.py` and (re-)recorded only by
`tools/record_golden.py`, for a deliberate change of a rule or a picture.
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import io
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, features

from bot.rules import Event, Game, GameOptions, new_game
from bot.rules.events import RESOURCE_KINDS
from bot.rules.position import export_position

FORMAT = 1
GAMES_DIR = Path(__file__).parent / "games"
PARTS = ("position", "decisions", "events", "texts")


# -- what is recorded ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GoldenSpec:
    """A game to record: its options, the seed of the choosing policy and the theme."""

    name: str
    options: GameOptions
    policy_seed: int
    theme: str = "light"


def _spec(name: str, players: int, setup: str, *expansions: str, **kw: Any) -> GoldenSpec:
    seed = int(kw.pop("seed", 0)) or sum(ord(c) * (i + 1) for i, c in enumerate(name)) % 10_000
    options = GameOptions(
        players=players,
        setup=setup,
        map=str(kw.pop("map", "base")),
        expansions=expansions,
        seed=seed,
    )
    return GoldenSpec(name, options, policy_seed=seed * 31 + players, **kw)


# Every setup and expansion mix at 2, 3 and 4 players (the 4/5-player map only at 4).
CATALOGUE: tuple[GoldenSpec, ...] = (
    _spec("intro-2p", 2, "intro"),
    _spec("intro-3p", 3, "intro", theme="dark"),
    _spec("intro-4p", 4, "intro"),
    _spec("full-2p", 2, "full", theme="dark"),
    _spec("full-3p", 3, "full"),
    _spec("full-4p", 4, "full"),
    _spec("five-player-map-intro-4p", 4, "intro", map="five_player", theme="dark"),
    _spec("five-player-map-full-4p", 4, "full", map="five_player"),
    _spec("leeghwater-2p", 2, "full", "leeghwater"),
    _spec("leeghwater-3p", 3, "full", "leeghwater", theme="dark"),
    _spec("leeghwater-4p", 4, "full", "leeghwater"),
    _spec("five-player-map-leeghwater-4p", 4, "full", "leeghwater", map="five_player"),
    _spec("colorado-intro-2p", 2, "intro", "colorado"),
    _spec("colorado-full-3p", 3, "full", "colorado"),
    _spec("colorado-intro-4p", 4, "intro", "colorado", theme="dark"),
    _spec("colorado-leeghwater-2p", 2, "full", "leeghwater", "colorado", theme="dark"),
    _spec("colorado-leeghwater-3p", 3, "full", "leeghwater", "colorado"),
    _spec("colorado-leeghwater-4p", 4, "full", "leeghwater", "colorado"),
    _spec("nile-intro-2p", 2, "intro", "nile", map="nile"),
    _spec("nile-full-3p", 3, "full", "nile", map="nile", theme="dark"),
    _spec("nile-full-4p", 4, "full", "nile", map="nile"),
    _spec("nile-leeghwater-2p", 2, "full", "leeghwater", "nile", map="nile"),
    _spec("nile-leeghwater-3p", 3, "full", "leeghwater", "nile", map="nile", theme="dark"),
    _spec("nile-leeghwater-4p", 4, "full", "leeghwater", "nile", map="nile"),
)


# -- the canonical projection -------------------------------------------------------------


def canonical(value: Any) -> str:
    """The canonical JSON text of a value: sorted keys, no spaces, tuples as lists."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def short_hash(text: str | bytes) -> str:
    """The first 32 bits of a SHA-256, in hex."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:8]


def projection(game: Game, events: list[Event]) -> dict[str, Any]:
    """The step's canonical projection: one JSON-able value per part of `PARTS`."""
    decisions = game.decisions()
    return {
        "position": export_position(game),
        "decisions": {
            "turn_in_progress": game.turn_in_progress,
            "over": game.is_over,
            "pending": [
                {
                    "player": d.player,
                    "kind": d.kind,
                    "simultaneous": d.simultaneous,
                    "options": [option.notation for option in d.options],
                }
                for d in decisions
            ],
        },
        "events": [
            {
                "kind": e.kind,
                "company": e.company,
                "amount": e.amount,
                "source": e.source,
                "data": e.data,
            }
            for e in events
        ],
        "texts": {
            "prompts": [d.prompt for d in decisions],
            "options": [[[o.label, o.description, o.group] for o in d.options] for d in decisions],
            "events": [e.text for e in events],
        },
    }


def step_hashes(game: Game, events: list[Event]) -> str:
    """The hashes of the step's projection parts, in `PARTS` order, joined by spaces."""
    parts = projection(game, events)
    return " ".join(short_hash(canonical(parts[name])) for name in PARTS)


def differing_parts(expected: str, actual: str) -> list[str]:
    """The names of the projection parts whose hashes differ."""
    pairs = zip(expected.split(), actual.split(), strict=True)
    return [name for name, (a, b) in zip(PARTS, pairs, strict=True) if a != b]


# -- round-end pictures -------------------------------------------------------------------


def views_for(game: Game, round_end: int, last: bool) -> list[str]:
    """The views hashed after a round end: all of them at the end of the game, two before.

    Sizing (the replay test should take about a minute on an idle 2-core machine): a view
    costs 50-200 ms to draw and encode (the full board up to 0.5 s before its palette is
    warm), so the 24 games hash every view once, after the last step (map, shared boards,
    each company board, the full board, the score sheet, and the text description), and after
    rounds 1-4 a rotating pair of the partial views (round r: the map or the shared boards,
    and the company board of seat r mod players), so every kind of view is also seen
    mid-game. Views are named "map", "shared", "company:<id>", "full", "score", "describe".
    """
    companies = [f"company:{cid}" for cid in game.state.seats]
    if last:
        return ["map", "shared", *companies, "full", "score", "describe"]
    board = "map" if round_end % 2 else "shared"
    return [board, companies[round_end % len(companies)], "describe"]


def view_hash(game: Game, view: str, events: list[Event], theme: str) -> str:
    """The hash of one view's decoded pixels (or of the text description)."""
    from renderer import describe, render, render_score_sheet

    state = game.state
    if view == "describe":
        return hashlib.sha256(describe(state).encode("utf-8")).hexdigest()[:16]
    if view == "score":
        png = render_score_sheet(state, events, theme=theme)
    elif view.startswith("company:"):
        png = render(state, view="company", company=view.split(":", 1)[1], theme=theme)
    else:
        png = render(state, view=view, theme=theme)
    image = Image.open(io.BytesIO(png))
    image.load()
    header = f"{image.mode} {image.size[0]}x{image.size[1]} ".encode()
    palette = image.palette.tobytes() if image.mode == "P" and image.palette else b""
    return hashlib.sha256(header + palette + image.tobytes()).hexdigest()[:16]


def library_versions() -> dict[str, str]:
    """The versions of the libraries the pixels depend on."""
    return {
        "pillow": features.version("pil") or "",
        "freetype": features.version("freetype2") or "",
    }


# -- the readable transcript -------------------------------------------------------------

# Events a step line leaves out: the answer is the step itself, the revealed contracts of a
# turn's end are also a `contracts_revealed` event, and what is loaded on the wheel is the
# tile and payment answered (by the player or automatically).
_UNTOLD = ("answer", "turn_end", "wheel_load")
_SHORT = {"credits": "cr", "energy": "en", "excavators": "exc", "mixers": "mix", "engineers": "eng"}


def _value(value: Any) -> str:
    """A data value in few characters: lists joined by commas, mappings as key:value."""
    if isinstance(value, list | tuple):
        return ",".join(_value(v) for v in value) or "-"
    if isinstance(value, dict):
        return ",".join(f"{k}:{_value(v)}" for k, v in value.items()) or "-"
    return str(value)


def _resource(event: Event) -> str:
    """A resource change in a few characters: "cr-5", "vp+2"."""
    return f"{_SHORT.get(event.kind, event.kind)}{event.amount:+d}"


def _source(source: str) -> str:
    """The source of an event in brackets, unless it only repeats the answer's action space."""
    return f"({source})" if source and not source.startswith(("space:", "construction")) else ""


def event_text(event: Event, player: str) -> str:
    """An event in a few characters, from its kind, company, amount, source and data (never its
    text, which is wording): "build conduit C8L", "water 1>8>EXIT_L", "italy contract_taken
    id=312"."""
    who = "" if event.company in (None, player) else f"{event.company} "
    data = event.data
    if event.kind in RESOURCE_KINDS:
        return f"{who}{_resource(event)}{_source(event.source)}"
    if event.kind == "auto":
        return f"{who}({data.get('notation', '')})"
    if event.kind == "build":
        return f"{who}build {data.get('structure')} {data.get('space')}"
    if event.kind == "wheel_rotate" and event.source.startswith("construction"):
        return f"{who}wheel{event.amount:+d}"
    if event.kind == "production" and {"dam", "conduit", "powerhouse"} <= set(data):
        where = f"{data['dam']}>{data['conduit']}>{data['powerhouse']}"
        return f"{who}production {event.amount:+d} {where} drops={data.get('drops')}"
    if event.kind == "water" and "path" in data:
        end = data.get("stopped_at") or data.get("exit") or "?"
        return f"water {'>'.join(str(p) for p in data['path'])}>{end}{_source(event.source)}"
    words = [f"{who}{event.kind}"]
    if event.amount:
        words.append(f"{event.amount:+d}")
    words.append(_source(event.source))
    told = {k: v for k, v in data.items() if v not in (None, [], {}, "")}
    if len(told) == 1:
        words += [_value(v) for v in told.values()]
    else:
        words += [f"{k}={_value(v)}" for k, v in told.items()]
    return " ".join(word for word in words if word)


def events_text(events: list[Event], player: str) -> str:
    """A step's events joined by "; ", those that say it left out; resource changes of one
    company from one source in a row told together ("germany cr+3 vp-3(scoring:energy-track)")."""
    told: list[str] = []
    last: tuple[str | None, str] | None = None
    for event in events:
        if event.kind in _UNTOLD:
            continue
        key = (event.company, event.source)
        if event.kind in RESOURCE_KINDS and key == last:
            source = _source(event.source)
            told[-1] = told[-1].removesuffix(source) + f" {_resource(event)}{source}"
            continue
        told.append(event_text(event, player))
        last = key if event.kind in RESOURCE_KINDS else None
    # The same event several times in a row (drops flowing the same way) told once, counted.
    runs: list[tuple[str, int]] = []
    for text in told:
        if runs and runs[-1][0] == text:
            runs[-1] = (text, runs[-1][1] + 1)
        else:
            runs.append((text, 1))
    return "; ".join(f"{n}x {text}" if n > 1 else text for text, n in runs)


def step_line(step: int, player: str, notation: str, before: list[Any], events: list[Event]) -> str:
    """One step as a line: number, who, the notation and its place among the options of the
    decisions before the step (so a change of what was legal shows), then what happened."""
    place = "?"
    for decision in before:
        notations = [option.notation for option in decision.options]
        if decision.player == player and notation in notations:
            place = (
                f"{notations.index(notation) + 1}/{len(notations)}" if len(notations) > 1 else ""
            )
            break
    told = events_text(events, player)
    line = f"{step:4} {player} {notation}" + (f" {place}" if place else "")
    return line + (f": {told}" if told else "")


def position_summary(game: Game) -> list[str]:
    """The position in a few lines, from the position format's export: the round and phase,
    then per company its VP, credits, energy, machinery, engineers, contracts and structures,
    and the water waiting on headstreams and held by neutral dams."""
    position = export_position(game)
    head = position["game"]
    lines = [
        f"     == round {head['round']}, {head['phase']}; order {' '.join(head['turn_order']) or '-'}"
    ]
    dams: dict[str, list[str]] = {}
    built: dict[str, list[str]] = {}
    for space, what in position["map"].items():
        if isinstance(what, dict):
            dams.setdefault(what["owner"], []).append(f"{space}:L{what['level']}w{what['water']}")
        else:
            built.setdefault(what, []).append(space)
    for cid, co in position["company"].items():
        done = ",".join(str(c) for c in co["fulfilled"]) or "-"
        lines.append(
            f"     {cid:<11} {co['vp']:3} VP {co['credits']:3} cr {co['energy']:3} en "
            f"{co['excavators']:2} exc {co['mixers']:2} mix {co['engineers']:2} eng; contracts "
            f"{_value(co['contracts'])} done {done}; dams {' '.join(dams.get(cid, [])) or '-'}; "
            f"conduits+powerhouses {' '.join(built.get(cid, [])) or '-'}"
        )
    waiting = " ".join(f"{hs}:{n}" for hs, n in head["headstream_water"].items() if n)
    lines.append(
        f"     water waiting {waiting or '-'}; neutral dams {' '.join(dams.get('neutral', [])) or '-'}"
    )
    return lines


def transcript(name: str, options: GameOptions, steps: list[Step]) -> str:
    """The game's readable text: a heading, one line per step, a position summary at set-up,
    after each round end and at the end."""
    lines = [f"# golden game {name}: {canonical(options.to_json())}"]
    lines += [line for step in steps for line in step.lines]
    return "\n".join(lines) + "\n"


# -- recording and replaying --------------------------------------------------------------


@dataclass
class Step:
    """One step as replayed: the answer, the projection's hashes and what was rendered."""

    index: int  # 1-based; 0 is the game as set up
    player: str
    notation: str
    hashes: str
    round: int
    renders: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)  # its lines of the transcript


def choose(game: Game, rng: random.Random) -> tuple[str, str]:
    """The policy's answer: a random pending decision, an option weighted towards building,
    producing and contracts (so games use most rules), Bank and passing rarely."""
    decision = rng.choice(game.decisions())
    weights = []
    for option in decision.options:
        text = option.notation
        if decision.kind == "turn":
            weight = 1.0
            if text == "build":
                weight = 6.0
            elif text.startswith("turbine"):
                weight = 5.0
            elif text.startswith("bank"):
                weight = 0.3
        elif text.endswith(" none") or text in ("pass", "no"):
            weight = 0.3
        else:
            weight = 1.0
        weights.append(weight)
    option = rng.choices(decision.options, weights)[0]
    return decision.player, option.notation


def play(
    options: GameOptions,
    log: list[tuple[str, str]],
    *,
    theme: str,
    policy: random.Random | None = None,
    render: bool = True,
) -> Iterator[Step]:
    """Play a game, yielding the set-up game (step 0) and each step with its hashes and renders.

    Answers come from `log` (recorded (player, notation) pairs) while it lasts, then from the
    `policy`. A refused recorded answer raises the engine's RuleError.
    """
    game = new_game(options)
    all_events = list(game.events)
    start = Step(0, "", "", step_hashes(game, game.events), game.state.round)
    told = events_text(game.events, "")
    start.lines = ["   0 set up" + (f": {told}" if told else ""), *position_summary(game)]
    yield start
    index = 0
    while not game.is_over:
        index += 1
        if index <= len(log):
            player, notation = log[index - 1]
        elif policy is not None:
            player, notation = choose(game, policy)
        else:
            raise ValueError(f"the log ends after {len(log)} steps, before the game does")
        before, decisions = game.state.round, game.decisions()
        events = game.apply(notation, player)
        all_events.extend(events)
        step = Step(index, player, notation, step_hashes(game, events), game.state.round)
        step.lines.append(step_line(index, player, notation, decisions, events))
        if game.state.round != before or game.is_over:
            step.lines += position_summary(game)
        if render and (game.state.round != before or game.is_over):
            for view in views_for(game, before, game.is_over):
                step.renders[view] = view_hash(game, view, all_events, theme)
        yield step
    if len(log) > index:
        raise ValueError(f"the game ends after {index} steps but the log has {len(log)}")


def path_of(name: str) -> Path:
    """Where a golden game is stored."""
    return GAMES_DIR / f"{name}.json.gz"


def text_path_of(name: str) -> Path:
    """Where a golden game's readable transcript is stored."""
    return GAMES_DIR / f"{name}.txt"


def transcript_diff(name: str, now: str, most: int = 60) -> str:
    """The recorded transcript's diff against the replayed one (its first `most` lines), or ""."""
    path = text_path_of(name)
    recorded = path.read_text(encoding="utf-8") if path.exists() else ""
    if recorded == now:
        return ""
    lines = list(
        difflib.unified_diff(
            recorded.splitlines(), now.splitlines(), f"{path.name} (recorded)", "now", lineterm=""
        )
    )
    more = f"\n... {len(lines) - most} more diff lines" if len(lines) > most else ""
    return "\nThe transcript, recorded against now:\n" + "\n".join(lines[:most]) + more


def load(path: Path) -> dict[str, Any]:
    """Read one golden game file."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    if data.get("format") != FORMAT:
        raise ValueError(f"{path.name}: golden format {data.get('format')!r}, expected {FORMAT}")
    return data


def save(path: Path, data: dict[str, Any]) -> None:
    """Write one golden game file, byte for byte the same for the same content."""
    text = json.dumps(data, indent=None, separators=(",", ":"), sort_keys=False) + "\n"
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
    path.write_bytes(raw.getvalue())


def options_of(data: dict[str, Any]) -> GameOptions:
    """The game options of a golden game file."""
    return GameOptions.from_json(data["options"])
