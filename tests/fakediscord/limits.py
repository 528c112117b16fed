"""Discord's limits on what a bot sends, checked by the fake (see notes/discord-platform.md)."""

from __future__ import annotations

from typing import Any

from .payloads import FLAG_COMPONENTS_V2

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
#: An attachment's description (its alt text).
MAX_ATTACHMENT_DESCRIPTION = 1024
AUTO_ARCHIVE_DURATIONS = frozenset({60, 1440, 4320, 10080})

BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6


def message_errors(body: dict[str, Any]) -> list[str]:
    """Return every limit the message body (create or edit) breaks."""
    errors: list[str] = []
    content = body.get("content")
    if content is not None and len(content) > MAX_CONTENT:
        errors.append(f"content is {len(content)} characters (max {MAX_CONTENT})")
    errors += _embed_errors(body.get("embeds") or [])
    for entry in body.get("attachments") or []:
        described = entry.get("description") if isinstance(entry, dict) else None
        if described is not None and len(described) > MAX_ATTACHMENT_DESCRIPTION:
            errors.append(
                f"attachment description is {len(described)} characters "
                f"(max {MAX_ATTACHMENT_DESCRIPTION})"
            )
    components = body.get("components")
    if components:
        if int(body.get("flags") or 0) & FLAG_COMPONENTS_V2:
            errors.append("components v2 is not supported by the fake")
        else:
            errors += component_errors(components)
    return errors


def _embed_errors(embeds: list[dict[str, Any]]) -> list[str]:
    """Check embed count and the combined text size."""
    errors: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"{len(embeds)} embeds (max {MAX_EMBEDS})")
    total = 0
    for embed in embeds:
        for key, limit in (("title", 256), ("description", 4096)):
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                errors.append(f"embed {key} is {len(text)} characters (max {limit})")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embed has {len(fields)} fields (max 25)")
        for field in fields:
            total += len(field.get("name", "")) + len(field.get("value", ""))
        total += len((embed.get("footer") or {}).get("text", ""))
        total += len((embed.get("author") or {}).get("name", ""))
    if total > MAX_EMBED_TOTAL:
        errors.append(f"embeds hold {total} characters (max {MAX_EMBED_TOTAL})")
    return errors


def component_errors(rows: list[dict[str, Any]]) -> list[str]:
    """Check the legacy layout: action rows of buttons or one select."""
    errors: list[str] = []
    if len(rows) > MAX_ROWS:
        errors.append(f"{len(rows)} action rows (max {MAX_ROWS})")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            errors.append(f"row {r}: top-level component type {row.get('type')} is not a row")
            continue
        items = row.get("components") or []
        if not items:
            errors.append(f"row {r} is empty")
        buttons = [c for c in items if c.get("type") == BUTTON]
        selects = [c for c in items if c.get("type") in SELECT_TYPES]
        if len(buttons) > MAX_BUTTONS_PER_ROW:
            errors.append(f"row {r}: {len(buttons)} buttons (max {MAX_BUTTONS_PER_ROW})")
        if selects and len(items) > 1:
            errors.append(f"row {r}: a select must be alone in its row")
        for item in items:
            errors += _item_errors(r, item, seen)
    return errors


def _item_errors(r: int, item: dict[str, Any], seen: set[str]) -> list[str]:
    """Check one button or select, recording its custom_id in `seen`."""
    errors: list[str] = []
    custom_id = item.get("custom_id")
    is_link = item.get("type") == BUTTON and item.get("style") in (LINK_STYLE, PREMIUM_STYLE)
    if custom_id is None and not is_link:
        errors.append(f"row {r}: component without custom_id")
    if custom_id is not None:
        if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
            errors.append(f"row {r}: custom_id {custom_id!r} is {len(custom_id)} characters")
        if custom_id in seen:
            errors.append(f"row {r}: duplicate custom_id {custom_id!r}")
        seen.add(custom_id)
    label = item.get("label") or ""
    if len(label) > MAX_LABEL:
        errors.append(f"row {r}: label {label[:20]!r}... is {len(label)} characters")
    if item.get("type") == BUTTON and not label and not item.get("emoji"):
        errors.append(f"row {r}: button {custom_id!r} has neither label nor emoji")
    if item.get("type") in SELECT_TYPES:
        errors += _select_errors(r, item)
    return errors


def _select_errors(r: int, item: dict[str, Any]) -> list[str]:
    """Check a select's options and value bounds."""
    errors: list[str] = []
    options = item.get("options") or []
    if item.get("type") == 3 and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        errors.append(f"row {r}: select has {len(options)} options (1..{MAX_SELECT_OPTIONS})")
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        errors.append(f"row {r}: select has duplicate option values")
    for option in options:
        for key in ("label", "value", "description"):
            text = option.get(key) or ""
            if len(text) > MAX_OPTION_TEXT:
                errors.append(f"row {r}: option {key} {text[:20]!r}... is {len(text)} characters")
    low, high = item.get("min_values", 1), item.get("max_values", 1)
    if not 0 <= low <= high <= MAX_SELECT_OPTIONS or (options and high > len(options)):
        errors.append(f"row {r}: select min_values={low} max_values={high} is invalid")
    if len(item.get("placeholder") or "") > MAX_PLACEHOLDER:
        errors.append(f"row {r}: placeholder longer than {MAX_PLACEHOLDER}")
    return errors


def choice_errors(choices: list[dict[str, Any]]) -> list[str]:
    """Check an autocomplete result."""
    errors: list[str] = []
    if len(choices) > MAX_CHOICES:
        errors.append(f"{len(choices)} autocomplete choices (max {MAX_CHOICES})")
    for choice in choices:
        name = choice.get("name") or ""
        if not 1 <= len(name) <= MAX_CHOICE_NAME:
            errors.append(f"choice name {name[:20]!r} is {len(name)} characters")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE_NAME:
            errors.append(f"choice value {value[:20]!r} is {len(value)} characters")
    return errors


def modal_errors(modal: dict[str, Any]) -> list[str]:
    """Check a modal: title, custom_id and 1 to 5 components."""
    errors: list[str] = []
    if not 1 <= len(modal.get("title") or "") <= 45:
        errors.append("modal title must be 1..45 characters")
    if not 1 <= len(modal.get("custom_id") or "") <= MAX_CUSTOM_ID:
        errors.append("modal custom_id must be 1..100 characters")
    if not 1 <= len(modal.get("components") or []) <= 5:
        errors.append("a modal holds 1..5 components")
    return errors
