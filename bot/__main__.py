"""Entry point: `python -m bot` and the `barrage-bot` console script."""

from __future__ import annotations


def main() -> int:
    """Start the bot (placeholder until the foundation lands)."""
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
