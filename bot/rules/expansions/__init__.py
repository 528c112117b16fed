"""The expansions: one package each, found by `bot.rules.catalogue` through its expansion.toml.

Importing this package imports no expansion; a game imports those it uses.
"""
