"""Tests of bot/rules/expansions/leeghwater, one file per module."""
