"""The company board view: resources, wheel, tiles, structures and incomes, contracts."""

from __future__ import annotations

import functools
from collections.abc import Collection

from PIL import Image, ImageDraw

from bot.rules.state import GameState
from renderer import draw as d
from renderer.content import content
from renderer.fonts import Weight
from renderer.layout import board_layout
from renderer.theme import Theme, get_theme
from renderer.words import reward_text

RESOURCES = (
    ("credits", "credits"),
    ("excavators", "excavators"),
    ("mixers", "mixers"),
    ("engineers", "engineers left"),
)
KINDS = ("base", "elevation", "conduit", "powerhouse")
CELL_PADDING = 8  # pixels of a structure cell kept clear of its income text


def cell_lines(label: str, size: int, width: int, weight: Weight = "regular") -> list[str]:
    """Return ``label`` as the lines it is drawn in within ``width``: one, else two halves."""
    if not label or d.text_width(label, size, weight) <= width:
        return [label] if label else []
    words = label.split()
    # Split where the longer line is shortest, so "2VP 1mach" becomes "2VP" over "1mach".
    best = min(
        range(1, len(words)),
        key=lambda i: max(
            d.text_width(" ".join(words[:i]), size, weight),
            d.text_width(" ".join(words[i:]), size, weight),
        ),
        default=0,
    )
    if not best:
        return [d.fit(label, size, width, weight)]
    return [d.fit(" ".join(part), size, width, weight) for part in (words[:best], words[best:])]


def incomes_of(company_id: str) -> dict[tuple[str, int], str]:
    """Return the text of each income or bonus a structure row uncovers, keyed by (kind, piece)."""
    c = content()
    out = {(i.track, i.after_piece): reward_text(i.reward) for i in c.companies[company_id].income}
    for after, bonus in c.common.powerhouse_bonus_after.items():
        out[("powerhouse", after)] = f"+{bonus} prod."
    out[("powerhouse", c.common.ability_after_powerhouses)] = "ability"
    return out


