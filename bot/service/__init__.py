"""bot/service package."""
