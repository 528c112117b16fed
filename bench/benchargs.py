"""The command line of the bench scripts that take a few whole numbers: `--help` prints the
script's docstring and what each number is, and a wrong argument is refused in one line."""

from __future__ import annotations

import argparse
import sys


def numbers(doc: str | None, *wanted: tuple[str, int, str]) -> list[int]:
    """The script's positional whole numbers, each given as (name, default, what it is)."""
    parser = argparse.ArgumentParser(
        prog=sys.argv[0],
        description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for name, default, what in wanted:
        parser.add_argument(name, type=int, nargs="?", default=default, help=f"{what} ({default})")
    given = parser.parse_args()
    return [getattr(given, name) for name, _, _ in wanted]
