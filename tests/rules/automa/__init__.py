"""Tests of bot/rules/automa, one file per module."""