@functools.lru_cache(maxsize=64)
def company_background(company_id: str, theme_name: str) -> Image.Image:
    """Return the static part of one company's board view (callers ``copy()`` it)."""
    theme = get_theme(theme_name)
    layout = board_layout("company")
    sizes = theme.views["company"].text
    c = content()
    image = Image.new("RGB", (layout.width, layout.height), theme.colour("background"))
    draw = ImageDraw.Draw(image)
    text, muted = theme.colour("text"), theme.colour("text muted")
    style = theme.company(company_id)
    d.piece(draw, layout.points["piece"], 22, style, sizes["value"])
    for name in ("wheel", "tiles", "structures", "construction", "contracts"):
        d.box(draw, layout.rects[name], theme.colour("panel"), theme.colour("panel outline"))
    x0, y0, x1, _ = layout.rects["wheel"]
    d.text(draw, (x0 + 12, y0 + 8), "Construction wheel", sizes["heading"], text, anchor="la")
    d.text(
        draw, (x1 - 12, y0 + 12), "+n: back after n turns", sizes["small"], muted, "regular", "ra"
    )
    x0, y0, _, _ = layout.rects["tiles"]
    d.text(draw, (x0 + 12, y0 + 8), "Tiles in supply", sizes["heading"], text, anchor="la")
    x0, y0, x1, _ = layout.rects["structures"]
    d.text(draw, (x0 + 12, y0 + 8), "Structures to build", sizes["heading"], text, anchor="la")
    d.text(
        draw, (x1 - 12, y0 + 12), "income when uncovered", sizes["small"], muted, "regular", "ra"
    )
    x0, y0, _, y1 = layout.rects["construction"]
    d.text(draw, (x0 + 12, (y0 + y1) // 2), "Construction", sizes["heading"], text, anchor="lm")
    for space, rect in zip(
        c.common.construction_spaces, layout.lists["construction_spaces"], strict=False
    ):
        red = space.red_outline
        d.box(
            draw,
            rect,
            theme.colour("panel"),
            theme.colour("red outline" if red else "panel outline"),
            4 if red else 2,
        )
    x0, y0, _, _ = layout.rects["contracts"]
    d.text(draw, (x0 + 12, y0 + 8), "Contracts", sizes["heading"], text, anchor="la")
    return image


def company_key(state: GameState, company_id: str) -> tuple[object, ...]:
    """Return everything ``draw_company`` reads of ``state``: equal keys draw equal boards."""
    return (company_id, repr(state.companies[company_id]), state.current, state.finished)


def draw_company(
    state: GameState, company_id: str, theme: Theme, highlight: Collection[str] = ()
) -> Image.Image:
    """Return the board view of ``company_id`` in ``state`` as a new RGB image."""
    layout = board_layout("company")
    c = content()
    company = state.companies[company_id]
    image = company_background(company_id, theme.name).copy()
    draw = ImageDraw.Draw(image)
    sizes = theme.views["company"].text
    text, muted = theme.colour("text"), theme.colour("text muted")
    style = theme.company(company_id)
    lit = {str(h) for h in highlight}

    officer = c.officers.get(company.officer)
    name = c.companies[company_id].name
    title = f"{name} · {officer.name if officer else company.officer}"
    d.text(
        draw,
        layout.points["title"],
        d.fit(title, sizes["title"], layout.width - 90, "bold"),
        sizes["title"],
        text,
        anchor="la",
    )
    turn = " · to play" if state.current == company_id and not state.finished else ""
    subtitle = f"{company.vp} VP · {company.energy}⚡ this round · seat {company.seat + 1}{turn}"
    d.text(draw, layout.points["subtitle"], subtitle, sizes["value"], text, "regular", "la")

    for (attr, label), rect in zip(RESOURCES, layout.lists["resources"], strict=True):
        x0, y0, x1, y1 = rect
        d.box(draw, rect, theme.colour("panel"), theme.colour("panel outline"))
        d.text(draw, ((x0 + x1) // 2, y0 + 32), str(getattr(company, attr)), sizes["title"], text)
        d.text(draw, ((x0 + x1) // 2, y1 - 22), label, sizes["small"], muted, "regular")

    # The wheel drawn as a ring of boxes in the order segments come back to the opening.
    for k, rect in enumerate(layout.lists["wheel_segments"]):
        index = (company.wheel_open + k) % len(company.wheel)
        segment = company.wheel[index]
        x0, y0, x1, y1 = rect
        is_open = k == 0
        fill = theme.colour("highlight") if is_open else theme.colour("basin")
        ink = "#1b1b1b" if is_open else text
        d.box(
            draw,
            rect,
            fill,
            text if is_open else theme.colour("panel outline"),
            3 if is_open else 2,
        )
        d.text(
            draw,
            (x0 + 12, y0 + 20),
            "open" if is_open else f"+{k}",
            sizes["label"],
            ink,
            anchor="lm",
        )
        lines = [*segment.tiles]
        machines = []
        if segment.excavators:
            machines.append(f"{segment.excavators} exc")
        if segment.mixers:
            machines.append(f"{segment.mixers} mix")
        if machines:
            lines.append(" · ".join(machines))
        if not lines:
            lines = ["empty"]
        for j, line in enumerate(lines[:3]):
            shown = line if j < 2 or len(lines) <= 3 else "…"
            d.text(
                draw,
                (x0 + 12, y0 + 56 + j * 32),
                d.fit(shown, sizes["small"], x1 - x0 - 20),
                sizes["small"],
                ink if lines != ["empty"] else muted,
                "regular",
                "lm",
            )

    x0, y0, x1, y1 = layout.rects["tiles"]
    x, y = x0 + 12, y0 + 64
    for tile in company.tiles or ["none"]:
        w = int(d.text_width(tile, sizes["small"])) + 20
        if x + w > x1 - 8:
            x, y = x0 + 12, y + 40
        chip = (x, y - 17, x + w, y + 17)
        d.box(draw, chip, theme.colour("basin"), theme.colour("panel outline"), 2, 8)
        d.text(
            draw,
            (x + 10, y),
            tile,
            sizes["small"],
            text if company.tiles else muted,
            "regular",
            "lm",
        )
        if tile in lit:
            d.ring(draw, chip, theme.colour("highlight"), text, width=4)
        x += w + 10

    incomes = incomes_of(company_id)
    pieces = c.common.pieces
    for kind in KINDS:
        placed = company.placed.get(kind, 0)
        at = layout.points[f"row_{kind}"]
        d.text(draw, (at[0], at[1] - 14), kind, sizes["label"], text, anchor="lm")
        d.text(
            draw,
            (at[0], at[1] + 14),
            f"{pieces.get(kind, 0) - placed} left",
            sizes["small"],
            muted,
            "regular",
            "lm",
        )
        for n, rect in enumerate(layout.lists[f"cells_{kind}"], start=1):
            x0, y0, x1, y1 = rect
            built = n <= placed
            income = incomes.get((kind, n), "")
            if built:
                # An uncovered income pays every round: drawn bold on an "active" edge.
                # The piece has left its slot: an empty grey slot, so white pieces still contrast.
                d.box(
                    draw,
                    rect,
                    theme.colour("unused"),
                    theme.colour("active") if income else theme.colour("panel outline"),
                    4 if income else 2,
                )
                label = income or "✓"
                ink = text
            else:
                d.box(draw, rect, style.fill, style.outline, 3)
                label, ink = income, style.ink
            weight = "bold" if built else "regular"
            lines = cell_lines(label, sizes["small"], x1 - x0 - CELL_PADDING, weight)
            step = sizes["small"] + 2
            top = (y0 + y1) // 2 - (len(lines) - 1) * step / 2
            for j, line in enumerate(lines):
                d.text(
                    draw, ((x0 + x1) // 2, round(top + j * step)), line, sizes["small"], ink, weight
                )

    for i, rect in enumerate(layout.lists["construction_spaces"]):
        space = c.common.construction_spaces[i]
        x0, y0, x1, y1 = rect
        cy = (y0 + y1) // 2
        if i < company.construction_spaces_used:
            d.piece(draw, (x0 + 30, cy), 20, style, sizes["small"])
            d.text(draw, (x0 + 58, cy), "used", sizes["small"], muted, "regular", "lm")
        else:
            for p in range(space.engineers):
                px = x0 + 20 + p * 18
                draw.ellipse((px - 7, cy - 7, px + 7, cy + 7), fill=text)
            if space.extra_credits:
                d.text(
                    draw,
                    (x1 - 10, cy),
                    f"+{space.extra_credits}c",
                    sizes["small"],
                    text,
                    "regular",
                    "rm",
                )
        if "build" in lit and i == company.construction_spaces_used:
            d.ring(draw, rect, theme.colour("highlight"), text, width=4)

    slots = layout.lists["contract_slots"]
    held = company.contracts
    for rect, contract_id in zip(slots, held, strict=False):
        x0, y0, x1, y1 = rect
        contract = c.contracts.get(contract_id)
        cy = (y0 + y1) // 2
        if contract:
            colour = (
                theme.colour(f"contract {contract.kind}")
                if contract.kind in ("green", "yellow", "red", "national")
                else muted
            )
            draw.rectangle((x0, y0 + 4, x0 + 14, y1 - 4), fill=colour)
            line = f"{contract_id} · {contract.energy}⚡ → {reward_text(contract.reward)}"
        else:
            line = str(contract_id)
        d.text(
            draw,
            (x0 + 24, cy),
            d.fit(line, sizes["small"], x1 - x0 - 30),
            sizes["small"],
            text,
            "regular",
            "lm",
        )
        if str(contract_id) in lit:
            d.ring(draw, rect, theme.colour("highlight"), text, width=4)
    if not held:
        x0, y0, x1, y1 = slots[0]
        d.text(draw, (x0 + 24, (y0 + y1) // 2), "none held", sizes["small"], muted, "regular", "lm")
    x0, y0, x1, y1 = slots[min(max(len(held), 1), len(slots) - 1)]
    done = ", ".join(str(f) for f in company.fulfilled) or "none"
    d.text(
        draw,
        (x0, (y0 + y1) // 2),
        d.fit(f"Fulfilled: {done}", sizes["small"], x1 - x0),
        sizes["small"],
        muted,
        "regular",
        "lm",
    )
    return image
