"""Buttons for few options, a select paged by group for many."""

from __future__ import annotations

from bot.commands.layout import BUTTON_LIMIT, page_groups, paginate, use_buttons
from bot.service import OptionView


def options(*groups: tuple[str, int]) -> list[OptionView]:
    """n options in each named group, in order."""
    return [OptionView(f"{g}{i}", f"{g} {i}", g) for g, n in groups for i in range(n)]


def test_buttons_up_to_the_limit() -> None:
    """Fifteen options are buttons; sixteen are a select."""
    assert use_buttons(options(("a", BUTTON_LIMIT)))
    assert not use_buttons(options(("a", BUTTON_LIMIT + 1)))


def test_pages_keep_groups_together_and_hold_at_most_25() -> None:
    """Small groups share a page, a group never straddles a page if it fits on one."""
    pages = paginate(options(("Bank", 4), ("Workshop", 12), ("Water", 14), ("Build", 57)))
    assert all(len(p) <= 25 for p in pages)
    assert [len(p) for p in pages] == [16, 14, 25, 25, 7]
    assert page_groups(pages[0]) == "Bank, Workshop"
    flat = [o.notation for p in pages for o in p]
    assert flat == [o.notation for o in options(("Bank", 4), ("Workshop", 12), ("Water", 14),
                                                 ("Build", 57))]  # fmt: skip


def test_empty_and_single_page() -> None:
    """No options, no pages; 20 options, one page."""
    assert paginate([]) == []
    assert len(paginate(options(("a", 20)))) == 1
