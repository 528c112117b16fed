"""Tests of bot/rules/expansions/nile, one file per module."""
