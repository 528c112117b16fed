"""How Discord parses mentions, and the mention policy the fake holds a bot to.

Discord does not keep a message's `allowed_mentions`: every request that sets `content`
(a send, or an edit of any kind) is parsed again, with that request's `allowed_mentions` or,
without one, with the defaults (every mention for a bot's channel message, user mentions for
interaction responses and webhooks). An edit therefore highlights the users it mentions again
unless it says otherwise; it never sends a push notification. Sources: Edit Message in
discord-api-docs ("If there is no explicit allowed_mentions in the edit request, the content
will be parsed with default allowances"), issues #2474 ("We do not persist allowed_mentions")
and #1419 (edits update `mentions` and highlight, without notifications).
"""

from __future__ import annotations

import re
from typing import Any

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
#: What a bot may allow: named users only (never @everyone/@here, roles, or "all users").
BROAD_PARSE = frozenset({"everyone", "roles", "users"})


def has_mentions(content: str) -> bool:
    """Whether the text holds anything Discord could turn into a ping."""
    return bool(
        USER_MENTION.search(content)
        or ROLE_MENTION.search(content)
        or "@everyone" in content
        or "@here" in content
    )


def mention_problems(data: dict[str, Any]) -> list[str]:
    """What breaks the policy in a send or edit body: mentions left to Discord's defaults,
    or allowed mentions broader than a list of users."""
    if "content" not in data:
        return []  # the content, and so the mentions, stay as they were
    rules = data.get("allowed_mentions")
    if rules is None:
        if has_mentions(data.get("content") or ""):
            return ["content with mentions but no explicit allowed_mentions"]
        return []
    problems = []
    broad = sorted(BROAD_PARSE & set(rules.get("parse") or []))
    if broad:
        problems.append(f"allowed_mentions parses {broad} (name the users instead)")
    if rules.get("roles"):
        problems.append(f"allowed_mentions allows roles {rules['roles']}")
    return problems
