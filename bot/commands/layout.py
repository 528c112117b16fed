"""How a decision fits on a phone: buttons (up to 15) or a select paged by option group."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service import OptionView

#: Up to this many options are shown as buttons (3 rows of 5); more go in a paged select.
BUTTON_LIMIT = 15
BUTTONS_PER_ROW = 5
PAGE_SIZE = 25
#: Discord's limits on a button's label and on a select option's label and description.
MAX_BUTTON_LABEL = 80
MAX_SELECT_TEXT = 100


def use_buttons(options: Sequence[OptionView]) -> bool:
    """True when the options are few enough for buttons, each label fitting on one (a longer
    label goes in a select, whole)."""
    return len(options) <= BUTTON_LIMIT and all(len(o.label) <= MAX_BUTTON_LABEL for o in options)


def select_texts(label: str, description: str) -> tuple[str, str]:
    """A select option's label and description within Discord's limits, never cut: a label
    too long for its line goes on into the description, from a word's end."""
    if len(label) <= MAX_SELECT_TEXT:
        return label, description
    room = MAX_SELECT_TEXT - 1  # the "…" that says the label goes on below
    cut = label.rfind(" ", 0, room)
    cut = cut if cut > 0 else room
    rest = "…" + label[cut:].lstrip()
    return label[:cut].rstrip() + "…", f"{rest} · {description}" if description else rest


def paginate(options: Sequence[OptionView], size: int = PAGE_SIZE) -> list[list[OptionView]]:
    """Pages of at most `size` options, in order, keeping each group on one page if it fits.

    A group larger than a page is split over several pages; small groups share a page.
    """
    groups: list[list[OptionView]] = []
    for option in options:
        if groups and groups[-1][0].group == option.group:
            groups[-1].append(option)
        else:
            groups.append([option])
    pages: list[list[OptionView]] = []
    current: list[OptionView] = []
    for group in groups:
        if current and len(current) + len(group) > size:
            pages.append(current)
            current = []
        while len(group) > size:
            pages.append(group[:size])
            group = group[size:]
        if current and len(current) + len(group) > size:
            pages.append(current)
            current = []
        current.extend(group)
    if current:
        pages.append(current)
    return pages


def page_groups(page: Sequence[OptionView]) -> str:
    """The groups on a page, e.g. 'Bank, Workshop' (for the select's placeholder)."""
    names: list[str] = []
    for option in page:
        if option.group and option.group not in names:
            names.append(option.group)
    return ", ".join(names) or "Options"
