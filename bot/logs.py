"""Logging set-up: one stderr handler whose output can never contain a secret."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from typing import TextIO

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
REDACTED = "[redacted]"


class RedactingFormatter(logging.Formatter):
    """Formats records, then blanks out every secret, tracebacks included."""

    def __init__(self, secrets: Iterable[str], fmt: str = FORMAT) -> None:
        """Remember the secrets to hide (empty strings are ignored)."""
        super().__init__(fmt)
        # Longest first, so a secret that contains another is hidden whole.
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        """The formatted record with each secret replaced."""
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text


def setup_logging(
    level: str, *, secrets: Iterable[str] = (), stream: TextIO | None = None
) -> logging.Handler:
    """Send all logging (ours and discord.py's) to stderr at `level`; return the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
