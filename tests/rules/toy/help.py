"""The toy expansion's help topic (tests only): its statues and their poses."""

from __future__ import annotations

from bot.rules.content import Content
from bot.rules.rewards import describe_reward


def topics(content: Content) -> list[tuple[str, str, str]]:
    """(key, title, text): one topic, its poses read from its own content table."""
    poses = "; ".join(
        f"{row['id']}: {describe_reward(row['reward'], content)}"
        for row in content.of("toy")["pose"]
    )
    return [
        (
            "toy",
            "Expansion: The Toy Statues",
            "**The Toy Statues** (for tests)\nThe Statue Yard (1 engineer, 1 credit) builds a "
            f"statue on a basin's statue spot, in a pose of your choice ({poses}); each "
            "statue scores 1 VP in every Scoring phase.",
        )
    ]
