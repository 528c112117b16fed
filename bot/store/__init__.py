"""bot/store package."""
