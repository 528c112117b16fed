"""bot/rules package."""
