"""Errors raised by the rules engine; every message quotes the input and says why."""

from __future__ import annotations


class RuleError(ValueError):
    """Base class: a request the engine refuses; the state is left unchanged."""


class MalformedNotation(RuleError):
    """The text is not a notation the engine understands at all."""


class IllegalMove(RuleError):
    """A well-formed notation that is not legal in the current position."""


class NotYourDecision(RuleError):
    """A player tried to answer a decision that belongs to someone else."""


class GameOver(RuleError):
    """The game has ended; no further decisions are accepted."""


class PositionError(ValueError):
    """A position (TOML) or stored state that is malformed or inconsistent."""
