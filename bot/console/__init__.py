"""bot/console package."""
