"""bot/commands package."""
