"""Tests of the expansions' packages, one folder per package of bot/rules/expansions."""
