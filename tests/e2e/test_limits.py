"""Discord's component, content and autocomplete limits as the fake enforces them."""

from __future__ import annotations

from typing import Any

import pytest
from fakediscord import limits


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    """A primary button."""
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    """An action row."""
    return {"type": 1, "components": list(items)}


def select(n: int) -> dict[str, Any]:
    """A string select with n options."""
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": "s", "options": options}


GOOD = {
    "content": "x" * 2000,
    "components": [row(*(button(f"b{i}") for i in range(5)))],
    "attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1024}],
}

BAD: list[tuple[dict[str, Any], str]] = [
    ({"content": "x" * 2001}, "content is 2001 characters"),
    ({"components": [row(button(f"r{i}")) for i in range(6)]}, "6 action rows"),
    ({"components": [row(*(button(f"b{i}") for i in range(6)))]}, "6 buttons"),
    ({"components": [row(button("x" * 101))]}, "101 characters"),
    ({"components": [row(button("a")), row(button("a"))]}, "duplicate custom_id 'a'"),
    ({"components": [row(button("a", "L" * 81))]}, "is 81 characters"),
    ({"components": [row(select(26))]}, "26 options"),
    ({"components": [row(select(3), button("b"))]}, "must be alone"),
    (
        {"attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1025}]},
        "attachment description is 1025 characters (max 1024)",
    ),
]


def test_a_full_legal_message_passes() -> None:
    """2000 characters and a row of five buttons are fine."""
    assert limits.message_errors(GOOD) == []


@pytest.mark.parametrize(("body", "expected"), BAD)
def test_each_limit_is_enforced(body: dict[str, Any], expected: str) -> None:
    """Each body breaks exactly the limit named."""
    errors = limits.message_errors(body)
    assert any(expected in e for e in errors), errors


def test_autocomplete_choice_limits() -> None:
    """More than 25 choices, or a 101-character name, are refused."""
    choices = [{"name": f"c{i}", "value": str(i)} for i in range(26)]
    assert limits.choice_errors(choices) == ["26 autocomplete choices (max 25)"]
    assert limits.choice_errors(choices[:25]) == []
    assert limits.choice_errors([{"name": "n" * 101, "value": "v"}])
