"""Fuzzing the bot through the fake Discord, each input judged by an oracle.

`build_world` adds a second server to a fake Discord (before the bot connects); a
`Fuzzer` then sends seeded inputs and checks each against the `Oracle`: a legal action
changes exactly its game by one step; anything else changes nothing, gets a specific
refusal and logs no error. A `ConsoleFuzzer` does the same with lines typed into the
terminal console. The test suite runs it in process (tests/e2e/test_fuzz.py),
`bench/fuzz.py` against the real bot process.
"""

from __future__ import annotations

from .console import ConsoleFuzzer
from .fuzzer import Fuzzer, Report, World, build_world
from .oracle import Oracle, Verdict, is_refusal

__all__ = [
    "ConsoleFuzzer",
    "Fuzzer",
    "Oracle",
    "Report",
    "Verdict",
    "World",
    "build_world",
    "is_refusal",
]
