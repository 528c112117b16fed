"""Tests of the Discord adapter that need no fake Discord."""
