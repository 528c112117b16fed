"""Numbered schema migrations, one folder per backend."""
