"""The fake Discord for the text check's games through Discord."""

from fakediscord.fixtures import fake_discord

__all__ = ["fake_discord"]
