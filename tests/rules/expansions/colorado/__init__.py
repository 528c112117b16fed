"""Tests of bot/rules/expansions/colorado, one file per module."""
